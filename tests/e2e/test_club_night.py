"""End to end, in a real headless Chromium the width of a phone (375 px): a whole
club night run on the pages.

An organiser sets up a game night of three rounds, checks in eleven players,
draws round 1 (Bluke: tables of 4, 4 and 3) and publishes it; a scorekeeper, on
another phone, opens tonight's tables and enters two hands at one table; a twelfth
player arrives late and joins from round 2; the organiser previews round 2 (the
balanced draw shows fewer repeat meetings than a random one) and publishes it; the
room screen shows the live standings with the game still being played; the
printable pad of round 1's first table carries a QR code that decodes to that
table's entry page.

Screenshots of each step, at 375 and 1280 px, go to ``$E2E_SCREENSHOTS`` when set
(else to the test's temporary directory), to be looked at.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from league.models import Club, Event, Game, Table
from league.services.clubs import club_create, membership_set, player_create
from league.services.fixtures import league_create
from tests.support.browser import DESKTOP, PHONE, Shots, decode_qr, fits_the_phone, log_in
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Ada", "Bram", "Cleo", "Dev", "Edda", "Femi", "Gus", "Hana", "Ivo", "Jun", "Kit", "Lena"]
"""The club's players; the first eleven come at the start, Lena arrives late."""


def a_club() -> tuple[Club, AbstractUser, AbstractUser]:
    """A Bluke club with an organiser, a scorekeeper and twelve players."""
    organiser, scorekeeper = UserFactory(username="olga"), UserFactory(username="sam")
    club = club_create(name="Riverside", organiser=organiser)
    membership_set(club=club, user=scorekeeper, role="scorekeeper")
    league_create(club=club, name="Thursday Bluke", game=Game.BLUKE)
    for name in NAMES:
        player_create(club=club, name=name)
    return club, organiser, scorekeeper


def check_in(page: Any, name: str) -> None:
    """As on a phone, where the list holds tonight's people: find them, check them in."""
    page.get_by_label("Find a player").fill(name)
    page.get_by_role("button", name=f"Check in {name}").click()
    expect(page.get_by_role("button", name=re.compile(rf"^Leaves\W+{name}$"))).to_be_visible()


def repeats_shown(page: Any, round_number: int, method: str) -> int:
    """Preview round ``round_number`` by ``method``; the pairs listed as meeting
    again tonight."""
    section = page.locator(f"#round-{round_number}")
    section.get_by_label(re.compile(rf"^{method.capitalize()}:")).check()
    section.get_by_role("button", name="Preview the draw").click()
    preview = page.locator(f"#preview-{round_number}")
    expect(preview.get_by_role("heading", name=re.compile("not published yet"))).to_be_visible()
    return preview.locator("ul.repeats:visible li").count()


