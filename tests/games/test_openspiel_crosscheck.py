"""Cross-check of the rules engine against OpenSpiel, an independently written engine.

Why: our engine referees league results, and tests written from our own reading of the rule
book would repeat our own misreadings. OpenSpiel implements the same trick-taking mechanics
independently, so random games played there and replayed here must agree:

- ``oh_hell`` is Bluke without the two Blukes. It allows a bid of 0 (Bluke does not) and stops
  the dealer from bidding so that the bids add up to the tricks; we only choose bids of 1 or
  more among OpenSpiel's legal ones, which are all legal Bluke bids.
- ``euchre`` with ``allow_lone_defender`` covers Buck Euchre's calls, the dealer's discard and
  the trick play. A seat that sits out because its partner goes alone is, in Buck Euchre, a seat
  that dropped. Buck Euchre makes a turned-up club trump at once, with no calls, while OpenSpiel
  bids as usual, so deals whose upcard is a club are skipped. With ``stick_the_dealer`` the
  eight-pass, no-trump hand never arises; the other differences (OpenSpiel's dealer may not
  discard the upcard, only partners of lone players sit out) only narrow what is generated.
- Who leads after sit-outs: OpenSpiel starts the play at the first active seat left of the
  dealer, which is Buck Euchre's rule; the tests compare the seat to play at every card, so
  there is no excluded case.

Each OpenSpiel game becomes a move-log record (the JSON of docs/records.md), and our engine
must (a) accept it, (b) name the same trick winners, (c) allow exactly OpenSpiel's legal cards,
to the same seat, at every play, and (d) reject, at exactly that play, a card OpenSpiel refuses
there: ``must_follow_suit`` for a card the seat holds, ``not_in_hand`` for one it does not.
Scores are not compared: the games score differently.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from games import Bluke, BlukeHand, BuckEuchre, BuckEuchreHand, Card, Suit, card, check_record

pyspiel = pytest.importorskip("pyspiel")

pytestmark = pytest.mark.openspiel

SEED = 20_240_611
BLUKE_HANDS = 300
"""Half of them for 3 players, half for 4, of random sizes."""
EUCHRE_HANDS = 300
"""Deals with a club turned up are skipped and do not count."""
SUBSTITUTE_RATE = 0.2
"""Share of plays at which an illegal card is also tried (on a copy of the record)."""
HELD_SUBSTITUTE_RATE = 0.6
"""When the seat holds cards it may not play, the share of substitutions that use one."""

MAX_OH_HELL_TRICKS = {3: 13, 4: 12}
"""Bluke deals at most 13 cards to 3 or 4 players; OpenSpiel's ``oh_hell`` turns up a card
from the 52 for trump, so 4 players get at most 12."""

OH_HELL_DECK = 52
EUCHRE_DECK_SIZE = 24
EUCHRE = pyspiel.euchre
TRUMP_LETTERS = {
    EUCHRE.CLUBS_TRUMP_ACTION: "C",
    EUCHRE.DIAMONDS_TRUMP_ACTION: "D",
    EUCHRE.HEARTS_TRUMP_ACTION: "H",
    EUCHRE.SPADES_TRUMP_ACTION: "S",
}

OpenSpielState = Any
"""A ``pyspiel.State``; the bindings carry no type information."""


def _openspiel_card(text: str) -> Card:
    """OpenSpiel writes suit then rank (``"H9"``); our code is rank then suit."""
    return card(text[1] + text[0])


def _card_actions(game: Any, chance_prefix: list[int], count: int) -> dict[int, Card]:
    """The card of each card action, as OpenSpiel names it while dealing.

    Named from a state in the deal phase because ``oh_hell`` names actions by phase (during the
    bids, action 5 reads as a bid of -47)."""
    state = game.new_initial_state()
    for action in chance_prefix:
        state.apply_action(action)
    return {
        a: _openspiel_card(state.action_to_string(pyspiel.PlayerId.CHANCE, a)) for a in range(count)
    }


OH_HELL = {n: pyspiel.load_game("oh_hell", {"players": n}) for n in MAX_OH_HELL_TRICKS}
EUCHRE_GAME = pyspiel.load_game("euchre", {"allow_lone_defender": True, "stick_the_dealer": True})
OH_HELL_CARDS = _card_actions(OH_HELL[4], [1, 0], OH_HELL_DECK)
EUCHRE_CARDS = _card_actions(EUCHRE_GAME, [0], EUCHRE_DECK_SIZE)
OH_HELL_ACTIONS = {c: a for a, c in OH_HELL_CARDS.items()}
EUCHRE_ACTIONS = {c: a for a, c in EUCHRE_CARDS.items()}


@dataclass
class Crossed:
    """One hand played in OpenSpiel: our record of it and what OpenSpiel said along the way."""

    record: dict[str, Any]
    openspiel_deal: list[frozenset[Card]]
    """The hands as OpenSpiel holds them after the deal (the record's deal follows the dealing
    order we believe OpenSpiel uses; a test checks that belief)."""
    to_play: list[int] = field(default_factory=list)
    """OpenSpiel's seat to play at each play."""
    legal: list[frozenset[Card]] = field(default_factory=list)
    """OpenSpiel's legal cards at each play."""
    winners: list[int] = field(default_factory=list)
    """OpenSpiel's winner of each trick."""
    substitutes: list[tuple[int, Card, str]] = field(default_factory=list)
    """(play index, a card OpenSpiel refuses there, the error code we must give)."""

    def shown(self) -> str:
        """The record, for a failure message that reproduces the case."""
        return json.dumps(self.record)


