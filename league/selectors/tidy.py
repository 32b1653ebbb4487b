"""Page-shaped reads of the organisers' undo pages: what a deletion takes with
it, and what a merge moves (each a fixed number of queries)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, QuerySet

from league.models import Attendance, Event, League, Player, Round, Seating, SitOut, Table


@dataclass(frozen=True)
class RoundTables:
    """A round of a night with its tables (for the night's edit page)."""

    round: Round
    tables: list[Table]

    @property
    def hands(self) -> int:
        return sum(table.hands_played for table in self.tables)


def event_rounds_tables(*, event: Event) -> list[RoundTables]:
    """The night's rounds by number, each with its tables by number and their
    seated players counted (two queries)."""
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    tables: dict[int, list[Table]] = {round_.pk: [] for round_ in rounds}
    for table in Table.objects.filter(round__event=event).order_by("number"):
        tables[table.round_id].append(table)
    return [RoundTables(round=round_, tables=tables[round_.pk]) for round_ in rounds]


def tables_with_hands(tables: QuerySet[Table]) -> list[Table]:
    """Those of ``tables`` with hands entered, by round and number (one query)."""
    return list(
        tables.filter(hands_played__gt=0)
        .select_related("round")
        .order_by("round__number", "number")
    )


def event_attendance_count(*, event: Event) -> int:
    return Attendance.objects.filter(event=event).count()


def table_for_tidy() -> QuerySet[Table]:
    return Table.objects.select_related("round__event__league__club")


def round_for_tidy() -> QuerySet[Round]:
    return Round.objects.select_related("event__league__club")


def event_for_tidy() -> QuerySet[Event]:
    return Event.objects.select_related("league__club")


def player_for_tidy() -> QuerySet[Player]:
    return Player.objects.select_related("club", "user")


@dataclass(frozen=True)
class PlayerHoldings:
    """What a player has that a deletion takes or a merge moves."""

    games: int
    attendance: int
    sit_outs: int


def player_holdings(*, player: Player) -> PlayerHoldings:
    """The player's games, nights attended and sit-outs (three queries)."""
    return PlayerHoldings(
        games=Seating.objects.filter(player=player).count(),
        attendance=Attendance.objects.filter(player=player).count(),
        sit_outs=SitOut.objects.filter(player=player).count(),
    )


def merge_candidates(*, player: Player) -> list[Player]:
    """The club's other players, by name, with their games counted (one query)."""
    return list(
        Player.objects.filter(club_id=player.club_id)
        .exclude(pk=player.pk)
        .annotate(games=Count("seatings"))
        .order_by("name", "pk")
    )


def league_names(league_ids: tuple[int, ...]) -> list[str]:
    """The names of the leagues, by name (one query; none for no ids)."""
    if not league_ids:
        return []
    return list(
        League.objects.filter(pk__in=league_ids).order_by("name").values_list("name", flat=True)
    )
