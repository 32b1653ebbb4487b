"""Who may write what: every write of the API against club B's objects,
tried by users of club A, a stranger, anonymous, B's scorekeeper and B's
organiser. Reads are open to everyone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser

from league.models import Membership
from league.services.attendance import attendance_check_in
from league.services.clubs import membership_set
from league.services.results import hand_submit
from tests.support.api import assert_problem, client_for, etag
from tests.support.factories import UserFactory
from tests.support.records import bluke_results
from tests.support.setups import ClubSetup, club_setup
from tests.support.state import db_state

pytestmark = pytest.mark.django_db


@dataclass
class Call:
    method: str
    url: str
    data: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    ok: int = 200


def _with_a_hand(b: ClubSetup) -> str:
    hand_submit(table=b.table, record=bluke_results(13))
    return etag(b.table)


def _checked_in(b: ClubSetup) -> int:
    """The id of one of the club's players, checked in at the setup's event."""
    attendance_check_in(event=b.event, player=b.players[5], by=b.organiser)
    return b.players[5].pk


def _extra_membership(b: ClubSetup) -> int:
    return membership_set(club=b.club, user=UserFactory(), role=Membership.Role.SCOREKEEPER).pk


def _extra_membership_user(b: ClubSetup) -> int:
    """The login of a new scorekeeper of the club."""
    return Membership.objects.get(pk=_extra_membership(b)).user_id


ORGANISER_WRITES: dict[str, Callable[[ClubSetup], Call]] = {
    "patch_club": lambda b: Call("patch", f"/api/clubs/{b.club.pk}/", {"name": "Taken over"}),
    # a role held changes (a new one is given by an invitation accepted)
    "post_membership": lambda b: Call(
        "post",
        "/api/memberships/",
        {"club": b.club.pk, "user": _extra_membership_user(b), "role": "organiser"},
        ok=201,
    ),
    "delete_membership": lambda b: Call(
        "delete", f"/api/memberships/{_extra_membership(b)}/", ok=204
    ),
    "post_player": lambda b: Call(
        "post", "/api/players/", {"club": b.club.pk, "name": "X"}, ok=201
    ),
    "patch_player": lambda b: Call("patch", f"/api/players/{b.players[0].pk}/", {"name": "Y"}),
    "post_league": lambda b: Call(
        "post", "/api/leagues/", {"club": b.club.pk, "name": "L2", "game": "bluke"}, ok=201
    ),
    "patch_league": lambda b: Call("patch", f"/api/leagues/{b.league.pk}/", {"name": "L3"}),
    "post_event": lambda b: Call(
        "post",
        "/api/events/",
        {"league": b.league.pk, "name": "E", "date": "2026-12-01", "rounds": 2},
        ok=201,
    ),
    "patch_event": lambda b: Call("patch", f"/api/events/{b.event.pk}/", {"name": "E2"}),
    "post_round": lambda b: Call(
        "post", "/api/rounds/", {"event": b.event.pk, "number": 3}, ok=201
    ),
    "post_table": lambda b: Call(
        "post",
        "/api/tables/",
        {"round": b.round.pk, "number": 2, "players": [p.pk for p in b.players[4:]]},
        ok=201,
    ),
    "patch_table": lambda b: Call("patch", f"/api/tables/{b.table.pk}/", {"first_dealer": 2}),
    "put_attendance": lambda b: Call(
        "put", f"/api/events/{b.event.pk}/attendance/", {"players": [b.players[4].pk]}
    ),
    "post_check_in": lambda b: Call(
        "post", f"/api/events/{b.event.pk}/attendance/check-in/", {"player": b.players[4].pk}
    ),
    "post_leave": lambda b: Call(
        "post", f"/api/events/{b.event.pk}/attendance/leave/", {"player": _checked_in(b)}
    ),
    "post_guest": lambda b: Call(
        "post", f"/api/events/{b.event.pk}/attendance/guests/", {"name": "A guest"}, ok=201
    ),
}

RESULTS_WRITES: dict[str, Callable[[ClubSetup], Call]] = {
    "post_hand": lambda b: Call(
        "post",
        f"/api/tables/{b.table.pk}/hands/",
        {"number": 0, "record": bluke_results(13)},
        ok=201,
    ),
    "post_game": lambda b: Call(
        "post",
        f"/api/tables/{b.table.pk}/game/",
        {"record": {"hands": [bluke_results(13)]}},
        ok=201,
    ),
    "put_hand": lambda b: Call(
        "put",
        f"/api/tables/{b.table.pk}/hands/0/",
        {"record": bluke_results(13, winner=2)},
        {"HTTP_IF_MATCH": _with_a_hand(b)},
    ),
    "delete_hand": lambda b: Call(
        "delete", f"/api/tables/{b.table.pk}/hands/0/", headers={"HTTP_IF_MATCH": _with_a_hand(b)}
    ),
}

WRITES = {**ORGANISER_WRITES, **RESULTS_WRITES}


@dataclass
class Clubs:
    a: ClubSetup
    b: ClubSetup
    stranger: AbstractUser


@pytest.fixture
def clubs() -> Clubs:
    return Clubs(a=club_setup(), b=club_setup(), stranger=UserFactory())


def send(user: AbstractUser | None, call: Call) -> Any:
    client = client_for(user)
    kwargs: dict[str, Any] = dict(call.headers)
    if call.data is not None:
        kwargs["data"] = call.data
    return getattr(client, call.method)(call.url, **kwargs)


def refused(user: AbstractUser | None, call: Call, status: int) -> dict[str, Any]:
    before = db_state()
    body = assert_problem(send(user, call), status)
    assert db_state() == before
    return body


@pytest.mark.parametrize("write", list(WRITES))
def test_an_anonymous_write_is_a_401(clubs: Clubs, write: str) -> None:
    call = WRITES[write](clubs.b)
    before = db_state()
    response = send(None, call)
    assert_problem(response, 401)
    assert response["WWW-Authenticate"].startswith("Token")
    assert db_state() == before


@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("who", ["stranger", "organiser_of_a", "scorekeeper_of_a"])
def test_a_user_without_a_role_in_the_club_is_answered_404(
    clubs: Clubs, who: str, write: str
) -> None:
    user = {
        "stranger": clubs.stranger,
        "organiser_of_a": clubs.a.organiser,
        "scorekeeper_of_a": clubs.a.scorekeeper,
    }[who]
    body = refused(user, WRITES[write](clubs.b), 404)
    assert body["type"] == "/api/problems/not-found"


@pytest.mark.parametrize("write", list(ORGANISER_WRITES))
def test_a_scorekeeper_may_not_organise(clubs: Clubs, write: str) -> None:
    body = refused(clubs.b.scorekeeper, ORGANISER_WRITES[write](clubs.b), 403)
    assert body["type"] == "/api/problems/permission-denied"
    assert "organiser" in body["detail"]


@pytest.mark.parametrize("write", list(RESULTS_WRITES))
def test_a_scorekeeper_submits_and_corrects_results(clubs: Clubs, write: str) -> None:
    call = RESULTS_WRITES[write](clubs.b)
    response = send(clubs.b.scorekeeper, call)
    assert response.status_code == call.ok, response.content


@pytest.mark.parametrize("write", list(WRITES))
def test_an_organiser_may_do_everything(clubs: Clubs, write: str) -> None:
    call = WRITES[write](clubs.b)
    response = send(clubs.b.organiser, call)
    assert response.status_code == call.ok, response.content


def test_anyone_reads_everything_but_memberships(clubs: Clubs) -> None:
    b = clubs.b
    hand_submit(table=b.table, record=bluke_results(13))
    membership = Membership.objects.filter(club=b.club).first()
    assert membership is not None
    urls = [
        f"/api/clubs/{b.club.pk}/",
        f"/api/players/{b.players[0].pk}/",
        f"/api/leagues/{b.league.pk}/",
        f"/api/leagues/{b.league.pk}/standings/",
        f"/api/events/{b.event.pk}/",
        f"/api/events/{b.event.pk}/attendance/",
        f"/api/rounds/{b.round.pk}/",
        f"/api/tables/{b.table.pk}/",
        f"/api/tables/{b.table.pk}/sheet/",
    ]
    lists = ["clubs", "memberships", "players", "leagues", "events", "rounds", "tables"]
    for user in (None, clubs.stranger, clubs.a.organiser, b.scorekeeper):
        client = client_for(user)
        for url in urls + [f"/api/{name}/" for name in lists]:
            assert client.get(url).status_code == 200, (user, url)
        # A club's memberships are its members' to read (tests/league/test_hostile_input.py).
        shown = client.get(f"/api/memberships/{membership.pk}/").status_code
        assert shown == (200 if user == b.scorekeeper else 404), user


# -- nobody writes to another club's data --------------------------------------------------


def test_an_organiser_cannot_make_themself_a_member_of_another_club(clubs: Clubs) -> None:
    refused(
        clubs.a.organiser,
        Call(
            "post",
            "/api/memberships/",
            {"club": clubs.b.club.pk, "user": clubs.a.organiser.pk, "role": "organiser"},
        ),
        404,
    )


def test_a_scorekeeper_cannot_promote_themself(clubs: Clubs) -> None:
    b = clubs.b
    refused(
        b.scorekeeper,
        Call(
            "post",
            "/api/memberships/",
            {"club": b.club.pk, "user": b.scorekeeper.pk, "role": "organiser"},
        ),
        403,
    )


def test_a_table_in_another_clubs_round_is_a_404(clubs: Clubs) -> None:
    call = Call(
        "post",
        "/api/tables/",
        {"round": clubs.b.round.pk, "number": 2, "players": [p.pk for p in clubs.a.players[4:]]},
    )
    refused(clubs.a.organiser, call, 404)


def test_another_clubs_players_cannot_sit_at_a_table(clubs: Clubs) -> None:
    a, b = clubs.a, clubs.b
    mixed = [*a.players[4:7], b.players[4]]
    created = refused(
        a.organiser,
        Call(
            "post",
            "/api/tables/",
            {"round": a.round.pk, "number": 2, "players": [p.pk for p in mixed]},
        ),
        400,
    )
    assert "players" in created["errors"]
    reseated = refused(
        a.organiser,
        Call("patch", f"/api/tables/{a.table.pk}/", {"players": [p.pk for p in mixed]}),
        400,
    )
    assert "players" in reseated["errors"]


def test_an_event_or_league_cannot_be_put_in_another_club(clubs: Clubs) -> None:
    a, b = clubs.a, clubs.b
    refused(
        a.organiser,
        Call("post", "/api/events/", {"league": b.league.pk, "name": "E", "date": "2026-12-01"}),
        404,
    )
    refused(
        a.organiser,
        Call("post", "/api/leagues/", {"club": b.club.pk, "name": "L", "game": "buck_euchre"}),
        404,
    )
    refused(a.organiser, Call("post", "/api/rounds/", {"event": b.event.pk, "number": 3}), 404)


def test_results_of_another_clubs_table_are_a_404_even_when_malformed(clubs: Clubs) -> None:
    url = f"/api/tables/{clubs.b.table.pk}"
    for call in (
        Call("post", f"{url}/hands/", {"number": "x"}),
        Call("post", f"{url}/game/", {}),
        Call("put", f"{url}/hands/0/", {}),
        Call("delete", f"{url}/hands/0/"),
    ):
        refused(clubs.a.scorekeeper, call, 404)


def test_writes_to_objects_that_do_not_exist_are_404s(clubs: Clubs) -> None:
    for call in (
        Call("patch", "/api/clubs/999999/", {"name": "N"}),
        Call("patch", "/api/tables/999999/", {"first_dealer": 1}),
        Call("post", "/api/tables/999999/hands/", {"number": 0, "record": {}}),
        Call("delete", "/api/memberships/999999/"),
    ):
        refused(clubs.a.organiser, call, 404)
