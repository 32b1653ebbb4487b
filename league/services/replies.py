"""Players say they are coming: personal links, replies to game nights, and
checking in at the venue with the same link.

An organiser makes a player a **personal link** (:func:`personal_link_create`,
or many at once for a sheet of cards or a round of mails:
:func:`personal_links_create`). It holds a random secret of 256 bits of which
only the SHA-256 digest is stored (:class:`~league.models.PersonalLink`), so
the secret is known once, when the link is made (:class:`NewPersonalLink`). A
player has one link, with no expiry: a new one replaces the old, which stops
working at once; revoking deletes it, and so does anonymising the player.

Whoever holds the link answers "coming" or "not coming" to the player's
coming game nights (:func:`reply_set`), until the night's replies close
(:func:`reply_window`): when its first round is drawn, or the league's
``replies_close_minutes`` before its start time if it has one, and at the end
of its day in any case. On the night's date the same link checks the player
in (:func:`personal_check_in`, through
:func:`league.services.attendance.attendance_check_in`, so that the draws see
them), whatever they answered. Both are recorded in the audit trail ``via``
``personal``, with no actor.

The organiser checks in, at once, everyone who said they are coming and has
not checked in (:func:`replies_check_in_coming`), each an ``attendance.changed``
entry as any check-in.

Lock order: a player's row before their link; an event's row before its
replies and its attendance (as the attendance and seating services lock it,
so that a reply and the first draw are serialised).
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from league import audit
from league.errors import Conflict, ServiceError
from league.models import Attendance, Event, League, PersonalLink, Player, Reply, Table
from league.services import attendance
from league.users import Actor, SiteUser

SECRET_BYTES: Final = 32
"""256 bits of randomness, as a table link's."""

MAX_LINKS_AT_ONCE: Final = 200
"""The most players one call of :func:`personal_links_create` makes links for
(a sheet of cards, a round of mails): a club's regulars, not its history."""


@dataclass(frozen=True)
class NewPersonalLink:
    """A link just made, with its secret: the only time the secret is known."""

    link: PersonalLink
    token: str


# -- the links ----------------------------------------------------------------------------


@transaction.atomic
def personal_link_create(*, player: Player, by: SiteUser | None) -> NewPersonalLink:
    """A new personal link for ``player``, replacing theirs if they had one,
    made by ``by`` (the caller has checked that they organise the club)."""
    [made] = personal_links_create(players=[player], by=by)
    return made


@transaction.atomic
def personal_links_create(
    *, players: Sequence[Player], by: SiteUser | None
) -> list[NewPersonalLink]:
    """A new link for each of ``players`` (of one club, each once), replacing
    their links, in one transaction: one ``personal_link.made`` entry a player
    (``before`` names the link replaced, if any). Returned in the order given.

    Errors (nothing stored): :class:`ServiceError` on ``players`` for none,
    more than :data:`MAX_LINKS_AT_ONCE`, players of several clubs or a player
    listed twice. Lock order: the players by id, then their links."""
    if not players:
        raise ServiceError(gettext("choose at least one player"), field="players")
    if len(players) > MAX_LINKS_AT_ONCE:
        raise ServiceError(
            gettext("at most %(most)s players' links at once") % {"most": MAX_LINKS_AT_ONCE},
            field="players",
        )
    if len({player.club_id for player in players}) > 1:
        raise ServiceError(gettext("the players are of different clubs"), field="players")
    ids = [player.pk for player in players]
    if len(set(ids)) != len(ids):
        raise ServiceError(gettext("a player is listed twice"), field="players")
    list(Player.objects.select_for_update().filter(pk__in=ids).order_by("pk"))
    replaced = set(
        PersonalLink.objects.filter(player_id__in=ids).values_list("player_id", flat=True)
    )
    PersonalLink.objects.filter(player_id__in=ids).delete()
    now = timezone.now()
    made: list[NewPersonalLink] = []
    for player in players:
        token = secrets.token_urlsafe(SECRET_BYTES)
        link = PersonalLink.objects.create(
            player=player,
            digest=PersonalLink.digest_of(token),
            created_by=by if by is not None and by.is_authenticated else None,
            created_at=now,
        )
        audit.audit_entry_write(
            action=audit.Action.PERSONAL_LINK_MADE,
            club_id=player.club_id,
            before={"player": player.pk} if player.pk in replaced else None,
            after={"player": player.pk},
        )
        made.append(NewPersonalLink(link=link, token=token))
    return made


