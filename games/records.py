"""Reading the JSON records of hands and games, and answering them.

The entry point is :func:`check_record`, which takes one parsed JSON value
and returns the answer object: ``{"ok": true, ...}`` or
``{"ok": false, "error": {...}}``. :func:`parse_record` turns JSON text into
a value with the bounds of :mod:`games.limits` applied.

A hand record is read by :mod:`games.hands`, a game record by
:mod:`games.tally`, and the fields of either by :mod:`games.fields`.
"""

from __future__ import annotations

import json
import json.scanner
from collections.abc import Callable
from typing import Any, Final

from games.bluke import BlukeHand
from games.buck_euchre import BuckEuchreHand
from games.errors import InvalidRecord, RecordError
from games.errors import kind as _kind
from games.hands import evaluate_hand, hand_outcome
from games.limits import MAX_RECORD_CHARS
from games.results import Answer, GameResult, HandResult
from games.tally import evaluate_game


def check_record(record: object) -> Answer:
    """The answer object for one record (a hand or a whole game):
    ``evaluate_record(record).to_json()``, or the error answer."""
    try:
        if isinstance(record, dict) and "hands" not in record:
            # A hand: its answer straight from the replayed state, without a
            # HandResult in between (what `games check` does most, per record).
            outcome = hand_outcome(record)
            if isinstance(outcome, BlukeHand):
                return outcome.answer()
            return (outcome if isinstance(outcome, HandResult) else outcome.result()).to_json()
        return evaluate_record(record).to_json()
    except RecordError as error:
        return {"ok": False, "error": error.to_json()}


def answer_json(record: object) -> tuple[str, bool]:
    """``json.dumps(check_record(record))``, and whether that answer is ``ok``:
    one line of ``games check``'s output. The answer to a Bluke move log, the
    usual record, is written out directly rather than by ``json.dumps``."""
    outcome: HandResult | BlukeHand | BuckEuchreHand | None = None
    if isinstance(record, dict) and "hands" not in record:
        try:
            outcome = hand_outcome(record)
        except RecordError as error:
            return json.dumps({"ok": False, "error": error.to_json()}), False
    if isinstance(outcome, BlukeHand):
        return outcome.answer_json(), True
    if outcome is None:
        answer = check_record(record)
    else:
        answer = (outcome if isinstance(outcome, HandResult) else outcome.result()).to_json()
    return json.dumps(answer), bool(answer["ok"])


def evaluate_record(record: object) -> HandResult | GameResult:
    """The result of a valid record; raises :class:`RecordError` otherwise."""
    if not isinstance(record, dict):
        raise InvalidRecord("invalid", f"a record is a JSON object, not {_kind(record)}")
    if "hands" in record:
        return evaluate_game(record)
    return evaluate_hand(record)


def parse_record(text: str | bytes) -> object:
    """One JSON value, within the size limits. Raises :class:`InvalidRecord`
    (``too_large``) beyond them and ``ValueError`` for text that is not JSON."""
    if len(text) > MAX_RECORD_CHARS:
        raise InvalidRecord(
            "too_large", f"a record is at most {MAX_RECORD_CHARS} characters, not {len(text)}"
        )
    try:
        return _decode(text if isinstance(text, str) else text.decode())
    except ValueError as error:
        # Python refuses to convert integer literals of more than
        # sys.get_int_max_str_digits() digits; nothing in a record needs them.
        if "integer string conversion" in str(error):
            raise InvalidRecord("too_large", "a number in the record is too large") from None
        raise
    except RecursionError:
        raise InvalidRecord("too_large", "the record is nested too deeply") from None


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


_DECODER: Final = json.JSONDecoder(parse_constant=_refuse_constant)
"""Strict JSON: Python's reader otherwise accepts NaN and Infinity."""

_make_scanner: Any = json.scanner.make_scanner  # typeshed describes the class, not the factory
_SCAN: Final[Callable[[str, int], tuple[object, int]]] = _make_scanner(_DECODER)
"""The scanner that ``_DECODER.decode`` calls (the C one), called directly."""


def _decode(text: str) -> object:
    """``_DECODER.decode(text)``, faster for a JSON Lines line: a value from
    the first character on, then at most JSON whitespace (a line end). Any
    other text, and any text that is not JSON, goes through ``decode`` itself,
    so the errors are its own."""
    if text[:1] == "{":
        try:
            value, end = _SCAN(text, 0)
        except StopIteration:
            return _DECODER.decode(text)
        if end == len(text) or not text[end:].strip(_JSON_SPACE):
            return value
    return _DECODER.decode(text)


_JSON_SPACE: Final = " \t\n\r"
"""The characters JSON counts as whitespace (``str.strip()`` would take more)."""
