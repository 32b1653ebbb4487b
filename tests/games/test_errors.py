"""Every error code, with the first fault's location, and the error shape."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import ERROR_CODES, check_record, parse_record
from games.errors import InvalidRecord
from games.limits import MAX_RECORD_CHARS
from tests.games.test_golden_bluke import EXAMPLE_HAND


def bluke(**changes: Any) -> dict[str, Any]:
    return {**EXAMPLE_HAND, **changes}


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
        bluke(plays=[*EXAMPLE_HAND["plays"], "AS"]),
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
    ({k: v for k, v in EXAMPLE_HAND.items() if k != "plays"}, {"code": "invalid"}),
    (bluke(game="chess"), {"code": "invalid"}),
    (bluke(dealer=3), {"code": "invalid"}),
    (bluke(dealer="0"), {"code": "invalid"}),
    (bluke(dealer=True), {"code": "invalid"}),
    (bluke(plays="9S TS"), {"code": "invalid"}),
    (bluke(options={"bluke_lead": "wild"}), {"code": "invalid"}),
    (bluke(options={"jokers": 3}), {"code": "invalid"}),
    ([EXAMPLE_HAND], {"code": "invalid"}),
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
    path.write_text("\ufeff" + json.dumps(EXAMPLE_HAND), encoding="utf-8")
    out = io.StringIO()
    assert main(["check", str(path)], stdout=out, stderr=io.StringIO()) == 0
    assert json.loads(out.getvalue())["winners"] == [0, 2, 0]
