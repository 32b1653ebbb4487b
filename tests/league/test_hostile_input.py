"""Hostile input to the API: every crafted request is a 400 (or a 413 for a
body too large) problem+json saying what is wrong, and nothing is stored.

Also who may read a club's memberships and logins (outsiders learn nothing,
not even whether a user id exists), a replayed ``Idempotency-Key`` after
the caller lost their role, a ``PATCH`` that changes nothing, and fields a
write does not take.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from league.models import IdempotencyKey, Seating, Table
from league.services.accounts import api_token_create
from league.services.attendance import attendance_check_in
from league.services.clubs import membership_remove, membership_set
from league.services.results import hand_submit
from tests.support.api import PROBLEM, assert_problem, client_for
from tests.support.factories import PlayerFactory, UserFactory
from tests.support.records import bluke_results
from tests.support.setups import ClubSetup, club_setup, member
from tests.support.state import db_state

pytestmark = pytest.mark.django_db

DEEP = "[" * 1000 + "]" * 1000
"""JSON nested 1,000 deep: past Python's recursion limit."""


def nested(depth: int) -> Any:
    """A list nested ``depth`` deep (within the recursion limit, past the API's)."""
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


def cursor(querystring: str) -> str:
    """A cursor as DRF encodes one, with ``querystring`` inside."""
    return base64.b64encode(querystring.encode()).decode()


@dataclass
class Hostile:
    """A crafted request: the method, the URL, the raw body, the headers, and
    what the answer's ``detail`` must say."""

    method: str
    url: Callable[[ClubSetup], str]
    body: Callable[[ClubSetup], str] | None = None
    headers: Callable[[ClubSetup], dict[str, str]] = lambda s: {}
    says: str = ""
    status: int = 400