@transaction.atomic
def personal_link_revoke(*, player: Player) -> bool:
    """Revoke the player's link (it stops working at once); whether they had one."""
    deleted, _ = PersonalLink.objects.filter(player=player).delete()
    if deleted:
        audit.audit_entry_write(
            action=audit.Action.PERSONAL_LINK_REVOKED,
            club_id=player.club_id,
            before={"player": player.pk},
            after=None,
        )
    return bool(deleted)


# -- when replies close -------------------------------------------------------------------


@dataclass(frozen=True)
class ReplyWindow:
    """Whether a night's replies are open, and when they close: ``closes_at``
    is the league's minutes before the night's start time (``None`` without a
    start time: they close at the first draw); ``closed`` says why they are
    closed (``drawn``, ``time``, ``past``), or is empty while open."""

    closes_at: datetime.datetime | None
    closed: str

    @property
    def open(self) -> bool:
        return not self.closed


def replies_close_at(*, event: Event, league: League) -> datetime.datetime | None:
    """When the night's replies close by the clock: the league's
    ``replies_close_minutes`` before its start time, in the site's time zone;
    ``None`` for a night without a start time (they close at its first draw).

    >>> from types import SimpleNamespace as Obj
    >>> night = Obj(date=datetime.date(2026, 12, 2), start_time=datetime.time(19, 30))
    >>> str(replies_close_at(event=night, league=Obj(replies_close_minutes=60)))
    '2026-12-02 18:30:00+00:00'
    >>> replies_close_at(event=Obj(date=night.date, start_time=None), league=None) is None
    True
    """
    if event.start_time is None:
        return None
    starts = datetime.datetime.combine(
        event.date, event.start_time, tzinfo=timezone.get_default_timezone()
    )
    return starts - datetime.timedelta(minutes=league.replies_close_minutes)


def reply_window(
    *, event: Event, league: League, drawn: bool, now: datetime.datetime
) -> ReplyWindow:
    """Whether the night's replies are open ``now`` (no query: ``drawn`` says
    whether any of its rounds has tables). Closed once the first round is
    drawn, from :func:`replies_close_at`, and after the night's day.

    >>> from types import SimpleNamespace as Obj
    >>> night = Obj(date=datetime.date(2026, 12, 2), start_time=datetime.time(19, 30))
    >>> league = Obj(replies_close_minutes=60)
    >>> at = datetime.datetime(2026, 12, 2, 18, 0, tzinfo=datetime.UTC)
    >>> reply_window(event=night, league=league, drawn=False, now=at).open
    True
    >>> later = at + datetime.timedelta(minutes=30)
    >>> reply_window(event=night, league=league, drawn=False, now=later).closed
    'time'
    >>> reply_window(event=night, league=league, drawn=True, now=at).closed
    'drawn'
    """
    closes_at = replies_close_at(event=event, league=league)
    if event.date < timezone.localdate(now):
        closed = "past"
    elif drawn:
        closed = "drawn"
    elif closes_at is not None and now >= closes_at:
        closed = "time"
    else:
        closed = ""
    return ReplyWindow(closes_at=closes_at, closed=closed)


def event_has_tables(*, event: Event) -> bool:
    """Whether any round of the event has tables: its first draw is done (one query)."""
    return Table.objects.filter(round__event=event).exists()


# -- the player's replies and check-in -----------------------------------------------------


