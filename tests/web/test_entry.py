"""Entering and correcting hands at the table: Bluke in two steps (bids,
checked by the engine, then tricks), Buck Euchre in one; every refusal shown
next to the field it concerns, with nothing stored; who may do it; CSRF;
queries; logging in and out."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from league.errors import Conflict
from league.models import Game, Hand
from league.services import results as results_service
from league.services.results import hand_correct, hand_submit
from league.web.hand_forms import HandForm, Stage
from tests.support.factories import PASSWORD, UserFactory
from tests.support.markup import (
    assert_tied,
    error_of,
    field,
    inputs_of,
    selected,
    tables_of,
    text,
)
from tests.support.records import BUCK_EUCHRE_REFUSALS, bluke_results, bot_logs, buck_takes_all
from tests.support.setups import ClubSetup, club_setup, member, names
from tests.support.state import db_state
from tests.support.web import correct_url, enter_url, sheet_url, signed_in

pytestmark = pytest.mark.django_db


# -- what the forms post ----------------------------------------------------------------


BIDS = {"bid_0": "3", "bid_1": "2", "bid_2": "4", "bid_3": "2"}
TRICKS = {"tricks_0": "3", "tricks_1": "2", "tricks_2": "5", "tricks_3": "3"}


def step_one(**changes: str) -> dict[str, str]:
    return {"number": "0", "step": "bids", "trump": "S", **BIDS, **changes}


def step_two(**changes: str) -> dict[str, str]:
    return {"number": "0", "step": "tricks", "trump": "S", **BIDS, **TRICKS, **changes}


BUCK = {
    "number": "0",
    "trump": "S",
    "maker": "1",
    "drop_3": "on",
    "tricks_0": "1",
    "tricks_1": "3",
    "tricks_2": "1",
    "tricks_3": "0",
}


def buck(**changes: str | None) -> dict[str, str]:
    data = {**BUCK, **changes}
    return {key: value for key, value in data.items() if value is not None}


# -- Bluke: two steps -----------------------------------------------------------------------


def test_step_one_asks_for_trump_and_the_bids_in_bidding_order() -> None:
    setup = club_setup()
    response = signed_in(setup.scorekeeper).get(enter_url(setup.table))
    assert response.status_code == 200
    html = text(response)
    assert "<legend>Step 1 of 2: trump and bids</legend>" in html
    assert "13 cards each, " + names(setup)[0] + " deals." in html
    ids = re.findall(r'id="id_(bid_\d|tricks_\d)"', html)
    assert ids == ["bid_1", "bid_2", "bid_3", "bid_0"]  # the dealer's left bids first
    bid = field(response, "bid_1")
    assert [bid[k] for k in ("type", "inputmode", "min", "max")] == ["number", "numeric", "1", "13"]
    label = f'<label for="id_bid_1" class="who">{names(setup)[1]} <span class="note">(bids first)'
    assert label in html
    assert field(response, "number") == {"tag": "input", "type": "hidden", "name": "number",
                                         "value": "0", "id": "id_number"}  # fmt: skip
    assert "tricks_0" not in html


def test_a_bluke_hand_in_two_steps_then_the_totals_show() -> None:
    setup = club_setup()
    client = signed_in(setup.scorekeeper)
    second = client.post(enter_url(setup.table), step_one())
    assert second.status_code == 200
    html = text(second)
    assert "<legend>Step 2 of 2: tricks taken</legend>" in html
    assert "Trump: ♠ Spades." in html
    for seat, bid in BIDS.items():
        assert field(second, seat) == {"tag": "input", "type": "hidden", "name": seat,
                                       "value": bid, "id": f"id_{seat}"}  # fmt: skip
    assert field(second, "trump")["type"] == "hidden"
    ann, bob = names(setup)[:2]
    assert f'{bob} <span class="note">(leads, bid 2)</span>' in html
    assert f'{ann} <span class="note">(dealer, bid 3)</span>' in html
    assert Hand.objects.count() == 0  # nothing is stored until step two

    done = client.post(enter_url(setup.table), step_two())
    assert done.status_code == 302
    assert done["Location"] == f"{sheet_url(setup.table)}#hand-0"
    hand = Hand.objects.get(table=setup.table)
    assert hand.record == {"trump": "S", "bids": [3, 2, 4, 2], "tricks": [3, 2, 5, 3]}
    assert not hand.is_move_log
    sheet = client.get(done["Location"])
    assert text(sheet).count("Hand 1 is on the sheet.") == 1
    assert tables_of(sheet.content.decode())[0][-1] == ["Now", "30", "20", "41", "21"]
    following = client.get(enter_url(setup.table))
    assert "12 cards each, " + bob + " deals." in text(following)
    assert field(following, "number")["value"] == "1"


def test_no_trump_is_carried_through_both_steps() -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    second = client.post(enter_url(setup.table), step_one(trump="none"))
    assert "Trump: No trump (a Bluke was turned up)." in text(second)
    assert field(second, "trump")["value"] == "none"
    assert client.post(enter_url(setup.table), step_two(trump="none")).status_code == 302
    assert Hand.objects.get().record["trump"] is None


def test_going_back_from_step_two_keeps_the_bids() -> None:
    setup = club_setup()
    client = signed_in(setup.scorekeeper)
    back = client.post(enter_url(setup.table), step_two(step="back", tricks_0="x"))
    assert back.status_code == 200
    assert "Step 1 of 2" in text(back)
    assert field(back, "bid_2")["value"] == "4"
    assert field(back, "trump")["tag"] == "select"
    assert selected(back, "trump") == ["S"]
    assert 'value="S" selected' in text(back)
    assert "error-summary" not in text(back)


@pytest.mark.parametrize(
    ("changes", "field_name", "message"),
    [
        ({"bid_2": "0"}, "bid_2", "{2}'s bid of 0 is out of range: bids run from 1 to 13."),
        ({"bid_2": "14"}, "bid_2", "{2}'s bid of 14 is out of range: bids run from 1 to 13."),
        ({"bid_3": "-1"}, "bid_3", "{3}'s bid of -1 is out of range: bids run from 1 to 13."),
        ({"bid_0": "three"}, "bid_0", "Enter {0}'s bid as a whole number."),
        ({"bid_0": "1.5"}, "bid_0", "Enter {0}'s bid as a whole number."),
        ({"bid_0": "9" * 5000}, "bid_0", "Enter {0}'s bid as a whole number."),
        ({"bid_1": ""}, "bid_1", "Enter {1}'s bid."),
        ({"trump": ""}, "trump", "Choose the trump suit, or no trump."),
        ({"trump": "X"}, "trump", "Choose the trump suit from the list."),
    ],
)
def test_step_one_refuses_each_bad_entry_by_its_field(
    changes: dict[str, str], field_name: str, message: str
) -> None:
    setup = club_setup()
    before = db_state()
    response = signed_in(setup.scorekeeper).post(enter_url(setup.table), step_one(**changes))
    assert response.status_code == 200
    assert "Step 1 of 2" in text(response)
    assert error_of(response, f"id_{field_name}") == message.format(*names(setup))
    assert_tied(response, field_name, f"id_{field_name}_error")
    assert text(response).count("<li>") >= 1
    assert "<title>Error: " in text(response)
    assert db_state() == before


def test_a_missing_bid_field_is_asked_for() -> None:
    setup = club_setup()
    data = step_one()
    del data["bid_2"]
    response = signed_in(setup.scorekeeper).post(enter_url(setup.table), data)
    assert error_of(response, "id_bid_2") == f"Enter {names(setup)[2]}'s bid."


def test_every_bad_bid_is_shown_at_once() -> None:
    setup = club_setup()
    response = signed_in(setup.scorekeeper).post(
        enter_url(setup.table), step_one(bid_0="x", bid_1="0", bid_3="20")
    )
    one, three = names(setup)[1], names(setup)[3]
    assert error_of(response, "id_bid_0") == f"Enter {names(setup)[0]}'s bid as a whole number."
    out_of_range = "is out of range: bids run from 1 to 13."
    assert error_of(response, "id_bid_1") == f"{one}'s bid of 0 {out_of_range}"
    assert error_of(response, "id_bid_3") == f"{three}'s bid of 20 {out_of_range}"
    assert "id_bid_2_error" not in text(response)
    assert "There are 3 problems" in text(response)
    summary = text(response).split('id="error-summary"')[1].split("</div>")[0]
    order = [summary.index(f'href="#id_bid_{seat}"') for seat in (1, 3, 0)]
    assert order == sorted(order)  # the summary follows the page: bidding order


@pytest.mark.parametrize(
    ("changes", "field_name", "message"),
    [
        ({"tricks_2": "4"}, "tricks", "The tricks add up to 12, not the 13 cards dealt."),
        ({"tricks_2": "6"}, "tricks", "The tricks add up to 14, not the 13 cards dealt."),
        (
            {"tricks_1": "-1", "tricks_2": "8"},
            "tricks_1",
            "{1}'s -1 tricks are out of range: a player takes from 0 to 13.",
        ),
        (
            {"tricks_0": "14"},
            "tricks_0",
            "{0}'s 14 tricks are out of range: a player takes from 0 to 13.",
        ),
        ({"tricks_3": "lots"}, "tricks_3", "Enter the tricks {3} took as a whole number."),
        ({"tricks_3": ""}, "tricks_3", "Enter the tricks {3} took."),
    ],
)
def test_step_two_refuses_each_bad_entry_by_its_field(
    changes: dict[str, str], field_name: str, message: str
) -> None:
    setup = club_setup()
    before = db_state()
    response = signed_in(setup.scorekeeper).post(enter_url(setup.table), step_two(**changes))
    assert response.status_code == 200
    assert "Step 2 of 2" in text(response)
    expected = message.format(*names(setup))
    if field_name == "tricks":  # about every seat's tricks: shown at the head of the group
        assert error_of(response, "tricks") == expected
        for seat in range(4):
            assert_tied(response, f"tricks_{seat}", "tricks-error", linked=seat == 1)
    else:
        assert error_of(response, f"id_{field_name}") == expected
        assert_tied(response, field_name, f"id_{field_name}_error")
    assert db_state() == before


@pytest.mark.parametrize(
    ("changes", "field_name", "message"),
    [
        ({"bid_2": "0"}, "bid_2", "{2}'s bid of 0 is out of range: bids run from 1 to 13."),
        ({"bid_2": "99"}, "bid_2", "{2}'s bid of 99 is out of range: bids run from 1 to 13."),
        ({"bid_0": "x"}, "bid_0", "Enter {0}'s bid as a whole number."),
        ({"bid_1": ""}, "bid_1", "Enter {1}'s bid."),
        ({"trump": "spades"}, "trump", "Choose the trump suit from the list."),
    ],
)
def test_tampered_step_one_entries_send_step_two_back_to_step_one(
    changes: dict[str, str], field_name: str, message: str
) -> None:
    setup = club_setup()
    before = db_state()
    response = signed_in(setup.scorekeeper).post(enter_url(setup.table), step_two(**changes))
    assert response.status_code == 200
    html = text(response)
    assert "Step 1 of 2" in html
    assert "The bids were changed after step one: check them again." in html
    assert error_of(response, f"id_{field_name}") == message.format(*names(setup))
    assert_tied(response, field_name, f"id_{field_name}_error")
    assert db_state() == before


def test_an_unknown_step_is_step_one() -> None:
    setup = club_setup()
    response = signed_in(setup.scorekeeper).post(enter_url(setup.table), step_one(step="zzz"))
    assert "Step 2 of 2" in text(response)  # the bids were checked and carried on


# -- Buck Euchre: one form ---------------------------------------------------------------------


def test_the_buck_euchre_form_has_trump_maker_drops_and_tricks() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    response = signed_in(setup.scorekeeper).get(enter_url(setup.table))
    html = text(response)
    assert "<legend>Trump and maker</legend>" in html
    assert "<legend>Drops and tricks</legend>" in html
    assert '<option value="none">No trump (everyone passed)</option>' in html
    assert " selected>Nobody: a club was turned up, or no trump</option>" in html
    assert re.findall(r'id="id_(drop_\d|tricks_\d)"', html) == [
        "drop_1", "tricks_1", "drop_2", "tricks_2", "drop_3", "tricks_3", "drop_0", "tricks_0"
    ]  # fmt: skip
    assert field(response, "drop_1")["type"] == "checkbox"
    tricks = field(response, "tricks_1")
    assert (tricks["inputmode"], tricks["min"], tricks["max"]) == ("numeric", "0", "5")
    assert field(response, "maker")["aria-describedby"] == "id_maker_helptext"


def test_a_buck_euchre_hand_is_stored_and_counts_down() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    client = signed_in(setup.scorekeeper)
    done = client.post(enter_url(setup.table), buck())
    assert done.status_code == 302
    assert done["Location"] == f"{sheet_url(setup.table)}#hand-0"
    hand = Hand.objects.get()
    assert hand.record == {"trump": "S", "maker": 1, "drops": [3], "tricks": [1, 3, 1, 0]}
    setup.table.refresh_from_db()
    assert setup.table.totals == [24, 22, 24, 25]
    assert "<td>22</td>" in text(client.get(sheet_url(setup.table)))


@pytest.mark.parametrize(
    "changes",
    [
        # everyone passed and everyone dropped: nobody scores
        {"trump": "none", "maker": "", "drop_0": "on", "drop_1": "on", "drop_2": "on",
         "drop_3": "on", "tricks_0": "0", "tricks_1": "0", "tricks_2": "0", "tricks_3": "0"},
        # a turned-up club: no maker, nobody drops
        {"trump": "C", "maker": "", "drop_3": None},
        # the maker alone stays in and takes all five
        {"maker": "1", "drop_0": "on", "drop_2": "on", "tricks_0": "0", "tricks_1": "5",
         "tricks_2": "0"},
    ],
)  # fmt: skip
def test_the_cases_the_rules_allow_are_stored(changes: dict[str, str | None]) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    response = signed_in(setup.scorekeeper).post(enter_url(setup.table), buck(**changes))
    assert response.status_code == 302, text(response)[-3000:]
    assert Hand.objects.count() == 1


@pytest.mark.parametrize(
    ("changes", "field_name", "message"),
    [
        *BUCK_EUCHRE_REFUSALS,
        ({"tricks_2": "-2"}, "tricks_2",
         "{2}'s -2 tricks are out of range: a player takes from 0 to 5."),
        ({"tricks_2": "two"}, "tricks_2", "Enter the tricks {2} took as a whole number."),
        ({"tricks_2": None}, "tricks_2", "Enter the tricks {2} took."),
        ({"maker": "7"}, "maker", "Choose the maker from the list."),
        ({"maker": "x"}, "maker", "Choose the maker from the list."),
        ({"trump": "Z"}, "trump", "Choose the trump suit from the list."),
        ({"trump": None}, "trump", "Choose the trump suit, or no trump."),
    ],
)  # fmt: skip
def test_buck_euchre_refusals_are_shown_by_their_field(
    changes: dict[str, str | None], field_name: str, message: str
) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    before = db_state()
    response = signed_in(setup.scorekeeper).post(enter_url(setup.table), buck(**changes))
    assert response.status_code == 200
    expected = message.format(*names(setup))
    if field_name == "tricks":
        assert error_of(response, "tricks") == expected
        assert_tied(response, "tricks_1", "tricks-error")
    else:
        assert error_of(response, f"id_{field_name}") == expected
        assert_tied(response, field_name, f"id_{field_name}_error")
    assert db_state() == before


def test_a_refused_form_keeps_what_was_entered() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    response = signed_in(setup.scorekeeper).post(enter_url(setup.table), buck(tricks_0="2"))
    assert field(response, "tricks_0")["value"] == "2"
    assert "checked" in field(response, "drop_3")
    assert 'value="1" selected' in text(response)


# -- the state of the table ------------------------------------------------------------------


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_a_complete_game_has_no_form_and_refuses_a_post(game: str) -> None:
    setup = club_setup(game=game, options={"max_cards": 1} if game == Game.BLUKE else None)
    record = bluke_results(1) if game == Game.BLUKE else buck_takes_all(0)
    hand_submit(table=setup.table, record=record)
    client = signed_in(setup.scorekeeper)
    page = client.get(enter_url(setup.table))
    assert page.status_code == 200
    assert "is complete" in text(page)
    assert "hand-form" not in text(page)
    before = db_state()
    data = step_two(number="1") if game == Game.BLUKE else buck(number="1")
    refused = client.post(enter_url(setup.table), data)
    assert refused.status_code == 409
    assert "Nothing was stored: a complete game takes no more hands." in text(refused)
    assert db_state() == before


def test_a_hand_entered_meanwhile_moves_the_form_on() -> None:
    setup = club_setup()
    client = signed_in(setup.scorekeeper)
    client.post(enter_url(setup.table), step_one())
    hand_submit(table=setup.table, record=bluke_results(13))  # another scorekeeper
    before = db_state()
    response = client.post(enter_url(setup.table), step_two())
    assert response.status_code == 409
    html = text(response)
    assert "This form was for another hand: the sheet has moved on." in html
    assert "<h1>Hand 2 " in html
    assert field(response, "number")["value"] == "1"
    assert db_state() == before


@pytest.mark.parametrize("number", ["", "abc", "-1", "7"])
def test_a_tampered_hand_number_stores_nothing(number: str) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    before = db_state()
    response = signed_in(setup.scorekeeper).post(enter_url(setup.table), buck(number=number))
    assert response.status_code == 409
    assert db_state() == before


@pytest.mark.parametrize("error", [Conflict("hand 0 is already stored"), IntegrityError("unique")])
def test_a_race_lost_in_the_service_is_a_page_not_a_500(
    monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)

    def lose(**kwargs: Any) -> None:
        raise error

    monkeypatch.setattr(results_service, "hand_submit", lose)
    response = signed_in(setup.scorekeeper).post(enter_url(setup.table), buck())
    assert response.status_code == 409
    assert "the sheet has moved on" in text(response)


def test_a_race_lost_to_the_games_last_hand_is_the_complete_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another phone stores the hand that ends the game first: this phone's
    hand is refused by the service, and the page says the game is complete."""
    setup = club_setup(game=Game.BUCK_EUCHRE)
    submit = hand_submit

    def other_phone_first(**kwargs: Any) -> Any:
        submit(table=kwargs["table"], record=buck_takes_all(0), number=0)  # ends the game
        return submit(**kwargs)

    monkeypatch.setattr(results_service, "hand_submit", other_phone_first)
    response = signed_in(setup.scorekeeper).post(enter_url(setup.table), buck())
    assert response.status_code == 409
    assert "is complete" in text(response)
    assert Hand.objects.filter(table=setup.table).count() == 1


