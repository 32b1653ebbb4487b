"""Property tests: random legal play, replayed and rescored, must agree with the rule book.

The hands come from :mod:`tests.games.strategies`, played through the state API. Each
property checks the engine against a small oracle written here from rules.md and
records.md (who plays next, what may be played, who wins a trick, what a hand scores,
when a game ends and how it ranks), not against the engine's own tables, so that a
mistake shared by the state API and the record checker still shows.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games import ALL_CARDS, EUCHRE_DECK, Bluke, BuckEuchre, check_record
from tests.games.strategies import (
    BLUKE,
    BUCK_EUCHRE,
    BUCK_START,
    GeneratedGame,
    PlayedHand,
    any_games,
    any_hands,
    bluke_games,
    bluke_hands,
    bluke_schedule,
    buck_euchre_decided,
    buck_euchre_games,
    buck_euchre_hands,
    largest_bluke_hand,
    map_cards,
    play_bluke_hand,
    respell,
    seeds,
)

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""Bounded so the whole file runs in seconds; ``deadline=None`` because a 15-seat hand on
a busy CI core can take longer than hypothesis's default deadline without being slow."""
GAMES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RANKS = "23456789TJQKA"
PARTNER = {"C": "S", "S": "C", "D": "H", "H": "D"}


# -- an oracle written from rules.md -----------------------------------------------------


def rank(code: str) -> int:
    return RANKS.index(code[0]) + 2


def is_bluke(code: str) -> bool:
    return code in ("BH", "BL")


def suit_as_played(game: str, code: str, trump: str | None) -> str | None:
    """The suit a card counts as: ``None`` for a Bluke; the left bower is a trump."""
    if is_bluke(code):
        return None
    if game == BUCK_EUCHRE and trump is not None and code == "J" + PARTNER[trump]:
        return trump
    return code[1]


def suit_to_follow(game: str, led: str, trump: str | None, bluke_lead: str) -> str | None:
    """What the others must follow after ``led``; ``None``: anything goes."""
    if is_bluke(led):
        return trump if bluke_lead == "trump" else None
    return suit_as_played(game, led, trump)


def power(game: str, code: str, trump: str | None, led_suit: str | None) -> int:
    """A card's strength in a trick: Blukes, then bowers, then trumps, then the suit led."""
    if code == "BH":
        return 101
    if code == "BL":
        return 100
    if game == BUCK_EUCHRE and trump is not None:
        if code == "J" + trump:
            return 99
        if code == "J" + PARTNER[trump]:
            return 98
    suit = suit_as_played(game, code, trump)
    if trump is not None and suit == trump:
        return 50 + rank(code)
    return rank(code) if suit == led_suit else 0


@dataclass
class Replay:
    """What the rule book says happened in a move log."""

    trump: str | None
    maker: int | None
    playing: list[int]
    seats: list[int]
    legal: list[frozenset[str]]
    winners: list[int]


def buck_euchre_calls(record: dict[str, Any]) -> tuple[str | None, int | None]:
    """Trump and maker from the calls (rules.md, Buck Euchre, Trump)."""
    turned = record["turn_up"][1]
    if turned == "C":
        return "C", None
    for index, call in enumerate(record["calls"]):
        seat = (record["dealer"] + 1 + index) % 4
        if call == "order":
            return turned, seat
        if call != "pass":
            return call, seat
    return None, None


def replay(hand: PlayedHand) -> Replay:
    """Turn order, legal cards and trick winners of ``hand`` by the rule book."""
    record = hand.record
    n = hand.players
    bluke_lead = hand.options.get("bluke_lead", "trump")
    if hand.game == BLUKE:
        turned = record["turn_up"]
        trump, maker = (None if is_bluke(turned) else turned[1]), None
        playing = [(hand.dealer + 1 + k) % n for k in range(n)]
    else:
        trump, maker = buck_euchre_calls(record)
        dropped = set(record.get("drops", []))
        playing = [s for s in ((hand.dealer + 1 + k) % 4 for k in range(4)) if s not in dropped]
    out = Replay(trump, maker, playing, [], [], [])
    if len(playing) < 2:
        return out
    leader = playing[0]
    trick: list[tuple[int, str]] = []
    for index, code in enumerate(record["plays"]):
        seat = leader if not trick else playing[(playing.index(trick[-1][0]) + 1) % len(playing)]
        held = hand.held[index]
        follow = suit_to_follow(hand.game, trick[0][1], trump, bluke_lead) if trick else None
        followers = {c for c in held if suit_as_played(hand.game, c, trump) == follow}
        if follow is not None and followers:
            legal = followers | {c for c in held if is_bluke(c)}
        else:
            legal = set(held)
        out.seats.append(seat)
        out.legal.append(frozenset(legal))
        trick.append((seat, code))
        if len(trick) == len(playing):
            led_suit = suit_as_played(hand.game, trick[0][1], trump)
            best = max(trick, key=lambda play: power(hand.game, play[1], trump, led_suit))
            leader = best[0]
            out.winners.append(leader)
            trick = []
    return out


