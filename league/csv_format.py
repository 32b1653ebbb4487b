"""What the league's CSV files and the import of them agree on, in pure Python:
the spreadsheet guard of text cells that every CSV download writes
(:func:`cell_guarded`, used by :mod:`league.exports`) and the import takes off
again (:func:`cell_unguarded`, used by :mod:`league.import_files`), the byte order
mark every CSV download starts with (:data:`BYTE_ORDER_MARK`), and the columns of
the games file (:data:`HAND_COLUMNS`, seats from 1), which the export writes and
the import reads, with those of older downloads (:data:`HAND_COLUMNS_FROM_0`). No
Django: the import's reading of files imports it.
"""

from __future__ import annotations

import re
from typing import Final

FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r", "'")
"""The first characters of a text cell that a CSV download guards with a leading
apostrophe: what a spreadsheet would run as a formula, and an apostrophe itself (so
that a guarded cell and a name that really begins with one stay apart). The import
(:func:`league.import_files.csv_rows.unescape`) takes the guard off again."""
CELL_BREAKS: Final = (";", "\t", "|", "\r", "\n")
"""Characters inside a text cell after which a spreadsheet may start a cell of its
own: one that splits lines on a semicolon (the usual choice where the comma is the
decimal mark), a tab or a bar reads a quote only at the start of a cell, so a cell
quoted in the middle of a line does not hold its semicolon in; a line break in a
cell ends the line for one that ignores quotes. What follows each is guarded as the
cell's start is."""

_STARTS = "".join(re.escape(c) for c in FORMULA_STARTS)
_BREAKS = "".join(re.escape(c) for c in CELL_BREAKS)
# after a break a quote too: a spreadsheet would open a quoted cell there
_TO_GUARD = re.compile(f'^(?=[{_STARTS}])|(?<=[{_BREAKS}])(?=[{_STARTS}"])')
_GUARDED = re.compile(f"^'(?=[{_STARTS}])|(?<=[{_BREAKS}])'(?=[{_STARTS}\"])")
_START_SET = frozenset(FORMULA_STARTS)
_A_BREAK = re.compile(f"[{_BREAKS}]")
CELLS_APART: Final = "\x1f"
SOME_CELL_TO_GUARD = re.compile(f"(?:^|{CELLS_APART})[{_STARTS}]|[{_BREAKS}]")
"""Whether a row's text cells, joined by :data:`CELLS_APART`, hold one that
:func:`cell_guarded` changes (or, rarely, one holding that character itself): one
look a row, where most rows need nothing."""


def cell_guarded(text: str) -> str:
    """``text`` with an apostrophe before each place a spreadsheet could start a
    formula: its start, when what follows is one of :data:`FORMULA_STARTS`, and just
    after each of :data:`CELL_BREAKS`, when what follows is one of them or a double
    quote (which would open a quoted cell there). :func:`cell_unguarded` undoes it
    exactly.

    >>> cell_guarded("=1+1"), cell_guarded("Ann;=1+1 night"), cell_guarded("'Tis")
    ("'=1+1", "Ann;'=1+1 night", "''Tis")
    >>> cell_guarded("Ann"), cell_guarded("O'Brien; Ann-Marie")
    ('Ann', "O'Brien; Ann-Marie")
    """
    # most cells need nothing: two quick looks first (a download guards millions)
    if text[:1] in _START_SET or _A_BREAK.search(text):
        return _TO_GUARD.sub("'", text)
    return text


def cell_unguarded(text: str) -> str:
    """A cell as it was before :func:`cell_guarded`.

    >>> cell_unguarded("'=1+1"), cell_unguarded("Ann;'=1+1 night"), cell_unguarded("''Tis")
    ('=1+1', 'Ann;=1+1 night', "'Tis")
    >>> cell_unguarded("'Tis")  # an apostrophe the guard did not put there stays
    "'Tis"
    """
    return _GUARDED.sub("", text)


BYTE_ORDER_MARK: Final = "\ufeff"
"""What every CSV download starts with: UTF-8's byte order mark, by which Excel
knows the file is UTF-8 (without it, Excel reads "José" as "JosÃ©" and "田中" as
mojibake). The import reads a file with or without it."""

SEAT_NUMBER: Final = "seat_number"
"""The games file's column of seats counted from 1. A file that has it counts
``dealer``, ``maker`` and ``seat_number`` from 1; an older download names the
column ``seat`` and counts all three from 0 (:data:`HAND_COLUMNS_FROM_0`). The
import tells the two apart by that column's name alone."""

HAND_COLUMNS: Final = (
    "event",
    "date",
    "round",
    "table",
    "hand",
    "dealer",
    "cards",
    "trump",
    "maker",
    SEAT_NUMBER,
    "player",
    "bid",
    "dropped",
    "tricks",
    "points",
    "total",
)
"""One row per hand and seat, enough to enter every hand again as a results record
(the import reads this file). ``hand``, ``dealer``, ``maker`` and ``seat_number``
count from 1, as the score sheet and a paper pad do (the records and the API count
seats from 0); ``trump`` is a suit letter, empty for no trump; ``maker`` (the seat
that made trump) and ``dropped`` (1 or 0) are Buck Euchre's, ``bid`` Bluke's, empty
in the other game. Players go by name (unique in a club), so the file reads the
same in another club."""

HAND_COLUMNS_FROM_0: Final = tuple("seat" if c == SEAT_NUMBER else c for c in HAND_COLUMNS)
"""The games file as it was downloaded before seats were counted from 1: the same
columns, but ``seat`` for ``seat_number``, and ``dealer``, ``maker`` and ``seat``
counted from 0. The import reads it still."""
