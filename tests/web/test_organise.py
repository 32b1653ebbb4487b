"""The organisers' set-up pages: the club's hub, leagues, players and game
nights. Every form's refusals (its own and the services') shown by the field
they concern with nothing stored, the saves with the right fields, who may
open each page, CSRF, labels, and a constant number of queries."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Event, Game, League, Player, Round
from league.selectors.leagues import EVENTS_SHOWN
from league.services.clubs import membership_set
from league.services.fixtures import event_create, league_create
from league.services.results import hand_submit
from league.web.search import NUL_REFUSED
from tests.support.factories import PlayerFactory, UserFactory, make_table
from tests.support.markup import assert_tied, error_of, field, inputs_of, selected, text
from tests.support.organise import (
    VISITORS,
    assert_refused,
    event_create_url,
    event_edit_url,
    event_post,
    league_create_url,
    league_edit_url,
    league_post,
    manage_url,
    player_edit_url,
    players_url,
)
from tests.support.records import bluke_results
from tests.support.setups import ClubSetup, club_setup
from tests.support.state import db_state
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db


def follow(client: Client, url: str, data: dict[str, str]) -> Any:
    """POST, then GET the page it redirects to (POST/redirect/GET)."""
    response = client.post(url, data)
    assert response.status_code == 302, text(response)
    return client.get(response["Location"])


def refused_unchanged(client: Client, url: str, data: dict[str, str]) -> Any:
    """POST a form the page must refuse: shown again (200), nothing stored."""
    before = db_state()
    response = client.post(url, data)
    assert response.status_code == 200
    assert db_state() == before
    assert 'class="error-summary"' in text(response)
    return response


# -- who may open the pages -----------------------------------------------------------------


PAGES = {
    "club-manage": lambda s: manage_url(s.club),
    "league-create": lambda s: league_create_url(s.club),
    "league-edit": lambda s: league_edit_url(s.league),
    "club-players": lambda s: players_url(s.club),
    "player-edit": lambda s: player_edit_url(s.players[0]),
    "event-create": lambda s: event_create_url(s.league),
    "event-edit": lambda s: event_edit_url(s.event),
}
POSTS = {
    "league-create": league_post(),
    "league-edit": league_post(name="Renamed"),
    "club-players": {"name": "Newcomer", "kind": "member"},
    "player-edit": {"name": "Renamed", "user": ""},
    "event-create": event_post(),
    "event-edit": event_post(rounds="5"),
}


@pytest.mark.parametrize("page", PAGES)
def test_an_organiser_opens_every_page(page: str) -> None:
    setup = club_setup()
    response = signed_in(setup.organiser).get(PAGES[page](setup))
    assert response.status_code == 200
    assert "<h1>" in text(response)


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize("page", PAGES)
def test_everyone_else_is_refused_every_page(page: str, visitor: str) -> None:
    setup = club_setup()
    url = PAGES[page](setup)
    client = VISITORS[visitor](setup)
    assert_refused(client.get(url), visitor, url)


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize("page", POSTS)
def test_everyone_else_stores_nothing(page: str, visitor: str) -> None:
    setup = club_setup()
    url = PAGES[page](setup)
    client = VISITORS[visitor](setup)
    before = db_state()
    assert_refused(client.post(url, POSTS[page]), visitor, url)
    assert db_state() == before


def test_a_page_of_a_missing_object_is_404() -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    for name, key in [
        ("club-manage", "club_id"),
        ("league-edit", "league_id"),
        ("player-edit", "player_id"),
        ("event-create", "league_id"),
        ("event-edit", "event_id"),
    ]:
        assert client.get(reverse(name, kwargs={key: 999_999})).status_code == 404


def test_an_organiser_of_another_club_gets_404() -> None:
    setup = club_setup()
    other = club_setup(name="Other club")
    client = signed_in(other.organiser)
    for url in (manage_url(setup.club), league_edit_url(setup.league), event_edit_url(setup.event)):
        assert client.get(url).status_code == 404


def test_csrf_is_enforced() -> None:
    setup = club_setup()
    client = Client(enforce_csrf_checks=True)
    client.force_login(setup.organiser)
    before = db_state()
    assert (
        client.post(players_url(setup.club), {"name": "Zed", "kind": "member"}).status_code == 403
    )
    assert db_state() == before
    token = field(client.get(players_url(setup.club)), "csrfmiddlewaretoken")["value"]
    done = client.post(
        players_url(setup.club), {"name": "Zed", "kind": "member", "csrfmiddlewaretoken": token}
    )
    assert done.status_code == 302
    assert Player.objects.filter(club=setup.club, name="Zed").exists()


def test_every_visible_input_has_a_label() -> None:
    setup = club_setup()
    guest = PlayerFactory(club=setup.club, is_guest=True)
    client = signed_in(setup.organiser)
    pages = [client.get(PAGES[page](setup)) for page in PAGES if page != "club-manage"]
    pages += [
        client.get(player_edit_url(guest)),
        client.post(league_create_url(setup.club), league_post(name="")),
        client.post(event_create_url(setup.league), event_post(rounds="0")),
    ]
    for page in pages:
        found = inputs_of(page)
        visible = [i for i in found.inputs if i.get("type") != "hidden"]
        assert visible
        for attrs in visible:
            assert attrs["id"] in found.labels, attrs


# -- the hub ----------------------------------------------------------------------------------


def test_the_hub_lists_leagues_nights_and_where_to_manage_them() -> None:
    setup = club_setup()
    today = timezone.localdate()
    coming = event_create(
        league=setup.league, name="Next week", date=today + datetime.timedelta(days=7), rounds=3
    )
    tonight = event_create(league=setup.league, name="Tonight", date=today, venue="The Crown")
    buck = league_create(club=setup.club, name="Buck Cup", game=Game.BUCK_EUCHRE)
    response = signed_in(setup.organiser).get(manage_url(setup.club))
    html = text(response)
    assert f"<h1>Manage {setup.club.name}</h1>" in html
    assert f'href="{league_create_url(setup.club)}"' in html
    assert f'href="{players_url(setup.club)}"' in html
    assert 'Players <span class="count">(8)</span>' in html
    for league in (setup.league, buck):
        assert f'href="{league_edit_url(league)}"' in html
        assert f'href="{event_create_url(league)}"' in html
    for event in (coming, tonight, setup.event):
        assert f'href="{event_edit_url(event)}"' in html
    # Coming nights (soonest first) come before the recent ones.
    assert html.index("Tonight") < html.index("Next week") < html.index(setup.event.name)
    assert "3 rounds" in html and "The Crown" in html and "(today)" in html
    assert "None planned." in html  # Buck Cup has no nights
    assert '<h2 id="leagues-heading">Leagues</h2>' in html


def test_the_hub_shows_a_few_nights_each_side_of_today() -> None:
    setup = club_setup()
    today = timezone.localdate()
    for day in range(1, EVENTS_SHOWN + 3):
        event_create(
            league=setup.league, name=f"Future {day}", date=today + datetime.timedelta(days=day)
        )
        event_create(
            league=setup.league, name=f"Past {day}", date=today - datetime.timedelta(days=day)
        )
    html = text(signed_in(setup.organiser).get(manage_url(setup.club)))
    shown = [f"Future {day}<" for day in range(1, EVENTS_SHOWN + 1)]
    shown += [f"Past {day}<" for day in range(1, EVENTS_SHOWN + 1)]
    assert all(name in html for name in shown)
    assert f"Future {EVENTS_SHOWN + 1}<" not in html
    assert f"Past {EVENTS_SHOWN + 1}<" not in html


def test_the_hub_of_a_club_without_leagues_says_so() -> None:
    setup = club_setup()
    League.objects.filter(pk=setup.league.pk).delete()
    html = text(signed_in(setup.organiser).get(manage_url(setup.club)))
    assert "The club has no league yet." in html


def test_the_hub_links_to_the_pages_of_other_areas_when_they_exist() -> None:
    """The tonight page and the people page are other areas' (their links
    appear once their URLs exist); the hub never fails for their absence."""
    setup = club_setup()
    html = text(signed_in(setup.organiser).get(manage_url(setup.club)))
    for name, kwargs in [
        ("event-tonight", {"event_id": setup.event.pk}),
        ("club-people", {"club_id": setup.club.pk}),
    ]:
        try:
            url = reverse(name, kwargs=kwargs)
        except Exception:  # the other area is not built yet
            continue
        assert f'href="{url}"' in html


# -- leagues ----------------------------------------------------------------------------------


def test_a_bluke_league_is_created_with_its_options_and_table_policy() -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    page = follow(
        client,
        league_create_url(setup.club),
        league_post(bluke_lead="free", max_cards="7", table_size="5", table_spill="larger"),
    )
    league = League.objects.get(club=setup.club, name="Spring Bluke")
    assert league.game == Game.BLUKE
    assert league.slug == "spring-bluke"
    assert league.options == {"bluke_lead": "free", "max_cards": 7}
    assert (league.table_size, league.table_spill) == (5, "larger")
    assert page.request["PATH_INFO"] == manage_url(setup.club)
    assert "The league “Spring Bluke” is set up." in text(page)


def test_default_options_are_stored_as_none() -> None:
    setup = club_setup()
    follow(signed_in(setup.organiser), league_create_url(setup.club), league_post())
    assert League.objects.get(name="Spring Bluke").options == {}


def test_a_buck_euchre_league_has_no_options_and_tables_of_four() -> None:
    setup = club_setup()
    follow(
        signed_in(setup.organiser),
        league_create_url(setup.club),
        league_post(name="Buck Cup", game="buck_euchre"),
    )
    league = League.objects.get(name="Buck Cup")
    assert (league.game, league.options, league.table_size) == (Game.BUCK_EUCHRE, {}, 4)


def test_the_league_form_explains_the_options() -> None:
    setup = club_setup()
    html = text(signed_in(setup.organiser).get(league_create_url(setup.club)))
    assert "Calls for trumps: whoever holds a trump must play one (or a Bluke)." in html
    assert "3 plays hands of 3, 2, 1, 2, 3 cards" in html
    assert "Buck Euchre is always played four to a table." in html
    assert selected(
        signed_in(setup.organiser).get(league_create_url(setup.club)), "bluke_lead"
    ) == ["trump"]


@pytest.mark.parametrize(
    ("changes", "name", "message"),
    [
        ({"name": ""}, "name", "Enter the league's name."),
        ({"name": "   "}, "name", "Enter the league's name."),
        ({"game": "poker"}, "game", "Choose Bluke or Buck Euchre."),
        ({"table_size": "7"}, "table_size", "A Bluke table seats 3 to 6 players."),
        ({"table_size": "2"}, "table_size", "A Bluke table seats 3 to 6 players."),
        ({"table_size": "four"}, "table_size", "Enter the table size as a whole number."),
        ({"table_spill": "sideways"}, "table_spill", "Choose smaller or larger tables."),
        (
            # a league of tables of 4 seats 5 at one table when exactly 5 come
            {"max_cards": "14"},
            "max_cards",
            "With 5 at a table (a round of 5 players draws one, even with tables of 4 by "
            "preference), at most 10 cards can be dealt: choose 10 or fewer, or leave it "
            "empty for the full game.",
        ),
        (
            {"max_cards": "0"},
            "max_cards",
            "The largest hand is at least 1 card: choose 1 to 10, or leave it empty for the "
            "full game.",
        ),
        ({"max_cards": "two"}, "max_cards", "Enter the largest hand as a whole number"),
        (
            {"bluke_lead": "sideways"},
            "bluke_lead",
            "Choose what a led Bluke calls for from the list.",
        ),
        (
            {"game": "buck_euchre", "table_size": "5"},
            "table_size",
            "Buck Euchre is played four to a table.",
        ),
        (
            {"game": "buck_euchre", "max_cards": "5"},
            "max_cards",
            "Buck Euchre has no rule options: leave this empty.",
        ),
        (
            {"game": "buck_euchre", "bluke_lead": "free"},
            "bluke_lead",
            "Buck Euchre has no rule options",
        ),
        (
            {"results_confirmation": "everyone"},
            "results_confirmation",
            "Choose one of the two ways from the list.",
        ),
    ],
)
def test_a_refused_league_is_shown_by_its_field_and_not_stored(
    changes: dict[str, str], name: str, message: str
) -> None:
    setup = club_setup()
    response = refused_unchanged(
        signed_in(setup.organiser), league_create_url(setup.club), league_post(**changes)
    )
    assert message in error_of(response, f"id_{name}")
    if name in ("game", "table_spill", "results_confirmation"):  # radios: described by the error
        assert f'aria-describedby="id_{name}_helptext id_{name}_error"' in text(response) or (
            f'aria-describedby="id_{name}_error"' in text(response)
        )
        assert f'<a href="#id_{name}_0">' in text(response)
    else:
        assert_tied(response, name, f"id_{name}_error")
    assert text(response).startswith("<!doctype html>")
    assert "<title>Error: New league" in text(response)


def test_every_fault_of_a_league_shows_at_once() -> None:
    setup = club_setup()
    response = refused_unchanged(
        signed_in(setup.organiser),
        league_create_url(setup.club),
        league_post(max_cards="20", table_size="9"),
    )
    # checked at the nominal tables of 4 (which seat 5 when 5 come): the size is refused
    assert "at most 10 cards can be dealt" in error_of(response, "id_max_cards")
    assert "3 to 6 players" in error_of(response, "id_table_size")
    assert "There are 2 problems" in text(response)


def test_a_name_the_club_has_is_refused() -> None:
    setup = club_setup()
    response = refused_unchanged(
        signed_in(setup.organiser),
        league_create_url(setup.club),
        league_post(name=setup.league.name),
    )
    assert "The club already has a league" in error_of(response, "id_name")
    assert_tied(response, "name", "id_name_error")


def test_editing_a_league_changes_name_options_and_table_policy() -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    form = client.get(league_edit_url(setup.league))
    assert field(form, "name")["value"] == setup.league.name
    assert "game" not in {i.get("name") for i in inputs_of(form).inputs}  # fixed: shown as text
    assert "The game of a league cannot change." in text(form)
    page = follow(
        client,
        league_edit_url(setup.league),
        league_post(name="Autumn Bluke", max_cards="5", table_size="6", table_spill="larger"),
    )
    league = League.objects.get(pk=setup.league.pk)
    assert (league.name, league.options) == ("Autumn Bluke", {"max_cards": 5})
    assert (league.table_size, league.table_spill, league.slug) == (6, "larger", setup.league.slug)
    assert "The league “Autumn Bluke” is saved." in text(page)


def test_a_league_asks_a_second_player_to_confirm_results_from_the_table() -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    assert "A second player confirms results entered at the table" in text(
        client.get(league_edit_url(setup.league))
    )
    follow(client, league_edit_url(setup.league), league_post(results_confirmation="player"))
    assert League.objects.get(pk=setup.league.pk).results_confirmation == "player"
    form = client.get(league_edit_url(setup.league))
    checked = re.findall(
        r'<input type="radio" name="results_confirmation" value="(\w+)"[^>]*checked', text(form)
    )
    assert checked == ["player"]


def test_the_game_of_a_league_never_changes() -> None:
    setup = club_setup()
    follow(
        signed_in(setup.organiser),
        league_edit_url(setup.league),
        league_post(name="Same game", game="buck_euchre"),
    )
    assert League.objects.get(pk=setup.league.pk).game == Game.BLUKE


def test_options_are_fixed_once_hands_are_played() -> None:
    setup = club_setup(options={"max_cards": 8})  # at every table size: 6 are dealt 8
    hand_submit(table=setup.table, record=bluke_results(8))
    client = signed_in(setup.organiser)
    form = client.get(league_edit_url(setup.league))
    assert "its rule options are fixed" in text(form)
    assert "disabled" in field(form, "max_cards")
    assert "disabled" in field(form, "bluke_lead")
    follow(
        client,
        league_edit_url(setup.league),
        league_post(name="Renamed", bluke_lead="free", max_cards="3", table_size="5"),
    )
    league = League.objects.get(pk=setup.league.pk)
    assert (league.name, league.options, league.table_size) == ("Renamed", {"max_cards": 8}, 5)


def test_options_must_suit_the_tables_already_drawn() -> None:
    setup = club_setup()
    make_table(round=setup.event.rounds.get(number=2), players=setup.players[:6], number=1)
    response = refused_unchanged(
        signed_in(setup.organiser), league_edit_url(setup.league), league_post(max_cards="10")
    )
    # Six players are dealt 8 cards at most.
    assert error_of(response, "id_max_cards").startswith(
        "With 6 at a table (a table of 6 is drawn already), at most 8 cards can be dealt: "
        "choose 8 or fewer"
    )
    assert League.objects.get(pk=setup.league.pk).name == setup.league.name
    assert f"Edit the league {setup.league.name}" in text(response)


@pytest.mark.parametrize(
    ("table_size", "spill", "max_cards", "message"),
    [
        (
            "6",
            "smaller",
            "9",
            "With 6 at a table, at most 8 cards can be dealt: choose 8 or fewer, or leave it "
            "empty for the full game. A preferred table size of 4 would take 9.",
        ),
        (
            "4",
            "larger",
            "9",
            "With 6 at a table (a round of 6 players draws one, even with tables of 4 by "
            "preference), at most 8 cards can be dealt: choose 8 or fewer, or leave it empty "
            "for the full game. A preferred table size of 3 would take 9.",
        ),
        (
            "3",
            "smaller",
            "11",
            "With 5 at a table (a round of 5 players draws one, even with tables of 3 by "
            "preference), at most 10 cards can be dealt: choose 10 or fewer, or leave it "
            "empty for the full game.",
        ),
    ],
)
def test_a_largest_hand_a_table_of_the_league_cannot_be_dealt_is_worded_by_its_size(
    table_size: str, spill: str, max_cards: str, message: str
) -> None:
    setup = club_setup()
    response = refused_unchanged(
        signed_in(setup.organiser),
        league_create_url(setup.club),
        league_post(table_size=table_size, table_spill=spill, max_cards=max_cards),
    )
    assert error_of(response, "id_max_cards") == message
    assert_tied(response, "max_cards", "id_max_cards_error")
    assert 'name="max_cards"' in text(response) and 'max="10"' in text(response)


def test_the_most_cards_every_table_takes_makes_a_league() -> None:
    setup = club_setup()
    follow(
        signed_in(setup.organiser),
        league_create_url(setup.club),
        league_post(name="Long hands", table_size="4", max_cards="10"),
    )
    assert League.objects.get(name="Long hands").options == {"max_cards": 10}


def test_a_table_size_the_fixed_options_cannot_be_played_at_is_refused_by_the_size() -> None:
    setup = club_setup(options={"max_cards": 10})
    hand_submit(table=setup.table, record=bluke_results(10))
    response = refused_unchanged(
        signed_in(setup.organiser), league_edit_url(setup.league), league_post(table_size="6")
    )
    assert error_of(response, "id_table_size") == (
        "With 6 at a table, at most 8 cards can be dealt, fewer than this league's largest "
        "hand of 10 (its rule options are fixed once hands are played). Choose a preferred "
        "table size of 4."
    )
    assert_tied(response, "table_size", "id_table_size_error")
    assert League.objects.get(pk=setup.league.pk).table_size == 4


def test_a_table_size_the_options_cannot_be_played_at_is_shown_by_the_option() -> None:
    """Before any hand, the option and the size can both change: the form checks
    the option at the sizes chosen, and says so by the option."""
    setup = club_setup(options={"max_cards": 10})
    response = refused_unchanged(
        signed_in(setup.organiser),
        league_edit_url(setup.league),
        league_post(table_size="6", max_cards="10"),
    )
    assert error_of(response, "id_max_cards").startswith(
        "With 6 at a table, at most 8 cards can be dealt: choose 8 or fewer"
    )


def test_a_refused_edit_stores_nothing() -> None:
    setup = club_setup()
    response = refused_unchanged(
        signed_in(setup.organiser),
        league_edit_url(setup.league),
        league_post(name="New name", table_size="8"),
    )
    assert "3 to 6 players" in error_of(response, "id_table_size")
    # The page's heading is the league as stored, not the refused name.
    assert f"<h1>Edit the league {setup.league.name}</h1>" in text(response)


def test_a_buck_euchre_league_edit_offers_no_options() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    client = signed_in(setup.organiser)
    form = client.get(league_edit_url(setup.league))
    assert "Buck Euchre has no rule options" in text(form)
    assert "max_cards" not in {i.get("name") for i in inputs_of(form).inputs}
    follow(client, league_edit_url(setup.league), league_post(name="Buck night league"))
    league = League.objects.get(pk=setup.league.pk)
    assert (league.name, league.options, league.table_size) == ("Buck night league", {}, 4)


# -- players ----------------------------------------------------------------------------------


def test_the_players_page_lists_the_club_and_links_to_each_edit() -> None:
    setup = club_setup()
    linked = PlayerFactory(club=setup.club, name="Linked Lou", user=UserFactory(username="lou"))
    guest = PlayerFactory(club=setup.club, name="Visiting Vi", is_guest=True)
    other = club_setup(name="Other club")
    html = text(signed_in(setup.organiser).get(players_url(setup.club)))
    for player in [*setup.players, linked, guest]:
        assert f'href="{player_edit_url(player)}"' in html
    assert f'href="{player_edit_url(other.players[0])}"' not in html
    assert "Guest" in html and "lou" in html


def test_the_players_page_filters_by_name() -> None:
    setup = club_setup()
    PlayerFactory(club=setup.club, name="Annabel")
    PlayerFactory(club=setup.club, name="Hannah")
    client = signed_in(setup.organiser)
    html = text(client.get(players_url(setup.club), {"q": "ANN"}))
    assert "Annabel" in html and "Hannah" in html
    assert setup.players[0].name not in html
    assert "2 players with “ANN” in their name." in html
    assert field(client.get(players_url(setup.club), {"q": "ANN"}), "q")["value"] == "ANN"
    none = text(client.get(players_url(setup.club), {"q": "zzz"}))
    assert "No player's name contains “zzz”." in none


def test_a_player_search_with_a_nul_is_refused_by_its_box() -> None:
    """PostgreSQL refuses a NUL in text (issue 28, item 3): a 400 with the message by
    the box and every player listed, not a 500."""
    setup = club_setup()
    client = signed_in(setup.organiser)
    before = db_state()
    refused = client.get(players_url(setup.club), {"q": "An\x00n"})
    assert refused.status_code == 400
    assert error_of(refused, "player-search") == NUL_REFUSED
    box = field(refused, "q")
    assert (box["value"], box["aria-invalid"], box["aria-describedby"]) == (
        "",
        "true",
        "player-search-error",
    )
    html = text(refused)
    assert all(player.name in html for player in setup.players)
    assert "<title>Error: " in html
    # a player added with the search in the address still saves, and is sent on
    added = client.post(players_url(setup.club) + "?q=%00", {"name": "Nuala", "kind": "member"})
    assert added.status_code == 302
    assert Player.objects.filter(club=setup.club, name="Nuala").exists()
    assert db_state() != before


@pytest.mark.parametrize(("kind", "is_guest"), [("member", False), ("guest", True)])
def test_a_player_is_added(kind: str, is_guest: bool) -> None:
    setup = club_setup()
    page = follow(
        signed_in(setup.organiser), players_url(setup.club), {"name": "  Nora   Lee ", "kind": kind}
    )
    player = Player.objects.get(club=setup.club, name="Nora Lee")
    assert (player.is_guest, player.user) == (is_guest, None)
    assert f"Nora Lee is added as a {kind}." in text(page)


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        ({"name": "", "kind": "member"}, "name", "Enter the player's name."),
        ({"name": "Zed", "kind": "stranger"}, "kind", "Choose member or guest."),
    ],
)
def test_a_refused_player_is_not_added(data: dict[str, str], name: str, message: str) -> None:
    setup = club_setup()
    response = refused_unchanged(signed_in(setup.organiser), players_url(setup.club), data)
    assert message in error_of(response, f"id_{name}")


def test_a_second_player_of_the_same_name_is_refused() -> None:
    setup = club_setup()
    name = setup.players[0].name
    response = refused_unchanged(
        signed_in(setup.organiser), players_url(setup.club), {"name": name, "kind": "member"}
    )
    assert f"The club already has a player named '{name}'." in error_of(response, "id_name")
    assert_tied(response, "name", "id_name_error")
    assert name in text(response)  # the list is still there


def player_form(player: Player, **changes: str) -> dict[str, str]:
    return {"name": player.name, "user": "", **changes}


def test_a_player_is_renamed() -> None:
    setup = club_setup()
    player = setup.players[0]
    page = follow(
        signed_in(setup.organiser), player_edit_url(player), player_form(player, name="Ada B")
    )
    assert Player.objects.get(pk=player.pk).name == "Ada B"
    assert "Ada B is saved." in text(page)


def test_a_guest_is_kept_as_a_member() -> None:
    setup = club_setup()
    guest = PlayerFactory(club=setup.club, is_guest=True)
    client = signed_in(setup.organiser)
    assert "Keep as a member of the club" in text(client.get(player_edit_url(guest)))
    follow(client, player_edit_url(guest), player_form(guest, keep="on"))
    assert Player.objects.get(pk=guest.pk).is_guest is False
    # A member has nothing to keep.
    assert "keep" not in {
        i.get("name") for i in inputs_of(client.get(player_edit_url(guest))).inputs
    }


def test_a_guest_left_unticked_stays_a_guest() -> None:
    setup = club_setup()
    guest = PlayerFactory(club=setup.club, is_guest=True)
    follow(signed_in(setup.organiser), player_edit_url(guest), player_form(guest))
    assert Player.objects.get(pk=guest.pk).is_guest is True


def test_a_player_is_linked_to_one_of_the_clubs_logins_and_unlinked() -> None:
    setup = club_setup()
    player = setup.players[0]
    client = signed_in(setup.organiser)
    form = client.get(player_edit_url(player))
    offered = text(form)
    assert setup.scorekeeper.get_username() in offered and setup.organiser.get_username() in offered
    follow(client, player_edit_url(player), player_form(player, user=str(setup.scorekeeper.pk)))
    assert Player.objects.get(pk=player.pk).user == setup.scorekeeper
    assert selected(client.get(player_edit_url(player)), "user") == [str(setup.scorekeeper.pk)]
    follow(client, player_edit_url(player), player_form(player, user=""))
    assert Player.objects.get(pk=player.pk).user is None


def test_the_player_page_takes_no_typed_username_nor_a_login_outside_the_club() -> None:
    """Issue 28, item 4: the player page linked any login by its username
    typed, without its consent, and said "There is no login called ..."
    otherwise: every login could be tried. Now it offers the club's logins
    alone; a login outside the club is invited with the player chosen."""
    setup = club_setup()
    outsider = UserFactory(username="outsider")
    player = setup.players[1]
    client = signed_in(setup.organiser)
    page = client.get(player_edit_url(player))
    assert "username" not in {i.get("name") for i in inputs_of(page).inputs}
    assert "outsider" not in text(page)
    assert reverse("club-people", kwargs={"club_id": setup.club.pk}) in text(page)
    for user_id in (str(outsider.pk), "999999"):
        response = refused_unchanged(
            client, player_edit_url(player), player_form(player, user=user_id)
        )
        assert "Select a valid choice." in error_of(response, "id_user")
    # a username typed is not read at all
    follow(client, player_edit_url(player), player_form(player, username="outsider"))
    assert Player.objects.get(pk=player.pk).user is None


def test_a_chosen_login_already_linked_is_refused_by_the_list() -> None:
    setup = club_setup()
    PlayerFactory(club=setup.club, user=setup.scorekeeper)
    player = setup.players[0]
    response = refused_unchanged(
        signed_in(setup.organiser),
        player_edit_url(player),
        player_form(player, user=str(setup.scorekeeper.pk)),
    )
    assert "already linked to a player of the club" in error_of(response, "id_user")
    assert_tied(response, "user", "id_user_error")


@pytest.mark.parametrize(
    ("changes", "name", "message"),
    [
        ({"name": ""}, "name", "Enter the player's name."),
        ({"user": "999999"}, "user", "Select a valid choice."),
    ],
)
def test_a_refused_player_edit_stores_nothing(
    changes: dict[str, str], name: str, message: str
) -> None:
    setup = club_setup()
    player = setup.players[0]
    response = refused_unchanged(
        signed_in(setup.organiser), player_edit_url(player), player_form(player, **changes)
    )
    assert message in error_of(response, f"id_{name}")


def test_a_name_another_player_has_is_refused_and_the_link_is_not_half_saved() -> None:
    setup = club_setup()
    player = setup.players[0]
    response = refused_unchanged(
        signed_in(setup.organiser),
        player_edit_url(player),
        player_form(player, name=setup.players[1].name, user=str(setup.scorekeeper.pk)),
    )
    assert "already has a player named" in error_of(response, "id_name")
    assert f"<h1>Edit {player.name}</h1>" in text(response)


# -- game nights ------------------------------------------------------------------------------


def test_a_game_night_is_created_with_its_rounds() -> None:
    setup = club_setup()
    page = follow(
        signed_in(setup.organiser), event_create_url(setup.league), event_post(rounds="4")
    )
    event = Event.objects.get(league=setup.league, name="Club night")
    assert event.date == datetime.date(2026, 10, 1)
    assert event.start_time == datetime.time(19, 30)
    assert event.venue == "The Crown"
    assert list(event.rounds.values_list("number", flat=True)) == [1, 2, 3, 4]
    assert "The game night “Club night” is set up." in text(page)


def test_a_game_night_needs_no_time_or_venue() -> None:
    setup = club_setup()
    follow(
        signed_in(setup.organiser),
        event_create_url(setup.league),
        event_post(start_time="", venue="", rounds="1"),
    )
    event = Event.objects.get(league=setup.league, name="Club night")
    assert (event.start_time, event.venue, event.rounds.count()) == (None, "", 1)


@pytest.mark.parametrize(
    ("zone", "today"),
    [("UTC", "2026-09-03"), ("Pacific/Auckland", "2026-09-04"), ("America/Denver", "2026-09-03")],
)
def test_a_new_game_night_is_dated_today_in_the_sites_time_zone(
    zone: str, today: str, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 22:30 on 3 September in UTC it is already the 4th in Auckland."""
    instant = datetime.datetime(2026, 9, 3, 22, 30, tzinfo=datetime.UTC)
    setup = club_setup()
    client = signed_in(setup.organiser)
    settings.TIME_ZONE = zone
    monkeypatch.setattr(timezone, "now", lambda: instant)
    form = client.get(event_create_url(setup.league))
    assert field(form, "date")["value"] == today
    # an existing night's form keeps its own date
    edit = client.get(event_edit_url(setup.event))
    assert field(edit, "date")["value"] == setup.event.date.isoformat()
    follow(client, event_create_url(setup.league), event_post(name="Tonight", date=today))
    assert Event.objects.get(name="Tonight").date.isoformat() == today


