"""The organiser's "Take off" on the Tonight page and the page it opens:
every way to fill the seat shown with its tables, the proposed one chosen,
the change stored only when confirmed (as shown), refusals by the choice
they concern with nothing stored, and who may use it."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Attendance, Game, Player, SitOut, Table
from league.services.results import hand_submit
from league.services.seating import event_schedule_commit
from tests.support.factories import PlayerFactory, UserFactory
from tests.support.markup import inputs_of, text
from tests.support.records import bluke_results, buck_takes_all
from tests.support.seat_changes import Night, seated_night, seats_of, sitting_out
from tests.support.setups import member
from tests.support.state import db_state
from tests.support.tonight import tonight_url
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db


def url(table: Table, player: Player) -> str:
    return reverse("table-take-off", kwargs={"table_id": table.pk, "player_id": player.pk})


def organiser(night: Night) -> Client:
    return signed_in(night.setup.organiser)


def buck_night() -> Night:
    """Two Buck Euchre tables of four, a ninth player sitting out."""
    return seated_night(
        game=Game.BUCK_EUCHRE, present=9, seats=((0, 1, 2, 3), (4, 5, 6, 7)), sit_out=(8,)
    )


def radios(response: Any, name: str) -> list[dict[str, str]]:
    return [i for i in inputs_of(response).inputs if i.get("name") == name]


def checked(response: Any, name: str) -> str | None:
    return next((i["value"] for i in radios(response, name) if "checked" in i), None)


def plain(html: str) -> str:
    """The text of ``html``: tags out, entities read."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


# -- the Tonight page's "Take off" ---------------------------------------------------------


def test_tonight_offers_take_off_for_each_player_at_a_table_without_a_hand() -> None:
    night = seated_night()
    hand_submit(table=night.tables[0], record=bluke_results(13))

    page = organiser(night).get(tonight_url(night.event))

    html = text(page)
    for player in night.players[4:10]:
        table = night.tables[1] if player in night.players[4:7] else night.tables[2]
        assert f'href="{url(table, player)}"' in html
    for player in night.players[:4]:
        assert f'href="{url(night.tables[0], player)}"' not in html  # a hand is entered


# -- the page -----------------------------------------------------------------------------


def test_the_page_proposes_the_player_sitting_out_and_shows_every_way_storing_nothing() -> None:
    night = buck_night()
    player, waiting = night.players[5], night.players[8]
    before = db_state()

    page = organiser(night).get(url(night.tables[1], player))

    assert page.status_code == 200
    assert db_state() == before
    shown = plain(text(page))
    assert f"{waiting.name} (sitting out) takes {player.name}'s seat." in shown
    assert "Nobody: table 2 would be too small" in shown
    assert checked(page, "replacement") == str(waiting.pk)
    assert checked(page, "leaves") == "1"
    assert f"{player.name} did not come: they are taken off tonight's list" in shown
    assert f"Take {player.name} off" in shown


def test_confirming_a_replacement_stores_it_and_returns_to_tonight() -> None:
    night = buck_night()
    player, waiting = night.players[5], night.players[8]
    client = organiser(night)

    done = client.post(url(night.tables[1], player), {"replacement": waiting.pk, "leaves": "1"})

    assert done.status_code == 302
    assert done["Location"] == f"{tonight_url(night.event)}#round-1"
    assert seats_of(night.rounds[1])[2] == [night.players[i].name for i in (4, 8, 6, 7)]
    assert sitting_out(night.rounds[1]) == []
    assert not Attendance.objects.filter(event=night.event, player=player).exists()
    shown = plain(text(client.get(done["Location"])))
    assert (
        f"{player.name} is off table 2 of round 1: {waiting.name} takes the seat. "
        f"{player.name} is off tonight's list." in shown
    )


def test_nobody_taking_the_seat_plays_the_table_smaller_and_the_player_may_stay() -> None:
    night = seated_night()
    player = night.players[0]
    page = organiser(night).get(url(night.tables[0], player))
    shown = plain(text(page))
    names = ", ".join(p.name for p in night.players[1:4])
    assert f"Nobody: table 1 plays with three: {names}." in shown
    assert checked(page, "replacement") == ""  # nobody is free: nobody is proposed

    done = organiser(night).post(url(night.tables[0], player), {"replacement": "", "leaves": "0"})

    assert done.status_code == 302
    assert seats_of(night.rounds[1])[1] == [p.name for p in night.players[1:4]]
    assert sitting_out(night.rounds[1]) == [player.name]
    assert Attendance.objects.get(event=night.event, player=player).present


def test_a_round_drawn_again_stores_the_tables_the_page_showed() -> None:
    night = seated_night(game=Game.BUCK_EUCHRE, present=8, seats=((0, 1, 2, 3), (4, 5, 6, 7)))
    player = night.players[0]
    page = organiser(night).get(url(night.tables[0], player))
    seed = next(i["value"] for i in inputs_of(page).inputs if i.get("name") == "seed")
    shown = re.findall(r'<ol class="seats">(.*?)</ol>', text(page))
    tables = [
        [plain(item).replace(" deals first", "") for item in re.findall(r"<li>(.*?)</li>", seats)]
        for seats in shown
    ]

    done = organiser(night).post(
        url(night.tables[0], player), {"replacement": "", "leaves": "1", "seed": seed}
    )

    assert done.status_code == 302
    assert list(seats_of(night.rounds[1]).values()) == tables
    assert len(sitting_out(night.rounds[1])) == 3


