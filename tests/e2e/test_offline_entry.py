"""End to end, in a real headless Chromium the width of a phone: entry that
survives lost wifi (issue 29 item 3). With the network cut (playwright's
offline mode) hands entered on a table's sheet wait on the phone, shown as
waiting with their totals; a reload while offline still shows them; once the
network is back they are sent in order, each once. Through a table link
(Bluke) and a scorekeeper's login (Buck Euchre); a hand another phone stored
first is shown beside the one waiting, and nothing is lost until the person
chooses. Screenshots of the badge and the conflict go to ``$E2E_SCREENSHOTS``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from league.models import AuditEntry, Game, Hand
from league.services.links import table_link_create
from league.services.results import hand_submit
from tests.support.browser import PHONE, Shots, fits_the_phone, kept_for_offline, log_in
from tests.support.records import bluke_results
from tests.support.setups import club_setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WAIT = 15_000


def phone_at_the_table(browser: Any, base: str, token: str, name: str) -> tuple[Any, Any]:
    """A new phone that opens the table's link as player ``name`` and keeps the
    sheet for offline use: its context and page."""
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(WAIT)
    page = context.new_page()
    page.goto(f"{base}/t/{token}/")
    page.get_by_label(re.compile(f"^{name}")).check()
    page.get_by_role("button", name="That's me").click()
    kept_for_offline(page)
    return context, page


def enter_bluke(page: Any, bids: list[int], tricks: list[int], trump: str = "S") -> None:
    form = page.locator("#next-hand")
    form.get_by_label("Trump").select_option(trump)
    for seat, (bid, took) in enumerate(zip(bids, tricks, strict=True)):
        page.locator(f"#id_bid_{seat}").fill(str(bid))
        page.locator(f"#id_tricks_{seat}").fill(str(took))
    form.get_by_role("button", name=re.compile("^Save hand")).click()


def test_a_phone_keeps_hands_through_lost_wifi_and_sends_them_in_order(
    live_server: Any, browser: Any, shots: Shots
) -> None:
    setup = club_setup(options={"max_cards": 3})
    token = table_link_create(table=setup.table, by=setup.organiser).token
    context, page = phone_at_the_table(browser, live_server.url, token, setup.players[2].name)

    context.set_offline(True)
    enter_bluke(page, [3, 1, 1, 1], [3, 0, 0, 0])
    badge = page.locator("#waiting-badge")
    expect(badge).to_have_text("1 hand waiting to send")
    expect(page.locator("#next-hand h2")).to_contain_text("Hand 2")
    enter_bluke(page, [2, 1, 1, 1], [0, 2, 0, 0], trump="H")
    expect(badge).to_have_text("2 hands waiting to send")
    rows = page.locator("tr.waiting-row")
    expect(rows).to_have_count(2)
    # seat 1: 30 after hand 1, then bid 2 and took none: -20
    expect(rows.nth(1).locator("td .score").first).to_have_text("10")
    assert fits_the_phone(page)
    shots.take(page, "21-offline-waiting")
    assert not Hand.objects.exists()

    page.reload()  # offline: the kept copy, and the hands still waiting
    expect(page.locator("#waiting-badge")).to_have_text("2 hands waiting to send")
    expect(page.locator("tr.waiting-row")).to_have_count(2)

    context.set_offline(False)
    expect(page.locator("tr.waiting-row")).to_have_count(0, timeout=WAIT)
    expect(page.locator("#waiting-badge")).to_be_hidden()
    stored = list(Hand.objects.filter(table=setup.table).order_by("number"))
    assert [hand.number for hand in stored] == [0, 1]
    assert [hand.record["bids"] for hand in stored] == [[3, 1, 1, 1], [2, 1, 1, 1]]
    entries = AuditEntry.objects.filter(action="hand.submitted").values_list("via", "seat")
    assert set(entries) == {("link", 2)}
    expect(page.locator('tr[id^="hand-"]')).to_have_count(2)  # the sheet as stored
    context.close()


def test_a_scorekeepers_buck_euchre_hand_waits_and_is_sent(live_server: Any, page: Any) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    sheet = reverse("score-sheet", kwargs={"table_id": setup.table.pk})
    log_in(page, live_server.url, setup.scorekeeper, to=reverse("account"))
    page.goto(f"{live_server.url}{sheet}")
    kept_for_offline(page)
    page.context.set_offline(True)
    form = page.locator("#next-hand")
    form.get_by_label("Trump").select_option("S")
    form.get_by_label("Maker").select_option("1")
    for seat, took in enumerate([1, 3, 1, 0]):
        page.locator(f"#id_tricks_{seat}").fill(str(took))
    form.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#waiting-badge")).to_have_text("1 hand waiting to send")
    page.context.set_offline(False)
    expect(page.locator("tr.waiting-row")).to_have_count(0, timeout=WAIT)
    hand = Hand.objects.get(table=setup.table)
    assert (hand.maker, hand.record["tricks"]) == (1, [1, 3, 1, 0])
    assert AuditEntry.objects.get(action="hand.submitted").actor_id == setup.scorekeeper.pk


def test_a_hand_another_phone_stored_first_is_shown_beside_the_one_waiting(
    live_server: Any, browser: Any, shots: Shots
) -> None:
    setup = club_setup(options={"max_cards": 3})
    token = table_link_create(table=setup.table, by=setup.organiser).token
    context, page = phone_at_the_table(browser, live_server.url, token, setup.players[0].name)
    context.set_offline(True)
    enter_bluke(page, [3, 1, 1, 1], [3, 0, 0, 0])
    expect(page.locator("#waiting-badge")).to_have_text("1 hand waiting to send")
    hand_submit(table=setup.table, record=bluke_results(3, winner=1))  # another phone's hand 1
    context.set_offline(False)
    problem = page.locator(".waiting-problem")
    expect(problem).to_contain_text("Hand 1 was not taken", timeout=WAIT)
    expect(problem).to_contain_text("Yours, kept on this phone")
    expect(problem.locator(".theirs")).to_contain_text(f"{setup.players[1].name} bid 3, took 3")
    shots.take(page, "22-offline-conflict")
    assert Hand.objects.get(table=setup.table).record["bids"] == [1, 3, 1, 1]
    problem.get_by_role("button", name="Put mine in its place").click()
    expect(page.locator(".waiting-problem")).to_have_count(0, timeout=WAIT)
    assert Hand.objects.get(table=setup.table).record["bids"] == [3, 1, 1, 1]
    context.close()


def test_a_hand_the_rules_refuse_stays_on_the_phone_with_the_reason(
    live_server: Any, browser: Any
) -> None:
    setup = club_setup(options={"max_cards": 3})
    token = table_link_create(table=setup.table, by=setup.organiser).token
    context, page = phone_at_the_table(browser, live_server.url, token, setup.players[1].name)
    context.set_offline(True)
    enter_bluke(page, [3, 1, 1, 1], [2, 0, 0, 0])  # 2 tricks of the 3 dealt
    expect(page.locator("#waiting-badge")).to_have_text("1 hand waiting to send")
    context.set_offline(False)
    problem = page.locator(".waiting-problem")
    expect(problem).to_contain_text("tricks add up to 2, not the 3 cards dealt", timeout=WAIT)
    expect(problem).to_contain_text("Yours, kept on this phone")
    assert not Hand.objects.exists()
    problem.get_by_role("button", name="Drop mine").click()
    expect(page.locator("#waiting-badge")).to_be_hidden()
    context.close()