def test_an_organiser_runs_a_club_night_from_a_phone(
    live_server: Any, page: Any, second_phone: Any, shots: Shots
) -> None:
    base = live_server.url
    club, organiser, scorekeeper = a_club()

    # 1. The organiser sets up tonight's game night, three rounds, on the pages.
    log_in(page, base, organiser, to=reverse("club-manage", kwargs={"club_id": club.pk}))
    page.get_by_role("link", name=re.compile("^New game night")).click()
    page.get_by_label("Name").fill("Club night")
    page.get_by_label("Date").fill(timezone.localdate().isoformat())
    page.get_by_label("Venue (optional)").fill("The Crown, back room")
    page.get_by_label("Number of rounds").fill("3")
    page.get_by_role("button", name="Set up the game night").click()
    expect(page.get_by_role("status")).to_be_visible()  # the confirmation
    event = Event.objects.get(league__club=club, name="Club night")
    assert event.rounds.count() == 3
    shots.take(page, "01-manage")

    # 2. Eleven players check in, one tap each; round 1 is drawn and published.
    page.get_by_role("link", name=re.compile("^Run the night")).click()
    assert page.url.startswith(f"{base}{reverse('event-tonight', kwargs={'event_id': event.pk})}")
    for name in NAMES[:11]:
        check_in(page, name)
    assert fits_the_phone(page)
    shots.take(page, "01-checked-in")  # a phone lists tonight's people, a desktop everyone
    repeats_shown(page, 1, "balanced")
    sizes = [
        page.locator("#preview-1 article.table-card").nth(k).locator("ol.seats li").count()
        for k in range(3)
    ]
    assert sizes == [4, 4, 3]
    assert fits_the_phone(page)
    shots.take(page, "02-round-1-preview")
    page.get_by_role("button", name="Publish round 1").click()
    expect(page.get_by_role("status")).to_be_visible()
    first = Table.objects.get(round__event=event, round__number=1, number=1)
    seated = list(first.seatings.order_by("seat").values_list("player__name", flat=True))
    assert len(seated) == 4

    # 3. The scorekeeper, on another phone, goes from the home page to tonight's
    # tables and enters two hands at table 1.
    phone = second_phone
    log_in(phone, base, scorekeeper, to="/")
    phone.get_by_role("link", name=re.compile("^Tonight")).click()
    phone.get_by_role("link", name=re.compile(r"^Table 1\b")).first.click()
    assert phone.url == f"{base}{reverse('score-sheet', kwargs={'table_id': first.pk})}"
    for number, (cards, trump, bids, tricks) in enumerate(
        ((13, "H", [3, 4, 2, 3], [3, 4, 2, 4]), (12, "S", [2, 3, 3, 2], [2, 3, 4, 3])), start=1
    ):
        phone.get_by_role("link", name=f"Enter hand {number}").click()  # on the sheet itself
        form = phone.locator("#next-hand")
        form.get_by_label("Trump").select_option(trump)
        for name, bid, taken in zip(seated, bids, tricks, strict=True):
            form.get_by_label(re.compile(rf"^{name}\b.*: bid$")).fill(str(bid))
            form.get_by_label(re.compile(rf"^{name}\b.*: tricks$")).fill(str(taken))
        form.get_by_role("button", name=f"Save hand {number}").click()
        expect(phone.get_by_role("link", name=f"Enter hand {number + 1}")).to_be_visible()
        assert sum(tricks) == cards
    assert fits_the_phone(phone)
    shots.take(phone, "03-score-sheet")
    first.refresh_from_db()
    assert first.hands_played == 2 and not first.complete

    # 4. Lena arrives late: she plays from round 2. Round 2's balanced draw shows
    # fewer repeat meetings than a random one (two at least: round 1's two tables
    # of four cannot spread over three tables), and is published.
    page.reload()
    check_in(page, "Lena")
    expect(page.get_by_text("Present, from round 2")).to_be_visible()
    by_chance = repeats_shown(page, 2, "random")
    balanced = repeats_shown(page, 2, "balanced")
    assert balanced == 2 <= by_chance
    met_before = page.locator("#preview-2").get_by_text(re.compile("met in round 1"))
    expect(met_before.first).to_be_visible()
    shots.take(page, "04-round-2-preview")
    page.get_by_role("button", name="Publish round 2").click()
    assert Table.objects.filter(round__event=event, round__number=2).count() == 3
    assert "Lena" in Table.objects.get(
        round__event=event, round__number=2, seatings__player__name="Lena"
    ).seatings.values_list("player__name", flat=True)

    # 5. The room screen (for anyone) shows the live standings, the running totals
    # of the game still being played labelled as such.
    page.goto(f"{base}{reverse('event-room', kwargs={'event_id': event.pk})}")
    standings = page.locator("table.room-standings")
    expect(standings.get_by_text("still being played").first).to_be_visible()
    assert standings.locator("tbody tr").count() >= 4
    assert page.locator("#room-live[data-live]").count() == 1  # it follows the night itself
    assert fits_the_phone(page)
    shots.take(page, "05-room-screen")

    # 6. Round 1's printable pads: table 1's QR code opens its entry page.
    page.goto(f"{base}{reverse('round-pads', kwargs={'round_id': first.round_id})}")
    shots.take(page, "06-pads")
    page.set_viewport_size(DESKTOP)
    code = page.locator(".pad-qr svg").first
    decoded = decode_qr(code.screenshot())
    page.set_viewport_size(PHONE)
    assert decoded == f"{base}{reverse('hand-enter', kwargs={'table_id': first.pk})}"
