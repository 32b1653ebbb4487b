"""Every error code, with the first fault's location, and the error shape."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from games import (
    ERROR_CODES,
    Bluke,
    BuckEuchre,
    GameTally,
    RecordError,
    Suit,
    card,
    cards,
    check_record,
    evaluate_record,
    parse_record,
    rules_for,
)
from games.errors import InvalidRecord, check_seat
from games.limits import MAX_RECORD_CHARS
from tests.games.builders import BLUKE_EXAMPLE_HAND, BUCK_DEAL, buck_game, buck_log


def bluke(**changes: Any) -> dict[str, Any]:
    return {**BLUKE_EXAMPLE_HAND, **changes}


BUCK_RESULTS = {
    "game": "buck_euchre",
    "dealer": 0,
    "trump": "S",
    "maker": 1,
    "tricks": [1, 3, 1, 0],
}

# (record, the error expected: its code and whichever location fields are known)
CASES: list[tuple[dict[str, Any] | object, dict[str, Any]]] = [
    (
        bluke(plays=["9S", "TS", "AS", "7D", "KH", "QD", "4H", "BL", "3C"]),
        {"code": "not_in_hand", "play": 8, "seat": 1, "card": "3C"},
    ),
    (
        bluke(plays=["9S", "4H", "AS"]),
        {"code": "must_follow_suit", "play": 1, "seat": 2, "card": "4H"},
    ),
    (
        bluke(plays=["9S", "TS", "AS", "7D", "KH", "QD", "4H", "BL"]),
        {"code": "wrong_number_of_plays", "seat": 1},
    ),
    (
        bluke(plays=[*BLUKE_EXAMPLE_HAND["plays"], "AS"]),
        {"code": "wrong_number_of_plays", "play": 9, "card": "AS"},
    ),
    (bluke(plays=["9S", "TS", "XX"]), {"code": "bad_card", "play": 2, "card": "XX"}),
    (bluke(plays=["9S", "4H", "XX"]), {"code": "must_follow_suit", "play": 1}),
    (
        {
            "game": "buck_euchre",
            "dealer": 0,
            "deal": [
                ["9S", "TS", "JS", "QS", "KS"],
                ["9H", "TH", "JH", "QH", "KH"],
                ["9D", "TD", "JD", "QD", "KD"],
                ["9C", "TC", "JC", "QC", "KC"],
            ],
            "turn_up": "AH",
            "calls": ["order"],
            "discard": "AS",
            "plays": [],
        },
        {"code": "bad_discard", "seat": 0, "card": "AS"},
    ),
    (bluke(turn_up="5Z"), {"code": "bad_card", "card": "5Z"}),
    (
        bluke(deal=[["AS", "7D", "BL"], ["KH", "2C", "9S"], ["QD", "TS", 4]]),
        {"code": "bad_card", "seat": 2},
    ),
    (
        bluke(deal=[["AS", "7D", "BL"], ["KH", "2C", "9S"], ["QD", "TS", "AS"]]),
        {"code": "duplicate_card", "seat": 2, "card": "AS"},
    ),
    (bluke(turn_up="BL"), {"code": "duplicate_card", "card": "BL"}),
    (
        bluke(deal=[["AS", "7D", "BL"], ["KH", "2C"], ["QD", "TS", "4H"]]),
        {"code": "bad_deal", "seat": 1},
    ),
    (bluke(deal=[["AS"]]), {"code": "bad_deal"}),
    (bluke(deal=[[]] * 3), {"code": "bad_deal"}),
    (bluke(bids=[1, 9, 2]), {"code": "bad_bid", "seat": 1}),
    (
        {"game": "buck_euchre", "dealer": 0, "deal": [], "turn_up": "AD", "calls": [], "plays": []},
        {"code": "bad_deal"},
    ),
    ({**BUCK_RESULTS, "drops": [1]}, {"code": "bad_drop", "seat": 1}),
    ({**BUCK_RESULTS, "tricks": [1, 3, 1, 1]}, {"code": "bad_tricks"}),
    ({**BUCK_RESULTS, "maker": None}, {"code": "bad_call"}),
    (
        {
            "game": "bluke",
            "players": 2,
            "first_dealer": 0,
            "options": {"max_cards": 1},
            "hands": [{"trump": "S", "bids": [1, 1], "tricks": [1, 0]}] * 2,
        },
        {"code": "game_over", "hand": 1},
    ),
    (bluke(extra=1), {"code": "invalid"}),
    ({k: v for k, v in BLUKE_EXAMPLE_HAND.items() if k != "plays"}, {"code": "invalid"}),
    (bluke(game="chess"), {"code": "invalid"}),
    (bluke(dealer=3), {"code": "invalid"}),
    (bluke(dealer="0"), {"code": "invalid"}),
    (bluke(dealer=True), {"code": "invalid"}),
    (bluke(plays="9S TS"), {"code": "invalid"}),
    (bluke(options={"bluke_lead": "wild"}), {"code": "invalid"}),
    (bluke(options={"jokers": 3}), {"code": "invalid"}),
    ([BLUKE_EXAMPLE_HAND], {"code": "invalid"}),
    (
        {"game": "bluke", "players": 3, "first_dealer": 0, "hands": [7]},
        {"code": "invalid", "hand": 0},
    ),
]


@pytest.mark.parametrize(("record", "expected"), CASES)
def test_each_fault_is_reported_with_its_code_and_place(
    record: object, expected: dict[str, Any]
) -> None:
    answer = check_record(record)
    assert answer["ok"] is False
    error = answer["error"]
    assert {key: error.get(key) for key in expected} == expected
    assert isinstance(error["message"], str) and error["message"]
    assert list(error) == [
        k for k in ("code", "hand", "play", "seat", "card", "message") if k in error
    ]


def test_every_documented_code_is_produced_by_some_record() -> None:
    produced = {expected["code"] for _, expected in CASES} | {"too_large"}
    assert produced == set(ERROR_CODES)


def _bluke_deal() -> list[list[Any]]:
    return [cards(" ".join(hand)) for hand in BLUKE_EXAMPLE_HAND["deal"]]


def _buck_deal() -> list[list[Any]]:
    return [cards(" ".join(hand)) for hand in BUCK_DEAL]


_BLUKE_RESULTS = {"game": "bluke", "dealer": 0, "cards": 2, "trump": "S", "bids": [1, 1, 1]}

# Checks made in more than one place (a record and the state API, or both
# games), each pinned to its exact message: the places share the code that
# writes it, and the answers the service stores must not change with that.
SHARED_CHECKS: list[tuple[Callable[[], object], dict[str, Any]]] = [
    (
        lambda: evaluate_record(bluke(dealer=3)),
        {"code": "invalid", "message": "dealer 3 is not a seat of 3"},
    ),
    (
        lambda: Bluke(3).new_hand(dealer=3, deal=_bluke_deal(), turn_up=card("5S")),
        {"code": "invalid", "message": "dealer 3 is not a seat of 3"},
    ),
    (
        lambda: evaluate_record(buck_log(dealer=-1, plays=[])),
        {"code": "invalid", "message": "dealer -1 is not a seat of 4"},
    ),
    (
        lambda: BuckEuchre().new_hand(dealer=4, deal=_buck_deal(), turn_up=card("AD")),
        {"code": "invalid", "message": "dealer 4 is not a seat of 4"},
    ),
    (
        lambda: evaluate_record(dict(BUCK_RESULTS, maker=4)),
        {"code": "invalid", "message": "maker 4 is not a seat of 4"},
    ),
    (
        lambda: evaluate_record(dict(BUCK_RESULTS, drops=[4])),
        {"code": "bad_drop", "message": "drops holds 4, which is not a seat of 4"},
    ),
    (
        lambda: BuckEuchre().score_results(
            trump=Suit.SPADES, maker=1, drops=["1"], tricks=[1, 3, 1, 0]
        ),
        {"code": "bad_drop", "message": 'drops holds "1", which is not a seat of 4'},
    ),
    (
        lambda: evaluate_record(buck_game(first_dealer=4)),
        {"code": "invalid", "message": "first_dealer 4 is not a seat of 4"},
    ),
    (
        lambda: GameTally(Bluke(3), first_dealer=-1),
        {"code": "invalid", "message": "first_dealer -1 is not a seat of 3"},
    ),
    (
        lambda: evaluate_record(bluke(game="chess")),
        {"code": "invalid", "message": "game must be 'bluke' or 'buck_euchre', not \"chess\""},
    ),
    (
        lambda: rules_for(7, 4),
        {"code": "invalid", "message": "game must be 'bluke' or 'buck_euchre', not 7"},
    ),
    (
        lambda: evaluate_record(bluke(deal=[["AS"]])),
        {"code": "bad_deal", "message": "deal has 1 seats: Bluke is for 2 to 15 players"},
    ),
    (
        lambda: evaluate_record(dict(_BLUKE_RESULTS, bids=[1] * 16, tricks=[0] * 16)),
        {"code": "bad_bid", "message": "bids has 16 seats: Bluke is for 2 to 15 players"},
    ),
    (
        lambda: Bluke(16),
        {"code": "invalid", "message": "Bluke is for 2 to 15 players, not 16"},
    ),
    (
        lambda: BuckEuchre(3),
        {"code": "invalid", "message": "Buck Euchre is for 4 players, not 3"},
    ),
    (
        lambda: evaluate_record(buck_log(deal=BUCK_DEAL[:3], plays=[])),
        {"code": "bad_deal", "message": "deal has 3 hands for 4 players"},
    ),
    (
        lambda: evaluate_record(buck_log(deal=[BUCK_DEAL[0][:4], *BUCK_DEAL[1:]], plays=[])),
        {"code": "bad_deal", "seat": 0, "message": "seat 0 was dealt 4 cards, not 5"},
    ),
    (
        lambda: evaluate_record(dict(_BLUKE_RESULTS, tricks=[1, 1])),
        {"code": "bad_tricks", "message": "tricks has 2 entries for 3 seats"},
    ),
    (
        lambda: evaluate_record(dict(_BLUKE_RESULTS, tricks=[0, 3, 0])),
        {"code": "bad_tricks", "seat": 1, "message": "seat 1 took 3 tricks of 2"},
    ),
    (
        lambda: evaluate_record(dict(BUCK_RESULTS, tricks=[1, 3, 1])),
        {"code": "bad_tricks", "message": "tricks has 3 entries for 4 seats"},
    ),
    (
        lambda: evaluate_record(dict(BUCK_RESULTS, tricks=[0, 6, 0, 0])),
        {"code": "bad_tricks", "seat": 1, "message": "seat 1 took 6 tricks of 5"},
    ),
    (
        lambda: evaluate_record(dict(BUCK_RESULTS, drops=[2])),
        {"code": "bad_tricks", "seat": 2, "message": "seat 2 dropped out but took 1 tricks"},
    ),
]


@pytest.mark.parametrize(("refused", "expected"), SHARED_CHECKS)
def test_each_shared_check_keeps_its_exact_message(
    refused: Callable[[], object], expected: dict[str, Any]
) -> None:
    with pytest.raises(RecordError) as error:
        refused()
    assert error.value.to_json() == expected


@pytest.mark.parametrize("value", [-1, 4, True, 1.0, "1", None])
def test_a_seat_is_an_integer_below_the_players(value: object) -> None:
    """A bool or a float is refused even where it equals a seat, as a record's
    integer fields refuse them."""
    with pytest.raises(InvalidRecord, match=r"^dealer .* is not a seat of 4$"):
        check_seat(value, 4, field="dealer")
    assert [check_seat(seat, 4, field="dealer") for seat in range(4)] == [0, 1, 2, 3]


def test_too_large_records() -> None:
    with pytest.raises(InvalidRecord) as huge:
        parse_record(" " * (MAX_RECORD_CHARS + 1))
    assert huge.value.code == "too_large"
    with pytest.raises(InvalidRecord) as digits:
        parse_record('{"game": "bluke", "dealer": ' + "9" * 5000 + "}")
    assert digits.value.code == "too_large"
    with pytest.raises(InvalidRecord) as deep:
        parse_record("[" * 100_000 + "]" * 100_000)
    assert deep.value.code == "too_large"


def test_the_first_fault_is_the_one_reported() -> None:
    # an illegal play comes before the bad card code later in the plays
    answer = check_record(bluke(plays=["9S", "4H", "XX"]))
    assert answer["error"]["code"] == "must_follow_suit"
    # the deal is checked before the bids, the bids before the plays
    answer = check_record(bluke(bids=[0, 0, 0], plays=["XX"], turn_up="AS"))
    assert answer["error"]["code"] == "duplicate_card"


def test_only_strict_json_and_ascii_codes_are_read() -> None:
    from games import Card, Suit

    with pytest.raises(ValueError):
        parse_record("NaN")
    with pytest.raises(ValueError):
        parse_record('{"dealer": Infinity}')
    long_s = "\u017f"  # its upper case is "S" in Python; a card code is ASCII
    assert long_s.upper() == "S"
    assert Card.parse("a" + long_s) is None
    assert Suit.parse(long_s) is None


def test_the_command_reads_a_file_with_a_byte_order_mark(tmp_path: Any) -> None:
    import io

    from games.cli import main

    path = tmp_path / "hand.json"
    path.write_text("\ufeff" + json.dumps(BLUKE_EXAMPLE_HAND), encoding="utf-8")
    out = io.StringIO()
    assert main(["check", str(path)], stdout=out, stderr=io.StringIO()) == 0
    assert json.loads(out.getvalue())["winners"] == [0, 2, 0]
