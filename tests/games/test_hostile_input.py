"""Hostile input: whatever a client sends, the engine answers with a documented error code.

Records arrive from the REST API and from files, so anything may come in. The contract
(records.md, games.limits) is that the engine never raises on a parsed JSON value, always
answers with a code from ``games.ERROR_CODES``, quotes input briefly, and does work
bounded by the size of the record; ``parse_record`` raises only ``InvalidRecord``
(``too_large``) or ``ValueError``; the command exits 0, 1 or 2.
"""

from __future__ import annotations

import copy
import gc
import io
import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games import ERROR_CODES, Card, check_record, parse_record, rules_for
from games.cli import main
from games.errors import InvalidRecord
from games.limits import MAX_BUCK_EUCHRE_HANDS, MAX_RECORD_CHARS, MAX_STRING_SHOWN
from tests.games.strategies import (
    BLUKE,
    BUCK_EUCHRE,
    GeneratedGame,
    PlayedHand,
    any_games,
    any_hands,
    bluke_schedule,
    play_bluke_hand,
)

HOSTILE = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""Bounded so the file runs in seconds; no deadline, since a slow CI core is not a bug."""
FEW = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])

REPO_ROOT = Path(__file__).resolve().parents[2]
MAX_MESSAGE = 300
"""Generous bound on an error message: quotations are cut to MAX_STRING_SHOWN."""

# -- arbitrary JSON values --------------------------------------------------------------

HUGE_INTS = (10**100, -(10**100), 2**64, -(2**63) - 1, 10**29)
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(HUGE_INTS),
    st.floats(),  # NaN and the infinities included
    st.text(max_size=30),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=6),
        st.dictionaries(st.text(max_size=12), children, max_size=6),
    ),
    max_leaves=25,
)

KNOWN_FIELDS = [
    *("game", "dealer", "deal", "turn_up", "bids", "plays", "calls", "discard", "drops"),
    *("options", "cards", "trump", "tricks", "maker", "players", "first_dealer", "hands"),
]
record_like = st.fixed_dictionaries(
    {"game": st.one_of(st.sampled_from([BLUKE, BUCK_EUCHRE]), json_values)},
    optional={name: json_values for name in KNOWN_FIELDS if name != "game"},
)
"""Dictionaries that get past the first checks, so that hostile values reach deeper ones."""

garbage_cards = st.one_of(
    st.text(max_size=60).filter(lambda text: Card.parse(text) is None),
    st.sampled_from(["", "1S", "11H", "ZZ", "B", "BX", "A S", "10", "AS ", "ÅS", "T" * 500]),
    json_scalars.filter(lambda value: not isinstance(value, str)),
    st.lists(st.just("AS"), max_size=2),
)


def check_answer(answer: object) -> dict[str, Any]:
    """The shape every answer must have, valid or not."""
    assert isinstance(answer, dict)
    json.dumps(answer, allow_nan=False)  # the answer itself is strict JSON
    assert answer["ok"] in (True, False)
    if answer["ok"]:
        assert answer["game"] in (BLUKE, BUCK_EUCHRE)
        return answer
    assert set(answer) == {"ok", "error"}
    error = answer["error"]
    assert error["code"] in ERROR_CODES, error
    assert set(error) <= {"code", "hand", "play", "seat", "card", "message"}
    assert isinstance(error["message"], str) and error["message"]
    assert len(error["message"]) <= MAX_MESSAGE, error
    for key in ("hand", "play"):
        if key in error:
            assert type(error[key]) is int and error[key] >= 0, error
    if "seat" in error:
        assert type(error["seat"]) is int, error
    if "card" in error:
        assert isinstance(error["card"], str) and len(error["card"]) <= MAX_STRING_SHOWN
    return answer


def answer_text(text: str | bytes) -> dict[str, Any]:
    """Parse then check, the way the API and the command do; only the documented
    exceptions may come out of ``parse_record``."""
    try:
        value = parse_record(text)
    except InvalidRecord as error:
        assert error.code in ("too_large", "invalid"), error
        return check_answer({"ok": False, "error": error.to_json()})
    except ValueError:
        return {"ok": False, "error": {"code": "invalid", "message": "not JSON"}}
    return check_answer(check_record(value))


def error_of(record: object) -> dict[str, Any]:
    answer = check_answer(check_record(record))
    assert answer["ok"] is False, answer
    return answer["error"]


# -- arbitrary values as records -------------------------------------------------------------


@HOSTILE
@given(value=json_values)
def test_any_json_value_gets_an_answer(value: object) -> None:
    check_answer(check_record(value))
    answer_text(json.dumps(value))


@HOSTILE
@given(record=record_like)
def test_any_record_shaped_value_gets_an_answer(record: dict[str, Any]) -> None:
    check_answer(check_record(record))
    answer_text(json.dumps(record))


@HOSTILE
@given(text=st.text(max_size=200))
def test_any_text_parses_or_raises_only_documented_errors(text: str) -> None:
    answer_text(text)


# -- mutations of valid records ---------------------------------------------------------------


@st.composite
def valid_records(draw: st.DrawFn) -> dict[str, Any]:
    """A valid hand (move log or results only) or game record of either game."""
    kind = draw(st.sampled_from(["log", "results", "game"]))
    if kind == "game":
        return draw(any_games()).record
    hand = draw(any_hands())
    return hand.record if kind == "log" else hand.results_only()


def required_fields(record: dict[str, Any]) -> list[str]:
    """The fields records.md requires of a record standing alone."""
    if "hands" in record:
        return ["game", "first_dealer", "hands"] + (["players"] if record["game"] == BLUKE else [])
    base = ["game", "dealer"]
    if "deal" in record:
        return base + ["deal", "turn_up", "plays"] + (["bids"] if record["game"] == BLUKE else [])
    return base + ["trump", "tricks"] + (["cards", "bids"] if record["game"] == BLUKE else [])


def in_game_required(hand: dict[str, Any], game: str) -> list[str]:
    """The fields a hand inside a game cannot leave out."""
    if "deal" in hand:
        return ["deal", "turn_up", "plays"] + (["bids"] if game == BLUKE else [])
    return ["trump", "tricks"] + (["bids"] if game == BLUKE else [])


@HOSTILE
@given(record=valid_records(), data=st.data())
def test_a_missing_required_field_is_invalid(record: dict[str, Any], data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(required_fields(record)))
    error = error_of({k: v for k, v in record.items() if k != name})
    assert error["code"] == "invalid", error
    assert "hand" not in error


@HOSTILE
@given(game=any_games(), data=st.data())
def test_a_missing_field_in_a_hand_of_a_game_names_the_hand(
    game: GeneratedGame, data: st.DataObject
) -> None:
    assume(game.hands)
    number = data.draw(st.integers(0, len(game.hands) - 1))
    hands = list(game.record["hands"])
    name = data.draw(st.sampled_from(in_game_required(hands[number], game.game)))
    hands[number] = {k: v for k, v in hands[number].items() if k != name}
    error = error_of({**game.record, "hands": hands})
    assert error["code"] == "invalid", error
    assert error["hand"] == number


unknown_names = st.text(min_size=1, max_size=20).filter(lambda name: name not in KNOWN_FIELDS)


@HOSTILE
@given(record=valid_records(), name=unknown_names, value=json_values, data=st.data())
def test_an_unknown_field_is_invalid(
    record: dict[str, Any], name: str, value: object, data: st.DataObject
) -> None:
    """records.md: unknown fields are an error, not silently ignored; in a game's hand too."""
    if "hands" in record and record["hands"] and data.draw(st.booleans()):
        number = data.draw(st.integers(0, len(record["hands"]) - 1))
        hands = list(record["hands"])
        hands[number] = {**hands[number], name: value}
        error = error_of({**record, "hands": hands})
        assert error["hand"] == number
    else:
        error = error_of({**record, name: value})
        assert "hand" not in error
    assert error["code"] == "invalid", error