def _sorted(found: set[Card] | frozenset[Card]) -> list[Card]:
    return sorted(found, key=lambda c: c.index)


def _play_out(
    state: OpenSpielState,
    crossed: Crossed,
    holding: list[set[Card]],
    *,
    cards: dict[int, Card],
    actions: dict[Card, int],
    deck: frozenset[Card],
    trick_size: int,
    rng: random.Random,
    on_trick: Callable[[OpenSpielState], None] | None = None,
) -> None:
    """Play random legal cards to the end, noting OpenSpiel's view of every play.

    ``holding`` is what each seat holds by OpenSpiel's deal; ``on_trick`` is called after the
    last card of each trick."""
    plays: list[str] = crossed.record["plays"]
    while not state.is_terminal():
        seat = state.current_player()
        choices = state.legal_actions()
        legal = frozenset(cards[a] for a in choices)
        crossed.to_play.append(seat)
        crossed.legal.append(legal)
        if rng.random() < SUBSTITUTE_RATE:
            crossed.substitutes.append(
                _substitute(state, len(plays), holding[seat], legal, actions, deck, rng)
            )
        action = rng.choice(choices)
        played = cards[action]
        state.apply_action(action)
        holding[seat].remove(played)
        plays.append(played.code)
        if on_trick is not None and len(plays) % trick_size == 0:
            on_trick(state)


def _substitute(
    state: OpenSpielState,
    index: int,
    held: set[Card],
    legal: frozenset[Card],
    actions: dict[Card, int],
    deck: frozenset[Card],
    rng: random.Random,
) -> tuple[int, Card, str]:
    """An illegal card for play ``index``, confirmed illegal by OpenSpiel itself."""
    unplayable = _sorted(held - legal)
    if unplayable and rng.random() < HELD_SUBSTITUTE_RATE:
        bad, code = rng.choice(unplayable), "must_follow_suit"
    else:
        bad, code = rng.choice(_sorted(deck - held)), "not_in_hand"
    with pytest.raises(pyspiel.SpielError):
        state.clone().apply_action_with_legality_check(actions[bad])
    return index, bad, code


# -- Bluke against oh_hell ------------------------------------------------------------------------

_HAND_LINE = re.compile(r"^\s+([CDSH]): ([2-9TJQKA]*)\s*$")
_TRICKS_WON = re.compile(r"^Tricks Won:\s*([\d ]+)$", re.MULTILINE)


def _oh_hell_hands(text: str, players: int) -> list[frozenset[Card]]:
    """Each player's hand as ``str(state)`` prints it (``Player: 0`` then one line a suit)."""
    hands: list[set[Card]] = [set() for _ in range(players)]
    seat: int | None = None
    for line in text.splitlines():
        if line.startswith("Player: "):
            seat = int(line.split()[1])
            continue
        found = _HAND_LINE.match(line)
        if found and seat is not None:
            hands[seat].update(card(rank + found[1]) for rank in found[2])
    return [frozenset(h) for h in hands]


def _oh_hell_tricks_won(state: OpenSpielState) -> list[int]:
    found = _TRICKS_WON.search(str(state))
    assert found, str(state)
    return [int(n) for n in found[1].split()]


