"""Multiplayer ratings with openskill: one rating per player per league, and
one club-wide per game across the club's leagues.

Every complete game is one free-for-all match ranked by its final places,
ties sharing a place. Games are rated in the order they were played (event
date, round, table). A change of results marks each affected scope from the
changed game on (:func:`ratings_mark_changed`); the ratings job
(:func:`ratings_refresh`) re-rates from there forward, so a late submission
or a correction of an earlier game gives the ratings a from-scratch run
would give, and one new game at the end touches only its own players' rows.

Lock order: the scope row (``select_for_update``) is taken first and held
for the whole job, so one job per scope runs at a time.
"""

from __future__ import annotations

import gc
import struct
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, Final

from django.db import connection, transaction
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from openskill.models import BradleyTerryFull

from league.models import (
    League,
    Player,
    Rating,
    RatingHistory,
    RatingScope,
    Seating,
    Table,
)

MODEL: Final = BradleyTerryFull()
"""The rating model; docs/ratings.md says why this one."""

PROVISIONAL_BELOW: Final = 10
"""A rating from fewer games than this is marked provisional."""

PLAYED_ORDER: Final = (
    "table__round__event__date",
    "table__round__number",
    "table__number",
    "table_id",
)
"""The order games were played in, as seatings' fields: the order a scope is rated in."""


def is_provisional(rating: Rating) -> bool:
    """Whether a rating rests on too few games to be more than provisional."""
    return rating.games < PROVISIONAL_BELOW


def is_pending(scope: RatingScope) -> bool:
    """Whether results of the scope are still waiting to be (re-)rated."""
    return bool(scope.rerate_from)  # the earliest game to re-rate from, if any


def order_key(table: Table) -> str:
    """A sortable key for when a table's game was played."""
    return _key(table.round.event.date.isoformat(), table.round.number, table.number, table.pk)


def _key(day: str, round_number: int, number: int, table_id: int) -> str:
    # fixed width (the widest small integer, the widest big one), so keys sort as their parts
    return f"{day}/{round_number:05d}/{number:05d}/{table_id:019d}"


KEY_LENGTH: Final = len(_key("2026-01-01", 1, 1, 1))


def scopes_of(league: League) -> list[RatingScope]:
    """The league's own scope and its club-wide scope for the game."""
    league_scope, _ = RatingScope.objects.get_or_create(
        league=league, defaults={"club_id": league.club_id, "game": league.game}
    )
    club_scope, _ = RatingScope.objects.get_or_create(
        club_id=league.club_id, game=league.game, league=None
    )
    return [league_scope, club_scope]


def ratings_mark_changed(*, table: Table) -> list[RatingScope]:
    """Mark the table's scopes to be re-rated from its game on.

    Call inside the transaction that changed the results; returns the scopes
    whose job should run after commit."""
    key = order_key(table)
    scopes = scopes_of(table.round.event.league)
    for scope in RatingScope.objects.select_for_update().filter(pk__in=[s.pk for s in scopes]):
        if scope.rerate_from is None or key < scope.rerate_from:
            scope.rerate_from = key
            scope.save(update_fields=["rerate_from"])
    return scopes


def _scope_games(scope: RatingScope, since: str) -> Q:
    """Seatings of the scope's complete games on or after the date ``since``."""
    games = Q(
        table__complete=True,
        table__round__event__league__club_id=scope.club_id,
        table__round__event__date__gte=since,
    )
    if scope.league_id is not None:
        return games & Q(table__round__event__league_id=scope.league_id)
    return games & Q(table__game=scope.game)