HOSTILE: dict[str, Hostile] = {
    # -- pagination cursors (anonymous reads) --
    "cursor with a position that is not a number": Hostile(
        "get", lambda s: f"/api/players/?cursor={cursor('p=abc')}", says="cursor: not a cursor"
    ),
    "cursor with a position past 64 bits": Hostile(
        "get", lambda s: f"/api/tables/?cursor={cursor('p=' + '9' * 30)}", says="cursor"
    ),
    "cursor with a 5,000-digit position": Hostile(
        "get", lambda s: f"/api/clubs/?cursor={cursor('p=' + '9' * 5000)}", says="cursor"
    ),
    "cursor with a reverse flag of 5,000 digits": Hostile(
        "get", lambda s: f"/api/clubs/?cursor={cursor('r=' + '9' * 5000)}", says="cursor"
    ),
    "cursor that is not ASCII inside": Hostile(
        "get", lambda s: "/api/clubs/?cursor=//4=", says="cursor"
    ),
    # -- JSON nested past any use --
    "a club nested 1,000 deep": Hostile("post", lambda s: "/api/clubs/", lambda s: DEEP),
    "a player nested 1,000 deep": Hostile(
        "post", lambda s: "/api/players/", lambda s: '{"club": ' + DEEP + "}"
    ),
    "a hand record nested 1,000 deep": Hostile(
        "post",
        lambda s: f"/api/tables/{s.table.pk}/hands/",
        lambda s: '{"number": 0, "record": ' + DEEP + "}",
    ),
    "an object nested 1,000 deep": Hostile(
        "post",
        lambda s: f"/api/tables/{s.table.pk}/game/",
        lambda s: '{"a":' * 1000 + "1" + "}" * 1000,
    ),
    "a record nested 40 deep (within Python's limit)": Hostile(
        "post",
        lambda s: f"/api/tables/{s.table.pk}/game/",
        lambda s: json.dumps({"record": {"hands": nested(38)}}),
    ),
    "a table change nested 1,000 deep": Hostile(
        "patch", lambda s: f"/api/tables/{s.table.pk}/", lambda s: DEEP
    ),
    "attendance nested 1,000 deep": Hostile(
        "put", lambda s: f"/api/events/{s.event.pk}/attendance/", lambda s: DEEP
    ),
    "a seating draw nested 1,000 deep": Hostile(
        "post", lambda s: f"/api/rounds/{s.round.pk}/seating/", lambda s: DEEP
    ),
    # -- numbers --
    "a number too large for a float": Hostile(
        "post",
        lambda s: "/api/players/",
        lambda s: '{"club": 1e400, "name": "Inf"}',
        says="too large",
    ),
    "an id of 5,000 digits": Hostile(
        "post",
        lambda s: "/api/players/",
        lambda s: '{"club": ' + "9" * 5000 + ', "name": "Big"}',
        says="JSON parse error",
    ),
    "an id past 64 bits": Hostile(
        "post",
        lambda s: "/api/players/",
        lambda s: json.dumps({"club": 10**30, "name": "Big"}),
    ),
    "a hand number past 64 bits": Hostile(
        "post",
        lambda s: f"/api/tables/{s.table.pk}/hands/",
        lambda s: json.dumps({"number": 10**30, "record": bluke_results(13)}),
    ),
    "a seed past 64 bits": Hostile(
        "post",
        lambda s: f"/api/rounds/{s.round.pk}/seating/",
        lambda s: json.dumps({"seed": 10**30}),
    ),
    "a filter id past 64 bits": Hostile("get", lambda s: f"/api/tables/?player={10**30}"),
    "a filter id that is not a number": Hostile("get", lambda s: "/api/players/?club=abc"),
    "a rating history of a league past 64 bits": Hostile(
        "get", lambda s: f"/api/players/{s.players[0].pk}/rating-history/?league={10**30}"
    ),
    # -- dates --
    "a date that does not exist": Hostile("get", lambda s: "/api/events/?date=2026-02-30"),
    "a year of five digits": Hostile(
        "get", lambda s: f"/api/leagues/{s.league.pk}/standings/?date_after=99999-01-01"
    ),
    "an event on a date that does not exist": Hostile(
        "post",
        lambda s: "/api/events/",
        lambda s: json.dumps({"league": s.league.pk, "name": "Leap", "date": "2026-02-29"}),
    ),
    # -- NUL bytes --
    "a NUL in a name": Hostile(
        "post",
        lambda s: "/api/players/",
        lambda s: json.dumps({"club": s.club.pk, "name": "Ada\u0000"}),
    ),
    "a NUL in a guest's name": Hostile(
        "post",
        lambda s: f"/api/events/{s.event.pk}/attendance/guests/",
        lambda s: json.dumps({"name": "\u0000"}),
    ),
    "a NUL in a filter": Hostile("get", lambda s: "/api/players/?name=a%00b"),
    "a NUL in an Idempotency-Key": Hostile(
        "post",
        lambda s: "/api/players/",
        lambda s: json.dumps({"club": s.club.pk, "name": "Keyed"}),
        lambda s: {"HTTP_IDEMPOTENCY_KEY": "key\u0000"},
        says="Idempotency-Key: printable ASCII",
    ),
    # -- If-Match --
    "an If-Match with a 5,000-digit version": Hostile(
        "put",
        lambda s: f"/api/tables/{s.table.pk}/hands/0/",
        lambda s: json.dumps({"record": bluke_results(13)}),
        lambda s: {"HTTP_IF_MATCH": f'"table-{s.table.pk}-v{"9" * 5000}"'},
        says="If-Match: not an ETag",
    ),
    "an If-Match with a 5,000-digit table": Hostile(
        "delete",
        lambda s: f"/api/tables/{s.table.pk}/hands/0/",
        None,
        lambda s: {"HTTP_IF_MATCH": f'"table-{"9" * 5000}-v1"'},
        says="If-Match",
    ),
    "an If-Match with a version past 64 bits": Hostile(
        "delete",
        lambda s: f"/api/tables/{s.table.pk}/hands/0/",
        None,
        lambda s: {"HTTP_IF_MATCH": f'"table-{s.table.pk}-v{"9" * 30}"'},
        says="If-Match",
    ),
}


def send(client: Any, hostile: Hostile, setup: ClubSetup) -> Any:
    url, headers = hostile.url(setup), hostile.headers(setup)
    if hostile.body is None:
        return getattr(client, hostile.method)(url, **headers)
    return getattr(client, hostile.method)(
        url, hostile.body(setup), content_type="application/json", **headers
    )


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_input_is_a_problem_400_and_stores_nothing(name: str) -> None:
    hostile = HOSTILE[name]
    setup = club_setup()
    if "hands/0/" in hostile.url(setup):
        hand_submit(table=setup.table, record=bluke_results(13))
    user = None if hostile.method == "get" else setup.organiser
    before = (db_state(), IdempotencyKey.objects.count())

    response = send(client_for(user, crash_as_500=True), hostile, setup)

    body = assert_problem(response, hostile.status)
    assert hostile.says in body["detail"], body
    assert (db_state(), IdempotencyKey.objects.count()) == before


