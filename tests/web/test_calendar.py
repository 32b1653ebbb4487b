"""Calendar feeds of game nights (RFC 5545): parsed back with icalendar."""

from __future__ import annotations

import datetime
import doctest
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar
from pytest_django.fixtures import Settings

from config.settings.base import site_domain
from league.models import Event, Game
from league.services.fixtures import event_create, league_create
from league.web.calendar import PAST_DAYS
from tests.support.factories import ClubFactory

pytestmark = pytest.mark.django_db


def feed(client: Client, url: str) -> Calendar:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def nights(calendar: Calendar) -> dict[str, Any]:
    return {str(e["summary"]): e for e in calendar.walk("VEVENT")}


@pytest.fixture
def club_nights() -> dict[str, Any]:
    club = ClubFactory(name="Pinochle & Co")
    today = timezone.localdate()
    cup = league_create(club=club, name="Winter Cup", game=Game.BLUKE)
    buck = league_create(club=club, name="Buck, Monday", game=Game.BUCK_EUCHRE)
    evening = event_create(
        league=cup,
        name="Night 1",
        date=today + datetime.timedelta(days=7),
        start_time=datetime.time(19, 30),
        venue="The Crown; back room, upstairs",
        rounds=3,
    )
    all_day = event_create(league=buck, name="Marathon", date=today + datetime.timedelta(days=9))
    old = event_create(
        league=cup, name="Long ago", date=today - datetime.timedelta(days=PAST_DAYS + 1)
    )
    return {"club": club, "cup": cup, "evening": evening, "all_day": all_day, "old": old}


def test_the_club_feed_lists_every_leagues_nights_with_time_place_and_a_stable_uid(
    client: Client, club_nights: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    url = reverse("club-calendar", args=[club_nights["club"].pk])
    with django_assert_max_num_queries(4):
        calendar = feed(client, url)
    assert str(calendar["x-wr-calname"]) == "Pinochle & Co"
    assert b"X-PUBLISHED-TTL:PT6H" in client.get(url).content
    found = nights(calendar)
    assert set(found) == {"Winter Cup: Night 1", "Buck, Monday: Marathon"}  # not "Long ago"

    evening = found["Winter Cup: Night 1"]
    start = evening.decoded("dtstart")
    assert start == datetime.datetime.combine(club_nights["evening"].date, datetime.time(19, 30))
    assert start.tzinfo is None  # floating: the club's wall clock
    assert evening.decoded("duration") == datetime.timedelta(hours=3)  # three rounds
    assert str(evening["location"]) == "The Crown; back room, upstairs"
    assert str(evening["url"]).endswith(reverse("event", args=[club_nights["evening"].pk]))
    assert "Bluke, 3 rounds" in str(evening["description"])

    all_day = found["Buck, Monday: Marathon"]
    assert all_day.decoded("dtstart") == club_nights["all_day"].date  # a DATE
    assert "duration" not in all_day and "location" not in all_day

    again = nights(feed(client, url))
    assert {str(e["uid"]) for e in again.values()} == {str(e["uid"]) for e in found.values()}
    assert str(evening["uid"]) == f"game-night-{club_nights['evening'].pk}@{settings.SITE_DOMAIN}"


def test_a_moved_night_keeps_its_uid_and_a_deleted_one_leaves_the_feed(
    client: Client, club_nights: dict[str, Any]
) -> None:
    url = reverse("league-calendar", args=[club_nights["cup"].pk])
    before = nights(feed(client, url))
    assert set(before) == {"Winter Cup: Night 1"}  # only the league's own nights
    Event.objects.filter(pk=club_nights["evening"].pk).update(
        start_time=datetime.time(20, 0), venue="The Anchor"
    )
    after = nights(feed(client, url))["Winter Cup: Night 1"]
    assert str(after["uid"]) == str(before["Winter Cup: Night 1"]["uid"])
    assert after.decoded("dtstart").time() == datetime.time(20, 0)
    assert str(after["location"]) == "The Anchor"
    club_nights["evening"].delete()
    assert nights(feed(client, url)) == {}


def test_uids_name_the_configured_site_whatever_the_host_asked(
    client: Client, club_nights: dict[str, Any], settings: Settings
) -> None:
    """A feed read at another of the site's names (or with a forged ``Host``) keeps its
    nights' UIDs, so a calendar never shows a night twice (issue 28, item 9)."""
    settings.SITE_DOMAIN = "league.example.org"
    settings.ALLOWED_HOSTS = ["league.example.org", "www.league.example.org", "testserver"]
    url = reverse("league-calendar", args=[club_nights["cup"].pk])
    uid = f"game-night-{club_nights['evening'].pk}@league.example.org"
    for host in ("league.example.org", "www.league.example.org", "testserver"):
        response = client.get(url, HTTP_HOST=host)
        assert response.status_code == 200
        [night] = Calendar.from_ical(response.content).walk("VEVENT")
        assert str(night["uid"]) == uid
        assert str(night["url"]).startswith(f"http://{host}/")  # links: where it was read


def test_the_site_domain_is_configured_or_the_first_allowed_host() -> None:
    runner = doctest.DocTestRunner()
    for example in doctest.DocTestFinder().find(site_domain, globs={"site_domain": site_domain}):
        runner.run(example)
    assert (runner.failures, runner.tries > 0) == (0, True)  # its docstring's examples
    assert site_domain({"SITE_DOMAIN": " league.example.org "}, []) == "league.example.org"
    assert site_domain({}, ["league.example.org", "localhost"]) == "league.example.org"
    assert site_domain({"SITE_DOMAIN": ""}, [".example.org"]) == "example.org"
    assert site_domain({}, ["*"]) == site_domain({}, []) == "localhost"
    assert site_domain({}, ["[::1]"]) == "[::1]"
    for wrong in ("https://league.example.org", "league.example.org/x", "a b", "x\r\ny", "a@b"):
        with pytest.raises(ImproperlyConfigured, match="SITE_DOMAIN"):
            site_domain({"SITE_DOMAIN": wrong}, [])


def test_missing_clubs_and_leagues_are_404_and_writes_are_refused(client: Client) -> None:
    assert client.get(reverse("club-calendar", args=[999_999])).status_code == 404
    assert client.get(reverse("league-calendar", args=[999_999])).status_code == 404
    club = ClubFactory()
    assert client.post(reverse("club-calendar", args=[club.pk])).status_code == 405


def test_a_post_to_a_feed_is_405_even_with_csrf_checked(club_nights: dict[str, Any]) -> None:
    """As a browser's or any client's POST meets it: the CSRF check (meant for forms)
    does not answer first with 403 (issue 28, item 9)."""
    client = Client(enforce_csrf_checks=True)
    for url in (
        reverse("club-calendar", args=[club_nights["club"].pk]),
        reverse("league-calendar", args=[club_nights["cup"].pk]),
    ):
        for method in (client.post, client.put, client.delete):
            response = method(url)
            assert response.status_code == 405
            assert response["Allow"] == "GET, HEAD"
        assert client.head(url).status_code == 200


def test_the_home_page_links_each_clubs_feed(client: Client) -> None:
    club = ClubFactory()
    html = client.get(reverse("home")).content.decode()
    assert reverse("club-calendar", args=[club.pk]) in html