@pytest.mark.parametrize(
    ("changes", "name", "message"),
    [
        ({"name": ""}, "name", "Enter the game night's name."),
        ({"date": ""}, "date", "Enter the date of the game night."),
        ({"date": "31/02/2026"}, "date", "Enter the date as year-month-day"),
        ({"start_time": "half seven"}, "start_time", "Enter the start time as hours:minutes"),
        ({"rounds": "0"}, "rounds", "A game night has 1 to 20 rounds."),
        ({"rounds": "21"}, "rounds", "A game night has 1 to 20 rounds."),
        ({"rounds": ""}, "rounds", "Enter the number of rounds."),
        ({"rounds": "three"}, "rounds", "Enter the number of rounds as a whole number."),
    ],
)
def test_a_refused_game_night_is_shown_by_its_field_and_not_stored(
    changes: dict[str, str], name: str, message: str
) -> None:
    setup = club_setup()
    response = refused_unchanged(
        signed_in(setup.organiser), event_create_url(setup.league), event_post(**changes)
    )
    assert message in error_of(response, f"id_{name}")
    assert_tied(response, name, f"id_{name}_error")


def test_editing_a_game_night_changes_it_and_adds_rounds() -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    form = client.get(event_edit_url(setup.event))
    assert field(form, "rounds")["value"] == "2"
    assert field(form, "date")["value"] == setup.event.date.isoformat()
    page = follow(
        client,
        event_edit_url(setup.event),
        event_post(
            name="Moved night", date="2026-11-05", start_time="20:00", venue="Hall", rounds="4"
        ),
    )
    event = Event.objects.get(pk=setup.event.pk)
    assert (event.name, event.date, event.start_time, event.venue) == (
        "Moved night",
        datetime.date(2026, 11, 5),
        datetime.time(20, 0),
        "Hall",
    )
    assert list(event.rounds.values_list("number", flat=True)) == [1, 2, 3, 4]
    assert "The game night “Moved night” is saved." in text(page)


