"""Records brought in from files: a club's players, and a league's past results.

An import is two calls. ``check_*`` reads the file and the database and stores
nothing: it answers a check listing every problem (by the file's row, the hand and
the seat) or, when there is none, what the import would store. The import itself
(:func:`players_import`, :func:`results_import`) runs the same check again inside
one transaction and stores only if it finds nothing wrong, all or nothing, through
the other services: players by :func:`~league.services.clubs.player_create`, game
nights by :func:`~league.services.fixtures.event_create`, tables by
:func:`~league.services.fixtures.table_create` and hands by
:func:`~league.services.results.game_submit`, so every invariant they keep holds and
the standings and ratings jobs are owed as for results entered at the table.

The files (docs/data.md, "Imports"):

- **players**: CSV with one column, ``name``; names the club has are left as they are.
- **results**, CSV: the games CSV the export writes (:data:`league.csv_format.HAND_COLUMNS`),
  a row per hand and seat. Each hand becomes a results-only record (docs/records.md)
  checked by the engine, and the file's ``points`` and ``total`` must be what the
  engine scores.
- **results**, JSON Lines: a game a line, ``{"event", "date", "round", "table",
  "players": [names by seat], "record": <the engine's game record>}``; move logs are
  kept as they are.

Game nights are told apart by date and name, tables by their night, round and
number; players go by name (unique in a club) and are created when the club has no
player of that name. A table the league has already, with the same players and the
same hands, is skipped, so importing a file twice changes nothing the second time; a
table with other players or other hands is a conflict.

A results file too large to store while the import page's browser waits is kept and
imported by a background job (:func:`results_import_queue`, :func:`results_import_run`):
the same import, in the job's transaction, its outcome kept for the page.

Lock order: a background import's own row (:class:`~league.models.ResultsImport`),
then the club's row (:func:`_lock_club`), so that two imports into one club run one
after the other and the second sees what the first stored; then what the services
lock (an event before its tables, a table, the rows of the work owed).
"""

from __future__ import annotations

import codecs
import csv
import datetime
import hashlib
import io
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any, Final, TypeVar

from celery import shared_task
from django.db import IntegrityError, transaction
from django.utils import timezone

import games
from league import audit, outbox
from league.csv_format import HAND_COLUMNS, cell_unguarded
from league.errors import ServiceError
from league.models import (
    Club,
    Event,
    Game,
    Hand,
    HandSeat,
    JobOwed,
    League,
    Player,
    ResultsImport,
    Round,
    Seating,
    Table,
)
from league.names import name_clean, name_key, name_problem
from league.services import clubs, fixtures, jobs, results
from league.tasks import JOB_OPTIONS, RESULTS_IMPORT_TASK

PLAYER_COLUMNS: Final = ("name",)
"""The columns of a players file."""

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
CHUNK: Final = 500
"""Ids (or dates) per ``IN (...)`` query when what the league has is read."""

T = TypeVar("T")

_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_SUITS: Final = frozenset("CDHS")
_ESCAPED_NOT_TEXT = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")
"""A JSON escape that reads as a NUL or half of a surrogate pair: UTF-8 text holds
neither raw (and a raw NUL is not JSON), so a line without one needs no closer look."""


class ImportFormat(StrEnum):
    """How a results file is written."""

    CSV = "csv"
    JSON_LINES = "jsonl"


# -- what a check answers ------------------------------------------------------------


@dataclass(frozen=True)
class ProblemHand:
    """What the file says of the hand an engine refusal is about, so that a page
    can word the refusal (:func:`league.web.messages.engine_message`) by name.

    Lists are by seat, ``None`` where the file has no value; all but ``names``
    are empty (``None``) for a hand given as a move log."""

    game: str
    names: tuple[str, ...]
    cards: int | None = None
    bids: tuple[int | None, ...] = ()
    tricks: tuple[int | None, ...] = ()
    trump: str | None = None
    """A suit letter; ``None`` for no trump (see ``results_only``)."""
    maker: int | None = None
    drops: frozenset[int] = frozenset()
    results_only: bool = False
    """The hand is a row per seat of results (CSV), not a move log."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file: where, and why.

    ``row`` is the row of a CSV file (the header is row 1, as a spreadsheet numbers
    them) or the line of a JSON Lines file (from 1); ``None`` for the file as a
    whole. ``hand`` counts from 1, as the file and the score sheet do; ``seat`` from
    0, as the records do. ``code`` is the engine's error code (docs/records.md) when
    the engine refused the hand (``error`` is then its refusal), or one of
    :data:`PROBLEM_CODES`. ``facts``, where known, is what the file says of the hand:
    its players by seat, and what a page needs to word an engine refusal.
    """

    row: int | None
    code: str
    message: str
    hand: int | None = None
    seat: int | None = None
    player: str = ""
    """The player in ``seat``, as the file names them (empty when unknown)."""
    error: games.RecordError | None = field(default=None, compare=False)
    facts: ProblemHand | None = field(default=None, compare=False)


PROBLEM_CODES: Final = {
    "encoding": "the file is not UTF-8 text",
    "not_csv": "the file cannot be read as CSV",
    "header": "the header row does not name the columns the import reads",
    "empty": "the file has no rows after the header",
    "cells": "a row has more or fewer cells than the header",
    "missing": "a cell that must have a value is empty",
    "bad_value": "a cell's value is not of its kind (a whole number, a date, a suit, 0 or 1)",
    "wrong_game": "a cell filled in that only the league's other game has (a bid in Buck Euchre)",
    "too_long": "a name longer than 100 characters",
    "duplicate": "a player named twice in a players file",
    "bad_name": "a player's name with a control character, or nothing to show",
    "table_split": "a table's rows are not together in the file",
    "hand_order": "a table's hands are not numbered 1, 2, 3... in order",
    "seat_order": "a hand's rows are not seats 0, 1, 2... in order, or not all the table's seats",
    "hand_mismatch": "the rows of one hand disagree on its dealer, cards, trump or maker",
    "players_changed": "a seat's player changes between the hands of a table",
    "player_twice": "a player in two seats of one table",
    "two_tables": "a player at two tables in one round",
    "seats": "a number of seats the league's game is not played with",
    "dealer": "a dealer other than the one the deal passes to",
    "cards": "a number of cards other than the league's schedule deals",
    "points": "a hand's points other than the engine scores",
    "total": "a running total other than the hands add up to",
    "conflict": "a table the league has already, with other players or other hands",
    "ambiguous_event": "the league has two game nights of that date and name",
    "bad_line": "a line of JSON Lines that is not a game as the import reads it",
    "not_text": "a value of JSON Lines holding a NUL or half of a surrogate pair: no text",
}
"""The import's own problem codes (the engine's are in docs/records.md)."""


@dataclass(frozen=True)
class ResultsSummary:
    """What a results import stores (or, after the import, stored)."""

    events: int
    """Game nights the file's games are in."""
    new_events: int
    """Of those, the nights the league does not have yet."""
    tables: int
    """Tables in the file."""
    new_tables: int
    """Tables whose hands are stored (new tables, and tables with no hands yet)."""
    skipped_tables: int
    """Tables the league has already with the same hands: left as they are."""
    hands: int
    """Hands stored."""
    new_players: tuple[str, ...]
    """Names the club has no player of: added as players, in the order first met."""


