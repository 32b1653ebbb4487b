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

from django.db import transaction
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
    Table,
)

MODEL: Final = BradleyTerryFull()
"""The rating model; docs/ratings.md says why this one."""

PROVISIONAL_BELOW: Final = 10
"""A rating from fewer games than this is marked provisional."""


def order_key(table: Table) -> str:
    """A sortable key for when a table's game was played."""
    event = table.round.event
    return f"{event.date.isoformat()}/{table.round.number:04d}/{table.number:04d}/{table.pk:012d}"


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
        RatingHistory.objects.filter(scope=scope, order_key__gte=start).values_list(
            "player_id", flat=True
        )
    )
    RatingHistory.objects.filter(scope=scope, order_key__gte=start).delete()
    tables = [
        table
        for table in _complete_tables(scope)
        .filter(round__event__date__gte=start[:10])
        .select_related("round__event")
        .prefetch_related("seatings")
        .order_by("round__event__date", "round__number", "number", "pk")
        if order_key(table) >= start
    ]
    playing = {s.player_id for table in tables for s in table.seatings.all()}
    state = _state_before(scope, start, touched=touched, playing=playing)
    history: list[RatingHistory] = []
    rated = 0
    for table in tables:
        key = order_key(table)
        seatings = sorted(table.seatings.all(), key=lambda s: s.seat)
        current = [state.get(s.player_id) or _fresh(s.player_id) for s in seatings]
        teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma, _ in current]
        updated = MODEL.rate(teams, ranks=[s.place for s in seatings])
        for seating, (rating,), (_, _, games) in zip(seatings, updated, current, strict=True):
            state[seating.player_id] = (rating.mu, rating.sigma, games + 1)
            history.append(
                RatingHistory(
                    scope=scope,
                    player_id=seating.player_id,
                    table=table,
                    order_key=key,
                    mu=rating.mu,
                    sigma=rating.sigma,
                    ordinal=rating.ordinal(),
                    games=games + 1,
                )
            )
        rated += 1
    RatingHistory.objects.bulk_create(history)
    _store(scope, state, touched | {h.player_id for h in history})
    scope.rerate_from = None
    scope.rated_at = timezone.now()
    scope.save(update_fields=["rerate_from", "rated_at"])
    return rated


def _fresh(player_id: int) -> tuple[float, float, int]:
    return (MODEL.mu, MODEL.sigma, 0)


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
    """Write the current ratings of ``players`` (deleting those with none)."""
    players = set(players)
    existing = {r.player_id: r for r in Rating.objects.filter(scope=scope, player_id__in=players)}
    changed, new = [], []
    for player in players:
        if player not in state:
            continue
        mu, sigma, games = state[player]
        row = existing.pop(player, None) or Rating(scope=scope, player_id=player)
        row.mu, row.sigma, row.ordinal, row.games = mu, sigma, mu - 3 * sigma, games
        (changed if row.pk else new).append(row)
    Rating.objects.bulk_update(changed, ["mu", "sigma", "ordinal", "games"])
    Rating.objects.bulk_create(new)
    Rating.objects.filter(pk__in=[r.pk for r in existing.values()]).delete()


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