@transaction.atomic
def ratings_refresh(*, scope_id: int) -> int:
    """Re-rate a scope from its ``rerate_from`` game forward; idempotent.

    Returns the number of games rated (0 when the scope was up to date).

    Reads every game to re-rate first, then rates them in order while the
    new history streams to the database (on PostgreSQL, the database stores
    each batch while the next is rated); ``make bench-ratings`` measures it
    against openskill's bare loop."""
    scope = RatingScope.objects.select_for_update().get(pk=scope_id)
    start = scope.rerate_from
    if start is None:
        return 0
    # a player's history reaches ``start`` exactly when their latest game does
    touched = set(
        Rating.objects.filter(scope=scope, last_order_key__gte=start).values_list(
            "player_id", flat=True
        )
    )
    with _collector_paused():
        games = _games_replacing_history(scope, start)
    playing = {player for _, _, players, _ in games for player in players}
    before = _state_before(scope, start, touched=touched, playing=playing)
    current = {
        player: MODEL.create_rating([mu, sigma]) for player, (mu, sigma, _, _) in before.items()
    }
    played = {player: n for player, (_, _, n, _) in before.items()}
    latest = {player: key for player, (_, _, _, key) in before.items()}
    rate, fresh = MODEL.rate, MODEL.rating
    with _HistoryWriter(scope.pk) as history, _collector_skipping_what_exists():
        rows: list[HistoryRow] = []
        for table_id, key, players, places in games:
            updated = rate([[current.get(p) or fresh()] for p in players], ranks=places)
            for player, (rating,) in zip(players, updated, strict=True):
                current[player] = rating
                played[player] = n = played.get(player, 0) + 1
                latest[player] = key
                rows.append((player, table_id, key, rating.mu, rating.sigma, n))
            if len(rows) >= history.BATCH:
                history.write(rows)
                rows = []
        history.write(rows)
    _store(
        scope,
        {p: (r.mu, r.sigma, played[p], latest[p]) for p, r in current.items()},
        touched | playing,
    )
    scope.rerate_from = None
    scope.rated_at = timezone.now()
    scope.save(update_fields=["rerate_from", "rated_at"])
    return len(games)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No garbage collection while the games are read: reading makes a list
    or two per game and a tuple per seat, none of them in a cycle, and the
    collections their numbers set off cost a third of the reading."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def _collector_skipping_what_exists() -> Iterator[None]:
    """Keep the garbage collector off the objects that exist now (the games
    just read, hundreds of thousands of them, live through the whole loop):
    its full collections would scan them again and again, which cost a
    re-rating of 100,000 games more than half a second."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


RatedGame = tuple[int, str, list[int], list[float]]
"""A game to rate: table id, order key, player ids by seat, their places
(whole numbers, typed as the ``ranks`` openskill's ``rate`` takes)."""


def _games_replacing_history(scope: RatingScope, start: str) -> list[RatedGame]:
    """Delete the scope's rating history from ``start`` on, and return its
    complete games from ``start`` on, in the order played.

    One query of plain tuples on a raw cursor: a re-rating may read a
    hundred thousand games, and model rows would cost more than the rating."""
    seatings = (
        Seating.objects.filter(_scope_games(scope, start[:10]))
        .order_by(*PLAYED_ORDER, "seat")
        .values_list(
            "table_id",
            "table__round__event__date",
            "table__round__number",
            "table__number",
            "player_id",
            "place",
        )
    )
    RatingHistory.objects.filter(scope=scope, order_key__gte=start).delete()
    sql, params = seatings.query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # sort the whole scope in memory (the default spills to disk)
            cursor.execute("SET LOCAL work_mem = '64MB'")
        cursor.execute(sql, params)
        return _games_of(cursor, start)


def _games_of(cursor: Any, start: str) -> list[RatedGame]:
    """Group the seatings :func:`_games_replacing_history` selected into games."""
    games: list[RatedGame] = []
    current = None
    players: list[int] = []
    places: list[float] = []
    while rows := cursor.fetchmany(20_000):
        for table_id, date, round_number, number, player, place in rows:
            if table_id != current:
                current = table_id
                # SQLite hands dates back as text
                day = date if isinstance(date, str) else date.isoformat()
                key = _key(day, round_number, number, table_id)
                players, places = [], []
                if key >= start:  # not an earlier round or table of the same date
                    games.append((table_id, key, players, places))
            players.append(player)
            places.append(place)
    return games


HistoryRow = tuple[int, int, str, float, float, int]
"""A rating history row of a scope: player id, table id, order key, mu, sigma, games."""


class _HistoryWriter:
    """Inserts rating history rows for one scope in batches.

    On PostgreSQL the rows stream through one binary ``COPY``, packed here
    with :mod:`struct` (psycopg's per-value ``write_row`` costs a third of
    the rating itself): the database stores each batch on its own core
    while the caller rates the next. Elsewhere, batched inserts."""

    BATCH: Final = 4_000
    SIGNATURE: Final = b"PGCOPY\n\xff\r\n\0" + bytes(8)
    """Binary COPY's header: the signature, no flags, no extension."""
    TRAILER: Final = b"\xff\xff"
    PACK: Final = struct.Struct(f"!hiqiqiqi{KEY_LENGTH}sididii").pack
    """One row: its 7 fields, each its length then its value (three bigint
    ids, the order key, two float8, an int4)."""

    def __init__(self, scope_id: int) -> None:
        self.scope_id = scope_id
        self.stack = ExitStack()
        self.copy: Any = None

    def __enter__(self) -> _HistoryWriter:
        if connection.vendor == "postgresql":
            cursor = self.stack.enter_context(connection.cursor())
            table = RatingHistory._meta.db_table
            columns = "scope_id, player_id, table_id, order_key, mu, sigma, games"
            self.copy = self.stack.enter_context(
                cursor.copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)")
            )
            self.copy.write(self.SIGNATURE)
        return self

    def write(self, rows: list[HistoryRow]) -> None:
        if self.copy is None:
            RatingHistory.objects.bulk_create(
                RatingHistory(
                    scope_id=self.scope_id,
                    player_id=player,
                    table_id=table,
                    order_key=key,
                    mu=mu,
                    sigma=sigma,
                    games=n,
                )
                for player, table, key, mu, sigma, n in rows
            )
            return
        scope, pack, size = self.scope_id, self.PACK, KEY_LENGTH
        packed = bytearray()
        for player, table, key, mu, sigma, n in rows:
            packed += pack(
                7, 8, scope, 8, player, 8, table, size, key.encode(), 8, mu, 8, sigma, 4, n
            )  # fmt: skip
        self.copy.write(packed)

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        with self.stack:
            if kind is None and self.copy is not None:
                self.copy.write(self.TRAILER)


