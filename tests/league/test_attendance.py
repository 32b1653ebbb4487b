"""Attendance at a game night: checking in, arriving late, leaving, guests,
the whole list at once; through the API and the services."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from league.models import Attendance, Event, Membership, Player
from league.selectors import draws as draws_selectors
from league.services.attendance import attendance_check_in, attendance_leave, attendance_set
from league.services.clubs import membership_set
from tests.support.api import assert_problem, client_for
from tests.support.attendance import draw, new_night, stretches
from tests.support.factories import PlayerFactory, UserFactory
from tests.support.setups import ClubSetup, club_setup
from tests.support.state import db_state

pytestmark = pytest.mark.django_db

BOUND = 20  # a sanity bound for the first measurement; the point is the equality


@pytest.fixture
def setup() -> ClubSetup:
    return club_setup()


def url(event: Event, tail: str = "") -> str:
    return f"/api/events/{event.pk}/attendance/{tail}"


def ids(players: list[Player]) -> list[int]:
    return [player.pk for player in players]


# -- the endpoints ------------------------------------------------------------------


def test_put_checks_the_listed_players_in_from_round_1_and_answers_the_list(
    setup: ClubSetup,
) -> None:
    event = new_night(setup)
    response = client_for(setup.organiser).put(
        url(event), {"players": ids(setup.players[:3])}, format="json"
    )
    assert response.status_code == 200, response.content
    rows = response.json()
    assert [row["name"] for row in rows] == sorted(p.name for p in setup.players[:3])
    first = rows[0]
    assert first["player"] == setup.players[0].pk
    assert first["from_round"] == 1
    assert first["until_round"] is None
    assert first["present"] is True
    assert first["is_guest"] is False
    assert first["changed_by"] == setup.organiser.get_username()
    changed_at = datetime.datetime.fromisoformat(first["changed_at"])
    assert abs(timezone.now() - changed_at) < datetime.timedelta(minutes=1)
    assert client_for(setup.scorekeeper).get(url(event)).json() == rows
    # Anyone reads who is present; who changed it is a login, the club's business.
    assert client_for().get(url(event)).json() == [{**row, "changed_by": None} for row in rows]


def test_put_checks_in_the_new_makes_the_unlisted_leave_and_leaves_the_rest_alone(
    setup: ClubSetup,
) -> None:
    event = new_night(setup)
    a, b, c, d = setup.players[:4]
    attendance_set(event=event, players=[a, b, c], by=setup.scorekeeper)
    draw(setup, event, 1)
    response = client_for(setup.organiser).put(url(event), {"players": ids([a, b, d])})
    assert response.status_code == 200, response.content
    assert stretches(event) == {
        a.name: (1, None),
        b.name: (1, None),
        c.name: (1, 1),
        d.name: (2, None),
    }
    by = {row["name"]: row["changed_by"] for row in response.json()}
    organiser, scorekeeper = setup.organiser.get_username(), setup.scorekeeper.get_username()
    assert by == {a.name: scorekeeper, b.name: scorekeeper, c.name: organiser, d.name: organiser}


def test_check_in_before_the_night_starts_plays_from_round_1(setup: ClubSetup) -> None:
    event = new_night(setup)
    player = setup.players[0]
    response = client_for(setup.organiser).post(url(event, "check-in/"), {"player": player.pk})
    assert response.status_code == 200, response.content
    assert [(row["player"], row["from_round"]) for row in response.json()] == [(player.pk, 1)]


def test_a_late_arrival_after_round_1_is_drawn_plays_from_round_2(setup: ClubSetup) -> None:
    event = new_night(setup)
    draw(setup, event, 1)
    late = setup.players[6]
    response = client_for(setup.organiser).post(url(event, "check-in/"), {"player": late.pk})
    assert response.status_code == 200, response.content
    assert stretches(event) == {late.name: (2, None)}
    assert list(draws_selectors.players_present(event=event, round_number=1)) == []
    assert list(draws_selectors.players_present(event=event, round_number=2)) == [late]
    assert list(draws_selectors.players_present(event=event, round_number=3)) == [late]


def test_leaving_after_round_1_is_drawn_keeps_them_in_round_1_only(setup: ClubSetup) -> None:
    event = new_night(setup)
    player, other = setup.players[0], setup.players[1]
    attendance_set(event=event, players=[player, other], by=setup.organiser)
    table = draw(setup, event, 1)
    response = client_for(setup.organiser).post(url(event, "leave/"), {"player": player.pk})
    assert response.status_code == 200, response.content
    row = next(row for row in response.json() if row["player"] == player.pk)
    assert (row["from_round"], row["until_round"], row["present"]) == (1, 1, False)
    assert player in draws_selectors.players_present(event=event, round_number=1)
    assert list(draws_selectors.players_present(event=event, round_number=2)) == [other]
    assert table.seatings.filter(player=player).exists()  # the game in progress is untouched


def test_leaving_before_the_first_round_they_would_play_takes_them_off_the_list(
    setup: ClubSetup,
) -> None:
    event = new_night(setup)
    draw(setup, event, 1)
    late = setup.players[6]
    attendance_check_in(event=event, player=late, by=setup.organiser)
    response = client_for(setup.organiser).post(url(event, "leave/"), {"player": late.pk})
    assert response.status_code == 200, response.content
    assert response.json() == []


def test_checking_in_again_reopens_the_stretch_when_no_round_was_drawn_meanwhile(
    setup: ClubSetup,
) -> None:
    event = new_night(setup)
    player = setup.players[0]
    attendance_check_in(event=event, player=player, by=setup.organiser)
    draw(setup, event, 1)
    attendance_leave(event=event, player=player, by=setup.organiser)
    attendance_check_in(event=event, player=player, by=setup.organiser)
    assert stretches(event) == {player.name: (1, None)}


def test_checking_in_again_after_rounds_were_drawn_plays_from_the_next_round(
    setup: ClubSetup,
) -> None:
    event = new_night(setup)
    player = setup.players[0]
    attendance_check_in(event=event, player=player, by=setup.organiser)
    draw(setup, event, 1)
    attendance_leave(event=event, player=player, by=setup.organiser)
    draw(setup, event, 2)
    attendance_check_in(event=event, player=player, by=setup.organiser)
    assert stretches(event) == {player.name: (3, None)}


def test_checking_in_someone_present_or_making_someone_who_left_leave_changes_nothing(
    setup: ClubSetup,
) -> None:
    event = new_night(setup)
    a, b = setup.players[:2]
    attendance_set(event=event, players=[a, b], by=setup.organiser)
    draw(setup, event, 1)
    attendance_leave(event=event, player=b, by=setup.organiser)
    before = db_state()
    client = client_for(setup.organiser)
    assert client.post(url(event, "check-in/"), {"player": a.pk}).status_code == 200
    assert client.post(url(event, "leave/"), {"player": b.pk}).status_code == 200
    assert db_state() == before


def test_checking_in_when_every_round_has_tables_is_a_409(setup: ClubSetup) -> None:
    event = new_night(setup, rounds=2)
    draw(setup, event, 1)
    draw(setup, event, 2)
    before = db_state()
    response = client_for(setup.organiser).post(
        url(event, "check-in/"), {"player": setup.players[0].pk}
    )
    body = assert_problem(response, 409)
    assert body["field"] == "player"
    assert "every round" in body["detail"]
    assert db_state() == before
    put = client_for(setup.organiser).put(url(event), {"players": [setup.players[0].pk]})
    assert assert_problem(put, 409)["field"] == "players"
    guest = client_for(setup.organiser).post(url(event, "guests/"), {"name": "Late guest"})
    assert assert_problem(guest, 409)["field"] == "name"
    assert db_state() == before


def test_a_guest_is_added_checked_in_and_then_kept(setup: ClubSetup) -> None:
    event = new_night(setup)
    draw(setup, event, 1)
    client = client_for(setup.organiser)
    response = client.post(url(event, "guests/"), {"name": "Visiting Vera"})
    assert response.status_code == 201, response.content
    body = response.json()
    guest = Player.objects.get(pk=body["player"]["id"])
    assert (guest.club, guest.name, guest.is_guest) == (setup.club, "Visiting Vera", True)
    assert body["player"]["is_guest"] is True
    assert body["attendance"]["player"] == guest.pk
    assert body["attendance"]["from_round"] == 2
    assert body["attendance"]["changed_by"] == setup.organiser.get_username()
    assert stretches(event) == {"Visiting Vera": (2, None)}

    kept = client.patch(f"/api/players/{guest.pk}/", {"is_guest": False})
    assert kept.status_code == 200, kept.content
    assert kept.json()["is_guest"] is False
    guest.refresh_from_db()
    assert guest.is_guest is False


def test_a_player_of_the_club_cannot_be_made_a_guest(setup: ClubSetup) -> None:
    player = setup.players[0]
    before = db_state()
    response = client_for(setup.organiser).patch(f"/api/players/{player.pk}/", {"is_guest": True})
    assert assert_problem(response, 409)["field"] == "is_guest"
    assert db_state() == before


def test_who_changed_it_is_recorded(setup: ClubSetup) -> None:
    event = new_night(setup)
    other = UserFactory(username="second-organiser")
    membership_set(club=setup.club, user=other, role=Membership.Role.ORGANISER)
    player = setup.players[0]
    attendance_check_in(event=event, player=player, by=setup.organiser)
    draw(setup, event, 1)
    client_for(other).post(url(event, "leave/"), {"player": player.pk})
    row = Attendance.objects.get(event=event, player=player)
    assert row.changed_by == other
    [shown] = client_for(setup.scorekeeper).get(url(event)).json()
    assert shown["changed_by"] == "second-organiser"
    other.delete()
    [shown] = client_for(setup.scorekeeper).get(url(event)).json()
    assert shown["changed_by"] is None


# -- refusals: a clear problem, nothing stored ---------------------------------------


def _refusals(setup: ClubSetup, event: Event) -> list[tuple[str, str, dict[str, Any], int, str]]:
    stranger = PlayerFactory()  # of another club
    player = setup.players[0]
    return [
        ("put", "", {"players": [stranger.pk]}, 400, "players"),
        ("put", "", {"players": [player.pk, player.pk]}, 400, "players"),
        ("put", "", {"players": [player.pk, 999_999]}, 400, "players"),
        ("put", "", {}, 400, "players"),
        ("post", "check-in/", {"player": stranger.pk}, 400, "player"),
        ("post", "check-in/", {"player": 999_999}, 400, "player"),
        ("post", "leave/", {"player": stranger.pk}, 400, "player"),
        ("post", "leave/", {"player": setup.players[7].pk}, 409, "player"),  # not checked in
        ("post", "guests/", {"name": ""}, 400, "name"),
        ("post", "guests/", {"name": "   "}, 400, "name"),
        ("post", "guests/", {"name": player.name}, 409, "name"),  # the club has that name
    ]


@pytest.mark.parametrize("case", range(11))
def test_a_refused_attendance_change_stores_nothing(setup: ClubSetup, case: int) -> None:
    event = new_night(setup)
    attendance_check_in(event=event, player=setup.players[1], by=setup.organiser)
    refusals = _refusals(setup, event)
    assert len(refusals) == 11
    method, tail, data, status, field = refusals[case]
    before = db_state()
    response = getattr(client_for(setup.organiser), method)(url(event, tail), data, format="json")
    body = assert_problem(response, status)
    if status == 400:
        assert field in body["errors"], body
    else:
        assert body["field"] == field
    assert db_state() == before


def test_a_player_twice_and_another_clubs_player_are_named(setup: ClubSetup) -> None:
    event = new_night(setup)
    stranger = PlayerFactory(name="Outsider")
    player = setup.players[0]
    client = client_for(setup.organiser)
    twice = assert_problem(client.put(url(event), {"players": [player.pk, player.pk]}), 400)
    assert twice["errors"]["players"] == [f"listed more than once: {player.name}"]
    other = assert_problem(client.put(url(event), {"players": [stranger.pk]}), 400)
    assert other["errors"]["players"] == ["not players of the event's club: Outsider"]


# -- who may -------------------------------------------------------------------------


WRITES = [
    ("put", "", lambda s: {"players": [s.players[0].pk]}, 200),
    ("post", "check-in/", lambda s: {"player": s.players[0].pk}, 200),
    ("post", "guests/", lambda s: {"name": "Guest"}, 201),
]


@pytest.mark.parametrize(("method", "tail", "data", "ok"), WRITES)
def test_only_the_clubs_organisers_change_attendance(
    setup: ClubSetup, method: str, tail: str, data: Any, ok: int
) -> None:
    event = new_night(setup)
    before = db_state()
    for user, status in ((None, 401), (UserFactory(), 404), (setup.scorekeeper, 403)):
        response = getattr(client_for(user), method)(url(event, tail), data(setup), format="json")
        assert_problem(response, status)
    assert db_state() == before
    response = getattr(client_for(setup.organiser), method)(url(event, tail), data(setup))
    assert response.status_code == ok, response.content


def test_an_organiser_of_another_club_is_answered_404(setup: ClubSetup) -> None:
    other = club_setup()
    event = new_night(setup)
    response = client_for(other.organiser).post(
        url(event, "check-in/"), {"player": setup.players[0].pk}
    )
    assert_problem(response, 404)


def test_a_retried_check_in_with_the_same_key_is_replayed(setup: ClubSetup) -> None:
    event = new_night(setup)
    client = client_for(setup.organiser)
    player = setup.players[0]

    def check_in() -> Any:
        return client.post(
            url(event, "check-in/"), {"player": player.pk}, HTTP_IDEMPOTENCY_KEY="night-1"
        )

    first = check_in()
    assert first.status_code == 200, first.content
    stored = db_state()
    retry = check_in()
    assert retry.status_code == 200
    assert retry["Idempotent-Replayed"] == "true"
    assert retry.json() == first.json()
    assert db_state() == stored
    reused = client.post(
        url(event, "leave/"), {"player": player.pk}, HTTP_IDEMPOTENCY_KEY="night-1"
    )
    assert reused.status_code == 422
    assert db_state() == stored


def test_reading_the_attendance_takes_as_many_queries_for_8_players_as_for_1(
    setup: ClubSetup, django_assert_max_num_queries: Any, django_assert_num_queries: Any
) -> None:
    small, large = new_night(setup), new_night(setup)
    attendance_set(event=small, players=setup.players[:1], by=setup.organiser)
    attendance_set(event=large, players=setup.players, by=setup.scorekeeper)
    client = client_for()
    with django_assert_max_num_queries(BOUND) as first:
        assert len(client.get(url(small)).json()) == 1
    with django_assert_num_queries(len(first.captured_queries)):
        assert len(client.get(url(large)).json()) == 8


# -- the event's time and venue --------------------------------------------------------


def test_an_event_has_an_optional_start_time_and_venue(setup: ClubSetup) -> None:
    client = client_for(setup.organiser)
    plain = client.post(
        "/api/events/", {"league": setup.league.pk, "name": "Plain", "date": "2026-12-03"}
    )
    assert plain.status_code == 201, plain.content
    assert (plain.json()["start_time"], plain.json()["venue"]) == (None, "")
    made = client.post(
        "/api/events/",
        {
            "league": setup.league.pk,
            "name": "Thursday",
            "date": "2026-12-03",
            "start_time": "19:30",
            "venue": "The Crown, back room",
        },
    )
    assert made.status_code == 201, made.content
    assert (made.json()["start_time"], made.json()["venue"]) == ("19:30", "The Crown, back room")
    event_url = f"/api/events/{made.json()['id']}/"
    moved = client.patch(event_url, {"start_time": "20:00:59.5+02:00"})  # to the minute
    assert (moved.json()["start_time"], moved.json()["venue"]) == ("20:00", "The Crown, back room")
    assert Event.objects.get(pk=made.json()["id"]).start_time == datetime.time(20, 0)
    cleared = client.patch(event_url, {"start_time": None, "venue": ""}, format="json")
    assert cleared.status_code == 200, cleared.content
    assert (cleared.json()["start_time"], cleared.json()["venue"]) == (None, "")
    assert cleared.json()["date"] == "2026-12-03"


# -- what the database itself refuses ----------------------------------------------------


@pytest.mark.parametrize(
    ("from_round", "until_round"), [(0, None), (2, 1)], ids=["round_0", "until_before_from"]
)
def test_the_database_refuses_an_empty_or_impossible_stretch(
    setup: ClubSetup, from_round: int, until_round: int | None
) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Attendance.objects.create(
            event=setup.event,
            player=setup.players[0],
            from_round=from_round,
            until_round=until_round,
            changed_at=timezone.now(),
        )


def test_the_database_keeps_one_row_per_player_and_event(setup: ClubSetup) -> None:
    attendance_check_in(event=setup.event, player=setup.players[0], by=setup.organiser)
    with pytest.raises(IntegrityError), transaction.atomic():
        Attendance.objects.create(
            event=setup.event, player=setup.players[0], from_round=2, changed_at=timezone.now()
        )
