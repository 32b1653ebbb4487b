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

from collections.abc import Iterable
from typing import Any, Final

from django.db import connection, transaction
from django.db.models import F, Window
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


def order_key(table: Table) -> str:
    """A sortable key for when a table's game was played."""
    return _key(table.round.event.date, table.round.number, table.number, table.pk)


def _key(date: Any, round_number: int, number: int, table_id: int) -> str:
    return f"{date.isoformat()}/{round_number:04d}/{number:04d}/{table_id:012d}"


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


def _complete_tables(scope: RatingScope) -> Any:
    tables = Table.objects.filter(complete=True, round__event__league__club_id=scope.club_id)
    if scope.league_id is not None:
        return tables.filter(round__event__league_id=scope.league_id)
    return tables.filter(game=scope.game)


@transaction.atomic
def ratings_refresh(*, scope_id: int) -> int:
    """Re-rate a scope from its ``rerate_from`` game forward; idempotent.

    Returns the number of games rated (0 when the scope was up to date)."""
    scope = RatingScope.objects.select_for_update().get(pk=scope_id)
    start = scope.rerate_from
    if start is None:
        return 0
    touched = set(
        RatingHistory.objects.filter(scope=scope, order_key__gte=start)
        .values_list("player_id", flat=True)
        .distinct()
    )
    RatingHistory.objects.filter(scope=scope, order_key__gte=start).delete()
    games = _games_from(scope, start)
    playing = {player for _, _, seats in games for player, _ in seats}
    state = _state_before(scope, start, touched=touched, playing=playing)
    ratings_now = {
        player: MODEL.create_rating([mu, sigma]) for player, (mu, sigma, _) in state.items()
    }
    played = {player: count for player, (_, _, count) in state.items()}
    history: list[tuple[Any, ...]] = []
    for table_id, key, seats in games:
        teams = [[ratings_now.get(player) or MODEL.rating()] for player, _ in seats]
        updated = MODEL.rate(teams, ranks=[place for _, place in seats])
        for (player, _), (rating,) in zip(seats, updated, strict=True):
            ratings_now[player] = rating
            played[player] = played.get(player, 0) + 1
            history.append(
                (scope.pk, player, table_id, key, rating.mu, rating.sigma,
                 rating.mu - 3 * rating.sigma, played[player])
            )  # fmt: skip
    _write_history(history)
    state = {p: (r.mu, r.sigma, played[p]) for p, r in ratings_now.items()}
    _store(scope, state, touched | playing)
    scope.rerate_from = None
    scope.rated_at = timezone.now()
    scope.save(update_fields=["rerate_from", "rated_at"])
    return len(games)


def _games_from(scope: RatingScope, start: str) -> list[tuple[int, str, list[tuple[int, int]]]]:
    """The scope's complete games from ``start`` on, in the order played:
    (table id, order key, [(player id, place) by seat]), from one query of
    plain tuples (a re-rating may read a hundred thousand games)."""
    tables = _complete_tables(scope).filter(round__event__date__gte=start[:10])
    rows = (
        Seating.objects.filter(table__in=tables)
        .order_by(
            "table__round__event__date", "table__round__number", "table__number", "table_id", "seat"
        )
        .values_list(
            "table_id",
            "table__round__event__date",
            "table__round__number",
            "table__number",
            "player_id",
            "place",
        )
    )
    games: list[tuple[int, str, list[tuple[int, int]]]] = []
    current, seats = None, None
    for table_id, date, round_number, number, player, place in rows.iterator(chunk_size=20_000):
        if table_id != current:
            current = table_id
            key = _key(date, round_number, number, table_id)
            seats = [] if key >= start else None  # same date, earlier round or table
            if seats is not None:
                games.append((table_id, key, seats))
        if seats is not None:
            seats.append((player, place))
    return games


HISTORY_COLUMNS: Final = (
    "scope_id",
    "player_id",
    "table_id",
    "order_key",
    "mu",
    "sigma",
    "ordinal",
    "games",
)


def _write_history(rows: list[tuple[Any, ...]]) -> None:
    """Insert history rows: PostgreSQL's COPY when available (a full
    re-rating writes one row per player per game), else batched inserts."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        table = RatingHistory._meta.db_table
        with (
            connection.cursor() as cursor,
            cursor.copy(f"COPY {table} ({', '.join(HISTORY_COLUMNS)}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
        return
    RatingHistory.objects.bulk_create(
        (RatingHistory(**dict(zip(HISTORY_COLUMNS, row, strict=True))) for row in rows),
        batch_size=2_000,
    )


def _state_before(
    scope: RatingScope, start: str, *, touched: set[int], playing: set[int]
) -> dict[int, tuple[float, float, int]]:
    """(mu, sigma, games) before the game at ``start`` for the players whose
    ratings the re-rating reads or rewrites: the stored rating of those the
    re-rated games did not touch before, the last history row before
    ``start`` of those they did (one query each)."""
    state = {
        r.player_id: (r.mu, r.sigma, r.games)
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
            state[row.player_id] = (row.mu, row.sigma, row.games)
    return state


def _store(
    scope: RatingScope, state: dict[int, tuple[float, float, int]], players: Iterable[int]
) -> None:
    """Write the current ratings of ``players`` in one upsert, and delete
    those left with no game."""
    players = set(players)
    rows = [
        Rating(scope=scope, player_id=player, mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=n)
        for player, (mu, sigma, n) in state.items()
        if player in players
    ]
    Rating.objects.bulk_create(
        rows,
        batch_size=5_000,
        update_conflicts=True,
        unique_fields=["scope", "player"],
        update_fields=["mu", "sigma", "ordinal", "games"],
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