def test_no_seating_left_is_shown_and_nothing_can_be_confirmed() -> None:
    night = seated_night(game=Game.BUCK_EUCHRE, present=4, seats=((0, 1, 2, 3),))
    page = organiser(night).get(url(night.tables[0], night.players[0]))

    shown = plain(text(page))
    assert "Not possible: " in shown and "a Buck Euchre table seats four" in shown
    nobody = radios(page, "replacement")
    assert len(nobody) == 1 and "disabled" in nobody[0]
    assert 'type="submit"' not in text(page).split("<main", 1)[1]

    before = db_state()
    refused = organiser(night).post(
        url(night.tables[0], night.players[0]), {"replacement": "", "leaves": "1"}
    )
    assert refused.status_code == 409
    assert 'id="replacement-error"' in text(refused)
    assert db_state() == before


def test_a_replacement_seated_meanwhile_is_refused_by_its_choice() -> None:
    night = buck_night()
    before = db_state()

    refused = organiser(night).post(
        url(night.tables[1], night.players[5]), {"replacement": night.players[0].pk, "leaves": "1"}
    )

    assert refused.status_code == 409
    error = re.search(r'id="replacement-error" role="alert">(.*?)</p>', text(refused))
    assert error and f"{night.players[0].name} is already at table 1" in error[1]
    assert db_state() == before


def test_a_started_table_shows_why_and_offers_nothing() -> None:
    night = buck_night()
    hand_submit(table=night.tables[0], record=buck_takes_all(0))
    before = db_state()

    page = organiser(night).get(url(night.tables[0], night.players[0]))
    posted = organiser(night).post(
        url(night.tables[0], night.players[0]), {"replacement": night.players[8].pk, "leaves": "1"}
    )

    assert page.status_code == posted.status_code == 409
    assert "Table 1 has a hand entered: its seats are fixed." in text(page)
    assert not radios(page, "replacement")
    assert db_state() == before


def test_a_player_seated_later_may_stay_but_not_leave() -> None:
    night = seated_night(seats=())
    event_schedule_commit(event=night.event, seed=1)
    table = Table.objects.filter(round=night.rounds[1]).order_by("number").first()
    assert table is not None
    player = table.seatings.get(seat=0).player

    page = organiser(night).get(url(table, player))

    leaving = next(i for i in radios(page, "leaves") if i["value"] == "1")
    assert "disabled" in leaving
    assert checked(page, "leaves") == "0"
    assert "is seated in round 2 too" in plain(text(page))
    before = db_state()
    refused = organiser(night).post(url(table, player), {"replacement": "", "leaves": "1"})
    assert refused.status_code == 409 and 'id="leaves-error"' in text(refused)
    assert db_state() == before


@pytest.mark.parametrize(
    ("posted", "field"),
    [
        ({"replacement": ""}, "leaves"),
        ({"replacement": "", "leaves": "maybe"}, "leaves"),
        ({"replacement": "999999999", "leaves": "1"}, "replacement"),
        ({"replacement": "1\x00", "leaves": "1"}, "replacement"),
        ({"replacement": "", "leaves": "1\x00"}, "leaves"),
        ({"replacement": "", "leaves": "1", "seed": "-3"}, "page"),
    ],
)
def test_a_form_out_of_shape_is_refused_by_its_field(posted: dict[str, str], field: str) -> None:
    night = seated_night()
    before = db_state()

    refused = organiser(night).post(url(night.tables[0], night.players[0]), posted)

    assert refused.status_code == 400
    assert f'id="{field}-error"' in text(refused)
    assert db_state() == before


@pytest.mark.parametrize(
    ("who", "status"),
    [("organiser", 200), ("scorekeeper", 403), ("member", 403), ("outsider", 404),
     ("anonymous", 302)],
)  # fmt: skip
def test_only_organisers_take_a_player_off(who: str, status: int) -> None:
    night = seated_night()
    user = {
        "organiser": night.setup.organiser,
        "scorekeeper": night.setup.scorekeeper,
        "member": member(night.setup),
        "outsider": UserFactory(),
        "anonymous": None,
    }[who]
    client = Client() if user is None else signed_in(user)
    address = url(night.tables[0], night.players[0])
    before = db_state()

    page = client.get(address)
    posted = client.post(address, {"replacement": "", "leaves": "1"})

    assert page.status_code == status
    if status == 200:
        assert posted.status_code == 302
        return
    assert posted.status_code == status
    assert db_state() == before


def test_a_player_of_another_club_or_a_missing_table_is_not_found() -> None:
    night = seated_night()
    stranger = PlayerFactory()
    client = organiser(night)

    assert client.get(url(night.tables[0], stranger)).status_code == 404
    missing = reverse("table-take-off", kwargs={"table_id": 10**9, "player_id": 1})
    assert client.get(missing).status_code == 404


def test_a_player_not_at_the_table_is_told_so() -> None:
    night = seated_night()
    page = organiser(night).get(url(night.tables[0], night.players[5]))
    assert page.status_code == 400
    assert f"{night.players[5].name} is not at table 1." in text(page)
    assert not SitOut.objects.exists()


def test_the_pages_queries_do_not_grow_with_the_players_free_to_take_the_seat() -> None:
    """The table, the role, the player; the round's tables, seats, sit-outs,
    the night's attendance, its rounds drawn, later seats and sit-outs; the
    history of a round drawn again: the same for one free player or six."""
    counts = []
    for present in (11, 16):
        night = seated_night(present=present)
        client = organiser(night)
        client.get("/")  # the session's and user's queries, before counting
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(night.tables[2], night.players[7])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
