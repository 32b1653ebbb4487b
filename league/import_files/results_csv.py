"""The reader of a results CSV: the games CSV the export writes
(:data:`league.csv_format.HAND_COLUMNS`), a row per hand and seat, read into
tables of hands, each hand a results-only record (docs/records.md).

The file counts seats as its header says: a ``seat_number`` column (the download
now) counts ``dealer``, ``maker`` and ``seat_number`` from 1, a ``seat`` column (a
download from before, :data:`league.csv_format.HAND_COLUMNS_FROM_0`) counts them
from 0. They are read into seats from 0, as the records count them, and the
problems' own words name a seat as the file does (:attr:`CsvResults.seats_from`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

import games
from league.csv_format import HAND_COLUMNS, HAND_COLUMNS_FROM_0, SEAT_NUMBER
from league.import_files.csv_rows import csv_rows
from league.import_files.problems import Problem, Words, gettext_noop, name_rows, ngettext_lazy
from league.import_files.results import (
    EventKey,
    FileHand,
    FileTable,
    LeagueGame,
    SeatLine,
    TableKey,
    table_in_words,
)
from league.import_files.values import (
    MAX_HAND,
    MAX_ROUND,
    MAX_SEAT,
    MAX_TABLE,
    read_date,
    read_name,
    read_trump,
    read_whole,
)
from league.names import name_key


class CsvResults:
    """Reads the games CSV the export writes into tables of hands."""

    def __init__(self, league: LeagueGame) -> None:
        self.league = league
        self.buck = league.game == games.buck_euchre.NAME
        self.seats_from = 1
        """How the file counts seats (dealer, maker and seat): from 1 (a
        ``seat_number`` column), or from 0 (a ``seat`` column, an older download);
        known once the header is read."""

    @property
    def _seat_column(self) -> str:
        return SEAT_NUMBER if self.seats_from else "seat"

    def _seat(
        self,
        value: str,
        row: int,
        problems: list[Problem],
        *,
        column: str,
        high: int | None = MAX_SEAT,
    ) -> int | None:
        """A cell's seat as the file counts it (from :attr:`seats_from`), as a seat
        from 0; ``high`` is the highest seat from 0."""
        first = self.seats_from
        seat = read_whole(
            value,
            row,
            problems,
            column=column,
            low=first,
            high=None if high is None else high + first,
        )
        return None if seat is None else seat - first

    def shown_seat(self, seat: object) -> str | Words:
        """A seat from 0 as the file writes it (``empty`` for none)."""
        return str(seat + self.seats_from) if isinstance(seat, int) else _shown(seat)

    def read(self, data: bytes, problems: list[Problem]) -> list[FileTable]:
        """The file's tables, in its order. A row that cannot be placed (its night,
        round, table, hand or seat unreadable) leaves the table being read unchecked
        beyond its rows, rather than reporting every hand after it as short."""
        tables: list[FileTable] = []
        seen: dict[TableKey, int] = {}
        unplaced: set[TableKey] = set()
        current: TableKey | None = None
        rows: list[_ParsedRow] = []
        any_row = skipping = False
        rows_start = 0
        for row, cells in csv_rows(data, HAND_COLUMNS, problems, older=[HAND_COLUMNS_FROM_0]):
            if not any_row:
                self.seats_from = 1 if SEAT_NUMBER in cells else 0
            if self.seats_from:
                cells["seat"] = cells.pop(SEAT_NUMBER)
            any_row = True
            parsed = self._row(row, cells, problems)
            if parsed is None:
                if current is not None:
                    unplaced.add(current)
                continue
            if parsed.key != current:
                if rows:
                    tables.append(self._table(rows, problems, unchecked=current in unplaced))
                    name_rows(problems, rows_start, {r.row: r.line.player for r in rows})
                rows_start = len(problems)
                current, rows = parsed.key, []
                skipping = parsed.key in seen
                if skipping:
                    words = Words(
                        gettext_noop(
                            "%(table)s has rows from row %(row)d on, and again here: a table's "
                            "rows come together"
                        ),
                        {"table": table_in_words(parsed.key), "row": seen[parsed.key]},
                    )
                    problems.append(
                        Problem.said(row, "table_split", words, hand=parsed.hand, seat=parsed.seat)
                    )
                else:
                    seen[parsed.key] = row
            if not skipping:
                rows.append(parsed)
        if rows:
            tables.append(self._table(rows, problems, unchecked=current in unplaced))
            name_rows(problems, rows_start, {r.row: r.line.player for r in rows})
        if not any_row and not problems:
            words = Words(gettext_noop("the file has no rows after the header"))
            problems.append(Problem.said(None, "empty", words))
        return tables

    def _row(self, row: int, cells: dict[str, str], problems: list[Problem]) -> _ParsedRow | None:
        """A row's values, or ``None`` (with problems) when it cannot be placed in a
        table and hand. A row placed but otherwise broken has ``ok`` false. Its
        problems name its hand and seat where they can be read."""
        start = len(problems)
        try:
            return self._read_row(row, cells, problems)
        finally:
            hand = read_whole(cells["hand"], row, [], column="hand", low=1, high=MAX_HAND)
            seat = self._seat(cells["seat"], row, [], column="seat")
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
        event = read_name(cells["event"], row, problems, column="event")
        date = read_date(cells["date"], row, problems)
        round_ = read_whole(cells["round"], row, problems, column="round", low=1, high=MAX_ROUND)
        number = read_whole(cells["table"], row, problems, column="table", low=1, high=MAX_TABLE)
        hand = read_whole(cells["hand"], row, problems, column="hand", low=1, high=MAX_HAND)
        seat = self._seat(cells["seat"], row, problems, column=self._seat_column)
        if None in (event, date, round_, number, hand, seat):
            return None
        assert event is not None and date is not None and round_ is not None
        assert number is not None and hand is not None and seat is not None
        placed = len(problems)

        def whole(column: str, low: int | None = None) -> int | None:
            return read_whole(cells[column], row, problems, column=column, low=low)

        def empty_in_this_game(column: str) -> None:
            if cells[column]:
                other = "Bluke" if self.buck else "Buck Euchre"
                # Translators: column is the file's column (bid, maker, dropped); other and
                # league are the games' names (Bluke, Buck Euchre)
                words = Words(
                    gettext_noop(
                        "the %(column)s is %(value)s, but only %(other)s has a %(column)s: "
                        "the league plays %(league)s"
                    ),
                    {
                        "column": column,
                        "value": repr(cells[column]),
                        "other": other,
                        "league": self.league.display,
                    },
                )
                problems.append(Problem.said(row, "wrong_game", words))

        dealer = self._seat(cells["dealer"], row, problems, column="dealer", high=None)
        cards = whole("cards", 1)
        trump = read_trump(cells["trump"], row, problems)
        player = read_name(cells["player"], row, problems, column="player", person=True)
        tricks = whole("tricks")
        points = whole("points")
        total = whole("total")
        maker: int | None = None
        bid: int | None = None
        dropped = False
        if self.buck:
            empty_in_this_game("bid")
            maker = (
                self._seat(cells["maker"], row, problems, column="maker", high=None)
                if cells["maker"]
                else None
            )
            if cells["dropped"] not in ("0", "1"):
                words = Words(
                    gettext_noop("dropped is %(value)s: 1 for a player who dropped out, else 0"),
                    {"value": repr(cells["dropped"])},
                )
                code = "missing" if not cells["dropped"] else "bad_value"
                problems.append(Problem.said(row, code, words))
            dropped = cells["dropped"] == "1"
        else:
            empty_in_this_game("maker")
            empty_in_this_game("dropped")
            bid = whole("bid")
        return _ParsedRow(
            row=row,
            key=TableKey(EventKey(date, event), round_, number),
            hand=hand,
            seat=seat,
            ok=len(problems) == placed,
            dealer=dealer,
            cards=cards,
            trump=trump,
            maker=maker,
            line=SeatLine(
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
    ) -> FileTable:
        """A table from its rows, in file order. Hands must run 1, 2, 3... (a table
        whose hands do not is broken: where its later hands belong is unknown); a
        hand whose rows are broken is kept without a record, and the next is read.
        ``unchecked``: a row of the table could not be placed, so it is broken."""
        first = rows[0]
        table = FileTable(
            key=first.key,
            row=first.row,
            names=[],
            first_dealer=first.dealer or 0,
            hands=[],
            results_only=True,
            broken=unchecked,
            seats_from=self.seats_from,
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
                words = Words(
                    gettext_noop(
                        "hand %(hand)d where hand %(next)d comes next: a table's hands run "
                        "1, 2, 3... in order"
                    ),
                    {"hand": parsed.hand, "next": expected},
                )
                problems.append(Problem.said(parsed.row, "hand_order", words, hand=parsed.hand))
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

    def _hand(self, table: FileTable, group: list[_ParsedRow], problems: list[Problem]) -> FileHand:
        """A hand from its rows. The first hand seats the table; a later hand must
        seat the same players. The hand has a record only if all is well."""
        head = group[0]
        number = head.hand
        hand = FileHand(
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
                    words = Words(
                        gettext_noop("%(name)s is in seat %(seat)s of this table already"),
                        {"name": parsed.line.player, "seat": self.shown_seat(sat)},
                    )
                    problems.append(
                        Problem.said(
                            parsed.row, "player_twice", words, hand=number, seat=parsed.seat
                        )
                    )
        for parsed in group:
            before = table.names[parsed.seat]
            if parsed.line.player and before and name_key(parsed.line.player) != name_key(before):
                words = Words(
                    gettext_noop(
                        "%(name)s is in seat %(seat)s, where %(before)s sits in the table's "
                        "first hand"
                    ),
                    {
                        "name": parsed.line.player,
                        "seat": self.shown_seat(parsed.seat),
                        "before": before,
                    },
                )
                problems.append(
                    Problem.said(
                        parsed.row, "players_changed", words, hand=number, seat=parsed.seat
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
                    shown = self.shown_seat if what in ("dealer", "maker") else _shown
                    words = Words(
                        _MISMATCH[what],
                        {"mine": shown(mine), "theirs": shown(theirs), "first": self.shown_seat(0)},
                    )
                    problems.append(
                        Problem.said(
                            parsed.row, "hand_mismatch", words, hand=number, seat=parsed.seat
                        )
                    )
                    parsed.ok = False
        lines = [parsed.line for parsed in group]
        hand.names, hand.dealer, hand.cards = table.names, head.dealer, head.cards
        hand.trump, hand.maker, hand.lines = head.trump, head.maker, lines
        if all(parsed.ok for parsed in group):
            hand.record = self._record(head, lines)
        return hand

    def _seats_in_order(
        self, table: FileTable, group: list[_ParsedRow], problems: list[Problem]
    ) -> bool:
        """A hand's rows are seats 1, 2, 3... (0, 1, 2... in an older file) in order,
        as many as the table's first hand has."""
        number = group[0].hand
        for index, parsed in enumerate(group):
            if parsed.seat != index:
                run = ", ".join(str(seat + self.seats_from) for seat in range(3))
                words = Words(
                    gettext_noop(
                        "seat %(seat)s where seat %(next)s comes next: a hand's rows run seat "
                        "%(run)s... in order"
                    ),
                    {
                        "seat": self.shown_seat(parsed.seat),
                        "next": self.shown_seat(index),
                        "run": run,
                    },
                )
                problems.append(
                    Problem.said(parsed.row, "seat_order", words, hand=number, seat=parsed.seat)
                )
                return False
        if table.names and len(group) != len(table.names):
            words = Words.counted(
                ngettext_lazy(
                    "hand %(hand)d has %(seats)d seat; the table's first hand has %(first)d",
                    "hand %(hand)d has %(seats)d seats; the table's first hand has %(first)d",
                    len(group),
                ),
                {"hand": number, "seats": len(group), "first": len(table.names)},
            )
            problems.append(Problem.said(group[0].row, "seat_order", words, hand=number))
            return False
        return True

    def _record(self, head: _ParsedRow, lines: list[SeatLine]) -> dict[str, object]:
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
    key: TableKey
    hand: int
    seat: int
    ok: bool
    """Every cell of the row was read."""
    dealer: int | None
    cards: int | None
    trump: str | None
    maker: int | None
    line: SeatLine


def _shown(value: object) -> str | Words:
    # Translators: a cell's value where the file has none (the dealer is empty here)
    return Words(gettext_noop("empty")) if value is None else str(value)


_MISMATCH: Final = {
    "dealer": gettext_noop(
        "the dealer is %(mine)s here and %(theirs)s on seat %(first)s's row: every row of a hand "
        "gives the same"
    ),
    "cards": gettext_noop(
        "the cards is %(mine)s here and %(theirs)s on seat %(first)s's row: every row of a hand "
        "gives the same"
    ),
    "trump": gettext_noop(
        "the trump is %(mine)s here and %(theirs)s on seat %(first)s's row: every row of a hand "
        "gives the same"
    ),
    "maker": gettext_noop(
        "the maker is %(mine)s here and %(theirs)s on seat %(first)s's row: every row of a hand "
        "gives the same"
    ),
}
"""A hand's rows that disagree, by the column (the file's words: "the cards is")."""