def test_a_deep_body_is_refused_with_the_limit_named() -> None:
    setup = club_setup()
    response = client_for(setup.organiser, crash_as_500=True).post(
        "/api/clubs/", DEEP, content_type="application/json"
    )
    body = assert_problem(response, 400)
    assert body["type"] == "/api/problems/parse-error"
    assert "nest at most 32 deep" in body["detail"]


@pytest.mark.parametrize(
    "record",
    [DEEP, json.dumps({"hands": nested(40)}), '{"hands": [1e400]}', "not JSON"],
    ids=["1,000 deep", "40 deep", "a number too large", "not JSON"],
)
@pytest.mark.parametrize("form", ["multipart", "urlencoded"])
def test_a_record_sent_in_a_form_is_held_to_the_same_limits(record: str, form: str) -> None:
    setup = club_setup()
    client = client_for(setup.organiser, crash_as_500=True)
    url = f"/api/tables/{setup.table.pk}/game/"
    before = db_state()
    if form == "multipart":
        response = client.post(url, {"record": record}, format="multipart")
    else:
        encoded = urlencode({"record": record})
        response = client.post(url, encoded, content_type="application/x-www-form-urlencoded")
    body = assert_problem(response, 400)
    assert "record" in body["errors"]
    assert db_state() == before


def test_a_whole_game_of_move_logs_is_within_the_nesting_limit() -> None:
    """The deepest input the API takes (a game of move logs) is well inside the limit."""
    from tests.support.records import bot_logs

    setup = club_setup()
    logs = bot_logs("bluke", first_dealer=0, seed=3)
    response = client_for(setup.organiser).post(
        f"/api/tables/{setup.table.pk}/game/",
        {"record": {"hands": logs}},
        format="json",
    )
    assert response.status_code == 201, response.content[:300]


def test_a_position_a_cursor_gave_still_pages() -> None:
    club = club_setup().club
    for n in range(5):
        PlayerFactory(club=club, name=f"Extra {n}")
    first = client_for().get("/api/players/", {"page_size": 4}).json()
    following = client_for().get(first["next"]).json()
    assert following["results"] and following["results"][0]["id"] > first["results"][-1]["id"]


# -- bodies too large --------------------------------------------------------------


LIMIT = 20_000
"""DATA_UPLOAD_MAX_MEMORY_SIZE in these tests (Django's default is 2.5 MB)."""


def big_name() -> str:
    return "x" * (LIMIT + 1)


