"""The pages' words for the engine's refusals (:mod:`league.web.refusal_words`):
built from the error's fields and what the form knows, never from the
engine's English ``message``, so that rewording the engine changes no page."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import games
from league.models import Game
from league.web.hand_forms import HandForm, Stage
from league.web.refusal_words import (
    LATER_HAND,
    TEMPLATES,
    UNKNOWN_CODE,
    EnteredHand,
    HandFacts,
    engine_message,
    later_hand_message,
    situation_key,
)
from tests.games.builders import BLUKE_EXAMPLE_HAND
from tests.support.records import BUCK_EUCHRE_REFUSALS
from tests.support.setups import club_setup

NAMES = ["Ann", "Bob", "Cleo", "Dan"]


def raised(action: Callable[[], object]) -> games.RecordError:
    """The engine's refusal of ``action``."""
    with pytest.raises(games.RecordError) as caught:
        action()
    return caught.value


def bluke(*, bids: list[int], tricks: list[int], cards: int = 5) -> tuple[Any, HandFacts]:
    """A Bluke hand of results as the engine judges it and as the form entered it."""
    error = raised(
        lambda: games.Bluke(4).score_results(
            cards=cards, trump=games.Suit.SPADES, bids=bids, tricks=tricks
        )
    )
    entered = EnteredHand(bids=bids, tricks=tricks, trump=games.Suit.SPADES)
    return error, HandFacts(game=Game.BLUKE, names=NAMES, cards=cards, entered=entered)


def buck(
    *, trump: str | None, maker: int | None, drops: list[int], tricks: list[int]
) -> tuple[Any, HandFacts]:
    """A Buck Euchre hand of results as the engine judges it and as the form entered it."""
    suit = None if trump is None else games.Suit(trump)
    error = raised(
        lambda: games.BuckEuchre(4).score_results(
            trump=suit, maker=maker, drops=drops, tricks=tricks
        )
    )
    entered = EnteredHand(
        tricks=tricks, trump=suit, no_trump=suit is None, maker=maker, drops=frozenset(drops)
    )
    return error, HandFacts(game=Game.BUCK_EUCHRE, names=NAMES, cards=5, entered=entered)


def record(changes: dict[str, Any]) -> tuple[Any, HandFacts]:
    """A Bluke hand card by card (docs/records.md's example) with ``changes``,
    as the engine judges it; the page knows only its players."""
    hand = {**BLUKE_EXAMPLE_HAND, **changes}
    return raised(lambda: games.evaluate_record(hand)), HandFacts(game=Game.BLUKE, names=NAMES)


def made(code: str, *, game: str = Game.BLUKE, **fields: Any) -> tuple[Any, HandFacts]:
    """An error with the fields the engine gives ``code`` at one of its raise
    sites that a small record cannot easily reach; its message is nonsense on
    purpose (the page must not need it)."""
    error = games.IllegalMove(code, "seat 3 hand 9: an engine message the page ignores", **fields)
    return error, HandFacts(game=game, names=NAMES)


