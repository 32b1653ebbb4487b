"""Reads of game nights: an event for its pages and the organisers', the
calendars' events, a night's attendance, and its rounds with their tables,
seats and sit-outs (each a fixed number of queries, whatever the night's
size)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from league.models import (
    Attendance,
    Club,
    Event,
    League,
    Player,
    Round,
    Seating,
    SitOut,
    Table,
    TableStatus,
)


def event_for_page() -> QuerySet[Event]:
    """Events with their league and club, which the event page names and links."""
    return Event.objects.select_related("league__club")


def calendar_events(
    *, club: Club, league: League | None = None, since: datetime.date
) -> QuerySet[Event]:
    """The club's (or one league's) events on or after ``since``, in date order,
    each with its league and rounds (three queries, whatever the count)."""
    events = Event.objects.filter(league__club=club, date__gte=since)
    if league is not None:
        events = events.filter(league=league)
    return (
        events.select_related("league")
        .prefetch_related(Prefetch("rounds", queryset=Round.objects.only("id", "event_id")))
        .order_by("date", "start_time", "id")
    )


def event_attendance(*, event: Event) -> list[Attendance]:
    """The event's attendance by player name, with the players and who
    changed each row (one query)."""
    return list(
        Attendance.objects.filter(event=event)
        .select_related("player", "changed_by")
        .order_by("player__name", "player_id")
    )


@dataclass(frozen=True)
class SeatLine:
    """A seat at a table as the event page shows it: the final total and
    place once the game is complete, the running total before."""

    seat: int
    player: Player
    total: int | None
    place: int | None


@dataclass(frozen=True)
class TableLines:
    """A table of an event with its seats, in seat order."""

    table: Table
    seats: list[SeatLine]

    @property
    def status(self) -> TableStatus:
        return self.table.status


@dataclass(frozen=True)
class RoundTables:
    """A round of an event with its tables, in table order."""

    round: Round
    tables: list[TableLines]
    sat_out: list[Player]
    """Who was drawn to no table (Buck Euchre), by name."""


def round_tables_prefetch() -> Prefetch[str, QuerySet[Table], str]:
    """A round's tables by number, each with its seatings in seat order and their
    players (two queries, for any number of rounds)."""
    return Prefetch(
        "tables",
        queryset=Table.objects.order_by("number").prefetch_related(
            Prefetch("seatings", queryset=Seating.objects.select_related("player").order_by("seat"))
        ),
    )


def event_rounds(*, event: Event) -> list[RoundTables]:
    """The event's rounds, their tables and each table's seats with players,
    and who sat out (four queries: rounds, tables, seatings with their
    players, sit-outs with theirs)."""
    rounds = Round.objects.filter(event=event).prefetch_related(
        round_tables_prefetch(),
        Prefetch("sit_outs", queryset=SitOut.objects.select_related("player")),
    )
    return [
        RoundTables(
            round=round_,
            tables=[TableLines(table=t, seats=seat_lines(t)) for t in round_.tables.all()],
            sat_out=[sit_out.player for sit_out in round_.sit_outs.all()],
        )
        for round_ in rounds.order_by("number")
    ]


def seat_lines(table: Table) -> list[SeatLine]:
    """Each seat's running total (the final one once the game is complete),
    with its place once the game counts."""
    running = table.totals
    lines = []
    for seating in table.seatings.all():
        total = running[seating.seat] if seating.seat < len(running) else None
        place = seating.place if table.counts else None
        lines.append(SeatLine(seat=seating.seat, player=seating.player, total=total, place=place))
    return lines


# -- the organisers' pages (league.web.organise) -----------------------------------------


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
