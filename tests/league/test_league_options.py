"""A league's rule options are checked when it is made, and when its options,
table size or spill change, at every table size its rounds are drawn with (not
at four seats alone): a largest hand that a table of the league cannot be dealt
is refused then, by the option and with the size, rather than when a round is
published. The services, the API's problems, and the sizes a policy draws."""

from __future__ import annotations

import pytest

from league.errors import ServiceError
from league.models import Game, League
from league.seating import TablePolicy
from league.services import fixtures
from league.services.fixtures import (
    OPTION_INVALID,
    OPTION_TOO_LARGE,
    TABLE_SIZE_OPTIONS,
    OptionsRefused,
    league_create,
    league_table_sizes,
    league_update,
)
from league.services.results import hand_submit
from tests.support.api import assert_problem, client_for
from tests.support.factories import ClubFactory, make_table
from tests.support.records import bluke_results
from tests.support.setups import club_setup, options_stored
from tests.support.state import db_state

pytestmark = pytest.mark.django_db

MOST_CARDS = {3: 13, 4: 13, 5: 10, 6: 8}
"""The largest Bluke hand at each table size, worked by hand from the rules:
54 cards less the two jokers' worth the deal keeps back, 13 at up to four
players, else 52 divided by the players, rounded down."""


# -- the sizes a league's rounds are drawn with --------------------------------------------


@pytest.mark.parametrize(
    ("game", "size", "spill", "sizes"),
    [
        # 5 who come play at one table, even with tables of 4 by preference
        (Game.BLUKE, 4, "smaller", {3: 3, 4: 4, 5: 5}),
        # 6 who come play at one table of 6 rather than two of 3
        (Game.BLUKE, 4, "larger", {3: 3, 4: 4, 5: 5, 6: 6}),
        (Game.BLUKE, 3, "smaller", {3: 3, 4: 4, 5: 5}),
        (Game.BLUKE, 3, "larger", {3: 3, 4: 4, 5: 5}),
        (Game.BLUKE, 5, "smaller", {3: 3, 4: 4, 5: 5, 6: 6}),
        (Game.BLUKE, 6, "smaller", {3: 3, 4: 4, 5: 5, 6: 6}),
        (Game.BLUKE, 6, "larger", {3: 3, 4: 4, 5: 5, 6: 6}),
        (Game.BUCK_EUCHRE, 4, "smaller", {4: 4}),
    ],
)
def test_a_league_seats_these_table_sizes(game: str, size: int, spill: str, sizes: dict) -> None:
    found = league_table_sizes(game=game, table_size=size, table_spill=spill)
    assert found == sizes
    policy = TablePolicy(game, size=size, spill="larger" if spill == "larger" else "smaller")
    for players, present in found.items():
        assert players in policy.table_sizes(present)
        fewer = range(policy.min_players, present)
        assert all(players not in policy.table_sizes(count) for count in fewer)


# -- made: every size checked ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "spill", "largest"),
    [(3, "smaller", 5), (4, "smaller", 5), (4, "larger", 6), (5, "smaller", 6), (6, "larger", 6)],
)
def test_a_largest_hand_is_checked_at_the_largest_table_a_league_draws(
    size: int, spill: str, largest: int
) -> None:
    """At each policy, the most cards its largest table is dealt is taken and one
    more is refused, naming that table: a hand-picked bad option at each size."""
    club = ClubFactory()
    limit = MOST_CARDS[largest]
    before = db_state()
    with pytest.raises(OptionsRefused) as refused:
        league_create(
            club=club,
            name="Too many",
            game=Game.BLUKE,
            options={"max_cards": limit + 1},
            table_size=size,
            table_spill=spill,
        )
    error = refused.value
    assert (error.code, error.field, error.option, error.value) == (
        OPTION_TOO_LARGE,
        "options",
        "max_cards",
        limit + 1,
    )
    assert (error.players, error.limit, error.present) == (largest, limit, largest)
    assert error.sizes == tuple(range(3, largest + 1))
    assert f"more cards than {largest} players can be dealt (at most {limit})" in error.message
    assert db_state() == before

    league = league_create(
        club=club,
        name="Just enough",
        game=Game.BLUKE,
        options={"max_cards": limit},
        table_size=size,
        table_spill=spill,
    )
    assert league.options == {"max_cards": limit}


