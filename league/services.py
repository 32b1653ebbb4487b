"""Every write of the league goes through these functions.

Lock order, for any function that locks more than one row: the table first,
then its seatings (ordered by seat). Results change only through
:func:`hand_submit`, which schedules the standings work when the
transaction commits.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify

import games
from league import ratings, selectors
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
    Table,
)
from league.standings import standings_refresh

__all__ = ["standings_refresh"]  # the standings' write lives in league.standings

NOMINAL_PLAYERS = {Game.BLUKE: 4, Game.BUCK_EUCHRE: 4}
"""The table size a league's options are checked against when it is created;
each table checks them again for its own size."""


class ServiceError(Exception):
    """A request the league refuses; ``field`` names the input at fault."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class Conflict(ServiceError):
    """The request does not fit the current state (answered 409)."""


class PreconditionFailed(ServiceError):
    """The client's version of the table is stale (answered 412)."""


@transaction.atomic
def club_create(*, name: str, slug: str = "") -> Club:
    return Club.objects.create(name=name, slug=slug or slugify(name))


@transaction.atomic
def membership_set(*, club: Club, user: Any, role: str) -> Membership:
    """Give ``user`` a role in ``club``; the club keeps at least one organiser.

    Locks the club row first, so that changes to its roles are serialised.
    """
    Club.objects.select_for_update().get(pk=club.pk)
    current = Membership.objects.filter(club=club, user=user).first()
    if current is not None and current.role == Membership.Role.ORGANISER != role:
        _keep_an_organiser(club)
    membership, _ = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership


def _keep_an_organiser(club: Club) -> None:
    """Refuse to take away the club's last organiser (the club row is locked)."""
    if Membership.objects.filter(club=club, role=Membership.Role.ORGANISER).count() == 1:
        raise Conflict("a club keeps at least one organiser")


@transaction.atomic
def player_create(*, club: Club, name: str, user: Any = None) -> Player:
    if Player.objects.filter(club=club, name=name).exists():
        raise Conflict(f"the club already has a player named {name!r}", field="name")
    _check_player_user(club, user, player=None)
    return Player.objects.create(club=club, name=name, user=user)


def _check_player_user(club: Club, user: Any, *, player: Player | None) -> None:
    if user is None:
        return
    linked = Player.objects.filter(club=club, user=user)
    if player is not None:
        linked = linked.exclude(pk=player.pk)
    if linked.exists():
        raise Conflict("that user is already linked to a player of the club", field="user")


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
def club_update(*, club: Club, name: str | None = None) -> Club:
    if name is not None:
        if Club.objects.filter(name=name).exclude(pk=club.pk).exists():
            raise Conflict(f"a club named {name!r} exists already", field="name")
        club.name = name
        club.save(update_fields=["name"])
    return club


@transaction.atomic
def club_create_by(*, user: Any, name: str, slug: str = "") -> Club:
    """A new club, whose creator becomes its first organiser."""
    slug = slug or slugify(name)
    if Club.objects.filter(Q(name=name) | Q(slug=slug)).exists():
        raise Conflict(f"a club named {name!r} or {slug!r} exists already", field="name")
    club = Club.objects.create(name=name, slug=slug)
    Membership.objects.create(club=club, user=user, role=Membership.Role.ORGANISER)
    return club


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    """Remove a role; locks the club row first, like :func:`membership_set`."""
    Club.objects.select_for_update().get(pk=membership.club_id)
    if membership.role == Membership.Role.ORGANISER:
        _keep_an_organiser(membership.club)
    membership.delete()


@transaction.atomic
def player_update(*, player: Player, name: str | None = None, user: Any = ...) -> Player:
    if name is not None:
        if Player.objects.filter(club=player.club, name=name).exclude(pk=player.pk).exists():
            raise Conflict(f"the club already has a player named {name!r}", field="name")
        player.name = name
    if user is not ...:
        _check_player_user(player.club, user, player=player)
        player.user = user
    player.save()
    return player


@transaction.atomic
def league_update(
    *, league: League, name: str | None = None, options: dict[str, Any] | None = None
) -> League:
    """Rename a league, or change its options while no hand has been played."""
    if name is not None:
        league.name = name
    if options is not None and options != league.options:
        if Hand.objects.filter(table__round__event__league=league).exists():
            raise Conflict("options cannot change once hands are played", field="options")
        sizes = set(
            Table.objects.filter(round__event__league=league).values_list("players", flat=True)
        )
        for players in sizes | {NOMINAL_PLAYERS[Game(league.game)]}:
            _rules(league.game, players, options)
        league.options = options
    league.save()
    return league


@transaction.atomic
def event_update(
    *, event: Event, name: str | None = None, date: datetime.date | None = None
) -> Event:
    if name is not None:
        event.name = name
    if date is not None:
        event.date = date
    event.save()
    return event


