"""End to end, in a real headless Chromium the width of a phone (issue 29 item
5): a refused form's error is on the screen, not 2,000 pixels below it, and
the Tonight page starts with the draw and tonight's people."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.support.browser import PHONE, Shots, log_in
from tests.support.factories import PlayerFactory
from tests.support.setups import club_setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def on_screen(page: Any, selector: str) -> bool:
    """Whether the element's box lies within the phone's screen as scrolled."""
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_a_refused_guest_is_said_on_the_screen_and_focused(
    live_server: Any, browser: Any, shots: Shots
) -> None:
    setup = club_setup()
    for _ in range(40):  # a club whose whole list would be long
        PlayerFactory(club=setup.club)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    tonight = reverse("event-tonight", kwargs={"event_id": setup.event.pk})
    log_in(page, live_server.url, setup.organiser, to=tonight)
    # the phone shows the draw first; the club's 48 players are behind the search
    assert (
        page.locator(".first-draw").bounding_box()["y"]
        < page.locator("#attendance").bounding_box()["y"]
    )
    expect(page.locator("#checkin-list li.not-here").first).to_be_hidden()
    expect(page.get_by_role("link", name="Show all 48 players of the club")).to_be_visible()

    page.get_by_role("button", name="Add and check in").click()  # no name typed

    error = page.locator("#guest-error")
    expect(error).to_have_text("Enter the guest's name.")
    assert page.evaluate("window.scrollY") > 0
    assert on_screen(page, "#guest-error")
    shots.take(page, "tonight-guest-refused")
    context.close()