@pytest.mark.parametrize(("players", "bad"), [(3, 14), (4, 14), (5, 11), (6, 9)])
def test_a_bad_option_at_each_size_is_refused_by_that_size(players: int, bad: int) -> None:
    """Checked at exactly one size, each size refuses the smallest hand it cannot
    be dealt (and takes one card fewer)."""
    sizes = dict.fromkeys([players])
    with pytest.raises(OptionsRefused) as refused:
        fixtures._check_options_at(
            game=Game.BLUKE,
            options={"max_cards": bad},
            sizes=sizes,
            table_size=4,
            table_spill="smaller",
            field="options",
            code=OPTION_TOO_LARGE,
        )
    assert (refused.value.players, refused.value.limit) == (players, bad - 1)
    assert refused.value.present is None  # a table drawn already: no count of players
    fixtures._check_options_at(
        game=Game.BLUKE,
        options={"max_cards": bad - 1},
        sizes=sizes,
        table_size=4,
        table_spill="smaller",
        field="options",
        code=OPTION_TOO_LARGE,
    )


def test_a_smaller_preferred_size_that_would_take_the_hand_is_named() -> None:
    """Nine cards: too many for 6 (at most 8); tables of 4, drawing 5 at most, take
    them (tables of 5 draw 6 when 6 come). Eleven: no preferred size takes them,
    as every Bluke league seats 5 at one table when exactly 5 come."""
    club = ClubFactory()
    with pytest.raises(OptionsRefused) as nine:
        league_create(
            club=club, name="Nine", game=Game.BLUKE, options={"max_cards": 9}, table_size=6
        )
    assert (nine.value.players, nine.value.fits_at) == (6, 4)
    assert "a table_size of 4 would take it" in nine.value.message
    with pytest.raises(OptionsRefused) as eleven:
        league_create(
            club=club, name="Eleven", game=Game.BLUKE, options={"max_cards": 11}, table_size=3
        )
    assert (eleven.value.players, eleven.value.fits_at) == (5, None)


@pytest.mark.parametrize(
    ("game", "options", "limit"),
    [
        (Game.BLUKE, {"max_cards": 0}, 10),
        (Game.BLUKE, {"max_cards": "5"}, None),
        (Game.BLUKE, {"max_cards": True}, None),
        (Game.BLUKE, {"trumps": "none"}, None),
        (Game.BLUKE, {"bluke_lead": "sideways"}, None),
        (Game.BUCK_EUCHRE, {"max_cards": 5}, None),
    ],
)
def test_an_option_no_size_takes_is_invalid(game: str, options: dict, limit: int | None) -> None:
    with pytest.raises(OptionsRefused) as refused:
        league_create(club=ClubFactory(), name="Odd", game=game, options=options)
    error = refused.value
    assert (error.code, error.field, error.players, error.limit) == (
        OPTION_INVALID,
        "options",
        None,
        limit,
    )
    assert not League.objects.exists()


def test_the_table_size_is_checked_before_the_options_it_draws() -> None:
    with pytest.raises(ServiceError) as refused:
        league_create(
            club=ClubFactory(), name="X", game=Game.BLUKE, options={"max_cards": 20}, table_size=9
        )
    assert refused.value.field == "table_size"


# -- changed: new options at every size, a new table size against the options -------------


