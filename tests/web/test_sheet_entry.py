"""One hand, one request (issue 29 item 1): the next hand is entered on the
score sheet itself (trump, bids and tricks; or trump, maker, drops and tricks),
posted to the sheet and answered with the sheet updated and the next hand's
form; without JavaScript. A refusal is the sheet again with the form as typed,
each problem by its field, nothing stored."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.bots import bot_game
from league.models import AuditEntry, Game, Hand
from league.selectors.tables import table_rules
from league.services.links import table_link_create
from league.services.results import hand_submit
from tests.support.markup import text
from tests.support.records import results_record
from tests.support.setups import club_setup
from tests.support.state import db_state
from tests.support.web import sheet_url, signed_in

pytestmark = pytest.mark.django_db


def bluke_post(number: int, bids: list[int], tricks: list[int], trump: str = "S") -> dict[str, str]:
    data = {"number": str(number), "trump": trump}
    data.update({f"bid_{seat}": str(bid) for seat, bid in enumerate(bids)})
    data.update({f"tricks_{seat}": str(took) for seat, took in enumerate(tricks)})
    return data


def buck_post(number: int, record: dict[str, Any]) -> dict[str, str]:
    data = {"number": str(number), "trump": record["trump"] or "none"}
    data["maker"] = "" if record.get("maker") is None else str(record["maker"])
    data.update({f"tricks_{seat}": str(took) for seat, took in enumerate(record["tricks"])})
    data.update({f"drop_{seat}": "on" for seat in record.get("drops", [])})
    return data


def post_of(game: str, number: int, record: dict[str, Any]) -> dict[str, str]:
    if game == Game.BLUKE:
        return bluke_post(number, record["bids"], record["tricks"], record["trump"] or "none")
    return buck_post(number, record)


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_a_whole_game_is_a_request_a_hand(game: str) -> None:
    setup = club_setup(game=game, options={"max_cards": 3} if game == Game.BLUKE else None)
    table = setup.table
    rules = table_rules(table)
    logs = bot_game(rules, first_dealer=table.first_dealer, seed=3)
    scorekeeper = signed_in(setup.scorekeeper)
    page = scorekeeper.get(sheet_url(table))
    assert 'id="next-hand"' in page.content.decode()
    for number, log in enumerate(logs):
        dealer = (table.first_dealer + number) % 4
        record = results_record(game, setup.league.options, dealer, log)
        answer = scorekeeper.post(sheet_url(table), post_of(game, number, record))
        assert answer.status_code == 200, text(answer)[:2000]
        html = answer.content.decode()
        assert f"Hand {number + 1} is on the sheet." in html
        assert html.count('<tr id="hand-') == number + 1
        last = number == len(logs) - 1
        assert ('id="next-hand"' in html) is not last
        if not last:
            assert f'name="number" value="{number + 1}"' in html
    assert Hand.objects.filter(table=table).count() == len(logs)
    table.refresh_from_db()
    assert table.complete


def test_a_refused_hand_is_the_sheet_again_by_its_field_with_nothing_stored() -> None:
    setup = club_setup()
    scorekeeper = signed_in(setup.scorekeeper)
    before = db_state()
    # the form's own check: a missing number
    missing = bluke_post(0, [3, 2, 4, 2], [3, 2, 5, 3])
    del missing["tricks_2"]
    answer = scorekeeper.post(sheet_url(setup.table), missing)
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'id="error-summary"' in html and 'href="#id_tricks_2"' in html
    assert 'id="id_tricks_2_error"' in html or "Enter the tricks" in html
    # the engine's: tricks that do not add up, and bids out of range (every one at once)
    answer = scorekeeper.post(sheet_url(setup.table), bluke_post(0, [3, 2, 4, 2], [3, 2, 5, 1]))
    assert answer.status_code == 400
    assert 'id="tricks-error"' in answer.content.decode()
    answer = scorekeeper.post(sheet_url(setup.table), bluke_post(0, [14, 2, 0, 2], [3, 2, 5, 3]))
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'href="#id_bid_0"' in html and 'href="#id_bid_2"' in html
    # what was typed is still there
    assert re.search(r'name="tricks_3"[^>]*value="3"', html)
    assert db_state() == before


def test_a_hand_posted_twice_or_for_another_number_is_refused_409() -> None:
    setup = club_setup()
    scorekeeper = signed_in(setup.scorekeeper)
    hand = bluke_post(0, [3, 2, 4, 2], [3, 2, 5, 3])
    assert scorekeeper.post(sheet_url(setup.table), hand).status_code == 200
    again = scorekeeper.post(sheet_url(setup.table), hand)  # a reload of the answer
    assert again.status_code == 409
    assert "This form was for another hand" in text(again)
    assert Hand.objects.filter(table=setup.table).count() == 1


def test_a_complete_game_takes_no_hand_from_the_sheet() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    hand_submit(table=setup.table, record={"trump": "S", "maker": 1, "tricks": [0, 5, 0, 0]})
    before = db_state()
    answer = signed_in(setup.scorekeeper).post(
        sheet_url(setup.table), buck_post(1, {"trump": "S", "maker": 2, "tricks": [0, 0, 5, 0]})
    )
    assert answer.status_code == 409
    assert "the game is complete" in text(answer)
    assert db_state() == before


@pytest.mark.parametrize("who", ["member", "stranger"])
def test_only_the_clubs_scorekeepers_post_to_the_sheet(who: str) -> None:
    from tests.support.factories import UserFactory
    from tests.support.setups import member

    setup = club_setup()
    user = member(setup) if who == "member" else UserFactory()
    before = db_state()
    answer = signed_in(user).post(sheet_url(setup.table), bluke_post(0, [3, 2, 4, 2], [3, 2, 5, 3]))
    assert answer.status_code == (403 if who == "member" else 404)
    assert db_state() == before


def test_a_tables_link_enters_on_its_sheet_as_its_seat() -> None:
    setup = club_setup()
    token = table_link_create(table=setup.table, by=setup.organiser).token
    phone = Client()
    link = f"/t/{token}/"
    hand = bluke_post(0, [3, 2, 4, 2], [3, 2, 5, 3])
    refused = phone.post(link, hand)
    assert refused.status_code == 302 and not Hand.objects.exists()  # say who you are first
    assert 'id="next-hand"' not in phone.get(link).content.decode()
    phone.post(f"{link}seat/", {"seat": "1"})
    assert 'id="next-hand"' in phone.get(link).content.decode()
    answer = phone.post(link, hand)
    assert answer.status_code == 200
    assert "Hand 1 is on the sheet." in text(answer)
    entry = AuditEntry.objects.get(action="hand.submitted")
    assert (entry.via, entry.seat) == ("link", 1)
