"""Reads of players' replies to game nights and their personal links: a
night's replies with who is checked in, a player's coming nights with their
replies and attendance, a club's personal links; each a fixed number of
queries whatever the number of nights and players."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Final

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery

from league.models import Attendance, Event, PersonalLink, Player, Reply, Table


@dataclass(frozen=True)
class ReplyLine:
    """A player asked about a night (one with a personal link) or who replied
    to it: their answer (``coming``, ``not_coming``, or ``None``: no answer
    yet), when they gave it, whether they hold a personal link, and whether
    they are checked in now (present, not left)."""

    player: Player
    answer: str | None
    answered_at: datetime.datetime | None
    has_link: bool
    checked_in: bool
    on_list: bool
    """On the night's attendance list: checked in, and maybe left since."""


def event_replies(*, event: Event) -> list[ReplyLine]:
    """The event's replies, by player name: every player of its club who
    replied to it or holds a personal link (so may reply), with their answer
    and whether they are checked in. One query."""
    replies = Reply.objects.filter(event=event, player=OuterRef("pk"))
    players = (
        Player.objects.filter(club_id=event.league.club_id)
        .annotate(
            reply_answer=Subquery(replies.values("answer")[:1]),
            reply_at=Subquery(replies.values("answered_at")[:1]),
            has_link=Exists(PersonalLink.objects.filter(player=OuterRef("pk"))),
            checked_in=Exists(
                Attendance.objects.filter(
                    event=event, player=OuterRef("pk"), until_round__isnull=True
                )
            ),
            on_list=Exists(Attendance.objects.filter(event=event, player=OuterRef("pk"))),
        )
        .filter(Q(has_link=True) | Q(reply_answer__isnull=False))
        .order_by("name", "pk")
    )
    return [
        ReplyLine(
            player=player,
            answer=getattr(player, "reply_answer"),  # noqa: B009 (set by the read)
            answered_at=getattr(player, "reply_at"),  # noqa: B009
            has_link=getattr(player, "has_link"),  # noqa: B009
            checked_in=getattr(player, "checked_in"),  # noqa: B009
            on_list=getattr(player, "on_list"),  # noqa: B009
        )
        for player in players
    ]


UPCOMING_NIGHTS: Final = 8
"""The most coming game nights a personal page lists: a couple of months of a
weekly club, across its leagues."""


@dataclass(frozen=True)
class ComingNight:
    """A coming game night of a player's club, with the player's reply and
    attendance (``None`` for none)."""

    event: Event
    reply: Reply | None
    attendance: Attendance | None
    drawn: bool
    """A round of it has tables."""


def coming_nights(*, player: Player, today: datetime.date) -> list[ComingNight]:
    """The game nights of the player's club from ``today`` on (every league of
    the club), soonest first, at most :data:`UPCOMING_NIGHTS`, each with the
    player's reply and attendance. Three queries: the nights (with whether
    they are drawn), the player's replies, their attendance."""
    events = list(
        Event.objects.filter(league__club_id=player.club_id, date__gte=today)
        .select_related("league")
        .annotate(drawn=Exists(Table.objects.filter(round__event=OuterRef("pk"))))
        .order_by("date", "start_time", "pk")[:UPCOMING_NIGHTS]
    )
    if not events:
        return []
    replies = {
        reply.event_id: reply for reply in Reply.objects.filter(player=player, event__in=events)
    }
    rows = {row.event_id: row for row in Attendance.objects.filter(player=player, event__in=events)}
    return [
        ComingNight(
            event=event,
            reply=replies.get(event.pk),
            attendance=rows.get(event.pk),
            drawn=getattr(event, "drawn"),  # noqa: B009 (set by the read)
        )
        for event in events
    ]


# -- the organisers' pages of personal links (league.web.personal_links) ----------------


@dataclass(frozen=True)
class LinkLine:
    """A player of the club on the personal links page: their link (``None``
    for none) and the address of their login, if any, to mail it to."""

    player: Player
    link: PersonalLink | None
    email: str


def club_link_lines(*, club_id: int) -> list[LinkLine]:
    """Every player of the club by name, with their personal link and their
    login's address. One query."""
    players = (
        Player.objects.filter(club_id=club_id)
        .select_related("personal_link", "user")
        .order_by("name", "pk")
    )
    return [
        LinkLine(
            player=player,
            link=getattr(player, "personal_link", None),
            email=(player.user.email if player.user is not None else "") or "",
        )
        for player in players
    ]


def player_for_link(player_id: int) -> Player:
    """A player with their club, login and personal link (one query). Raises
    ``Player.DoesNotExist``."""
    return Player.objects.select_related("club", "user", "personal_link").get(pk=player_id)


def players_of_club(*, club_id: int, ids: list[int]) -> QuerySet[Player]:
    """The club's players among ``ids``, with their logins, by name."""
    return (
        Player.objects.filter(club_id=club_id, pk__in=ids)
        .select_related("user", "club")
        .order_by("name", "pk")
    )