@dataclass(frozen=True)
class ResultsCheck:
    """A results file read against a league: every problem, or what the import stores."""

    league: League
    format: ImportFormat
    digest: str
    """The SHA-256 of the file, in hex: what a confirmation names to import this file."""
    problems: tuple[Problem, ...]
    summary: ResultsSummary
    plan: _Plan = field(repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class PlayersCheck:
    """A players file read against a club: every problem, or the players to add."""

    club: Club
    digest: str
    problems: tuple[Problem, ...]
    new_players: tuple[str, ...]
    """Names to add, in the file's order."""
    existing: int
    """Names the club has already (left as they are)."""

    @property
    def ok(self) -> bool:
        return not self.problems


class ImportRefused(ServiceError):
    """An import that found problems: ``check`` lists them; nothing was stored."""

    def __init__(self, check: ResultsCheck | PlayersCheck) -> None:
        count = len(check.problems)
        super().__init__(
            f"the file has {count} problem{'s' if count != 1 else ''}; nothing was imported",
            field="file",
        )
        self.check = check


class NotThePreviewedFile(ServiceError):
    """An import asked for a file (by its digest) other than the one it was given."""

    def __init__(self) -> None:
        super().__init__(
            "this is not the file that was checked; nothing was imported", field="file"
        )


def file_digest(data: bytes) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(data).hexdigest()


# -- players ---------------------------------------------------------------------------


def check_players_import(*, club: Club, data: bytes) -> PlayersCheck:
    """Read a players CSV against ``club``; stores nothing (one query, whatever the
    file's size)."""
    problems: list[Problem] = []
    names: list[str] = []
    first_row: dict[str, int] = {}
    table = _csv_table(data, PLAYER_COLUMNS, problems)
    for row, cells in table:
        name = _name(cells["name"], row, problems, column="name", person=True)
        if name is None:
            continue
        key = name_key(name)
        if key in first_row:
            problems.append(
                Problem(row, "duplicate", f"{name} is named on row {first_row[key]} already")
            )
            continue
        first_row[key] = row
        names.append(name)
    if not problems and not names:
        problems.append(Problem(None, "empty", "the file has no players after the header"))
    # the club's names, not those of the file: a club's players fit in memory (its
    # pages list them all), and a file's names could pass PostgreSQL's 65,535
    # parameters a statement; names are the same by their key ("ada" is "Ada")
    keys = set(Player.objects.filter(club=club).values_list("name_key", flat=True))
    known = [name for name in names if name_key(name) in keys]
    return PlayersCheck(
        club=club,
        digest=file_digest(data),
        problems=tuple(problems),
        new_players=tuple(name for name in names if name_key(name) not in keys),
        existing=len(known),
    )


@transaction.atomic
def players_import(*, club: Club, data: bytes, digest: str | None = None) -> PlayersCheck:
    """Add the players of a CSV file that ``club`` does not have, all or nothing.

    ``digest`` (the previewed file's :func:`file_digest`), when given, must be this
    file's, else :class:`NotThePreviewedFile`. A file with problems is
    :class:`ImportRefused`, with the check. Returns the check the import followed.
    """
    _check_digest(data, digest)
    _lock_club(club)
    check = check_players_import(club=club, data=data)
    if not check.ok:
        raise ImportRefused(check)
    clubs.players_create(club=club, names=check.new_players)
    return check


# -- results: checking ---------------------------------------------------------------


def check_results_import(
    *, league: League, data: bytes, format: ImportFormat = ImportFormat.CSV
) -> ResultsCheck:
    """Read a results file against ``league`` and check every hand with the engine;
    stores nothing. Reads a fixed number of queries plus one per :data:`CHUNK`
    tables the league has already at the file's game nights."""
    problems: list[Problem] = []
    reader = _CsvResults(league) if format == ImportFormat.CSV else _JsonLinesResults(league)
    tables = reader.read(data, problems)
    plan = _plan(league=league, tables=tables, problems=problems)
    for table in tables:
        if table.action in (_Action.CREATE, _Action.FILL):
            _check_with_engine(league=league, table=table, problems=problems)
    problems.sort(key=_problem_order)
    return ResultsCheck(
        league=league,
        format=format,
        digest=file_digest(data),
        problems=tuple(_named(problem) for problem in problems),
        summary=plan.summary(tables),
        plan=plan,
    )


def _problem_order(problem: Problem) -> tuple[int, int, int]:
    return (problem.row or 0, problem.hand or 0, -1 if problem.seat is None else problem.seat)


def _named(problem: Problem) -> Problem:
    """``problem`` with the player in its seat, from the hand's players."""
    seat = problem.seat
    if seat is None or problem.player or problem.facts is None:
        return problem
    names = problem.facts.names
    if 0 <= seat < len(names) and names[seat]:
        return replace(problem, player=names[seat])
    return problem


def _name_rows(problems: list[Problem], start: int, players: dict[int, str]) -> None:
    """Name the player of each problem from ``start`` on that has a seat, by its row
    (``players``: each row's player): a CSV problem with a seat is on that seat's row."""
    problems[start:] = [
        problem
        if problem.seat is None or problem.player or problem.row not in players
        else replace(problem, player=players[problem.row])
        for problem in problems[start:]
    ]


@dataclass(slots=True)
class _Line:
    """One seat of a hand as a CSV row gives it."""

    row: int
    player: str
    bid: int | None
    dropped: bool
    tricks: int
    points: int
    total: int


@dataclass(slots=True)
class _FileHand:
    """A hand of a table in the file: the engine's record, and for a CSV file the
    seats' lines (to check the points) and what the rows say of the hand."""

    number: int
    rows: list[int]
    """The row of each seat (CSV), or the table's line (JSON Lines) once."""
    record: Any
    """The record to check and store; ``None`` when the rows are broken."""
    game: str = ""
    names: Sequence[str] = ()
    """The table's players by seat (the table's own list)."""
    dealer: int | None = None
    cards: int | None = None
    trump: str | None = None
    maker: int | None = None
    lines: list[_Line] | None = None
    """A CSV hand's seats, when its rows were read whole; ``None`` for JSON Lines."""

    @property
    def facts(self) -> ProblemHand:
        """What the file says of the hand, for a problem about it (made when asked,
        so that a large file holds no more than its lines)."""
        if self.lines is None:
            return ProblemHand(game=self.game, names=tuple(self.names))
        return ProblemHand(
            game=self.game,
            names=tuple(self.names),
            cards=self.cards,
            bids=tuple(line.bid for line in self.lines),
            tricks=tuple(line.tricks for line in self.lines),
            trump=self.trump,
            maker=self.maker,
            drops=frozenset(seat for seat, line in enumerate(self.lines) if line.dropped),
            results_only=True,
        )

    @property
    def outcome(self) -> tuple[Any, ...] | None:
        """What the export writes of a CSV hand, to compare with a stored one: the
        dealer, cards, trump, maker (Buck Euchre) and each seat's bid (Bluke),
        dropped (Buck Euchre), tricks, points and total; ``None`` for a hand whose
        rows are broken."""
        if self.lines is None or self.record is None:
            return None
        buck = self.game == Game.BUCK_EUCHRE
        return (
            self.dealer,
            self.cards,
            self.trump or "",
            self.maker if buck else None,
            tuple(
                (
                    None if buck else line.bid,
                    line.dropped if buck else None,
                    line.tricks,
                    line.points,
                    line.total,
                )
                for line in self.lines
            ),
        )

    def row_of(self, seat: int | None) -> int:
        if seat is not None and 0 <= seat < len(self.rows):
            return self.rows[seat]
        return self.rows[0]


@dataclass(frozen=True)
class _EventKey:
    date: datetime.date
    name: str


@dataclass(frozen=True)
class _TableKey:
    event: _EventKey
    round: int
    number: int

    @property
    def place(self) -> tuple[int, int]:
        """The round's number and the table's, within the game night."""
        return self.round, self.number


class _Action(StrEnum):
    """What an import does with a table of the file."""

    CREATE = "create"
    """A new table: created, then its hands stored."""
    FILL = "fill"
    """A stored table with the same players and no hands: its hands stored."""
    SKIP = "skip"
    """A stored table with the same players and hands: nothing to do."""
    CONFLICT = "conflict"
    """A stored table with other players or other hands: a problem."""


@dataclass(slots=True)
class _FileTable:
    key: _TableKey
    row: int
    """The table's first row (or line)."""
    names: list[str]
    first_dealer: int
    hands: list[_FileHand]
    results_only: bool
    """A CSV file's table: hands as results, compared with stored ones by what the
    export writes of them; else (JSON Lines) by their records."""
    broken: bool = False
    """Its rows could not be read whole: it is not checked further."""
    action: _Action = _Action.CREATE
    stored: int | None = None
    """The id of the league's table at the same place, if there is one."""

    @property
    def outcomes(self) -> list[Any]:
        return [hand.outcome for hand in self.hands]

    @property
    def records(self) -> list[Any]:
        return [hand.record for hand in self.hands]

    def row_of(self, seat: int) -> int:
        """The row of ``seat`` in the table's first hand (else the table's first row)."""
        return self.hands[0].row_of(seat) if self.hands else self.row


def _csv_table(
    data: bytes, columns: Sequence[str], problems: list[Problem]
) -> Iterator[tuple[int, dict[str, str]]]:
    """The rows of a CSV file (header row 1) as cells by column, stripped and with
    the export's formula apostrophe taken off; blank rows are skipped. A file that
    is not UTF-8, not CSV or has another header is one problem of the file."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        problems.append(
            Problem(
                None,
                "encoding",
                "the file is not UTF-8 text but UTF-16: save it from the spreadsheet as CSV UTF-8",
            )
        )
        return
    if b"\0" in data:  # text has no NUL; a spreadsheet's own format (.xlsx, .ods) has
        problems.append(
            Problem(
                None,
                "not_csv",
                "the file is not a CSV file (it holds binary data): save it from the "
                "spreadsheet as CSV UTF-8",
            )
        )
        return
    # The file is decoded as it is read, not into one string first: a large file's
    # text is never held whole, besides its bytes.
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="")
    reader = csv.reader(stream, strict=True)
    row = 0
    try:
        header = next(reader, None)
        row = 1
        if header is None:
            problems.append(Problem(None, "empty", "the file is empty"))
            return
        names = [cell.strip() for cell in header]
        if not _header_fits(names, columns, problems):
            return
        for cells in reader:
            row += 1
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) != len(names):
                problems.append(
                    Problem(
                        row,
                        "cells",
                        f"the row has {len(cells)} cells; the header names {len(names)} columns",
                    )
                )
                continue
            yield row, {name: _unescape(cell) for name, cell in zip(names, cells, strict=True)}
    except UnicodeDecodeError:
        # decoded a chunk ahead of the rows read: which row holds the fault is not known
        problems.append(
            Problem(
                None,
                "encoding",
                "the file is not UTF-8 text: save it from the spreadsheet as CSV UTF-8",
            )
        )
    except csv.Error as error:
        problems.append(
            Problem(row + 1, "not_csv", f"the file cannot be read as CSV from here on ({error})")
        )


def _header_fits(names: list[str], columns: Sequence[str], problems: list[Problem]) -> bool:
    missing = [column for column in columns if column not in names]
    unknown = [name for name in names if name not in columns]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if not (missing or unknown or repeated):
        return True
    parts = []
    if missing:
        parts.append(f"missing {', '.join(missing)}")
    if unknown:
        parts.append(f"unknown {', '.join(repr(name) for name in unknown)}")
    if repeated:
        parts.append(f"named twice {', '.join(repeated)}")
    problems.append(
        Problem(
            1,
            "header",
            f"the header row must name the columns {', '.join(columns)} ({'; '.join(parts)})",
        )
    )
    return False


def _unescape(cell: str) -> str:
    """A cell as the export meant it: stripped, and without the apostrophes it puts
    before text a spreadsheet would run as a formula (:func:`league.csv_format.cell_guarded`).

    >>> _unescape(" '=HYPERLINK(1) "), _unescape("''Tis"), _unescape("'Tis"), _unescape(" Ann ")
    ('=HYPERLINK(1)', "'Tis", "'Tis", 'Ann')
    >>> _unescape("Ann;'=1+1 night")
    'Ann;=1+1 night'
    """
    return cell_unguarded(cell.strip())


def _name(
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


def _whole(
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


class _CsvResults:
    """Reads the games CSV the export writes into tables of hands."""

    def __init__(self, league: League) -> None:
        self.league = league
        self.buck = league.game == Game.BUCK_EUCHRE

    def read(self, data: bytes, problems: list[Problem]) -> list[_FileTable]:
        """The file's tables, in its order. A row that cannot be placed (its night,
        round, table, hand or seat unreadable) leaves the table being read unchecked
        beyond its rows, rather than reporting every hand after it as short."""
        tables: list[_FileTable] = []
        seen: dict[_TableKey, int] = {}
        unplaced: set[_TableKey] = set()
        current: _TableKey | None = None
        rows: list[_ParsedRow] = []
        any_row = skipping = False
        rows_start = 0
        for row, cells in _csv_table(data, HAND_COLUMNS, problems):
            any_row = True
            parsed = self._row(row, cells, problems)
            if parsed is None:
                if current is not None:
                    unplaced.add(current)
                continue
            if parsed.key != current:
                if rows:
                    tables.append(self._table(rows, problems, unchecked=current in unplaced))
                    _name_rows(problems, rows_start, {r.row: r.line.player for r in rows})
                rows_start = len(problems)
                current, rows = parsed.key, []
                skipping = parsed.key in seen
                if skipping:
                    problems.append(
                        Problem(
                            row,
                            "table_split",
                            f"{_where(parsed.key)} has rows from row {seen[parsed.key]} on, "
                            "and again here: a table's rows come together",
                            hand=parsed.hand,
                            seat=parsed.seat,
                        )
                    )
                else:
                    seen[parsed.key] = row
            if not skipping:
                rows.append(parsed)
        if rows:
            tables.append(self._table(rows, problems, unchecked=current in unplaced))
            _name_rows(problems, rows_start, {r.row: r.line.player for r in rows})
        if not any_row and not problems:
            problems.append(Problem(None, "empty", "the file has no rows after the header"))
        return tables

    def _row(self, row: int, cells: dict[str, str], problems: list[Problem]) -> _ParsedRow | None:
        """A row's values, or ``None`` (with problems) when it cannot be placed in a
        table and hand. A row placed but otherwise broken has ``ok`` false. Its
        problems name its hand and seat where they can be read."""
        start = len(problems)
        try:
            return self._read_row(row, cells, problems)
        finally:
            hand = _whole(cells["hand"], row, [], column="hand", low=1, high=MAX_HAND)
            seat = _whole(cells["seat"], row, [], column="seat", low=0, high=MAX_SEAT)
            problems[start:] = [
                replace(
                    problem,
                    hand=problem.hand if problem.hand is not None else hand,
                    seat=problem.seat if problem.seat is not None else seat,
                    player=cells["player"] if seat is not None else "",
                )
                for problem in problems[start:]
            ]

    def _read_row(
        self, row: int, cells: dict[str, str], problems: list[Problem]
    ) -> _ParsedRow | None:
        event = _name(cells["event"], row, problems, column="event")
        date = _date(cells["date"], row, problems)
        round_ = _whole(cells["round"], row, problems, column="round", low=1, high=MAX_ROUND)
        number = _whole(cells["table"], row, problems, column="table", low=1, high=MAX_TABLE)
        hand = _whole(cells["hand"], row, problems, column="hand", low=1, high=MAX_HAND)
        seat = _whole(cells["seat"], row, problems, column="seat", low=0, high=MAX_SEAT)
        if None in (event, date, round_, number, hand, seat):
            return None
        assert event is not None and date is not None and round_ is not None
        assert number is not None and hand is not None and seat is not None
        placed = len(problems)

        def whole(column: str, low: int | None = None) -> int | None:
            return _whole(cells[column], row, problems, column=column, low=low)

        def empty_in_this_game(column: str) -> None:
            if cells[column]:
                other = "Bluke" if self.buck else "Buck Euchre"
                problems.append(
                    Problem(
                        row,
                        "wrong_game",
                        f"the {column} is {cells[column]!r}, but only {other} has a {column}: "
                        f"the league plays {self.league.get_game_display()}",
                    )
                )

        dealer = whole("dealer", 0)
        cards = whole("cards", 1)
        trump = _trump(cells["trump"], row, problems)
        player = _name(cells["player"], row, problems, column="player", person=True)
        tricks = whole("tricks")
        points = whole("points")
        total = whole("total")
        maker: int | None = None
        bid: int | None = None
        dropped = False
        if self.buck:
            empty_in_this_game("bid")
            maker = whole("maker", 0) if cells["maker"] else None
            if cells["dropped"] not in ("0", "1"):
                problems.append(
                    Problem(
                        row,
                        "missing" if not cells["dropped"] else "bad_value",
                        f"dropped is {cells['dropped']!r}: 1 for a player who dropped out, else 0",
                    )
                )
            dropped = cells["dropped"] == "1"
        else:
            empty_in_this_game("maker")
            empty_in_this_game("dropped")
            bid = whole("bid")
        return _ParsedRow(
            row=row,
            key=_TableKey(_EventKey(date, event), round_, number),
            hand=hand,
            seat=seat,
            ok=len(problems) == placed,
            dealer=dealer,
            cards=cards,
            trump=trump,
            maker=maker,
            line=_Line(
                row=row,
                player=player or "",
                bid=bid,
                dropped=dropped,
                tricks=tricks or 0,
                points=points or 0,
                total=total or 0,
            ),
        )

    def _table(
        self, rows: list[_ParsedRow], problems: list[Problem], *, unchecked: bool
    ) -> _FileTable:
        """A table from its rows, in file order. Hands must run 1, 2, 3... (a table
        whose hands do not is broken: where its later hands belong is unknown); a
        hand whose rows are broken is kept without a record, and the next is read.
        ``unchecked``: a row of the table could not be placed, so it is broken."""
        first = rows[0]
        table = _FileTable(
            key=first.key,
            row=first.row,
            names=[],
            first_dealer=first.dealer or 0,
            hands=[],
            results_only=True,
            broken=unchecked,
        )
        if unchecked:
            return table
        groups: list[list[_ParsedRow]] = []
        for parsed in rows:
            if groups and groups[-1][0].hand == parsed.hand:
                groups[-1].append(parsed)
                continue
            expected = groups[-1][0].hand + 1 if groups else 1
            if parsed.hand != expected:
                problems.append(
                    Problem(
                        parsed.row,
                        "hand_order",
                        f"hand {parsed.hand} where hand {expected} comes next: a table's hands "
                        "run 1, 2, 3... in order",
                        hand=parsed.hand,
                    )
                )
                table.broken = True
                return table
            groups.append([parsed])
        for group in groups:
            hand = self._hand(table, group, problems)
            if not table.names:  # the first hand's seats are out of order
                table.broken = True
                return table
            table.hands.append(hand)
        return table

    def _hand(
        self, table: _FileTable, group: list[_ParsedRow], problems: list[Problem]
    ) -> _FileHand:
        """A hand from its rows. The first hand seats the table; a later hand must
        seat the same players. The hand has a record only if all is well."""
        head = group[0]
        number = head.hand
        hand = _FileHand(
            number=number,
            rows=[parsed.row for parsed in group],
            record=None,
            game=self.league.game,
        )
        if not self._seats_in_order(table, group, problems):
            return hand
        names = [parsed.line.player for parsed in group]
        if not table.names:
            table.names = names
            keys = [name_key(name) for name in names]  # "ada" is "Ada"
            for parsed in group:
                sat = keys.index(name_key(parsed.line.player))
                if parsed.line.player and sat < parsed.seat:
                    problems.append(
                        Problem(
                            parsed.row,
                            "player_twice",
                            f"{parsed.line.player} is in seat {sat} of this table already",
                            hand=number,
                            seat=parsed.seat,
                        )
                    )
        for parsed in group:
            before = table.names[parsed.seat]
            if parsed.line.player and before and name_key(parsed.line.player) != name_key(before):
                problems.append(
                    Problem(
                        parsed.row,
                        "players_changed",
                        f"{parsed.line.player} is in seat {parsed.seat}, where {before} sits "
                        "in the table's first hand",
                        hand=number,
                        seat=parsed.seat,
                    )
                )
                parsed.ok = False
        for parsed in group[1:]:
            for what, mine, theirs in (
                ("dealer", parsed.dealer, head.dealer),
                ("cards", parsed.cards, head.cards),
                ("trump", parsed.trump, head.trump),
                ("maker", parsed.maker, head.maker),
            ):
                if parsed.ok and head.ok and mine != theirs:
                    problems.append(
                        Problem(
                            parsed.row,
                            "hand_mismatch",
                            f"the {what} is {_shown(mine)} here and {_shown(theirs)} on seat "
                            "0's row: every row of a hand gives the same",
                            hand=number,
                            seat=parsed.seat,
                        )
                    )
                    parsed.ok = False
        lines = [parsed.line for parsed in group]
        hand.names, hand.dealer, hand.cards = table.names, head.dealer, head.cards
        hand.trump, hand.maker, hand.lines = head.trump, head.maker, lines
        if all(parsed.ok for parsed in group):
            hand.record = self._record(head, lines)
        return hand

    @staticmethod
    def _seats_in_order(
        table: _FileTable, group: list[_ParsedRow], problems: list[Problem]
    ) -> bool:
        """A hand's rows are seats 0, 1, 2... in order, as many as the table's first
        hand has."""
        number = group[0].hand
        for index, parsed in enumerate(group):
            if parsed.seat != index:
                problems.append(
                    Problem(
                        parsed.row,
                        "seat_order",
                        f"seat {parsed.seat} where seat {index} comes next: a hand's rows run "
                        "seat 0, 1, 2... in order",
                        hand=number,
                        seat=parsed.seat,
                    )
                )
                return False
        if table.names and len(group) != len(table.names):
            problems.append(
                Problem(
                    group[0].row,
                    "seat_order",
                    f"hand {number} has {len(group)} seats; the table's first hand has "
                    f"{len(table.names)}",
                    hand=number,
                )
            )
            return False
        return True

    def _record(self, head: _ParsedRow, lines: list[_Line]) -> dict[str, Any]:
        """The results-only record of a hand (docs/records.md)."""
        tricks = [line.tricks for line in lines]
        if self.buck:
            drops = [seat for seat, line in enumerate(lines) if line.dropped]
            return {"trump": head.trump, "maker": head.maker, "drops": drops, "tricks": tricks}
        bids = [line.bid for line in lines]
        return {"cards": head.cards, "trump": head.trump, "bids": bids, "tricks": tricks}


@dataclass(slots=True)
class _ParsedRow:
    row: int
    key: _TableKey
    hand: int
    seat: int
    ok: bool
    """Every cell of the row was read."""
    dealer: int | None
    cards: int | None
    trump: str | None
    maker: int | None
    line: _Line


def _date(value: str, row: int, problems: list[Problem]) -> datetime.date | None:
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


def _trump(value: str, row: int, problems: list[Problem]) -> str | None:
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


def _shown(value: Any) -> str:
    return "empty" if value is None else str(value)


def _where(key: _TableKey) -> str:
    return (
        f"table {key.number} of round {key.round} of {key.event.name} "
        f"({key.event.date.isoformat()})"
    )


def _not_text(value: Any, path: str = "") -> tuple[str, str] | None:
    r"""The first string of a JSON value (a key or a value) that holds a NUL or a
    lone half of a surrogate pair, which PostgreSQL refuses and UTF-8 cannot
    encode: where it is (``players[2]``, ``record.hands[0].trump``, ``""`` for the
    value itself) and what it holds, in words; ``None`` when every string is text.

    >>> _not_text({"event": "Night", "players": ["Ann", "B\ud800b"]})
    ('players[1]', 'half of a surrogate pair (\\ud800 to \\udfff)')
    >>> _not_text({"record": {"a\x00": 1}})
    ("a field's name in record", 'a NUL (\\u0000)')
    >>> _not_text({"event": "Caf\u00e9 \U0001f600"}) is None
    True
    """
    if isinstance(value, str):
        if "\0" in value:
            return path, "a NUL (\\u0000)"
        if any("\ud800" <= char <= "\udfff" for char in value):
            return path, "half of a surrogate pair (\\ud800 to \\udfff)"
        return None
    if isinstance(value, list):
        for index, item in enumerate(value):
            if (found := _not_text(item, f"{path}[{index}]")) is not None:
                return found
    elif isinstance(value, dict):
        for key, item in value.items():
            if (found := _not_text(key, f"a field's name in {path or 'the line'}")) is not None:
                return found
            if (found := _not_text(item, f"{path}.{key}" if path else key)) is not None:
                return found
    return None


class _JsonLinesResults:
    """Reads JSON Lines of games, a game a line (see the module's docstring)."""

    FIELDS: Final = ("event", "date", "round", "table", "players", "record")
    RECORD_FIELDS: Final = ("game", "players", "first_dealer", "options", "hands")

    def __init__(self, league: League) -> None:
        self.league = league

    def read(self, data: bytes, problems: list[Problem]) -> list[_FileTable]:
        tables: list[_FileTable] = []
        seen: dict[_TableKey, int] = {}
        # Decoded as read, a line at a time; lines end at "\n" alone: JSON text may
        # hold other line breaks (U+2028) raw.
        lines = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="\n")
        try:
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                table = self._table(number, line.rstrip("\r\n"), problems)
                if table is None:
                    continue
                if table.key in seen:
                    problems.append(
                        Problem(
                            number,
                            "table_split",
                            f"{_where(table.key)} is on line {seen[table.key]} already",
                        )
                    )
                    continue
                seen[table.key] = number
                tables.append(table)
        except UnicodeDecodeError:
            problems.append(Problem(None, "encoding", "the file is not UTF-8 text"))
            return []
        if not tables and not problems:
            problems.append(Problem(None, "empty", "the file has no games"))
        return tables

    def _table(self, line: int, text: str, problems: list[Problem]) -> _FileTable | None:
        def bad(message: str) -> None:
            problems.append(Problem(line, "bad_line", message))

        try:
            value = games.parse_record(text)
        except games.RecordError as error:
            bad(error.message)
            return None
        except ValueError:
            bad("the line is not JSON")
            return None
        if _ESCAPED_NOT_TEXT.search(text) and (found := _not_text(value)) is not None:
            path, what = found
            problems.append(
                Problem(
                    line,
                    "not_text",
                    f"{path or 'the line'} holds {what}, which is no character of text: "
                    "write the name or value without it",
                )
            )
            return None
        if not isinstance(value, dict):
            bad("a line is a JSON object: a game with its event, date, round, table and players")
            return None
        wrong = sorted(set(value) ^ set(self.FIELDS))
        if "hands" in value and "record" not in value:
            bad(
                "the line is a game record alone (as the league's JSON Lines download writes "
                "it): the import needs it as the record of a line with the game's event, date, "
                "round, table and players"
            )
            return None
        if wrong:
            fields = ", ".join(self.FIELDS)
            bad(f"a line has exactly the fields {fields} (not so: {', '.join(wrong)})")
            return None
        event, date, round_, number, names, record = (value[key] for key in self.FIELDS)
        if not isinstance(event, str) or not 0 < len(event.strip()) <= MAX_NAME:
            bad(f"event is a game night's name, 1 to {MAX_NAME} characters")
            return None
        day = _date(date, line, problems) if isinstance(date, str) else None
        if day is None:
            if not isinstance(date, str):
                bad("date is a date written 2026-10-01")
            return None
        for name, number_, high in (("round", round_, MAX_ROUND), ("table", number, MAX_TABLE)):
            if type(number_) is not int or not 1 <= number_ <= high:
                bad(f"{name} is a whole number from 1 to {high}")
                return None
        if (
            not isinstance(names, list)
            or not names
            or not all(isinstance(n, str) and 0 < len(n.strip()) <= MAX_NAME for n in names)
        ):
            bad(f"players is a list of the players' names by seat, each 1 to {MAX_NAME} characters")
            return None
        names = [name_clean(name) for name in names]
        for name in names:
            problem = name_problem(name)
            if problem is not None:
                bad(f"players: {problem}")
                return None
        if not isinstance(record, dict):
            bad("record is the engine's game record (docs/records.md)")
            return None
        unknown = sorted(set(record) - set(self.RECORD_FIELDS))
        if unknown:
            bad(f"the record has an unknown field {unknown[0]!r}")
            return None
        if record.get("game") != self.league.game:
            bad(
                f"the record's game is {record.get('game')!r}: the league plays "
                f"{self.league.game!r}"
            )
            return None
        if "options" in record and record["options"] != (self.league.options or {}):
            bad(f"the record's options must be the league's, {self.league.options or {}}")
            return None
        if "players" in record and record["players"] != len(names):
            bad(f"the record has {record['players']!r} players; the line names {len(names)}")
            return None
        first_dealer = record.get("first_dealer")
        if type(first_dealer) is not int or not 0 <= first_dealer < len(names):
            bad(f"the record's first_dealer is a seat, 0 to {len(names) - 1}")
            return None
        hands = record.get("hands")
        if not isinstance(hands, list) or not hands:
            bad("the record's hands are a list of hand records, at least one")
            return None
        key = _TableKey(_EventKey(day, event.strip()), round_, number)
        table = _FileTable(
            key=key,
            row=line,
            names=names,
            first_dealer=first_dealer,
            hands=[],
            results_only=False,
        )
        for index, hand in enumerate(hands):
            table.hands.append(
                _FileHand(
                    number=index + 1,
                    rows=[line],
                    record=hand,
                    game=self.league.game,
                    names=names,
                )
            )
        keys = [name_key(name) for name in names]
        first: dict[str, str] = {}  # each name in two seats once, as first spelled
        for name, same in zip(names, keys, strict=True):
            if keys.count(same) > 1:
                first.setdefault(same, name)
        repeated = sorted(first.values())
        for name in repeated:
            problems.append(Problem(line, "player_twice", f"{name} is in two seats of this table"))
        return table


