"""The score sheet's history: each hand corrected or deleted, who did it,
when, through what, and what it was, in words; for the club's members only."""

from __future__ import annotations

import pytest
from django.test import Client

from league.audit import audit_context
from league.models import AuditEntry, Game
from league.services.results import hand_correct, hand_delete_last, hand_submit
from tests.support.factories import UserFactory
from tests.support.markup import text
from tests.support.records import BUCK_PENALTY_HANDS, buck_takes_all
from tests.support.setups import ClubSetup, club_setup, member, names
from tests.support.web import correct_url, sheet_url, signed_in

pytestmark = pytest.mark.django_db

FIRST = {"trump": "S", "bids": [3, 2, 4, 2], "tricks": [3, 2, 5, 3]}
SECOND = {"trump": "H", "bids": [1, 6, 2, 2], "tricks": [1, 5, 4, 2]}
CORRECTION = {
    "trump": "D",
    **{f"bid_{seat}": str(bid) for seat, bid in enumerate(FIRST["bids"])},
    **{f"tricks_{seat}": str(tricks) for seat, tricks in enumerate([3, 2, 4, 4])},
}


def corrected_on_the_page(setup: ClubSetup) -> Client:
    """Two Bluke hands entered, then the first corrected by the scorekeeper
    on the page (diamonds, not spades; the last two players' tricks)."""
    hand_submit(table=setup.table, record=FIRST)
    hand_submit(table=setup.table, record=SECOND)
    setup.table.refresh_from_db()
    client = signed_in(setup.scorekeeper)
    data = {"version": str(setup.table.version), **CORRECTION}
    assert client.post(correct_url(setup.table, 0), data).status_code == 302
    return client


def history_of(html: str) -> str:
    assert '<section class="history"' in html
    return html.split('<section class="history"', 1)[1].split("</section>", 1)[0]


def test_a_correction_on_the_page_shows_who_made_it_and_what_the_hand_was() -> None:
    setup = club_setup()
    client = corrected_on_the_page(setup)
    ann, _, cy, dee = names(setup)

    history = history_of(text(client.get(sheet_url(setup.table))))

    assert "<h3>Hand 1 corrected</h3>" in history
    assert f"By <strong>{setup.scorekeeper.get_username()}</strong>" in history
    assert "through the pages." in history
    was, became = history.split("<dt>Became</dt>")
    assert "13 cards, spades trump, " in was
    assert f"{ann} bid 3, took 3: " in was
    assert f"{cy} bid 4, took 5: " in was
    assert "13 cards, diamonds trump, " in became
    assert f"{cy} bid 4, took 4: " in became
    assert f"{dee} bid 2, took 4: " in became
    assert "Hand 2" not in history  # replayed after the correction, not changed by anyone


def test_a_deleted_hand_is_in_the_history() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    hand_submit(table=setup.table, record=buck_takes_all(1))
    with audit_context(via=AuditEntry.Via.API, actor=setup.organiser):
        hand_delete_last(table=setup.table, number=0, version=None)
    _, bob, *_ = names(setup)

    html = text(signed_in(setup.organiser).get(sheet_url(setup.table)))
    history = history_of(html)

    assert "<h3>Hand 1 deleted</h3>" in history
    assert "through the API." in history
    assert f"made by {bob}" in history
    assert f"{bob} took 5 as maker: " in history
    assert "<dt>Now</dt><dd>Deleted.</dd>" in history


def test_the_history_is_for_the_clubs_members_only() -> None:
    setup = club_setup()
    corrected_on_the_page(setup)
    for reader in (setup.organiser, member(setup)):
        assert "History" in history_of(text(signed_in(reader).get(sheet_url(setup.table))))
    stranger = club_setup().organiser
    for client in (Client(), signed_in(stranger), signed_in(UserFactory())):
        response = client.get(sheet_url(setup.table))
        assert response.status_code == 200  # the sheet itself is for everyone
        assert '<section class="history"' not in text(response)


def test_a_sheet_with_no_change_has_no_history() -> None:
    setup = club_setup()
    hand_submit(table=setup.table, record=FIRST)
    html = text(signed_in(setup.organiser).get(sheet_url(setup.table)))
    assert '<section class="history"' not in html


def test_a_corrected_buck_euchre_hand_says_its_penalties_in_the_history() -> None:
    """The turned-up club of the hand-worked game, entered first with Cleo's trick
    given to Dan (Bob and Cleo bucked: 25 + 5 = 30 each), then corrected (Bob
    alone bucked; Cleo takes one, 24)."""
    setup = club_setup(game=Game.BUCK_EUCHRE)
    first = BUCK_PENALTY_HANDS[1]
    hand_submit(table=setup.table, record={**first, "tricks": [3, 0, 0, 2]})
    with audit_context(via=AuditEntry.Via.API, actor=setup.organiser):
        hand_correct(table=setup.table, number=0, record=first, version=None)
    ann, bob, cleo, _ = names(setup)
    history = history_of(text(signed_in(setup.organiser).get(sheet_url(setup.table))))
    assert f"{bob} took 0, bucked: +5 (total 30)" in history
    assert f"{cleo} took 0, bucked: +5 (total 30)" in history  # as it was
    assert f"{cleo} took 1: -1 (total 24)" in history  # as it became
    assert f"{ann} took 3: -3 (total 22)" in history