def test_a_game_over_from_the_engine_is_the_complete_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game completed between the page's check and the service's lock."""
    import games

    setup = club_setup(game=Game.BUCK_EUCHRE)

    def over(**kwargs: Any) -> None:
        raise games.InvalidRecord("game_over", "the game at this table is complete", hand=1)

    monkeypatch.setattr(results_service, "hand_submit", over)
    response = signed_in(setup.scorekeeper).post(enter_url(setup.table), buck())
    assert response.status_code == 409
    assert "is complete" in text(response)


# -- corrections -------------------------------------------------------------------------------


def _two_bluke_hands(setup: ClubSetup) -> None:
    hand_submit(table=setup.table, record={"trump": "S", "bids": [3, 2, 4, 2],
                                                    "tricks": [3, 2, 5, 3]})  # fmt: skip
    hand_submit(table=setup.table, record={"trump": "H", "bids": [1, 6, 2, 2],
                                                    "tricks": [1, 5, 4, 2]})  # fmt: skip


def test_the_correction_form_is_prefilled_from_the_stored_hand() -> None:
    setup = club_setup()
    _two_bluke_hands(setup)
    setup.table.refresh_from_db()
    response = signed_in(setup.scorekeeper).get(correct_url(setup.table, 0))
    assert response.status_code == 200
    html = text(response)
    assert "<h1>Correct hand 1 " in html
    assert "<legend>Bids and tricks</legend>" in html
    assert field(response, "version")["value"] == str(setup.table.version)
    assert field(response, "version")["type"] == "hidden"
    assert 'value="S" selected' in html
    values = {f"{k}": field(response, k)["value"] for k in (*BIDS, *TRICKS)}
    assert values == {**BIDS, **TRICKS}
    assert "card by card" not in html
    hidden = f'<span class="visually-hidden">{names(setup)[1]} (leads): </span>'
    label = f'<label for="id_bid_1">{hidden}bid</label>'
    assert label in html


def test_a_correction_is_stored_and_later_hands_are_scored_again() -> None:
    setup = club_setup()
    _two_bluke_hands(setup)
    setup.table.refresh_from_db()
    client = signed_in(setup.scorekeeper)
    data = {"version": str(setup.table.version), "trump": "D", **BIDS, **TRICKS,
            "tricks_2": "4", "tricks_3": "4"}  # fmt: skip
    done = client.post(correct_url(setup.table, 0), data)
    assert done.status_code == 302
    assert done["Location"] == f"{sheet_url(setup.table)}#hand-0"
    setup.table.refresh_from_db()
    # Hand 1 now 30, 20, 40, 22; hand 2 adds 10, -60, 22, 20.
    assert setup.table.totals == [40, -40, 62, 42]
    assert Hand.objects.get(number=0).record["trump"] == "D"
    assert "Hand 1 is corrected." in text(client.get(done["Location"]))


def test_a_buck_euchre_correction_is_prefilled_with_maker_and_drops() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    hand_submit(table=setup.table, record={"trump": "S", "maker": 1, "drops": [3],
                                                    "tricks": [1, 3, 1, 0]})  # fmt: skip
    response = signed_in(setup.organiser).get(correct_url(setup.table, 0))
    html = text(response)
    assert 'value="1" selected' in html
    assert "checked" in field(response, "drop_3")
    assert "checked" not in field(response, "drop_0")
    assert field(response, "tricks_1")["value"] == "3"


@pytest.mark.parametrize("version", ["stale", "", "abc", "-3", "99999"])
def test_a_stale_version_gives_the_current_sheet_again(version: str) -> None:
    setup = club_setup()
    _two_bluke_hands(setup)
    setup.table.refresh_from_db()
    client = signed_in(setup.scorekeeper)
    page = client.get(correct_url(setup.table, 1))
    old_version = field(page, "version")["value"]
    # Meanwhile someone else corrects hand 2.
    changed = {"trump": "C", "bids": [1, 6, 2, 2], "tricks": [2, 5, 3, 2]}
    hand_correct(table=setup.table, number=1, version=None, record=changed)
    setup.table.refresh_from_db()
    before = db_state()
    data = {"version": old_version if version == "stale" else version, "trump": "H",
            **{f"bid_{s}": b for s, b in enumerate(["1", "6", "2", "2"])},
            **{f"tricks_{s}": t for s, t in enumerate(["1", "5", "4", "2"])}}  # fmt: skip
    response = client.post(correct_url(setup.table, 1), data)
    assert response.status_code == 409
    html = text(response)
    assert "The sheet changed while you were editing; here it is again." in html
    assert field(response, "version")["value"] == str(setup.table.version)
    assert 'value="C" selected' in html  # the current values, not the ones posted
    assert field(response, "tricks_0")["value"] == "2"
    assert db_state() == before


def test_correction_refusals_are_shown_by_their_field() -> None:
    setup = club_setup()
    _two_bluke_hands(setup)
    setup.table.refresh_from_db()
    client = signed_in(setup.scorekeeper)
    before = db_state()
    base = {"version": str(setup.table.version), "trump": "S", **BIDS, **TRICKS}
    bad_bid = client.post(correct_url(setup.table, 0), {**base, "bid_2": "0"})
    assert bad_bid.status_code == 200
    assert error_of(bad_bid, "id_bid_2") == (
        f"{names(setup)[2]}'s bid of 0 is out of range: bids run from 1 to 13."
    )
    assert_tied(bad_bid, "bid_2", "id_bid_2_error")
    bad_sum = client.post(correct_url(setup.table, 0), {**base, "tricks_0": "4"})
    assert error_of(bad_sum, "tricks") == "The tricks add up to 14, not the 13 cards dealt."
    not_a_number = client.post(correct_url(setup.table, 0), {**base, "tricks_0": "4.5"})
    assert error_of(not_a_number, "id_tricks_0") == (
        f"Enter the tricks {names(setup)[0]} took as a whole number."
    )
    assert db_state() == before


def test_a_correction_that_a_later_hand_no_longer_fits_is_refused() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    hand_submit(table=setup.table, record={"trump": "S", "maker": 1, "drops": [3],
                                                    "tricks": [1, 3, 1, 0]})  # fmt: skip
    hand_submit(table=setup.table, record={"trump": "S", "maker": 1, "drops": [3],
                                                    "tricks": [1, 3, 1, 0]})  # fmt: skip
    setup.table.refresh_from_db()
    before = db_state()
    sweep = buck(number=None, maker="2", drop_3=None, tricks_0="0", tricks_1="0", tricks_2="5")
    response = signed_in(setup.scorekeeper).post(
        correct_url(setup.table, 0), {**sweep, "version": str(setup.table.version)}
    )
    assert response.status_code == 200
    assert (
        "With this change, hand 2 no longer fits. The game was already over after hand 1."
        in text(response)
    )
    assert db_state() == before


def test_a_move_logged_hand_becomes_results_only_and_the_page_says_so() -> None:
    setup = club_setup()
    log = bot_logs(Game.BLUKE, first_dealer=0, seed=5)[0]
    hand_submit(table=setup.table, record=log)
    setup.table.refresh_from_db()
    client = signed_in(setup.scorekeeper)
    page = client.get(correct_url(setup.table, 0))
    assert "This hand was entered card by card." in text(page)
    assert "becomes a results-only hand" in text(page)
    stored = Hand.objects.get()
    data = {"version": str(setup.table.version), "trump": stored.trump or "none"}
    for line in stored.seats.all():
        data[f"bid_{line.seat}"] = str(line.bid)
        data[f"tricks_{line.seat}"] = str(line.tricks)
    assert client.post(correct_url(setup.table, 0), data).status_code == 302
    hand = Hand.objects.get()
    assert not hand.is_move_log
    assert "deal" not in hand.record
    setup.table.refresh_from_db()
    assert "<details>" not in text(client.get(sheet_url(setup.table)))


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("number", [1, 2, 99_999])
def test_a_hand_that_does_not_exist_is_404(method: str, number: int) -> None:
    setup = club_setup()
    hand_submit(table=setup.table, record=bluke_results(13))
    response = getattr(signed_in(setup.scorekeeper), method)(correct_url(setup.table, number))
    assert response.status_code == 404


def test_a_hand_of_a_complete_game_can_be_corrected() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    hand_submit(table=setup.table, record=buck_takes_all(0))
    setup.table.refresh_from_db()
    client = signed_in(setup.scorekeeper)
    assert client.get(correct_url(setup.table, 0)).status_code == 200
    data = buck(number=None, version=str(setup.table.version))
    assert client.post(correct_url(setup.table, 0), data).status_code == 302
    setup.table.refresh_from_db()
    assert not setup.table.complete


# -- who may ---------------------------------------------------------------------------------


NEXT_HAND = {"number": "1", "step": "tricks", "trump": "S", "bid_0": "1", "bid_1": "1",
             "bid_2": "1", "bid_3": "1", "tricks_0": "9", "tricks_1": "1", "tricks_2": "1",
             "tricks_3": "1"}  # fmt: skip
"""A valid hand 2 (12 cards) after ``bluke_results(13)``."""


def _requests(setup: ClubSetup) -> list[tuple[str, str, Callable[[], dict[str, str] | None]]]:
    """Each request with its data, made when the request is sent (a
    correction carries the table's version as it is then)."""

    def correction() -> dict[str, str]:
        setup.table.refresh_from_db()
        return {"version": str(setup.table.version), "trump": "S", **BIDS, **TRICKS}

    return [
        ("get", enter_url(setup.table), lambda: None),
        ("post", enter_url(setup.table), lambda: NEXT_HAND),
        ("get", correct_url(setup.table, 0), lambda: None),
        ("post", correct_url(setup.table, 0), correction),
    ]


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("stranger", 404), ("other_club_organiser", 404),
     ("other_club_scorekeeper", 404), ("member", 403), ("scorekeeper", 200), ("organiser", 200)],
)  # fmt: skip
def test_who_may_enter_and_correct(who: str, status: int) -> None:
    setup = club_setup()
    hand_submit(table=setup.table, record=bluke_results(13))
    other = club_setup(name="Elsewhere")
    user = {
        "anonymous": None,
        "stranger": UserFactory(),
        "other_club_organiser": other.organiser,
        "other_club_scorekeeper": other.scorekeeper,
        "member": member(setup),
        "scorekeeper": setup.scorekeeper,
        "organiser": setup.organiser,
    }[who]
    before = db_state()
    for method, url, make_data in _requests(setup):
        client = Client() if user is None else signed_in(user)
        data = make_data()
        response = getattr(client, method)(url, data) if data else getattr(client, method)(url)
        if status == 200:
            # A GET shows the form; a valid POST stores and goes back to the sheet.
            expected = 302 if method == "post" else 200
            assert response.status_code == expected, (who, method, url)
            if method == "post":
                assert response["Location"].startswith(sheet_url(setup.table))
            continue
        assert response.status_code == status, (who, method, url)
        if status == 302:
            assert response["Location"] == f"{reverse('login')}?next={url}"
        if status == 403:
            assert "Only scorekeepers enter results" in text(response)
        if status == 404:
            assert "Not found" in text(response)
    if status != 200:
        assert db_state() == before
    else:
        stored = {hand.number: hand.record for hand in Hand.objects.filter(table=setup.table)}
        assert sorted(stored) == [0, 1]  # the hand entered
        assert stored[1]["tricks"] == [9, 1, 1, 1]
        assert stored[0]["bids"] == [3, 2, 4, 2]  # the correction
        assert stored[0]["tricks"] == [3, 2, 5, 3]


