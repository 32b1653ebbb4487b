"""Screens that update themselves (issue 29 item 4): the room screen and the
Tonight page ask /events/<id>/live/ every 1.5 seconds with their ETag; 304 from
one query while nothing changed, the changed parts of the page when a hand,
a confirmation or a draw changes them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.services.clubs import club_update, event_room_key
from league.services.links import table_link_create
from league.services.results import hand_submit
from tests.support.records import bluke_results
from tests.support.setups import ClubSetup, club_setup
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db


def live(setup: ClubSetup, view: str = "room", **extra: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in {"view": view, **extra}.items())
    return f"{reverse('event-live', kwargs={'event_id': setup.event.pk})}?{query}"


def test_the_room_screen_is_told_what_changed_and_nothing_while_nothing_does(
    django_assert_num_queries: Any,
) -> None:
    setup = club_setup()
    screen = Client()
    first = screen.get(live(setup))
    assert first.status_code == 200
    tag = first["ETag"]
    parts = json.loads(first.content)["parts"]
    assert list(parts) == ["room-live"]
    assert "Not started" in parts["room-live"]
    with django_assert_num_queries(2):  # the event, the tables' aggregate
        unchanged = screen.get(live(setup), HTTP_IF_NONE_MATCH=tag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == tag
    hand_submit(table=setup.table, record=bluke_results(13))
    changed = screen.get(live(setup), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert "Entering, hand 2 of 25" in json.loads(changed.content)["parts"]["room-live"]


def test_every_screen_is_served_the_part_drawn_once_for_a_tag(
    django_assert_num_queries: Any,
) -> None:
    """A hand in, every screen asks at once: the first draws the part, the others
    get it from the cache (the event and the tag's query only)."""
    setup = club_setup()
    first = Client().get(live(setup))
    with django_assert_num_queries(2):
        again = Client().get(live(setup))
    assert again.content == first.content and again["ETag"] == first["ETag"]
    hand_submit(table=setup.table, record=bluke_results(13))
    moved = Client().get(live(setup))  # a new tag: drawn afresh
    assert moved["ETag"] != first["ETag"]
    assert "Entering, hand 2 of 25" in json.loads(moved.content)["parts"]["room-live"]


def test_a_failing_cache_only_costs_the_drawing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from league.web import tonight

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("the cache is down")

    setup = club_setup()
    monkeypatch.setattr(tonight.cache, "get", broken)
    monkeypatch.setattr(tonight.cache, "set", broken)
    answer = Client().get(live(setup))
    assert answer.status_code == 200
    assert "Not started" in json.loads(answer.content)["parts"]["room-live"]
    assert "the cache failed" in caplog.text


def test_the_page_holds_the_tag_the_live_answer_starts_from() -> None:
    setup = club_setup()
    page = Client().get(reverse("event-room", kwargs={"event_id": setup.event.pk}))
    html = page.content.decode()
    tag = Client().get(live(setup))["ETag"]
    assert f'data-live-tag="{tag.replace(chr(34), "&quot;")}"' in html
    assert f'data-live="{live(setup).replace("&", "&amp;")}"' in html


def test_the_tonight_view_is_the_organisers_with_each_rounds_tables() -> None:
    setup = club_setup()
    assert signed_in(setup.scorekeeper).get(live(setup, "tonight")).status_code == 403
    assert Client().get(live(setup, "tonight")).status_code == 302  # to log in
    organiser = signed_in(setup.organiser)
    first = organiser.get(live(setup, "tonight"))
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    parts = json.loads(first.content)["parts"]
    assert set(parts) == {
        "round-1-status",
        "round-1-tables",
        "round-2-status",
        "round-2-tables",
        "tonight-standings",
    }
    assert "not started" in parts["round-1-tables"]
    # a link made moves the tag: the Tonight page shows it
    table_link_create(table=setup.table, by=setup.organiser)
    linked = organiser.get(live(setup, "tonight"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert linked.status_code == 200
    assert "Table link until" in json.loads(linked.content)["parts"]["round-1-tables"]


def test_a_members_only_rooms_live_answer_needs_a_member_or_the_tvs_key() -> None:
    setup = club_setup()
    club_update(club=setup.club, visibility="members")
    assert Client().get(live(setup)).status_code == 302
    key = event_room_key(event=setup.event)
    assert Client().get(live(setup, key=key)).status_code == 200
    assert Client().get(live(setup, key="wrong")).status_code == 302


def test_an_unknown_view_is_refused() -> None:
    setup = club_setup()
    assert Client().get(live(setup, "everything")).status_code == 400
