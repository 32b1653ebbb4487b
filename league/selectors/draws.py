"""What drawing a round reads: how far a night's rounds are drawn, who is
present for a round, who met whom (and who sat out) at the league's earlier
rounds, and the players' ranking for a swiss or rating draw."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet

from league.models import Event, Player, Rating, Round, Seating, SitOut, Standing, Table
from league.seating import PastRound


@dataclass(frozen=True)
class DrawState:
    """How far an event's rounds are drawn: ``last_drawn``, the highest round
    number that has tables (0 before the first), and ``next_round``, the
    first round after it (``None`` when every round is drawn)."""

    last_drawn: int
    next_round: int | None


def event_draw_state(*, event: Event) -> DrawState:
    """Which rounds of the event have tables (one query)."""
    rounds = Round.objects.filter(event=event).annotate(
        drawn=Exists(Table.objects.filter(round=OuterRef("pk")))
    )
    return draw_state_of(rounds.values_list("number", "drawn"))


def draw_state_of(rounds: Iterable[tuple[int, bool]]) -> DrawState:
    """The :class:`DrawState` of rounds given as (number, has tables), for a
    caller that has read them already.

    >>> draw_state_of([(1, True), (2, False), (3, False)])
    DrawState(last_drawn=1, next_round=2)
    """
    numbers = list(rounds)
    last_drawn = max((number for number, drawn in numbers if drawn), default=0)
    later = [number for number, _ in numbers if number > last_drawn]
    return DrawState(last_drawn=last_drawn, next_round=min(later, default=None))


def players_present(*, event: Event, round_number: int) -> QuerySet[Player]:
    """The players present for round ``round_number`` of the event: those
    whose attendance runs from that round or before to that round or after."""
    return Player.objects.filter(
        Q(attendance__event=event)
        & Q(attendance__from_round__lte=round_number)
        & (Q(attendance__until_round__isnull=True) | Q(attendance__until_round__gte=round_number))
    ).order_by("name")


SEATING_HISTORY_EVENTS = 20
"""How many of the league's earlier events a draw looks back on: a meeting
further back weighs the least there is, and reading a whole season of a big
league for one round would cost more than it tells."""


def seating_history(*, round: Round) -> list[PastRound[int]]:
    """Who met whom, and who sat out, at the league's rounds before ``round``:
    this event's earlier rounds (``events_ago`` 0) and the last
    :data:`SEATING_HISTORY_EVENTS` events (1 for the last), oldest first.
    Two queries."""
    event = round.event
    earlier = list(
        Event.objects.filter(league_id=event.league_id)
        .filter(Q(date__lt=event.date) | Q(date=event.date, pk__lt=event.pk))
        .order_by("-date", "-pk")
        .values_list("pk", flat=True)[:SEATING_HISTORY_EVENTS]
    )
    events_ago = {event.pk: 0, **{pk: n for n, pk in enumerate(earlier, start=1)}}
    before = Q(round__event_id__in=events_ago) & ~Q(
        round__event_id=event.pk, round__number__gte=round.number
    )
    tables: dict[tuple[int, int], dict[int, list[int]]] = {}
    for event_id, number, table_id, player_id in (
        Seating.objects.filter(before)
        .order_by("table_id", "seat")
        .values_list("round__event_id", "round__number", "table_id", "player_id")
    ):
        tables.setdefault((event_id, number), {}).setdefault(table_id, []).append(player_id)
    sat_out: dict[tuple[int, int], list[int]] = {}
    for event_id, number, player_id in (
        SitOut.objects.filter(before)
        .order_by("player_id")
        .values_list("round__event_id", "round__number", "player_id")
    ):
        sat_out.setdefault((event_id, number), []).append(player_id)
    rounds = sorted(set(tables) | set(sat_out), key=lambda key: (-events_ago[key[0]], key[1]))
    return [
        PastRound(
            tables=tuple(tuple(players) for players in tables.get(key, {}).values()),
            sit_out=tuple(sat_out.get(key, ())),
            events_ago=events_ago[key[0]],
        )
        for key in rounds
    ]


def seating_ranking(*, round: Round, by_rating: bool, players: Sequence[Player]) -> list[int]:
    """The ids of ``players`` best first, for drawing ``swiss`` (tonight's
    standings, then the league's) or ``rating`` (the league's rating
    leaderboard) tables; players in neither come last, by name. One query."""
    league = round.event.league
    if by_rating:
        ranked = list(
            Rating.objects.filter(scope__league=league)
            .order_by("-ordinal", "-mu", "player__name")
            .values_list("player_id", flat=True)
        )
    else:
        rows = Standing.objects.filter(league=league).filter(
            Q(event=round.event) | Q(event__isnull=True)
        )
        ranked = [
            player_id
            for _, _, player_id in sorted(
                rows.values_list("event_id", "rank", "player_id"),
                key=lambda row: (row[0] is None, row[1]),
            )
        ]
    wanted = {player.pk for player in players}
    first = [pk for pk in dict.fromkeys(ranked) if pk in wanted]
    placed = set(first)
    rest = sorted((p for p in players if p.pk not in placed), key=lambda p: (p.name, p.pk))
    return [*first, *(player.pk for player in rest)]
