"""The API's resources: create, read, list and partially update clubs,
memberships, players, leagues, events, rounds and tables; pagination and filters."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser

from league.models import Club, Event, Game, League, Membership, Player, Round, Seating, Table
from league.services.clubs import membership_set, player_update
from league.services.results import hand_submit
from tests.support.api import assert_problem, client_for
from tests.support.factories import (
    ClubFactory,
    EventFactory,
    LeagueFactory,
    PlayerFactory,
    UserFactory,
    make_table,
)
from tests.support.records import bluke_results, buck_takes_all
from tests.support.setups import ClubSetup, club_setup
from tests.support.state import db_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup() -> ClubSetup:
    return club_setup()


def ids(response: Any) -> list[int]:
    assert response.status_code == 200, response.content[:300]
    return [row["id"] for row in response.json()["results"]]


# -- clubs ------------------------------------------------------------------------------


def test_a_signed_in_user_creates_a_club_and_becomes_its_organiser(user: AbstractUser) -> None:
    response = client_for(user).post("/api/clubs/", {"name": "Hilltop Whist"})

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "name", "slug", "visibility", "created_at"}
    assert body["visibility"] == "public"
    assert (body["name"], body["slug"]) == ("Hilltop Whist", "hilltop-whist")
    membership = Membership.objects.get(club_id=body["id"])
    assert (membership.user, membership.role) == (user, Membership.Role.ORGANISER)


def test_a_club_is_read_and_listed_by_anyone(setup: ClubSetup) -> None:
    other = ClubFactory()
    anonymous = client_for()

    detail = anonymous.get(f"/api/clubs/{setup.club.pk}/")
    assert detail.status_code == 200
    assert detail.json()["name"] == setup.club.name
    assert ids(anonymous.get("/api/clubs/")) == [setup.club.pk, other.pk]


def test_a_club_with_a_name_or_slug_taken_is_a_conflict(
    setup: ClubSetup, user: AbstractUser
) -> None:
    client = client_for(user)
    body = assert_problem(client.post("/api/clubs/", {"name": setup.club.name}), 409)
    assert body["field"] == "name"
    assert_problem(client.post("/api/clubs/", {"name": "Else", "slug": setup.club.slug}), 409)
    assert Club.objects.count() == 1


def test_a_club_without_a_name_is_a_400_naming_the_field(user: AbstractUser) -> None:
    body = assert_problem(client_for(user).post("/api/clubs/", {}), 400)
    assert body["type"] == "/api/problems/invalid-input"
    assert "name" in body["errors"]


@pytest.mark.parametrize("path", ["clubs", "leagues"])
def test_a_name_with_nothing_to_make_a_slug_of_needs_a_slug(setup: ClubSetup, path: str) -> None:
    """Found by schemathesis: a name such as ":" made an empty slug, stored
    and answered against the schema."""
    data = (
        {"name": ":"} if path == "clubs" else {"club": setup.club.pk, "name": ":", "game": "bluke"}
    )
    before = db_state()
    body = assert_problem(client_for(setup.organiser).post(f"/api/{path}/", data), 400)
    assert "slug" in body["errors"]
    assert db_state() == before
    named = client_for(setup.organiser).post(f"/api/{path}/", {**data, "slug": "colon"})
    assert named.status_code == 201, named.content
    assert named.json()["slug"] == "colon"


def test_the_organiser_renames_the_club(setup: ClubSetup) -> None:
    response = client_for(setup.organiser).patch(
        f"/api/clubs/{setup.club.pk}/", {"name": "Renamed"}
    )
    assert response.status_code == 200
    assert response.json()["name"] == "Renamed"
    setup.club.refresh_from_db()
    assert (setup.club.name, setup.club.slug) == ("Renamed", setup.club.slug)


def test_renaming_a_club_to_a_name_taken_is_a_conflict_not_a_crash(setup: ClubSetup) -> None:
    other = ClubFactory(name="Taken")
    client = client_for(setup.organiser, crash_as_500=True)
    before = db_state()

    response = client.patch(f"/api/clubs/{setup.club.pk}/", {"name": other.name})

    assert_problem(response, 409)
    assert db_state() == before


# -- memberships -------------------------------------------------------------------------


def test_the_organiser_changes_lists_and_removes_members(setup: ClubSetup) -> None:
    other = club_setup()
    client = client_for(setup.organiser)

    changed = client.post(
        "/api/memberships/",
        {"club": setup.club.pk, "user": setup.scorekeeper.pk, "role": "organiser"},
    )

    assert changed.status_code == 201
    body = changed.json()
    assert {k: v for k, v in body.items() if k != "id"} == {
        "club": setup.club.pk,
        "user": setup.scorekeeper.pk,
        "username": setup.scorekeeper.username,
        "role": "organiser",
    }
    listed = client.get("/api/memberships/", {"club": setup.club.pk}).json()["results"]
    assert {(row["username"], row["role"]) for row in listed} == {
        (setup.organiser.username, "organiser"),
        (setup.scorekeeper.username, "organiser"),
    }
    assert all(row["club"] == setup.club.pk for row in listed)
    assert other.club.memberships.count() == 2

    removed = client.delete(f"/api/memberships/{body['id']}/")

    assert removed.status_code == 204
    assert not Membership.objects.filter(pk=body["id"]).exists()
    assert client_for().get(f"/api/memberships/{body['id']}/").status_code == 404


def test_a_role_for_a_login_outside_the_club_is_refused_alike_whether_it_exists(
    setup: ClubSetup,
) -> None:
    """Issue 28, item 4: an organiser of a club they just made gave any user id
    a role (201, with its username): every login could be listed, and given a
    role it never accepted. Now only a login with a role in the club has its
    role changed; any other id, a login or not, gets the same refusal."""
    stranger, missing = UserFactory(), 10**12
    mine = club_setup()  # a club of one's own
    client = client_for(mine.organiser)
    before = db_state()
    answers = []
    for user_id in (stranger.pk, missing):
        response = client.post(
            "/api/memberships/", {"club": mine.club.pk, "user": user_id, "role": "scorekeeper"}
        )
        body = assert_problem(response, 400)
        assert ("user" in body["errors"], body["code"]) == (True, "invitation-needed")
        assert stranger.username not in response.content.decode()
        answers.append(body)
    assert answers[0] == answers[1]
    assert db_state() == before


def test_a_membership_with_an_unknown_role_is_a_400(setup: ClubSetup) -> None:
    response = client_for(setup.organiser).post(
        "/api/memberships/",
        {"club": setup.club.pk, "user": setup.scorekeeper.pk, "role": "treasurer"},
    )
    assert "role" in assert_problem(response, 400)["errors"]


def test_the_last_organiser_cannot_be_removed(setup: ClubSetup) -> None:
    membership = Membership.objects.get(club=setup.club, user=setup.organiser)
    client = client_for(setup.organiser)

    assert_problem(client.delete(f"/api/memberships/{membership.pk}/"), 409)
    assert Membership.objects.filter(pk=membership.pk).exists()

    second = UserFactory()
    membership_set(club=setup.club, user=second, role=Membership.Role.ORGANISER)
    assert client.delete(f"/api/memberships/{membership.pk}/").status_code == 204
    assert list(
        Membership.objects.filter(club=setup.club, role="organiser").values_list("user", flat=True)
    ) == [second.pk]


def test_the_last_organiser_cannot_be_demoted_either(setup: ClubSetup) -> None:
    """Setting the only organiser's role to scorekeeper would leave the club
    without an organiser, just as removing them would."""
    response = client_for(setup.organiser).post(
        "/api/memberships/",
        {"club": setup.club.pk, "user": setup.organiser.pk, "role": "scorekeeper"},
    )
    assert_problem(response, 409)
    assert Membership.objects.filter(club=setup.club, role="organiser").count() == 1


# -- players --------------------------------------------------------------------------------


def test_the_organiser_creates_reads_and_renames_a_player(setup: ClubSetup) -> None:
    client = client_for(setup.organiser)
    linked = setup.scorekeeper  # a login with a role in the club

    created = client.post(
        "/api/players/", {"club": setup.club.pk, "name": "Ada", "user": linked.pk}
    )

    assert created.status_code == 201
    body = created.json()
    assert {k: v for k, v in body.items() if k != "id"} == {
        "club": setup.club.pk,
        "name": "Ada",
        "user": linked.pk,
        "is_guest": False,
    }
    assert client.get(f"/api/players/{body['id']}/").json() == body
    # Which login a player is is the club's business.
    assert client_for().get(f"/api/players/{body['id']}/").json() == {**body, "user": None}

    renamed = client.patch(f"/api/players/{body['id']}/", {"name": "Ada L.", "user": None})

    assert renamed.status_code == 200
    assert renamed.json() == {**body, "name": "Ada L.", "user": None}
    player = Player.objects.get(pk=body["id"])
    assert (player.name, player.user) == ("Ada L.", None)


def test_a_player_name_taken_in_the_club_is_a_conflict(setup: ClubSetup) -> None:
    client = client_for(setup.organiser)
    taken = setup.players[0].name
    before = db_state()

    created = client.post("/api/players/", {"club": setup.club.pk, "name": taken})
    renamed = client.patch(f"/api/players/{setup.players[1].pk}/", {"name": taken})

    assert assert_problem(created, 409)["field"] == "name"
    assert assert_problem(renamed, 409)["field"] == "name"
    assert db_state() == before
    # another club may have a player of that name
    other = club_setup()
    response = client_for(other.organiser).post(
        "/api/players/", {"club": other.club.pk, "name": taken}
    )
    assert response.status_code == 201


def test_a_user_already_linked_to_a_player_of_the_club_is_refused_not_a_crash(
    setup: ClubSetup,
) -> None:
    linked = setup.scorekeeper
    player_update(player=setup.players[0], user=linked)
    client = client_for(setup.organiser, crash_as_500=True)
    before = db_state()

    created = client.post(
        "/api/players/", {"club": setup.club.pk, "name": "Twin", "user": linked.pk}
    )
    assert created.status_code in (400, 409)
    assert_problem(created, created.status_code)
    updated = client.patch(f"/api/players/{setup.players[1].pk}/", {"user": linked.pk})
    assert updated.status_code in (400, 409)
    assert_problem(updated, updated.status_code)
    assert db_state() == before


def test_a_player_is_linked_to_no_login_outside_the_club_alike_whether_it_exists(
    setup: ClubSetup,
) -> None:
    """Issue 28, item 4: a player could be linked to any user id (and an id
    that is no login was refused differently). Now only a login with a role
    in the club is linked; any other id gets the same refusal."""
    stranger, missing = UserFactory(), 10**12
    client = client_for(setup.organiser)
    before = db_state()
    answers = []
    for user_id in (stranger.pk, missing):
        created = client.post(
            "/api/players/", {"club": setup.club.pk, "name": "Newcomer", "user": user_id}
        )
        updated = client.patch(f"/api/players/{setup.players[1].pk}/", {"user": user_id})
        for response in (created, updated):
            body = assert_problem(response, 400)
            assert ("user" in body["errors"], body["code"]) == (True, "invitation-needed")
        answers.append((created.json(), updated.json()))
    assert answers[0] == answers[1]
    assert db_state() == before


def test_a_player_without_a_club_is_a_400(setup: ClubSetup) -> None:
    body = assert_problem(client_for(setup.organiser).post("/api/players/", {"name": "X"}), 400)
    assert "club" in body["errors"]


def test_players_filter_by_club_and_name(setup: ClubSetup) -> None:
    other = club_setup()
    ada = PlayerFactory(club=setup.club, name="Ada Lovelace")
    PlayerFactory(club=other.club, name="Ada Byron")
    anonymous = client_for()

    assert ids(anonymous.get("/api/players/", {"club": setup.club.pk})) == sorted(
        [p.pk for p in setup.players] + [ada.pk]
    )
    assert ids(anonymous.get("/api/players/", {"club": setup.club.pk, "name": "ada"})) == [ada.pk]
    assert len(ids(anonymous.get("/api/players/", {"name": "ADA"}))) == 2
    assert len(ids(anonymous.get("/api/players/"))) == 18


# -- leagues --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options"),
    [(Game.BLUKE, {"max_cards": 5, "bluke_lead": "free"}), (Game.BUCK_EUCHRE, {})],
)
def test_the_organiser_creates_a_league(
    setup: ClubSetup, game: str, options: dict[str, Any]
) -> None:
    response = client_for(setup.organiser).post(
        "/api/leagues/",
        {"club": setup.club.pk, "name": "Spring Cup", "game": game, "options": options},
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert {k: body[k] for k in ("club", "name", "slug", "game", "options")} == {
        "club": setup.club.pk,
        "name": "Spring Cup",
        "slug": "spring-cup",
        "game": game,
        "options": options,
    }
    assert client_for().get(f"/api/leagues/{body['id']}/").json() == body


@pytest.mark.parametrize(
    ("game", "options", "field"),
    [
        (Game.BLUKE, {"max_cards": 99}, "options"),
        (Game.BLUKE, {"max_cards": "5"}, "options"),
        (Game.BLUKE, {"bluke_lead": "wild"}, "options"),
        (Game.BLUKE, {"colour": "red"}, "options"),
        (Game.BUCK_EUCHRE, {"max_cards": 3}, "options"),
        ("poker", {}, "game"),
    ],
)
def test_league_options_are_checked_by_the_engine(
    setup: ClubSetup, game: str, options: dict[str, Any], field: str
) -> None:
    before = db_state()
    response = client_for(setup.organiser).post(
        "/api/leagues/",
        {"club": setup.club.pk, "name": "Odd", "game": game, "options": options},
    )

    body = assert_problem(response, 400)
    assert body["type"] == "/api/problems/invalid-input"
    assert field in body["errors"]
    assert db_state() == before


def test_a_league_is_renamed_and_its_options_change_until_hands_are_played(
    setup: ClubSetup,
) -> None:
    client = client_for(setup.organiser)
    url = f"/api/leagues/{setup.league.pk}/"

    response = client.patch(url, {"name": "Autumn", "options": {"max_cards": 3}})
    assert response.status_code == 200
    assert (response.json()["name"], response.json()["options"]) == ("Autumn", {"max_cards": 3})
    assert (
        "options" in assert_problem(client.patch(url, {"options": {"max_cards": 0}}), 400)["errors"]
    )

    hand_submit(table=setup.table, record=bluke_results(3))
    refused = client.patch(url, {"options": {"max_cards": 2}})

    assert assert_problem(refused, 409)["field"] == "options"
    setup.league.refresh_from_db()
    assert setup.league.options == {"max_cards": 3}
    # the same options, or a new name, are still fine
    assert client.patch(url, {"options": {"max_cards": 3}, "name": "Late"}).status_code == 200


def test_league_options_that_a_table_of_the_league_cannot_play_are_refused() -> None:
    """The engine checks options for a table's seat count: 13 cards are fine at
    four seats but too many at five, so a league with a five-seat table must
    not take them."""
    setup = club_setup(options={"max_cards": 10})
    five = make_table(round=setup.event.rounds.get(number=2), players=setup.players[:5])
    client = client_for(setup.organiser)

    response = client.patch(f"/api/leagues/{setup.league.pk}/", {"options": {"max_cards": 13}})

    assert "options" in assert_problem(response, 400)["errors"]
    assert client_for().get(f"/api/tables/{five.pk}/sheet/").status_code == 200


def test_leagues_filter_by_club_and_game(setup: ClubSetup) -> None:
    buck = LeagueFactory(club=setup.club, game=Game.BUCK_EUCHRE)
    other = club_setup(game=Game.BUCK_EUCHRE)
    anonymous = client_for()

    assert ids(anonymous.get("/api/leagues/", {"club": setup.club.pk})) == [
        setup.league.pk,
        buck.pk,
    ]
    assert ids(anonymous.get("/api/leagues/", {"game": "buck_euchre"})) == [
        buck.pk,
        other.league.pk,
    ]
    assert ids(anonymous.get("/api/leagues/", {"club": setup.club.pk, "game": "bluke"})) == [
        setup.league.pk
    ]


# -- events and rounds ------------------------------------------------------------------------


def test_the_organiser_creates_an_event_with_its_rounds(setup: ClubSetup) -> None:
    response = client_for(setup.organiser).post(
        "/api/events/",
        {"league": setup.league.pk, "name": "Finals", "date": "2026-10-01", "rounds": 3},
    )

    assert response.status_code == 201
    body = response.json()
    event = Event.objects.get(pk=body["id"])
    assert (body["league"], body["name"], body["date"]) == (
        setup.league.pk,
        "Finals",
        "2026-10-01",
    )
    assert body["rounds"] == [
        {"id": r.pk, "event": event.pk, "number": r.number} for r in event.rounds.all()
    ]
    assert [r["number"] for r in body["rounds"]] == [1, 2, 3]
    assert client_for().get(f"/api/events/{event.pk}/").json() == body


def test_an_event_has_one_round_by_default_and_at_least_one(setup: ClubSetup) -> None:
    client = client_for(setup.organiser)
    data = {"league": setup.league.pk, "name": "Night", "date": "2026-10-01"}

    one = client.post("/api/events/", data)
    assert [r["number"] for r in one.json()["rounds"]] == [1]
    assert (
        "rounds"
        in assert_problem(client.post("/api/events/", {**data, "rounds": 0}), 400)["errors"]
    )
    assert (
        "date"
        in assert_problem(client.post("/api/events/", {**data, "date": "soon"}), 400)["errors"]
    )


def test_an_event_s_date_is_the_client_s_to_give(setup: ClubSetup) -> None:
    """The new-night page dates a night today; the API takes no "today" of its own
    (a program's day may not be the site's time zone's): the date stays required."""
    before = db_state()
    body = assert_problem(
        client_for(setup.organiser).post(
            "/api/events/", {"league": setup.league.pk, "name": "Undated"}
        ),
        400,
    )
    assert list(body["errors"]) == ["date"]
    assert db_state() == before


def test_the_organiser_renames_and_moves_an_event(setup: ClubSetup) -> None:
    response = client_for(setup.organiser).patch(
        f"/api/events/{setup.event.pk}/", {"name": "Moved", "date": "2027-01-02"}
    )
    assert response.status_code == 200
    assert (response.json()["name"], response.json()["date"]) == ("Moved", "2027-01-02")
    assert len(response.json()["rounds"]) == 2
    setup.event.refresh_from_db()
    assert setup.event.date == datetime.date(2027, 1, 2)


def test_events_filter_by_league_club_and_date(setup: ClubSetup) -> None:
    other = club_setup()
    # the factory's dates run on a week an event: far enough into a long run, they
    # would pass the dates below, so the two set-ups' nights are put between them
    Event.objects.filter(pk__in=[setup.event.pk, other.event.pk]).update(
        date=datetime.date(2026, 10, 1)
    )
    late = EventFactory(league=setup.league, date=datetime.date(2030, 5, 1))
    early = EventFactory(league=setup.league, date=datetime.date(2020, 5, 1))
    second_league = LeagueFactory(club=setup.club)
    third = EventFactory(league=second_league, date=datetime.date(2030, 5, 1))
    anonymous = client_for()

    assert ids(anonymous.get("/api/events/", {"league": setup.league.pk})) == sorted(
        [setup.event.pk, late.pk, early.pk]
    )
    assert ids(anonymous.get("/api/events/", {"club": setup.club.pk})) == sorted(
        [setup.event.pk, late.pk, early.pk, third.pk]
    )
    assert other.event.pk in ids(anonymous.get("/api/events/", {"club": other.club.pk}))
    assert ids(anonymous.get("/api/events/", {"date": "2030-05-01"})) == [late.pk, third.pk]
    assert ids(anonymous.get("/api/events/", {"date_after": "2030-05-01"})) == [
        late.pk,
        third.pk,
    ]
    assert ids(anonymous.get("/api/events/", {"date_before": "2020-05-01"})) == [early.pk]
    between = {"date_after": "2020-05-02", "date_before": "2030-04-30"}
    assert set(ids(anonymous.get("/api/events/", between))) == {setup.event.pk, other.event.pk}
    assert_problem(anonymous.get("/api/events/", {"date": "not-a-date"}), 400)


def test_the_organiser_adds_a_round(setup: ClubSetup) -> None:
    client = client_for(setup.organiser)

    response = client.post("/api/rounds/", {"event": setup.event.pk, "number": 3})

    assert response.status_code == 201
    body = response.json()
    assert {k: v for k, v in body.items() if k != "id"} == {"event": setup.event.pk, "number": 3}
    assert client_for().get(f"/api/rounds/{body['id']}/").json() == body
    assert [r["number"] for r in client.get(f"/api/events/{setup.event.pk}/").json()["rounds"]] == [
        1,
        2,
        3,
    ]
    taken = client.post("/api/rounds/", {"event": setup.event.pk, "number": 2})
    assert assert_problem(taken, 409)["field"] == "number"
    zero = client.post("/api/rounds/", {"event": setup.event.pk, "number": 0})
    assert "number" in assert_problem(zero, 400)["errors"]
    assert setup.event.rounds.count() == 3


def test_rounds_cannot_be_patched(setup: ClubSetup) -> None:
    response = client_for(setup.organiser).patch(f"/api/rounds/{setup.round.pk}/", {"number": 9})
    assert_problem(response, 405)


def test_rounds_filter_by_event(setup: ClubSetup) -> None:
    other = EventFactory(league=setup.league, rounds=3)
    anonymous = client_for()
    assert ids(anonymous.get("/api/rounds/", {"event": setup.event.pk})) == list(
        setup.event.rounds.values_list("pk", flat=True)
    )
    assert len(ids(anonymous.get("/api/rounds/", {"event": other.pk}))) == 3
    assert len(ids(anonymous.get("/api/rounds/"))) == 5


# -- tables -------------------------------------------------------------------------------------


def test_the_organiser_creates_a_table_with_players_in_seat_order(setup: ClubSetup) -> None:
    round2 = setup.event.rounds.get(number=2)
    seated = [setup.players[5], setup.players[2], setup.players[7], setup.players[0]]

    response = client_for(setup.organiser).post(
        "/api/tables/",
        {"round": round2.pk, "number": 4, "players": [p.pk for p in seated], "first_dealer": 2},
    )

    assert response.status_code == 201
    body = response.json()
    assert {k: v for k, v in body.items() if k not in ("id", "seatings")} == {
        "round": round2.pk,
        "number": 4,
        "game": "bluke",
        "players": 4,
        "first_dealer": 2,
        "status": "not_started",
        "version": 0,
    }
    assert body["seatings"] == [
        {"seat": seat, "player": p.pk, "player_name": p.name, "total": 0, "place": None}
        for seat, p in enumerate(seated)
    ]
    assert client_for().get(f"/api/tables/{body['id']}/").json() == body


def test_a_buck_euchre_table_starts_everyone_at_25() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    body = client_for().get(f"/api/tables/{setup.table.pk}/").json()
    assert body["game"] == "buck_euchre"
    assert [s["total"] for s in body["seatings"]] == [25, 25, 25, 25]


@pytest.mark.parametrize(
    ("change", "status", "field"),
    [
        ({"players": "three"}, 400, "players"),
        ({"first_dealer": 4}, 400, "first_dealer"),
        ({"players": "taken"}, 409, "players"),
        ({"number": 1}, 409, "number"),
        ({"players": "twice"}, 400, "players"),
    ],
    ids=["seat_count", "first_dealer", "player_seated", "number_taken", "player_twice"],
)
def test_a_table_that_does_not_fit_is_refused(
    change: dict[str, Any], status: int, field: str
) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    players = {
        "three": setup.players[4:7],
        "taken": setup.players[3:7],
        "twice": [*setup.players[4:7], setup.players[4]],
    }
    data = {"round": setup.round.pk, "number": 2, "players": [p.pk for p in setup.players[4:8]]}
    for key, value in change.items():
        data[key] = [p.pk for p in players[value]] if key == "players" else value
    before = db_state()

    body = assert_problem(client_for(setup.organiser).post("/api/tables/", data), status)

    if status == 400:
        assert field in body["errors"]
    else:
        assert body["field"] == field
    assert db_state() == before


def test_a_table_is_reseated_before_its_first_hand_only(setup: ClubSetup) -> None:
    client = client_for(setup.organiser)
    url = f"/api/tables/{setup.table.pk}/"
    new_order = [setup.players[3], setup.players[0], setup.players[6], setup.players[1]]

    response = client.patch(url, {"players": [p.pk for p in new_order], "first_dealer": 3})

    assert response.status_code == 200
    body = response.json()
    assert body["first_dealer"] == 3
    assert [(s["seat"], s["player"]) for s in body["seatings"]] == [
        (seat, p.pk) for seat, p in enumerate(new_order)
    ]
    assert list(setup.table.seatings.values_list("player", flat=True)) == [p.pk for p in new_order]
    assert client.patch(url, {"first_dealer": 1}).json()["first_dealer"] == 1

    hand_submit(table=setup.table, record=bluke_results(13))
    before = db_state()
    refused = client.patch(url, {"players": [p.pk for p in setup.players[:4]]})

    assert_problem(refused, 409)
    assert_problem(client.patch(url, {"first_dealer": 0}), 409)
    assert db_state() == before


def test_tables_filter_by_round_event_league_player_date_and_status() -> None:
    setup = club_setup(options={"max_cards": 1})  # one hand finishes a game
    round2 = setup.event.rounds.get(number=2)
    second = make_table(round=setup.round, players=setup.players[4:8], number=2)
    third = make_table(round=round2, players=setup.players[2:6], number=1)
    later_event = EventFactory(league=setup.league, date=datetime.date(2031, 1, 1))
    fourth = make_table(round=later_event.rounds.get(), players=setup.players[:4])
    other = club_setup(game=Game.BUCK_EUCHRE)
    # the factory's dates run on a week an event: put the set-ups' nights before 2031
    Event.objects.filter(pk=setup.event.pk).update(date=datetime.date(2026, 10, 1))
    Event.objects.filter(pk=other.event.pk).update(date=datetime.date(2026, 10, 8))
    setup.event.refresh_from_db()
    hand_submit(table=second, record=bluke_results(1, winner=2))
    hand_submit(table=other.table, record=buck_takes_all(1))
    anonymous = client_for()

    def table_ids(**params: Any) -> list[int]:
        return ids(anonymous.get("/api/tables/", params))

    assert table_ids(round=setup.round.pk) == [setup.table.pk, second.pk]
    assert table_ids(event=setup.event.pk) == [setup.table.pk, second.pk, third.pk]
    assert table_ids(league=setup.league.pk) == [setup.table.pk, second.pk, third.pk, fourth.pk]
    assert table_ids(player=setup.players[2].pk) == [setup.table.pk, third.pk, fourth.pk]
    assert table_ids(player=setup.players[6].pk) == [second.pk]
    assert table_ids(date=setup.event.date.isoformat()) == [
        setup.table.pk,
        second.pk,
        third.pk,
    ]
    assert table_ids(date="2031-01-01") == [fourth.pk]
    assert table_ids(date_after="2031-01-01", league=setup.league.pk) == [fourth.pk]
    assert table_ids(date_before="2030-12-31", league=setup.league.pk) == [
        setup.table.pk,
        second.pk,
        third.pk,
    ]
    assert table_ids(complete="true") == [second.pk, other.table.pk]
    assert table_ids(complete="false", league=setup.league.pk) == [
        setup.table.pk,
        third.pk,
        fourth.pk,
    ]
    rows = anonymous.get("/api/tables/", {"complete": "true"}).json()["results"]
    assert {row["status"] for row in rows} == {"complete"}
    assert table_ids() == sorted(Table.objects.values_list("pk", flat=True))


# -- pagination -----------------------------------------------------------------------------------


def test_lists_are_paginated_by_cursor(setup: ClubSetup) -> None:
    anonymous = client_for()
    everyone = sorted(Player.objects.values_list("pk", flat=True))
    assert len(everyone) == 8

    first = anonymous.get("/api/players/", {"page_size": 3}).json()
    assert set(first) == {"next", "previous", "results"}
    assert first["previous"] is None
    assert first["next"] is not None
    seen = [row["id"] for row in first["results"]]
    assert len(seen) == 3
    page = first
    pages = 1
    while page["next"]:
        page = anonymous.get(page["next"]).json()
        assert page["previous"] is not None
        assert len(page["results"]) <= 3
        seen += [row["id"] for row in page["results"]]
        pages += 1
    assert (seen, pages) == (everyone, 3)
    back = anonymous.get(page["previous"]).json()
    assert [row["id"] for row in back["results"]] == everyone[3:6]

    whole = anonymous.get("/api/players/").json()
    assert ([row["id"] for row in whole["results"]], whole["next"]) == (everyone, None)


def test_a_page_size_is_capped() -> None:
    club = ClubFactory()
    Player.objects.bulk_create(Player(club=club, name=f"P{n:03}") for n in range(205))
    rows = client_for().get("/api/players/", {"page_size": 1000}).json()
    assert len(rows["results"]) == 200
    assert rows["next"] is not None


def test_a_bad_cursor_is_a_problem_400() -> None:
    body = assert_problem(client_for().get("/api/players/", {"cursor": "a"}), 400)
    assert "cursor" in body["errors"]


def test_every_list_answers_a_page(setup: ClubSetup) -> None:
    counts = {
        "clubs": Club.objects.count(),
        "memberships": Membership.objects.count(),
        "players": Player.objects.count(),
        "leagues": League.objects.count(),
        "events": Event.objects.count(),
        "rounds": Round.objects.count(),
        "tables": Table.objects.count(),
    }
    assert Seating.objects.count() == 4
    for resource, count in counts.items():
        # Memberships are shown to the club's members only (the organiser's one club here).
        body = client_for(setup.organiser).get(f"/api/{resource}/").json()
        assert len(body["results"]) == count, resource
        assert body["next"] is None, resource
