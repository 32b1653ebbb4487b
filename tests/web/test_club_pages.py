"""The organiser's way in, on the pages: starting a club (anyone signed in,
or the site's staff alone), the links to it, the club's hub as the next step,
and the "Manage" links on the club's, league's and night's read pages, shown
to the club's organisers alone and without a query a row."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from league.models import AuditEntry, Club, Membership
from tests.support.factories import ClubFactory, UserFactory
from tests.support.markup import assert_tied, error_of, field, text
from tests.support.organise import (
    event_edit_url,
    league_create_url,
    league_edit_url,
    manage_url,
)
from tests.support.setups import club_setup, member
from tests.support.state import db_state
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db

NEW_CLUB = reverse("club-create")


def club_post(**changes: str | None) -> dict[str, str]:
    """The new club's form as posted; ``None`` leaves a field out."""
    data: dict[str, str | None] = {
        "name": "Riverside Card Club",
        "slug": "",
        "visibility": "public",
        **changes,
    }
    return {key: value for key, value in data.items() if value is not None}


def refused(client: Client, data: dict[str, str]) -> Any:
    """POST a new club the page must refuse: shown again (200), nothing stored."""
    before = db_state()
    response = client.post(NEW_CLUB, data)
    assert response.status_code == 200, response.status_code
    assert db_state() == before
    assert "<title>Error: Start a club" in text(response)
    return response


# -- starting a club -------------------------------------------------------------------------


def test_anyone_signed_in_starts_a_club_and_lands_on_its_hub_with_the_next_step() -> None:
    user = UserFactory()
    client = signed_in(user)
    form = client.get(NEW_CLUB)
    assert form.status_code == 200
    assert NEW_CLUB == "/clubs/new/"
    assert field(form, "name")["maxlength"] == "100"
    assert re.findall(r'name="visibility" value="(\w+)"[^>]*checked', text(form)) == ["public"]

    response = client.post(NEW_CLUB, club_post(name="  Riverside   Card Club ", slug=""))

    club = Club.objects.get()
    assert response.status_code == 302
    assert response["Location"] == manage_url(club)
    assert (club.name, club.slug, club.visibility) == (
        "Riverside Card Club",
        "riverside-card-club",
        "public",
    )
    membership = Membership.objects.get(club=club)
    assert (membership.user, membership.role) == (user, Membership.Role.ORGANISER)
    entry = AuditEntry.objects.get(club=club)
    assert (entry.action, entry.via, entry.actor_id) == ("membership.set", "page", user.pk)
    hub = client.get(response["Location"])
    assert "The club “Riverside Card Club” is started and you are its organiser." in text(hub)
    assert "Next, make its first league." in text(hub)
    assert f'<a class="button" href="{league_create_url(club)}">Make your first league</a>' in (
        text(hub)
    )


def test_a_club_for_its_members_alone_and_with_a_short_name_of_its_own() -> None:
    client = signed_in(UserFactory())
    response = client.post(
        NEW_CLUB, club_post(name="Hilltop", slug="Hilltop-Whist", visibility="members")
    )
    assert response.status_code == 302
    club = Club.objects.get()
    assert (club.slug, club.members_only) == ("hilltop-whist", True)


def test_the_anonymous_log_in_first() -> None:
    response = Client().get(NEW_CLUB)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert f"next={quote(NEW_CLUB, safe='/')}" in response["Location"]
    before = db_state()
    assert Client().post(NEW_CLUB, club_post()).status_code == 302
    assert db_state() == before


@pytest.mark.parametrize(
    ("changes", "name", "message"),
    [
        ({"name": ""}, "name", "Enter the club's name."),
        ({"name": "   "}, "name", "Enter the club's name."),
        ({"name": "x" * 101}, "name", "Make the name at most 100 characters (it has 101)."),
        (
            {"name": "River\x00side"},
            "name",
            "Take out the invisible control character (NUL) that came with the text",
        ),
        (
            {"name": "!!! ???"},
            "slug",
            "The name has no letter a-z or digit to make a short name of: type one, for "
            "instance riverside-cards.",
        ),
        (
            {"slug": "river side"},
            "slug",
            "Use only letters a-z, digits, hyphens and underscores in the short name",
        ),
        (
            {"slug": "s" * 101},
            "slug",
            "Make the short name at most 100 characters (it has 101).",
        ),
        (
            {"visibility": "secret"},
            "visibility",
            "Choose anyone or the club's members only.",
        ),
        ({"visibility": None}, "visibility", "Choose who sees the club's results."),
    ],
)
def test_a_refused_club_is_shown_by_its_field_and_not_stored(
    changes: dict[str, str | None], name: str, message: str
) -> None:
    response = refused(signed_in(UserFactory()), club_post(**changes))
    assert message in error_of(response, f"id_{name}")
    if name == "visibility":  # radios: the summary links to the first
        assert '<a href="#id_visibility_0">' in text(response)
    else:
        assert_tied(response, name, f"id_{name}_error")


