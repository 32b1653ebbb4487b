"""End to end, in a real headless Chromium: screens that follow the night by
themselves (issue 29 item 4). The room screen and the Tonight page show a hand
entered elsewhere, each table's progress and the night's standings, without a
reload: live.js polls with the ETag it holds, answered 304 while nothing
changed. How soon, and what a hundred screens cost, is benchmarks/live_screens.py's
to measure, not a test's. Screenshots go to ``$E2E_SCREENSHOTS``."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from league.models import Game
from league.services.results import hand_submit
from tests.support.browser import DESKTOP, PHONE, Shots, log_in
from tests.support.setups import club_setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FOLLOWS = 6_000
"""How long a test waits for a screen to show a change (it polls every 1.5 s)."""


def live_answers(page: Any) -> list[int]:
    """The statuses of the page's live polls, as they come."""
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if "/live/" in r.url else None)
    return statuses


def test_the_room_screen_follows_the_hands_without_a_reload(
    live_server: Any, browser: Any, shots: Shots
) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    statuses = live_answers(page)
    page.goto(f"{live_server.url}{reverse('event-room', kwargs={'event_id': setup.event.pk})}")
    tables = page.locator("#room-live .room-tables")
    expect(tables).to_contain_text("Not started")
    page.evaluate("window.stillTheSamePage = true")
    page.wait_for_timeout(3_500)  # nothing changed: the polls are answered 304
    assert statuses and set(statuses) == {304}, statuses

    hand_submit(table=setup.table, record={"trump": "S", "maker": 0, "tricks": [3, 1, 1, 0]})

    expect(tables).to_contain_text("Entering, hand 2", timeout=FOLLOWS)
    standings = page.locator("#room-live .room-standings")
    expect(standings).to_contain_text(setup.players[0].name)
    leader = standings.locator("tbody tr").first
    expect(leader).to_contain_text(setup.players[0].name)
    assert page.evaluate("window.stillTheSamePage") is True  # updated in place
    assert 200 in statuses
    page.set_viewport_size(PHONE)
    shots.take(page, "room-screen-live")
    context.close()


def test_the_tonight_page_follows_the_tables_and_keeps_what_is_typed(
    live_server: Any, browser: Any, shots: Shots
) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    tonight = reverse("event-tonight", kwargs={"event_id": setup.event.pk})
    log_in(page, live_server.url, setup.organiser, to=tonight)
    statuses = live_answers(page)
    card = page.locator("#round-1-tables .table-card").first
    expect(card).to_contain_text("not started")
    guest = page.get_by_label("Add a guest")
    guest.fill("Half-typed name")  # the organiser is typing as a hand comes in
    page.evaluate("window.stillTheSamePage = true")

    hand_submit(table=setup.table, record={"trump": "S", "maker": 1, "tricks": [1, 3, 1, 0]})

    expect(card).to_contain_text("entering, hand 2", timeout=FOLLOWS)
    expect(page.locator("#tonight-standings tbody tr").first).to_contain_text(setup.players[1].name)
    expect(guest).to_have_value("Half-typed name")
    assert page.evaluate("window.stillTheSamePage") is True
    assert 200 in statuses
    shots.take(page, "tonight-live")
    context.close()