def test_new_options_are_checked_at_every_size_and_every_table_drawn() -> None:
    setup = club_setup()
    with pytest.raises(OptionsRefused) as refused:
        league_update(league=setup.league, options={"max_cards": 11})
    assert (refused.value.players, refused.value.present) == (5, 5)
    make_table(round=setup.event.rounds.get(number=2), players=setup.players[:6], number=1)
    with pytest.raises(OptionsRefused) as drawn:
        league_update(league=League.objects.get(pk=setup.league.pk), options={"max_cards": 9})
    assert (drawn.value.players, drawn.value.present, drawn.value.limit) == (6, None, 8)
    assert League.objects.get(pk=setup.league.pk).options == {}


def test_a_table_size_that_draws_a_table_the_options_cannot_play_is_refused() -> None:
    """Ten cards suit tables of 3 to 5; tables of 5 by preference draw 6 when 6
    come, who can be dealt 8: refused by the table size, the options untouched."""
    setup = club_setup(options={"max_cards": 10})
    hand_submit(table=setup.table, record=bluke_results(10))
    before = db_state()
    with pytest.raises(OptionsRefused) as refused:
        league_update(league=setup.league, table_size=5)
    error = refused.value
    assert (error.code, error.field) == (TABLE_SIZE_OPTIONS, "table_size")
    assert (error.players, error.limit, error.present, error.value) == (6, 8, 6, 10)
    assert db_state() == before
    with pytest.raises(OptionsRefused) as spill:
        league_update(league=League.objects.get(pk=setup.league.pk), table_spill="larger")
    assert (spill.value.code, spill.value.field, spill.value.players) == (
        TABLE_SIZE_OPTIONS,
        "table_spill",
        6,
    )
    # tables of 3 draw no size that tables of 4 did not: taken
    league = league_update(league=League.objects.get(pk=setup.league.pk), table_size=3)
    assert (league.table_size, league.options) == (3, {"max_cards": 10})


def test_a_league_made_before_the_checks_keeps_every_change_but_a_worse_one() -> None:
    """Thirteen cards, stored before options were checked at every size (tables of
    4 seat 5, who cannot be dealt 13): renaming it, or a table size drawing no new
    size, is taken; a size drawing tables of 6 is refused."""
    setup = club_setup()
    league = options_stored(setup.league, {"max_cards": 13})
    league = league_update(league=league, name="Renamed", table_size=4, table_spill="smaller")
    assert league.name == "Renamed"
    league = league_update(league=league, table_size=3)
    assert league.table_size == 3
    with pytest.raises(OptionsRefused) as refused:
        league_update(league=League.objects.get(pk=league.pk), table_size=6)
    assert (refused.value.field, refused.value.players) == ("table_size", 6)


# -- the API ---------------------------------------------------------------------------------


def test_the_api_refuses_a_hand_too_large_for_a_table_the_league_draws() -> None:
    setup = club_setup()
    client = client_for(setup.organiser)
    before = db_state()
    body = assert_problem(
        client.post(
            "/api/leagues/",
            {"club": setup.club.pk, "name": "Long", "game": "bluke", "options": {"max_cards": 11}},
            format="json",
        ),
        400,
    )
    assert body["code"] == OPTION_TOO_LARGE
    assert list(body["errors"]) == ["options"]
    assert "more cards than 5 players can be dealt (at most 10)" in body["detail"]
    assert "a round draws a table of 5 when 5 players come" in body["detail"]
    assert db_state() == before


def test_the_api_refuses_a_table_size_the_options_cannot_be_played_at() -> None:
    setup = club_setup(options={"max_cards": 10})
    client = client_for(setup.organiser)
    body = assert_problem(
        client.patch(f"/api/leagues/{setup.league.pk}/", {"table_size": 6}, format="json"), 400
    )
    assert (body["code"], list(body["errors"])) == (TABLE_SIZE_OPTIONS, ["table_size"])
    assert "at most 8 cards, fewer than the league's max_cards 10" in body["detail"]
    assert "a table_size of 4 would take it" in body["detail"]  # the size it has: keep it
    assert League.objects.get(pk=setup.league.pk).table_size == 4
