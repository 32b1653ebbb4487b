"""One value of an import's file read (a name, a whole number, a date, a trump
suit), within the limits a file may use; a value that is not of its kind is a
problem of its row, and ``None``."""

from __future__ import annotations

import datetime
import re
from typing import Final

from league.import_files.problems import Problem, Words, gettext_noop, ngettext_lazy
from league.names import name_clean, name_fault

MAX_NAME: Final = 100
"""The longest name of a player or a game night (the models' ``max_length``)."""


MAX_ROUND: Final = 100
"""The highest round number a file may use (a game night has a handful)."""


MAX_TABLE: Final = 999
"""The highest table number a file may use."""


MAX_HAND: Final = 1_000
"""The highest hand number (a Buck Euchre game has at most 1,000 hands)."""


MAX_SEAT: Final = 14
"""The highest seat (a table seats at most 15)."""


_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")


_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


_SUITS: Final = frozenset("CDHS")


def read_name(
    value: str, row: int, problems: list[Problem], *, column: str, person: bool = False
) -> str | None:
    """A cell's name; a ``person``'s as a player's name is kept (trimmed, NFC:
    :func:`league.names.name_clean`), refused with a control character or
    nothing to show (``bad_name``)."""
    if person:
        value = name_clean(value)
    if not value:
        problems.append(_empty(row, column))
        return None
    fault = name_fault(value) if person else None
    if fault is not None and len(value) <= MAX_NAME:
        # Translators: column is the file's column (name, player, event), as its header names it
        words = Words(gettext_noop("the %(column)s: %(fault)s"), {"column": column, "fault": fault})
        problems.append(Problem.said(row, "bad_name", words))
        return None
    if len(value) > MAX_NAME:
        too_long = ngettext_lazy(
            "the %(column)s is %(length)d character; at most %(most)d",
            "the %(column)s is %(length)d characters; at most %(most)d",
            len(value),
        )
        params = {"column": column, "length": len(value), "most": MAX_NAME}
        problems.append(Problem.said(row, "too_long", Words.counted(too_long, params)))
        return None
    return value


def read_whole(
    value: str,
    row: int,
    problems: list[Problem],
    *,
    column: str,
    low: int | None = None,
    high: int | None = None,
) -> int | None:
    """A cell's whole number (ASCII digits, an optional minus), within ``low`` and
    ``high``; ``None`` and a problem otherwise."""
    if not value:
        problems.append(_empty(row, column))
        return None
    if not _WHOLE_NUMBER.fullmatch(value):
        words = Words(
            gettext_noop("the %(column)s %(value)s is not a whole number"),
            {"column": column, "value": repr(value)},
        )
        problems.append(Problem.said(row, "bad_value", words))
        return None
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        params = {"column": column, "number": number, "low": low, "high": high}
        if high is None:
            words = Words(
                gettext_noop("the %(column)s %(number)d is out of range (from %(low)d)"), params
            )
        else:
            words = Words(
                gettext_noop(
                    "the %(column)s %(number)d is out of range (from %(low)d to %(high)d)"
                ),
                params,
            )
        problems.append(Problem.said(row, "bad_value", words))
        return None
    return number


def read_date(value: str, row: int, problems: list[Problem]) -> datetime.date | None:
    if not value:
        problems.append(Problem.said(row, "missing", Words(gettext_noop("the date is empty"))))
        return None
    try:
        if not _ISO_DATE.fullmatch(value):
            raise ValueError(value)
        return datetime.date.fromisoformat(value)
    except ValueError:
        words = Words(
            gettext_noop("the date %(value)s is not a date written 2026-10-01"),
            {"value": repr(value)},
        )
        problems.append(Problem.said(row, "bad_value", words))
        return None


def read_trump(value: str, row: int, problems: list[Problem]) -> str | None:
    """A suit letter, or ``None`` for an empty cell (no trump)."""
    suit = value.upper()
    if suit and suit not in _SUITS:
        words = Words(
            gettext_noop("trump %(value)s is not a suit: C, D, H or S, or empty for no trump"),
            {"value": repr(value)},
        )
        problems.append(Problem.said(row, "bad_value", words))
    return suit or None


def _empty(row: int, column: str) -> Problem:
    # Translators: column is the file's column (name, event, round...), as its header says
    words = Words(gettext_noop("the %(column)s is empty"), {"column": column})
    return Problem.said(row, "missing", words)