@HOSTILE
@given(record=valid_records(), value=json_values, data=st.data())
def test_any_field_replaced_by_any_value_gets_an_answer(
    record: dict[str, Any], value: object, data: st.DataObject
) -> None:
    record = copy.deepcopy(record)
    target = record
    if "hands" in record and record["hands"] and data.draw(st.booleans()):
        number = data.draw(st.integers(0, len(record["hands"]) - 1))
        target = record["hands"][number] = dict(record["hands"][number])
    name = data.draw(st.sampled_from(sorted(target)))
    if isinstance(target[name], list) and target[name] and data.draw(st.booleans()):
        items = list(target[name])
        items[data.draw(st.integers(0, len(items) - 1))] = value
        target[name] = items
    else:
        target[name] = value
    check_answer(check_record(record))
    answer_text(json.dumps(record))


def card_positions(hand: dict[str, Any]) -> list[tuple[str, int, int]]:
    """Every place a card code lies in a move log: (field, seat or index, index in seat)."""
    spots = [("turn_up", 0, 0)]
    spots += [("deal", s, i) for s, dealt in enumerate(hand["deal"]) for i in range(len(dealt))]
    spots += [("plays", i, 0) for i in range(len(hand["plays"]))]
    if "discard" in hand:
        spots.append(("discard", 0, 0))
    return spots


