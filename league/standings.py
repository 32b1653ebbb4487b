"""Standings of a league, of a date range in it, or of one event.

Computed by database aggregation over complete games: per player, games,
wins (first place, shared or not), average place, total and average final
points; for Bluke the share of bids made and the average overtricks of the
bids made; for Buck Euchre the hands bucked (+5) as maker and as another
player, and the hands dropped. The hand figures add up what each complete
game's seatings counted of their hand lines (``Seating.hands`` and the rest,
stored with the places), so a line costs a player's games, not their hands.

Order (the tie-breaks): more wins; then the better average place; then the
better average points (higher in Bluke, lower in Buck Euchre, which counts
down); then more games; then the name.

Stored, and kept up to date line by line: a change that makes lines stale
(a game completed, corrected or no longer complete; a draw's sit-outs) owes
them as :class:`~league.models.StandingsOwed` rows in its own transaction
(:func:`league.services.jobs.standings_owe`), and the league's standings job
(:func:`standings_catch_up`) recomputes just those players' lines, in the
event and in the league, then ranks both scopes again in one statement each.
A full rebuild (:func:`standings_refresh`) is owed for repair
(``manage.py standings_rebuild``) and taken when many events are owed at once.

Lock order: the league's standings lock (:func:`standings_lock`) first, held
for the whole job, then the league's standing rows (deleted and written
anew), then the :class:`~league.models.StandingsOwed` rows it read. The lock
is not the league row, which every submission reads; so two standings jobs
of one league run one after the other, and a submission never waits for one.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection
from typing import Any, Final

from django.db import connection, transaction
from django.db.models import Avg, Count, Q, Sum
from django.utils import timezone

from league import outbox
from league.models import (
    SEATING_COUNTS,
    Event,
    Game,
    JobOwed,
    League,
    Player,
    SitOut,
    Standing,
    StandingsOwed,
)
from league.services.webhooks import webhooks_standings_updated


def rank_key(
    *,
    wins: int,
    average_place: float | None,
    points: float,
    games: int,
    name: str,
    player_id: int,
    bluke: bool,
) -> tuple[Any, ...]:
    """The standings' order, as a sort key: more wins, then the better average
    place (none yet, last), then the better points (more in Bluke, fewer in Buck
    Euchre), then more games, then the name and the id.

    >>> sorted(["a", "b"], key=lambda n: rank_key(wins=1, average_place=2.0,
    ...     points={"a": 10, "b": 30}[n], games=3, name=n, player_id=0, bluke=True))
    ['b', 'a']
    """
    return (
        -wins,
        average_place is None,
        average_place or 0.0,
        (-1 if bluke else 1) * points,
        -games,
        name,
        player_id,
    )


def standing_rows(
    *,
    league: League,
    event: Event | None = None,
    date_after: datetime.date | None = None,
    date_before: datetime.date | None = None,
    players: Collection[int] | None = None,
) -> list[dict[str, Any]]:
    """The standings rows, best first, each with its ``rank``; only the rows
    of ``players`` (ids) when given, ranked among themselves."""

    def scope(path: str) -> Q:
        """The scope's filter on the rounds found at ``path``."""
        where = Q(**{f"{path}event__league": league})
        if event is not None:
            where &= Q(**{f"{path}event": event})
        if date_after is not None:
            where &= Q(**{f"{path}event__date__gte": date_after})
        if date_before is not None:
            where &= Q(**{f"{path}event__date__lte": date_before})
        return where

    # a seating's place is set exactly while its game is complete: no join to the tables
    games = scope("seatings__round__") & Q(seatings__place__isnull=False)
    if players is not None:
        games &= Q(pk__in=players)

    def summed(count: str) -> Sum:
        return Sum(f"seatings__{count}", filter=games)

    # each row a plain dict, to be completed below with more keys than the query's;
    # the hand lines' figures add up each game's counts (Seating.hands and the rest)
    rows: dict[int, dict[str, Any]] = {
        row["pk"]: dict(row)
        for row in Player.objects.filter(games)
        .annotate(
            games=Count("seatings", filter=games),
            wins=Count("seatings", filter=games & Q(seatings__place=1)),
            average_place=Avg("seatings__place", filter=games),
            total_points=Sum("seatings__total", filter=games),
            **{count: summed(count) for count in SEATING_COUNTS},
        )
        .values("pk", "name", "games", "wins", "average_place", "total_points", *SEATING_COUNTS)
    }
    bluke = league.game == Game.BLUKE
    for row in rows.values():
        made, overtricks = row.pop("bids_made"), row.pop("overtricks")
        if bluke:
            row["bids_made_share"] = made / row["hands"] if row["hands"] else None
            row["average_overtricks"] = overtricks / made if made else None
            row["bucked_as_maker"] = row["bucked_as_player"] = row["drops"] = None
        else:  # Buck Euchre has no bids to make
            row["bids_made_share"] = row["average_overtricks"] = None
    sat_out = dict(
        SitOut.objects.filter(scope("round__"), player_id__in=rows)
        .values("player_id")
        .annotate(rounds=Count("id"))
        .values_list("player_id", "rounds")
    )
    for row in rows.values():
        row["sat_out"] = sat_out.get(row["pk"], 0)
        row["player_id"] = row.pop("pk")
        row["average_points"] = row["total_points"] / row["games"]

    ranked = sorted(
        rows.values(),
        key=lambda row: rank_key(
            wins=row["wins"],
            average_place=row["average_place"],
            points=row["average_points"],
            games=row["games"],
            name=row["name"],
            player_id=row["player_id"],
            bluke=bluke,
        ),
    )
    for rank, row in enumerate(ranked, start=1):
        row["rank"] = rank
    return ranked