@pytest.mark.parametrize("signed", [False, True])
def test_a_table_that_does_not_exist(signed: bool) -> None:
    setup = club_setup()
    client = signed_in(setup.scorekeeper) if signed else Client()
    for url in (
        reverse("hand-enter", kwargs={"table_id": 999_999}),
        reverse("hand-correct", kwargs={"table_id": 999_999, "number": 0}),
    ):
        response = client.get(url)
        assert response.status_code == (404 if signed else 302)


def test_csrf_is_enforced_on_the_forms() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    client = Client(enforce_csrf_checks=True)
    client.force_login(setup.scorekeeper)
    before = db_state()
    refused = client.post(enter_url(setup.table), buck())
    assert refused.status_code == 403
    assert db_state() == before
    page = client.get(enter_url(setup.table))
    token = field(page, "csrfmiddlewaretoken")["value"]
    done = client.post(enter_url(setup.table), {**buck(), "csrfmiddlewaretoken": token})
    assert done.status_code == 302
    assert Hand.objects.count() == 1


def test_every_visible_input_has_a_label() -> None:
    setup = club_setup()
    hand_submit(table=setup.table, record=bluke_results(13))
    buck_setup = club_setup(game=Game.BUCK_EUCHRE, name="Buck club")
    hand_submit(table=buck_setup.table, record=buck_takes_all(2))
    buck_setup.table.refresh_from_db()
    setup.table.refresh_from_db()
    fresh_buck = club_setup(game=Game.BUCK_EUCHRE, name="B2")
    pages = [
        signed_in(setup.scorekeeper).get(enter_url(setup.table)),
        signed_in(setup.scorekeeper).post(enter_url(setup.table),
                                          step_one(number="1", bid_0="1", bid_1="1", bid_2="1",
                                                   bid_3="1")),
        signed_in(setup.scorekeeper).get(correct_url(setup.table, 0)),
        signed_in(buck_setup.scorekeeper).get(correct_url(buck_setup.table, 0)),
        signed_in(fresh_buck.scorekeeper).get(enter_url(fresh_buck.table)),
    ]  # fmt: skip
    assert "Trump and maker" in text(pages[4])  # the Buck Euchre new-hand form
    for page in pages:
        assert page.status_code == 200
        found = inputs_of(page)
        visible = [i for i in found.inputs if i.get("type") != "hidden"]
        assert visible
        for attrs in visible:
            assert attrs["id"] in found.labels, attrs
        assert "<fieldset>" in text(page)
        assert text(page).count("<legend>") >= 1
        assert "<table" not in text(page).split("<form", 1)[1]  # rows, not a wide table


