"""The reads of the organisers' set-up pages (:mod:`league.web.organise`).

Each function runs a fixed number of queries, whatever the size of the
club: a page built from them does too.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from league.models import Club, Event, Hand, League, Player, Round, Table

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


def club_player_count(*, club: Club) -> int:
    """How many players the club has, guests included (one query)."""
    return Player.objects.filter(club=club).count()


def club_players(*, club: Club, query: str = "") -> list[Player]:
    """The club's players by name, with their linked logins; ``query``, if
    given, keeps those whose name contains it, in any case (one query)."""
    players = Player.objects.filter(club=club).select_related("user").order_by("name", "id")
    if query:
        players = players.filter(name__icontains=query)
    return list(players)


def club_logins(*, club: Club, also: AbstractBaseUser | None = None) -> list[AbstractBaseUser]:
    """The users who hold a role in the club, by username, and ``also`` (the
    login a player is linked to now, role or not), for a player's login
    choice (one query)."""
    has_role = Q(memberships__club=club)
    if also is not None:
        has_role |= Q(pk=also.pk)
    users = get_user_model().objects.filter(has_role).distinct().order_by("username")
    return list(users)


def league_for_manage() -> QuerySet[League]:
    """Leagues with their club (for the organisers' access check)."""
    return League.objects.select_related("club")


def league_has_hands(*, league: League) -> bool:
    """Whether a hand has been played in the league: its options are fixed then (one query)."""
    return Hand.objects.filter(table__round__event__league=league).exists()


def event_for_manage() -> QuerySet[Event]:
    """Events with their league and club."""
    return Event.objects.select_related("league__club")


@dataclass(frozen=True)
class RoundState:
    """A round of an event as the event form needs it: its number, and
    whether tables are drawn in it (such a round cannot be removed)."""

    number: int
    has_tables: bool
    id: int = 0
    """The round's id (its delete page's address)."""


def event_round_states(*, event: Event) -> list[RoundState]:
    """The event's rounds by number, each saying whether it has tables (one query)."""
    rounds = (
        Round.objects.filter(event=event)
        .annotate(has_tables=Exists(Table.objects.filter(round=OuterRef("pk"))))
        .order_by("number")
    )
    return [
        RoundState(number=number, has_tables=drawn, id=pk)
        for pk, number, drawn in rounds.values_list("pk", "number", "has_tables")
    ]


def player_for_manage() -> QuerySet[Player]:
    """Players with their club and linked login."""
    return Player.objects.select_related("club", "user")