CASES: dict[str, tuple[Callable[[], tuple[Any, HandFacts]], str]] = {
    # Result entry: what the engine says of results, with what the form entered.
    "bad_bid.out_of_range": (
        lambda: bluke(bids=[1, 1, 0, 1], tricks=[5, 0, 0, 0]),
        "Cleo's bid of 0 is out of range: bids run from 1 to 5.",
    ),
    "bad_bid.seat": (
        lambda: made("bad_bid", seat=2),  # a move log: "seat 2 has not bid yet"
        "Check Cleo's bid: each player bids once, a number from 1 to the cards dealt.",
    ),
    "bad_bid": (
        lambda: bluke(bids=[1, 1, 1], tricks=[5, 0, 0, 0]),
        "Check the bids: each player bids once, a number from 1 to the cards dealt.",
    ),
    "bad_tricks.out_of_range": (
        lambda: bluke(bids=[1, 1, 1, 1], tricks=[6, 0, 0, -1]),
        "Ann's 6 tricks are out of range: a player takes from 0 to 5.",
    ),
    "bad_tricks.total": (
        lambda: bluke(bids=[1, 1, 1, 1], tricks=[1, 1, 1, 1]),
        "The tricks add up to 4, not the 5 cards dealt.",
    ),
    "bad_tricks": (
        lambda: bluke(bids=[1, 1, 1, 1], tricks=[5, 0, 0]),
        "Check the tricks: enter each player's tricks; together they make up the tricks played.",
    ),
    "bad_tricks.dropped": (
        lambda: buck(trump="S", maker=1, drops=[3], tricks=[1, 3, 0, 1]),
        "Dan dropped out but took 1 trick: a player who drops out takes none.",
    ),
    "bad_tricks.total_in_play": (
        lambda: buck(trump="S", maker=1, drops=[3], tricks=[2, 3, 1, 0]),
        "The tricks add up to 6, not 5: the players still in take all 5 between them.",
    ),
    "bad_tricks.seat": (
        lambda: made("bad_tricks", game=Game.BUCK_EUCHRE, seat=3),  # of a later hand
        "Check the tricks Dan took: no more than the cards dealt, and none after dropping out.",
    ),
    "bad_drop.maker": (
        lambda: buck(trump="S", maker=1, drops=[1], tricks=[2, 0, 2, 1]),
        "Bob is the maker and cannot drop out.",
    ),
    "bad_drop.club_turned": (
        lambda: buck(trump="C", maker=None, drops=[3], tricks=[2, 2, 1, 0]),
        "Dan cannot drop out: a club was turned up, so everyone plays.",
    ),
    "bad_drop.seat": (
        lambda: buck(trump="S", maker=1, drops=[3, 3], tricks=[1, 3, 1, 0]),
        "Check whether Dan dropped out: the maker never drops, nor does anyone when a club "
        "was turned up.",
    ),
    "bad_drop": (
        lambda: buck(trump="S", maker=1, drops=[4], tricks=[1, 3, 1, 0]),
        "Check who dropped out: the maker never drops, nor does anyone when a club was turned up.",
    ),
    "bad_call.maker_without_trump": (
        lambda: buck(trump=None, maker=1, drops=[], tricks=[1, 3, 1, 0]),
        "Bob cannot be the maker of a hand with no trump.",
    ),
    "bad_call.no_maker": (
        lambda: buck(trump="S", maker=None, drops=[], tricks=[1, 3, 1, 0]),
        "Trump is spades but nobody made it: only a turned-up club makes trump without a maker.",
    ),
    "bad_call.seat": (
        lambda: made("bad_call", game=Game.BUCK_EUCHRE, seat=1),  # an unknown call
        "Check Bob's call: there is a maker exactly when someone ordered up or named trump.",
    ),
    "bad_call": (
        lambda: made("bad_call", game=Game.BUCK_EUCHRE),  # trump is already settled
        "Check trump and the maker: there is a maker exactly when someone ordered up or named "
        "trump.",
    ),
    "game_over.after_hand": (
        lambda: made("game_over", hand=6),
        "The game was already over after hand 6.",
    ),
    "game_over": (lambda: made("game_over"), "The game was already over."),
    # Hands sent card by card, which a correction may replay after the hand it corrects.
    "not_in_hand.seat": (
        lambda: record({"plays": ["AS"]}),
        "Bob does not hold A♠.",
    ),
    "not_in_hand": (
        lambda: made("not_in_hand", play=4),
        "A card is played by a player who does not hold it.",
    ),
    "must_follow_suit.seat": (
        lambda: record({"plays": ["9S", "QD"]}),
        "Cleo played Q♦ but could follow suit.",
    ),
    "must_follow_suit": (
        lambda: made("must_follow_suit", play=4),
        "A card is played that does not follow suit, though its player could.",
    ),
    "wrong_number_of_plays.extra": (
        lambda: record({"plays": ["9S", "TS", "AS", "7D", "KH", "QD", "4H", "BL", "2C", "5S"]}),
        "The hand has no place for play 10 or any after it.",
    ),
    "wrong_number_of_plays.short": (
        lambda: record({"plays": ["9S", "TS", "AS"]}),
        "The plays stop before the hand is finished: Ann is to play next.",
    ),
    "wrong_number_of_plays": (
        lambda: made("wrong_number_of_plays"),  # "the hand is not finished"
        "The number of cards played does not fit the hand.",
    ),
    "bad_card.card": (
        lambda: record({"turn_up": "XX"}),
        "“XX” is not a card of this game's deck.",
    ),
    "bad_card.seat": (
        lambda: made("bad_card", seat=2),
        "Cleo was dealt something that is not a card of this game's deck.",
    ),
    "bad_card": (
        lambda: made("bad_card"),
        "Something that is not a card of this game's deck is in the hand.",
    ),
    "duplicate_card.card": (
        lambda: record({"deal": [["AS", "7D", "AS"], ["KH", "2C", "9S"], ["QD", "TS", "4H"]]}),
        "A♠ is dealt twice, or dealt and turned up.",
    ),
    "duplicate_card": (
        lambda: made("duplicate_card"),
        "A card is dealt twice, or dealt and turned up.",
    ),
    "bad_deal.seat": (
        lambda: record({"deal": [["AS", "7D"], ["KH", "2C", "9S"], ["QD", "TS", "4H"]]}),
        "The cards dealt to Bob do not fit the game: every player is dealt the hand's number "
        "of cards.",
    ),
    "bad_deal": (
        lambda: record({"deal": [["AS", "7D", "BL"]], "bids": [1]}),
        "The deal does not fit the game: the wrong number of players or of cards.",
    ),
    "bad_discard.seat": (
        lambda: made("bad_discard", game=Game.BUCK_EUCHRE, seat=0, card="AS"),
        "Check the discard of Ann, the dealer: the dealer discards a card held, exactly when "
        "someone ordered up.",
    ),
    "bad_discard": (
        lambda: made("bad_discard", game=Game.BUCK_EUCHRE),
        "Check the dealer's discard: the dealer discards a card held, exactly when someone "
        "ordered up.",
    ),
    "too_large": (
        lambda: (
            raised(lambda: games.parse_record("[" * 100_000)),
            HandFacts(game=Game.BLUKE, names=NAMES),
        ),
        "The hand is too large for the rules engine to check.",
    ),
    "invalid": (
        lambda: record({"dealer": 7}),
        "The hand is not in a shape the rules engine reads: a field is missing, unknown or of "
        "the wrong kind.",
    ),
}
"""Every template, with an error of its situation (the engine's own where
a small record reaches it) and the page's sentence for it."""


