"""The audit trail (league.audit): every change of results, seatings,
attendance and roles is one entry, with who made it, through what, and the
record before and after; nothing else writes one, and nothing edits one."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.db import DatabaseError, transaction
from django.test import Client
from django.urls import reverse

import games
from league.audit import audit_context, hand_record, stored_hand
from league.import_files.results import ImportFormat
from league.models import AuditEntry, Membership, Table
from league.services import accounts, attendance, clubs, imports
from league.services.fixtures import table_create, table_reseat
from league.services.results import hand_correct, hand_delete_last, hand_submit
from league.services.seating import round_seating_commit
from tests.support.api import assert_problem, client_for, etag
from tests.support.attendance import new_night
from tests.support.factories import UserFactory
from tests.support.imports import JobsRun, empty_league_like, jsonl_of, played_league
from tests.support.records import bluke_results
from tests.support.setups import ClubSetup, club_setup, member

pytestmark = pytest.mark.django_db

Action = AuditEntry.Action
Via = AuditEntry.Via


def entries(**where: Any) -> list[AuditEntry]:
    """The entries made so far (oldest first), narrowed by ``where``."""
    return list(AuditEntry.objects.filter(**where).order_by("id"))


def only(action: str, **where: Any) -> AuditEntry:
    """The one entry of ``action``; fails when there are none or several."""
    found = entries(action=action, **where)
    assert len(found) == 1, [(e.action, e.before, e.after) for e in found]
    return found[0]


@pytest.fixture
def setup() -> ClubSetup:
    made = club_setup()
    AuditEntry.objects.all().delete()  # the setup's own roles and table
    return made


def history_url(table: Table) -> str:
    return f"/api/tables/{table.pk}/history/"


def assert_made(entry: AuditEntry, *, via: str, user: AbstractUser | None) -> None:
    assert entry.via == via
    assert entry.actor_id == (user.pk if user is not None else None)
    assert entry.actor_name == (user.get_username() if user is not None else "")


# -- results -------------------------------------------------------------------------


def test_a_hand_submitted_through_the_api_is_one_entry_with_the_hand_as_the_api_shows_it(
    setup: ClubSetup,
) -> None:
    client = client_for(setup.scorekeeper)
    response = client.post(
        f"/api/tables/{setup.table.pk}/hands/", {"number": 0, "record": bluke_results(13)}
    )
    assert response.status_code == 201

    entry = only(Action.HAND_SUBMITTED)
    assert entries() == [entry]
    assert_made(entry, via=Via.API, user=setup.scorekeeper)
    assert (entry.table_id, entry.round_id, entry.event_id) == (
        setup.table.pk,
        setup.round.pk,
        setup.event.pk,
    )
    assert entry.club_id == setup.club.pk
    assert entry.hand_number == 0
    assert entry.before is None
    assert entry.after == response.json()["hand"]


def test_a_hand_corrected_is_one_entry_with_the_hand_before_and_after(setup: ClubSetup) -> None:
    for cards in (13, 12, 11):
        hand_submit(table=setup.table, record=bluke_results(cards))
    client = client_for(setup.organiser)
    was = client.get(f"/api/tables/{setup.table.pk}/sheet/").json()["hands"][1]
    AuditEntry.objects.all().delete()

    response = client.put(
        f"/api/tables/{setup.table.pk}/hands/1/",
        {"record": bluke_results(12, winner=2)},
        HTTP_IF_MATCH=etag(setup.table),
    )
    assert response.status_code == 200

    entry = only(Action.HAND_CORRECTED)
    assert entries() == [entry]  # the later hand replayed is no change of its own
    assert_made(entry, via=Via.API, user=setup.organiser)
    assert entry.hand_number == 1
    assert entry.before == was
    assert entry.after == response.json()["hands"][1]
    assert entry.before["seats"][2]["bid"] == 1
    assert entry.after["seats"][2]["bid"] == 12


def test_the_last_hand_deleted_is_one_entry_with_the_hand_it_was(setup: ClubSetup) -> None:
    for cards in (13, 12):
        hand_submit(table=setup.table, record=bluke_results(cards))
    client = client_for(setup.scorekeeper)
    was = client.get(f"/api/tables/{setup.table.pk}/sheet/").json()["hands"][1]
    AuditEntry.objects.all().delete()

    response = client.delete(
        f"/api/tables/{setup.table.pk}/hands/1/", HTTP_IF_MATCH=etag(setup.table)
    )
    assert response.status_code == 200

    entry = only(Action.HAND_DELETED)
    assert entries() == [entry]
    assert (entry.hand_number, entry.before, entry.after) == (1, was, None)


def test_a_whole_game_is_one_entry_of_its_count_of_hands_and_totals(setup: ClubSetup) -> None:
    logs = games.bots.bot_game(games.rules_for("bluke", 4, {}), first_dealer=0, seed=3)
    response = client_for(setup.scorekeeper).post(
        f"/api/tables/{setup.table.pk}/game/", {"record": {"hands": logs}}
    )
    assert response.status_code == 201

    entry = only(Action.GAME_SUBMITTED)
    assert entries() == [entry]  # not one entry a hand
    setup.table.refresh_from_db()
    assert entry.before is None
    assert entry.after == {
        "hands": len(logs),
        "totals": setup.table.totals,
        "status": "complete",
    }
    assert entry.hand_number is None


def test_the_stored_hand_reads_as_the_apis_hand(setup: ClubSetup) -> None:
    hand_submit(table=setup.table, record=bluke_results(13, winner=1))
    sheet = client_for().get(f"/api/tables/{setup.table.pk}/sheet/").json()
    assert stored_hand(table=setup.table, number=0) == sheet["hands"][0]
    assert stored_hand(table=setup.table, number=1) is None
    hand = setup.table.hands.get()
    assert hand_record(hand, hand.seats.all()) == sheet["hands"][0]


# -- what leaves no entry --------------------------------------------------------------


def test_a_change_rolled_back_leaves_no_entry(setup: ClubSetup) -> None:
    class Abandon(Exception):
        pass

    with pytest.raises(Abandon), transaction.atomic():
        hand_submit(table=setup.table, record=bluke_results(13))
        assert len(entries()) == 1  # written in the change's transaction...
        raise Abandon
    assert entries() == []  # ...and gone with it
    assert not setup.table.hands.exists()


def test_refused_changes_leave_no_entry(setup: ClubSetup) -> None:
    client = client_for(setup.scorekeeper)
    bad = {"trump": "S", "bids": [1, 1, 1, 1], "tricks": [9, 9, 9, 9]}
    assert_problem(
        client.post(f"/api/tables/{setup.table.pk}/hands/", {"number": 0, "record": bad}), 422
    )
    hand_submit(table=setup.table, record=bluke_results(13))
    AuditEntry.objects.all().delete()
    stale = f'"table-{setup.table.pk}-v0"'
    response = client.put(
        f"/api/tables/{setup.table.pk}/hands/0/",
        {"record": bluke_results(13, winner=1)},
        HTTP_IF_MATCH=stale,
    )
    assert_problem(response, 412)
    role = {"club": setup.club.pk, "user": setup.scorekeeper.pk, "role": "organiser"}
    assert_problem(client.post("/api/memberships/", role), 403)  # an organiser's to give
    with pytest.raises(clubs.Conflict):
        clubs.membership_remove(membership=Membership.objects.get(user=setup.organiser))
    assert entries() == []


def test_changes_that_change_nothing_leave_no_entry(setup: ClubSetup) -> None:
    clubs.membership_set(club=setup.club, user=setup.scorekeeper, role="scorekeeper")
    table_reseat(table=setup.table, players=setup.players[:4])
    night = new_night(setup)
    attendance.attendance_check_in(event=night, player=setup.players[0], by=None)
    AuditEntry.objects.all().delete()
    attendance.attendance_check_in(event=night, player=setup.players[0], by=None)
    assert entries() == []


# -- seatings ----------------------------------------------------------------------------


def test_a_table_made_and_reseated_through_the_api_are_an_entry_each(setup: ClubSetup) -> None:
    client = client_for(setup.organiser)
    players = setup.players[4:8]
    response = client.post(
        "/api/tables/",
        {"round": setup.round.pk, "number": 2, "players": [p.pk for p in players]},
    )
    assert response.status_code == 201
    table = Table.objects.get(pk=response.json()["id"])
    made = only(Action.TABLE_CREATED)
    assert made.table_id == table.pk
    assert made.before is None
    assert made.after == {
        "players": [{"player": p.pk, "player_name": p.name} for p in players],
        "first_dealer": 0,
    }

    swapped = [players[1], players[0], *players[2:]]
    response = client.patch(
        f"/api/tables/{table.pk}/", {"players": [p.pk for p in swapped], "first_dealer": 2}
    )
    assert response.status_code == 200
    reseated = only(Action.TABLE_RESEATED)
    assert reseated.before == made.after
    assert reseated.after == {
        "players": [{"player": p.pk, "player_name": p.name} for p in swapped],
        "first_dealer": 2,
    }
    assert_made(reseated, via=Via.API, user=setup.organiser)
    assert len(entries()) == 2


def _checked_in_night(setup: ClubSetup) -> Any:
    night = new_night(setup, rounds=2)
    attendance.attendance_set(event=night, players=setup.players, by=setup.organiser)
    AuditEntry.objects.all().delete()
    return night


def test_a_round_drawn_is_one_entry_not_one_a_table(setup: ClubSetup) -> None:
    night = _checked_in_night(setup)
    first = night.rounds.get(number=1)
    response = client_for(setup.organiser).post(
        f"/api/rounds/{first.pk}/seating/", {"commit": True, "seed": 7}
    )
    assert response.status_code == 201

    entry = only(Action.SEATING_DRAWN)
    assert entries() == [entry]
    assert_made(entry, via=Via.API, user=setup.organiser)
    assert (entry.round_id, entry.event_id, entry.table_id) == (first.pk, night.pk, None)
    assert entry.before is None
    drawn = response.json()
    assert entry.after["method"] == drawn["method"]
    assert entry.after["seed"] == 7
    assert [[seat["player"] for seat in table["players"]] for table in entry.after["tables"]] == [
        list(table.seat_players) for table in Table.objects.filter(round=first)
    ]
    # a table's history has the draw that seated it
    table = Table.objects.filter(round=first).first()
    assert table is not None
    listed = client_for(setup.scorekeeper).get(history_url(table)).json()["results"]
    assert [(e["action"], e["round"], e["table"]) for e in listed] == [
        ("seating.drawn", first.pk, None)
    ]

    # drawn again: the entry says what it replaced
    round_seating_commit(round=first, seed=8, replace=True)
    again = entries(action=Action.SEATING_DRAWN)[-1]
    assert again.before == {key: entry.after[key] for key in ("tables", "sit_out")}
    assert_made(again, via=Via.COMMAND, user=None)


def test_an_event_scheduled_is_one_entry_a_round(setup: ClubSetup) -> None:
    night = _checked_in_night(setup)
    response = client_for(setup.organiser).post(
        f"/api/events/{night.pk}/schedule/", {"commit": True, "seed": 1}
    )
    assert response.status_code == 201
    drawn = entries(action=Action.SEATING_DRAWN)
    assert [entry.round_id for entry in drawn] == list(
        night.rounds.order_by("number").values_list("pk", flat=True)
    )
    assert len(entries()) == 2


def test_a_round_adjusted_is_one_entry_with_the_round_before_and_after(setup: ClubSetup) -> None:
    night = _checked_in_night(setup)
    first = night.rounds.get(number=1)
    round_seating_commit(round=first, seed=7)
    tables = list(Table.objects.filter(round=first).order_by("number"))
    a, b = tables[0].seat_players[0], tables[1].seat_players[0]
    AuditEntry.objects.all().delete()

    response = client_for(setup.organiser).post(
        f"/api/rounds/{first.pk}/seating/adjust/", {"swap": [a, b]}
    )
    assert response.status_code == 200

    entry = only(Action.SEATING_ADJUSTED)
    assert entries() == [entry]  # the tables reseated are part of it
    assert entry.before["tables"][0]["players"][0]["player"] == a
    assert entry.after["tables"][0]["players"][0]["player"] == b
    assert entry.after["tables"][1]["players"][0]["player"] == a


# -- attendance and roles ------------------------------------------------------------------


def test_each_players_attendance_changed_is_one_entry(setup: ClubSetup) -> None:
    night = new_night(setup, rounds=2)
    client = client_for(setup.organiser)
    player = setup.players[0]
    response = client.post(f"/api/events/{night.pk}/attendance/check-in/", {"player": player.pk})
    assert response.status_code == 200
    checked_in = only(Action.ATTENDANCE_CHANGED)
    assert_made(checked_in, via=Via.API, user=setup.organiser)
    assert checked_in.event_id == night.pk
    assert checked_in.before is None
    assert checked_in.after == {"player": player.pk, "from_round": 1, "until_round": None}

    AuditEntry.objects.all().delete()
    listed = setup.players[1:4]
    response = client.put(
        f"/api/events/{night.pk}/attendance/", {"players": [p.pk for p in listed]}
    )
    assert response.status_code == 200
    changed = entries(action=Action.ATTENDANCE_CHANGED)
    # three checked in, and the first player, never drawn for, off the list
    assert sorted(e.after["player"] for e in changed if e.after) == sorted(p.pk for p in listed)
    assert [(e.before, e.after) for e in changed if e.after is None] == [
        ({"player": player.pk, "from_round": 1, "until_round": None}, None)
    ]
    assert len(entries()) == 4


def test_roles_given_and_taken_away_are_an_entry_each(setup: ClubSetup) -> None:
    client = client_for(setup.organiser)
    user = UserFactory()
    # A role is given by an invitation its login accepts, on the pages.
    made = accounts.user_invite(
        club=setup.club, username=user.username, email="", role="scorekeeper", by=setup.organiser
    )
    invitee = Client()
    invitee.force_login(user)
    answer = reverse("invitation-answer", kwargs={"invitation_id": made.invitation.pk})
    assert invitee.post(answer, {"action": "accept"}).status_code == 302
    given = only(Action.MEMBERSHIP_SET)
    assert_made(given, via=Via.PAGE, user=user)
    role = {"user": user.pk, "username": user.get_username()}
    assert (given.before, given.after) == (None, {**role, "role": "scorekeeper"})

    client.post("/api/memberships/", {"club": setup.club.pk, "user": user.pk, "role": "organiser"})
    promoted = entries(action=Action.MEMBERSHIP_SET)[-1]
    assert (promoted.before, promoted.after) == (
        {**role, "role": "scorekeeper"},
        {**role, "role": "organiser"},
    )

    membership = Membership.objects.get(club=setup.club, user=user)
    assert client.delete(f"/api/memberships/{membership.pk}/").status_code == 204
    removed = only(Action.MEMBERSHIP_REMOVED)
    assert (removed.before, removed.after) == ({**role, "role": "organiser"}, None)
    assert len(entries()) == 3


# -- who and through what --------------------------------------------------------------------


def test_a_change_outside_any_context_is_a_commands_with_no_actor(setup: ClubSetup) -> None:
    hand_submit(table=setup.table, record=bluke_results(13))
    assert_made(only(Action.HAND_SUBMITTED), via=Via.COMMAND, user=None)


def test_a_context_names_who_and_through_what(setup: ClubSetup) -> None:
    with audit_context(via=Via.PAGE, actor=setup.scorekeeper):
        hand_submit(table=setup.table, record=bluke_results(13))
    assert_made(only(Action.HAND_SUBMITTED), via=Via.PAGE, user=setup.scorekeeper)


def test_an_import_is_recorded_as_one_by_whoever_ran_it(
    django_capture_on_commit_callbacks: JobsRun,
) -> None:
    league = played_league(django_capture_on_commit_callbacks, game="bluke", nights=1)
    copy = empty_league_like(league)
    organiser = UserFactory()
    AuditEntry.objects.all().delete()

    with audit_context(via=Via.PAGE, actor=organiser):
        imports.results_import(league=copy, data=jsonl_of(league), format=ImportFormat.JSON_LINES)

    stored = Table.objects.filter(round__event__league=copy)
    assert {e.action for e in entries()} == {Action.TABLE_CREATED, Action.GAME_SUBMITTED}
    for action in (Action.TABLE_CREATED, Action.GAME_SUBMITTED):
        made = entries(action=action)
        assert sorted(e.table_id for e in made) == sorted(t.pk for t in stored)
        for entry in made:
            assert_made(entry, via=Via.IMPORT, user=organiser)
            assert entry.club_id == copy.club_id


# -- never edited --------------------------------------------------------------------------------


def test_the_database_refuses_to_update_an_entry(setup: ClubSetup) -> None:
    hand_submit(table=setup.table, record=bluke_results(13))
    entry = only(Action.HAND_SUBMITTED)
    with pytest.raises(DatabaseError), transaction.atomic():
        AuditEntry.objects.filter(pk=entry.pk).update(actor_name="someone else")
    entry.refresh_from_db()
    assert entry.actor_name == ""


def test_the_api_offers_no_way_to_change_the_trail(setup: ClubSetup) -> None:
    hand_submit(table=setup.table, record=bluke_results(13))
    client = client_for(setup.organiser)
    url = history_url(setup.table)
    for method in ("post", "put", "patch", "delete"):
        response = getattr(client, method)(url, {})
        assert_problem(response, 405)
    assert len(entries()) == 1


def test_the_admin_shows_the_trail_read_only(setup: ClubSetup) -> None:
    from django.contrib import admin

    model_admin = admin.site._registry[AuditEntry]
    request: Any = type("Request", (), {"user": UserFactory(is_superuser=True, is_staff=True)})()
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)


def test_a_tables_entries_outlive_it(setup: ClubSetup) -> None:
    table = table_create(round=setup.round, number=2, players=setup.players[4:8])
    pk = table.pk
    table.delete()
    assert only(Action.TABLE_CREATED).table_id == pk


# -- the endpoint --------------------------------------------------------------------------------


def test_the_clubs_members_read_a_tables_history_newest_first(setup: ClubSetup) -> None:
    for cards in (13, 12, 11):
        hand_submit(table=setup.table, record=bluke_results(cards))
    hand_correct(table=setup.table, number=0, record=bluke_results(13, winner=1), version=None)
    hand_delete_last(table=setup.table, number=2, version=None)
    other = club_setup()  # another club's table: not in this one's history
    hand_submit(table=other.table, record=bluke_results(13))

    for reader in (setup.organiser, setup.scorekeeper, member(setup)):
        response = client_for(reader).get(history_url(setup.table))
        assert response.status_code == 200
        body = response.json()
        actions = [entry["action"] for entry in body["results"]]
        assert actions == [
            "hand.deleted",
            "hand.corrected",
            "hand.submitted",
            "hand.submitted",
            "hand.submitted",
        ]
        newest = body["results"][0]
        assert newest["hand_number"] == 2
        assert newest["table"] == setup.table.pk
        assert newest["via"] == "command"
        assert newest["actor"] is None
        assert newest["after"] is None
        assert newest["before"]["number"] == 2


def test_strangers_and_the_anonymous_get_the_same_404_as_for_a_missing_table(
    setup: ClubSetup,
) -> None:
    hand_submit(table=setup.table, record=bluke_results(13))
    stranger = club_setup().organiser  # an organiser of another club
    missing = assert_problem(client_for(setup.organiser).get("/api/tables/999999/history/"), 404)
    for caller in (None, stranger, UserFactory()):
        assert assert_problem(client_for(caller).get(history_url(setup.table)), 404) == missing


def test_the_history_is_paged_by_cursor(setup: ClubSetup) -> None:
    for cards in (13, 12, 11, 10, 9):
        hand_submit(table=setup.table, record=bluke_results(cards))
    client = client_for(setup.scorekeeper)
    seen: list[int] = []
    url: str | None = history_url(setup.table) + "?page_size=2"
    while url is not None:
        body = client.get(url).json()
        assert len(body["results"]) <= 2
        seen.extend(entry["id"] for entry in body["results"])
        url = body["next"]
    assert seen == sorted(seen, reverse=True)
    assert len(seen) == 5
    response = client.get(history_url(setup.table), {"cursor": "not-a-cursor"})
    assert_problem(response, 400)


def test_the_schema_documents_the_history() -> None:
    response = client_for().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = json.loads(response.content)
    operation = schema["paths"]["/api/tables/{id}/history/"]["get"]
    parameters = {parameter["name"] for parameter in operation["parameters"]}
    assert {"cursor", "page_size"} <= parameters
    listed = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert listed["$ref"].endswith("PaginatedAuditEntryOutputList")