@transaction.atomic
def round_create(*, event: Event, number: int) -> Round:
    if number < 1:
        raise ServiceError("rounds are numbered from 1", field="number")
    if event.rounds.filter(number=number).exists():
        raise Conflict(f"the event already has a round {number}", field="number")
    return Round.objects.create(event=event, number=number)


@transaction.atomic
def table_reseat(
    *, table: Table, players: Sequence[Player] | None = None, first_dealer: int | None = None
) -> Table:
    """Change who sits where, or the first dealer, before the first hand."""
    table = (
        Table.objects.select_for_update().select_related("round__event__league").get(pk=table.pk)
    )
    if table.hands_played:
        raise Conflict("seats cannot change once hands are played")
    if players is None:
        players = [s.player for s in table.seatings.select_related("player")]
    first_dealer = table.first_dealer if first_dealer is None else first_dealer
    rules = _check_seating(table.round, players, first_dealer, number=None, table=table)
    table.seatings.all().delete()
    table.players, table.first_dealer = len(players), first_dealer
    table.version += 1
    table.save(update_fields=["players", "first_dealer", "version"])
    _seat(table, players, rules)
    return table


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
    rules = _check_seating(round, players, first_dealer, number=number, table=None)
    table = Table.objects.create(
        round=round,
        number=number,
        game=round.event.league.game,
        players=len(players),
        first_dealer=first_dealer,
    )
    _seat(table, players, rules)
    return table


def _check_seating(
    round: Round,
    players: Sequence[Player],
    first_dealer: int,
    *,
    number: int | None,
    table: Table | None,
) -> games.Bluke | games.BuckEuchre:
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
    if number is not None and round.tables.filter(number=number).exists():
        raise Conflict(f"the round already has a table {number}", field="number")
    seated = Seating.objects.filter(round=round, player__in=players).select_related("player")
    if table is not None:
        seated = seated.exclude(table=table)
    if seated:
        names = ", ".join(sorted(s.player.name for s in seated))
        raise Conflict(f"already at a table in this round: {names}", field="players")
    return rules


def _seat(table: Table, players: Sequence[Player], rules: games.Bluke | games.BuckEuchre) -> None:
    table.totals = games.GameTally(rules, first_dealer=table.first_dealer).totals
    table.seat_players = [player.pk for player in players]
    table.save(update_fields=["totals", "seat_players"])
    Seating.objects.bulk_create(
        Seating(table=table, round_id=table.round_id, seat=seat, player=player)
        for seat, player in enumerate(players)
    )


@dataclass(frozen=True)
class ResultsChange:
    """A table after a change of results, and what the change stored."""

    table: Table
    hands: list[Hand]
    lines: list[list[HandSeat]]
    """Each stored hand's seat lines, in seat order."""
    next_hand: dict[str, int] | None
    """The next hand's number, dealer and cards; ``None`` once complete."""


@transaction.atomic
def hand_submit(
    *, table: Table, record: dict[str, Any], number: int | None = None
) -> ResultsChange:
    """Store the next hand of the table's game.

    A client that says which hand it submits (``number``) is told 409 when
    that hand is already stored, so a submission sent twice counts once.
    """
    return _results_change(table=table, keep=number, records=[record], adding=True)


@transaction.atomic
def hand_correct(
    *, table: Table, number: int, record: dict[str, Any], version: int | None
) -> Table:
    """Replace hand ``number`` and replay every later hand after it."""
    later = list(
        Hand.objects.filter(table=table, number__gt=number)
        .order_by("number")
        .values_list("record", flat=True)
    )
    return _results_change(
        table=table, keep=number, records=[record, *later], version=version, replacing=number
    ).table


@transaction.atomic
def hand_delete_last(*, table: Table, number: int, version: int | None) -> Table:
    """Delete the table's last hand (``number`` must be it)."""
    return _results_change(
        table=table, keep=number, records=[], version=version, deleting=number
    ).table


@transaction.atomic
def game_submit(*, table: Table, record: dict[str, Any]) -> Table:
    """Store a whole game record at a table with no hands yet: all or nothing.

    The record's ``game``, ``players``, ``first_dealer`` and ``options`` may be
    left out; if given they must agree with the table.
    """
    expected = {
        "game": table.game,
        "players": table.players,
        "first_dealer": table.first_dealer,
    }
    for field, value in expected.items():
        if field in record and record[field] != value:
            raise ServiceError(
                f"{field} is {value!r} at this table, not {record[field]!r}", field=field
            )
    if "options" in record and record["options"] != table.round.event.league.options:
        raise ServiceError("options must be the league's options", field="options")
    unknown = set(record) - {*expected, "options", "hands"}
    if unknown:
        raise ServiceError(f"unknown field {min(unknown)!r}", field=min(unknown))
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise ServiceError("hands must be an array of hand records", field="hands")
    return _results_change(table=table, keep=0, records=hands, adding=True).table