STANDINGS_LOCKS: Final = outbox.JOB_LOCKS[JobOwed.Kind.STANDINGS]
"""The first key of the standings' advisory locks, the league's id the second."""


def standings_lock(*, league_id: int) -> None:
    """Take the league's standings lock until the current transaction ends:
    a PostgreSQL advisory lock keyed on the league (its id modulo 2**31, the
    lock's second key: leagues that share one only wait for each other), the
    standings job's (:func:`league.outbox.job_lock`). On SQLite, which lets
    one transaction write at a time, there is none to take.
    """
    outbox.job_lock(JobOwed.Kind.STANDINGS, league_id)


@transaction.atomic
def standings_refresh(*, league: League) -> int:
    """Recompute and store the standings of a league and of each of its
    events. Idempotent: the rows are replaced by what the games say now, under
    the league's standings lock (:func:`standings_lock`), so two runs at once
    both succeed, one after the other. Returns the number of players in the
    league's standings."""
    standings_lock(league_id=league.pk)
    now = timezone.now()
    stored: list[Standing] = []
    league_rows = standing_rows(league=league)
    stored += _standings(league, None, league_rows, now)
    for event in Event.objects.filter(league=league, rounds__tables__complete=True).distinct():
        stored += _standings(league, event, standing_rows(league=league, event=event), now)
    Standing.objects.filter(league=league).delete()
    Standing.objects.bulk_create(stored)
    return len(league_rows)


CATCH_UP_EVENTS: Final = 10
"""Past this many events owed at once (an import, say), the standings job
rebuilds the whole league instead: a handful of queries in all, where
catching up costs a few per event."""


