"""A members-only club's pages, downloads, feeds and room screen (issue 28 item 14):
the login page for an anonymous visitor, 404 for anyone else who is not a member
(downloads and feeds: 404 for both), everything for its members; the private
addresses of its feeds and room screen; the organiser's privacy page; a player
anonymised and a player's own data from the pages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Club, Event, Player
from league.services.clubs import club_feed_key, club_update, event_room_key
from league.services.results import hand_submit
from tests.support.factories import UserFactory
from tests.support.markup import text
from tests.support.records import buck_takes_all
from tests.support.setups import ClubSetup, club_setup, member, player_linked
from tests.support.state import db_state
from tests.support.web import sheet_url, signed_in

pytestmark = pytest.mark.django_db


def private_club() -> ClubSetup:
    setup = club_setup(game="buck_euchre")
    hand_submit(table=setup.table, record=buck_takes_all(1))
    club_update(club=setup.club, visibility="members")
    return setup


def pages(setup: ClubSetup) -> list[str]:
    league = setup.league.pk
    return [
        reverse("league", kwargs={"league_id": league}),
        reverse("league-all-standings", kwargs={"league_id": league}),
        reverse("league-leaderboard", kwargs={"league_id": league}),
        reverse("league-game-nights", kwargs={"league_id": league}),
        reverse("event", kwargs={"event_id": setup.event.pk}),
        reverse("player", kwargs={"player_id": setup.players[0].pk}),
        sheet_url(setup.table),
        reverse("event-room", kwargs={"event_id": setup.event.pk}),
    ]


def files(setup: ClubSetup) -> list[str]:
    league, event = setup.league.pk, setup.event.pk
    return [
        *(
            reverse(name, kwargs={"league_id": league})
            for name in (
                "league-standings-csv",
                "league-ratings-csv",
                "league-games-csv",
                "league-games-jsonl",
                "league-calendar",
            )
        ),
        *(
            reverse(name, kwargs={"event_id": event})
            for name in ("event-standings-csv", "event-games-csv", "event-games-jsonl")
        ),
        reverse("club-calendar", kwargs={"club_id": setup.club.pk}),
    ]


def test_an_anonymous_visitor_is_asked_to_log_in_and_gets_no_files() -> None:
    setup = private_club()
    visitor = Client()
    for url in pages(setup):
        answer = visitor.get(url)
        assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/"), url
    for url in files(setup):
        assert visitor.get(url).status_code == 404, url


def test_a_stranger_finds_nothing() -> None:
    setup = private_club()
    stranger = signed_in(UserFactory())
    for url in [*pages(setup), *files(setup)]:
        assert stranger.get(url).status_code == 404, url
    home = text(stranger.get(reverse("home")))
    assert setup.club.name not in home
    tonight = text(stranger.get(reverse("tonight")))
    assert setup.event.name not in tonight


@pytest.mark.parametrize("who", ["organiser", "scorekeeper", "player"])
def test_its_members_see_everything(who: str) -> None:
    setup = private_club()
    setup.event.date = timezone.localdate()
    setup.event.save()
    client = signed_in(member(setup) if who == "player" else getattr(setup, who))
    for url in [*pages(setup), *files(setup)]:
        assert client.get(url).status_code == 200, url
    home = text(client.get(reverse("home")))
    assert setup.club.name in home and "Results for the club's members only." in home
    assert setup.event.name in text(client.get(reverse("tonight")))


def test_the_calendar_feeds_private_address_is_shown_to_members_and_works_alone() -> None:
    setup = private_club()
    key = club_feed_key(club=setup.club)
    league_page = text(signed_in(member(setup)).get(reverse("league", args=[setup.league.pk])))
    feed = reverse("league-calendar", kwargs={"league_id": setup.league.pk})
    assert f"{feed}?key={key}" in league_page
    calendar_app = Client()
    answer = calendar_app.get(f"{feed}?key={key}")
    assert answer.status_code == 200
    assert answer["Cache-Control"].startswith("private")
    assert b"BEGIN:VCALENDAR" in answer.content
    assert calendar_app.get(f"{feed}?key={key}x").status_code == 404
    assert calendar_app.get(f"{feed}?key=").status_code == 404
    # a new address: the old one stops working
    organiser = signed_in(setup.organiser)
    privacy = reverse("club-privacy", kwargs={"club_id": setup.club.pk})
    assert organiser.post(privacy, {"action": "new_feed_key"}).status_code == 302
    assert calendar_app.get(f"{feed}?key={key}").status_code == 404
    fresh = Club.objects.get(pk=setup.club.pk).feed_key
    assert fresh != key and calendar_app.get(f"{feed}?key={fresh}").status_code == 200


def test_the_room_screen_opens_on_the_tv_by_its_own_address() -> None:
    setup = private_club()
    organiser = signed_in(setup.organiser)
    tonight = reverse("event-tonight", kwargs={"event_id": setup.event.pk})
    shown = text(organiser.get(tonight))
    key = Event.objects.get(pk=setup.event.pk).room_key
    assert key and f"?key={key}" in shown
    room = reverse("event-room", kwargs={"event_id": setup.event.pk})
    tv = Client()
    assert tv.get(f"{room}?key={key}").status_code == 200
    assert tv.get(f"{room}?key=wrong").status_code == 302  # to log in
    assert organiser.post(tonight, {"action": "new_room_key"}).status_code == 302
    assert tv.get(f"{room}?key={key}").status_code == 302
    assert tv.get(f"{room}?key={event_room_key(event=setup.event)}").status_code == 200


def test_the_privacy_page_switches_the_club_and_is_the_organisers() -> None:
    setup = club_setup()
    privacy = reverse("club-privacy", kwargs={"club_id": setup.club.pk})
    assert signed_in(setup.scorekeeper).get(privacy).status_code == 403
    organiser = signed_in(setup.organiser)
    assert "Who sees" in text(organiser.get(privacy))
    before = db_state()
    refused = organiser.post(privacy, {"visibility": "nobody"})
    assert refused.status_code == 400 and "Choose who sees the club" in text(refused)
    assert db_state() == before
    assert organiser.post(privacy, {"visibility": "members"}).status_code == 302
    assert Club.objects.get(pk=setup.club.pk).members_only
    shown = text(organiser.get(privacy))
    assert "Calendar feeds" in shown and "?key=" in shown
    assert Client().get(reverse("league", args=[setup.league.pk])).status_code == 302
    assert organiser.post(privacy, {"visibility": "public"}).status_code == 302
    assert Client().get(reverse("league", args=[setup.league.pk])).status_code == 200


def test_an_organiser_anonymises_a_player_from_the_players_page() -> None:
    setup = club_setup()
    player = setup.players[2]
    player_linked(player, UserFactory())
    organiser = signed_in(setup.organiser)
    anonymise = reverse("player-anonymise", kwargs={"player_id": player.pk})
    before = db_state()
    kept = organiser.post(anonymise, {})
    assert kept.status_code == 302 and db_state() == before
    assert signed_in(setup.scorekeeper).post(anonymise, {"confirm": "yes"}).status_code == 403
    assert db_state() == before
    done = organiser.post(anonymise, {"confirm": "yes"}, follow=True)
    assert "Former player" in text(done)
    stored = Player.objects.get(pk=player.pk)
    assert stored.name == f"Former player {player.pk}" and stored.user is None


def test_a_players_data_for_the_organiser_and_for_the_player_themself() -> None:
    setup = club_setup(game="buck_euchre")
    hand_submit(table=setup.table, record=buck_takes_all(1))
    login = UserFactory()
    player_linked(setup.players[1], login)
    url = reverse("player-data", kwargs={"player_id": setup.players[1].pk})
    assert signed_in(setup.scorekeeper).get(url).status_code == 403
    answer = signed_in(setup.organiser).get(url)
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"]
    data: dict[str, Any] = json.loads(answer.content)
    assert data["players"][0]["games"][0]["place"] == 1
    own = signed_in(login).get(reverse("account-data"))
    assert own.status_code == 200
    mine = json.loads(own.content)
    assert mine["login"]["username"] == login.get_username()
    assert [p["player"]["name"] for p in mine["players"]] == [setup.players[1].name]
    assert Client().get(reverse("account-data")).status_code == 302  # to log in
