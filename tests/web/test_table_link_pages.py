"""A table's pages through its link (issue 27): no login; the person says
which seat they are; the sheet, the entry and correction forms until the game
is confirmed, and the confirmation; nothing else. The Tonight page's states,
links and revocation, the pads printed with links, the room screen's word."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import AuditEntry, Game, Hand, TableLink
from league.services.confirmations import game_confirm
from league.services.links import table_link_create
from league.services.results import hand_submit
from tests.support.markup import text
from tests.support.records import bluke_results, buck_takes_all
from tests.support.setups import ClubSetup, club_setup, member
from tests.support.state import db_state
from tests.support.tonight import room_url, tonight_url
from tests.support.web import sheet_url, signed_in

pytestmark = pytest.mark.django_db

BUCK_TAKES_ALL = {
    "number": "0",
    "trump": "S",
    "maker": "1",
    "tricks_0": "0",
    "tricks_1": "5",
    "tricks_2": "0",
    "tricks_3": "0",
}
"""The Buck Euchre form: seat 1 makes spades and takes all five, which ends the game."""


def linked(game: str = Game.BLUKE, *, confirmation: str = "none") -> tuple[ClubSetup, str]:
    setup = club_setup(game=game)
    setup.league.results_confirmation = confirmation
    setup.league.save()
    return setup, table_link_create(table=setup.table, by=setup.organiser).token


def page(token: str, name: str = "table-link", **kwargs: Any) -> str:
    return reverse(name, kwargs={"token": token, **kwargs})


def as_seat(token: str, seat: int) -> Client:
    """A phone that opened the link and said it is ``seat``."""
    client = Client()
    answer = client.post(page(token, "table-link-seat"), {"seat": str(seat)})
    assert answer.status_code == 302
    return client


def words(response: Any) -> str:
    """The page's text without its tags, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split()).replace(" ,", ",")


def version_on(response: Any) -> str:
    found = re.search(r'name="version" value="(\d+)"', response.content.decode())
    assert found, "no version on the page"
    return found[1]


def hrefs(html: str) -> set[str]:
    return set(re.findall(r'href="([^"#]*)', html)) - {"", "data:,"}


# -- a link that does not work -------------------------------------------------------


@pytest.mark.parametrize("how", ["made up", "expired", "revoked", "replaced"])
def test_a_link_that_does_not_work_says_so_plainly(how: str) -> None:
    setup, token = linked()
    if how == "expired":
        now = timezone.now()
        TableLink.objects.update(
            created_at=now - datetime.timedelta(days=2), expires_at=now - datetime.timedelta(1)
        )
    elif how == "revoked":
        TableLink.objects.all().delete()
    elif how == "replaced":
        table_link_create(table=setup.table, by=setup.organiser)
    shown = token if how != "made up" else "x" * 43
    before = db_state()
    for answer in (
        Client().get(page(shown)),
        Client().post(page(shown, "table-link-seat"), {"seat": "0"}),
        Client().post(page(shown, "table-link-enter"), BUCK_TAKES_ALL),
    ):
        assert answer.status_code == 404
        assert "This link no longer works" in text(answer)
        assert setup.table.round.event.name not in text(answer)
        assert "no-store" in answer["Cache-Control"]
    assert db_state() == before


def test_too_many_requests_from_one_link_are_refused(settings: Any) -> None:
    settings.TABLE_LINK_RATE = "2/m"
    _, token = linked()
    phone = Client()
    assert [phone.get(page(token)).status_code for _ in range(2)] == [200, 200]
    refused = phone.get(page(token))
    assert refused.status_code == 429
    assert "Too many requests" in text(refused)


# -- the table's page ----------------------------------------------------------------


def test_the_page_shows_the_sheet_asks_who_you_are_and_leads_nowhere_else() -> None:
    setup, token = linked()
    answer = Client().get(page(token))
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"]
    assert answer["X-Robots-Tag"] == "noindex, nofollow"
    shown = text(answer)
    assert "Who are you?" in shown
    for player in setup.players[:4]:
        assert player.name in shown
    assert setup.players[5].name not in shown  # another table's player
    links = hrefs(answer.content.decode())
    own = page(token)
    assert all(
        href.startswith(own) or href.startswith("/static/") or href in ("/", "/accounts/login/")
        for href in links
    ), links