# -- results: against the league -------------------------------------------------------


@dataclass
class _Plan:
    """What an import stores: found by a check, followed by the import."""

    events: dict[_EventKey, int] = field(default_factory=dict)
    """The game nights the league has, by key: their ids."""
    new_events: dict[_EventKey, int] = field(default_factory=dict)
    """The game nights to create, by key: how many rounds each."""
    missing_rounds: dict[int, list[int]] = field(default_factory=dict)
    """Round numbers to add to stored game nights, by event id."""
    players: dict[str, int] = field(default_factory=dict)
    """The club's players the file names, by name: their ids."""
    new_players: list[str] = field(default_factory=list)
    tables: list[_FileTable] = field(default_factory=list)

    def summary(self, tables: list[_FileTable]) -> ResultsSummary:
        stored = [table for table in tables if table.action in (_Action.CREATE, _Action.FILL)]
        return ResultsSummary(
            events=len({table.key.event for table in tables}),
            new_events=len(self.new_events),
            tables=len(tables),
            new_tables=len(stored),
            skipped_tables=sum(1 for table in tables if table.action == _Action.SKIP),
            hands=sum(len(table.hands) for table in stored),
            new_players=tuple(self.new_players),
        )


def _plan(*, league: League, tables: list[_FileTable], problems: list[Problem]) -> _Plan:
    """Match the file's players, game nights and tables to what the league has."""
    plan = _Plan(tables=tables)
    # a club's players fit in memory (its pages list them all)
    club = Player.objects.filter(club_id=league.club_id).values_list("name_key", "name", "id")
    spelled = {key: name for key, name, _ in club}
    plan.players = {name: pk for _, name, pk in club}
    for table in tables:
        # a name is the club's player of its key, spelled as the club spells it ("ada"
        # is "Ada"), or a new player spelled as the file first does
        for seat, name in enumerate(table.names):
            if not name:
                continue
            known = name_key(name)
            if known not in spelled:
                spelled[known] = name
                plan.new_players.append(name)
            table.names[seat] = spelled[known]

    first_row: dict[_EventKey, int] = {}
    most_rounds: dict[_EventKey, int] = defaultdict(int)
    for table in tables:
        first_row.setdefault(table.key.event, table.row)
        most_rounds[table.key.event] = max(most_rounds[table.key.event], table.key.round)
    found: dict[_EventKey, set[int]] = defaultdict(set)
    rounds: dict[int, set[int]] = defaultdict(set)
    for dates in _chunks(sorted({key.date for key in first_row})):
        for event_id, date, name, number in Event.objects.filter(
            league=league, date__in=dates
        ).values_list("id", "date", "name", "rounds__number"):
            key = _EventKey(date, name)
            if key in first_row:
                found[key].add(event_id)
                if number is not None:
                    rounds[event_id].add(number)
    for key, row in first_row.items():
        if len(found[key]) > 1:
            problems.append(
                Problem(
                    row,
                    "ambiguous_event",
                    f"the league has {len(found[key])} game nights named {key.name} on "
                    f"{key.date.isoformat()}: rename one before importing",
                )
            )
        elif found[key]:
            (event_id,) = found[key]
            plan.events[key] = event_id
            missing = [n for n in range(1, most_rounds[key] + 1) if n not in rounds[event_id]]
            if missing:
                plan.missing_rounds[event_id] = missing
        else:
            plan.new_events[key] = most_rounds[key]

    _match_tables(league=league, plan=plan, problems=problems)
    _check_rounds(plan=plan, problems=problems)
    return plan


