"""Standings of a league, of a date range in it, or of one event.

Computed by database aggregation over complete games: per player, games,
wins (first place, shared or not), average place, total and average final
points; for Bluke the share of bids made and the average overtricks of the
bids made; for Buck Euchre the hands bucked (+5) as maker and as another
player, and the hands dropped.

Order (the tie-breaks): more wins; then the better average place; then the
better average points (higher in Bluke, lower in Buck Euchre, which counts
down); then more games; then the name.

Lock order: the league's standings lock (:func:`standings_lock`) first, held
for the whole job, then the league's standing rows (deleted and written
anew). The lock is not the league row, which every submission reads; so two
standings jobs of one league run one after the other, and a submission never
waits for one.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Avg, Count, F, Q, Sum
from django.utils import timezone

from league.models import Event, Game, HandSeat, League, Player, SitOut, Standing


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
) -> list[dict[str, Any]]:
    """The standings rows, best first, each with its ``rank``."""
    games = Q(seatings__table__complete=True, seatings__table__round__event__league=league)
    hands = Q(hand__table__complete=True, hand__table__round__event__league=league)
    if event is not None:
        games &= Q(seatings__table__round__event=event)
        hands &= Q(hand__table__round__event=event)
    if date_after is not None:
        games &= Q(seatings__table__round__event__date__gte=date_after)
        hands &= Q(hand__table__round__event__date__gte=date_after)
    if date_before is not None:
        games &= Q(seatings__table__round__event__date__lte=date_before)
        hands &= Q(hand__table__round__event__date__lte=date_before)

    # each row a plain dict, to be completed below with more keys than the query's
    rows: dict[int, dict[str, Any]] = {
        row["pk"]: dict(row)
        for row in Player.objects.filter(games)
        .annotate(
            games=Count("seatings", filter=games),
            wins=Count("seatings", filter=games & Q(seatings__place=1)),
            average_place=Avg("seatings__place", filter=games),
            total_points=Sum("seatings__total", filter=games),
        )
        .values("pk", "name", "games", "wins", "average_place", "total_points")
    }
    made = Q(tricks__gte=F("bid"))
    as_maker = Q(hand__maker=F("seat"))
    lines = (
        HandSeat.objects.filter(hands)
        .values("player_id")
        .annotate(
            hands=Count("id"),
            made=Count("id", filter=made),
            overtricks=Avg(F("tricks") - F("bid"), filter=made),
            bucked_as_maker=Count("id", filter=Q(points__gt=0) & as_maker),
            bucked_as_player=Count("id", filter=Q(points__gt=0) & ~as_maker),
            drops=Count("id", filter=Q(dropped=True)),
        )
    )
    bluke = league.game == Game.BLUKE
    for line in lines:
        row = rows.get(line["player_id"])
        if row is None:
            continue
        row["hands"] = line["hands"]
        if bluke:
            row["bids_made_share"] = line["made"] / line["hands"] if line["hands"] else None
            row["average_overtricks"] = line["overtricks"]
        else:
            row["bucked_as_maker"] = line["bucked_as_maker"]
            row["bucked_as_player"] = line["bucked_as_player"]
            row["drops"] = line["drops"]
    outs = Q(round__event__league=league)
    if event is not None:
        outs &= Q(round__event=event)
    if date_after is not None:
        outs &= Q(round__event__date__gte=date_after)
    if date_before is not None:
        outs &= Q(round__event__date__lte=date_before)
    sat_out = dict(
        SitOut.objects.filter(outs, player_id__in=rows)
        .values("player_id")
        .annotate(rounds=Count("id"))
        .values_list("player_id", "rounds")
    )
    for row in rows.values():
        row["sat_out"] = sat_out.get(row["pk"], 0)
        row["player_id"] = row.pop("pk")
        row["average_points"] = row["total_points"] / row["games"]
        row.setdefault("hands", 0)
        for field in ("bids_made_share", "average_overtricks"):
            row.setdefault(field, None)
        for field in ("bucked_as_maker", "bucked_as_player", "drops"):
            row.setdefault(field, None if bluke else 0)

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


STANDINGS_LOCKS = 0x5354  # "ST"
"""The first key of the standings' advisory locks, the league's id the second."""


def standings_lock(*, league_id: int) -> None:
    """Take the league's standings lock until the current transaction ends:
    a PostgreSQL advisory lock keyed on the league (its id modulo 2**31, the
    lock's second key: leagues that share one only wait for each other). On
    SQLite, which lets one transaction write at a time, there is none to take.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s::integer, %s::integer)",
                [STANDINGS_LOCKS, league_id % 2**31],
            )


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
