"""Fixtures shared by the league tests."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractUser

from tests.support.factories import UserFactory
from tests.support.setups import run_demo_data


@pytest.fixture
def user(db: None) -> AbstractUser:
    """A user with the factories' password."""
    return UserFactory()


@pytest.fixture
def demo_data(db: None) -> str:
    """The demo club, its players, leagues and played games (seed 1); the command's output."""
    return run_demo_data()