def _chunks(ids: Sequence[T]) -> Iterator[Sequence[T]]:
    """``ids`` by :data:`CHUNK`: each ``IN (...)`` list well within PostgreSQL's
    65,535 parameters a statement, whatever the file's size."""
    for start in range(0, len(ids), CHUNK):
        yield ids[start : start + CHUNK]


@dataclass(slots=True)
class _StoredTable:
    """A table the league has, at the place of one of the file's."""

    id: int
    first_dealer: int
    players: list[int]
    hands_played: int
    outcomes: list[Any] = field(default_factory=list)
    records: list[Any] = field(default_factory=list)


def _match_tables(*, league: League, plan: _Plan, problems: list[Problem]) -> None:
    """Find the stored table at each file table's place: with the same players and
    hands it is skipped, with the same players and no hands it is filled, else it is
    a conflict."""
    stored: dict[tuple[int, int, int], _StoredTable] = {}
    for ids in _chunks(sorted(set(plan.events.values()))):
        for row in Table.objects.filter(round__event_id__in=ids).values_list(
            "id", "round__event_id", "round__number", "number", "first_dealer", "seat_players",
            "hands_played",
        ):  # fmt: skip
            table_id, event_id, round_number, number, first_dealer, seats, hands_played = row
            stored[event_id, round_number, number] = _StoredTable(
                id=table_id, first_dealer=first_dealer, players=seats, hands_played=hands_played
            )
    played: list[tuple[_FileTable, _StoredTable]] = []
    for table in plan.tables:
        night = plan.events.get(table.key.event)
        found = None if night is None else stored.get((night, *table.key.place))
        if found is None or table.broken:
            continue
        table.stored = found.id
        if [plan.players.get(name) for name in table.names] != found.players:
            problems.append(
                Problem(
                    table.row,
                    "conflict",
                    f"the league has {_where(table.key)} already, with other players",
                )
            )
            table.action = _Action.CONFLICT
        elif found.hands_played == 0:
            table.action = _Action.FILL
        else:
            played.append((table, found))
    _read_stored_hands(league=league, tables=[found for _, found in played])
    for table, found in played:
        if table.results_only:
            same_hands = table.outcomes == found.outcomes
        else:
            same_hands = table.records == found.records
        same = table.first_dealer == found.first_dealer and same_hands
        table.action = _Action.SKIP if same else _Action.CONFLICT
        if not same:
            problems.append(
                Problem(
                    table.row,
                    "conflict",
                    f"the league has {_where(table.key)} already, with other hands "
                    f"({found.hands_played} stored)",
                )
            )