def play_oh_hell(rng: random.Random, players: int, size: int) -> Crossed:
    """A random hand of ``oh_hell``: every bid at least 1, then random legal cards."""
    state = OH_HELL[players].new_initial_state()
    dealer = rng.randrange(players)
    pack = list(range(OH_HELL_DECK))
    rng.shuffle(pack)
    dealt = players * size
    for action in [size, dealer, *pack[: dealt + 1]]:
        state.apply_action(action)
    # OpenSpiel deals card k to player k % n, whoever deals (checked against str(state)).
    deal = [[OH_HELL_CARDS[a] for a in pack[seat:dealt:players]] for seat in range(players)]
    crossed = Crossed(
        record={
            "game": "bluke",
            "dealer": dealer,
            "deal": [[c.code for c in hand] for hand in deal],
            "turn_up": OH_HELL_CARDS[pack[dealt]].code,
            "bids": [0] * players,
            "plays": [],
        },
        openspiel_deal=_oh_hell_hands(str(state), players),
    )
    for _ in range(players):
        seat = state.current_player()
        bid = rng.choice([a for a in state.legal_actions() if a > OH_HELL_DECK])
        crossed.record["bids"][seat] = bid - OH_HELL_DECK
        state.apply_action(bid)

    won = [0] * players

    def note_winner(state: OpenSpielState) -> None:
        now = _oh_hell_tricks_won(state)
        (winner,) = [seat for seat in range(players) if now[seat] != won[seat]]
        crossed.winners.append(winner)
        won[:] = now

    _play_out(
        state,
        crossed,
        [set(h) for h in crossed.openspiel_deal],
        cards=OH_HELL_CARDS,
        actions=OH_HELL_ACTIONS,
        deck=frozenset(OH_HELL_CARDS.values()),
        trick_size=players,
        rng=rng,
        on_trick=note_winner,
    )
    return crossed


# -- Buck Euchre against euchre -------------------------------------------------------------------


def play_euchre(rng: random.Random) -> Crossed | None:
    """A random hand of ``euchre`` with lone players, or ``None`` when a club is turned up."""
    state = EUCHRE_GAME.new_initial_state()
    dealer = rng.randrange(4)
    pack = list(range(EUCHRE_DECK_SIZE))
    rng.shuffle(pack)
    turn_up = EUCHRE_CARDS[pack[20]]
    if turn_up.suit is Suit.CLUBS:
        return None
    for action in [dealer, *pack[:21]]:
        state.apply_action(action)
    # OpenSpiel deals the p-th card to seat (dealer + p) % 4 (checked against card_holder()).
    deal = [[EUCHRE_CARDS[a] for a in pack[(seat - dealer) % 4 : 20 : 4]] for seat in range(4)]
    holders = state.card_holder()
    crossed = Crossed(
        record={
            "game": "buck_euchre",
            "dealer": dealer,
            "deal": [[c.code for c in hand] for hand in deal],
            "turn_up": turn_up.code,
        },
        openspiel_deal=[
            frozenset(EUCHRE_CARDS[a] for a, held_by in enumerate(holders) if held_by == seat)
            for seat in range(4)
        ],
    )
    calls: list[str] = []
    while state.current_phase() == EUCHRE.Phase.BIDDING:
        choices = state.legal_actions()
        if EUCHRE.PASS_ACTION in choices and rng.random() < 0.7:
            action = EUCHRE.PASS_ACTION
        else:
            action = rng.choice([a for a in choices if a != EUCHRE.PASS_ACTION])
        if action == EUCHRE.PASS_ACTION:
            calls.append("pass")
        else:
            calls.append("order" if len(calls) < 4 else TRUMP_LETTERS[action])
        state.apply_action(action)
    crossed.record["calls"] = calls
    if state.current_phase() == EUCHRE.Phase.DISCARD:
        action = rng.choice(state.legal_actions())
        crossed.record["discard"] = EUCHRE_CARDS[action].code
        state.apply_action(action)
    while state.current_phase() == EUCHRE.Phase.GO_ALONE:
        alone = rng.random() < 0.3
        state.apply_action(EUCHRE.GO_ALONE_ACTION if alone else EUCHRE.PLAY_WITH_PARTNER_ACTION)
    crossed.record["drops"] = [s for s, active in enumerate(state.active_players()) if not active]
    crossed.record["plays"] = []
    holders = state.card_holder()
    _play_out(
        state,
        crossed,
        [{EUCHRE_CARDS[a] for a, h in enumerate(holders) if h == seat} for seat in range(4)],
        cards=EUCHRE_CARDS,
        actions=EUCHRE_ACTIONS,
        deck=frozenset(EUCHRE_CARDS.values()),
        trick_size=4 - len(crossed.record["drops"]),
        rng=rng,
    )
    crossed.winners = [trick.winner() for trick in state.tricks()]
    return crossed


# -- fixtures -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bluke_hands() -> list[Crossed]:
    rng = random.Random(SEED)
    hands = []
    for number in range(BLUKE_HANDS):
        players = 3 + number % 2
        hands.append(play_oh_hell(rng, players, rng.randint(1, MAX_OH_HELL_TRICKS[players])))
    return hands


@pytest.fixture(scope="module")
def euchre_hands() -> list[Crossed]:
    rng = random.Random(SEED + 1)
    hands: list[Crossed] = []
    while len(hands) < EUCHRE_HANDS:
        crossed = play_euchre(rng)
        if crossed is not None:
            hands.append(crossed)
    return hands


