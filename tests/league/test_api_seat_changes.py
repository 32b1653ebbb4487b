"""``POST /api/tables/{id}/remove-player/``: a player taken off a table
before its first hand, previewed then committed; problem+json refusals by
field with nothing stored; who may do it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser

from league.models import Attendance, Game, Table
from league.services.results import hand_submit
from tests.support.api import assert_problem, client_for
from tests.support.factories import PlayerFactory, UserFactory
from tests.support.records import buck_takes_all
from tests.support.seat_changes import Night, seated_night, seats_of
from tests.support.setups import member
from tests.support.state import db_state

pytestmark = pytest.mark.django_db


def post(night: Night, table: int, body: dict[str, Any], user: AbstractUser | None = None) -> Any:
    who = night.setup.organiser if user is None else user
    return client_for(who).post(
        f"/api/tables/{night.tables[table - 1].pk}/remove-player/", body, format="json"
    )


def buck_night() -> Night:
    """Two Buck Euchre tables of four, a ninth player sitting out."""
    return seated_night(
        game=Game.BUCK_EUCHRE, present=9, seats=((0, 1, 2, 3), (4, 5, 6, 7)), sit_out=(8,)
    )


def test_a_preview_answers_the_tables_as_they_would_be_and_stores_nothing() -> None:
    night = buck_night()
    before = db_state()
    player, waiting = night.players[5], night.players[8]

    response = post(night, 2, {"player": player.pk, "replacement": waiting.pk})

    assert response.status_code == 200, response.content
    body = response.json()
    assert db_state() == before
    assert body["committed"] is False
    assert body["table"] == night.tables[1].pk
    assert body["player"] == {"id": player.pk, "name": player.name}
    assert body["replacement"] == {"id": waiting.pk, "name": waiting.name}
    assert body["proposed_replacement"] == {"id": waiting.pk, "name": waiting.name}
    assert body["candidates"] == [{"id": waiting.pk, "name": waiting.name, "where": "sitting_out"}]
    assert (body["outcome"], body["departure"], body["seed"]) == ("replaced", "not_come", None)
    assert [t["changed"] for t in body["tables"]] == [False, True]
    second = body["tables"][1]
    assert second["id"] == night.tables[1].pk
    assert [p["id"] for p in second["players"]] == [night.players[i].pk for i in (4, 8, 6, 7)]
    assert body["sit_out"] == []
    assert body["removed_tables"] == []


def test_a_commit_answers_the_tables_stored() -> None:
    night = buck_night()
    player, waiting = night.players[5], night.players[8]

    response = post(night, 2, {"player": player.pk, "replacement": waiting.pk, "commit": True})

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["committed"] is True
    assert seats_of(night.rounds[1])[2] == [night.players[i].name for i in (4, 8, 6, 7)]
    stored = Table.objects.get(pk=night.tables[1].pk)
    assert body["tables"][1]["players"][1] == {"id": waiting.pk, "name": waiting.name}
    assert stored.version == 1
    assert not Attendance.objects.filter(event=night.event, player=player).exists()


def test_a_round_drawn_again_commits_the_previews_seed() -> None:
    night = seated_night(game=Game.BUCK_EUCHRE, present=8, seats=((0, 1, 2, 3), (4, 5, 6, 7)))
    preview = post(night, 1, {"player": night.players[0].pk}).json()
    assert preview["outcome"] == "round_reseated"

    committed = post(
        night, 1, {"player": night.players[0].pk, "seed": preview["seed"], "commit": True}
    ).json()

    shown = [(t["number"], t["players"], t["first_dealer"]) for t in preview["tables"]]
    assert [(t["number"], t["players"], t["first_dealer"]) for t in committed["tables"]] == shown
    assert committed["sit_out"] == preview["sit_out"]
    assert committed["removed_tables"] == preview["removed_tables"]
    assert len(committed["removed_tables"]) == 1


def test_a_player_who_stays_sits_the_round_out() -> None:
    night = buck_night()
    player = night.players[1]

    body = post(
        night, 1, {"player": player.pk, "replacement": night.players[8].pk, "leaves": False,
                   "commit": True},
    ).json()  # fmt: skip

    assert body["departure"] == "stays"
    assert body["sit_out"] == [{"id": player.pk, "name": player.name}]
    assert Attendance.objects.get(event=night.event, player=player).present


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({}, 400, "player"),
        ({"player": 10**9}, 400, "player"),
        ({"player": "Ada"}, 400, "player"),
        ({"player": "1\x00"}, 400, "player"),
        ({"player": "me", "replacement": 10**9}, 400, "replacement"),
        ({"player": "me", "seed": -1}, 400, "seed"),
        ({"player": "me", "commit": "perhaps"}, 400, "commit"),
        ({"player": "me", "when": "now"}, 400, "when"),
        ({"player": "elsewhere"}, 400, "player"),
        ({"player": "other table"}, 400, "player"),
        ({"player": "me", "replacement": "me"}, 400, "replacement"),
        ({"player": "me", "replacement": "seated"}, 409, "replacement"),
        ({"player": "me", "replacement": "absent"}, 409, "replacement"),
    ],
)
def test_bad_input_is_a_problem_by_field_and_stores_nothing(
    body: dict[str, Any], status: int, field: str
) -> None:
    night = buck_night()
    other = seated_night()
    absent = PlayerFactory(club=night.setup.club)
    named = {
        "me": night.players[1].pk,
        "elsewhere": other.players[0].pk,
        "other table": night.players[5].pk,
        "seated": night.players[4].pk,
        "absent": absent.pk,
    }
    sent = {key: named.get(value, value) if isinstance(value, str) else value
            for key, value in body.items()}  # fmt: skip
    before = db_state()

    problem = assert_problem(post(night, 1, sent), status)

    if status == 400:
        assert field in problem["errors"]
    else:
        assert problem["field"] == field
    assert db_state() == before


def test_a_started_table_and_no_seating_are_conflicts_with_their_codes() -> None:
    night = buck_night()
    hand_submit(table=night.tables[0], record=buck_takes_all(0))
    lone = seated_night(game=Game.BUCK_EUCHRE, present=4, seats=((0, 1, 2, 3),))
    before = db_state()

    started = assert_problem(post(night, 1, {"player": night.players[0].pk}), 409)
    alone = assert_problem(post(lone, 1, {"player": lone.players[0].pk, "commit": True}), 409)

    assert (started["field"], started["code"]) == ("table", "table_started")
    assert (alone["field"], alone["code"]) == ("replacement", "no_seating")
    assert "Buck Euchre table seats four" in alone["detail"]
    assert db_state() == before


@pytest.mark.parametrize(
    ("who", "status"),
    [("scorekeeper", 403), ("member", 403), ("outsider", 404), ("anonymous", 401)],
)
def test_only_the_clubs_organisers_take_a_player_off(who: str, status: int) -> None:
    night = buck_night()
    user = {
        "scorekeeper": night.setup.scorekeeper,
        "member": member(night.setup),
        "outsider": UserFactory(),
        "anonymous": None,
    }[who]
    client = client_for(user)
    before = db_state()

    response = client.post(
        f"/api/tables/{night.tables[0].pk}/remove-player/",
        {"player": night.players[0].pk, "commit": True},
        format="json",
    )

    assert_problem(response, status)
    assert db_state() == before


def test_a_retry_with_the_same_key_is_answered_as_the_first_time() -> None:
    night = buck_night()
    client = client_for(night.setup.organiser)
    url = f"/api/tables/{night.tables[1].pk}/remove-player/"
    body = {"player": night.players[5].pk, "replacement": night.players[8].pk, "commit": True}

    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="take-off-1")
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="take-off-1")

    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