@transaction.atomic
def reply_set(*, player: Player, event: Event, answer: str) -> Reply:
    """``player`` answers ``answer`` (``coming`` or ``not_coming``) to
    ``event``, through their personal link: the reply stored (a new one, or
    theirs changed), with a ``reply.changed`` entry ``via`` ``personal``. The
    same answer again changes nothing and writes no entry.

    Errors (nothing stored): :class:`ServiceError` on ``answer`` for an
    unknown answer, on ``event`` for a night of another club;
    :class:`Conflict` (``code`` ``replies-closed``, ``field`` ``answer``) once
    the night's replies are closed (:func:`reply_window`). Lock order: the
    event's row, then its replies."""
    if answer not in Reply.Answer.values:
        raise ServiceError(gettext("the answer is coming or not coming"), field="answer")
    event = _lock(event)
    _check_of_club(event, player)
    window = reply_window(
        event=event, league=event.league, drawn=event_has_tables(event=event), now=timezone.now()
    )
    if window.closed:
        raise Conflict(
            gettext("replies to this night are closed: tell the organiser"),
            field="answer",
            code="replies-closed",
        )
    reply = Reply.objects.filter(event=event, player=player).first()
    before = None if reply is None else {"player": player.pk, "answer": reply.answer}
    if reply is not None and reply.answer == answer:
        return reply
    now = timezone.now()
    if reply is None:
        reply = Reply.objects.create(event=event, player=player, answer=answer, answered_at=now)
    else:
        reply.answer, reply.answered_at = answer, now
        reply.save(update_fields=["answer", "answered_at"])
    with audit.audit_context(via=audit.Via.PERSONAL):
        audit.audit_entry_write(
            action=audit.Action.REPLY_CHANGED,
            club_id=event.league.club_id,
            event_id=event.pk,
            before=before,
            after={"player": player.pk, "answer": answer},
        )
    return reply


@transaction.atomic
def personal_check_in(*, player: Player, event: Event) -> Attendance:
    """``player`` checks in at ``event``'s venue through their personal link,
    on the night's date (in the site's time zone), whatever they replied:
    :func:`league.services.attendance.attendance_check_in` (from the next
    round to be drawn), its entry ``via`` ``personal`` with no actor.
    Checking in someone present changes nothing.

    Errors (nothing stored): :class:`ServiceError` on ``event`` for a night
    of another club; :class:`Conflict` (``code`` ``not-the-night``) on
    another day, and (``code`` ``no-round-to-join``) when every round has
    tables (attendance's refusal, in the player's words)."""
    event = _lock(event)
    _check_of_club(event, player)
    if event.date != timezone.localdate():
        raise Conflict(
            gettext("you check in on the night itself, at the venue"),
            field="event",
            code="not-the-night",
        )
    try:
        with audit.audit_context(via=audit.Via.PERSONAL):
            return attendance.attendance_check_in(event=event, player=player, by=None)
    except Conflict as error:  # every round has tables: the organiser adds one
        raise Conflict(
            gettext("every round tonight has its tables already: tell the organiser you are here"),
            field="event",
            code="no-round-to-join",
        ) from error


# -- the organiser's check-in of those coming ----------------------------------------------


@transaction.atomic
def replies_check_in_coming(*, event: Event, by: Actor) -> list[Attendance]:
    """Check in every player who replied "coming" to ``event`` and is not on
    its attendance list (never checked in tonight: someone who came and left
    stays gone), by name, each as :func:`league.services.attendance.attendance_check_in`
    does (an ``attendance.changed`` entry each, by ``by``). Their rows; none
    when nobody is waiting. All or nothing: attendance's :class:`Conflict`
    when every round already has tables. Lock order: the event, then its
    attendance."""
    event = _lock(event)
    waiting = list(
        Player.objects.filter(replies__event=event, replies__answer=Reply.Answer.COMING)
        .exclude(attendance__event=event)
        .order_by("name", "pk")
    )
    return [attendance.attendance_check_in(event=event, player=player, by=by) for player in waiting]


def _lock(event: Event) -> Event:
    """The event row, locked, with its league (for the club and the cut-off)."""
    return Event.objects.select_for_update(of=("self",)).select_related("league").get(pk=event.pk)


def _check_of_club(event: Event, player: Player) -> None:
    if event.league.club_id != player.club_id:
        raise ServiceError(
            gettext("that game night is not one of the player's club"), field="event"
        )