@HOSTILE
@given(hand=any_hands(), garbage=garbage_cards, in_game=st.booleans(), data=st.data())
def test_a_card_replaced_by_garbage_is_reported_where_it_lies(
    hand: PlayedHand, garbage: object, in_game: bool, data: st.DataObject
) -> None:
    spot, first, second = data.draw(st.sampled_from(card_positions(hand.record)))
    record = json.loads(json.dumps(hand.record))
    if spot == "deal":
        record["deal"][first][second] = garbage
        expected = {"code": "bad_card", "seat": first}
    elif spot == "plays":
        record["plays"][first] = garbage
        expected = {"code": "bad_card", "play": first}
    else:
        record[spot] = garbage
        expected = {"code": "bad_discard" if spot == "discard" else "bad_card"}
    if isinstance(garbage, str):
        cut = MAX_STRING_SHOWN - 3
        expected["card"] = garbage if len(garbage) <= MAX_STRING_SHOWN else garbage[:cut] + "..."
    if in_game:
        game = {"game": hand.game, "first_dealer": hand.dealer, "hands": [{**record}]}
        for name in ("game", "dealer", "options"):
            game["hands"][0].pop(name, None)
        if hand.game == BLUKE:
            game["players"] = hand.players
            game["options"] = {**hand.options, "max_cards": hand.cards}
        record = game
        expected["hand"] = 0
    error = error_of(record)
    assert {k: error.get(k) for k in expected} == expected, error


@st.composite
def integer_spots(draw: st.DrawFn) -> tuple[dict[str, Any], str, list[Any], set[str]]:
    """A valid record, the path of one integer in it, and the codes that may answer a
    non-integer or out-of-range value there."""
    hand = draw(any_hands())
    record = draw(st.sampled_from([hand.record, hand.results_only()]))
    record = json.loads(json.dumps(record))
    spots: list[tuple[list[Any], set[str]]] = [(["dealer"], {"invalid"})]
    spots += [(["bids", s], {"bad_bid"}) for s in range(len(record.get("bids", [])))]
    spots += [(["tricks", s], {"bad_tricks"}) for s in range(len(record.get("tricks", [])))]
    spots += [(["drops", s], {"bad_drop"}) for s in range(len(record.get("drops", [])))]
    if record.get("maker") is not None:
        spots.append((["maker"], {"invalid", "bad_call"}))  # null: nobody made trump
    if "cards" in record:
        spots.append((["cards"], {"invalid", "bad_deal"}))
    path, codes = draw(st.sampled_from(spots))
    return record, path[0], path[1:], codes