def _state_before(
    scope: RatingScope, start: str, *, touched: set[int], playing: set[int]
) -> dict[int, tuple[float, float, int, str]]:
    """(mu, sigma, games, latest order key) before the game at ``start`` for
    the players whose ratings the re-rating reads or rewrites: the stored
    rating of those the re-rated games did not touch before, the last history
    row before ``start`` of those they did (one query each)."""
    state = {
        r.player_id: (r.mu, r.sigma, r.games, r.last_order_key)
        for r in Rating.objects.filter(scope=scope, player_id__in=playing - touched)
    }
    if touched:
        latest = (
            RatingHistory.objects.filter(scope=scope, player_id__in=touched, order_key__lt=start)
            .annotate(
                newest=Window(
                    RowNumber(), partition_by=[F("player_id")], order_by=F("order_key").desc()
                )
            )
            .filter(newest=1)
        )
        for row in latest:
            state[row.player_id] = (row.mu, row.sigma, row.games, row.order_key)
    return state


def _store(
    scope: RatingScope, state: dict[int, tuple[float, float, int, str]], players: Iterable[int]
) -> None:
    """Write the current ratings of ``players`` in one upsert, and delete
    those left with no game."""
    players = set(players)
    rows = [
        Rating(
            scope=scope,
            player_id=player,
            mu=mu,
            sigma=sigma,
            ordinal=mu - 3 * sigma,
            games=n,
            last_order_key=key,
        )
        for player, (mu, sigma, n, key) in state.items()
        if player in players
    ]
    Rating.objects.bulk_create(
        rows,
        batch_size=5_000,
        update_conflicts=True,
        unique_fields=["scope", "player"],
        update_fields=["mu", "sigma", "ordinal", "games", "last_order_key"],
    )
    gone = players - {row.player_id for row in rows}
    if gone:
        Rating.objects.filter(scope=scope, player_id__in=gone).delete()


def leaderboard(*, scope: RatingScope) -> list[Rating]:
    """Best first: by ordinal (mu - 3 sigma), then mu, then name."""
    return list(
        Rating.objects.filter(scope=scope)
        .select_related("player")
        .order_by("-ordinal", "-mu", "player__name")
    )


def history_of(*, scope: RatingScope, player: Player) -> list[RatingHistory]:
    return list(
        RatingHistory.objects.filter(scope=scope, player=player)
        .select_related("table__round__event")
        .order_by("order_key")
    )


@transaction.atomic
def ratings_rebuild(*, scope: RatingScope) -> int:
    """Re-rate a scope from its first game (after a change of model, say)."""
    RatingScope.objects.filter(pk=scope.pk).update(rerate_from=EARLIEST)
    return ratings_refresh(scope_id=scope.pk)


EARLIEST: Final = "0001-01-01"
"""An order key before every game."""
