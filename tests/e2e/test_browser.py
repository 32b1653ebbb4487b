"""End to end, in a real headless Chromium the width of a phone (375 px):
a scorekeeper logs in, enters a Bluke hand in its two steps, sees the totals
change on the score sheet, and opens a player's rating chart.

The server is pytest-django's ``live_server`` (a real HTTP server in a
thread, on a transactional test database), so the jobs scheduled on commit
run as they would with no broker configured.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from league.services.results import hand_submit
from tests.support.factories import PASSWORD, make_table
from tests.support.records import bluke_results, buck_takes_all
from tests.support.setups import club_setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE_WIDTH = 375


def seat(page: Any, name: str) -> Any:
    """The input labelled with a player's name (the label may add "deals")."""
    return page.get_by_label(re.compile(rf"^{re.escape(name)}\b"))


def fits_the_phone(page: Any) -> bool:
    """Nothing on the page makes it scroll sideways (wide tables scroll
    inside their own frames)."""
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH


def test_a_scorekeeper_enters_a_hand_and_sees_the_totals_change(
    live_server: Any, page: Any
) -> None:
    setup = club_setup()
    names = [player.name for player in setup.players[:4]]
    sheet = f"{live_server.url}{reverse('score-sheet', kwargs={'table_id': setup.table.pk})}"

    page.goto(sheet)
    assert page.get_by_role("heading", level=1).is_visible()
    # nobody logged in: the sheet offers no entry
    assert page.locator("#next-hand").count() == 0

    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill(setup.scorekeeper.get_username())
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Log in").click()
    assert page.get_by_text(re.compile("enter a correct username and password")).is_visible()
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    assert page.get_by_role("button", name=re.compile("Log out")).is_visible()

    page.goto(sheet)
    page.get_by_role("link", name="Enter hand 1").click()  # the form, on the sheet itself
    assert fits_the_phone(page)

    # one form: trump, then each player's bid and tricks (13 cards each in the first hand)
    form = page.locator("#next-hand")
    form.get_by_label("Trump").select_option("H")
    bids = {names[0]: "3", names[1]: "4", names[2]: "2", names[3]: "4"}
    # tricks that do not add up to 13 are refused by the engine, and nothing is
    # stored; the error is summarised and the inputs point at it
    tricks = {names[0]: "3", names[1]: "4", names[2]: "1", names[3]: "4"}
    for name in names:
        form.get_by_label(re.compile(rf"^{name}\b.*: bid$")).fill(bids[name])
        form.get_by_label(re.compile(rf"^{name}\b.*: tricks$")).fill(tricks[name])
    form.get_by_role("button", name="Save hand 1").click()
    summary = page.get_by_role("alert")
    expect(summary).to_contain_text("problem")
    tricks_of = page.locator("#next-hand").get_by_label(re.compile(rf"^{names[0]}\b.*: tricks$"))
    assert "tricks-error" in (tricks_of.get_attribute("aria-describedby") or "")
    assert fits_the_phone(page)
    page.locator("#next-hand").get_by_label(re.compile(rf"^{names[3]}\b.*: tricks$")).fill("5")
    page.locator("#next-hand").get_by_role("button", name="Save hand 1").click()

    # back on the sheet: made bids score 10 a bid plus overtricks, missed lose 10 a bid
    expect(page.locator("tfoot tr.totals td").first).to_have_text("30")
    assert page.url.startswith(sheet)
    totals = page.locator("tfoot tr.totals td")
    assert totals.all_inner_texts()[:4] == ["30", "40", "-20", "41"]
    expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()
    assert fits_the_phone(page)


def test_a_member_opens_a_players_rating_chart(live_server: Any, page: Any) -> None:
    setup = club_setup(game="buck_euchre")
    winner = setup.players[2]
    hand_submit(table=setup.table, record=buck_takes_all(2))
    second = make_table(round=setup.event.rounds.get(number=2), players=setup.players[:4], number=1)
    hand_submit(table=second, record=buck_takes_all(2))

    page.goto(f"{live_server.url}{reverse('league', kwargs={'league_id': setup.league.pk})}")
    page.get_by_role("link", name=winner.name).first.click()
    assert page.get_by_role(
        "heading", level=1, name=re.compile(re.escape(winner.name))
    ).is_visible()
    chart = page.get_by_role("img").first
    assert chart.is_visible()
    assert chart.evaluate("node => node.tagName.toLowerCase()") == "svg"
    # the chart's line has a point for each game
    assert page.locator("svg polyline").first.get_attribute("points").count(",") == 2
    assert fits_the_phone(page)


def test_a_five_player_bluke_sheet_fits_the_phone(live_server: Any, page: Any) -> None:
    """Every player's score and the links to correct a hand are on screen
    at 375 px, without the page or the sheet scrolling sideways."""
    setup = club_setup()
    players = setup.players[:5]
    for player, name in zip(players, ["Margaret Okonkwo", "Bartholomew Jones", "Maria Delgado",
                                      "Li Wei", "Ann Lee"], strict=True):  # fmt: skip
        player.name = name
        player.save(update_fields=["name"])
    table = make_table(round=setup.event.rounds.get(number=2), players=players, number=1)
    for cards in (10, 9, 8):  # the first hands of five players: seat 0 takes every trick
        hand_submit(table=table, record=bluke_results(cards, players=5))
    hand_submit(  # seat 0 misses a bid of 7: the running scores go negative, and wider
        table=table, record={"trump": "S", "bids": [7, 1, 1, 1, 1], "tricks": [0, 1, 2, 2, 2]}
    )

    page.goto(f"{live_server.url}{reverse('login')}?next=/")
    page.get_by_label("Username").fill(setup.scorekeeper.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}{reverse('score-sheet', kwargs={'table_id': table.pk})}")

    assert fits_the_phone(page)
    frame = page.locator(".sheet-scroll")
    assert frame.evaluate("node => node.scrollWidth <= node.clientWidth")
    last_hand = page.locator("#hand-3")
    last_score = last_hand.locator("td .score").last
    box = last_score.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE_WIDTH
    assert last_score.is_visible()
    correct = page.get_by_role("link", name="Correct hand 4")
    box = correct.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE_WIDTH
    assert correct.is_visible()
    # the short names above the grid spell out every player
    assert page.locator(".players-key").inner_text().count("Okonkwo") == 1