def _read_stored_hands(*, league: League, tables: list[_StoredTable]) -> None:
    """Each stored table's hands, as a CSV file gives them (what the export writes of
    each hand) and as a JSON Lines file does (the records as sent)."""
    buck = league.game == Game.BUCK_EUCHRE
    by_id = {table.id: table for table in tables}
    for ids in _chunks(sorted(by_id)):
        seats: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
        for hand_id, bid, dropped, tricks, points, total in (
            HandSeat.objects.filter(hand__table_id__in=ids)
            .order_by("hand_id", "seat")
            .values_list("hand_id", "bid", "dropped", "tricks", "points", "total")
        ):
            seats[hand_id].append(
                (None if buck else bid, dropped if buck else None, tricks, points, total)
            )
        for hand_id, table_id, dealer, cards, trump, maker, record in (
            Hand.objects.filter(table_id__in=ids)
            .order_by("table_id", "number")
            .values_list("id", "table_id", "dealer", "cards", "trump", "maker", "record")
        ):
            table = by_id[table_id]
            table.records.append(record)
            table.outcomes.append(
                (dealer, cards, trump, maker if buck else None, tuple(seats[hand_id]))
            )


def _check_rounds(*, plan: _Plan, problems: list[Problem]) -> None:
    """A player sits at one table a round: among the file's tables, and against the
    tables the league has in that round (other than the one at the file table's place)."""
    event_ids = sorted(set(plan.events.values()))
    seated: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)
    for ids in _chunks(event_ids):
        for event_id, round_number, player_id, table_id in Seating.objects.filter(
            round__event_id__in=ids
        ).values_list("round__event_id", "round__number", "player_id", "table_id"):
            seated[event_id, round_number][player_id] = table_id
    at: dict[tuple[_EventKey, int], dict[str, _TableKey]] = defaultdict(dict)
    for table in plan.tables:
        if table.broken:
            continue
        here = at[table.key.event, table.key.round]
        night = plan.events.get(table.key.event)
        for seat, name in enumerate(table.names):
            other = here.get(name)
            if other is not None and other != table.key:
                problems.append(
                    Problem(
                        table.row_of(seat),
                        "two_tables",
                        f"{name} is at table {other.number} of this round already",
                        seat=seat,
                        player=name,
                    )
                )
                continue
            here[name] = table.key
            player = plan.players.get(name)
            if night is None or player is None:
                continue
            elsewhere = seated[night, table.key.round].get(player)
            if elsewhere is not None and elsewhere != table.stored:
                problems.append(
                    Problem(
                        table.row_of(seat),
                        "two_tables",
                        f"{name} sits at another table of round {table.key.round} of "
                        f"{table.key.event.name} already",
                        seat=seat,
                        player=name,
                    )
                )