def test_a_name_another_club_has_in_any_case_is_refused_by_the_name() -> None:
    ClubFactory(name="Riverside")
    response = refused(signed_in(UserFactory()), club_post(name="RIVERSIDE", slug="other"))
    assert error_of(response, "id_name") == (
        "There is a club of that name already (capitals aside): choose another name, or "
        "ask its organisers to invite you."
    )


def test_a_short_name_another_club_has_is_refused_by_the_short_name() -> None:
    ClubFactory(name="Riverside", slug="riverside")
    client = signed_in(UserFactory())
    typed = refused(client, club_post(name="Riverside North", slug="riverside"))
    assert error_of(typed, "id_slug") == (
        "Another club has the short name “riverside”: type a different one."
    )
    made = refused(client, club_post(name="Riverside!", slug=""))
    assert error_of(made, "id_slug") == (
        "Another club has the short name, made from the name, “riverside”: type a different one."
    )


def test_csrf_is_enforced() -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    assert client.post(NEW_CLUB, club_post()).status_code == 403
    assert not Club.objects.exists()


# -- the site's staff alone (CLUB_CREATION=staff) --------------------------------------------


def test_a_site_that_keeps_clubs_to_its_staff_refuses_everyone_else(settings: Any) -> None:
    settings.CLUB_CREATION = "staff"
    client = signed_in(UserFactory())
    page = client.get(NEW_CLUB)
    assert page.status_code == 403
    assert "only its staff start clubs" in text(page)
    assert 'name="name"' not in text(page)
    before = db_state()
    assert client.post(NEW_CLUB, club_post()).status_code == 403
    assert db_state() == before
    assert NEW_CLUB not in text(client.get("/"))
    assert NEW_CLUB not in text(client.get(reverse("account")))
    assert NEW_CLUB not in text(Client().get("/"))

    staff = signed_in(UserFactory(is_staff=True))
    assert f'href="{NEW_CLUB}"' in text(staff.get("/"))
    assert f'href="{NEW_CLUB}"' in text(staff.get(reverse("account")))
    assert staff.post(NEW_CLUB, club_post()).status_code == 302
    assert Club.objects.count() == 1


def test_the_home_and_account_pages_offer_to_start_a_club() -> None:
    anonymous = text(Client().get("/"))
    assert f'<a href="{NEW_CLUB}">Start a club</a> (after logging in)' in anonymous
    client = signed_in(UserFactory())
    assert f'<a href="{NEW_CLUB}">Start a club</a>: you become its organiser.' in text(
        client.get("/")
    )
    account = text(client.get(reverse("account")))
    assert "or you can start a club of your own" in account
    assert f'<a href="{NEW_CLUB}">Start a club</a>' in account


# -- the "Manage" links ----------------------------------------------------------------------


def manage_links(response: Any) -> list[str]:
    """The targets of the page's "Manage" links."""
    return re.findall(r'<a class="manage" href="([^"]+)">Manage<', text(response))


def test_an_organiser_reads_manage_links_on_the_club_league_and_night_pages() -> None:
    setup = club_setup()
    other = club_setup()
    client = signed_in(setup.organiser)
    assert manage_links(client.get("/")) == [manage_url(setup.club)]
    assert manage_links(client.get(reverse("league", args=[setup.league.pk]))) == [
        league_edit_url(setup.league)
    ]
    event_page = client.get(reverse("event", args=[setup.event.pk]))
    assert manage_links(event_page) == [event_edit_url(setup.event)]
    assert reverse("event-tonight", args=[setup.event.pk]) in text(event_page)
    # another club's pages: read, not managed
    assert manage_links(client.get(reverse("league", args=[other.league.pk]))) == []
    assert manage_links(client.get(reverse("event", args=[other.event.pk]))) == []


@pytest.mark.parametrize("who", ["scorekeeper", "member", "anonymous"])
def test_no_one_else_reads_a_manage_link(who: str) -> None:
    setup = club_setup()
    client = {
        "scorekeeper": lambda: signed_in(setup.scorekeeper),
        "member": lambda: signed_in(member(setup)),
        "anonymous": Client,
    }[who]()
    for url in ("/", reverse("league", args=[setup.league.pk]), event_url(setup)):
        assert manage_links(client.get(url)) == [], url


def event_url(setup: Any) -> str:
    return reverse("event", args=[setup.event.pk])


def test_the_home_page_reads_the_clubs_an_organiser_manages_in_one_query(
    django_assert_num_queries: Any,
) -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    client.get("/")  # the session's first read, outside the count
    # the session; its user; the clubs; their leagues; the clubs organised; tonight's nights
    with django_assert_num_queries(6):
        first = client.get("/")
    for _ in range(3):
        Membership.objects.create(
            club=ClubFactory(), user=setup.organiser, role=Membership.Role.ORGANISER
        )
    with django_assert_num_queries(6):
        more = client.get("/")
    assert len(manage_links(first)) == 1
    assert len(manage_links(more)) == 4
