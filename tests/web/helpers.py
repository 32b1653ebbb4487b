"""Helpers shared by the web pages' tests."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.urls import reverse

from league.models import Table
from tests.league.api_helpers import ClubSetup
from tests.league.factories import PlayerFactory, UserFactory


def sheet_url(table: Table) -> str:
    return reverse("score-sheet", kwargs={"table_id": table.pk})


def names(setup: ClubSetup) -> list[str]:
    """The names of the players at the setup's table, by seat."""
    return [player.name for player in setup.players[:4]]


def member(setup: ClubSetup) -> AbstractUser:
    """A user linked to one of the club's players, with no role in the club."""
    user = UserFactory()
    PlayerFactory(club=setup.club, user=user)
    return user