@pytest.fixture(params=["bluke", "buck_euchre"])
def crossed_hands(request: pytest.FixtureRequest) -> list[Crossed]:
    """The hands of one game, so that every check runs for both."""
    name = "bluke_hands" if request.param == "bluke" else "euchre_hands"
    hands: list[Crossed] = request.getfixturevalue(name)
    return hands


def our_hand(record: dict[str, Any]) -> BlukeHand | BuckEuchreHand:
    """Our state for the record, through the state API, ready for its first play."""
    deal = [[card(code) for code in hand] for hand in record["deal"]]
    dealer, turn_up = record["dealer"], card(record["turn_up"])
    if record["game"] == "bluke":
        players = len(deal)
        bluke = Bluke(players).new_hand(dealer=dealer, deal=deal, turn_up=turn_up)
        for k in range(players):
            bluke.apply_action(record["bids"][(dealer + 1 + k) % players])
        return bluke
    buck = BuckEuchre().new_hand(dealer=dealer, deal=deal, turn_up=turn_up)
    for call in record["calls"]:
        buck.apply_action(call)
    if "discard" in record:
        buck.apply_action(card(record["discard"]))
    buck.apply_drops(record["drops"])
    return buck


# -- the checks -----------------------------------------------------------------------------------


def test_the_record_deal_is_openspiels_deal(crossed_hands: list[Crossed]) -> None:
    """The dealing order we assume (``oh_hell``: card k to seat k % n, whoever deals;
    ``euchre``: card p to seat (dealer + p) % 4) is OpenSpiel's."""
    for crossed in crossed_hands:
        ours = [frozenset(card(code) for code in hand) for hand in crossed.record["deal"]]
        assert ours == crossed.openspiel_deal, crossed.shown()


def test_records_are_valid_and_winners_agree(crossed_hands: list[Crossed]) -> None:
    for crossed in crossed_hands:
        answer = check_record(crossed.record)
        assert answer["ok"] is True, (answer, crossed.shown())
        assert answer["winners"] == crossed.winners, crossed.shown()
        tricks = [answer["winners"].count(seat) for seat in range(len(answer["tricks"]))]
        assert answer["tricks"] == tricks, crossed.shown()


def test_legal_cards_agree_at_every_play(crossed_hands: list[Crossed]) -> None:
    for crossed in crossed_hands:
        hand = our_hand(crossed.record)
        for index, code in enumerate(crossed.record["plays"]):
            where = f"play {index} of {crossed.shown()}"
            assert hand.to_act == crossed.to_play[index], where
            assert frozenset(hand.legal_actions()) == crossed.legal[index], where
            hand.apply_action(card(code))
        assert hand.is_terminal(), crossed.shown()
        assert list(hand.result().winners or ()) == crossed.winners, crossed.shown()


def test_a_card_openspiel_refuses_is_refused_at_the_same_play(
    crossed_hands: list[Crossed],
) -> None:
    for crossed in crossed_hands:
        for index, bad, code in crossed.substitutes:
            record = copy.deepcopy(crossed.record)
            record["plays"][index] = bad.code
            answer = check_record(record)
            assert answer["ok"] is False, json.dumps(record)
            error = answer["error"]
            where = f"{bad.code} at play {index} of {crossed.shown()}: {error}"
            assert error["code"] == code, where
            assert error["play"] == index, where
            assert error["seat"] == crossed.to_play[index], where
            assert error["card"] == bad.code, where


def test_the_sample_reaches_every_case(
    bluke_hands: list[Crossed], euchre_hands: list[Crossed]
) -> None:
    """Guards the checks above against passing on a sample that misses what they are for."""
    for hands in (bluke_hands, euchre_hands):
        codes = [code for crossed in hands for _, _, code in crossed.substitutes]
        assert codes.count("must_follow_suit") >= 100
        assert codes.count("not_in_hand") >= 100
    sizes = {(len(c.record["deal"]), len(c.record["deal"][0])) for c in bluke_hands}
    assert sizes == {(n, size) for n in (3, 4) for size in range(1, MAX_OH_HELL_TRICKS[n] + 1)}
    records = [c.record for c in euchre_hands]
    assert any("discard" in r for r in records)
    assert any(len(r["calls"]) > 4 for r in records)
    assert any(len(r["calls"]) == 8 for r in records)  # the dealer was stuck
    assert {len(r["drops"]) for r in records} == {0, 1, 2}
    # Sit-outs that move the lead: the seat left of the dealer is out.
    assert any((r["dealer"] + 1) % 4 in r["drops"] for r in records)