def _check_with_engine(*, league: League, table: _FileTable, problems: list[Problem]) -> None:
    """Check a table's hands in order with the engine, as the results service will:
    the league's rules for its seats, the first hand's dealer dealing first. Every
    hand is checked: after a hand that is refused (or whose rows are broken) the
    next is checked from the same totals, and the totals are no longer compared."""
    if table.broken or not table.names:
        return
    try:
        rules = fixtures.game_rules(
            game=league.game, players=len(table.names), options=league.options or {}
        )
    except ServiceError as error:
        problems.append(Problem(table.row, "seats", f"{len(table.names)} seats: {error.message}"))
        return
    if not 0 <= table.first_dealer < len(table.names):
        problems.append(
            Problem(
                table.row,
                "dealer",
                f"the first hand's dealer is seat {table.first_dealer}; the table's seats are "
                f"0 to {len(table.names) - 1}",
                hand=1,
            )
        )
        return
    tally = games.GameTally(rules, first_dealer=table.first_dealer)
    totals_known = True

    def skip() -> games.GameTally:
        return games.GameTally(
            rules,
            first_dealer=table.first_dealer,
            hands_played=tally.hands_played + 1,
            totals=tally.totals,
        )

    for hand in table.hands:
        if hand.record is None or not _fits_the_deal(league, tally, hand, problems):
            tally, totals_known = skip(), False
            continue
        try:
            result = tally.add(hand.record)
        except games.RecordError as error:
            error.hand = hand.number - 1
            problems.append(
                Problem(
                    hand.row_of(error.seat),
                    error.code,
                    error.message,
                    hand=hand.number,
                    seat=error.seat,
                    error=error,
                    facts=hand.facts,
                )
            )
            tally, totals_known = skip(), False
            continue
        for seat, line in enumerate(hand.lines or ()):
            if line.points != result.points[seat]:
                problems.append(
                    Problem(
                        line.row,
                        "points",
                        f"the points are {line.points}; the rules score {result.points[seat]} "
                        "for this hand",
                        hand=hand.number,
                        seat=seat,
                        facts=hand.facts,
                    )
                )
            elif totals_known and line.total != tally.totals[seat]:
                problems.append(
                    Problem(
                        line.row,
                        "total",
                        f"the total is {line.total}; the hands so far add up to "
                        f"{tally.totals[seat]}",
                        hand=hand.number,
                        seat=seat,
                        facts=hand.facts,
                    )
                )


