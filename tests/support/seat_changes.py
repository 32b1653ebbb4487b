"""Game nights whose round is published, for taking a player off a table:
a club's night with players checked in and round 1's tables made by hand in
a known seating, and what the tables look like once stored."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from league.models import AuditEntry, Event, Game, Player, Round, SitOut, Table
from league.services.attendance import attendance_set
from tests.support.factories import EventFactory, PlayerFactory, make_table
from tests.support.setups import ClubSetup, club_setup


@dataclass
class Night:
    """A club's game night: its organiser's setup, the event, its rounds by
    number, the players checked in (``players[i]``), and round 1's tables
    in order of number."""

    setup: ClubSetup
    event: Event
    rounds: dict[int, Round]
    players: list[Player]
    tables: list[Table]


def seated_night(
    *,
    game: str = Game.BLUKE,
    present: int = 10,
    seats: Sequence[Sequence[int]] = ((0, 1, 2, 3), (4, 5, 6), (7, 8, 9)),
    first_dealers: Sequence[int] = (),
    rounds: int = 3,
    sit_out: Sequence[int] = (),
) -> Night:
    """A new night of a new club's ``game`` league with ``present`` players
    checked in (the club's eight, then new ones) and round 1 published by
    hand: a table of ``players[i]`` for each list in ``seats`` (numbered
    from 1, each dealt first by its seat in ``first_dealers``, else seat 0),
    and ``sit_out`` players sitting it out."""
    setup = club_setup(game=game)
    extra = [PlayerFactory(club=setup.club) for _ in range(max(0, present - 8))]
    players = [*setup.players, *extra][:present]
    event: Event = EventFactory(league=setup.league, rounds=rounds)
    attendance_set(event=event, players=players, by=setup.organiser)
    numbered = {r.number: r for r in event.rounds.all()}
    tables = [
        make_table(
            round=numbered[1],
            players=[players[i] for i in seated],
            number=n,
            first_dealer=first_dealers[n - 1] if n <= len(first_dealers) else 0,
        )
        for n, seated in enumerate(seats, start=1)
    ]
    SitOut.objects.bulk_create(SitOut(round=numbered[1], player=players[i]) for i in sit_out)
    return Night(setup=setup, event=event, rounds=numbered, players=players, tables=tables)


def seats_of(round_: Round) -> dict[int, list[str]]:
    """The round's stored tables: each table's number with its players' names in seat order."""
    shown: dict[int, list[str]] = {}
    for table in Table.objects.filter(round=round_).order_by("number"):
        names = {s.player_id: s.player.name for s in table.seatings.select_related("player")}
        shown[table.number] = [names[pk] for pk in table.seat_players]
    return shown


def sitting_out(round_: Round) -> list[str]:
    """The names of the round's sit-outs, by name."""
    return sorted(SitOut.objects.filter(round=round_).values_list("player__name", flat=True))


def names(players: Sequence[Player]) -> list[str]:
    return [player.name for player in players]


def actions(event: Event) -> list[str]:
    """The audit trail's actions about the event, oldest first."""
    return list(
        AuditEntry.objects.filter(event_id=event.pk).order_by("pk").values_list("action", flat=True)
    )
