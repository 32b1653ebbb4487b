"""The short cuts of ``games check`` give exactly what the general path gives.

Checking a Bluke move log skips the HandResult (``BlukeHand.answer()``), writes
its answer line without ``json.dumps`` (``BlukeHand.answer_json()``), and reads
a JSON Lines line with the decoder's scanner called directly
(``records._decode``). Each is held here to the path it stands in for, on
generated legal hands and games and on records and texts made hostile. These
run on both builds (see test_native_build.py), where the short cuts matter most.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games import RecordError, check_record, evaluate_record, parse_record
from games.lines import answer_chunk
from games.records import _DECODER, answer_json
from tests.games.strategies import any_games, any_hands, bluke_hands

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)


def general_answer(record: object) -> dict[str, Any]:
    """The answer by the general path: the result object, then its JSON."""
    try:
        return evaluate_record(record).to_json()
    except RecordError as error:
        return {"ok": False, "error": error.to_json()}


def assert_same_answers(record: object) -> None:
    expected = general_answer(record)
    assert check_record(record) == expected
    text, ok = answer_json(record)
    assert text == json.dumps(expected)
    assert ok is expected["ok"]


@settings(max_examples=150, deadline=None)
@given(played=any_hands())
def test_a_legal_hand_gets_the_general_answer(played: Any) -> None:
    assert_same_answers(played.record)
    assert check_record(played.record) == played.answer


@settings(max_examples=30, deadline=None)
@given(game=any_games())
def test_a_legal_game_gets_the_general_answer(game: Any) -> None:
    assert_same_answers(game.record)


@settings(max_examples=200, deadline=None)
@given(played=bluke_hands(), field=st.sampled_from(["deal", "turn_up", "bids", "plays", "dealer"]))
def test_a_bluke_log_with_a_field_made_hostile_gets_the_general_answer(
    played: Any, field: str
) -> None:
    record = dict(played.record)
    record[field] = json.loads(json.dumps(record[field]))  # a copy to spoil
    value = record[field]
    if isinstance(value, list) and value:
        value[len(value) // 2] = "XX" if field != "bids" else 0
    else:
        record[field] = [value] if field != "deal" else "AS"
    assert_same_answers(record)


@settings(max_examples=200, deadline=None)
@given(played=any_hands(), field=st.text(max_size=8), value=JSON_VALUES)
def test_any_field_set_to_any_value_gets_the_general_answer(
    played: Any, field: str, value: object
) -> None:
    record = {**played.record, field: value}
    assert_same_answers(record)


@given(value=JSON_VALUES)
def test_any_json_value_as_a_record_gets_the_general_answer(value: object) -> None:
    assert_same_answers(value)


def reference_parse(text: str) -> tuple[str, object]:
    try:
        return "value", _DECODER.decode(text)
    except ValueError as error:
        return "error", str(error)


def fast_parse(text: str) -> tuple[str, object]:
    try:
        return "value", parse_record(text)
    except ValueError as error:  # InvalidRecord is not one: nothing here is too large
        return "error", str(error)


AROUND = st.sampled_from(["", " ", "\n", "\r\n", "\t ", "\x0c", "\u00a0", "\u2028", "x", "}", "[]"])


@settings(max_examples=300, deadline=None)
@given(value=JSON_VALUES, before=AROUND, after=AROUND, cut=st.integers(0, 3))
def test_a_line_reads_as_the_strict_decoder_reads_it(
    value: object, before: str, after: str, cut: int
) -> None:
    body = json.dumps({"record": value})
    text = before + (body[: len(body) - cut] if cut else body) + after
    assert fast_parse(text) == reference_parse(text)


def test_the_decoder_short_cut_keeps_the_decoders_errors() -> None:
    for text in ['{"a": NaN}', "{", '{"a": 1} 2', '{"a": 1}\u00a0', '{"a": Infinity}\n']:
        assert fast_parse(text) == reference_parse(text)
        assert fast_parse(text)[0] == "error"
    assert fast_parse('{"a": 1}\r\n\t ') == ("value", {"a": 1})


@settings(max_examples=50, deadline=None)
@given(hands=st.lists(any_hands(), min_size=1, max_size=4))
def test_a_chunk_of_lines_is_answered_line_by_line(hands: list[Any]) -> None:
    lines = [json.dumps(played.record) + "\n" for played in hands]
    lines[1:1] = ["\n", "   \n", "{not json\n", '{"game": "bluke"}\n']
    chunk = list(enumerate(lines, start=1))
    expected = []
    for number, line in chunk:
        if not line.strip():
            continue
        try:
            expected.append(check_record(parse_record(line)))
        except ValueError as error:
            message = f"line {number} is not JSON: {error}"
            expected.append({"ok": False, "error": {"code": "invalid", "message": message}})
    text, all_ok = answer_chunk(chunk)
    assert text == "".join(json.dumps(answer) + "\n" for answer in expected)
    assert all_ok is False  # the line that is not JSON and the record without fields
    assert answer_chunk([(1, "\n")]) == ("", True)