def test_clearing_the_time_and_venue() -> None:
    setup = club_setup()
    event_create(league=setup.league, name="Late", date=datetime.date(2026, 9, 1))
    follow(
        signed_in(setup.organiser),
        event_edit_url(setup.event),
        event_post(start_time="", venue="", rounds="2"),
    )
    event = Event.objects.get(pk=setup.event.pk)
    assert (event.start_time, event.venue, event.rounds.count()) == (None, "", 2)


def test_fewer_rounds_remove_the_last_rounds_without_tables() -> None:
    setup = club_setup()
    follow(signed_in(setup.organiser), event_edit_url(setup.event), event_post(rounds="1"))
    assert list(Round.objects.filter(event=setup.event).values_list("number", flat=True)) == [1]


def test_a_round_with_tables_is_never_removed() -> None:
    setup = club_setup()
    make_table(round=setup.event.rounds.get(number=2), players=setup.players[4:8], number=1)
    client = signed_in(setup.organiser)
    form = client.get(event_edit_url(setup.event))
    assert "tables are drawn in rounds 1, 2" in text(form)
    response = refused_unchanged(
        client, event_edit_url(setup.event), event_post(name="Renamed", rounds="1")
    )
    assert "Round 2 has tables, so this game night keeps at least 2 rounds." in error_of(
        response, "id_rounds"
    )
    assert_tied(response, "rounds", "id_rounds_error")
    assert Event.objects.get(pk=setup.event.pk).name == setup.event.name


