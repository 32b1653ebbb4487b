"""Every write of the league goes through these functions.

Lock order, for any function that locks more than one row: the table first,
then its seatings (ordered by seat). Results change only through
:func:`hand_submit`, which schedules the standings work when the
transaction commits.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Avg, Count, Q, Sum
from django.utils import timezone
from django.utils.text import slugify

import games
from league.models import (
    Club,
    Event,
    Game,
    Hand,
    HandSeat,
    League,
    Membership,
    Player,
    Round,
    Seating,
    Standing,
    Table,
)

NOMINAL_PLAYERS = {Game.BLUKE: 4, Game.BUCK_EUCHRE: 4}
"""The table size a league's options are checked against when it is created;
each table checks them again for its own size."""


class ServiceError(Exception):
    """A request the league refuses; ``field`` names the input at fault."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@transaction.atomic
def club_create(*, name: str, slug: str = "") -> Club:
    return Club.objects.create(name=name, slug=slug or slugify(name))


@transaction.atomic
def membership_set(*, club: Club, user: Any, role: str) -> Membership:
    membership, _ = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership


@transaction.atomic
def player_create(*, club: Club, name: str, user: Any = None) -> Player:
    return Player.objects.create(club=club, name=name, user=user)


def _rules(game: str, players: int, options: dict[str, Any]) -> games.Bluke | games.BuckEuchre:
    """The engine's rules; a refusal names the seat count or the options."""
    try:
        games.rules_for(game, players)
    except games.RecordError as error:
        raise ServiceError(error.message, field="players") from None
    try:
        return games.rules_for(game, players, options)
    except games.RecordError as error:
        raise ServiceError(error.message, field="options") from None


@transaction.atomic
def league_create(
    *, club: Club, name: str, game: str, options: dict[str, Any] | None = None, slug: str = ""
) -> League:
    """A league of one game; its rule options are checked by the engine."""
    options = options or {}
    if game not in Game.values:
        raise ServiceError(f"game must be one of {', '.join(Game.values)}", field="game")
    _rules(game, NOMINAL_PLAYERS[Game(game)], options)
    slug = slug or slugify(name)
    if League.objects.filter(club=club, slug=slug).exists():
        raise ServiceError(f"the club already has a league {slug!r}", field="slug")
    return League.objects.create(club=club, name=name, slug=slug, game=game, options=options)


@transaction.atomic
def event_create(*, league: League, name: str, date: datetime.date, rounds: int = 1) -> Event:
    """An event with its rounds numbered from 1."""
    if rounds < 1:
        raise ServiceError("an event has at least one round", field="rounds")
    event = Event.objects.create(league=league, name=name, date=date)
    Round.objects.bulk_create(Round(event=event, number=n) for n in range(1, rounds + 1))
    return event


@transaction.atomic
def table_create(
    *, round: Round, number: int, players: Sequence[Player], first_dealer: int = 0
) -> Table:
    """A table of ``players`` in seat order, ready for its first hand."""
    league = round.event.league
    rules = _rules(league.game, len(players), league.options)
    if not 0 <= first_dealer < len(players):
        raise ServiceError(
            f"first_dealer must be a seat, 0..{len(players) - 1}", field="first_dealer"
        )
    if any(player.club_id != league.club_id for player in players):
        raise ServiceError("every player must belong to the league's club", field="players")
    if len({player.pk for player in players}) != len(players):
        raise ServiceError("a player can sit in one seat only", field="players")
    if round.tables.filter(number=number).exists():
        raise ServiceError(f"the round already has a table {number}", field="number")
    seated = Seating.objects.filter(round=round, player__in=players).select_related("player")
    if seated:
        names = ", ".join(sorted(s.player.name for s in seated))
        raise ServiceError(f"already at a table in this round: {names}", field="players")
    table = Table.objects.create(
        round=round,
        number=number,
        game=league.game,
        players=len(players),
        first_dealer=first_dealer,
    )
    start = games.GameTally(rules, first_dealer=first_dealer).totals
    Seating.objects.bulk_create(
        Seating(table=table, round=round, seat=seat, player=player, total=start[seat])
        for seat, player in enumerate(players)
    )
    return table


@transaction.atomic
def hand_submit(*, table: Table, record: dict[str, Any]) -> Hand:
    """Check the next hand of ``table`` with the engine and store it.

    Locks the table row, so that two submissions of the same hand are
    serialised: the second finds the hand number taken, or the game over.
    Raises :class:`games.RecordError` when the engine refuses the hand;
    nothing is stored then.
    """
    table = (
        Table.objects.select_for_update().select_related("round__event__league").get(pk=table.pk)
    )
    league = table.round.event.league
    seatings = list(table.seatings.order_by("seat"))
    played = table.hands.count()
    tally = games.GameTally(
        _rules(league.game, table.players, league.options),
        first_dealer=table.first_dealer,
        hands_played=played,
        totals=[s.total for s in seatings] if played else None,
    )
    if table.complete:
        raise games.InvalidRecord("game_over", "the game at this table is complete")
    dealer, cards = tally.next_dealer, tally.next_hand_size
    result = tally.add(record)
    hand = Hand.objects.create(
        table=table,
        number=played,
        dealer=dealer,
        cards=cards if cards is not None else 5,
        trump=result.trump.value if result.trump is not None else "",
        maker=result.maker,
        drops=list(result.drops),
        takes_all=result.takes_all,
        is_move_log=result.winners is not None,
        record=record,
    )
    bids = record.get("bids") or [None] * table.players
    HandSeat.objects.bulk_create(
        HandSeat(
            hand=hand,
            seat=seat,
            bid=bids[seat],
            tricks=result.tricks[seat],
            points=result.points[seat],
            total=tally.totals[seat],
        )
        for seat in range(table.players)
    )
    ranks = tally.ranks()
    for seating in seatings:
        seating.total = tally.totals[seating.seat]
        seating.place = ranks[seating.seat] if ranks is not None else None
    Seating.objects.bulk_update(seatings, ["total", "place"])
    table.complete = tally.complete
    table.version += 1
    table.save(update_fields=["complete", "version"])
    if table.complete:  # standings and ratings count complete games only
        results_changed(league_id=league.pk)
    return hand


def results_changed(*, league_id: int) -> None:
    """Schedule the league's derived work once the current transaction commits."""
    from league import tasks

    transaction.on_commit(lambda: tasks.league_standings_refresh.delay(league_id))


@transaction.atomic
def standings_refresh(*, league: League) -> int:
    """Recompute and store a league's standings from its complete games.

    Idempotent: the stored rows are replaced by what the games say now.
    Returns the number of players standing.
    """
    complete = Q(seatings__table__complete=True, seatings__table__round__event__league=league)
    rows = (
        Player.objects.filter(complete)
        .annotate(
            games=Count("seatings", filter=complete),
            wins=Count("seatings", filter=complete & Q(seatings__place=1)),
            total_points=Sum("seatings__total", filter=complete),
            average_place=Avg("seatings__place", filter=complete),
        )
        .values("pk", "games", "wins", "total_points", "average_place")
    )
    now = timezone.now()
    Standing.objects.filter(league=league).delete()
    Standing.objects.bulk_create(
        Standing(
            league=league,
            player_id=row["pk"],
            games=row["games"],
            wins=row["wins"],
            total_points=row["total_points"],
            average_place=row["average_place"],
            computed_at=now,
        )
        for row in rows
    )
    return len(rows)