def _fits_the_deal(
    league: League, tally: games.GameTally, hand: _FileHand, problems: list[Problem]
) -> bool:
    """A CSV hand's dealer and cards are the ones the game deals (the engine decides
    both from the hand's place in the game; a move log carries its own deal)."""
    fits = True
    if hand.dealer is not None and hand.dealer != tally.next_dealer:
        problems.append(
            Problem(
                hand.rows[0],
                "dealer",
                f"seat {hand.dealer} deals hand {hand.number} here, but the deal passes left: "
                f"seat {tally.next_dealer} deals it",
                hand=hand.number,
            )
        )
        fits = False
    if hand.cards is not None:
        expected = (
            games.buck_euchre.HAND_SIZE if league.game == Game.BUCK_EUCHRE else tally.next_hand_size
        )
        if expected is not None and hand.cards != expected:
            problems.append(
                Problem(
                    hand.rows[0],
                    "cards",
                    f"hand {hand.number} deals {hand.cards} cards here; the league's games deal "
                    f"{expected}",
                    hand=hand.number,
                )
            )
            fits = False
    return fits


# -- results: storing --------------------------------------------------------------------


@transaction.atomic
@audit.audited_via(audit.Via.IMPORT)
def results_import(
    *,
    league: League,
    data: bytes,
    format: ImportFormat = ImportFormat.CSV,
    digest: str | None = None,
) -> ResultsCheck:
    """Import a results file into ``league``: all or nothing, in one transaction.

    Locks the club's row, checks the file again (:func:`check_results_import`) and,
    if nothing is wrong, adds the new players, the game nights and rounds the league
    lacks, and each table with its hands (:func:`~league.services.results.game_submit`,
    which owes the standings and ratings jobs of complete games). A file with
    problems is :class:`ImportRefused`; ``digest``, when given, must be the file's
    (:class:`NotThePreviewedFile`). A refusal of another service (a table drawn
    meanwhile, say) passes through; nothing is stored then either. Returns the
    check the import followed: its summary is what was stored.
    """
    _check_digest(data, digest)
    _lock_club(league.club)
    check = check_results_import(league=league, data=data, format=format)
    if not check.ok:
        raise ImportRefused(check)
    plan = check.plan
    players = {player.name: player for player in Player.objects.filter(club=league.club)}
    for player in clubs.players_create(club=league.club, names=plan.new_players):
        players[player.name] = player
    events: dict[int, Event] = {}
    for ids in _chunks(sorted(set(plan.events.values()))):
        events.update(Event.objects.in_bulk(ids))
    for event_id, numbers in plan.missing_rounds.items():
        for number in numbers:
            fixtures.round_create(event=events[event_id], number=number)
    event_ids = {key: event_id for key, event_id in plan.events.items()}
    for key, rounds in plan.new_events.items():
        event = fixtures.event_create(league=league, name=key.name, date=key.date, rounds=rounds)
        event_ids[key] = event.pk
    round_of = {
        (round_.event_id, round_.number): round_
        for ids in _chunks(sorted(set(event_ids.values())))
        for round_ in Round.objects.filter(event_id__in=ids).select_related("event__league")
    }
    for table in plan.tables:
        if table.action == _Action.CREATE:
            stored = fixtures.table_create(
                round=round_of[event_ids[table.key.event], table.key.round],
                number=table.key.number,
                players=[players[name] for name in table.names],
                first_dealer=table.first_dealer,
            )
        elif table.action == _Action.FILL:
            assert table.stored is not None, "a table to fill is one the league has"
            stored = fixtures.table_reseat(
                table=Table.objects.get(pk=table.stored), first_dealer=table.first_dealer
            )
        else:
            continue
        results.game_submit(table=stored, record={"hands": table.records})
    return check


