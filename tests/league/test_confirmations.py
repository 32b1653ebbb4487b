"""A second player confirms a game entered at its table (issue 27): in a league
whose ``results_confirmation`` is ``player``, a game entered through its table
link counts in standings and ratings only once a player of another seat, or
an organiser, confirms it; a dispute carries a note and the organiser settles
it; a correction after confirmation needs confirming again; results entered by
a signed-in scorekeeper count at once. Each refusal stores nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from league.models import (
    AuditEntry,
    Game,
    JobOwed,
    Rating,
    RatingHistory,
    Seating,
    Standing,
    WebhookDelivery,
)
from league.outbox import JOBS
from league.services.webhook_endpoints import webhook_endpoint_create
from tests.support.api import assert_problem, client_for, etag
from tests.support.factories import UserFactory
from tests.support.records import buck_takes_all
from tests.support.setups import ClubSetup, club_setup
from tests.support.state import db_state

pytestmark = pytest.mark.django_db


def confirming_league(confirmation: str = "player") -> ClubSetup:
    """A Buck Euchre table whose game a maker taking all five tricks ends in one hand."""
    setup = club_setup(game=Game.BUCK_EUCHRE)
    answer = client_for(setup.organiser).patch(
        f"/api/leagues/{setup.league.pk}/", {"results_confirmation": confirmation}
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["results_confirmation"] == confirmation
    return setup


def link_of(setup: ClubSetup) -> APIClient:
    token = client_for(setup.organiser).post(f"/api/tables/{setup.table.pk}/link/").json()["token"]
    client = APIClient()
    client.default_format = "json"
    client.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    return client


def enter_game(client: APIClient, setup: ClubSetup, *, seat: int | None, winner: int = 1) -> Any:
    body: dict[str, Any] = {"number": 0, "record": buck_takes_all(winner)}
    if seat is not None:
        body["seat"] = seat
    answer = client.post(f"/api/tables/{setup.table.pk}/hands/", body)
    assert answer.status_code == 201, answer.content
    return answer.json()


def confirm(client: APIClient, setup: ClubSetup, **body: Any) -> Any:
    return client.post(f"/api/tables/{setup.table.pk}/confirmation/", body)


def sheet(setup: ClubSetup) -> dict[str, Any]:
    return dict(client_for().get(f"/api/tables/{setup.table.pk}/sheet/").json())


def counted(setup: ClubSetup) -> bool:
    """Whether the game counts: its places stored, and, once the standings and
    ratings jobs it owes have run (as they would after the commit), its players
    in the standings and rated."""
    for kind, target in JobOwed.objects.exclude(kind="webhook").values_list("kind", "target_id"):
        JOBS[kind](target)
    places = set(Seating.objects.filter(table=setup.table).values_list("place", flat=True))
    standings = Standing.objects.filter(league=setup.league, event=None, games__gt=0).count()
    rated = RatingHistory.objects.filter(table=setup.table).count()
    if places == {None}:
        assert (standings, rated) == (0, 0), (standings, rated)
        return False
    assert None not in places and standings == 4 and rated == 8, (places, standings, rated)
    return True


# -- the league's setting --------------------------------------------------------------


def test_the_league_resource_takes_and_shows_results_confirmation() -> None:
    setup = club_setup()
    assert client_for().get(f"/api/leagues/{setup.league.pk}/").json()["results_confirmation"] == (
        "none"
    )
    organiser = client_for(setup.organiser)
    made = organiser.post(
        "/api/leagues/",
        {
            "club": setup.club.pk,
            "name": "Checked",
            "game": "bluke",
            "results_confirmation": "player",
        },
    )
    assert made.status_code == 201 and made.json()["results_confirmation"] == "player"
    before = db_state()
    body = assert_problem(
        organiser.patch(f"/api/leagues/{setup.league.pk}/", {"results_confirmation": "twice"}), 400
    )
    assert "results_confirmation" in body["errors"]
    assert db_state() == before


def test_without_confirmation_a_game_entered_by_link_counts_at_once() -> None:
    setup = confirming_league("none")
    answer = enter_game(link_of(setup), setup, seat=0)
    assert answer["table"]["places"] == [2, 1, 2, 2]
    assert counted(setup)
    assert sheet(setup)["confirmation"]["state"] == "none"
    before = db_state()
    body = assert_problem(confirm(link_of(setup), setup, seat=2, agree=True), 409)
    assert body["code"] == "nothing_to_confirm"
    assert db_state() == before


def test_a_scorekeepers_results_count_at_once_in_a_confirming_league() -> None:
    setup = confirming_league()
    enter_game(client_for(setup.scorekeeper), setup, seat=None)
    assert counted(setup)
    assert sheet(setup)["confirmation"]["state"] == "none"


# -- awaiting, confirmed ---------------------------------------------------------------


def test_a_game_entered_by_link_awaits_another_seat_then_counts() -> None:
    setup = confirming_league()
    link = link_of(setup)
    answer = enter_game(link, setup, seat=1)
    assert answer["table"]["status"] == "complete"
    assert answer["table"]["places"] is None  # not counted yet
    shown = sheet(setup)["confirmation"]
    assert shown["state"] == "awaiting" and shown["entered_seat"] == 1
    assert shown["seat"] is None and shown["note"] is None and shown["at"]
    assert not counted(setup)

    before = db_state()
    body = assert_problem(confirm(link, setup, seat=1, agree=True), 409)
    assert (body["code"], body["field"]) == ("own_entry", "seat")
    assert "another seat" in body["detail"]
    assert db_state() == before

    confirmed = confirm(link, setup, seat=3, agree=True)
    assert confirmed.status_code == 200, confirmed.content
    shown = confirmed.json()["confirmation"]
    assert (shown["state"], shown["seat"], shown["entered_seat"]) == ("confirmed", 3, 1)
    assert counted(setup)
    assert [s["place"] for s in confirmed.json()["table"]["seatings"]] == [2, 1, 2, 2]
    entry = AuditEntry.objects.get(action="game.confirmed")
    assert (entry.via, entry.seat, entry.after["state"]) == ("link", 3, "confirmed")


def test_an_organiser_confirms_without_a_seat_a_scorekeeper_may_not() -> None:
    setup = confirming_league()
    enter_game(link_of(setup), setup, seat=0)
    before = db_state()
    assert_problem(confirm(client_for(setup.scorekeeper), setup, agree=True), 403)
    assert_problem(confirm(client_for(UserFactory()), setup, agree=True), 404)
    assert_problem(confirm(client_for(), setup, agree=True), 401)
    organiser = client_for(setup.organiser)
    body = assert_problem(confirm(organiser, setup, seat=2, agree=True), 400)
    assert "seat" in body["errors"]
    body = assert_problem(confirm(organiser, setup, agree=False, note="no"), 400)
    assert "agree" in body["errors"]
    assert db_state() == before
    done = confirm(organiser, setup, agree=True)
    assert done.status_code == 200
    assert done.json()["confirmation"]["seat"] is None
    assert counted(setup)
    entry = AuditEntry.objects.get(action="game.confirmed")
    assert (entry.via, entry.seat, entry.actor_id) == ("api", None, setup.organiser.pk)


def test_a_confirmation_of_a_sheet_that_changed_is_refused() -> None:
    setup = confirming_league()
    link = link_of(setup)
    enter_game(link, setup, seat=0)
    stale = etag(setup.table)
    link.put(
        f"/api/tables/{setup.table.pk}/hands/0/",
        {"record": buck_takes_all(2), "seat": 0},
        HTTP_IF_MATCH=stale,
    )
    before = db_state()
    assert_problem(
        link.post(
            f"/api/tables/{setup.table.pk}/confirmation/",
            {"seat": 1, "agree": True},
            HTTP_IF_MATCH=stale,
        ),
        412,
    )
    assert db_state() == before
    assert (
        link.post(
            f"/api/tables/{setup.table.pk}/confirmation/",
            {"seat": 1, "agree": True},
            HTTP_IF_MATCH=etag(setup.table),
        ).status_code
        == 200
    )


def test_an_unfinished_game_has_nothing_to_confirm() -> None:
    setup = club_setup()
    setup.league.results_confirmation = "player"
    setup.league.save()
    link = link_of(setup)
    before = db_state()
    body = assert_problem(confirm(link, setup, seat=0, agree=True), 409)
    assert body["code"] == "not_complete"
    assert db_state() == before


# -- disputes --------------------------------------------------------------------------


def test_a_dispute_carries_a_note_and_the_organiser_settles_it() -> None:
    setup = confirming_league()
    link = link_of(setup)
    enter_game(link, setup, seat=0)
    before = db_state()
    for note in ("", "   "):
        body = assert_problem(confirm(link, setup, seat=2, agree=False, note=note), 400)
        assert "note" in body["errors"]
    assert (
        "note"
        in assert_problem(confirm(link, setup, seat=2, agree=False, note="x" * 501), 400)["errors"]
    )
    assert db_state() == before

    disputed = confirm(link, setup, seat=2, agree=False, note="Ann made trump, not Bo")
    assert disputed.status_code == 200
    shown = disputed.json()["confirmation"]
    assert (shown["state"], shown["seat"], shown["note"]) == (
        "disputed",
        2,
        "Ann made trump, not Bo",
    )
    assert not counted(setup)
    before = db_state()
    body = assert_problem(confirm(link, setup, seat=3, agree=True), 409)
    assert body["code"] == "disputed"
    assert db_state() == before

    # the organiser corrects the game (it awaits confirmation again), then confirms it
    organiser = client_for(setup.organiser)
    fixed = organiser.put(
        f"/api/tables/{setup.table.pk}/hands/0/",
        {"record": buck_takes_all(0)},
        HTTP_IF_MATCH=etag(setup.table),
    )
    assert fixed.status_code == 200
    assert fixed.json()["confirmation"]["state"] == "awaiting"
    assert fixed.json()["confirmation"]["note"] is None
    assert confirm(organiser, setup, agree=True).status_code == 200
    assert counted(setup)
    assert AuditEntry.objects.get(action="game.disputed").after["note"] == "Ann made trump, not Bo"


def test_a_correction_after_confirmation_needs_confirming_again() -> None:
    setup = confirming_league()
    link = link_of(setup)
    enter_game(link, setup, seat=0)
    assert confirm(link, setup, seat=1, agree=True).status_code == 200
    assert counted(setup)
    fixed = client_for(setup.scorekeeper).put(
        f"/api/tables/{setup.table.pk}/hands/0/",
        {"record": buck_takes_all(3)},
        HTTP_IF_MATCH=etag(setup.table),
    )
    assert fixed.status_code == 200
    shown = fixed.json()["confirmation"]
    assert (shown["state"], shown["entered_seat"]) == ("awaiting", None)
    assert not counted(setup)  # out of the standings and ratings until confirmed again
    assert not Rating.objects.filter(games__gt=0).exists()
    # the scorekeeper's change has no seat: any seat may confirm it now
    assert confirm(link, setup, seat=0, agree=True).status_code == 200
    assert counted(setup)
    assert list(Seating.objects.filter(table=setup.table).values_list("place", flat=True)) == [
        2,
        2,
        2,
        1,
    ]


def test_a_correction_through_the_link_moves_who_may_confirm() -> None:
    setup = confirming_league()
    link = link_of(setup)
    enter_game(link, setup, seat=0)
    link.put(
        f"/api/tables/{setup.table.pk}/hands/0/",
        {"record": buck_takes_all(2), "seat": 2},
        HTTP_IF_MATCH=etag(setup.table),
    )
    assert sheet(setup)["confirmation"]["entered_seat"] == 2
    assert assert_problem(confirm(link, setup, seat=2, agree=True), 409)["code"] == "own_entry"
    assert confirm(link, setup, seat=0, agree=True).status_code == 200


def test_deleting_the_last_hand_of_a_game_awaiting_confirmation_clears_it() -> None:
    setup = confirming_league()
    enter_game(link_of(setup), setup, seat=0)
    deleted = client_for(setup.organiser).delete(
        f"/api/tables/{setup.table.pk}/hands/0/", HTTP_IF_MATCH=etag(setup.table)
    )
    assert deleted.status_code == 200
    assert deleted.json()["confirmation"]["state"] == "none"
    enter_game(client_for(setup.organiser), setup, seat=None)
    assert counted(setup)


# -- webhooks --------------------------------------------------------------------------


def test_webhooks_say_awaiting_then_game_confirmed(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True
    setup = confirming_league()
    webhook_endpoint_create(
        club=setup.club,
        url="http://127.0.0.1:9/hook",
        events=["game.completed", "game.confirmed"],
        by=setup.organiser,
    )
    link = link_of(setup)
    enter_game(link, setup, seat=0)
    completed = WebhookDelivery.objects.get(event="game.completed")
    assert completed.payload["table"]["confirmation"]["state"] == "awaiting"
    assert [p["place"] for p in completed.payload["players"]] == [None] * 4
    assert [p["total"] for p in completed.payload["players"]] == [30, 20, 30, 30]
    assert not WebhookDelivery.objects.filter(event="game.confirmed").exists()
    confirm(link, setup, seat=3, agree=True)
    confirmed = WebhookDelivery.objects.get(event="game.confirmed")
    assert confirmed.payload["table"]["confirmation"]["state"] == "confirmed"
    assert confirmed.payload["table"]["confirmation"]["seat"] == 3
    assert [p["place"] for p in confirmed.payload["players"]] == [2, 1, 2, 2]
    assert confirmed.created_at <= timezone.now()
