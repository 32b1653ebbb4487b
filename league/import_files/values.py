"""One value of an import's file read (a name, a whole number, a date, a trump
suit), within the limits a file may use; a value that is not of its kind is a
problem of its row, and ``None``."""

from __future__ import annotations

import datetime
import re
from typing import Final

from league.import_files.problems import Problem
from league.names import name_clean, name_problem

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
        problems.append(Problem(row, "missing", f"the {column} is empty"))
        return None
    problem = name_problem(value) if person else None
    if problem is not None and len(value) <= MAX_NAME:
        problems.append(Problem(row, "bad_name", f"the {column}: {problem}"))
        return None
    if len(value) > MAX_NAME:
        problems.append(
            Problem(row, "too_long", f"the {column} is {len(value)} characters; at most {MAX_NAME}")
        )
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
        problems.append(Problem(row, "missing", f"the {column} is empty"))
        return None
    if not _WHOLE_NUMBER.fullmatch(value):
        problems.append(Problem(row, "bad_value", f"the {column} {value!r} is not a whole number"))
        return None
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        span = f"from {low}" if high is None else f"from {low} to {high}"
        problems.append(
            Problem(row, "bad_value", f"the {column} {number} is out of range ({span})")
        )
        return None
    return number


def read_date(value: str, row: int, problems: list[Problem]) -> datetime.date | None:
    if not value:
        problems.append(Problem(row, "missing", "the date is empty"))
        return None
    try:
        if not _ISO_DATE.fullmatch(value):
            raise ValueError(value)
        return datetime.date.fromisoformat(value)
    except ValueError:
        problems.append(
            Problem(row, "bad_value", f"the date {value!r} is not a date written 2026-10-01")
        )
        return None


def read_trump(value: str, row: int, problems: list[Problem]) -> str | None:
    """A suit letter, or ``None`` for an empty cell (no trump)."""
    suit = value.upper()
    if suit and suit not in _SUITS:
        problems.append(
            Problem(
                row,
                "bad_value",
                f"trump {value!r} is not a suit: C, D, H or S, or empty for no trump",
            )
        )
    return suit or None
