"""Table links through the API (issue 27): made by an organiser or scorekeeper,
used with ``Authorization: Table <secret>`` for the link's own table's sheet,
hands, corrections and confirmation, and nothing else; replaced, revoked,
expired, rate-limited; every refusal storing nothing."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from league.models import AuditEntry, Game, Hand, IdempotencyKey, Table, TableLink
from league.services.links import LINK_LIFETIME_AFTER_NIGHT, table_link_create
from tests.support.api import assert_problem, client_for, etag
from tests.support.factories import UserFactory, make_table
from tests.support.records import bluke_results, buck_takes_all
from tests.support.setups import ClubSetup, club_setup, member
from tests.support.state import db_state

pytestmark = pytest.mark.django_db


def link_client(token: str) -> APIClient:
    client = APIClient()
    client.default_format = "json"
    client.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    return client


def make_link(setup: ClubSetup, table: Table | None = None) -> str:
    answer = client_for(setup.scorekeeper).post(f"/api/tables/{(table or setup.table).pk}/link/")
    assert answer.status_code == 201, answer.content
    return str(answer.json()["token"])


def post_hand(
    client: APIClient,
    table: Table,
    number: int,
    record: Any,
    seat: int | None = None,
    **headers: Any,
) -> Any:
    body = {"number": number, "record": record}
    if seat is not None:
        body["seat"] = seat
    return client.post(f"/api/tables/{table.pk}/hands/", body, **headers)


FIRST_BLUKE_HAND = bluke_results(cards=13)  # four seats: the first hand deals thirteen cards


# -- making, replacing, revoking ---------------------------------------------------------


@pytest.mark.parametrize("role", ["organiser", "scorekeeper"])
def test_an_organiser_or_scorekeeper_makes_a_link_shown_once(role: str) -> None:
    setup = club_setup()
    answer = client_for(getattr(setup, role)).post(f"/api/tables/{setup.table.pk}/link/")
    assert answer.status_code == 201
    body = answer.json()
    assert set(body) == {"url", "token", "expires_at"}
    assert len(body["token"]) >= 43  # 32 random bytes, base64: 256 bits
    assert body["url"] == f"http://testserver/t/{body['token']}/"
    stored = TableLink.objects.get(table=setup.table)
    assert stored.digest == TableLink.digest_of(body["token"])
    assert body["token"] not in str(list(TableLink.objects.values()))  # only its digest is kept
    # a day after the night's day ends at midnight, plus the lifetime (12 hours)
    night_ends = datetime.datetime.combine(
        setup.event.date + datetime.timedelta(days=1), datetime.time(), tzinfo=datetime.UTC
    )
    expected = max(night_ends, stored.created_at) + LINK_LIFETIME_AFTER_NIGHT
    assert stored.expires_at == expected
    assert datetime.datetime.fromisoformat(body["expires_at"]) == expected
    entry = AuditEntry.objects.get(action="table_link.made")
    assert (entry.table_id, entry.actor_id) == (setup.table.pk, getattr(setup, role).pk)


def test_the_links_page_opens_without_a_login() -> None:
    setup = club_setup()
    url = client_for(setup.organiser).post(f"/api/tables/{setup.table.pk}/link/").json()["url"]
    page = APIClient().get(url.removeprefix("http://testserver"))
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"]
    assert f"Table {setup.table.number}".encode() in page.content


@pytest.mark.parametrize("who", ["stranger", "member", "anonymous"])
def test_only_the_clubs_organisers_and_scorekeepers_make_or_revoke_links(who: str) -> None:
    setup = club_setup()
    user = {"stranger": UserFactory(), "member": member(setup), "anonymous": None}[who]
    status = {"stranger": 404, "member": 403, "anonymous": 401}[who]
    client = client_for(user)
    before = db_state()
    assert_problem(client.post(f"/api/tables/{setup.table.pk}/link/"), status)
    assert_problem(client.delete(f"/api/tables/{setup.table.pk}/link/"), status)
    assert db_state() == before


def test_a_new_link_replaces_the_old_and_a_revoked_one_stops_at_once() -> None:
    setup = club_setup()
    old = make_link(setup)
    new = make_link(setup)
    assert TableLink.objects.filter(table=setup.table).count() == 1
    sheet = f"/api/tables/{setup.table.pk}/sheet/"
    assert_problem(link_client(old).get(sheet), 401)
    assert link_client(new).get(sheet).status_code == 200
    revoked = client_for(setup.organiser).delete(f"/api/tables/{setup.table.pk}/link/")
    assert revoked.status_code == 204
    assert_problem(link_client(new).get(sheet), 401)
    assert AuditEntry.objects.filter(action="table_link.revoked").count() == 1
    # revoking again is no error, and records nothing more
    assert (
        client_for(setup.organiser).delete(f"/api/tables/{setup.table.pk}/link/").status_code == 204
    )
    assert AuditEntry.objects.filter(action="table_link.revoked").count() == 1


def test_an_expired_or_made_up_link_is_refused_alike_and_stores_nothing() -> None:
    setup = club_setup()
    token = make_link(setup)
    now = timezone.now()
    TableLink.objects.update(
        created_at=now - datetime.timedelta(days=2), expires_at=now - datetime.timedelta(seconds=1)
    )
    before = db_state()
    answers = [
        post_hand(link_client(token), setup.table, 0, FIRST_BLUKE_HAND, seat=0),
        post_hand(link_client("x" * 43), setup.table, 0, FIRST_BLUKE_HAND, seat=0),
        post_hand(link_client("é"), setup.table, 0, FIRST_BLUKE_HAND, seat=0),
    ]
    details = {assert_problem(answer, 401)["detail"] for answer in answers}
    assert len(details) == 1  # nothing tells an expired link from one that never was
    assert all(answer["WWW-Authenticate"] for answer in answers)
    spaced = APIClient(HTTP_AUTHORIZATION=f"Table {token} more")
    assert_problem(spaced.get(f"/api/tables/{setup.table.pk}/sheet/"), 401)
    assert db_state() == before


# -- what a link may do --------------------------------------------------------------------


def test_a_link_reads_enters_and_corrects_its_table_as_a_seat() -> None:
    setup = club_setup()
    client = link_client(make_link(setup))
    sheet = client.get(f"/api/tables/{setup.table.pk}/sheet/")
    assert sheet.status_code == 200
    assert sheet.json()["confirmation"] == {
        "state": "none",
        "seat": None,
        "at": None,
        "note": None,
        "entered_seat": None,
    }
    entered = post_hand(client, setup.table, 0, FIRST_BLUKE_HAND, seat=2)
    assert entered.status_code == 201, entered.content
    corrected = client.put(
        f"/api/tables/{setup.table.pk}/hands/0/",
        {"record": bluke_results(cards=13, winner=1), "seat": 3},
        HTTP_IF_MATCH=etag(setup.table),
    )
    assert corrected.status_code == 200, corrected.content
    assert corrected.json()["confirmation"]["entered_seat"] == 3
    entries = AuditEntry.objects.filter(table_id=setup.table.pk, action__startswith="hand.")
    submitted, fixed = entries.order_by("id")
    assert (submitted.action, submitted.via, submitted.seat, submitted.actor_id) == (
        "hand.submitted",
        "link",
        2,
        None,
    )
    assert (fixed.action, fixed.via, fixed.seat) == ("hand.corrected", "link", 3)
    history = client_for(setup.organiser).get(f"/api/tables/{setup.table.pk}/history/").json()
    assert [(e["via"], e["seat"]) for e in history["results"]][:2] == [("link", 3), ("link", 2)]


def test_a_link_request_says_its_seat_and_a_users_does_not() -> None:
    setup = club_setup()
    client = link_client(make_link(setup))
    before = db_state()
    body = assert_problem(post_hand(client, setup.table, 0, FIRST_BLUKE_HAND), 400)
    assert "seat" in body["errors"]
    body = assert_problem(post_hand(client, setup.table, 0, FIRST_BLUKE_HAND, seat=4), 400)
    assert body["errors"] == {"seat": [body["detail"]]}  # four seats: 0 to 3
    signed_in = client_for(setup.scorekeeper)
    body = assert_problem(post_hand(signed_in, setup.table, 0, FIRST_BLUKE_HAND, seat=1), 400)
    assert "seat" in body["errors"]
    assert db_state() == before


def test_a_link_opens_its_own_table_and_nothing_else() -> None:
    setup = club_setup()
    other = make_table(round=setup.round, players=setup.players[4:], number=2)
    client = link_client(make_link(setup))
    before = db_state()
    assert_problem(post_hand(client, other, 0, FIRST_BLUKE_HAND, seat=0), 404)
    assert_problem(
        client.put(
            f"/api/tables/{other.pk}/hands/0/",
            {"record": FIRST_BLUKE_HAND, "seat": 0},
            HTTP_IF_MATCH=etag(other),
        ),
        404,
    )
    assert_problem(
        client.post(f"/api/tables/{other.pk}/confirmation/", {"seat": 0, "agree": True}), 404
    )
    # the link's own table: only the link's writes
    table = setup.table
    refused = [
        client.post(f"/api/tables/{table.pk}/game/", {"record": {"hands": []}}),
        client.delete(f"/api/tables/{table.pk}/hands/0/", HTTP_IF_MATCH=etag(table)),
        client.patch(f"/api/tables/{table.pk}/", {"first_dealer": 1}),
        client.post(f"/api/tables/{table.pk}/link/"),
        client.delete(f"/api/tables/{table.pk}/link/"),
        client.post("/api/clubs/", {"name": "Mine now"}),
        client.post("/api/players/", {"club": setup.club.pk, "name": "Sneaky"}),
        client.patch(f"/api/leagues/{setup.league.pk}/", {"name": "Renamed"}),
        client.post(f"/api/rounds/{setup.round.pk}/seating/", {}),
    ]
    for answer in refused:
        assert answer.status_code in (401, 403, 404), (answer.status_code, answer.content)
        assert_problem(answer, answer.status_code)
    # what the league's members see is not the link's to see
    assert client.get(f"/api/tables/{table.pk}/history/").status_code == 404
    assert client.get(f"/api/memberships/?club={setup.club.pk}").json()["results"] == []
    assert db_state() == before


def test_two_phones_entering_the_same_hand_through_one_link_store_it_once() -> None:
    setup = club_setup()
    token = make_link(setup)
    first, second = link_client(token), link_client(token)
    assert post_hand(first, setup.table, 0, FIRST_BLUKE_HAND, seat=0).status_code == 201
    body = assert_problem(post_hand(second, setup.table, 0, FIRST_BLUKE_HAND, seat=1), 409)
    assert body["field"] == "number"
    assert Hand.objects.filter(table=setup.table).count() == 1


def test_a_links_idempotency_keys_are_its_own() -> None:
    setup = club_setup()
    client = link_client(make_link(setup))
    key = {"HTTP_IDEMPOTENCY_KEY": "hand-0-from-phone-a"}
    first = post_hand(client, setup.table, 0, FIRST_BLUKE_HAND, seat=0, **key)
    again = post_hand(client, setup.table, 0, FIRST_BLUKE_HAND, seat=0, **key)
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert IdempotencyKey.objects.get().table_link == TableLink.objects.get()
    # the same key from a user is that user's own
    signed_in = client_for(setup.scorekeeper)
    answer = post_hand(signed_in, setup.table, 1, bluke_results(cards=12), **key)
    assert answer.status_code == 201 and "Idempotent-Replayed" not in answer


def test_a_link_is_rate_limited(settings: Any) -> None:
    settings.TABLE_LINK_RATE = "3/m"
    setup = club_setup()
    client = link_client(make_link(setup))
    sheet = f"/api/tables/{setup.table.pk}/sheet/"
    assert [client.get(sheet).status_code for _ in range(3)] == [200, 200, 200]
    before = db_state()
    assert_problem(client.get(sheet), 429)
    assert_problem(post_hand(client, setup.table, 0, FIRST_BLUKE_HAND, seat=0), 429)
    assert db_state() == before
    # another table's link has a count of its own
    other = make_table(round=setup.round, players=setup.players[4:], number=2)
    assert link_client(make_link(setup, other)).get(sheet).status_code == 200


def test_links_that_do_not_work_are_limited_by_address(settings: Any) -> None:
    settings.TABLE_LINK_REFUSED_RATE = "2/m"
    setup = club_setup()
    sheet = f"/api/tables/{setup.table.pk}/sheet/"
    assert [link_client(f"guess{n}").get(sheet).status_code for n in range(2)] == [401, 401]
    assert_problem(link_client("guess3").get(sheet), 429)
    assert_problem(link_client(make_link(setup)).get(sheet), 429)  # from here, for a minute


def test_a_link_after_its_game_is_confirmed_reads_and_changes_nothing() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    setup.league.results_confirmation = "player"
    setup.league.save()
    client = link_client(make_link(setup))
    assert post_hand(client, setup.table, 0, buck_takes_all(1), seat=1).status_code == 201
    confirmed = client.post(
        f"/api/tables/{setup.table.pk}/confirmation/", {"seat": 2, "agree": True}
    )
    assert confirmed.status_code == 200, confirmed.content
    before = db_state()
    body = assert_problem(
        client.put(
            f"/api/tables/{setup.table.pk}/hands/0/",
            {"record": buck_takes_all(2), "seat": 2},
            HTTP_IF_MATCH=etag(setup.table),
        ),
        409,
    )
    assert body["code"] == "confirmed"
    assert_problem(post_hand(client, setup.table, 1, buck_takes_all(2), seat=2), 422)
    again = client.post(f"/api/tables/{setup.table.pk}/confirmation/", {"seat": 3, "agree": True})
    assert assert_problem(again, 409)["code"] == "confirmed"
    assert db_state() == before
    assert client.get(f"/api/tables/{setup.table.pk}/sheet/").json()["confirmation"]["state"] == (
        "confirmed"
    )


def test_a_link_made_for_a_past_night_works_for_a_while_from_now() -> None:
    setup = club_setup()
    setup.event.date = datetime.date(2020, 1, 1)
    setup.event.save()
    table = Table.objects.select_related("round__event").get(pk=setup.table.pk)
    made = table_link_create(table=table, by=setup.organiser)
    assert made.link.expires_at >= timezone.now() + LINK_LIFETIME_AFTER_NIGHT - datetime.timedelta(
        minutes=1
    )
