"""The reads of a player's personal page (:mod:`league.web.personal_link`) and
of the organisers' pages of personal links (:mod:`league.web.personal_links`),
each a fixed number of queries whatever the number of nights and players."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Final

from django.db.models import Exists, OuterRef, QuerySet

from league import selectors
from league.models import Attendance, Event, PersonalLink, Player, Reply, Table
from league.selectors import ReplyLine
from league.services.replies import ReplyWindow, reply_window

UPCOMING_NIGHTS: Final = 8
"""The most coming game nights a personal page lists: a couple of months of a
weekly club, across its leagues."""


@dataclass(frozen=True)
class Night:
    """A coming game night on a player's page: their reply and attendance
    (``None`` for none), whether its replies are open, and whether it is
    today (the day they check in with the link)."""

    event: Event
    reply: Reply | None
    attendance: Attendance | None
    window: ReplyWindow
    tonight: bool
    drawn: bool
    """A round of it has tables: a player checking in now joins a later round."""

    @property
    def checked_in(self) -> bool:
        return self.attendance is not None and self.attendance.present


def upcoming_nights(*, player: Player, today: datetime.date, now: datetime.datetime) -> list[Night]:
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
    nights = []
    for event in events:
        drawn: bool = getattr(event, "drawn")  # noqa: B009 (set by the read)
        nights.append(
            Night(
                event=event,
                reply=replies.get(event.pk),
                attendance=rows.get(event.pk),
                window=reply_window(event=event, league=event.league, drawn=drawn, now=now),
                tonight=event.date == today,
                drawn=drawn,
            )
        )
    return nights


# -- the organisers' pages -----------------------------------------------------------------


@dataclass(frozen=True)
class RepliesPanel:
    """A night's replies as the Tonight page shows them: who is coming, not
    coming, has not answered (a player with a personal link), and the window."""

    coming: list[ReplyLine]
    not_coming: list[ReplyLine]
    no_answer: list[ReplyLine]
    window: ReplyWindow

    @property
    def asked(self) -> int:
        return len(self.coming) + len(self.not_coming) + len(self.no_answer)

    @property
    def waiting(self) -> list[ReplyLine]:
        """Coming, and not on the night's list yet: whom the button checks in."""
        return [line for line in self.coming if not line.on_list]

    @property
    def checked_in(self) -> int:
        """Of those asked, how many are checked in now."""
        return sum(line.checked_in for line in (*self.coming, *self.not_coming, *self.no_answer))


def replies_panel(*, event: Event, drawn: bool, now: datetime.datetime) -> RepliesPanel:
    """The night's replies (:func:`league.selectors.event_replies`: one query),
    ``drawn`` saying whether a round of it has tables."""
    lines = selectors.event_replies(event=event)
    return RepliesPanel(
        coming=[line for line in lines if line.answer == Reply.Answer.COMING],
        not_coming=[line for line in lines if line.answer == Reply.Answer.NOT_COMING],
        no_answer=[line for line in lines if line.answer is None],
        window=reply_window(event=event, league=event.league, drawn=drawn, now=now),
    )


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
