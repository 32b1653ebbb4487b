"""End to end, in a real headless Chromium the width of a phone: a player says
they are coming and checks in at the venue with their personal link (issue 30,
item 6).

An organiser prints the regulars' cards; Ada's card's QR code decodes to her
personal link. Her phone opens it without a login: she answers "Not coming" to
next week's night, changes her mind to "Coming", and on tonight's night taps
"I'm here". The organiser's Tonight page lists her among those coming, checked
in, and checks in the others who said they are coming with one button.

Screenshots of each step, at 375 and 1280 px, go to ``$E2E_SCREENSHOTS``.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from league.models import Attendance, Game, Reply
from league.services.clubs import club_create, player_create
from league.services.fixtures import event_create, league_create
from league.services.replies import personal_link_create, reply_set
from tests.support.browser import DESKTOP, PHONE, Shots, decode_qr, fits_the_phone, log_in
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_player_answers_and_checks_in_with_their_own_link(
    live_server: Any, page: Any, second_phone: Any, shots: Shots
) -> None:
    base = live_server.url
    organiser = UserFactory(username="olga")
    club = club_create(name="Riverside", organiser=organiser)
    league = league_create(club=club, name="Thursday Bluke", game=Game.BLUKE)
    ada, bram, cleo = (player_create(club=club, name=name) for name in ("Ada", "Bram", "Cleo"))
    today = timezone.localdate()
    tonight = event_create(league=league, name="December", date=today, venue="The Crown", rounds=3)
    next_week = event_create(
        league=league,
        name="Christmas night",
        date=today + datetime.timedelta(days=7),
        start_time=datetime.time(19, 30),
        rounds=3,
    )
    personal_link_create(player=bram, by=organiser)
    reply_set(player=bram, event=tonight, answer="coming")

    # 1. The organiser prints Ada's and Cleo's cards from the players' links page.
    log_in(page, base, organiser, to=reverse("club-personal-links", kwargs={"club_id": club.pk}))
    assert fits_the_phone(page)
    shots.take(page, "31-players-links")
    page.get_by_label("Ada", exact=True).check()
    page.get_by_label("Cleo", exact=True).check()
    page.get_by_role("button", name="Print cards").click()
    expect(page.get_by_text("Each player has a new link")).to_be_visible()
    assert fits_the_phone(page)
    shots.take(page, "32-cards")
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    page.screenshot(path=str(shots.folder / "32-cards-printed.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.emulate_media(media="screen")
    page.set_viewport_size(DESKTOP)
    card = page.locator(".player-card").filter(has_text="Ada")
    link = decode_qr(card.locator("svg").screenshot())
    page.set_viewport_size(PHONE)
    assert re.fullmatch(rf"{re.escape(base)}/p/[\w-]{{43}}/", link), link
    assert card.locator(".card-url").inner_text() == link

    # 2. Ada's phone opens her link, without a login, and answers next week's night.
    phone = second_phone
    phone.goto(link)
    expect(phone.get_by_role("heading", name="Hello, Ada")).to_be_visible()
    assert phone.get_by_role("link", name="Log in").count() == 1  # not logged in
    assert "Bram" not in phone.content()  # nobody else's name
    assert fits_the_phone(phone)
    shots.take(phone, "33-personal-page")
    week = phone.locator(f"#night-{next_week.pk}")
    week.get_by_role("button", name="Not coming").click()
    expect(phone.get_by_text("Thank you: you are “not coming” to Christmas night.")).to_be_visible()
    week = phone.locator(f"#night-{next_week.pk}")
    expect(week.get_by_text("Your answer: Not coming")).to_be_visible()
    week.get_by_role("button", name="Coming", exact=True).click()
    expect(
        phone.locator(f"#night-{next_week.pk}").get_by_text("Your answer: Coming")
    ).to_be_visible()
    assert Reply.objects.get(player=ada, event=next_week).answer == "coming"
    shots.take(phone, "34-personal-answered")

    # 3. Tonight, at the venue, she taps "I'm here".
    phone.locator(f"#night-{tonight.pk}").get_by_role("button", name="I'm here").click()
    expect(phone.get_by_text("You are checked in: you play from round 1.").first).to_be_visible()
    assert Attendance.objects.get(player=ada, event=tonight).present
    assert fits_the_phone(phone)
    shots.take(phone, "35-personal-checked-in")

    # 4. The organiser's Tonight page shows the replies and checks in Bram, who is coming.
    page.goto(f"{base}{reverse('event-tonight', kwargs={'event_id': tonight.pk})}")
    replies = page.locator("#replies")
    expect(replies.get_by_text("1 coming", exact=False)).to_be_visible()
    expect(replies.get_by_text("Bram")).to_be_visible()
    assert fits_the_phone(page)
    shots.take(page, "36-tonight-replies")
    replies.get_by_role("button", name=re.compile("^Check in everyone who said")).click()
    expect(page.get_by_text("Checked in 1 who said they are coming: Bram.")).to_be_visible()
    assert Attendance.objects.get(player=bram, event=tonight).present
    assert not Attendance.objects.filter(player=cleo, event=tonight).exists()
    shots.take(page, "37-tonight-checked-in")

    # 5. One player's link: the organiser makes Cleo a new one, shown once with its QR code.
    page.goto(f"{base}{reverse('player-personal-link', kwargs={'player_id': cleo.pk})}")
    page.get_by_role("button", name="Make a new link").click()
    expect(page.get_by_role("heading", name="The new link")).to_be_visible()
    assert fits_the_phone(page)
    shots.take(page, "38-one-players-link")
