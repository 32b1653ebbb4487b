"""Fixtures shared by the league tests."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.management import call_command

from tests.league.factories import UserFactory


@pytest.fixture
def user(db: None) -> AbstractUser:
    """A user with the factories' password."""
    return UserFactory()


@pytest.fixture
def demo_data(db: None) -> str:
    """The demo club, its players, leagues and played games (seed 1); the command's output."""
    out = io.StringIO()
    call_command("demo_data", stdout=out)
    return out.getvalue()
