"""What a league's records look like outside the service: rows for CSV files and
game records for JSON Lines, read in constant memory.

Reads only (like :mod:`league.selectors`); the views in :mod:`league.web.exports`
stream them, and :mod:`league.archives` writes them to a file for a league too large
to stream within a request. Every reader is a generator over a server-side cursor
(``QuerySet.iterator``, see :func:`rows_of`), so a league of 100,000 games exports
without holding it: rows leave as they are read.

A night's rows are found from its rounds, down the indexes to its tables, hands and
hand lines, so reading them costs what the night holds, whatever else the database
holds (:func:`_scope`).

- :func:`standings_rows`, :func:`rating_rows`: one row a player.
- :func:`hand_rows`: one row per hand and seat of every game of a league or event,
  in the order played (date, round, table, hand, seat).
- :func:`game_records`: one engine game record per table with hands (the format
  ``python -m games check`` reads, see docs/records.md), in the same order, each
  hand exactly as the club sent it (a move log where the club recorded the cards).
- :func:`csv_lines`, :func:`json_lines`: rows and records as the lines of a file;
  :data:`GAMES_FILES`, the two files of every game, by name.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from django.db import connection, transaction
from django.db.models import F, Model, QuerySet, Sum
from django.utils.text import slugify

from league import ratings, standings
from league.csv_format import (
    BYTE_ORDER_MARK,
    CELLS_APART,
    HAND_COLUMNS,
    SOME_CELL_TO_GUARD,
    cell_guarded,
)
from league.models import Event, Game, HandSeat, League, RatingScope, Standing, Table
from league.season import season_in_words

M = TypeVar("M", bound=Model)
R = TypeVar("R")
V = TypeVar("V")

CHUNK: Final = 2_000
"""Rows fetched per round trip of the server-side cursor."""

STANDING_FIGURES: Final = tuple(f for f in standings.STORED_FIELDS if f != "rank")
STANDINGS_COLUMNS: Final = ("rank", "player", *STANDING_FIGURES, "season_format")
"""A row a player; ``season_format`` is the league's season format in words, the
same on every row (a column, so that the file stays one table a spreadsheet
sorts and filters, and reads back with its header)."""
RATINGS_COLUMNS: Final = (
    "rank",
    "player",
    "rating",
    "mu",
    "sigma",
    "games",
    "provisional",
)


def rows_of(queryset: QuerySet[M, R]) -> Iterator[R]:
    """The rows of ``queryset``, :data:`CHUNK` at a time from a server-side cursor.

    On PostgreSQL the cursor is read inside a transaction of its own (read only, a
    single statement): outside one, Django declares it ``WITH HOLD``, and PostgreSQL
    builds such a cursor's whole result when the statement's implicit transaction
    commits, before the first row is fetched (with no statement timeout while it
    does: the request's is lifted for the commit). Inside a transaction rows leave
    as PostgreSQL finds them. On SQLite, whose transactions here take the write lock
    (``league.backends.sqlite``), the cursor is read outside any: a reader there
    sees the one snapshot it began with anyway."""
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        with transaction.atomic():
            yield from queryset.iterator(chunk_size=CHUNK)
    else:
        yield from queryset.iterator(chunk_size=CHUNK)


def _scope(table: str, *, league: League, event: Event | None) -> dict[str, League | Event]:
    """The filter, for rows whose table is reached through ``table`` (a lookup path
    ending in ``__``, or ``""`` for the tables themselves), that keeps the league's
    rows, or the event's.

    An event's rows are found from its rounds (``round.event_id``), so that
    PostgreSQL starts from the rounds' index and follows the tables', hands' and
    hand lines' down. A filter on the tables' ids (``table_id IN (SELECT ...)``),
    as this was before, was planned as a scan of every hand line in the database
    that kept the night's: 5 s for a night of 100 games beside 50 clubs' games.
    """
    if event is not None:
        return {f"{table}round__event": event}
    return {f"{table}round__event__league": league}


def hand_lines(*, league: League, event: Event | None = None) -> int:
    """How many rows :func:`hand_rows` gives for the league (or event): each table's
    hands times its seats, summed over the tables (one query, no hand read)."""
    found = Table.objects.filter(**_scope("", league=league, event=event)).aggregate(
        lines=Sum(F("hands_played") * F("players"))
    )
    return int(found["lines"] or 0)


def standings_rows(*, league: League, event: Event | None = None) -> Iterator[tuple[object, ...]]:
    """The stored standings of a league (or one event), best first, in
    :data:`STANDINGS_COLUMNS` order (one query more for a league whose best
    nights count: its nights, for the format in words)."""
    nights = None
    if league.season and league.season.get("best_nights"):
        nights = Event.objects.filter(league=league, is_final=False).count()
    words = season_in_words(league.season, nights=nights, first=league.table_size)
    rows = (
        Standing.objects.filter(league=league, event=event)
        .select_related("player")
        .order_by("rank", "player__name")
    )
    for row in rows_of(rows):
        yield (
            row.rank,
            row.player.name,
            *(getattr(row, field) for field in STANDING_FIGURES),
            words,
        )


def rating_rows(*, scope: RatingScope | None) -> Iterator[tuple[object, ...]]:
    """The rating leaderboard of a scope, best first, as the pages show it (each
    rating as of the scope's latest game), in :data:`RATINGS_COLUMNS` order.
    ``rating`` is the ordinal, the board's figure (mu, less 3 x the part of sigma
    above the provisional threshold). One row a player: a club's players
    fit in memory, and the board's order needs them all."""
    if scope is None:
        return
    for rank, rating in enumerate(ratings.leaderboard(scope=scope), start=1):
        yield (
            rank,
            rating.player.name,
            round(rating.ordinal, 4),
            round(rating.mu, 4),
            round(rating.sigma, 4),
            rating.games,
            ratings.is_provisional(rating, game=scope.game),
        )


PLAYED: Final = ("round__event__date", "round__event_id", "round__number", "number", "id")
"""The order of a league's tables as played (and as :mod:`league.ratings` rates them)."""


def hand_rows(*, league: League, event: Event | None = None) -> Iterator[tuple[object, ...]]:
    """Every hand and seat of the league's (or event's) games, in the order
    played, in :data:`HAND_COLUMNS` order."""
    table = "hand__table__"
    seats = HandSeat.objects.filter(**_scope(table, league=league, event=event))
    rows = seats.order_by(
        *(f"{table}{field}" for field in PLAYED), "hand__number", "seat"
    ).values_list(
        f"{table}round__event__name",
        f"{table}round__event__date",
        f"{table}round__number",
        f"{table}number",
        "hand__number",
        "hand__dealer",
        "hand__cards",
        "hand__trump",
        "hand__maker",
        "seat",
        "player__name",
        "bid",
        "dropped",
        "tricks",
        "points",
        "total",
        f"{table}game",
    )
    for row in rows_of(rows):
        name, date, round_number, number, hand, dealer, cards, trump, maker, *seat = row
        seat_number, player, bid, dropped, tricks, points, total, game = seat
        buck = game == Game.BUCK_EUCHRE
        yield (
            name,
            date.isoformat(),
            round_number,
            number,
            hand + 1,  # seats, dealers and hands from 1, as the sheet counts them
            dealer + 1,
            cards,
            trump,
            (maker + 1 if maker is not None else None) if buck else "",
            seat_number + 1,
            player,
            "" if buck else bid,
            int(dropped) if buck else "",
            tricks,
            points,
            total,
        )


def game_records(*, league: League, event: Event | None = None) -> Iterator[dict[str, Any]]:
    """One engine game record for each of the league's (or event's) tables with
    at least one hand, in the order played: ``game``, ``players``,
    ``first_dealer``, ``options`` (the league's) and ``hands`` as the club sent
    them. Incomplete games are records too (the engine checks them as games in
    progress)."""
    options = league.options or {}
    hands = (
        Table.objects.filter(**_scope("", league=league, event=event))
        .filter(hands__isnull=False)
        .order_by(*PLAYED, "hands__number")
        .values_list("id", "game", "players", "first_dealer", "hands__record")
    )
    current: int | None = None
    record: dict[str, Any] = {}
    for table_id, game, players, first_dealer, hand in rows_of(hands):
        if table_id != current:
            if current is not None:
                yield record
            current = table_id
            record = {"game": game, "players": players, "first_dealer": first_dealer}
            if game == Game.BLUKE or options:
                record["options"] = options
            record["hands"] = []
        record["hands"].append(hand)
    if current is not None:
        yield record


def safe_cell(value: V) -> V | str:
    """``value`` as a spreadsheet should read it: text that would start a formula,
    or that starts with an apostrophe, gets a leading apostrophe, and so does what
    follows a semicolon, tab, bar or line break in it (:func:`cell_guarded`);
    anything else is unchanged.

    >>> safe_cell("=1+1"), safe_cell("-Ann"), safe_cell("'Tis"), safe_cell("Ann"), safe_cell(-10)
    ("'=1+1", "'-Ann", "''Tis", 'Ann', -10)
    >>> safe_cell("Ann;=1+1 night")
    "Ann;'=1+1 night"
    """
    if isinstance(value, str):
        return cell_guarded(value)
    return value


class _Line:
    """A file-like object whose ``write`` hands back the line :mod:`csv` wrote."""

    def write(self, text: str) -> str:
        return text


def csv_lines(header: Sequence[str], rows: Iterable[Sequence[object]]) -> Iterator[str]:
    """The header and ``rows`` as CSV lines, made safe for spreadsheets, one at a time:
    the byte order mark first (so that Excel reads the file as UTF-8), text quoted
    (empty text too), numbers (and ``True``/``False``) as they are.

    >>> list(csv_lines(["player", "points"], [["Ann;=1+1", -10], ["=1+1", 3], ["", 0]]))
    ['\\ufeff"player","points"\\r\\n', '"Ann;\\'=1+1",-10\\r\\n', '"\\'=1+1",3\\r\\n', '"",0\\r\\n']
    """
    writer = csv.writer(_Line(), quoting=csv.QUOTE_NONNUMERIC)
    guarded, some_to_guard, apart = cell_guarded, SOME_CELL_TO_GUARD.search, CELLS_APART
    yield BYTE_ORDER_MARK + writer.writerow(header)
    for row in rows:
        # safe_cell on each cell, but only for a row that needs it: a download
        # writes millions of cells, and one look a row costs less than one a cell
        if some_to_guard(apart.join([v for v in row if isinstance(v, str)])):
            row = [guarded(v) if isinstance(v, str) else v for v in row]
        yield writer.writerow(row)


def json_lines(records: Iterable[Mapping[str, object]]) -> Iterator[str]:
    """Each record as one line of compact JSON."""
    for record in records:
        yield json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n"


def file_stem(league: League, event: Event | None = None) -> str:
    """A file name's stem: the league's slug (or name), and the event's date."""
    stem = league.slug or slugify(league.name) or f"league-{league.pk}"
    return f"{stem}-{event.date.isoformat()}" if event is not None else stem


@dataclass(frozen=True)
class GamesFile:
    """One of the files of every game of a league (or event): what it is called
    (after the stem, :func:`file_stem`), its type, and its lines."""

    name: str
    content_type: str
    lines: Callable[[League, Event | None], Iterator[str]]


def _games_csv(league: League, event: Event | None) -> Iterator[str]:
    return csv_lines(HAND_COLUMNS, hand_rows(league=league, event=event))


def _games_jsonl(league: League, event: Event | None) -> Iterator[str]:
    return json_lines(game_records(league=league, event=event))


GAMES_FILES: Final = {
    "games.csv": GamesFile("games.csv", "text/csv", _games_csv),
    "games.jsonl": GamesFile("games.jsonl", "application/jsonl", _games_jsonl),
}
"""The files of every game, by name (as :class:`league.models.Archive` kinds are)."""
