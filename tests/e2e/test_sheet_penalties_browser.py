"""End to end, in a real headless Chromium (issue 32 item 4): a Buck Euchre
sheet says its penalties ("euchred +5", "bucked +5") and drops in words, with a
key under the sheet, on a 375-pixel phone without sideways scrolling and at
1280 pixels; a hand waiting on a phone while the wifi is down says them too
(league/static/league/offline.js). Screenshots go to ``$E2E_SCREENSHOTS``."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from league.models import Game, Player
from league.services.links import table_link_create
from league.services.results import hand_submit
from tests.support.browser import DESKTOP, PHONE, Shots, fits_the_phone, kept_for_offline, log_in
from tests.support.records import BUCK_PENALTY_HANDS
from tests.support.setups import club_setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WAIT = 15_000

LONG_NAMES = ["José Álvarez-Pérez", "田中 花子", "Cleo", "Dan"]
"""Players whose names do not fit a phone's column: the sheet heads them with
initials and a key above."""


def test_a_buck_euchre_sheet_says_its_penalties_on_a_phone_and_a_wide_screen(
    live_server: Any, browser: Any, shots: Shots
) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    for player, name in zip(setup.players[:4], LONG_NAMES, strict=True):
        Player.objects.filter(pk=player.pk).update(name=name)
    for record in BUCK_PENALTY_HANDS:
        hand_submit(table=setup.table, record=record)
    token = table_link_create(table=setup.table, by=setup.organiser).token
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    for url in (reverse("score-sheet", kwargs={"table_id": setup.table.pk}), f"/t/{token}/"):
        page.goto(f"{live_server.url}{url}")
        if url.startswith("/t/"):
            page.get_by_label("Cleo").check()
            page.get_by_role("button", name="That's me").click()
        cells = page.locator("table.sheet tbody tr[id^='hand-'] td.line")
        expect(cells).to_have_count(16)
        penalties = page.locator("table.sheet .penalty")
        assert penalties.all_inner_texts() == [
            "euchred +5", "bucked +5", "euchred +5", "bucked +5"
        ]  # fmt: skip
        for penalty in penalties.all():
            expect(penalty).to_be_visible()
        expect(page.locator("#hand-0 td.line.dropped .bid")).to_have_text("dropped")
        legend = page.locator("#sheet-legend")
        expect(legend).to_be_visible()
        assert legend.bounding_box()["y"] > page.locator("table.sheet").bounding_box()["y"]
        assert fits_the_phone(page)
        # the penalty stays inside its player's column
        cell, words = cells.nth(1).bounding_box(), penalties.first.bounding_box()
        assert words["x"] >= cell["x"] and words["x"] + words["width"] <= cell["x"] + cell["width"]
        shots.take(page, "32-buck-penalties" + ("-link" if url.startswith("/t/") else ""))
    page.set_viewport_size(DESKTOP)
    # wide: the tricks and their penalty ruled off from the score, the rule
    # before each score at the same place in every row
    rules = [
        page.locator(f"#hand-{number} td.line").nth(1).locator(".score").bounding_box()["x"]
        for number in range(4)
    ]
    assert max(rules) - min(rules) < 1, rules
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    # printed: the penalties and the key stay (paper has no colour to lean on)
    page.emulate_media(media="print")
    expect(page.locator("#sheet-legend")).to_be_visible()
    expect(page.locator("#hand-0 .penalty")).to_be_visible()
    shots.take(page, "32-buck-penalties-print")
    context.close()


def test_a_waiting_hand_says_its_penalty_as_the_sheet_will(live_server: Any, page: Any) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    sheet = reverse("score-sheet", kwargs={"table_id": setup.table.pk})
    log_in(page, live_server.url, setup.scorekeeper, to=reverse("account"))
    page.goto(f"{live_server.url}{sheet}")
    kept_for_offline(page)
    page.context.set_offline(True)
    form = page.locator("#next-hand")
    form.get_by_label("Trump").select_option("S")
    form.get_by_label("Maker").select_option("1")
    page.locator("#id_drop_3").check()
    for seat, took in enumerate([2, 2, 1, 0]):
        page.locator(f"#id_tricks_{seat}").fill(str(took))
    form.get_by_role("button", name="Save hand 1").click()
    row = page.locator("tr.waiting-row")
    expect(row).to_have_count(1)
    assert row.locator("td .bid").all_inner_texts() == [
        "2", "2\u2009M euchred +5", "1", "dropped"
    ]  # fmt: skip
    assert row.locator("td .score").all_inner_texts() == ["23", "28", "24", "25"]
    page.context.set_offline(False)
    expect(page.locator("tr.waiting-row")).to_have_count(0, timeout=WAIT)
    expect(page.locator("#hand-0 .penalty")).to_have_text("euchred +5")
