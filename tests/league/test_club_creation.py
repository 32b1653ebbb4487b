"""Who may start a club, through the API as on the pages (``CLUB_CREATION``:
anyone signed in, or the site's staff alone), what a new club takes, what it
refuses (by the field, nothing stored), and the site settings read from the
environment for the organiser's way in."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ImproperlyConfigured

from config.settings.base import club_creation, time_zone
from league import access
from league.errors import Conflict, Forbidden, ServiceError
from league.models import AuditEntry, Club, Membership
from league.services.clubs import SLUG_NEEDED, club_create, club_update
from tests.support.api import assert_problem, client_for
from tests.support.factories import ClubFactory, UserFactory
from tests.support.state import db_state

pytestmark = pytest.mark.django_db


# -- the service --------------------------------------------------------------------------


def test_a_club_is_started_with_its_organiser_in_its_audit_trail() -> None:
    user = UserFactory()
    club = club_create(name="Hilltop", visibility="members", organiser=user)
    assert (club.slug, club.members_only) == ("hilltop", True)
    entry = AuditEntry.objects.get(club=club)
    assert entry.action == "membership.set"
    assert entry.before is None
    assert entry.after == {"user": user.pk, "username": user.get_username(), "role": "organiser"}


def test_names_are_one_club_s_whatever_their_capitals() -> None:
    ClubFactory(name="Riverside")
    with pytest.raises(Conflict) as refused:
        club_create(name="riverSIDE", slug="elsewhere")
    assert refused.value.field == "name"
    other = ClubFactory(name="Hilltop")
    with pytest.raises(Conflict) as renamed:
        club_update(club=other, name="RIVERSIDE")
    assert renamed.value.field == "name"
    assert Club.objects.count() == 2


def test_a_slug_taken_or_impossible_is_refused_by_the_slug() -> None:
    ClubFactory(name="Riverside", slug="riverside")
    with pytest.raises(Conflict) as taken:
        club_create(name="Riverside!")
    assert taken.value.field == "slug"
    with pytest.raises(ServiceError) as none:
        club_create(name="東京")
    assert (none.value.field, none.value.code) == ("slug", SLUG_NEEDED)
    assert club_create(name="東京", slug="tokyo").slug == "tokyo"


def test_an_unknown_visibility_is_refused() -> None:
    with pytest.raises(ServiceError) as refused:
        club_create(name="Odd", visibility="secret")
    assert refused.value.field == "visibility"
    assert not Club.objects.exists()


# -- who may ----------------------------------------------------------------------------


def test_anyone_signed_in_may_start_a_club_unless_the_site_keeps_it_to_staff(
    settings: Any,
) -> None:
    user, staff = UserFactory(), UserFactory(is_staff=True)
    anonymous = type("Anonymous", (), {"is_authenticated": False, "is_staff": False})()
    assert settings.CLUB_CREATION == "anyone"
    assert access.may_create_club(user) and access.may_create_club(staff)
    assert not access.may_create_club(anonymous)
    assert access.club_creation_offered(anonymous)
    settings.CLUB_CREATION = "staff"
    assert not access.may_create_club(user)
    assert access.may_create_club(staff)
    assert not access.club_creation_offered(anonymous)
    with pytest.raises(Forbidden) as refused:
        access.check_club_creation(user)
    assert "only the site's staff may start a club here" in refused.value.message


# -- the API ----------------------------------------------------------------------------


def test_the_api_keeps_clubs_to_staff_when_the_site_says_so(settings: Any) -> None:
    settings.CLUB_CREATION = "staff"
    before = db_state()
    body = assert_problem(client_for(UserFactory()).post("/api/clubs/", {"name": "Mine"}), 403)
    assert body["type"] == "/api/problems/permission-denied"
    assert "only the site's staff may start a club here" in body["detail"]
    assert db_state() == before
    assert_problem(client_for().post("/api/clubs/", {"name": "Mine"}), 401)
    staff = UserFactory(is_staff=True)
    made = client_for(staff).post("/api/clubs/", {"name": "Mine"})
    assert made.status_code == 201, made.content
    assert Membership.objects.get(club_id=made.json()["id"]).user == staff


def test_the_api_takes_who_sees_a_new_club(user: AbstractUser) -> None:
    client = client_for(user)
    made = client.post("/api/clubs/", {"name": "Quiet", "visibility": "members"})
    assert made.status_code == 201, made.content
    assert made.json()["visibility"] == "members"
    before = db_state()
    body = assert_problem(client.post("/api/clubs/", {"name": "Loud", "visibility": "all"}), 400)
    assert list(body["errors"]) == ["visibility"]
    assert db_state() == before


@pytest.mark.parametrize(
    ("data", "status", "field"),
    [
        ({"name": "River\x00side"}, 400, "name"),
        ({"name": "Riverside", "slug": "river\x00side"}, 400, "slug"),
        ({"name": "x" * 101}, 400, "name"),
        ({"name": "TAKEN"}, 409, "name"),
        ({"name": "Another", "slug": "taken"}, 409, "slug"),
    ],
)
def test_a_refused_club_names_its_field_and_stores_nothing(
    user: AbstractUser, data: dict[str, str], status: int, field: str
) -> None:
    ClubFactory(name="Taken", slug="taken")
    before = db_state()
    body = assert_problem(client_for(user, crash_as_500=True).post("/api/clubs/", data), status)
    named = body.get("field") if status == 409 else next(iter(body["errors"]))
    assert named == field
    assert db_state() == before


# -- the settings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "value"), [(None, "anyone"), ("", "anyone"), ("staff", "staff"), (" Staff ", "staff")]
)
def test_club_creation_is_read_from_the_environment(given: str | None, value: str) -> None:
    environ = {} if given is None else {"CLUB_CREATION": given}
    assert club_creation(environ) == value


def test_a_club_creation_setting_it_does_not_know_stops_the_site() -> None:
    with pytest.raises(ImproperlyConfigured, match="'anyone' or 'staff', not 'admins'"):
        club_creation({"CLUB_CREATION": "admins"})


def test_the_time_zone_is_read_from_the_environment() -> None:
    assert time_zone({}) == "UTC"
    assert time_zone({"TIME_ZONE": "Europe/London"}) == "Europe/London"
    with pytest.raises(ImproperlyConfigured, match="not 'Mars/Olympus'"):
        time_zone({"TIME_ZONE": "Mars/Olympus"})
