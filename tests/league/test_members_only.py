"""Members-only clubs through the API, and a player's erasure and data (issue 28 item 14).

A club whose ``visibility`` is ``members`` is read by its members alone (a role in
it, or a login linked to one of its players): to anyone else its objects are
missing from every list and found by no id (404), as objects that do not exist.
A table's link still reads its own table. An organiser anonymises a player
(games kept) and downloads a player's data."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from league.models import AuditEntry, Player, Seating
from league.services.clubs import club_update
from league.services.links import table_link_create
from league.services.results import hand_submit
from tests.support.api import assert_problem, client_for
from tests.support.factories import UserFactory
from tests.support.records import buck_takes_all
from tests.support.setups import ClubSetup, club_setup, member, player_linked
from tests.support.state import db_state

pytestmark = pytest.mark.django_db


def private_club() -> ClubSetup:
    setup = club_setup(game="buck_euchre")
    hand_submit(table=setup.table, record=buck_takes_all(1))  # a game that counts
    club_update(club=setup.club, visibility="members")
    return setup


def reads(setup: ClubSetup) -> list[str]:
    """Every read of the club's objects the API offers."""
    club, league, event, table = setup.club, setup.league, setup.event, setup.table
    player = setup.players[0]
    return [
        f"/api/clubs/{club.pk}/",
        f"/api/clubs/{club.pk}/ratings/?game=buck_euchre",
        f"/api/players/{player.pk}/",
        f"/api/players/{player.pk}/rating-history/?league={league.pk}",
        f"/api/leagues/{league.pk}/",
        f"/api/leagues/{league.pk}/standings/",
        f"/api/leagues/{league.pk}/ratings/",
        f"/api/events/{event.pk}/",
        f"/api/events/{event.pk}/standings/",
        f"/api/events/{event.pk}/attendance/",
        f"/api/rounds/{setup.round.pk}/",
        f"/api/tables/{table.pk}/",
        f"/api/tables/{table.pk}/sheet/",
    ]


LISTS = [
    "/api/clubs/",
    "/api/players/",
    "/api/leagues/",
    "/api/events/",
    "/api/rounds/",
    "/api/tables/",
]


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_a_members_only_club_does_not_exist_for_anyone_else(who: str) -> None:
    setup = private_club()
    other = club_setup(name="Open club")
    client = client_for(UserFactory() if who == "stranger" else None)
    for url in reads(setup):
        assert_problem(client.get(url), 404)
    for url in LISTS:
        listed = client.get(url).json()["results"]
        assert all(row.get("club") != setup.club.pk for row in listed), url
    clubs = {row["id"] for row in client.get("/api/clubs/").json()["results"]}
    assert clubs == {other.club.pk}
    for url in reads(other):  # a public club reads as before
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("who", ["organiser", "scorekeeper", "player"])
def test_its_members_read_it_all(who: str) -> None:
    setup = private_club()
    user = member(setup) if who == "player" else getattr(setup, who)
    client = client_for(user)
    for url in reads(setup):
        assert client.get(url).status_code == 200, url
    assert setup.club.pk in {row["id"] for row in client.get("/api/clubs/").json()["results"]}


def test_a_tables_link_reads_its_own_table_of_a_members_only_club() -> None:
    setup = private_club()
    token = table_link_create(table=setup.table, by=setup.organiser).token
    client = APIClient(HTTP_AUTHORIZATION=f"Table {token}")
    assert client.get(f"/api/tables/{setup.table.pk}/sheet/").status_code == 200
    assert_problem(client.get(f"/api/leagues/{setup.league.pk}/standings/"), 404)


def test_the_organiser_says_who_sees_the_club() -> None:
    setup = club_setup()
    before = db_state()
    body = assert_problem(
        client_for(setup.organiser).patch(f"/api/clubs/{setup.club.pk}/", {"visibility": "few"}),
        400,
    )
    assert "visibility" in body["errors"]
    assert_problem(
        client_for(setup.scorekeeper).patch(
            f"/api/clubs/{setup.club.pk}/", {"visibility": "members"}
        ),
        403,
    )
    assert db_state() == before
    done = client_for(setup.organiser).patch(
        f"/api/clubs/{setup.club.pk}/", {"visibility": "members"}
    )
    assert done.status_code == 200 and done.json()["visibility"] == "members"
    assert_problem(client_for().get(f"/api/clubs/{setup.club.pk}/"), 404)


# -- erasure and a player's data ------------------------------------------------------


def test_an_organiser_anonymises_a_player_and_their_games_stay() -> None:
    setup = club_setup(game="buck_euchre")
    hand_submit(table=setup.table, record=buck_takes_all(1))
    login = UserFactory()
    player = setup.players[1]
    player_linked(player, login)
    places = list(Seating.objects.filter(table=setup.table).values_list("player_id", "place"))
    before = db_state()
    assert_problem(client_for(setup.scorekeeper).post(f"/api/players/{player.pk}/anonymise/"), 403)
    assert_problem(client_for(UserFactory()).post(f"/api/players/{player.pk}/anonymise/"), 404)
    assert db_state() == before
    done = client_for(setup.organiser).post(f"/api/players/{player.pk}/anonymise/")
    assert done.status_code == 200
    assert done.json()["name"] == f"Former player {player.pk}"
    stored = Player.objects.get(pk=player.pk)
    assert (stored.name, stored.user_id) == (f"Former player {player.pk}", None)
    assert list(Seating.objects.filter(table=setup.table).values_list("player_id", "place")) == (
        places
    )
    entry = AuditEntry.objects.get(action="player.anonymised")
    assert entry.after == {"player": player.pk, "player_name": f"Former player {player.pk}"}
    assert entry.before == {"player": player.pk, "had_login": True}
    # twice changes nothing more
    assert (
        client_for(setup.organiser).post(f"/api/players/{player.pk}/anonymise/").status_code == 200
    )
    assert AuditEntry.objects.filter(action="player.anonymised").count() == 1


def test_an_organiser_downloads_a_players_data() -> None:
    setup = club_setup(game="buck_euchre")
    hand_submit(table=setup.table, record=buck_takes_all(1))
    player = setup.players[1]
    assert_problem(client_for(setup.scorekeeper).get(f"/api/players/{player.pk}/data/"), 403)
    data: dict[str, Any] = client_for(setup.organiser).get(f"/api/players/{player.pk}/data/").json()
    assert data["player"]["name"] == player.name
    assert len(data["games"]) == 1
    game = data["games"][0]
    assert (game["seat"], game["place"], game["total"], game["complete"]) == (1, 1, 20, True)
    assert data["standings"] == [] or data["standings"][0]["league"] == setup.league.name
