"""The reads of the night's pages: the organiser's tonight page, the room
screen and today's tables.

Each function is a fixed number of queries, whatever the number of players,
rounds or tables, and says how many; the shaping that needs no query (who
deals first, who met whom, the live standings) is done here too, so the
views stay thin and the templates only lay things out.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any

from django.db.models import Count, Max, QuerySet, Sum
from django.utils import timezone

import games
from league import access, seating, selectors, standings
from league.models import (
    Attendance,
    Confirmation,
    Event,
    Game,
    League,
    Membership,
    Player,
    Round,
    Table,
    TableLink,
)
from league.season import SeasonFormat
from league.selectors import SeatLine, TableLines
from league.services.seating import Draw

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
    rows = {row.player_id: row for row in selectors.event_attendance(event=event)}
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
            return Progress("not_started", "not started")
        rules = games.rules_for(league.game, table.players, league.options)
        of = f" of {len(rules.schedule)}" if isinstance(rules, games.Bluke) else ""
        return Progress("entering", f"entering, hand {table.hands_played + 1}{of}")
    if table.confirmation == Confirmation.NONE:
        return Progress("complete", "complete")
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
            (seat.player, f"table {lines.table.number}")
            for lines in self.tables
            for seat in lines.seats
        ]
        return [*placed, *((player, "sitting out") for player in self.sat_out)]


def event_rounds(*, event: Event, with_links: bool = False) -> list[RoundView]:
    """The event's rounds in order with their tables, seats, progress and
    sit-outs (four queries, those of :func:`league.selectors.event_rounds`),
    and ``with_links`` the tables' working links (one more, for the
    organiser's page); each round is given ``event`` (its league fetched) so
    that the services need not fetch it again."""
    links: dict[int, TableLink] = {}
    if with_links:
        working = TableLink.objects.filter(table__round__event=event, expires_at__gt=timezone.now())
        links = {link.table_id: link for link in working}
    views = []
    for item in selectors.event_rounds(event=event):
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


@dataclass(frozen=True)
class PreviewTable:
    """A table of a preview: its number, players in seat order, first dealer."""

    number: int
    players: list[Player]
    first_dealer: Player


@dataclass(frozen=True)
class Preview:
    """A draw shown before it is stored: the tables, who sits out, and the
    repeat meetings in words: pairs who met earlier tonight (what players
    notice) apart from pairs who met only at earlier game nights."""

    draw: Draw
    tables: list[PreviewTable]
    sit_out: list[Player]
    repeats_tonight: list[str]
    repeats_before: list[str]
    replace: bool

    @property
    def round(self) -> Round:
        return self.draw.round


def preview(draw: Draw, *, rounds: Sequence[RoundView], replace: bool) -> Preview:
    """The draw in names, with its repeats in words: tonight's earlier rounds
    in which a pair met (from ``rounds``, already read) and how often they
    met at earlier game nights. No query."""
    names = draw.players
    tables = [
        PreviewTable(
            number=number,
            players=[names[pk] for pk in drawn.players],
            first_dealer=names[drawn.players[drawn.first_dealer]],
        )
        for number, drawn in enumerate(draw.seating.tables, start=1)
    ]
    met = _meetings_tonight(rounds, before=draw.round.number)
    tonight: list[str] = []
    before: list[str] = []
    for repeat in draw.seating.repeats:
        a, b = repeat.players
        rounds_met = met.get(frozenset((a, b)), [])
        words = _repeat_words(names[a], names[b], rounds_met, repeat)
        (tonight if rounds_met or repeat.tonight else before).append(words)
    return Preview(
        draw=draw,
        tables=tables,
        sit_out=[names[pk] for pk in draw.seating.sit_out],
        repeats_tonight=tonight,
        repeats_before=before,
        replace=replace,
    )


def _meetings_tonight(
    rounds: Sequence[RoundView], *, before: int
) -> dict[frozenset[int], list[int]]:
    """For each pair who shared a table in a round numbered below ``before``,
    the numbers of those rounds."""
    met: dict[frozenset[int], list[int]] = defaultdict(list)
    for view in rounds:
        if view.round.number >= before:
            continue
        for lines in view.tables:
            for a, b in combinations((seat.player.pk for seat in lines.seats), 2):
                met[frozenset((a, b))].append(view.round.number)
    return met


def _repeat_words(a: Player, b: Player, tonight: list[int], repeat: seating.Repeat[int]) -> str:
    """ "Ann and Bob met in round 1, and twice at earlier game nights." """
    parts = []
    if tonight:
        numbers = [str(n) for n in tonight]
        listed = numbers[0] if len(numbers) == 1 else f"{', '.join(numbers[:-1])} and {numbers[-1]}"
        parts.append(f"in round{'s' if len(numbers) > 1 else ''} {listed}")
    elif repeat.tonight:
        parts.append(_times(repeat.tonight) + " earlier tonight")
    if repeat.earlier_events == 1:
        parts.append("once at an earlier game night")
    elif repeat.earlier_events:
        parts.append(f"{_times(repeat.earlier_events)} at earlier game nights")
    return f"{a.name} and {b.name} met {', and '.join(parts)}."


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


METHOD_MEANINGS: Mapping[str, str] = {
    seating.Method.BALANCED: "the fewest repeat meetings (the usual choice)",
    seating.Method.RANDOM: "a fair random draw; repeats are shown but not avoided",
    seating.Method.SWISS: (
        "players sit with those near them in tonight's standing, then the league's"
    ),
    seating.Method.RATING: "players grouped strictly by the league's rating order",
}
"""Each seating method in a line, in the order the draw form offers them."""


# -- the room screen -----------------------------------------------------------------


@dataclass
class LiveLine:
    """A player's night so far: games that count with their wins and places,
    and points counting the running totals of games still being played (or
    awaiting their players' confirmation); in a league with a season format,
    the night's season points from the places of the games that count."""

    player: Player
    games: int = 0
    wins: int = 0
    places: list[int] = field(default_factory=list)
    points: int = 0
    unfinished: int = 0
    season_points: Fraction = Fraction(0)

    @property
    def average_place(self) -> float | None:
        return sum(self.places) / len(self.places) if self.places else None


def live_standings(
    rounds: Sequence[RoundView], *, game: str, season: Mapping[str, Any] | None = None
) -> list[LiveLine]:
    """Everyone seated tonight, in the standings' order with the night's
    points, running totals of unfinished games counted, in place of the
    average (:func:`league.standings.rank_key`); with a season format
    (``season``, the league's), by the night's season points, then the average
    place, then wins, as the season's standings rank a night
    (:func:`league.season.season_key`; head to head aside). No query: the
    rounds are read already."""
    fmt = SeasonFormat.from_json(season) if season is not None else None
    lines: dict[int, LiveLine] = {}
    for view in rounds:
        for table_lines in view.tables:
            table = table_lines.table
            places = Counter(seat.place for seat in table_lines.seats)
            for seat in table_lines.seats:
                line = lines.setdefault(seat.player.pk, LiveLine(player=seat.player))
                _count(line, table, seat)
                if fmt is not None and table.counts and seat.place is not None:
                    line.season_points += fmt.seat_points(
                        size=len(table_lines.seats), place=seat.place, tied=places[seat.place]
                    )
    if fmt is not None:
        return sorted(
            lines.values(),
            key=lambda line: (
                -line.season_points,
                line.average_place is None,
                line.average_place or 0.0,
                -line.wins,
                line.player.name,
                line.player.pk,
            ),
        )
    bluke = game == Game.BLUKE
    return sorted(
        lines.values(),
        key=lambda line: standings.rank_key(
            wins=line.wins,
            average_place=line.average_place,
            points=line.points,  # the night's points, running totals counted
            games=line.games,
            name=line.player.name,
            player_id=line.player.pk,
            bluke=bluke,
        ),
    )


def _count(line: LiveLine, table: Table, seat: SeatLine) -> None:
    # a game awaiting its players' confirmation counts as one still being played
    if table.counts:
        line.games += 1
        line.points += seat.total or 0
        if seat.place is not None:
            line.places.append(seat.place)
            line.wins += seat.place == 1
    elif table.hands_played:
        line.unfinished += 1
        line.points += seat.total or 0


def current_round(rounds: Sequence[RoundView]) -> RoundView | None:
    """The latest round with tables (``None`` before the first draw)."""
    drawn = [view for view in rounds if view.drawn]
    return drawn[-1] if drawn else None


def still_playing(
    rounds: Sequence[RoundView], *, besides: RoundView | None
) -> list[tuple[Round, TableLines]]:
    """Tables of rounds other than ``besides`` whose game is not complete."""
    return [
        (view.round, lines)
        for view in rounds
        if view is not besides
        for lines in view.tables
        if not lines.table.complete
    ]


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


def today(*, day: datetime.date, user: Any) -> list[TodayEvent]:
    """The events on ``day`` with each one's current round's tables, seats in
    order. Four queries (events, rounds, tables, seatings with players), and
    one more for a signed-in user (the clubs they organise)."""
    events = list(events_on(day).filter(access.visible_clubs(user, "league__club")))
    if not events:
        return []
    rounds = (
        Round.objects.filter(event__in=events)
        .prefetch_related(selectors.round_tables_prefetch())
        .order_by("event_id", "number")
    )
    latest: dict[int, tuple[Round, list[TableLines]]] = {}
    for round_ in rounds:
        tables = [TableLines(table=t, seats=selectors.seat_lines(t)) for t in round_.tables.all()]
        if tables:  # ordered by number: the last round with tables wins
            latest[round_.event_id] = (round_, tables)
    organised = _organised_clubs(user)
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


def _organised_clubs(user: Any) -> set[int]:
    """The clubs ``user`` organises (one query; none for an anonymous user)."""
    if not user.is_authenticated:
        return set()
    return set(
        Membership.objects.filter(user=user, role=Membership.Role.ORGANISER).values_list(
            "club_id", flat=True
        )
    )