def bluke_points(bid: int, took: int) -> int:
    """rules.md: ``10 x bid + (tricks - bid)`` when made, else ``-10 x bid``."""
    return 10 * bid + (took - bid) if took >= bid else -10 * bid


def buck_euchre_points(tricks: list[int], maker: int | None, drops: list[int]) -> list[int]:
    """rules.md: -1 a trick; +5 for a maker under 3 tricks or anyone else in with none."""
    points = []
    for seat, took in enumerate(tricks):
        if seat in drops:
            points.append(0)
            continue
        bucked = took < 3 if seat == maker else took == 0
        points.append(-took + (5 if bucked else 0))
    return points


def competition_ranks(totals: list[int]) -> list[int]:
    """Higher is better; equal totals share a place and the next is skipped (1, 1, 3)."""
    return [1 + sum(1 for other in totals if other > mine) for mine in totals]


def without_winners(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k != "winners"}


# -- replaying random legal play ---------------------------------------------------------


@FAST
@given(hand=any_hands())
def test_random_legal_play_replays_as_valid(hand: PlayedHand) -> None:
    """The record checker replays through the state API, so a log the state API accepted
    must come back valid with exactly the state's tricks, points and winners."""
    answer = check_record(hand.record)
    assert answer["ok"] is True, answer
    assert answer == hand.answer


@FAST
@given(hand=any_hands())
def test_turns_legal_cards_and_winners_follow_the_rule_book(hand: PlayedHand) -> None:
    """The state API and the checker could share a mistake; the oracle written from
    rules.md shares nothing with them."""
    expected = replay(hand)
    assert list(hand.seats) == expected.seats
    for index, legal in enumerate(hand.legal):
        assert legal == expected.legal[index], f"play {index}"
    assert hand.answer["trump"] == expected.trump
    if hand.game == BUCK_EUCHRE:
        assert hand.answer["maker"] == expected.maker
    if len(expected.playing) >= 2:
        assert hand.answer["winners"] == expected.winners
        counted = Counter(expected.winners)
        assert hand.answer["tricks"] == [counted[s] for s in range(hand.players)]


@FAST
@given(hand=any_hands(), seed=seeds)
def test_card_codes_are_read_in_any_spelling(hand: PlayedHand, seed: int) -> None:
    """rules.md: codes are case-insensitive and ``10`` is accepted for ``T``."""
    rng = random.Random(seed)
    respelled = map_cards(hand.record, lambda code: respell(code, rng))
    assert check_record(respelled) == hand.answer


# -- the deal ------------------------------------------------------------------------------


@FAST
@given(hand=any_hands())
def test_every_card_is_dealt_once(hand: PlayedHand) -> None:
    """No card twice across the hands and the turn-up; equal hands within the schedule."""
    record = hand.record
    dealt = [c for seat in record["deal"] for c in seat] + [record["turn_up"]]
    assert len(dealt) == len(set(dealt))
    assert {len(seat) for seat in record["deal"]} == {hand.cards}
    assert len(record["deal"]) == hand.players
    if hand.game == BLUKE:
        assert 1 <= hand.cards <= largest_bluke_hand(hand.players)
        assert hand.players * hand.cards <= 52, "at least two cards stay undealt"
    else:
        assert hand.cards == 5
        assert set(dealt) <= {c.code for c in EUCHRE_DECK}


@FAST
@given(players=st.integers(2, 15), data=st.data())
def test_engine_deals_every_card_once(players: int, data: st.DataObject) -> None:
    """``deal_random`` (used by bots and demos) must deal distinct cards of the right deck."""
    rng = random.Random(data.draw(seeds))
    size = data.draw(st.integers(1, largest_bluke_hand(players)))
    deal, turn_up = Bluke(players).deal_random(rng, cards=size)
    dealt = [c for seat in deal for c in seat] + [turn_up]
    assert len(set(dealt)) == len(dealt) == players * size + 1
    assert [len(seat) for seat in deal] == [size] * players
    deal, turn_up = BuckEuchre().deal_random(rng)
    dealt = [c for seat in deal for c in seat] + [turn_up]
    assert len(set(dealt)) == len(dealt) == 21
    assert set(dealt) <= EUCHRE_DECK