def test_a_seat_is_chosen_once_and_the_hands_are_entered_as_it() -> None:
    setup, token = linked(Game.BUCK_EUCHRE)
    phone = Client()
    # no seat yet: back to the sheet, to say who you are
    refused = phone.post(page(token, "table-link-enter"), BUCK_TAKES_ALL)
    assert refused.status_code == 302 and refused["Location"] == page(token)
    assert not Hand.objects.exists()
    assert phone.post(page(token, "table-link-seat"), {"seat": "9"}).status_code == 400
    assert phone.post(page(token, "table-link-seat"), {"seat": "2"}).status_code == 302
    sheet = words(phone.get(page(token)))
    assert f"You are {setup.players[2].name}, seat 3" in sheet
    form = phone.get(page(token, "table-link-enter"))
    assert form.status_code == 200 and "Entering as" in text(form)
    stored = phone.post(page(token, "table-link-enter"), BUCK_TAKES_ALL)
    assert stored.status_code == 302 and stored["Location"].startswith(page(token))
    entry = AuditEntry.objects.get(action="hand.submitted")
    assert (entry.via, entry.seat, entry.actor_id) == ("link", 2, None)


def test_bluke_is_entered_in_its_two_steps_through_the_link() -> None:
    _, token = linked()
    phone = as_seat(token, 0)
    bids = {"number": "0", "step": "bids", "trump": "S"}
    bids.update({f"bid_{seat}": "1" for seat in range(4)} | {"bid_0": "13"})
    step_two = phone.post(page(token, "table-link-enter"), bids)
    assert step_two.status_code == 200 and "Step 2 of 2" in text(step_two)
    tricks = {**bids, "step": "tricks", "tricks_0": "13", "tricks_1": "0"}
    tricks.update({"tricks_2": "0", "tricks_3": "0"})
    assert phone.post(page(token, "table-link-enter"), tricks).status_code == 302
    assert Hand.objects.get().record["bids"] == [13, 1, 1, 1]


def test_a_hand_is_corrected_through_the_link_until_the_game_is_confirmed() -> None:
    _, token = linked(Game.BUCK_EUCHRE, confirmation="player")
    phone = as_seat(token, 0)
    phone.post(page(token, "table-link-enter"), BUCK_TAKES_ALL)
    correct = page(token, "table-link-correct", number=0)
    form = phone.get(correct)
    assert form.status_code == 200
    version = re.search(r'name="version" value="(\d+)"', form.content.decode())
    assert version
    fix = {**BUCK_TAKES_ALL, "version": version[1], "maker": "2", "tricks_1": "0", "tricks_2": "5"}
    del fix["number"]
    assert phone.post(correct, fix).status_code == 302
    assert Hand.objects.get().maker == 2
    other = as_seat(token, 3)
    agree = {"agree": "yes", "version": version_on(other.get(page(token)))}
    assert other.post(page(token, "table-link-confirm"), agree).status_code == 302
    # confirmed: the organiser's to correct now
    refused = phone.get(correct)
    assert "This game is confirmed" in text(refused)
    assert 'name="version"' not in refused.content.decode()
    before = db_state()
    assert phone.post(correct, {**fix, "version": "4", "maker": "3"}).status_code == 409
    assert db_state() == before


# -- confirming at the table -------------------------------------------------------------


def test_another_seat_confirms_the_entering_seat_may_not() -> None:
    setup, token = linked(Game.BUCK_EUCHRE, confirmation="player")
    entering = as_seat(token, 1)
    entering.post(page(token, "table-link-enter"), BUCK_TAKES_ALL)
    own = entering.get(page(token))
    assert "Awaiting confirmation" in text(own)
    assert "You made the last change" in text(own)
    assert 'name="agree"' not in own.content.decode()
    before = db_state()
    refused = entering.post(page(token, "table-link-confirm"), {"agree": "yes", "version": "1"})
    assert refused.status_code == 409
    assert "another seat" in text(refused)
    assert db_state() == before

    other = as_seat(token, 0)
    shown = other.get(page(token))
    assert "Yes, these results are right" in text(shown)
    version = re.search(r'name="version" value="(\d+)"', shown.content.decode())
    assert version
    done = other.post(page(token, "table-link-confirm"), {"agree": "yes", "version": version[1]})
    assert done.status_code == 302
    confirmed = text(other.get(page(token)))
    assert "Confirmed by" in confirmed and f"{setup.players[0].name} (seat 1)" in confirmed