# -- queries ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_the_forms_take_the_same_queries_for_one_hand_or_many(
    django_assert_num_queries: Any, game: str
) -> None:
    """The session, the user, the table (with round, event, league and club,
    and the user's role in the club), the seatings with players; a correction
    also its hand's lines."""
    for hands in (1, 6):
        setup = club_setup(game=game)
        for number in range(hands):
            if game == Game.BLUKE:
                record = bluke_results(13 - number)
            else:
                record = {"trump": "S", "maker": 0, "drops": [2, 3], "tricks": [3, 2, 0, 0]}
            hand_submit(table=setup.table, record=record)
        client = signed_in(setup.scorekeeper)
        with django_assert_num_queries(4):
            assert client.get(enter_url(setup.table)).status_code == 200
        with django_assert_num_queries(5):
            assert client.get(correct_url(setup.table, hands - 1)).status_code == 200
        data = step_one(number=str(hands), **{f"bid_{s}": "1" for s in range(4)})
        if game == Game.BLUKE:
            with django_assert_num_queries(4):  # step one: the engine checks the bids, no write
                assert client.post(enter_url(setup.table), data).status_code == 200


# -- logging in and out ---------------------------------------------------------------------------


def test_the_login_page_labels_its_fields() -> None:
    page = Client().get(reverse("login"))
    assert page.status_code == 200
    found = inputs_of(page)
    for name, autocomplete in (("username", "username"), ("password", "current-password")):
        attrs = field(page, name)
        assert attrs["id"] in found.labels
        assert attrs["autocomplete"] == autocomplete
        assert "required" in attrs