@FAST
@given(players=st.integers(2, 15), data=st.data())
def test_bluke_schedule(players: int, data: st.DataObject) -> None:
    """rules.md: ``2M - 1`` hands of ``M .. 1 .. M`` cards; ``max_cards`` shortens it."""
    top = largest_bluke_hand(players)
    assert top * players <= 52
    assert Bluke(players).schedule == tuple(bluke_schedule(players))
    assert len(Bluke(players).schedule) == 2 * top - 1
    if players <= 4:
        assert len(Bluke(players).schedule) == 25
    cap = data.draw(st.integers(1, top))
    assert Bluke(players, max_cards=cap).schedule == tuple(bluke_schedule(players, cap))


@FAST
@given(hand=any_hands(), data=st.data())
def test_a_card_dealt_twice_is_refused(hand: PlayedHand, data: st.DataObject) -> None:
    """A deal that repeats a card, or deals the turn-up, is ``duplicate_card``."""
    record = hand.record
    deal = [list(seat) for seat in record["deal"]]
    positions = [(s, i) for s, seat in enumerate(deal) for i in range(len(seat))]
    seat, at = data.draw(st.sampled_from(positions))
    others = [deal[s][i] for s, i in positions if (s, i) != (seat, at)]
    deal[seat][at] = data.draw(st.sampled_from([*others, record["turn_up"]]))
    answer = check_record({**record, "deal": deal})
    assert answer["ok"] is False
    assert answer["error"]["code"] == "duplicate_card", answer


@FAST
@given(game=bluke_games(complete=False), data=st.data())
def test_bluke_hand_sizes_follow_the_schedule(game: GeneratedGame, data: st.DataObject) -> None:
    """Each hand of a game must deal the schedule's number of cards (``bad_deal``)."""
    schedule = bluke_schedule(game.players, game.options["max_cards"])
    assert [hand.cards for hand in game.hands] == schedule[: len(game.hands)]
    assert check_record(game.record)["ok"] is True
    index = len(game.hands)
    top = largest_bluke_hand(game.players)
    wrong = data.draw(st.integers(1, top).filter(lambda size: size != schedule[index]))
    rng = random.Random(data.draw(seeds))
    extra = play_bluke_hand(
        rng, players=game.players, dealer=(game.first_dealer + index) % game.players, cards=wrong
    )
    record = {**game.record, "hands": [*game.record["hands"], extra.in_game()]}
    answer = check_record(record)
    assert answer["ok"] is False
    assert answer["error"]["code"] == "bad_deal", answer
    assert answer["error"]["hand"] == index


# -- tricks add up ---------------------------------------------------------------------------


def check_tricks_add_up(answer: dict[str, Any], cards: int) -> None:
    tricks = answer["tricks"]
    if answer["game"] == BLUKE:
        assert sum(tricks) == cards
        assert all(0 <= t <= cards for t in tricks)
        return
    drops = answer["drops"]
    playing = [s for s in range(4) if s not in drops]
    assert sum(tricks[s] for s in playing) == (5 if playing else 0)
    for seat in drops:
        assert tricks[seat] == 0
        assert answer["points"][seat] == 0
    takers = [s for s in playing if tricks[s] == 5]
    assert answer["takes_all"] == (takers[0] if takers else None)
    assert answer["maker"] not in drops


@FAST
@given(hand=any_hands())
def test_tricks_add_up(hand: PlayedHand) -> None:
    """Bluke: to the hand size. Buck Euchre: 5 among the players still in, 0 if nobody is;
    a dropped player takes nothing and scores nothing."""
    answer = check_record(hand.record)
    check_tricks_add_up(answer, hand.cards)
    results = check_record(hand.results_only())
    check_tricks_add_up(results, hand.cards)


# -- one play changed for an illegal card -------------------------------------------------


def follow_suit_breaches(hand: PlayedHand) -> list[tuple[int, str]]:
    """(play index, card) where the seat had to follow and held an off-suit plain card."""
    return [
        (index, code)
        for index in range(len(hand.seats))
        for code in sorted(hand.held[index] - hand.legal[index])
    ]


def not_held(hand: PlayedHand, index: int) -> list[str]:
    """Cards the seat does not hold at play ``index``; Buck Euchre adds non-euchre cards."""
    return sorted(c.code for c in ALL_CARDS if c.code not in hand.held[index])


