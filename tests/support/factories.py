"""Factories for the league's models, built through :mod:`league.services`.

Clubs, players, leagues, events and tables are made by the service
functions, so that every invariant the services keep (seat counts, start
totals, rounds numbered from 1) holds for test data too. Tests that must
bypass the services (the database constraint tests) create rows directly.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.utils.text import slugify
from factory.django import DjangoModelFactory

from league.models import Club, Event, Game, League, Player, Round, Table
from league.services.clubs import club_create, player_create
from league.services.fixtures import event_create, league_create, table_create

PASSWORD = "a-test-password"


class UserFactory(DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda o: f"{o.username}@example.org")
    password = factory.django.Password(PASSWORD)


class ClubFactory(DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.LazyAttribute(lambda o: slugify(o.name))

    @classmethod
    def _create(cls, model_class: type[Club], *args: Any, **kwargs: Any) -> Club:
        return club_create(**kwargs)


class PlayerFactory(DjangoModelFactory):
    """A player made by ``player_create``; with ``user``, linked to that login
    whether or not it holds a role in the club, as the login of a player whose
    role was removed is (the services link a player only to a login with a
    role: a login outside the club accepts an invitation)."""

    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")
    user = None

    @classmethod
    def _create(cls, model_class: type[Player], *args: Any, **kwargs: Any) -> Player:
        user = kwargs.pop("user", None)
        player = player_create(**kwargs)
        if user is not None:
            Player.objects.filter(pk=player.pk).update(user=user)
            player.user = user
        return player


class LeagueFactory(DjangoModelFactory):
    """A Bluke league by default; ``LeagueFactory(game=Game.BUCK_EUCHRE)`` for Buck Euchre."""

    class Meta:
        model = League

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.LazyAttribute(lambda o: slugify(o.name))
    game = Game.BLUKE
    options = factory.LazyFunction(dict)

    @classmethod
    def _create(cls, model_class: type[League], *args: Any, **kwargs: Any) -> League:
        return league_create(**kwargs)


class EventFactory(DjangoModelFactory):
    """An event with ``rounds`` rounds (numbered from 1), made by ``event_create``."""

    class Meta:
        model = Event

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Night {n}")
    date = factory.Sequence(lambda n: datetime.date(2026, 9, 3) + datetime.timedelta(weeks=n))
    rounds = 1

    @classmethod
    def _create(cls, model_class: type[Event], *args: Any, **kwargs: Any) -> Event:
        return event_create(**kwargs)


class TableFactory(DjangoModelFactory):
    """A table with its seatings, made by ``table_create``.

    Without ``round`` a new league of ``game`` (with ``options``) and a new
    one-round event are made; without ``players``, ``seats`` new players of
    the league's club.
    """

    class Meta:
        model = Table

    class Params:
        game = Game.BLUKE
        options = factory.LazyFunction(dict)
        seats = 4

    round = factory.LazyAttribute(
        lambda o: EventFactory(league=LeagueFactory(game=o.game, options=o.options)).rounds.get()
    )
    number = factory.Sequence(lambda n: n + 1)
    players = factory.LazyAttribute(
        lambda o: [PlayerFactory(club=o.round.event.league.club) for _ in range(o.seats)]
    )
    first_dealer = 0

    @classmethod
    def _create(cls, model_class: type[Table], *args: Any, **kwargs: Any) -> Table:
        return table_create(**kwargs)


def make_table(
    *,
    game: str = Game.BLUKE,
    players: int | Sequence[Player] = 4,
    first_dealer: int = 0,
    options: dict[str, Any] | None = None,
    round: Round | None = None,
    number: int | None = None,
) -> Table:
    """A table of ``game`` ready for its first hand.

    ``players`` is a number of new players or the players in seat order;
    ``round`` puts the table in an existing round (its league decides the
    game and options then).
    """
    kwargs: dict[str, Any] = {"first_dealer": first_dealer}
    if round is not None:
        kwargs["round"] = round
    else:
        kwargs["game"] = game
        kwargs["options"] = options or {}
    if isinstance(players, int):
        kwargs["seats"] = players
    else:
        kwargs["players"] = list(players)
    if number is not None:
        kwargs["number"] = number
    return TableFactory(**kwargs)
