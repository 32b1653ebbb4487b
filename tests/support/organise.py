"""The organisers' set-up pages: their URLs, what their forms post, and the
five kinds of visitor each page must tell apart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from django.test import Client
from django.urls import reverse

from league.models import Club, Event, League, Player
from tests.support.factories import ClubFactory, PlayerFactory, UserFactory
from tests.support.setups import ClubSetup, member
from tests.support.web import signed_in


def manage_url(club: Club) -> str:
    return reverse("club-manage", kwargs={"club_id": club.pk})


def league_create_url(club: Club) -> str:
    return reverse("league-create", kwargs={"club_id": club.pk})


def league_edit_url(league: League) -> str:
    return reverse("league-edit", kwargs={"league_id": league.pk})


def players_url(club: Club) -> str:
    return reverse("club-players", kwargs={"club_id": club.pk})


def player_edit_url(player: Player) -> str:
    return reverse("player-edit", kwargs={"player_id": player.pk})


def event_create_url(league: League) -> str:
    return reverse("event-create", kwargs={"league_id": league.pk})


def event_edit_url(event: Event) -> str:
    return reverse("event-edit", kwargs={"event_id": event.pk})


def league_post(**changes: str | None) -> dict[str, str]:
    """A Bluke league's form as posted; ``None`` leaves a field out."""
    data: dict[str, str | None] = {
        "name": "Spring Bluke",
        "game": "bluke",
        "bluke_lead": "trump",
        "max_cards": "",
        "table_size": "4",
        "table_spill": "smaller",
        "results_confirmation": "none",
        **changes,
    }
    return {key: value for key, value in data.items() if value is not None}


def event_post(**changes: str | None) -> dict[str, str]:
    """A game night's form as posted; ``None`` leaves a field out."""
    data: dict[str, str | None] = {
        "name": "Club night",
        "date": "2026-10-01",
        "start_time": "19:30",
        "venue": "The Crown",
        "rounds": "3",
        **changes,
    }
    return {key: value for key, value in data.items() if value is not None}


VISITORS: dict[str, Callable[[ClubSetup], Client]] = {
    "scorekeeper": lambda setup: signed_in(setup.scorekeeper),
    "member": lambda setup: signed_in(member(setup)),
    "outsider": lambda setup: _outsider(),
    "anonymous": lambda setup: Client(),
}
"""Everyone but an organiser, by what they are to the club: a scorekeeper
and a member without a role (403), a user of another club (404), nobody
signed in (sent to log in)."""

REFUSED_WITH = {"scorekeeper": 403, "member": 403, "outsider": 404, "anonymous": 302}


def _outsider() -> Client:
    other = ClubFactory()
    user = UserFactory()
    PlayerFactory(club=other, user=user)
    return signed_in(user)


def assert_refused(response: Any, visitor: str, url: str) -> None:
    """The answer a page gives ``visitor``: login (returning to ``url``), 403 or 404."""
    assert response.status_code == REFUSED_WITH[visitor], response.status_code
    if visitor == "anonymous":
        assert response["Location"].startswith(reverse("login"))
        assert f"next={quote(url, safe='/')}" in response["Location"]
    if REFUSED_WITH[visitor] == 403:
        assert "Only organisers can do this" in response.content.decode()