def test_logging_in_goes_on_to_the_page_asked_for() -> None:
    setup = club_setup()
    client = Client()
    asked = client.get(enter_url(setup.table))
    assert asked.status_code == 302
    login = client.get(asked["Location"])
    assert "Log in to continue" in text(login)
    assert field(login, "next")["value"] == enter_url(setup.table)
    done = client.post(
        reverse("login"),
        {"username": setup.scorekeeper.username, "password": PASSWORD,
         "next": enter_url(setup.table)},
    )  # fmt: skip
    assert done.status_code == 302
    assert done["Location"] == enter_url(setup.table)
    assert client.get(enter_url(setup.table)).status_code == 200


def test_a_wrong_password_is_an_error_on_the_page() -> None:
    user = UserFactory()
    client = Client()
    response = client.post(reverse("login"), {"username": user.username, "password": "wrong"})
    assert response.status_code == 200
    html = text(response)
    assert "<title>Error: Log in</title>" in html
    assert "Please enter a correct username and password." in html
    assert 'role="alert"' in html
    for name in ("username", "password"):
        attrs = field(response, name)
        assert attrs["aria-invalid"] == "true"
        assert attrs["aria-describedby"] == "login-error"
    assert field(response, "username")["value"] == user.username
    assert "_auth_user_id" not in client.session