NOT_INTEGERS = (10**100, -(10**100), True, False, 1.0, 2.5, -1, 10**29, "1", None, [1], math.inf)


@HOSTILE
@given(spot=integer_spots(), value=st.sampled_from(NOT_INTEGERS))
def test_a_number_replaced_by_a_huge_number_bool_or_float_is_refused(
    spot: tuple[dict[str, Any], str, list[Any], set[str]], value: object
) -> None:
    """A bid of 10**100, a bool or a float is a bad bid, not a crash (and likewise for
    the dealer, tricks, drops, maker and hand size)."""
    record, name, rest, codes = spot
    original = record[name] if not rest else record[name][rest[0]]
    assume(not (type(value) is int and value == original))
    if rest:
        record[name][rest[0]] = value
    else:
        record[name] = value
    error = error_of(record)
    assert error["code"] in codes, (name, value, error)


# -- regressions: engine bugs these tests found, one test each ---------------------------------


def test_option_values_are_checked_whatever_was_checked_before() -> None:
    """``max_cards`` must be an integer; ``true`` and ``1.0`` equal ``1`` in Python, so a
    cache keyed on option values must not let them through after ``1`` was seen."""

    def game(max_cards: object) -> dict[str, Any]:
        return {
            "game": BLUKE,
            "players": 3,
            "first_dealer": 0,
            "options": {"max_cards": max_cards},
            "hands": [],
        }

    refused = {repr(v): check_record(game(v))["ok"] for v in (True, 1.0)}
    assert check_record(game(1))["ok"] is True
    again = {repr(v): check_record(game(v))["ok"] for v in (True, 1.0)}
    assert refused == {"True": False, "1.0": False}
    assert again == refused


@pytest.mark.parametrize("lead", [5, None, ["trump"], {"x": 1}, 1.5])
def test_a_bluke_lead_that_is_no_text_is_refused_on_both_builds(lead: object) -> None:
    """The compiled build's ``Bluke`` holds ``bluke_lead`` as a C string: anything
    else raised a ``TypeError`` there (a 500 in the league), an ``InvalidRecord``
    on the pure build."""
    with pytest.raises(InvalidRecord, match="option bluke_lead must be 'trump' or 'free'"):
        rules_for(BLUKE, 4, {"bluke_lead": lead})
    record = {"game": BLUKE, "players": 4, "first_dealer": 0, "hands": [],
              "options": {"bluke_lead": lead}}  # fmt: skip
    assert check_record(record)["error"]["code"] == "invalid"


@pytest.mark.parametrize(
    "record",
    [
        {"game": BLUKE, "dealer": 10**5000, "cards": 1, "trump": None, "bids": [1, 1],
         "tricks": [1, 0]},
        {"game": BLUKE, "dealer": 0, "cards": 1, "trump": None, "bids": [1, 1],
         "tricks": [1, -(10**5000)]},
        {"game": BLUKE, "dealer": 0, "cards": 1, "trump": None, "bids": [1, 10**5000],
         "tricks": [1, 0]},
        {"game": BLUKE, "dealer": 0, "cards": 10**5000, "trump": None, "bids": [1, 1],
         "tricks": [1, 0]},
        {"game": BUCK_EUCHRE, "dealer": 0, "trump": "S", "maker": 10**5000,
         "tricks": [1, 1, 1, 2]},
        {"game": BLUKE, "players": 2, "first_dealer": 10**5000, "hands": []},
    ],
    ids=["dealer", "tricks", "results-bid", "cards", "maker", "first_dealer"],
)  # fmt: skip
def test_python_ints_beyond_the_conversion_limit_never_raise(record: dict[str, Any]) -> None:
    """``check_record`` takes any parsed JSON value; Python refuses ``str()`` of an int of
    more than 4,300 digits, so a message must not format such a value raw."""
    check_answer(check_record(record))


