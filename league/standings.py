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
down); then more games; then the name. A league with a season format
(:mod:`league.season`) adds each player's season points (points for places,
a night the sum of its games, the best N nights counted), the nights counted
and whether they qualify, and orders by those (:func:`league.season.season_ranked`).

A league's final night (``Event.is_final``) counts in no standings of the
league but its own: the league's and a date range's leave its games and
sit-outs out.

Stored, and kept up to date line by line: a change that makes lines stale
(a game completed, corrected or no longer complete; a draw's sit-outs) owes
them as :class:`~league.models.StandingsOwed` rows in its own transaction
(:func:`league.outbox.standings_owe`), and the league's standings job
(:func:`standings_catch_up`) recomputes just those players' lines, in the
event and in the league, then ranks both scopes again in one statement each
(in a league with a season format, one read of the scope's lines, ranked in
Python with head to head, and one update of the ranks that moved).
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
from collections.abc import Collection, Iterable, Sequence
from fractions import Fraction
from itertools import groupby
from operator import itemgetter
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
    Seating,
    SitOut,
    Standing,
    StandingsOwed,
)
from league.season import SeasonFormat, head_to_head_scores, season_ranked
from league.webhook_events import webhooks_standings_updated


def rank_key(
    *,
    wins: int,
    average_place: float | None,
    points: float,
    games: int,
    name: str,
    player_id: int,
    bluke: bool,
) -> tuple[int, bool, float, float, int, str, int]:
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
    ranked: bool = True,
) -> list[dict[str, Any]]:
    """The standings rows, best first, each with its ``rank``; only the rows
    of ``players`` (ids) when given, ranked among themselves (``ranked``
    false: without head to head, for the catch-up, which ranks the whole
    scope again itself).

    Each row has the season figures too: ``season_points`` (``None`` without
    a season format), ``nights_counted`` (the nights played, without one) and
    ``qualified`` (always, without one; in one event's standings too, since
    the games to qualify are the season's)."""

    def scope(path: str) -> Q:
        """The scope's filter on the rounds found at ``path``."""
        return _scope(path, league=league, event=event, after=date_after, before=date_before)

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
            nights=Count("seatings__round__event", filter=games, distinct=True),
            **{count: summed(count) for count in SEATING_COUNTS},
        )
        .values(
            "pk",
            "name",
            "games",
            "wins",
            "average_place",
            "total_points",
            "nights",
            *SEATING_COUNTS,
        )
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
        row["season_points"], row["nights_counted"] = None, row.pop("nights")
        row["qualified"] = True

    fmt = season_format(league)
    if fmt is None:
        return _numbered(
            sorted(
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
        )
    where = scope("round__")
    nights = night_points(fmt, where, players=players)
    for player_id, row in rows.items():
        points, row["nights_counted"] = fmt.counted(nights.get(player_id, {}).values())
        row["season_points"] = float(points)
        row["qualified"] = event is not None or row["games"] >= fmt.min_games

    def head_to_head(groups: Sequence[Sequence[int]]) -> dict[int, int]:
        return head_to_head_scores(groups, _met(where, groups)) if ranked else {}

    return _numbered(season_ranked(list(rows.values()), head_to_head=head_to_head))


def _numbered(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` in order, each with its ``rank`` from 1."""
    ranked = list(rows)
    for rank, row in enumerate(ranked, start=1):
        row["rank"] = rank
    return ranked


def _scope(
    path: str,
    *,
    league: League | int,
    event: Event | int | None = None,
    after: datetime.date | None = None,
    before: datetime.date | None = None,
) -> Q:
    """The filter on the rounds found at ``path`` of the league (its final
    night left out), of one of its events, or of a date range in it."""
    where = Q(**{f"{path}event__league": league})
    if event is not None:
        where &= Q(**{f"{path}event": event})
    else:  # the season's standings: a final night counts apart
        where &= Q(**{f"{path}event__is_final": False})
    if after is not None:
        where &= Q(**{f"{path}event__date__gte": after})
    if before is not None:
        where &= Q(**{f"{path}event__date__lte": before})
    return where


def season_format(league: League) -> SeasonFormat | None:
    """The league's season format, ``None`` for today's order."""
    return SeasonFormat.from_json(league.season) if league.season else None


def night_points(
    fmt: SeasonFormat, where: Q, *, players: Collection[int] | None = None
) -> dict[int, dict[int, Fraction]]:
    """Each player's points by night (event id), exactly, from the counted
    games that ``where`` (a filter on the seatings' rounds) keeps, of
    ``players`` (ids) only when given. One query: the seatings of those games,
    every seat of each (a tie's share needs the table's other places), read
    table by table from the database's cursor, so a whole league's games are
    never held at once."""
    seats = Seating.objects.filter(where, place__isnull=False)
    if players is not None:
        theirs = Seating.objects.filter(where, place__isnull=False, player_id__in=players)
        seats = seats.filter(table_id__in=theirs.values("table_id"))
    lines = (
        seats.order_by("table_id")
        .values_list("table_id", "player_id", "place", "round__event_id")
        .iterator(chunk_size=2_000)
    )
    nights: dict[int, dict[int, Fraction]] = {}
    for _, table in groupby(lines, key=itemgetter(0)):
        # the filter keeps placed seats only: every place is a number
        sat = [
            (table_id, player_id, int(place or 0), event_id)
            for table_id, player_id, place, event_id in table
        ]
        size = len(sat)  # every seat of a counted game has its place
        tied: dict[int, int] = {}
        for _, _, place, _ in sat:
            tied[place] = tied.get(place, 0) + 1
        for _, player_id, place, event_id in sat:
            if players is not None and player_id not in players:
                continue
            points = fmt.seat_points(size=size, place=place, tied=tied[place])
            night = nights.setdefault(player_id, {})
            night[event_id] = night.get(event_id, Fraction(0)) + points
    return nights


def _met(where: Q, groups: Iterable[Sequence[int]]) -> list[tuple[int, int, int]]:
    """The tied players' counted games in the scope (``where``, on the
    seatings' rounds): table, player, place (one query)."""
    tied = [player for group in groups for player in group]
    seats = Seating.objects.filter(where, place__isnull=False, player_id__in=tied)
    return [
        (table_id, player_id, int(place or 0))
        for table_id, player_id, place in seats.values_list("table_id", "player_id", "place")
    ]


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
    """Recompute the owed players' lines; returns those players. A player owed
    in the league's final night has their line in it recomputed, and their
    league line too (which the final leaves as it was)."""
    now = timezone.now()
    everyone: set[int] = set()
    for event_id, players in players_by_event.items():
        event = Event(pk=event_id, league=league)
        rows = standing_rows(league=league, event=event, players=players, ranked=False)
        Standing.objects.filter(event_id=event_id, player_id__in=players).delete()
        Standing.objects.bulk_create(_standings(league, event, rows, now))
        _rank(league=league, event_id=event_id, now=now)
        everyone |= players
    rows = standing_rows(league=league, players=everyone, ranked=False)
    Standing.objects.filter(league=league, event=None, player_id__in=everyone).delete()
    Standing.objects.bulk_create(_standings(league, None, rows, now))
    _rank(league=league, event_id=None, now=now)
    return everyone


def _rank(*, league: League, event_id: int | None, now: datetime.datetime) -> None:
    """Number the stored lines of the league (``event_id`` None) or of one of
    its events in the order of :func:`rank_key`, in one statement. Only the
    lines whose rank changes are written, and marked computed ``now``.

    The names compare by code point, as Python's sort in :func:`standing_rows`
    does (PostgreSQL's "C" collation; SQLite's default).

    A league with a season format is ranked in Python instead
    (:func:`_rank_season`): head to head is no ORDER BY."""
    if league.season:
        _rank_season(league=league, event_id=event_id, now=now)
        return
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


def _rank_season(*, league: League, event_id: int | None, now: datetime.datetime) -> None:
    """Number the stored lines of a scope of a league with a season format in
    its order (:func:`league.season.season_ranked`): one read of the scope's
    lines (a row a player of the scope: the club's players, not its games),
    one read of the tied players' games when any are tied after the points,
    the average place and the wins, and one update of the lines whose rank
    moved (none when none did), marked computed ``now``."""
    lines = Standing.objects.filter(league=league, event=event_id)
    rows: list[dict[str, Any]] = [
        dict(row, name=row["player__name"])
        for row in lines.values(
            "id",
            "rank",
            "player_id",
            "player__name",
            "qualified",
            "season_points",
            "average_place",
            "wins",
        )
    ]
    where = _scope("round__", league=league, event=event_id)
    ranked = season_ranked(
        rows, head_to_head=lambda groups: head_to_head_scores(groups, _met(where, groups))
    )
    moved = [
        Standing(pk=row["id"], rank=place, computed_at=now)
        for place, row in enumerate(ranked, start=1)
        if row["rank"] != place
    ]
    Standing.objects.bulk_update(moved, ["rank", "computed_at"], batch_size=500)


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
    "season_points",
    "nights_counted",
    "qualified",
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