def test_logging_out_is_a_post() -> None:
    user = UserFactory()
    client = Client()
    client.force_login(user)
    assert client.get(reverse("logout")).status_code == 405
    assert "_auth_user_id" in client.session
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    home = client.get(response["Location"])
    assert 'href="/accounts/login/"' in text(home)


# -- hostile input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/tables/99999999999999999999999/",
        "/tables/99999999999999999999999/hands/new/",
        "/tables/{table}/hands/99999999999999999999999/edit/",
        "/tables/{table}/hands/70000/edit/",
    ],
)
def test_ids_beyond_any_column_are_404(url: str) -> None:
    setup = club_setup()
    hand_submit(table=setup.table, record=bluke_results(13))
    client = signed_in(setup.scorekeeper)
    target = url.format(table=setup.table.pk)
    assert client.get(target).status_code == 404
    assert client.post(target, step_two()).status_code in (404, 405)


def test_entries_for_seats_that_do_not_exist_are_ignored() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    data = {**buck(), "tricks_4": "5", "drop_7": "on", "bid_0": "3"}
    assert signed_in(setup.scorekeeper).post(enter_url(setup.table), data).status_code == 302
    assert Hand.objects.get().record == {
        "trump": "S", "maker": 1, "drops": [3], "tricks": [1, 3, 1, 0]
    }  # fmt: skip