def expect_error(answer: dict[str, Any], **fields: Any) -> None:
    assert answer["ok"] is False, answer
    error = answer["error"]
    for key, value in fields.items():
        assert error.get(key) == value, (key, error)


@FAST
@given(hand=any_hands(min_cards=4), data=st.data())
def test_a_card_that_does_not_follow_suit_is_refused_at_its_play(
    hand: PlayedHand, data: st.DataObject
) -> None:
    """The first fault is reported, with the play, seat and card where it lies."""
    candidates = follow_suit_breaches(hand)
    assume(candidates)
    index, code = data.draw(st.sampled_from(candidates))
    plays = hand.plays
    plays[index] = code
    expect_error(
        check_record({**hand.record, "plays": plays}),
        code="must_follow_suit",
        play=index,
        seat=hand.seats[index],
        card=code,
        hand=None,
    )


@FAST
@given(hand=any_hands(), data=st.data())
def test_a_card_not_held_is_refused_at_its_play(hand: PlayedHand, data: st.DataObject) -> None:
    """Another seat's card, one already played, the turn-up, an undealt card, or (Buck
    Euchre) a card outside its deck: all ``not_in_hand``, reported with the canonical code
    even when the record spells it otherwise."""
    assume(hand.seats)
    index = data.draw(st.integers(0, len(hand.seats) - 1))
    code = data.draw(st.sampled_from(not_held(hand, index)))
    plays = hand.plays
    plays[index] = respell(code, random.Random(data.draw(seeds)))
    expect_error(
        check_record({**hand.record, "plays": plays}),
        code="not_in_hand",
        play=index,
        seat=hand.seats[index],
        card=code,
    )


@GAMES
@given(game=any_games(), data=st.data())
def test_an_illegal_play_in_a_game_names_its_hand(game: GeneratedGame, data: st.DataObject) -> None:
    """Inside a game the same error also carries the 0-based index of the hand."""
    logs = [number for number, form in enumerate(game.forms) if form == "log"]
    breaches = [
        (number, index, code)
        for number in logs
        for index, code in follow_suit_breaches(game.hands[number])
    ]
    plays = [(number, index) for number in logs for index in range(len(game.hands[number].seats))]
    kinds = [k for k, found in (("must_follow_suit", breaches), ("not_in_hand", plays)) if found]
    assume(kinds)
    error_code = data.draw(st.sampled_from(kinds))
    if error_code == "must_follow_suit":
        number, index, code = data.draw(st.sampled_from(breaches))
    else:
        number, index = data.draw(st.sampled_from(plays))
        code = data.draw(st.sampled_from(not_held(game.hands[number], index)))
    hands = list(game.record["hands"])
    plays = list(hands[number]["plays"])
    plays[index] = code
    hands[number] = {**hands[number], "plays": plays}
    expect_error(
        check_record({**game.record, "hands": hands}),
        code=error_code,
        hand=number,
        play=index,
        seat=game.hands[number].seats[index],
        card=code,
    )


# -- games ----------------------------------------------------------------------------------


def expected_outcome(game: GeneratedGame) -> tuple[list[int], bool, list[int] | None]:
    """Totals, completeness and ranks by the rule book, from the hands' points."""
    start = BUCK_START if game.game == BUCK_EUCHRE else 0
    totals = [start] * game.players
    winner = None
    for hand in game.hands:
        assert winner is None, "the generator stops at the hand that decides the game"
        totals = [t + p for t, p in zip(totals, hand.answer["points"], strict=True)]
        if game.game == BUCK_EUCHRE:
            winner = buck_euchre_decided(totals, hand.answer["takes_all"])
    if game.game == BLUKE:
        complete = len(game.hands) == len(bluke_schedule(game.players, game.options["max_cards"]))
        return totals, complete, competition_ranks(totals) if complete else None
    if winner is None:
        return totals, False, None
    ranks = [
        1
        if seat == winner
        else 2 + sum(1 for o, t in enumerate(totals) if o != winner and t < mine)
        for seat, mine in enumerate(totals)
    ]
    return totals, True, ranks


