"""Reads of the night's pages: the organiser's Tonight page (the check-in
list, the rounds with each table's progress and link), the room screen's
tag, and today's game nights with their current tables.

Each function is a fixed number of queries, whatever the number of players,
rounds or tables, and says how many. What the pages make of the rounds read
without a query (the live standings, a draw's preview) is
:mod:`league.web.tonight_shaping`'s."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Max, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

import games
from league.models import Attendance, Confirmation, Event, League, Player, Round, Table, TableLink
from league.selectors import clubs as clubs_selectors
from league.selectors import events as events_selectors
from league.selectors.events import TableLines
from league.users import SiteUser

# -- the organiser's tonight page -----------------------------------------------------


@dataclass(frozen=True)
class AttendanceLine:
    """A player of the club on the check-in list, with their attendance row
    (``None`` when not checked in tonight)."""

    player: Player
    row: Attendance | None

    @property
    def present(self) -> bool:
        """Checked in and not left."""
        return self.row is not None and self.row.present

    @property
    def left(self) -> bool:
        """Checked in earlier tonight, then left."""
        return self.row is not None and not self.row.present


def attendance_lines(*, event: Event, search: str = "") -> tuple[list[AttendanceLine], int]:
    """Every player of the event's club whose name contains ``search`` (any
    case; all of them when blank), by name, each with their attendance row;
    and how many are present now (over the whole club, whatever the
    search). Two queries: the players, the attendance rows."""
    rows = {row.player_id: row for row in events_selectors.event_attendance(event=event)}
    players = Player.objects.filter(club_id=event.league.club_id).order_by("name", "pk")
    if search.strip():
        players = players.filter(name__icontains=search.strip())
    lines = [AttendanceLine(player=player, row=rows.get(player.pk)) for player in players]
    return lines, sum(1 for row in rows.values() if row.present)


@dataclass(frozen=True)
class Progress:
    """How far a table's game has got, in the night's words: ``state`` is one
    of ``not_started``, ``entering``, ``complete`` (counts without
    confirmation), ``awaiting``, ``confirmed`` and ``disputed`` (a game
    entered at the table); ``note`` is a dispute's."""

    state: str
    text: str
    note: str = ""


def live_tag(*, event: Event, view: str) -> str:
    """The ``ETag`` of what the room screen or the Tonight page (``view``)
    shows of the night's tables, from one aggregate query: their number, the
    sum of their versions (a version moves with every change of a table's
    results, seats or confirmation), their newest id (a round drawn again),
    and their links (the Tonight page shows them)."""
    found = Table.objects.filter(round__event=event).aggregate(
        tables=Count("pk"),
        versions=Sum("version"),
        newest=Max("pk"),
        links=Count("link"),
        newest_link=Max("link__pk"),
    )
    parts = [found["tables"], found["versions"], found["newest"], found["links"]]
    parts += [found["newest_link"]]
    return f'W/"{view}-{event.pk}-' + "-".join(str(part or 0) for part in parts) + '"'


def progress_of(table: Table, league: League) -> Progress:
    """``table``'s progress (no query): the hand being entered out of the
    game's (Bluke's are known in advance), or where a complete game stands
    with its players' confirmation."""
    if not table.complete:
        if not table.hands_played:
            return Progress("not_started", pgettext("table progress", "not started"))
        rules = games.rules_for(league.game, table.players, league.options)
        number = table.hands_played + 1
        if isinstance(rules, games.Bluke):
            text = pgettext("table progress", "entering, hand %(number)s of %(hands)s") % {
                "number": number,
                "hands": len(rules.schedule),
            }
        else:
            text = pgettext("table progress", "entering, hand %(number)s") % {"number": number}
        return Progress("entering", text)
    if table.confirmation == Confirmation.NONE:
        return Progress("complete", pgettext("table progress", "complete"))
    label = Confirmation(table.confirmation).label.lower()
    return Progress(table.confirmation, label, note=table.confirmation_note)


@dataclass(frozen=True)
class TonightTable(TableLines):
    """A table of the night with its seats, its progress and its link (if it has one)."""

    progress: Progress
    link: TableLink | None


