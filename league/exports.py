"""What a league's records look like outside the service: rows for CSV files and
game records for JSON Lines, read in constant memory.

Reads only (like :mod:`league.selectors`); the views in :mod:`league.web.exports`
stream them. Every reader is a generator over a server-side cursor
(``QuerySet.iterator``), so a league of 100,000 games exports without holding it:
rows leave as they are read.

- :func:`standings_rows`, :func:`rating_rows`: one row a player.
- :func:`hand_rows`: one row per hand and seat of every game of a league or event,
  in the order played (date, round, table, hand, seat).
- :func:`game_records`: one engine game record per table with hands (the format
  ``python -m games check`` reads, see docs/records.md), in the same order, each
  hand exactly as the club sent it (a move log where the club recorded the cards).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

from django.db.models import QuerySet

from league import ratings, standings
from league.models import Event, Game, HandSeat, League, RatingScope, Standing, Table

FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r", "'")
"""The first characters of a text cell that a CSV download guards with a leading
apostrophe: what a spreadsheet would run as a formula, and an apostrophe itself (so
that a guarded cell and a name that really begins with one stay apart). The import
(:mod:`league.services.imports`) takes the guard off again."""
CELL_BREAKS: Final = (";", "\t", "|", "\r", "\n")
"""Characters inside a text cell after which a spreadsheet may start a cell of its
own: one that splits lines on a semicolon (the usual choice where the comma is the
decimal mark), a tab or a bar reads a quote only at the start of a cell, so a cell
quoted in the middle of a line does not hold its semicolon in; a line break in a
cell ends the line for one that ignores quotes. What follows each is guarded as the
cell's start is."""

_STARTS = "".join(re.escape(c) for c in FORMULA_STARTS)
_BREAKS = "".join(re.escape(c) for c in CELL_BREAKS)
_TO_GUARD = re.compile(f"(^|[{_BREAKS}])(?=[{_STARTS}])")
_GUARDED = re.compile(f"(^|[{_BREAKS}])'(?=[{_STARTS}])")


def cell_guarded(text: str) -> str:
    """``text`` with an apostrophe before each place a spreadsheet could start a
    formula: its start, and just after each of :data:`CELL_BREAKS`, when what follows
    is one of :data:`FORMULA_STARTS`. :func:`cell_unguarded` undoes it exactly.

    >>> cell_guarded("=1+1"), cell_guarded("Ann;=1+1 night"), cell_guarded("'Tis")
    ("'=1+1", "Ann;'=1+1 night", "''Tis")
    >>> cell_guarded("Ann"), cell_guarded("O'Brien; Ann-Marie")
    ('Ann', "O'Brien; Ann-Marie")
    """
    return _TO_GUARD.sub(r"\1'", text)


def cell_unguarded(text: str) -> str:
    """A cell as it was before :func:`cell_guarded`.

    >>> cell_unguarded("'=1+1"), cell_unguarded("Ann;'=1+1 night"), cell_unguarded("''Tis")
    ('=1+1', 'Ann;=1+1 night', "'Tis")
    >>> cell_unguarded("'Tis")  # an apostrophe the guard did not put there stays
    "'Tis"
    """
    return _GUARDED.sub(r"\1", text)


CHUNK: Final = 2_000
"""Rows fetched per round trip of the server-side cursor."""

STANDING_FIGURES: Final = tuple(f for f in standings.STORED_FIELDS if f != "rank")
STANDINGS_COLUMNS: Final = ("rank", "player", *STANDING_FIGURES)
RATINGS_COLUMNS: Final = (
    "rank",
    "player",
    "rating",
    "mu",
    "sigma",
    "games",
    "provisional",
)
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
    "seat",
    "player",
    "bid",
    "dropped",
    "tricks",
    "points",
    "total",
)
"""One row per hand and seat, enough to enter every hand again as a results record
(the import reads this file). ``hand`` counts from 1, as the score sheet does;
``dealer``, ``maker`` and ``seat`` from 0, as the records do; ``trump`` is a suit
letter, empty for no trump; ``maker`` (the seat that made trump) and ``dropped``
(1 or 0) are Buck Euchre's, ``bid`` Bluke's, empty in the other game. Players go by
name (unique in a club), so the file reads the same in another club."""


def standings_rows(*, league: League, event: Event | None = None) -> Iterator[tuple[Any, ...]]:
    """The stored standings of a league (or one event), best first, in
    :data:`STANDINGS_COLUMNS` order."""
    rows = (
        Standing.objects.filter(league=league, event=event)
        .select_related("player")
        .order_by("rank", "player__name")
    )
    for row in rows.iterator(chunk_size=CHUNK):
        yield (
            row.rank,
            row.player.name,
            *(getattr(row, field) for field in STANDING_FIGURES),
        )


def rating_rows(*, scope: RatingScope | None) -> Iterator[tuple[Any, ...]]:
    """The rating leaderboard of a scope, best first, as the pages show it (each
    rating as of the scope's latest game), in :data:`RATINGS_COLUMNS` order.
    ``rating`` is the ordinal, mu - 3 sigma. One row a player: a club's players
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


def _tables_of(*, league: League, event: Event | None) -> QuerySet[Table]:
    tables = Table.objects.filter(round__event__league=league)
    return tables.filter(round__event=event) if event is not None else tables


PLAYED: Final = ("round__event__date", "round__event_id", "round__number", "number", "id")
"""The order of a league's tables as played (and as :mod:`league.ratings` rates them)."""


def hand_rows(*, league: League, event: Event | None = None) -> Iterator[tuple[Any, ...]]:
    """Every hand and seat of the league's (or event's) games, in the order
    played, in :data:`HAND_COLUMNS` order."""
    seats = HandSeat.objects.filter(hand__table__in=_tables_of(league=league, event=event))
    table = "hand__table__"
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
    for row in rows.iterator(chunk_size=CHUNK):
        name, date, round_number, number, hand, dealer, cards, trump, maker, *seat = row
        seat_number, player, bid, dropped, tricks, points, total, game = seat
        buck = game == Game.BUCK_EUCHRE
        yield (
            name,
            date.isoformat(),
            round_number,
            number,
            hand + 1,
            dealer,
            cards,
            trump,
            maker if buck else "",
            seat_number,
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
        _tables_of(league=league, event=event)
        .filter(hands__isnull=False)
        .order_by(*PLAYED, "hands__number")
        .values_list("id", "game", "players", "first_dealer", "hands__record")
    )
    current: int | None = None
    record: dict[str, Any] = {}
    for table_id, game, players, first_dealer, hand in hands.iterator(chunk_size=CHUNK):
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