@transaction.atomic
def standings_catch_up(*, league: League) -> int:
    """Recompute the standings the league owes (:class:`StandingsOwed`): for
    each player owed in an event, their line in that event and in the league;
    then rank both anew. A full rebuild (:func:`standings_refresh`) when one is
    owed, or when more than :data:`CATCH_UP_EVENTS` events are. Returns the
    number of lines owed that it recomputed (0 when nothing was owed).

    The cost follows the players owed, not the league's size: a completed game
    costs 14 statements whatever the league holds (the lines of its four
    players, each an aggregate of that player's own seatings, and one ranking
    statement per scope).

    Idempotent and safe to run twice at once: it takes the league's standings
    lock (:func:`standings_lock`) first, recomputes from the games, not from
    deltas, and deletes only the rows it read, so a line owed again while it
    ran stays owed for the next run."""
    standings_lock(league_id=league.pk)
    owed = list(
        StandingsOwed.objects.filter(league=league).values_list("pk", "event_id", "player_id")
    )
    if not owed:
        return 0
    players_by_event: dict[int, set[int]] = {}
    for _, event_id, player_id in owed:
        if event_id is not None:
            players_by_event.setdefault(event_id, set()).add(player_id)
    rebuild = any(event_id is None for _, event_id, _ in owed)  # the whole league owed
    changed: set[int] | None = None  # every line
    if rebuild or len(players_by_event) > CATCH_UP_EVENTS:
        standings_refresh(league=league)
        players_by_event = {}  # every event's, not only those owed
    else:
        changed = _catch_up(league, players_by_event)
    StandingsOwed.objects.filter(pk__in=[pk for pk, _, _ in owed]).delete()
    # the club's webhooks hear of it (a query when it has none), sent after the commit
    webhooks_standings_updated(league=league, event_ids=players_by_event, player_ids=changed)
    return len(owed)


def _catch_up(league: League, players_by_event: dict[int, set[int]]) -> set[int]:
    """Recompute the owed players' lines; returns those players."""
    now = timezone.now()
    everyone: set[int] = set()
    for event_id, players in players_by_event.items():
        event = Event(pk=event_id, league=league)
        rows = standing_rows(league=league, event=event, players=players)
        Standing.objects.filter(event_id=event_id, player_id__in=players).delete()
        Standing.objects.bulk_create(_standings(league, event, rows, now))
        _rank(league=league, event_id=event_id, now=now)
        everyone |= players
    rows = standing_rows(league=league, players=everyone)
    Standing.objects.filter(league=league, event=None, player_id__in=everyone).delete()
    Standing.objects.bulk_create(_standings(league, None, rows, now))
    _rank(league=league, event_id=None, now=now)
    return everyone


def _rank(*, league: League, event_id: int | None, now: datetime.datetime) -> None:
    """Number the stored lines of the league (``event_id`` None) or of one of
    its events in the order of :func:`rank_key`, in one statement. Only the
    lines whose rank changes are written, and marked computed ``now``.

    The names compare by code point, as Python's sort in :func:`standing_rows`
    does (PostgreSQL's "C" collation; SQLite's default)."""
    bluke = league.game == Game.BLUKE
    collate = ' COLLATE "C"' if connection.vendor == "postgresql" else ""
    scope = "s.league_id = %s AND s.event_id IS NULL" if event_id is None else "s.event_id = %s"
    table = Standing._meta.db_table
    sql = f"""
        UPDATE {table} SET rank = ranked.place, computed_at = %s
        FROM (
            SELECT s.id, ROW_NUMBER() OVER (ORDER BY
                s.wins DESC, s.average_place ASC, s.average_points {"DESC" if bluke else "ASC"},
                s.games DESC, p.name{collate} ASC, s.player_id ASC) AS place
            FROM {table} s JOIN {Player._meta.db_table} p ON p.id = s.player_id
            WHERE {scope}
        ) ranked
        WHERE {table}.id = ranked.id AND {table}.rank <> ranked.place
    """  # the text holds no input: table names and fixed words only
    with connection.cursor() as cursor:
        cursor.execute(sql, [now, league.pk if event_id is None else event_id])


STORED_FIELDS = (
    "games",
    "wins",
    "average_place",
    "total_points",
    "average_points",
    "hands",
    "bids_made_share",
    "average_overtricks",
    "bucked_as_maker",
    "bucked_as_player",
    "drops",
    "sat_out",
    "rank",
)


def _standings(
    league: League, event: Event | None, rows: list[dict[str, Any]], now: datetime.datetime
) -> list[Standing]:
    return [
        Standing(
            league=league,
            event=event,
            player_id=row["player_id"],
            computed_at=now,
            **{field: row[field] for field in STORED_FIELDS},
        )
        for row in rows
    ]