@dataclass(frozen=True)
class RoundView:
    """A round of the night as the organiser sees it: its tables (seats in
    order, progress and link), who sits out, and whether a hand is played at
    any table yet."""

    round: Round
    tables: list[TonightTable]
    sat_out: list[Player]

    @property
    def links(self) -> bool:
        """Whether any of its tables has a working link."""
        return any(lines.link is not None for lines in self.tables)

    @property
    def drawn(self) -> bool:
        return bool(self.tables)

    @property
    def started(self) -> bool:
        """A hand is played at one of its tables: the seats are fixed now."""
        return any(lines.table.hands_played for lines in self.tables)

    @property
    def complete(self) -> bool:
        return self.drawn and all(lines.table.complete for lines in self.tables)

    @property
    def players(self) -> list[tuple[Player, str]]:
        """Everyone in the round with where they are (``"table 2"``, ``"sitting
        out"``), seated first in table and seat order, for the swap and move
        forms."""
        placed = [
            (seat.player, _("table %(number)d") % {"number": lines.table.number})
            for lines in self.tables
            for seat in lines.seats
        ]
        out = _("sitting out")
        return [*placed, *((player, out) for player in self.sat_out)]


def event_rounds(*, event: Event, with_links: bool = False) -> list[RoundView]:
    """The event's rounds in order with their tables, seats, progress and
    sit-outs (four queries, those of :func:`league.selectors.events.event_rounds`),
    and ``with_links`` the tables' working links (one more, for the
    organiser's page); each round is given ``event`` (its league fetched) so
    that the services need not fetch it again."""
    links: dict[int, TableLink] = {}
    if with_links:
        working = TableLink.objects.filter(table__round__event=event, expires_at__gt=timezone.now())
        links = {link.table_id: link for link in working}
    views = []
    for item in events_selectors.event_rounds(event=event):
        item.round.event = event
        tables = [
            TonightTable(
                table=lines.table,
                seats=lines.seats,
                progress=progress_of(lines.table, event.league),
                link=links.get(lines.table.pk),
            )
            for lines in item.tables
        ]
        views.append(RoundView(round=item.round, tables=tables, sat_out=item.sat_out))
    return views


# -- today's tables ---------------------------------------------------------------------


def events_on(day: datetime.date, *, league: League | None = None) -> QuerySet[Event]:
    """The events on ``day`` (of ``league`` only, when given), with their
    league and club, by league name then event: one query once evaluated."""
    events = Event.objects.filter(date=day).select_related("league__club")
    if league is not None:
        events = events.filter(league=league)
    return events.order_by("league__club__name", "league__name", "start_time", "pk")


@dataclass(frozen=True)
class TodayEvent:
    """An event on today with its current round (the latest with tables) and
    whether the signed-in user organises its club."""

    event: Event
    round: Round | None
    tables: list[TableLines]
    organiser: bool


def today(*, day: datetime.date, user: SiteUser, visible: Q) -> list[TodayEvent]:
    """The events on ``day`` of the clubs ``visible`` keeps (the condition of
    :func:`league.access.visible_clubs` for ``user``, along ``league__club``),
    with each one's current round's tables, seats in order. Four queries
    (events, rounds, tables, seatings with players), and one more for a
    signed-in user (the clubs they organise)."""
    events = list(events_on(day).filter(visible))
    if not events:
        return []
    rounds = (
        Round.objects.filter(event__in=events)
        .prefetch_related(events_selectors.round_tables_prefetch())
        .order_by("event_id", "number")
    )
    latest: dict[int, tuple[Round, list[TableLines]]] = {}
    for round_ in rounds:
        tables = [
            TableLines(table=t, seats=events_selectors.seat_lines(t)) for t in round_.tables.all()
        ]
        if tables:  # ordered by number: the last round with tables wins
            latest[round_.event_id] = (round_, tables)
    organised = clubs_selectors.organised_club_ids(user)
    shown = []
    for event in events:
        current = latest.get(event.pk)
        shown.append(
            TodayEvent(
                event=event,
                round=current[0] if current else None,
                tables=current[1] if current else [],
                organiser=event.league.club_id in organised,
            )
        )
    return shown
