"""End to end, in a real headless Chromium the width of a phone: players
taken off a published round before its first hand (issue 30, item 3).

Round 1 is published with Ada at table 1 and Hal at table 2 (a Bluke table of
three); Eve arrives late. The organiser taps "Take off" by Ada on the Tonight
page: the page proposes Eve for the seat, and confirming seats her and takes
Ada off the night's list. Then Hal: nobody is free, and a table of two is no
Bluke table, so the page shows the round's tables without a hand drawn again
for the six players left; confirming stores exactly those.

Screenshots of each step, at 375 and 1280 px, go to ``$E2E_SCREENSHOTS``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from league.models import Attendance, Game, Table
from league.services.attendance import attendance_check_in, attendance_set
from league.services.clubs import club_create, player_create
from league.services.fixtures import event_create, league_create, table_create
from league.services.results import hand_submit
from tests.support.browser import Shots, fits_the_phone, log_in
from tests.support.factories import UserFactory
from tests.support.records import buck_takes_all

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_organiser_takes_players_off_a_published_round(
    live_server: Any, page: Any, shots: Shots
) -> None:
    base = live_server.url
    organiser = UserFactory(username="olga")
    club = club_create(name="Riverside", organiser=organiser)
    league = league_create(club=club, name="Bluke Nights", game=Game.BLUKE)
    names = ("Ada", "Bob", "Cy", "Di", "Fay", "Gus", "Hal")
    players = {name: player_create(club=club, name=name) for name in names}
    event = event_create(league=league, name="December", date=timezone.localdate(), rounds=2)
    attendance_set(event=event, players=list(players.values()), by=organiser)
    round_1 = event.rounds.get(number=1)
    table_create(round=round_1, number=1, players=[players[n] for n in ("Ada", "Bob", "Cy", "Di")])
    table_create(round=round_1, number=2, players=[players[n] for n in ("Fay", "Gus", "Hal")])
    eve = player_create(club=club, name="Eve")
    attendance_check_in(event=event, player=eve, by=organiser)  # plays from round 2

    # 1. Ada did not come: "Take off" by her name on the Tonight page.
    tonight = reverse("event-tonight", kwargs={"event_id": event.pk})
    log_in(page, base, organiser, to=tonight)
    page.get_by_role("link", name="Take off Ada, round 1 table 1").click()
    expect(page.get_by_role("heading", name="Take Ada off table 1")).to_be_visible()
    proposed = page.get_by_label("Eve (arrived late) takes Ada's seat.")
    expect(proposed).to_be_checked()
    expect(page.get_by_label(re.compile("^Ada did not come"))).to_be_checked()
    assert fits_the_phone(page)
    shots.take(page, "31-take-off-proposes-eve")

    # 2. Confirmed: Eve sits in Ada's seat, Ada is off tonight's list.
    page.get_by_role("button", name="Take Ada off").click()
    expect(page.get_by_text("Ada is off table 1 of round 1: Eve takes the seat.")).to_be_visible()
    assert page.url.endswith(f"{tonight}#round-1")
    seats = page.locator("#r1-t1").locator("xpath=..").locator("ol.seats li")
    expect(seats.first).to_contain_text("Eve")
    assert not Attendance.objects.filter(event=event, player=players["Ada"]).exists()
    shots.take(page, "32-eve-takes-the-seat")

    # 3. Hal leaves too: nobody is free, the round's open tables are drawn again.
    page.get_by_role("link", name="Take off Hal, round 1 table 2").click()
    nobody = page.get_by_label(re.compile("^Nobody: table 2 would be too small"))
    expect(nobody).to_be_checked()
    shown = [
        [
            re.sub(r"\s*deals first$", "", item.strip())
            for item in table.locator("li").all_inner_texts()
        ]
        for table in page.locator("ol.seats").all()
    ]
    assert sorted(len(players) for players in shown) == [3, 3]
    assert fits_the_phone(page)
    shots.take(page, "33-take-off-round-drawn-again")

    page.get_by_role("button", name="Take Hal off").click()
    expect(page.get_by_text(re.compile("Hal is off table 2 of round 1"))).to_be_visible()
    stored = [
        [s.player.name for s in table.seatings.select_related("player").order_by("seat")]
        for table in Table.objects.filter(round=round_1).order_by("number")
    ]
    assert stored == shown
    shots.take(page, "34-round-drawn-again")


def test_the_page_says_why_when_no_way_is_left(live_server: Any, page: Any, shots: Shots) -> None:
    base = live_server.url
    organiser = UserFactory(username="olga")
    club = club_create(name="Riverside", organiser=organiser)
    league = league_create(club=club, name="Buck Nights", game=Game.BUCK_EUCHRE)
    names = ("Ada", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")
    players = [player_create(club=club, name=name) for name in names]
    event = event_create(league=league, name="December", date=timezone.localdate(), rounds=2)
    attendance_set(event=event, players=players, by=organiser)
    round_1 = event.rounds.get(number=1)
    started = table_create(round=round_1, number=1, players=players[:4])
    table_create(round=round_1, number=2, players=players[4:])
    hand_submit(table=started, record=buck_takes_all(0))

    # A Buck Euchre table of three is no table, nobody is free, table 1 has started.
    tonight = reverse("event-tonight", kwargs={"event_id": event.pk})
    log_in(page, base, organiser, to=tonight)
    page.get_by_role("link", name="Take off Eve, round 1 table 2").click()
    expect(page.get_by_label("Nobody.")).to_be_disabled()
    expect(page.get_by_text(re.compile("^Not possible: Eve cannot be taken off"))).to_be_visible()
    expect(page.get_by_role("button", name="Take Eve off")).to_have_count(0)
    assert fits_the_phone(page)
    shots.take(page, "35-take-off-no-way-left")

    # Table 1 has a hand entered: its seats are fixed (no "Take off" there).
    expect(page.get_by_role("link", name=re.compile("round 1 table 1$"))).to_have_count(0)
    started_url = reverse(
        "table-take-off", kwargs={"table_id": started.pk, "player_id": players[0].pk}
    )
    page.goto(f"{base}{started_url}")
    expect(page.get_by_role("alert")).to_have_text(
        "Table 1 has a hand entered: its seats are fixed."
    )
    shots.take(page, "36-take-off-table-started")