@GAMES
@given(game=any_games())
def test_game_totals_completion_and_ranks(game: GeneratedGame) -> None:
    """Totals are the start plus the sum of the hands' points; ``ranks`` is null exactly
    while the game is incomplete; places follow rules.md for each game."""
    answer = check_record(game.record)
    assert answer["ok"] is True, answer
    totals, complete, ranks = expected_outcome(game)
    assert answer["totals"] == totals
    assert answer["complete"] is complete
    assert answer["ranks"] == ranks
    assert len(answer["hands"]) == len(game.hands)
    for hand, form, got in zip(game.hands, game.forms, answer["hands"], strict=True):
        assert got == (hand.answer if form == "log" else without_winners(hand.answer))
    if ranks is not None and game.game == BUCK_EUCHRE:
        assert ranks.count(1) == 1, "the winner alone is first"


@GAMES
@given(game=any_games(), data=st.data())
def test_a_hand_after_the_end_is_game_over(game: GeneratedGame, data: st.DataObject) -> None:
    """records.md: a hand after the one that completes the game is ``game_over``."""
    assume(check_record(game.record)["complete"])
    extra = data.draw(st.sampled_from(game.record["hands"]))
    more = data.draw(st.integers(1, 3))
    record = {**game.record, "hands": [*game.record["hands"], *[extra] * more]}
    expect_error(check_record(record), code="game_over", hand=len(game.hands))


def bluke_results(cards: int, bids: list[int], tricks: list[int]) -> dict[str, Any]:
    return {"trump": "H", "cards": cards, "bids": bids, "tricks": tricks}


def test_equal_totals_share_a_place_and_skip_the_next() -> None:
    """records.md: 1, 1, 3."""
    record = {
        "game": BLUKE,
        "players": 3,
        "first_dealer": 0,
        "options": {"max_cards": 2},
        "hands": [
            bluke_results(2, [1, 1, 1], [1, 1, 0]),
            bluke_results(1, [1, 1, 1], [0, 0, 1]),
            bluke_results(2, [1, 1, 1], [1, 1, 0]),
        ],
    }
    answer = check_record(record)
    assert answer["totals"] == [10, 10, -10]
    assert answer["complete"] is True
    assert answer["ranks"] == [1, 1, 3]
    del record["hands"][-1]
    answer = check_record(record)
    assert answer["complete"] is False
    assert answer["ranks"] is None


def buck_results(maker: int, tricks: list[int]) -> dict[str, Any]:
    return {"trump": "S", "maker": maker, "tricks": tricks}


def test_buck_euchre_goes_on_while_the_lowest_score_is_shared() -> None:
    """rules.md: a tie for the lowest score at 0 or less plays another hand; then the
    unique lowest wins and the rest follow by score, lowest first, ties sharing."""
    first, second = buck_results(0, [4, 1, 0, 0]), buck_results(1, [1, 4, 0, 0])
    record: dict[str, Any] = {"game": BUCK_EUCHRE, "first_dealer": 0, "hands": [first, second] * 5}
    answer = check_record(record)
    assert answer["totals"] == [0, 0, 75, 75]
    assert answer["complete"] is False
    assert answer["ranks"] is None
    record["hands"].append(first)
    answer = check_record(record)
    assert answer["totals"] == [-4, -1, 80, 80]
    assert answer["complete"] is True
    assert answer["ranks"] == [1, 2, 3, 3]


def test_buck_euchre_taking_all_five_wins_though_not_lowest() -> None:
    """rules.md: taking all five tricks wins at once, whatever the scores."""
    hands = [buck_results(0, [4, 1, 0, 0]), {**buck_results(2, [0, 0, 5, 0]), "drops": [0]}]
    answer = check_record({"game": BUCK_EUCHRE, "first_dealer": 3, "hands": hands})
    assert answer["totals"] == [21, 29, 25, 35]
    assert answer["complete"] is True
    assert answer["ranks"] == [2, 3, 1, 4]
    assert answer["hands"][1]["takes_all"] == 2


# -- scoring -----------------------------------------------------------------------------------


@st.composite
def bluke_result_records(draw: st.DrawFn) -> dict[str, Any]:
    """A valid Bluke hand as results only: any bids, tricks adding up to the hand size."""
    n = draw(st.integers(2, 15))
    cards = draw(st.integers(1, largest_bluke_hand(n)))
    bids = draw(st.lists(st.integers(1, cards), min_size=n, max_size=n))
    takers = draw(st.lists(st.integers(0, n - 1), min_size=cards, max_size=cards))
    return {
        "game": BLUKE,
        "dealer": draw(st.integers(0, n - 1)),
        "cards": cards,
        "trump": draw(st.sampled_from(["C", "D", "H", "S", None])),
        "bids": bids,
        "tricks": [takers.count(s) for s in range(n)],
    }