def test_removing_every_drawn_round_names_them_all() -> None:
    setup = club_setup()
    event = event_create(league=setup.league, name="Long", date=datetime.date(2026, 9, 5), rounds=4)
    for number in (2, 3):
        make_table(round=event.rounds.get(number=number), players=setup.players[:4], number=1)
    response = refused_unchanged(
        signed_in(setup.organiser), event_edit_url(event), event_post(rounds="1")
    )
    assert "Rounds 2 and 3 have tables, so this game night keeps at least 3 rounds." in error_of(
        response, "id_rounds"
    )


# -- queries ------------------------------------------------------------------------------------


def larger_club(setup: ClubSetup) -> None:
    """More of everything: leagues, nights on both sides of today, players
    (guests and linked ones), logins with roles, rounds with tables."""
    today = timezone.localdate()
    for n in range(3):
        league = league_create(club=setup.club, name=f"Extra {n}", game=Game.BUCK_EUCHRE)
        for day in range(8):
            event_create(
                league=league,
                name=f"N{n}-{day}",
                date=today + datetime.timedelta(days=day - 4),
                rounds=3,
            )
    for day in range(8):
        event_create(
            league=setup.league, name=f"B{day}", date=today + datetime.timedelta(days=day - 4)
        )
    for n in range(20):
        PlayerFactory(club=setup.club, is_guest=n % 3 == 0, user=UserFactory() if n % 2 else None)
    for _ in range(5):
        membership_set(club=setup.club, user=UserFactory(), role="scorekeeper")
    event = event_create(league=setup.league, name="Drawn", date=today, rounds=5)
    for number in (1, 2, 3):
        make_table(round=event.rounds.get(number=number), players=setup.players[:4], number=1)
    setup.event = event


QUERIES = {
    "club-manage": 8,
    "league-create": 4,
    "league-edit": 5,
    "club-players": 5,
    "player-edit": 5,
    "event-create": 4,
    "event-edit": 6,
}
"""A page's queries: the session and the user, the page's object, the
organiser's role, and the page's own reads (a night's edit page: its replies too)."""


@pytest.mark.parametrize("page", PAGES)
def test_the_pages_run_a_fixed_number_of_queries(page: str, django_assert_num_queries: Any) -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    with django_assert_num_queries(QUERIES[page]):
        assert client.get(PAGES[page](setup)).status_code == 200
    larger_club(setup)
    with django_assert_num_queries(QUERIES[page]):
        assert client.get(PAGES[page](setup)).status_code == 200
