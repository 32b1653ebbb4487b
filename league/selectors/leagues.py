"""Reads of leagues: the league page's league (with its rating scope, its
final and its season's nights), the tops of its lists and its game nights
with their tables counted; the organisers' hub of leagues and their nights."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, cast

from django.db.models import Count, F, Model, OuterRef, Q, QuerySet, Subquery, Window
from django.db.models.functions import Coalesce, RowNumber

from league import ratings
from league.models import Club, Event, Hand, League, Table

M = TypeVar("M", bound=Model)


def league_for_page() -> QuerySet[League]:
    """Leagues with what the league page shows beside them: the club and
    the league's rating scope (``rating_scope``, absent before any rating),
    whether that scope is owed a re-rating, the id of its final night
    (``final_id``, ``None`` before it is made) and how many game nights its
    season has (``season_nights``, the final aside)."""
    nights = Event.objects.filter(league=OuterRef("pk"), is_final=False)
    return League.objects.select_related("club", "rating_scope").annotate(
        rating_scope_owed=ratings.owed_exists("rating_scope"),
        final_id=Subquery(
            Event.objects.filter(league=OuterRef("pk"), is_final=True).values("pk")[:1]
        ),
        season_nights=Coalesce(
            Subquery(nights.order_by().values("league").annotate(n=Count("pk")).values("n")[:1]),
            0,
        ),
    )


# The league's lists, of any length: the league page shows their tops, the
# full lists (league.web.lists) a page at a time. Each read is one query.


class Counted(Protocol):
    """A row of :func:`with_count`: how many rows there are in all."""

    rows_in_all: int


def with_count(rows: QuerySet[M]) -> QuerySet[M]:
    """``rows``, each with how many there are in all (``rows_in_all``): a
    window count, which the database takes before a limit, and before a filter
    on another window (Django applies that one in an outer query)."""
    counted: QuerySet[M] = rows.annotate(rows_in_all=Window(Count("pk")))
    return counted


def first_rows(rows: QuerySet[M], *, limit: int) -> tuple[list[M], int]:
    """The first ``limit`` of ``rows`` and how many there are in all, in one
    query: a window count, which the database takes before the limit."""
    got = list(with_count(rows)[:limit])
    return got, (cast(Counted, got[0]).rows_in_all if got else 0)  # with_count's rows


def league_events_latest(*, league: League) -> QuerySet[Event]:
    """The league's events, the latest first: slice or paginate it, then
    count their tables with :func:`event_lines`."""
    return Event.objects.filter(league=league).order_by("-date", "-id")


@dataclass(frozen=True)
class EventLine:
    """An event with how many tables it has, and how many of them are complete."""

    event: Event
    tables: int
    tables_complete: int


def event_lines(events: Sequence[Event]) -> list[EventLine]:
    """``events`` with their tables counted, in their order: one query for
    any number of events (none for none), that counts their tables only."""
    counts = {
        row["round__event_id"]: row
        for row in Table.objects.filter(round__event__in=[event.pk for event in events])
        .order_by()
        .values("round__event_id")
        .annotate(tables=Count("pk"), complete=Count("pk", filter=Q(complete=True)))
    }
    return [
        EventLine(
            event=event,
            tables=counts.get(event.pk, {}).get("tables", 0),
            tables_complete=counts.get(event.pk, {}).get("complete", 0),
        )
        for event in events
    ]


# -- the organisers' pages (league.web.organise) -----------------------------------------


EVENTS_SHOWN = 5
"""How many upcoming, and how many recent, game nights the hub lists per league."""


@dataclass(frozen=True)
class LeagueNights:
    """One league on the hub, with its next and its latest game nights."""

    league: League
    upcoming: list[Event]
    """From today on, soonest first."""
    recent: list[Event]
    """Before today, latest first."""


def club_leagues_with_nights(*, club: Club, today: datetime.date) -> list[LeagueNights]:
    """The club's leagues by name, each with up to :data:`EVENTS_SHOWN`
    upcoming and recent game nights, each night with its ``round_count``
    (three queries: the leagues, then each side's nights, cut per league
    by a window so a long season is not read whole)."""
    leagues = list(League.objects.filter(club=club).order_by("name", "id"))
    upcoming = _nights(club, Q(date__gte=today), ("date", "start_time", "id"))
    recent = _nights(club, Q(date__lt=today), ("-date", "-start_time", "-id"))
    return [
        LeagueNights(
            league=league, upcoming=upcoming.get(league.pk, []), recent=recent.get(league.pk, [])
        )
        for league in leagues
    ]


def _nights(club: Club, when: Q, order: Sequence[str]) -> dict[int, list[Event]]:
    """The first :data:`EVENTS_SHOWN` nights of each league of the club in
    ``order`` among those ``when`` picks, by league id (one query)."""
    ordering = [F(name[1:]).desc() if name.startswith("-") else F(name).asc() for name in order]
    events = (
        Event.objects.filter(when, league__club=club)
        .annotate(
            round_count=Count("rounds", distinct=True),
            position=Window(RowNumber(), partition_by=[F("league_id")], order_by=ordering),
        )
        .filter(position__lte=EVENTS_SHOWN)
        .order_by("league_id", "position")
    )
    by_league: dict[int, list[Event]] = {}
    for event in events:
        by_league.setdefault(event.league_id, []).append(event)
    return by_league


def league_for_manage() -> QuerySet[League]:
    """Leagues with their club (for the organisers' access check)."""
    return League.objects.select_related("club")


def league_has_hands(*, league: League) -> bool:
    """Whether a hand has been played in the league: its options are fixed then (one query)."""
    return Hand.objects.filter(table__round__event__league=league).exists()