@pytest.mark.parametrize("field", ["dealer", "first_dealer", "maker", "tricks"])
def test_long_numbers_from_json_text_are_quoted_briefly(field: str) -> None:
    """A 4,000-digit literal is within Python's conversion limit, so it parses; the
    answer must still quote it in at most MAX_STRING_SHOWN characters."""
    digits = "9" * 4000
    texts = {
        "dealer": f'{{"game": "bluke", "dealer": {digits}, "cards": 1, "trump": null, '
        f'"bids": [1, 1], "tricks": [1, 0]}}',
        "first_dealer": f'{{"game": "bluke", "players": 2, "first_dealer": {digits}, "hands": []}}',
        "maker": f'{{"game": "buck_euchre", "dealer": 0, "trump": "S", "maker": {digits}, '
        f'"tricks": [1, 1, 1, 2]}}',
        "tricks": f'{{"game": "bluke", "dealer": 0, "cards": 1, "trump": null, '
        f'"bids": [1, 1], "tricks": [1, {digits}]}}',
    }
    answer = answer_text(texts[field])
    assert answer["ok"] is False


def test_an_error_names_only_real_seats() -> None:
    """``seat`` in an error is a seat of the table; a maker of -1 is not one."""
    error = error_of(
        {"game": BUCK_EUCHRE, "dealer": 0, "trump": "S", "maker": -1, "tricks": [1, 1, 1, 2]}
    )
    assert error["code"] == "invalid"
    assert error.get("seat") in (None, 0, 1, 2, 3), error


# -- parse_record on hostile text ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "1" * 5000,
        "-" + "1" * 5000,
        '{"game": "bluke", "dealer": ' + "7" * 5000 + "}",
        "[" * 100_000,
        "[" * 100_000 + "]" * 100_000,
        '{"a": ' * 100_000,
        '{"game": "bluke", "plays": ' + "[" * 100_000 + "]" * 100_000 + "}",
        " " * (MAX_RECORD_CHARS + 1),
        "[" + "1," * (MAX_RECORD_CHARS // 2) + "1]",
    ],
    ids=[
        "5000-digits",
        "negative-5000-digits",
        "5000-digits-in-record",
        "100000-open-brackets",
        "100000-nested-arrays",
        "100000-nested-objects",
        "deep-plays",
        "whitespace-over-limit",
        "array-over-limit",
    ],
)
def test_parse_record_refuses_what_is_too_large(text: str) -> None:
    with pytest.raises(InvalidRecord) as caught:
        parse_record(text)
    assert caught.value.code == "too_large"
    check_answer({"ok": False, "error": caught.value.to_json()})
    with pytest.raises(InvalidRecord) as caught:
        parse_record(text.encode())
    assert caught.value.code == "too_large"


@pytest.mark.parametrize(
    "text",
    [
        "NaN",
        "Infinity",
        "-Infinity",
        "1e999",
        "[NaN]",
        '{"game": "bluke", "dealer": NaN, "cards": 1, "trump": null, "bids": [1, 1], '
        '"tricks": [1, 0]}',
        '{"game": "bluke", "dealer": 0, "cards": 1, "trump": null, "bids": [Infinity, 1], '
        '"tricks": [1, 0]}',
        '{"game": "buck_euchre", "dealer": 0, "trump": "S", "maker": -Infinity, '
        '"tricks": [1, 1, 1, 2]}',
    ],
)
def test_nan_and_infinity_get_an_error_code(text: str) -> None:
    """Not JSON by RFC 8259, but Python reads them: either way the answer is an error."""
    answer = answer_text(text)
    assert answer["ok"] is False
    assert answer["error"]["code"] in ERROR_CODES