def test_a_dispute_needs_a_note_by_its_field_and_then_waits_for_the_organiser() -> None:
    setup, token = linked(Game.BUCK_EUCHRE, confirmation="player")
    as_seat(token, 1).post(page(token, "table-link-enter"), BUCK_TAKES_ALL)
    other = as_seat(token, 3)
    before = db_state()
    refused = other.post(
        page(token, "table-link-confirm"), {"agree": "no", "note": " ", "version": "1"}
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'id="note-error"' in html and 'aria-invalid="true"' in html
    assert db_state() == before
    disputed = other.post(
        page(token, "table-link-confirm"),
        {"agree": "no", "note": "Bo dropped, he did not take five", "version": "1"},
    )
    assert disputed.status_code == 302
    shown = text(other.get(page(token)))
    assert "Disputed" in shown and "Bo dropped, he did not take five" in shown
    assert "an organiser settles it" in shown.lower()
    # the organiser sees it on the Tonight page and confirms from the sheet
    tonight = text(signed_in(setup.organiser).get(tonight_url(setup.event)))
    assert "disputed" in tonight and "Bo dropped, he did not take five" in tonight
    assert "Review and confirm" in tonight
    organiser = signed_in(setup.organiser)
    sheet = organiser.get(sheet_url(setup.table))
    assert "Confirm these results" in text(sheet)
    version = re.search(r'name="version" value="(\d+)"', sheet.content.decode())
    assert version
    confirm = reverse("table-confirm", kwargs={"table_id": setup.table.pk})
    assert signed_in(setup.scorekeeper).post(confirm, {"version": version[1]}).status_code == 403
    assert organiser.post(confirm, {"version": version[1]}).status_code == 302
    assert "Confirmed by an organiser" in text(organiser.get(sheet_url(setup.table)))


def test_a_confirmation_of_a_changed_sheet_is_refused() -> None:
    _, token = linked(Game.BUCK_EUCHRE, confirmation="player")
    as_seat(token, 1).post(page(token, "table-link-enter"), BUCK_TAKES_ALL)
    before = db_state()
    stale = as_seat(token, 2).post(
        page(token, "table-link-confirm"), {"agree": "yes", "version": "0"}
    )
    assert stale.status_code == 409
    assert "The sheet changed since you looked at it" in text(stale)
    assert db_state() == before


# -- the organiser's night ---------------------------------------------------------------


def test_the_tonight_page_lists_each_tables_state_and_link() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    setup.league.results_confirmation = "player"
    setup.league.save()
    organiser = signed_in(setup.organiser)
    assert "not started" in text(organiser.get(tonight_url(setup.event)))
    made = table_link_create(table=setup.table, by=setup.organiser)
    hand_submit(table=setup.table, record={"trump": "S", "maker": 1, "tricks": [1, 3, 1, 0]})
    shown = text(organiser.get(tonight_url(setup.event)))
    assert "entering, hand 2" in shown
    assert "Table link until" in shown
    hand_submit(table=setup.table, record=buck_takes_all(1), by_seat=0)
    assert "awaiting confirmation" in text(organiser.get(tonight_url(setup.event)))
    room = text(Client().get(room_url(setup.event)))
    assert "Complete, awaiting confirmation" in room
    game_confirm(table=setup.table, agree=True, seat=2)
    assert "confirmed" in text(organiser.get(tonight_url(setup.event)))
    revoked = organiser.post(
        tonight_url(setup.event), {"action": "revoke_link", "table": str(setup.table.pk)}
    )
    assert revoked.status_code == 302
    assert not TableLink.objects.exists()
    assert Client().get(page(made.token)).status_code == 404
    assert "Table link until" not in text(organiser.get(tonight_url(setup.event)))


def test_the_tonight_page_shows_bluke_progress_out_of_the_schedule() -> None:
    setup = club_setup()
    hand_submit(table=setup.table, record=bluke_results(13))
    assert "entering, hand 2 of" in text(signed_in(setup.organiser).get(tonight_url(setup.event)))


@pytest.mark.parametrize("who", ["organiser", "scorekeeper"])
def test_the_pads_printed_with_links_hold_each_tables_link(who: str) -> None:
    setup = club_setup()
    pads = reverse("round-pads", kwargs={"round_id": setup.round.pk})
    answer = signed_in(getattr(setup, who)).post(pads, {"action": "links"})
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"]
    html = answer.content.decode()
    urls = re.findall(r'<span class="pad-url">(http://testserver/t/[\w-]+/)</span>', html)
    assert len(urls) == 1
    link = TableLink.objects.get(table=setup.table)
    token = urls[0].removeprefix("http://testserver/t/").rstrip("/")
    assert TableLink.digest_of(token) == link.digest
    assert "Each table has a new link" in text(answer)
    assert Client().get(page(token)).status_code == 200


def test_a_member_without_a_role_makes_no_links() -> None:
    setup = club_setup()
    pads = reverse("round-pads", kwargs={"round_id": setup.round.pk})
    player = signed_in(member(setup))
    before = db_state()
    assert player.post(pads, {"action": "links"}).status_code == 403
    assert Client().post(pads, {"action": "links"}).status_code == 302  # to log in
    assert db_state() == before