def _results_change(
    *,
    table: Table,
    keep: int | None,
    records: Sequence[Any],
    version: int | None = None,
    adding: bool = False,
    replacing: int | None = None,
    deleting: int | None = None,
) -> ResultsChange:
    """The one way results change: keep the table's first ``keep`` hands
    (``None``: all of them), replay ``records`` after them through the
    engine, and store the outcome.

    Locks the table row first (so changes to one table are serialised), then
    writes its hands and seatings. Raises :class:`games.RecordError` (with
    ``hand`` set to the hand's number) when the engine refuses a record,
    :class:`Conflict` or :class:`PreconditionFailed`; nothing is stored then.
    Schedules the league's derived work on commit when a complete game is
    involved. Queries: a constant number, whatever the number of hands.
    """
    table = (
        Table.objects.select_for_update().select_related("round__event__league").get(pk=table.pk)
    )
    if version is not None and version != table.version:
        raise PreconditionFailed(
            f"the score sheet you hold is not this table's current one (version "
            f"{table.version}): reload it"
        )
    league = table.round.event.league
    played = table.hands_played
    if keep is None:
        keep = played
    if adding and keep != played:
        if keep < played:
            raise Conflict(f"hand {keep} is already stored; hand {played} is next", field="number")
        raise Conflict(f"hands arrive in order: hand {played} is next, not {keep}", field="number")
    if replacing is not None and replacing >= played:
        raise Conflict(f"there is no hand {replacing} to correct", field="number")
    if deleting is not None and deleting != played - 1:
        raise Conflict(f"only the last hand ({played - 1}) can be deleted", field="number")
    if adding and table.complete and records:
        raise games.InvalidRecord("game_over", "the game at this table is complete", hand=keep)

    totals = None
    if keep == played:  # appending: the table holds the totals so far
        totals = table.totals
    elif keep:
        totals = list(
            HandSeat.objects.filter(hand__table=table, hand__number=keep - 1)
            .order_by("seat")
            .values_list("total", flat=True)
        )
    tally = games.GameTally(
        _rules(league.game, table.players, league.options),
        first_dealer=table.first_dealer,
        hands_played=keep,
        totals=totals,
    )
    players = table.seat_players
    new_hands: list[Hand] = []
    new_lines: list[list[HandSeat]] = []
    for offset, record in enumerate(records):
        number = keep + offset
        dealer, cards = tally.next_dealer, tally.next_hand_size
        try:
            result = tally.add(record)
        except games.RecordError as error:
            error.hand = number
            raise
        new_hands.append(
            Hand(
                table=table,
                number=number,
                dealer=dealer,
                cards=cards if cards is not None else games.buck_euchre.HAND_SIZE,
                trump=result.trump.value if result.trump is not None else "",
                maker=result.maker,
                drops=list(result.drops),
                takes_all=result.takes_all,
                is_move_log=result.winners is not None,
                record=record,
            )
        )
        bids = record.get("bids") or [None] * table.players
        new_lines.append(
            [
                HandSeat(
                    seat=seat,
                    player_id=players[seat],
                    dropped=seat in result.drops,
                    bid=bids[seat],
                    tricks=result.tricks[seat],
                    points=result.points[seat],
                    total=tally.totals[seat],
                )
                for seat in range(table.players)
            ]
        )

    was_complete = table.complete
    if keep < played:
        Hand.objects.filter(table=table, number__gte=keep).delete()
    # The table lock serialises changes; should two ever race past it, the
    # unique hand number refuses the second (an IntegrityError, answered 409).
    Hand.objects.bulk_create(new_hands)
    for hand, lines in zip(new_hands, new_lines, strict=True):
        for line in lines:
            line.hand = hand
    HandSeat.objects.bulk_create(line for lines in new_lines for line in lines)

    table.complete = tally.complete
    table.hands_played = keep + len(records)
    table.totals = tally.totals
    table.version += 1
    table.save(update_fields=["complete", "hands_played", "totals", "version"])
    if table.complete or was_complete:
        # Final totals and places, which standings and ratings count.
        ranks = tally.ranks()
        seatings = list(table.seatings.all())
        for seating in seatings:
            seating.total = tally.totals[seating.seat] if ranks is not None else None
            seating.place = ranks[seating.seat] if ranks is not None else None
        Seating.objects.bulk_update(seatings, ["total", "place"])
        results_changed(table=table)
    return ResultsChange(
        table=table, hands=new_hands, lines=new_lines, next_hand=selectors.next_hand_of(tally)
    )


def results_changed(*, table: Table) -> None:
    """A complete game changed (or stopped being complete): mark the ratings
    from it on, and schedule the league's standings and ratings jobs for
    when the current transaction commits."""
    from league import tasks

    league_id = table.round.event.league_id
    scopes = ratings.ratings_mark_changed(table=table)

    def dispatch() -> None:
        tasks.league_standings_refresh.delay(league_id)
        for scope in scopes:
            tasks.ratings_refresh.delay(scope.pk)

    transaction.on_commit(dispatch)
