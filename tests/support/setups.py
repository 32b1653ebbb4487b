"""A club with everything in it, and the demo data."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.core.management import call_command

from league.models import Club, Event, Game, League, Membership, Player, Round, Table
from league.services.clubs import membership_set
from tests.support.factories import (
    ClubFactory,
    EventFactory,
    LeagueFactory,
    PlayerFactory,
    UserFactory,
    make_table,
)


@dataclass
class ClubSetup:
    """A club with an organiser, a scorekeeper, eight players, a league, a
    two-round event and a table of the first four players in round 1."""

    club: Club
    organiser: AbstractUser
    scorekeeper: AbstractUser
    players: list[Player]
    league: League
    event: Event
    round: Round
    table: Table


def club_setup(
    *, game: str = Game.BLUKE, options: dict[str, Any] | None = None, name: str | None = None
) -> ClubSetup:
    club = ClubFactory(**({"name": name} if name else {}))
    organiser, scorekeeper = UserFactory(), UserFactory()
    membership_set(club=club, user=organiser, role=Membership.Role.ORGANISER)
    membership_set(club=club, user=scorekeeper, role=Membership.Role.SCOREKEEPER)
    players = [PlayerFactory(club=club) for _ in range(8)]
    league = LeagueFactory(club=club, game=game, options=options or {})
    event = EventFactory(league=league, rounds=2)
    round_ = event.rounds.get(number=1)
    table = make_table(round=round_, players=players[:4], number=1)
    return ClubSetup(
        club=club,
        organiser=organiser,
        scorekeeper=scorekeeper,
        players=players,
        league=league,
        event=event,
        round=round_,
        table=table,
    )


def options_stored(league: League, options: dict[str, Any]) -> League:
    """``league`` with ``options`` stored as they are, unchecked: as a league made
    before its options were checked at every table size it seats may hold
    (13 cards, fine at four, too many for the table of 5 a round may draw)."""
    League.objects.filter(pk=league.pk).update(options=options)
    league.refresh_from_db()
    return league


def names(setup: ClubSetup) -> list[str]:
    """The names of the players at the setup's table, by seat."""
    return [player.name for player in setup.players[:4]]


def member(setup: ClubSetup) -> AbstractUser:
    """A user linked to one of the club's players, with no role in the club."""
    user = UserFactory()
    PlayerFactory(club=setup.club, user=user)
    return user


def player_linked(player: Player, user: AbstractUser) -> Player:
    """``player`` linked to ``user``, who holds no role in the club: the services
    link a player only to a login with a role, but such links remain (a role
    removed after the link was made), and a linked login is a member."""
    Player.objects.filter(pk=player.pk).update(user=user)
    player.refresh_from_db()
    return player


def run_demo_data(*args: str) -> str:
    """Run the ``demo_data`` command with ``args``; its output."""
    out = io.StringIO()
    call_command("demo_data", *args, stdout=out)
    return out.getvalue()
