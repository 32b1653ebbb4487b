"""The organisers' pages for names and undo: "Do you mean Ada?" before adding a
close name, a pasted list of players, and the pages that delete a night, a round,
a table or a player and merge a player entered twice."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.models import AuditEntry, Event, Player, Round, Seating, Table
from league.services import clubs
from league.services.results import hand_submit
from tests.support.attendance import draw, new_night
from tests.support.factories import PlayerFactory, make_table
from tests.support.markup import assert_tied, error_of, text
from tests.support.organise import (
    REFUSED_WITH,
    VISITORS,
    assert_refused,
    event_edit_url,
    player_edit_url,
    players_url,
)
from tests.support.setups import ClubSetup, club_setup
from tests.support.state import db_state
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db


def names_of(setup: ClubSetup) -> list[str]:
    return list(
        Player.objects.filter(club=setup.club).order_by("pk").values_list("name", flat=True)
    )


# -- adding one player: "do you mean Ada?" -------------------------------------------------


def test_a_close_name_asks_first_and_adds_nothing() -> None:
    setup = club_setup()
    ada = clubs.player_create(club=setup.club, name="Ada Lovelace")
    before = db_state()
    response = signed_in(setup.organiser).post(
        players_url(setup.club), {"name": "Ada  Lovelce", "kind": "member"}
    )
    assert response.status_code == 200 and db_state() == before
    page = text(response)
    assert "Do you mean Ada Lovelace?" in page
    assert reverse("player-edit", kwargs={"player_id": ada.pk}) in page
    assert "No, add Ada Lovelce" in page
    assert 'name="confirmed" value="Ada Lovelce"' in page


def test_no_add_it_answers_the_question_and_adds_the_player() -> None:
    setup = club_setup()
    clubs.player_create(club=setup.club, name="Ada")
    client = signed_in(setup.organiser)
    response = client.post(
        players_url(setup.club), {"name": "Adaa", "kind": "guest", "confirmed": "Adaa"}
    )
    assert response.status_code == 302
    added = Player.objects.get(club=setup.club, name="Adaa")
    assert added.is_guest
    assert "Adaa is added as a guest." in text(client.get(response["Location"]))


def test_an_answer_for_another_name_asks_again() -> None:
    setup = club_setup()
    clubs.player_create(club=setup.club, name="Ada")
    response = signed_in(setup.organiser).post(
        players_url(setup.club), {"name": "Adaa", "kind": "member", "confirmed": "Ado"}
    )
    assert response.status_code == 200 and "Do you mean Ada?" in text(response)
    assert not Player.objects.filter(name="Adaa").exists()


def test_a_name_the_club_has_in_other_letters_is_refused_by_the_field() -> None:
    setup = club_setup()
    clubs.player_create(club=setup.club, name="Ada")
    before = db_state()
    response = signed_in(setup.organiser).post(
        players_url(setup.club), {"name": "A\u200bDA", "kind": "member"}
    )
    assert response.status_code == 200 and db_state() == before
    assert "The club already has a player named 'Ada'" in error_of(response, "id_name")
    assert_tied(response, "name", "id_name_error")
    assert "Do you mean" not in text(response)


def test_a_name_with_a_control_character_is_refused_by_the_field() -> None:
    setup = club_setup()
    before = db_state()
    response = signed_in(setup.organiser).post(
        players_url(setup.club), {"name": "Ada\x07", "kind": "member"}
    )
    assert response.status_code == 200 and db_state() == before
    assert "control character (U+0007)" in error_of(response, "id_name")


# -- adding players by pasting a list ------------------------------------------------------


def paste(names: str, **more: str) -> dict[str, str]:
    return {"paste-names": names, "paste-kind": "member", **more}


def test_a_pasted_list_adds_each_line_blank_lines_left_out() -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    response = client.post(players_url(setup.club), paste("Zed\r\n\r\n  Yan  Ko \n\nXu\n"))
    assert response.status_code == 302, text(response)
    assert names_of(setup)[-3:] == ["Zed", "Yan Ko", "Xu"]
    assert "3 players added: Zed, Yan Ko, Xu." in text(client.get(response["Location"]))


def test_a_pasted_list_with_faults_adds_no_one_and_names_each_line() -> None:
    setup = club_setup()
    taken = setup.players[0].name
    before = db_state()
    response = signed_in(setup.organiser).post(
        players_url(setup.club),
        paste(f"Zed\n{taken.upper()}\nzed\nA\tB\n{'x' * 101}\nYan"),
    )
    assert response.status_code == 200 and db_state() == before
    errors = error_of(response, "id_paste-names")
    assert f"Line 2: The club has “{taken}” already." in errors
    assert "Line 3: “zed” is on line 1 already." in errors
    assert "Line 4: A name cannot hold a control character (U+0009)." in errors
    assert "Line 5: A name has at most 100 characters" in errors
    assert "Line 6" not in errors
    textarea = re.search(r"<textarea[^>]*>", text(response))
    assert textarea is not None and 'aria-invalid="true"' in textarea[0]
    assert "id_paste-names_error" in textarea[0]
    assert 'href="#id_paste-names"' in text(response)  # the summary links to it


def test_an_empty_list_is_refused() -> None:
    setup = club_setup()
    response = signed_in(setup.organiser).post(players_url(setup.club), paste("\n \n"))
    assert response.status_code == 200
    assert "Paste at least one name." in error_of(response, "id_paste-names")


def test_close_names_in_a_list_ask_once_for_the_whole_list() -> None:
    setup = club_setup()
    clubs.player_create(club=setup.club, name="Ada")
    client = signed_in(setup.organiser)
    before = db_state()
    response = client.post(players_url(setup.club), paste("Zed\nAdaa"))
    assert response.status_code == 200 and db_state() == before
    page = text(response)
    assert "Line 2: “Adaa”: do you mean Ada?" in page
    assert "No, add all 2 as typed" in page
    confirmed = re.search(r'name="paste-confirmed" value="([^"]*)"', response.content.decode())
    assert confirmed is not None
    response = client.post(
        players_url(setup.club), paste("Zed\nAdaa", **{"paste-confirmed": confirmed[1]})
    )
    assert response.status_code == 302
    assert names_of(setup)[-2:] == ["Zed", "Adaa"]


# -- deleting ---------------------------------------------------------------------------------


def test_a_player_with_no_games_is_deleted_after_the_confirmation_page() -> None:
    setup = club_setup()
    typo = PlayerFactory(club=setup.club, name="Typo")
    client = signed_in(setup.organiser)
    url = reverse("player-delete", kwargs={"player_id": typo.pk})
    page = client.get(url)
    assert page.status_code == 200 and "Delete Typo" in text(page)
    assert "cannot be deleted" not in text(page)
    assert reverse("player-delete", kwargs={"player_id": typo.pk}) in text(
        client.get(player_edit_url(typo))
    )
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == players_url(setup.club)
    assert not Player.objects.filter(pk=typo.pk).exists()
    assert AuditEntry.objects.get(action="player.deleted").via == "page"


def test_a_player_with_games_shows_why_and_offers_no_button() -> None:
    setup = club_setup()
    player = setup.players[0]
    url = reverse("player-delete", kwargs={"player_id": player.pk})
    client = signed_in(setup.organiser)
    page = text(client.get(url))
    assert "It cannot be deleted" in page and "has 1 game" in page and "merge" in page
    assert f"Delete {player.name}</button>" not in page
    before = db_state()
    response = client.post(url)
    assert response.status_code == 409 and db_state() == before
    assert "has 1 game" in text(response)


def test_a_night_a_round_and_a_table_are_deleted_from_the_night_s_edit_page() -> None:
    setup = club_setup()
    night = new_night(setup, rounds=3)
    table = draw(setup, night, 1)
    second = make_table(round=night.rounds.get(number=1), players=setup.players[4:8], number=2)
    client = signed_in(setup.organiser)
    edit = text(client.get(event_edit_url(night)))
    round_one = night.rounds.get(number=1)
    assert reverse("round-delete", kwargs={"round_id": round_one.pk}) in edit
    assert reverse("event-delete", kwargs={"event_id": night.pk}) in edit

    round_page = text(client.get(reverse("round-delete", kwargs={"round_id": round_one.pk})))
    assert "2 tables and their seats" in round_page
    assert reverse("table-delete", kwargs={"table_id": second.pk}) in round_page

    table_url = reverse("table-delete", kwargs={"table_id": second.pk})
    assert second.seatings.first().player.name in text(client.get(table_url))
    assert client.post(table_url)["Location"] == event_edit_url(night)
    assert list(Table.objects.filter(round__event=night).values_list("pk", flat=True)) == [table.pk]

    round_three = night.rounds.get(number=3)
    response = client.post(reverse("round-delete", kwargs={"round_id": round_three.pk}))
    assert response.status_code == 302
    assert list(night.rounds.values_list("number", flat=True)) == [1, 2]

    response = client.post(reverse("event-delete", kwargs={"event_id": night.pk}))
    assert response.status_code == 302
    assert not Event.objects.filter(pk=night.pk).exists()
    assert set(AuditEntry.objects.filter(via="page").values_list("action", flat=True)) >= {
        "table.deleted",
        "round.deleted",
        "event.deleted",
    }


def test_what_holds_hands_is_named_and_nothing_goes() -> None:
    setup = club_setup()
    hand_submit(table=setup.table, record={"trump": "S", "bids": [1] * 4, "tricks": [13, 0, 0, 0]})
    client = signed_in(setup.organiser)
    before = db_state()
    for url in (
        reverse("event-delete", kwargs={"event_id": setup.event.pk}),
        reverse("round-delete", kwargs={"round_id": setup.round.pk}),
        reverse("table-delete", kwargs={"table_id": setup.table.pk}),
    ):
        page = text(client.get(url))
        assert "Hands are entered: table 1 of round 1 has 1 hand." in page, url
        response = client.post(url)
        assert response.status_code == 409 and "table 1 of round 1 has 1 hand" in text(response)
    assert db_state() == before


def test_a_round_before_a_drawn_round_and_a_night_s_only_round_say_why() -> None:
    setup = club_setup()
    night = new_night(setup, rounds=2)
    draw(setup, night, 2)
    client = signed_in(setup.organiser)
    first = reverse("round-delete", kwargs={"round_id": night.rounds.get(number=1).pk})
    assert "Round 2 is drawn: delete the later rounds first" in text(client.get(first))
    alone = new_night(setup, rounds=1)
    only = reverse("round-delete", kwargs={"round_id": alone.rounds.get().pk})
    assert "only round: delete the game night instead" in text(client.get(only))
    assert client.post(only).status_code == 409
    assert Round.objects.filter(event=alone).count() == 1


# -- merging ------------------------------------------------------------------------------------


def test_merging_chooses_previews_and_confirms() -> None:
    setup = club_setup()
    kept = clubs.player_create(club=setup.club, name="Ada Lovelace")
    twice = clubs.player_create(club=setup.club, name="Ada Lovelac")
    night = new_night(setup)
    make_table(round=night.rounds.get(number=1), players=[twice, *setup.players[5:8]])
    client = signed_in(setup.organiser)
    url = reverse("player-merge", kwargs={"player_id": twice.pk})
    assert url in text(client.get(player_edit_url(twice)))

    chooser = text(client.get(url))
    assert '<optgroup label="Close names">' in chooser
    assert "Ada Lovelace (0 games)" in chooser

    preview = client.get(url, {"into": kept.pk})
    page = text(preview)
    assert preview.status_code == 200 and "Ada Lovelace is kept" in page
    assert "<li>1 game</li>" in page and setup.league.name in page
    before = db_state()
    assert db_state() == before  # a preview changes nothing

    response = client.post(url, {"into": kept.pk})
    assert response.status_code == 302 and response["Location"] == player_edit_url(kept)
    assert not Player.objects.filter(pk=twice.pk).exists()
    assert Seating.objects.filter(player=kept).count() == 1
    assert AuditEntry.objects.get(action="player.merged").via == "page"


def test_a_merge_of_two_people_is_refused_on_the_page() -> None:
    setup = club_setup()
    url = reverse("player-merge", kwargs={"player_id": setup.players[1].pk})
    client = signed_in(setup.organiser)
    preview = client.get(url, {"into": setup.players[0].pk})
    assert preview.status_code == 409
    assert "both sat at table 1 of round 1" in text(preview)
    assert "Merge Player" not in text(preview).split("They cannot be merged")[1]
    before = db_state()
    assert client.post(url, {"into": setup.players[0].pk}).status_code == 409
    assert client.post(url, {"into": "nobody"}).status_code == 400
    assert db_state() == before


# -- who may open them ------------------------------------------------------------------------


@pytest.mark.parametrize("visitor", list(REFUSED_WITH))
@pytest.mark.parametrize(
    "page", ["player-delete", "player-merge", "event-delete", "round-delete", "table-delete"]
)
def test_only_organisers_open_the_undo_pages(visitor: str, page: str) -> None:
    setup = club_setup()
    kwargs: dict[str, Any] = {
        "player-delete": {"player_id": setup.players[7].pk},
        "player-merge": {"player_id": setup.players[7].pk},
        "event-delete": {"event_id": setup.event.pk},
        "round-delete": {"round_id": setup.round.pk},
        "table-delete": {"table_id": setup.table.pk},
    }[page]
    url = reverse(page, kwargs=kwargs)
    client: Client = VISITORS[visitor](setup)
    before = db_state()
    assert_refused(client.get(url), visitor, url)
    assert_refused(client.post(url), visitor, url)
    assert db_state() == before