def test_parse_record_raises_value_error_for_text_that_is_not_json() -> None:
    for text in ("", "{", "nul", "{'a': 1}", "[1,]", b"\xff\xfe\xfd"):
        with pytest.raises(ValueError):
            parse_record(text)


def test_deep_but_parseable_nesting_gets_an_answer() -> None:
    """Nesting the JSON reader accepts reaches the checker; it must not recurse into it."""
    depth = 400
    text = (
        '{"game": "bluke", "dealer": 0, "deal": [["AS"], ["KS"]], "turn_up": "2C", '
        '"bids": [1, 1], "plays": [' + "[" * depth + "]" * depth + "]}"
    )
    answer = answer_text(text)
    assert answer["ok"] is False


# -- bounded work ---------------------------------------------------------------------------------


@FEW
@given(hand=any_hands())
def test_a_move_log_of_100000_plays_stops_at_the_first_extra_play(hand: PlayedHand) -> None:
    plays = hand.plays
    record = {
        **hand.record,
        "plays": plays + [plays[0] if plays else "AS"] * (100_000 - len(plays)),
    }
    error = error_of(record)
    assert error["code"] == "wrong_number_of_plays"
    assert error["play"] == len(plays)


def test_a_move_log_of_100000_garbage_plays_stops_at_the_first() -> None:
    hand = play_bluke_hand(_rng(), players=4, dealer=0, cards=13)
    error = error_of({**hand.record, "plays": [["AS"]] * 100_000})
    assert error["code"] == "bad_card"
    assert error["play"] == 0


def test_a_game_of_100000_hands_stops_early() -> None:
    """A Bluke game ends with its schedule; a Buck Euchre game that never ends is cut at
    MAX_BUCK_EUCHRE_HANDS."""
    bluke_hand = play_bluke_hand(_rng(), players=2, dealer=0, cards=1, max_cards=1)
    game = {"game": BLUKE, "players": 2, "first_dealer": 0, "options": {"max_cards": 1}}
    error = error_of({**game, "hands": [bluke_hand.in_game()] * 100_000})
    assert error["code"] == "game_over"
    assert error["hand"] == len(bluke_schedule(2, 1))
    nobody_in = {"trump": None, "maker": None, "drops": [0, 1, 2, 3], "tricks": [0, 0, 0, 0]}
    error = error_of({"game": BUCK_EUCHRE, "first_dealer": 0, "hands": [nobody_in] * 100_000})
    assert error["code"] == "too_large"
    assert error["hand"] == MAX_BUCK_EUCHRE_HANDS


def _rng() -> random.Random:
    return random.Random(20240601)


# -- the command -----------------------------------------------------------------------------------


def valid_record() -> dict[str, Any]:
    return play_bluke_hand(_rng(), players=4, dealer=1, cards=5).record


def invalid_record() -> dict[str, Any]:
    """The valid record with its last play left out."""
    record = valid_record()
    return {**record, "plays": record["plays"][:-1]}


def run(args: list[str], stdin: str = "") -> tuple[int, list[dict[str, Any]], str]:
    """Exit status, the answers written, and standard error."""
    out, err = io.StringIO(), io.StringIO()
    status = main(["check", *args], stdin=io.StringIO(stdin), stdout=out, stderr=err)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    for answer in answers:
        check_answer(answer)
    return status, answers, err.getvalue()


def test_cli_valid_record_exits_0() -> None:
    status, answers, err = run([], json.dumps(valid_record()))
    assert (status, [a["ok"] for a in answers], err) == (0, [True], "")
    assert gc.isenabled(), "the command must give the collector back"


def test_cli_invalid_record_exits_1() -> None:
    status, answers, _ = run(["-"], json.dumps(invalid_record()))
    assert status == 1
    assert [a["error"]["code"] for a in answers] == ["wrong_number_of_plays"]


