"""A pad in one screen (issue 29 item 2): the hands still to play as rows of a
grid, sent at once; each row checked by the engine as it would be alone, in
order; the first one refused points at its row and field, the hands before it
stored, nothing from it on."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.models import AuditEntry, Game, Hand
from league.services.links import table_link_create
from league.services.results import hand_submit
from tests.support.markup import text
from tests.support.records import BUCK_PENALTY_HANDS, bluke_results
from tests.support.setups import club_setup
from tests.support.state import db_state
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db

SCHEDULE = [3, 2, 1, 2, 3]  # max_cards 3


def pad_url(table: Any) -> str:
    return reverse("table-pad", kwargs={"table_id": table.pk})


def row(number: int, cards: int, winner: int = 0) -> dict[str, str]:
    """Hand ``number``'s row: ``winner`` bids and takes every trick."""
    record = bluke_results(cards, winner=winner)
    data = {f"h{number}-number": str(number), f"h{number}-trump": "S"}
    for seat in range(4):
        data[f"h{number}-bid_{seat}"] = str(record["bids"][seat])
        data[f"h{number}-tricks_{seat}"] = str(record["tricks"][seat])
    return data


def test_the_pad_shows_a_row_for_each_hand_to_play_with_live_totals() -> None:
    setup = club_setup(options={"max_cards": 3})
    hand_submit(table=setup.table, record=bluke_results(3))
    page = signed_in(setup.scorekeeper).get(pad_url(setup.table))
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="entry') == 4  # hands 2 to 5
    assert html.count('<tr class="stored">') == 1
    assert 'src="/static/league/pad.js"' in html and 'src="/static/league/rules.js"' in html
    assert 'data-totals="30,-10,-10,-10"' in html
    assert 'name="h1-bid_0"' in html and 'name="h4-tricks_3"' in html


def test_a_whole_pad_is_one_request_and_every_hand_stored() -> None:
    setup = club_setup(options={"max_cards": 3})
    posted: dict[str, str] = {}
    for number, cards in enumerate(SCHEDULE):
        posted.update(row(number, cards, winner=number % 4))
    answer = signed_in(setup.scorekeeper).post(pad_url(setup.table), posted)
    assert answer.status_code == 200
    assert "Hands 1 to 5 are on the sheet." in text(answer)
    assert "The game is complete" in text(answer)
    assert Hand.objects.filter(table=setup.table).count() == 5
    setup.table.refresh_from_db()
    assert setup.table.complete


def test_the_first_wrong_row_stops_the_rest_by_its_field() -> None:
    setup = club_setup(options={"max_cards": 3})
    posted = {**row(0, 3), **row(1, 2), **row(2, 1), **row(3, 2)}
    posted["h2-tricks_0"] = "0"  # hand 3: the tricks add up to 0, not 1
    answer = signed_in(setup.scorekeeper).post(pad_url(setup.table), posted)
    assert answer.status_code == 400
    shown = text(answer)
    assert "Hand 3 was not stored" in shown and "Hands 1 to 2 are on the sheet." in shown
    assert 'href="#hand-row-2"' in shown
    assert Hand.objects.filter(table=setup.table).count() == 2
    html = answer.content.decode()
    # the refused row and the ones after it keep what was typed
    assert re.search(r'name="h2-tricks_0"[^>]*value="0"', html)
    assert re.search(r'name="h3-bid_0"[^>]*value="2"', html)


def test_a_row_after_an_empty_one_is_refused_and_nothing_after_stored() -> None:
    setup = club_setup(options={"max_cards": 3})
    posted = {**row(0, 3), **row(2, 1)}
    answer = signed_in(setup.scorekeeper).post(pad_url(setup.table), posted)
    assert answer.status_code == 400
    assert "Hand 2 is empty, but hand 3 is filled in" in text(answer)
    assert list(Hand.objects.filter(table=setup.table).values_list("number", flat=True)) == [0]


def test_a_form_fault_in_a_row_is_by_its_field_and_stores_nothing() -> None:
    setup = club_setup(options={"max_cards": 3})
    posted = row(0, 3)
    posted["h0-bid_1"] = "x"
    before = db_state()
    answer = signed_in(setup.scorekeeper).post(pad_url(setup.table), posted)
    assert answer.status_code == 400
    assert "as a whole number" in text(answer)
    assert db_state() == before


def test_the_pad_is_for_scorekeepers_and_the_tables_link_as_a_seat() -> None:
    setup = club_setup(options={"max_cards": 3})
    assert Client().get(pad_url(setup.table)).status_code == 302
    token = table_link_create(table=setup.table, by=setup.organiser).token
    link_pad = reverse("table-link-pad", kwargs={"token": token})
    phone = Client()
    assert phone.get(link_pad).status_code == 302  # say who you are first
    phone.post(reverse("table-link-seat", kwargs={"token": token}), {"seat": "3"})
    answer = phone.post(link_pad, {**row(0, 3), **row(1, 2)})
    assert answer.status_code == 200
    seats = set(AuditEntry.objects.filter(action="hand.submitted").values_list("via", "seat"))
    assert seats == {("link", 3)}


def test_a_buck_euchre_pad_offers_rows_past_the_hands_played() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    html = signed_in(setup.scorekeeper).get(pad_url(setup.table)).content.decode()
    assert html.count('class="entry') == 12
    assert 'name="h0-maker"' in html and 'name="h0-drop_2"' in html


def test_the_pads_stored_buck_euchre_hands_say_their_penalties_as_the_sheet_does() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    for record in BUCK_PENALTY_HANDS[:2]:
        hand_submit(table=setup.table, record=record)
    html = signed_in(setup.scorekeeper).get(pad_url(setup.table)).content.decode()
    stored = re.findall(r'<tr class="stored">(.*?)</tr>', html, re.S)
    cells = [[" ".join(unescape(re.sub(r"<[^>]+>", " ", c)).split()) for c in re.findall(
        r'<td class="line">(.*?)</td>', row, re.S)] for row in stored]  # fmt: skip
    assert cells == [
        ["2 23", "2 M euchred +5 28", "1 24", "dropped 25"],
        ["3 20", "0 bucked +5 33", "1 23", "1 24"],
    ]
