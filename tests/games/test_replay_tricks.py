"""A move log replayed into tricks: each trick's leader, its cards by seat in
the order played, and its winner, as a score sheet shows a hand card by card."""

from __future__ import annotations

from typing import Any

import pytest

from games import Bluke, InvalidRecord, Trick, card, check_record, replay_tricks, rules_for
from games.bots import bot_game
from tests.games.builders import (
    BLUKE_EXAMPLE_HAND,
    BUCK_DEAL,
    buck_hand,
    buck_log,
    first_legal_plays,
)


def test_the_worked_bluke_hand_trick_by_trick() -> None:
    tricks = replay_tricks(Bluke(3), BLUKE_EXAMPLE_HAND, dealer=0)
    assert tricks == (
        Trick(leader=1, plays=((1, card("9S")), (2, card("TS")), (0, card("AS"))), winner=0),
        Trick(leader=0, plays=((0, card("7D")), (1, card("KH")), (2, card("QD"))), winner=2),
        Trick(leader=2, plays=((2, card("4H")), (0, card("BL")), (1, card("2C"))), winner=0),
    )


def test_a_hand_inside_a_game_may_leave_out_game_and_dealer() -> None:
    record = {k: v for k, v in BLUKE_EXAMPLE_HAND.items() if k not in ("game", "dealer")}
    assert replay_tricks(Bluke(3), record, dealer=0) == replay_tricks(
        Bluke(3), BLUKE_EXAMPLE_HAND, dealer=0
    )


def test_buck_euchre_tricks_skip_the_seat_that_dropped() -> None:
    calls = ("pass",) * 5 + ("S",)  # seat 1 names spades in round two
    plays = first_legal_plays(buck_hand(BUCK_DEAL, "AD", dealer=3, calls=calls, drops=(0,)))
    record = buck_log(calls=list(calls), drops=[0], plays=plays)
    tricks = replay_tricks(rules_for("buck_euchre", 4), record, dealer=3)
    assert len(tricks) == 5
    assert tricks[0].leader == 1  # seat 0, left of the dealer, dropped
    for trick in tricks:
        assert [seat for seat, _ in trick.plays] == [
            (trick.leader + k) % 4 for k in range(4) if (trick.leader + k) % 4 != 0
        ]
    assert [t.winner for t in tricks] == check_record(record)["winners"]


def test_a_lone_player_and_an_empty_table_have_no_tricks() -> None:
    rules = rules_for("buck_euchre", 4)
    lone = buck_log(calls=["pass"] * 5 + ["S"], drops=[0, 2, 3], plays=[])
    nobody = buck_log(calls=["pass"] * 8, drops=[3, 2, 1, 0], plays=[])
    assert replay_tricks(rules, lone, dealer=3) == ()
    assert replay_tricks(rules, nobody, dealer=3) == ()


@pytest.mark.parametrize("game", ["bluke", "buck_euchre"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tricks_of_bot_games_agree_with_the_engine(game: str, seed: int) -> None:
    """Over whole games: the tricks hold the plays in order, each playing seat
    once a trick from its leader clockwise, the next trick led by the last
    winner, and the winners the engine answers."""
    rules = rules_for(game, 4, {"max_cards": 5} if game == "bluke" else {})
    for number, record in enumerate(bot_game(rules, first_dealer=1, seed=seed, max_hands=30)):
        dealer = (1 + number) % 4
        answer = check_record({"game": game, "dealer": dealer, **_options(game), **record})
        tricks = replay_tricks(rules, record, dealer=dealer)
        played = [c.code for trick in tricks for _, c in trick.plays]
        assert played == [card(code).code for code in record["plays"]]
        if not record["plays"]:
            assert tricks == ()
            continue
        assert [trick.winner for trick in tricks] == answer["winners"]
        playing = [s for s in range(4) if s not in answer.get("drops", [])]
        for index, trick in enumerate(tricks):
            seats = [seat for seat, _ in trick.plays]
            assert seats[0] == trick.leader
            assert sorted(seats) == playing
            assert seats == sorted(seats, key=lambda s: (s - trick.leader) % 4)
            if index:
                assert trick.leader == tricks[index - 1].winner


def _options(game: str) -> dict[str, Any]:
    return {"options": {"max_cards": 5}} if game == "bluke" else {}


@pytest.mark.parametrize(
    ("record", "dealer"),
    [
        ({"trump": "S", "bids": [1, 1, 1], "tricks": [1, 0, 0]}, 0),  # results only
        ([], 0),
        (BLUKE_EXAMPLE_HAND, 1),  # the record names another dealer
        (dict(BLUKE_EXAMPLE_HAND, game="buck_euchre"), 0),
        (dict(BLUKE_EXAMPLE_HAND, extra=1), 0),
        (BLUKE_EXAMPLE_HAND, 3),  # not a seat
        (dict(BLUKE_EXAMPLE_HAND, plays=BLUKE_EXAMPLE_HAND["plays"][:-1]), 0),
    ],
)
def test_what_is_not_a_replayable_move_log_is_refused(record: Any, dealer: int) -> None:
    with pytest.raises(InvalidRecord):
        replay_tricks(Bluke(3), record, dealer=dealer)