@st.composite
def buck_euchre_result_records(draw: st.DrawFn) -> dict[str, Any]:
    """A valid Buck Euchre hand as results only, over every way trump can be settled."""
    trump = draw(st.sampled_from(["C", "D", "H", "S", None]))
    if trump is None:
        maker = None
    elif trump == "C":
        maker = draw(st.one_of(st.none(), st.integers(0, 3)))  # turned up, or named
    else:
        maker = draw(st.integers(0, 3))
    club_turned = trump == "C" and maker is None
    may_drop = [] if club_turned else [s for s in range(4) if s != maker]
    drops = draw(st.lists(st.sampled_from(may_drop), unique=True)) if may_drop else []
    playing = [s for s in range(4) if s not in drops]
    takers = draw(st.lists(st.sampled_from(playing), min_size=5, max_size=5)) if playing else []
    record: dict[str, Any] = {
        "game": BUCK_EUCHRE,
        "dealer": draw(st.integers(0, 3)),
        "trump": trump,
        "tricks": [takers.count(s) for s in range(4)],
    }
    if maker is not None or draw(st.booleans()):
        record["maker"] = maker
    if drops or draw(st.booleans()):
        record["drops"] = drops
    return record


def test_bluke_scoring_examples() -> None:
    """The worked examples of rules.md."""
    examples = [(6, 8, 62), (3, 5, 32), (5, 3, -50), (4, 0, -40)]
    for bid, took, points in examples:
        assert bluke_points(bid, took) == points
        other = 13 - took
        answer = check_record(
            {"game": BLUKE, "dealer": 0, "cards": 13, "trump": "S",
             "bids": [bid, 1], "tricks": [took, other]}
        )  # fmt: skip
        assert answer["points"][0] == points, answer


@FAST
@given(record=bluke_result_records())
def test_bluke_scoring_formula(record: dict[str, Any]) -> None:
    """Made: ``10 x bid + overtricks``; missed: ``-10 x bid`` however many were taken."""
    answer = check_record(record)
    assert answer["ok"] is True, answer
    assert answer["points"] == [
        bluke_points(b, t) for b, t in zip(record["bids"], record["tricks"], strict=True)
    ]
    assert answer["tricks"] == record["tricks"]
    assert answer["trump"] == record["trump"]


@FAST
@given(record=buck_euchre_result_records())
def test_buck_euchre_scoring_formula(record: dict[str, Any]) -> None:
    """-1 a trick; +5 for a maker under 3 tricks or anyone else still in with none;
    nothing for a dropped player."""
    answer = check_record(record)
    assert answer["ok"] is True, answer
    maker, drops = record.get("maker"), record.get("drops", [])
    assert answer["points"] == buck_euchre_points(record["tricks"], maker, drops)
    assert answer["maker"] == maker
    assert answer["drops"] == sorted(drops)
    check_tricks_add_up(answer, 5)


@FAST
@given(hand=any_hands())
def test_results_only_scores_like_the_move_log(hand: PlayedHand) -> None:
    """A club keeping score on paper must get the same points as one sending every card."""
    answer = check_record(hand.results_only())
    assert answer == without_winners(hand.answer)
    expected = (
        [bluke_points(b, t) for b, t in zip(hand.record["bids"], answer["tricks"], strict=True)]
        if hand.game == BLUKE
        else buck_euchre_points(answer["tricks"], answer["maker"], answer["drops"])
    )
    assert answer["points"] == expected


@FAST
@given(hand=bluke_hands(players=st.integers(2, 6)))
def test_bluke_points_follow_the_formula_from_a_move_log(hand: PlayedHand) -> None:
    answer = check_record(hand.record)
    assert answer["points"] == [
        bluke_points(b, t) for b, t in zip(hand.record["bids"], answer["tricks"], strict=True)
    ]


@FAST
@given(hand=buck_euchre_hands())
def test_buck_euchre_points_follow_the_formula_from_a_move_log(hand: PlayedHand) -> None:
    answer = check_record(hand.record)
    assert answer["points"] == buck_euchre_points(
        answer["tricks"], answer["maker"], answer["drops"]
    )


@GAMES
@given(game=buck_euchre_games())
def test_buck_euchre_games_in_progress_have_no_ranks(game: GeneratedGame) -> None:
    """Until a hand decides it, a Buck Euchre game is incomplete, whatever its length."""
    answer = check_record(game.record)
    _, complete, _ = expected_outcome(game)
    assert answer["complete"] is complete
    assert (answer["ranks"] is None) is (not complete)
