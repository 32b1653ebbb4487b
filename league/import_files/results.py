"""What a results file holds, as its readers (:mod:`~league.import_files.results_csv`,
:mod:`~league.import_files.results_jsonl`) give it: tables of hands, each at its
place (game night, round, number), with its players by seat and each hand's
record for the engine; what the import does with a table once it is matched
against the league (:class:`TableAction`)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import games
from league.import_files.problems import ProblemHand, Words, gettext_noop


class ImportFormat(StrEnum):
    """How a results file is written."""

    CSV = "csv"
    JSON_LINES = "jsonl"


@dataclass(frozen=True)
class LeagueGame:
    """What reading a results file needs of the league it is read for (a model's
    values, not the model)."""

    game: str
    """The league's game, as its records name it (``bluke``, ``buck_euchre``)."""
    display: str
    """The game's name in words (``Buck Euchre``)."""
    options: dict[str, Any] | None
    """The league's rule options."""


@dataclass(slots=True)
class SeatLine:
    """One seat of a hand as a CSV row gives it."""

    row: int
    player: str
    bid: int | None
    dropped: bool
    tricks: int
    points: int
    total: int


@dataclass(slots=True)
class FileHand:
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
    lines: list[SeatLine] | None = None
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
    def outcome(self) -> tuple[object, ...] | None:
        """What the export writes of a CSV hand, to compare with a stored one: the
        dealer, cards, trump, maker (Buck Euchre) and each seat's bid (Bluke),
        dropped (Buck Euchre), tricks, points and total; ``None`` for a hand whose
        rows are broken."""
        if self.lines is None or self.record is None:
            return None
        buck = self.game == games.buck_euchre.NAME
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
class EventKey:
    date: datetime.date
    name: str


@dataclass(frozen=True)
class TableKey:
    event: EventKey
    round: int
    number: int

    @property
    def place(self) -> tuple[int, int]:
        """The round's number and the table's, within the game night."""
        return self.round, self.number


class TableAction(StrEnum):
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
class FileTable:
    key: TableKey
    row: int
    """The table's first row (or line)."""
    names: list[str]
    first_dealer: int
    hands: list[FileHand]
    results_only: bool
    """A CSV file's table: hands as results, compared with stored ones by what the
    export writes of them; else (JSON Lines) by their records."""
    broken: bool = False
    """Its rows could not be read whole: it is not checked further."""
    action: TableAction = TableAction.CREATE
    stored: int | None = None
    """The id of the league's table at the same place, if there is one."""
    seats_from: int = 0
    """How the file counts seats, for the problems' words: 1 in a games CSV with a
    ``seat_number`` column, 0 in an older one and in JSON Lines (the records')."""

    @property
    def outcomes(self) -> list[tuple[object, ...] | None]:
        return [hand.outcome for hand in self.hands]

    @property
    def records(self) -> list[Any]:
        return [hand.record for hand in self.hands]

    def row_of(self, seat: int) -> int:
        """The row of ``seat`` in the table's first hand (else the table's first row)."""
        return self.hands[0].row_of(seat) if self.hands else self.row


def table_in_words(key: TableKey) -> Words:
    """A table's place as a problem names it: ``table 2 of round 1 of Cup night
    (2026-10-01)``, the date as the file writes it."""
    return Words(
        gettext_noop("table %(table)d of round %(round)d of %(event)s (%(date)s)"),
        {
            "table": key.number,
            "round": key.round,
            "event": key.event.name,
            "date": key.event.date.isoformat(),
        },
    )