@pytest.mark.parametrize(
    "error", [Conflict("there is no hand 0 to correct"), IntegrityError("unique")]
)
def test_a_correction_that_loses_a_race_is_a_page_not_a_500(
    monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    setup = club_setup()
    _two_bluke_hands(setup)
    setup.table.refresh_from_db()

    def lose(**kwargs: Any) -> None:
        raise error

    monkeypatch.setattr(results_service, "hand_correct", lose)
    data = {"version": str(setup.table.version), "trump": "S", **BIDS, **TRICKS}
    response = signed_in(setup.scorekeeper).post(correct_url(setup.table, 0), data)
    assert response.status_code == 409
    assert "Another change to this table got there first" in text(response)
    assert field(response, "version")["value"] == str(setup.table.version)


def test_engine_messages_name_players_without_rewriting_their_names() -> None:
    """A player whose name looks like a hand number keeps it; a seat with no
    player is not named at all."""
    import games

    form = HandForm(
        game=Game.BLUKE,
        seats=["Ann", "hand 2", "Cleo", "Dan"],
        dealer=0,
        cards=13,
        options={},
        stage=Stage.WHOLE,
        key="version",
    )
    bid = games.IllegalMove("bad_bid", "seat 1 bid 0 in hand 3", seat=1, hand=3)
    assert form.engine_message(bid) == (
        "Check hand 2's bid: each player bids once, a number from 1 to the cards dealt."
    )
    nobody = games.IllegalMove("bad_bid", "seat 7 in hand 0", seat=7, hand=0)  # no such seat
    assert form.engine_message(nobody) == (
        "Check the bids: each player bids once, a number from 1 to the cards dealt."
    )