@pytest.mark.parametrize("kind", ["json", "form", "multipart", "token"])
def test_a_body_over_the_limit_is_a_problem_413(kind: str, settings: Settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = LIMIT
    setup = club_setup()
    before = db_state()
    client: Any = Client(raise_request_exception=False)
    url = "/api/players/"
    data = {"club": setup.club.pk, "name": big_name()}
    if kind == "token":
        key = api_token_create(user=setup.organiser, name="big").key
        response = client.post(
            url,
            json.dumps(data),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {key}",
        )
    else:
        client.force_login(setup.organiser)
        if kind == "json":
            response = client.post(url, json.dumps(data), content_type="application/json")
        elif kind == "form":
            encoded = f"club={setup.club.pk}&name={big_name()}"
            response = client.post(url, encoded, content_type="application/x-www-form-urlencoded")
        else:
            response = client.post(url, data)  # multipart, as the test client sends a dict

    body = assert_problem(response, 413)
    assert body["type"] == "/api/problems/too-large"
    assert body["max_bytes"] == LIMIT
    assert str(LIMIT) in body["detail"]
    assert db_state() == before


def test_a_body_within_the_limit_is_taken(settings: Settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = LIMIT
    setup = club_setup()
    response = client_for(setup.organiser).post(
        "/api/players/", {"club": setup.club.pk, "name": "Within"}
    )
    assert response.status_code == 201


def test_a_request_refused_before_any_view_is_problem_json_under_the_api() -> None:
    """Django's own 400 (here a Host the site does not serve) is problem+json under /api/."""
    response = Client(raise_request_exception=False).get(
        "/api/clubs/", HTTP_HOST="elsewhere.example"
    )
    body = assert_problem(response, 400)
    assert body["type"] == "/api/problems/bad-request"
    page = Client(raise_request_exception=False).get("/", HTTP_HOST="elsewhere.example")
    assert page.status_code == 400
    assert page["Content-Type"].startswith("text/html")


# -- memberships and logins are the club's business ------------------------------------------


@pytest.fixture
def setup() -> ClubSetup:
    return club_setup()


def test_the_browsable_api_lists_no_user_in_a_form_or_filter(setup: ClubSetup) -> None:
    UserFactory(username="someone-secret")
    stranger = UserFactory()
    for user in (None, stranger, setup.organiser):
        client = Client()
        if user is not None:
            client.force_login(user)
        for url in ("/api/memberships/", "/api/players/", "/api/tables/", "/api/events/"):
            page = client.get(url, HTTP_ACCEPT="text/html").content.decode()
            assert "someone-secret" not in page, (user, url)
            selects = re.findall(r'<select[^>]*name="([^"]+)"', page)
            ids = {"club", "user", "round", "event", "league", "player", "players"}
            assert not ids & set(selects), (user, url, selects)
        filters = Client().get("/api/memberships/", HTTP_ACCEPT="text/html").content.decode()
        assert re.search(r'<input[^>]*type="number"[^>]*name="user"', filters), filters[:0]


def test_outsiders_see_no_membership_whatever_the_user_filter(setup: ClubSetup) -> None:
    stranger = UserFactory()
    missing = setup.organiser.pk + 10_000
    for user in (None, stranger):
        client = client_for(user)
        answers = [
            client.get("/api/memberships/", {"user": user_id}).json()
            for user_id in (setup.organiser.pk, missing)
        ]
        assert answers[0] == answers[1] == {"next": None, "previous": None, "results": []}
        membership = setup.club.memberships.first()
        assert membership is not None
        assert_problem(client.get(f"/api/memberships/{membership.pk}/"), 404)


def test_members_see_their_clubs_memberships_only(setup: ClubSetup) -> None:
    other = club_setup()
    linked = member(setup)  # a player of the club, without a role
    for user in (setup.organiser, setup.scorekeeper, linked):
        rows = client_for(user).get("/api/memberships/").json()["results"]
        assert {row["club"] for row in rows} == {setup.club.pk}, user
        assert {row["username"] for row in rows} == {
            setup.organiser.username,
            setup.scorekeeper.username,
        }
    assert other.club.memberships.count() == 2


def test_a_players_login_is_shown_to_the_clubs_members_only(setup: ClubSetup) -> None:
    linked = member(setup)
    player = setup.club.players.get(user=linked)
    url = f"/api/players/{player.pk}/"
    assert client_for(setup.scorekeeper).get(url).json()["user"] == linked.pk
    assert client_for(linked).get(url).json()["user"] == linked.pk
    for outsider in (None, UserFactory(), club_setup().organiser):
        assert client_for(outsider).get(url).json()["user"] is None
        listed = client_for(outsider).get("/api/players/", {"club": setup.club.pk}).json()
        assert all(row["user"] is None for row in listed["results"])


def test_who_changed_attendance_is_shown_to_the_clubs_members_only(setup: ClubSetup) -> None:
    attendance_check_in(event=setup.event, player=setup.players[0], by=setup.organiser)
    url = f"/api/events/{setup.event.pk}/attendance/"
    [shown] = client_for(setup.scorekeeper).get(url).json()
    assert shown["changed_by"] == setup.organiser.username
    [hidden] = client_for().get(url).json()
    assert hidden == {**shown, "changed_by": None}


@pytest.mark.parametrize("resource", ["memberships", "players"])
def test_an_outsider_cannot_tell_whether_a_user_id_exists(setup: ClubSetup, resource: str) -> None:
    stranger = UserFactory()
    existing, missing = UserFactory().pk, stranger.pk + 10_000
    body = {"memberships": {"role": "scorekeeper"}, "players": {"name": "Probe"}}[resource]
    before = db_state()
    answers = [
        client_for(stranger).post(
            f"/api/{resource}/", {"club": setup.club.pk, "user": user_id, **body}
        )
        for user_id in (existing, missing)
    ]
    assert [answer.status_code for answer in answers] == [404, 404]
    assert answers[0].json() == answers[1].json()
    assert db_state() == before
    # The club's organiser is told which id is wrong.
    refused = client_for(setup.organiser).post(
        f"/api/{resource}/", {"club": setup.club.pk, "user": missing, **body}
    )
    assert "user" in assert_problem(refused, 400)["errors"]


# -- a replay is answered only to whoever may still make the request ----------------------


KEY = "replay-after-removal"


def test_an_organiser_removed_from_the_club_cannot_replay_a_post(setup: ClubSetup) -> None:
    client = client_for(setup.organiser)
    url = f"/api/events/{setup.event.pk}/attendance/check-in/"
    data = {"player": setup.players[0].pk}
    first = client.post(url, data, HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == 200
    membership_set(club=setup.club, user=UserFactory(), role="organiser")  # the club keeps one
    membership_remove(membership=setup.club.memberships.get(user=setup.organiser))
    before = db_state()

    replay = client.post(url, data, HTTP_IDEMPOTENCY_KEY=KEY)

    assert_problem(replay, 404)
    assert "Idempotent-Replayed" not in replay
    assert db_state() == before


def test_a_scorekeeper_removed_cannot_replay_a_hand_and_a_player_gets_403(
    setup: ClubSetup,
) -> None:
    client = client_for(setup.scorekeeper)
    url = f"/api/tables/{setup.table.pk}/hands/"
    data = {"number": 0, "record": bluke_results(13)}
    assert client.post(url, data, HTTP_IDEMPOTENCY_KEY=KEY).status_code == 201
    membership_remove(membership=setup.club.memberships.get(user=setup.scorekeeper))
    before = db_state()

    assert_problem(client.post(url, data, HTTP_IDEMPOTENCY_KEY=KEY), 404)
    # Still one of the club's players, without a role: the 403 of any such member.
    PlayerFactory(club=setup.club, user=setup.scorekeeper)
    assert_problem(client.post(url, data, HTTP_IDEMPOTENCY_KEY=KEY), 403)
    assert db_state() == {**before, "Player": db_state()["Player"]}


def test_a_removed_organiser_cannot_replay_a_create(setup: ClubSetup) -> None:
    client = client_for(setup.organiser)
    data = {"club": setup.club.pk, "name": "Replayed"}
    first = client.post("/api/players/", data, HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == 201
    membership_set(club=setup.club, user=UserFactory(), role="organiser")
    membership_remove(membership=setup.club.memberships.get(user=setup.organiser))

    assert_problem(client.post("/api/players/", data, HTTP_IDEMPOTENCY_KEY=KEY), 404)


def test_a_member_still_allowed_gets_the_replay(setup: ClubSetup) -> None:
    client = client_for(setup.scorekeeper)
    url = f"/api/tables/{setup.table.pk}/hands/"
    data = {"number": 0, "record": bluke_results(13)}
    first = client.post(url, data, HTTP_IDEMPOTENCY_KEY=KEY)
    replay = client.post(url, data, HTTP_IDEMPOTENCY_KEY=KEY)
    assert replay.status_code == 201
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json() == first.json()


# -- a PATCH that changes nothing, and fields a write does not take --------------------------


def seating_rows(table: Table) -> list[tuple[Any, ...]]:
    return list(Seating.objects.filter(table=table).order_by("pk").values_list())


@pytest.mark.parametrize(
    "change",
    [
        {},
        {"first_dealer": 0},
        {"players": "same"},
        {"players": "same", "first_dealer": 0},
    ],
)
def test_a_patch_that_changes_nothing_keeps_the_version_and_seatings(
    setup: ClubSetup, change: dict[str, Any]
) -> None:
    table = setup.table
    if change.get("players") == "same":
        change = {**change, "players": [p.pk for p in setup.players[:4]]}
    version, seated = table.version, seating_rows(table)

    response = client_for(setup.organiser).patch(f"/api/tables/{table.pk}/", change)

    assert response.status_code == 200, response.content
    assert response.json()["version"] == version
    table.refresh_from_db()
    assert (table.version, seating_rows(table)) == (version, seated)


def test_a_patch_that_changes_nothing_is_no_refusal_once_hands_are_played(
    setup: ClubSetup,
) -> None:
    hand_submit(table=setup.table, record=bluke_results(13))
    before = db_state()
    same = {"players": [p.pk for p in setup.players[:4]], "first_dealer": 0}
    response = client_for(setup.organiser).patch(f"/api/tables/{setup.table.pk}/", same)
    assert response.status_code == 200
    assert db_state() == before
    moved = {"players": [p.pk for p in reversed(setup.players[:4])]}
    assert_problem(client_for(setup.organiser).patch(f"/api/tables/{setup.table.pk}/", moved), 409)


def test_a_patch_that_changes_something_still_bumps_the_version(setup: ClubSetup) -> None:
    table = setup.table
    response = client_for(setup.organiser).patch(f"/api/tables/{table.pk}/", {"first_dealer": 2})
    assert response.status_code == 200
    assert response.json()["version"] == table.version + 1


WRITES: dict[str, Callable[[ClubSetup], tuple[str, str, dict[str, Any]]]] = {
    "club": lambda s: ("post", "/api/clubs/", {"name": "New"}),
    "club rename": lambda s: ("patch", f"/api/clubs/{s.club.pk}/", {"name": "Renamed"}),
    "membership": lambda s: (
        "post",
        "/api/memberships/",
        {"club": s.club.pk, "user": UserFactory().pk, "role": "scorekeeper"},
    ),
    "player": lambda s: ("post", "/api/players/", {"club": s.club.pk, "name": "Ada"}),
    "player change": lambda s: ("patch", f"/api/players/{s.players[0].pk}/", {"name": "Bo"}),
    "league": lambda s: (
        "post",
        "/api/leagues/",
        {"club": s.club.pk, "name": "L2", "game": "bluke"},
    ),
    "league change": lambda s: ("patch", f"/api/leagues/{s.league.pk}/", {"name": "L3"}),
    "event": lambda s: (
        "post",
        "/api/events/",
        {"league": s.league.pk, "name": "E2", "date": "2026-12-01"},
    ),
    "event change": lambda s: ("patch", f"/api/events/{s.event.pk}/", {"venue": "Hall"}),
    "round": lambda s: ("post", "/api/rounds/", {"event": s.event.pk, "number": 3}),
    "table": lambda s: (
        "post",
        "/api/tables/",
        {"round": s.round.pk, "number": 2, "players": [p.pk for p in s.players[4:]]},
    ),
    "table change": lambda s: ("patch", f"/api/tables/{s.table.pk}/", {"first_dealer": 1}),
    "hand": lambda s: (
        "post",
        f"/api/tables/{s.table.pk}/hands/",
        {"number": 0, "record": bluke_results(13)},
    ),
    "game": lambda s: (
        "post",
        f"/api/tables/{s.table.pk}/game/",
        {"record": {"hands": [bluke_results(13)]}},
    ),
    "attendance": lambda s: (
        "put",
        f"/api/events/{s.event.pk}/attendance/",
        {"players": [s.players[0].pk]},
    ),
    "check-in": lambda s: (
        "post",
        f"/api/events/{s.event.pk}/attendance/check-in/",
        {"player": s.players[0].pk},
    ),
    "guest": lambda s: ("post", f"/api/events/{s.event.pk}/attendance/guests/", {"name": "G"}),
    "draw": lambda s: ("post", f"/api/rounds/{s.round.pk}/seating/", {"seed": 1}),
    "schedule": lambda s: ("post", f"/api/events/{s.event.pk}/schedule/", {"seed": 1}),
}


@pytest.mark.parametrize("write", list(WRITES))
def test_a_field_a_write_does_not_take_is_a_400_naming_it(write: str, setup: ClubSetup) -> None:
    method, url, data = WRITES[write](setup)
    before = db_state()

    response = getattr(client_for(setup.organiser), method)(
        url, {**data, "colour": "red", "notes": 1}
    )

    body = assert_problem(response, 400)
    assert set(body["errors"]) >= {"colour", "notes"}, body
    assert "unknown fields: colour, notes" in body["detail"]
    assert db_state() == before


def test_unknown_fields_are_named_with_the_other_faults(setup: ClubSetup) -> None:
    response = client_for(setup.organiser).post(
        "/api/players/", {"club": setup.club.pk, "nmae": "Typo"}
    )
    body = assert_problem(response, 400)
    assert set(body["errors"]) == {"name", "nmae"}
    assert "unknown field" in body["errors"]["nmae"][0]


def test_a_nested_write_names_its_unknown_field(setup: ClubSetup) -> None:
    response = client_for(setup.organiser).post(
        f"/api/rounds/{setup.round.pk}/seating/",
        {"pinned": [{"player": setup.players[0].pk, "table": 0, "seat": 2}]},
    )
    body = assert_problem(response, 400)
    assert "seat" in json.dumps(body["errors"])


def test_a_problem_answer_has_the_problem_content_type() -> None:
    response = client_for().get(f"/api/clubs/?cursor={cursor('p=x')}")
    assert response["Content-Type"] == PROBLEM