def test_cli_pretty_printed_record_is_one_record() -> None:
    status, answers, _ = run([], json.dumps(valid_record(), indent=2))
    assert status == 0
    assert len(answers) == 1


@pytest.mark.parametrize("text", ["not json", "{", "", "   \n\n  ", "\n", "{'game': 'bluke'}"])
def test_cli_text_that_is_not_json_exits_2(text: str) -> None:
    status, answers, err = run([], text)
    assert status == 2
    assert answers == []
    assert "standard input" in err


def test_cli_a_record_cut_short_is_unreadable() -> None:
    """A pretty-printed record cut short is neither one JSON value nor JSON Lines of
    records, so it exits 2 with no answers (cli.py: "gets no answers"), rather than one
    answer per line for fragments such as ``"AS"`` or ``0`` that happen to parse alone."""
    text = json.dumps(valid_record(), indent=2)[:-1]
    status, answers, err = run([], text)
    assert (status, len(answers)) == (2, 0)
    assert "standard input" in err


def test_cli_json_lines() -> None:
    lines = [json.dumps(valid_record()), json.dumps(valid_record())]
    status, answers, _ = run([], "\n".join(lines) + "\n")
    assert status == 0
    assert [a["ok"] for a in answers] == [True, True]


def test_cli_json_lines_with_one_bad_line_answers_it_in_place() -> None:
    lines = [json.dumps(valid_record()), "this line is not JSON", json.dumps(valid_record())]
    status, answers, _ = run([], "\n".join(lines))
    assert status == 1
    assert [a["ok"] for a in answers] == [True, False, True]
    assert answers[1]["error"]["code"] == "invalid"


def test_cli_json_lines_with_one_invalid_record() -> None:
    lines = [json.dumps(valid_record()), json.dumps(invalid_record()), "[]"]
    status, answers, _ = run([], "\n".join(lines))
    assert status == 1
    assert [a["ok"] for a in answers] == [True, False, False]


def test_cli_too_large_input_is_answered() -> None:
    for text in ("[" * 100_000, "1" * 5000):
        status, answers, _ = run([], text)
        assert status == 1
        assert [a["error"]["code"] for a in answers] == ["too_large"]


def test_cli_nan_does_not_crash() -> None:
    """Whether ``NaN`` is JSON is for the spec to say (exit 1 or 2); it must not crash."""
    status, answers, _ = run([], "NaN")
    assert status in (1, 2)
    assert all(not a["ok"] for a in answers)


def test_cli_missing_file_exits_2(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    status, answers, err = run([str(missing)])
    assert (status, answers) == (2, [])
    assert str(missing) in err


def test_cli_non_utf8_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(json.dumps(valid_record()).encode()[:-1] + b', "x": "\xe9"}')
    status, answers, err = run([str(path)])
    assert (status, answers) == (2, [])
    assert str(path) in err


def test_cli_several_files_and_stdin_in_order(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.jsonl"
    good.write_text(json.dumps(valid_record()))
    bad.write_text(json.dumps(invalid_record()) + "\n" + json.dumps(valid_record()) + "\n")
    status, answers, _ = run([str(good), "-", str(bad)], json.dumps(valid_record()))
    assert status == 1
    assert [a["ok"] for a in answers] == [True, True, False, True]
    status, answers, _ = run([str(good), str(good)])
    assert (status, len(answers)) == (0, 2)


def test_cli_an_unreadable_file_among_others_exits_2(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(valid_record()))
    status, answers, err = run([str(good), str(tmp_path / "nope.json"), str(good)])
    assert status == 2
    assert [a["ok"] for a in answers] == [True, True]
    assert "nope.json" in err


def test_python_dash_m_games_check() -> None:
    """The module entry point, run the way a club's script would."""
    lines = json.dumps(valid_record()) + "\n" + json.dumps(invalid_record()) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "games", "check"],
        input=lines,
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [True, False]
    assert answers[1]["error"]["code"] == "wrong_number_of_plays"