# -- results: in the background ---------------------------------------------------------

UNDER_WAY: Final = (ResultsImport.State.WAITING, ResultsImport.State.RUNNING)
"""The states of an import whose job has still to store the file (or find it unfit)."""


def results_import_queue(
    *, check: ResultsCheck, data: bytes, digest: str, filename: str = "", by: Any = None
) -> ResultsImport:
    """Keep ``data``, the file ``check`` read, and owe the job that imports it
    (:func:`results_import_run`), in one transaction: the job is owed exactly when
    the file is kept. For files whose storing would not fit in a request (the
    import page's large files); ``by``, the user who confirmed it, is the audit
    trail's actor for what the job stores.

    ``digest`` (the previewed file's) must be the file's (:class:`NotThePreviewedFile`),
    and ``check`` must have found no problem (:class:`ImportRefused`); the job checks
    the file again as it imports it. The same file confirmed again while its import
    into the league is under way is that import (returned), not a second one.
    Returns the import, ``waiting`` unless it was under way already.
    """
    _check_digest(data, digest)
    if check.digest != digest:
        raise NotThePreviewedFile()
    if not check.ok:
        raise ImportRefused(check)
    league = check.league
    if (under_way := _under_way(league, digest)) is not None:
        return under_way
    try:
        with transaction.atomic():
            queued = ResultsImport.objects.create(
                league=league,
                requested_by=by if getattr(by, "is_authenticated", False) else None,
                filename=filename[:255],
                format=check.format,
                digest=digest,
                data=data,
                tables=check.summary.new_tables,
                hands=check.summary.hands,
                created_at=timezone.now(),
            )
            jobs.job_owe(kind=JobOwed.Kind.IMPORT, target_id=queued.pk)
    except IntegrityError:
        # the same confirmation at the same moment (results_import_once_under_way)
        if (under_way := _under_way(league, digest)) is None:
            raise
        return under_way
    return queued


def _under_way(league: League, digest: str) -> ResultsImport | None:
    return (
        ResultsImport.objects.defer("data")
        .filter(league=league, digest=digest, state__in=UNDER_WAY)
        .first()
    )


def results_import_run(*, import_id: int) -> str:
    """The job of a queued import (:func:`results_import_queue`): mark it
    ``running`` (committed at once, for the page that follows it), then, in one
    transaction, check the file again and store it as :func:`results_import` does,
    all or nothing, and say what happened: ``done`` with the summary, or
    ``refused`` (the file no longer fits: a table drawn meanwhile, say). The file
    is emptied once it has been imported or refused. Returns the state it ended
    in (``gone`` for an import deleted since, with its league).

    Safe to run twice, at once too: the import's row is locked (before the club's,
    see the module's docstring) for the whole import, so a second run waits for
    the first, then finds it finished and returns. A failure of the database (a
    timeout, a lost connection) rolls the import back and passes on: the row stays
    ``running``, the job stays owed, and Celery or the sweep runs it again.
    """
    ResultsImport.objects.filter(pk=import_id, state__in=UNDER_WAY).update(
        state=ResultsImport.State.RUNNING, started_at=timezone.now()
    )
    with outbox.running(JobOwed.Kind.IMPORT, import_id):
        queued = (
            ResultsImport.objects.select_for_update(of=("self",))
            .select_related("league__club", "requested_by")
            .filter(pk=import_id)
            .first()
        )
        if queued is None:
            return "gone"
        if queued.state not in UNDER_WAY:
            return str(queued.state)  # finished by another run
        try:
            with audit.audit_context(via=audit.Via.IMPORT, actor=queued.requested_by):
                done = results_import(
                    league=queued.league,
                    data=bytes(queued.data),
                    format=ImportFormat(queued.format),
                    digest=queued.digest,
                )
        except ImportRefused as refused:
            _finish(queued, refusal=refused.message, problems=len(refused.check.problems))
        except ServiceError as error:  # another service's: something changed since the check
            _finish(queued, refusal=error.message)
        except IntegrityError:  # a change at the same moment: a player of a name added
            _finish(queued, refusal="something changed in the league as the file was imported")
        else:
            _finish(queued, summary=asdict(done.summary))
        return str(queued.state)


@shared_task(name=RESULTS_IMPORT_TASK, **JOB_OPTIONS)
def results_import_job(import_id: int) -> str:
    """The Celery task of :func:`results_import_run` (the work owed of kind
    ``import``: :data:`league.tasks.RESULTS_IMPORT_TASK` names it)."""
    return results_import_run(import_id=import_id)


def _finish(
    queued: ResultsImport,
    *,
    summary: dict[str, Any] | None = None,
    refusal: str = "",
    problems: int = 0,
) -> None:
    """Say what an import came to (done, with its summary; else refused), and let
    its file go."""
    queued.state = ResultsImport.State.DONE if summary is not None else ResultsImport.State.REFUSED
    queued.summary, queued.refusal, queued.problems = summary, refusal, problems
    queued.data = b""
    queued.finished_at = timezone.now()
    queued.save(update_fields=["state", "summary", "refusal", "problems", "data", "finished_at"])


def _check_digest(data: bytes, digest: str | None) -> None:
    if digest is not None and digest != file_digest(data):
        raise NotThePreviewedFile()


def _lock_club(club: Club) -> None:
    """Serialise the imports into one club (see the module's docstring)."""
    Club.objects.select_for_update().get(pk=club.pk)


def problems_text(problems: Iterable[Problem]) -> Iterator[str]:
    """Each problem as a line of plain text, as the management commands print them:
    ``row 12, hand 3, seat 1 (Ann): <message> (<code>)``."""
    for problem in problems:
        where = [
            f"{label} {value}"
            for label, value in (
                ("row", problem.row),
                ("hand", problem.hand),
                ("seat", problem.seat),
            )
            if value is not None
        ]
        if problem.player and problem.seat is not None:
            where[-1] += f" ({problem.player})"
        yield f"{', '.join(where) or 'the file'}: {problem.message} ({problem.code})"