@pytest.mark.parametrize("key", sorted(CASES))
def test_each_situation_renders_in_the_pages_words(key: str) -> None:
    make, expected = CASES[key]
    error, facts = make()
    assert situation_key(error, facts) == key
    assert engine_message(error, facts) == expected


def test_every_template_has_a_case_and_every_code_a_sentence() -> None:
    assert set(CASES) == set(TEMPLATES)
    for code in games.ERROR_CODES:
        # A code's own sentence is the fallback for any of its situations:
        # it must need no data at all.
        assert "{" not in TEMPLATES[code], code


@pytest.mark.parametrize("key", sorted(CASES))
def test_every_message_is_the_same_whatever_the_engine_says(key: str) -> None:
    error, facts = CASES[key][0]()
    before = engine_message(error, facts)
    error.message = "seat 0 of hand 0 is at fault, says a reworded engine"
    error.args = (error.message,)
    assert engine_message(error, facts) == before
    assert not re.search(r"\bseat \d", before)  # players are named, never numbered


def test_a_reworded_engine_message_changes_nothing() -> None:
    error, facts = bluke(bids=[1, 1, 0, 1], tricks=[5, 0, 0, 0])
    reworded = games.IllegalMove(
        error.code, "seat 0 bid 9 in hand 4: completely new words", seat=error.seat
    )
    assert engine_message(reworded, facts) == engine_message(error, facts)
    assert engine_message(reworded, facts) == (
        "Cleo's bid of 0 is out of range: bids run from 1 to 5."
    )


def test_an_unknown_code_gets_a_plain_sentence_from_the_code() -> None:
    error = games.InvalidRecord("invalid", "seat 1 did something new", seat=1)
    error.code = "bad_widget"  # an engine code newer than the pages
    facts = HandFacts(game=Game.BLUKE, names=NAMES)
    assert engine_message(error, facts) == UNKNOWN_CODE.format(description="bad widget")
    assert engine_message(error, facts) == "The rules do not allow this hand (bad widget)."


