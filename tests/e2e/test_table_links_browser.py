"""End to end, in a real headless Chromium the width of a phone: results entered
and confirmed at the table through its link, without an account (issue 27).

An organiser prints round 1's pads with table links from the Tonight page; the
pad's QR code decodes to the table's link. One phone opens it without a login,
says it is seat 2, enters the game's only hand (a Buck Euchre maker taking all
five tricks) and sees the game awaiting confirmation, which it may not give
itself; a second phone opens the same link as seat 4 and confirms; the
Tonight page then says the game is confirmed, and the standings count it.

Screenshots of each step, at 375 and 1280 px, go to ``$E2E_SCREENSHOTS``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from league.models import Confirmation, Game, Seating, Table
from league.services.clubs import club_create, membership_set, player_create
from league.services.fixtures import event_create, league_create, table_create
from tests.support.browser import DESKTOP, PHONE, Shots, decode_qr, fits_the_phone, log_in
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def a_night() -> tuple[Any, Table]:
    """A Buck Euchre league asking a second player to confirm, tonight's round 1
    with one table of four; the organiser."""
    organiser = UserFactory(username="olga")
    club = club_create(name="Riverside", organiser=organiser)
    membership_set(club=club, user=UserFactory(username="sam"), role="scorekeeper")
    league = league_create(
        club=club, name="Buck Nights", game=Game.BUCK_EUCHRE, results_confirmation="player"
    )
    players = [player_create(club=club, name=name) for name in ("Ada", "Bram", "Cleo", "Dev")]
    event = event_create(league=league, name="December", date=timezone.localdate(), rounds=1)
    table = table_create(round=event.rounds.get(), number=1, players=players)
    return organiser, table


def test_a_table_enters_and_confirms_its_own_game_without_an_account(
    live_server: Any, page: Any, second_phone: Any, shots: Shots
) -> None:
    base = live_server.url
    organiser, table = a_night()
    event = table.round.event

    # 1. The organiser prints round 1's pads with table links.
    log_in(page, base, organiser, to=reverse("event-tonight", kwargs={"event_id": event.pk}))
    page.get_by_role("button", name=re.compile("^Table links and pads")).click()
    expect(page.get_by_text("Each table has a new link")).to_be_visible()
    shots.take(page, "11-pads-with-links")
    page.set_viewport_size(DESKTOP)
    link = decode_qr(page.locator(".pad-qr svg").first.screenshot())
    page.set_viewport_size(PHONE)
    assert re.fullmatch(rf"{re.escape(base)}/t/[\w-]{{43}}/", link), link
    assert page.locator(".pad-url").first.inner_text() == link

    # 2. A phone opens the link, without a login, and says who it is.
    phone = second_phone.context.browser.new_context(viewport=PHONE).new_page()
    phone.goto(link)
    expect(phone.get_by_role("heading", name="Who are you?")).to_be_visible()
    assert phone.get_by_role("link", name="Log in").count() == 1  # not logged in
    assert fits_the_phone(phone)
    shots.take(phone, "12-link-who-are-you")
    phone.get_by_label(re.compile("^Bram")).check()
    phone.get_by_role("button", name="That's me").click()
    expect(phone.get_by_text("You are Bram, seat 2.")).to_be_visible()

    # 3. It enters the hand: Bram makes spades and takes all five tricks.
    phone.get_by_role("link", name="Enter hand 1").click()  # the form, on the sheet itself
    expect(phone.get_by_text("Entering as Bram (seat 2).")).to_be_visible()
    phone.locator("#next-hand").get_by_label("Trump").select_option("S")
    phone.locator("#next-hand").get_by_label("Maker").select_option("1")
    for seat, tricks in enumerate(["0", "5", "0", "0"]):
        phone.locator(f"#id_tricks_{seat}").fill(tricks)
    assert fits_the_phone(phone)
    shots.take(phone, "13-link-entry")
    phone.get_by_role("button", name="Save hand 1").click()
    expect(phone.get_by_role("heading", name="Awaiting confirmation")).to_be_visible()
    expect(phone.get_by_text("You made the last change")).to_be_visible()
    assert phone.get_by_role("button", name=re.compile("these results are right")).count() == 0
    assert fits_the_phone(phone)
    shots.take(phone, "14-link-awaiting")
    assert not Seating.objects.filter(table=table, place__isnull=False).exists()

    # 4. Another phone at the table, as Dev (seat 4), confirms.
    other = second_phone
    other.goto(link)
    other.get_by_label(re.compile("^Dev")).check()
    other.get_by_role("button", name="That's me").click()
    expect(other.get_by_role("button", name="Yes, these results are right")).to_be_visible()
    shots.take(other, "15-link-confirm")
    other.get_by_role("button", name="Yes, these results are right").click()
    expect(other.get_by_role("heading", name="Confirmed")).to_be_visible()
    expect(other.get_by_text("Confirmed by Dev (seat 4)")).to_be_visible()
    shots.take(other, "16-link-confirmed")
    table.refresh_from_db()
    assert table.confirmation == Confirmation.CONFIRMED
    assert Seating.objects.get(table=table, seat=1).place == 1

    # 5. The organiser's Tonight page says so.
    page.goto(f"{base}{reverse('event-tonight', kwargs={'event_id': event.pk})}")
    expect(page.locator(".table-card .status").first).to_have_text("confirmed")
    expect(page.get_by_text(re.compile("^Table link until"))).to_be_visible()
    shots.take(page, "17-tonight-confirmed")
    phone.context.close()