def test_a_seat_without_a_player_falls_back_to_the_codes_sentence() -> None:
    error = games.IllegalMove("bad_bid", "seat 7 bid 0: bids run 1..5", seat=7)
    facts = HandFacts(game=Game.BLUKE, names=NAMES, cards=5, entered=EnteredHand(bids=[1] * 4))
    assert engine_message(error, facts) == TEMPLATES["bad_bid"]


def test_missing_data_falls_back_to_the_codes_sentence() -> None:
    # bad_tricks.total needs the cards dealt, which a later hand's facts lack.
    error = games.InvalidRecord("bad_tricks", "tricks add up to 4, not the 5 cards dealt")
    later = HandFacts(game=Game.BLUKE, names=NAMES, entered=EnteredHand(tricks=[1, 1, 1, 1]))
    assert engine_message(error, later) == TEMPLATES["bad_tricks"]


def test_a_one_card_hand_is_counted_in_the_singular() -> None:
    error, facts = bluke(bids=[1, 1, 1, 1], tricks=[0, 0, 0, 0], cards=1)
    assert engine_message(error, facts) == "The tricks add up to 0, not the 1 card dealt."


NAME_LIKE = ["seat 2", "hand 3", "{name}", "Dan's {cards}"]
"""Player names that look like what the engine's messages (or the templates) hold."""


@pytest.mark.parametrize("seat", range(4))
def test_names_that_look_like_seats_hands_or_placeholders_are_shown_as_they_are(
    seat: int,
) -> None:
    bids = [1, 1, 1, 1]
    bids[seat] = 9
    error, facts = bluke(bids=bids, tricks=[5, 0, 0, 0])
    facts = HandFacts(game=facts.game, names=NAME_LIKE, cards=facts.cards, entered=facts.entered)
    assert engine_message(error, facts) == (
        f"{NAME_LIKE[seat]}'s bid of 9 is out of range: bids run from 1 to 5."
    )


def test_a_later_hand_says_which_hand_no_longer_fits() -> None:
    error = games.InvalidRecord("game_over", "the game was over after hand 0", hand=1)
    text = later_hand_message(error, game=Game.BUCK_EUCHRE, names=NAME_LIKE)
    assert text == LATER_HAND.format(hand=2, reason="The game was already over after hand 1.")
    assert (
        text == "With this change, hand 2 no longer fits. The game was already over after hand 1."
    )


# -- the form: each message by its field, whatever the engine's words -----------------------


@pytest.fixture
def reworded_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[games.RecordError]]:
    """The engine with every results refusal reworded (same code and fields,
    a message that names the wrong seat and hand): the pages must not care.
    Yields the reworded refusals raised, so that a test can see there were some."""
    raised: list[games.RecordError] = []

    def reworded(judge: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return judge(*args, **kwargs)
            except games.RecordError as error:
                reworded = type(error)(
                    error.code,
                    "seat 3 in hand 7 is wrong, says a reworded engine",
                    hand=error.hand,
                    play=error.play,
                    seat=error.seat,
                    card=error.card,
                )
                raised.append(reworded)
                raise reworded from None

        return wrapper

    for rules in (games.Bluke, games.BuckEuchre):
        monkeypatch.setattr(rules, "score_results", reworded(rules.score_results))
    yield raised


def hand_form(game: str, stage: Stage, data: dict[str, str], names: list[str]) -> HandForm:
    return HandForm(
        {"version": "1", **data},
        game=game,
        seats=names,
        dealer=0,
        cards=5 if game == Game.BUCK_EUCHRE else 13,
        options={},
        stage=stage,
        key="version",
    )


def test_bad_bids_are_shown_by_their_fields(reworded_engine: list[games.RecordError]) -> None:
    data = {"trump": "S", "bid_0": "3", "bid_1": "0", "bid_2": "4", "bid_3": "14"}
    form = hand_form(Game.BLUKE, Stage.BIDS, data, NAME_LIKE)
    assert not form.is_valid()
    assert form.errors == {
        "bid_1": ["hand 3's bid of 0 is out of range: bids run from 1 to 13."],
        "bid_3": ["Dan's {cards}'s bid of 14 is out of range: bids run from 1 to 13."],
    }
    assert [error.seat for error in reworded_engine] == [1, 3]


def test_tricks_that_do_not_add_up_are_shown_at_the_head_of_the_tricks(
    reworded_engine: list[games.RecordError],
) -> None:
    bids = {"bid_0": "3", "bid_1": "2", "bid_2": "4", "bid_3": "2"}
    tricks = {"tricks_0": "3", "tricks_1": "2", "tricks_2": "5", "tricks_3": "4"}
    form = hand_form(Game.BLUKE, Stage.WHOLE, {"trump": "S", **bids, **tricks}, NAMES)
    assert form.is_valid()
    with pytest.raises(games.RecordError) as caught:
        games.Bluke(4).score_results(cards=13, trump=None, bids=[3, 2, 4, 2], tricks=[3, 2, 5, 4])
    assert caught.value is reworded_engine[0]
    assert form.add_engine_error(caught.value) == "tricks"
    assert form.group_errors == {"tricks": ["The tricks add up to 14, not the 13 cards dealt."]}


@pytest.mark.parametrize(("changes", "field", "expected"), BUCK_EUCHRE_REFUSALS)
def test_buck_euchre_refusals_are_shown_by_their_field(
    reworded_engine: list[games.RecordError], changes: dict[str, str], field: str, expected: str
) -> None:
    data = {"trump": "S", "maker": "1", "drop_3": "on", "tricks_0": "1", "tricks_1": "3",
            "tricks_2": "1", "tricks_3": "0", **changes}  # fmt: skip
    form = hand_form(Game.BUCK_EUCHRE, Stage.WHOLE, data, NAME_LIKE)
    assert form.is_valid()
    record = form.record()
    with pytest.raises(games.RecordError) as caught:
        games.BuckEuchre(4).score_results(
            trump=games.Suit.parse(record["trump"]),
            maker=record["maker"],
            drops=record["drops"],
            tricks=record["tricks"],
        )
    assert caught.value is reworded_engine[0]
    assert form.add_engine_error(caught.value) == field
    shown = form.group_errors.get(field) or form.errors[field]
    assert shown == [expected.format(*NAME_LIKE)]


def test_a_refusal_of_a_later_hand_is_shown_for_the_whole_form() -> None:
    data = {"trump": "S", "maker": "1", "drop_1": "on", "tricks_0": "2", "tricks_1": "0",
            "tricks_2": "2", "tricks_3": "1"}  # fmt: skip
    form = hand_form(Game.BUCK_EUCHRE, Stage.WHOLE, data, NAMES)
    assert form.is_valid()
    later = games.InvalidRecord("game_over", "the game was over after hand 2", hand=3)
    assert form.add_engine_error(later, number=0) is None
    assert form.non_field_errors() == [
        "With this change, hand 4 no longer fits. The game was already over after hand 3."
    ]
    own = games.IllegalMove("bad_drop", "seat 1 is the maker and cannot drop", hand=0, seat=1)
    assert form.add_engine_error(own, number=0) == "drop_1"
    assert form.errors["drop_1"] == ["Bob is the maker and cannot drop out."]


# -- a page ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_entry_page_shows_the_pages_words_by_the_bid(
    reworded_engine: list[games.RecordError],
) -> None:
    setup = club_setup()
    player = setup.players[2]
    player.name = "seat 0 of hand 1"
    player.save()
    client = Client()
    client.force_login(setup.scorekeeper)
    data = {"number": "0", "step": "bids", "trump": "S", "bid_0": "3", "bid_1": "2",
            "bid_2": "0", "bid_3": "2"}  # fmt: skip
    response = client.post(reverse("hand-enter", kwargs={"table_id": setup.table.pk}), data)
    assert response.status_code == 200
    expected = "seat 0 of hand 1's bid of 0 is out of range: bids run from 1 to 13."
    assert response.context["form"].errors == {"bid_2": [expected]}
    page = response.content.decode()
    assert html.escape(expected) in page
    assert "reworded engine" not in page
    assert [error.seat for error in reworded_engine] == [2]
