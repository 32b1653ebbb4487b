"""Season formats (league.season): points for places, the best nights, the games
to qualify, the season's order with its tie-breaks, checked against a season
worked out by hand; the format checked strictly; a new format owed as a full
rebuild of the standings, in the audit trail."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league import standings, tasks
from league.errors import ServiceError
from league.models import AuditEntry, Game, JobOwed, Standing, StandingsOwed
from league.season import season_in_words
from league.services.clubs import membership_set
from league.services.fixtures import league_create, league_update
from tests.support.api import assert_problem, client_for
from tests.support.factories import ClubFactory, UserFactory
from tests.support.seasons import POINTS, SEASON, season_league

pytestmark = pytest.mark.django_db


def league_lines(league: Any, event: Any = None) -> list[tuple[str, float | None, int, bool]]:
    """The stored lines of the league (or an event), best first: name, season
    points, nights counted, qualified."""
    return [
        (row.player.name, row.season_points, row.nights_counted, row.qualified)
        for row in Standing.objects.filter(league=league, event=event)
        .select_related("player")
        .order_by("rank")
    ]


def test_the_hand_worked_season() -> None:
    """Eight players, three nights, best 2 nights, 3 games to qualify; tables
    of four score 4-2-1-0, of three 3-1-0 (tests/support/seasons.py plays them).

    Night 1, table of four: Ada and Cy tie for first (0 each), Ben third,
    Dee fourth: Ada and Cy share the points of places 1 and 2, (4 + 2) / 2 = 3
    each; Ben 1, Dee 0. Table of three: Eve 3, Fay 1, Gus 0.
    Night 2, table of four: Eve first, Ada, Fay and Hal tie for second and share
    places 2 to 4, (2 + 1 + 0) / 3 = 1 each. Table of three: Ben 3, Dee 1, Cy 0.
    Night 3, table of four: Cy 4, Ben 2, Dee and Eve tie for third,
    (1 + 0) / 2 = 0.5 each.

    ======  =================  =====  ============  =====  ==========  ====
    player  nights             games  best 2        wins   avg place   qual
    ======  =================  =====  ============  =====  ==========  ====
    Ada     3, 1               2      4             1      1.5         no
    Ben     1, 3, 2            3      3 + 2 = 5     1      2           yes
    Cy      3, 0, 4            3      4 + 3 = 7     2      5/3         yes
    Dee     0, 1, 0.5          3      1 + 0.5 = 1.5 0      3           yes
    Eve     3, 4, 0.5          3      4 + 3 = 7     2      5/3         yes
    Fay     1, 1               2      2             0      2           no
    Gus     0                  1      0             0      3           no
    Hal     1                  1      1             0      2           no
    ======  =================  =====  ============  =====  ==========  ====

    Cy and Eve tie on 7 points, on the average place (5/3) and on wins (2):
    head to head, they met once (night 3), Cy first, Eve third: Cy first.
    Then Ben (5), Dee (1.5). The players not yet qualified follow, by points:
    Ada 4, Fay 2, Hal 1, Gus 0.
    """
    built = season_league()
    league = built.league
    tasks.league_standings_refresh(league.pk)  # the catch-up, game by game as owed
    assert league_lines(league) == [
        ("Cy", 7.0, 2, True),
        ("Eve", 7.0, 2, True),
        ("Ben", 5.0, 2, True),
        ("Dee", 1.5, 2, True),
        ("Ada", 4.0, 2, False),
        ("Fay", 2.0, 2, False),
        ("Hal", 1.0, 1, False),
        ("Gus", 0.0, 1, False),
    ]
    caught_up = league_lines(league)
    standings.standings_refresh(league=league)
    assert league_lines(league) == caught_up  # a full rebuild says the same

    # night 3 alone: Cy 4, Ben 2, then Dee and Eve on 0.5, third both, no wins,
    # even head to head (they shared third): the name decides; everyone qualifies
    night_three = built.events[2]
    assert league_lines(league, night_three) == [
        ("Cy", 4.0, 1, True),
        ("Ben", 2.0, 1, True),
        ("Dee", 0.5, 1, True),
        ("Eve", 0.5, 1, True),
    ]


def test_every_night_counts_without_best_nights_and_everyone_qualifies_without_a_minimum() -> None:
    """The same games with every night counted: Eve 3 + 4 + 0.5 = 7.5, Cy
    3 + 0 + 4 = 7, Ben 1 + 3 + 2 = 6, Ada 3 + 1 = 4, Fay 2, Dee 0 + 1 + 0.5 =
    1.5, Hal 1, Gus 0."""
    built = season_league(season={"points_by_place": POINTS, "best_nights": None, "min_games": 0})
    standings.standings_refresh(league=built.league)
    assert league_lines(built.league) == [
        ("Eve", 7.5, 3, True),
        ("Cy", 7.0, 3, True),
        ("Ben", 6.0, 3, True),
        ("Ada", 4.0, 2, True),
        ("Fay", 2.0, 2, True),
        ("Dee", 1.5, 3, True),
        ("Hal", 1.0, 1, True),
        ("Gus", 0.0, 1, True),
    ]


def test_without_a_format_the_rows_show_no_points_every_night_played_and_all_qualified() -> None:
    built = season_league(season=None)
    standings.standings_refresh(league=built.league)
    lines = {name: rest for name, *rest in league_lines(built.league)}
    assert lines["Ben"] == [None, 3, True]
    assert lines["Gus"] == [None, 1, True]
    # today's order: wins (Eve and Cy 2, Ada and Ben 1), the average place (Ada 1.5,
    # Ben 2; Fay and Hal 2, Dee and Gus 3), the average points (Eve 50 / 3 above
    # Cy -10 / 3; Fay -20 above Hal -30; Dee -70 / 3 above Gus -30)
    order = [name for name, *_ in league_lines(built.league)]
    assert order == ["Eve", "Cy", "Ada", "Ben", "Fay", "Hal", "Dee", "Gus"]


def test_a_tie_shares_the_points_of_the_places_it_spans_at_every_size() -> None:
    """Tables of five (5-3-2-1-0): the three who tie for third share places 3
    to 5, (2 + 1 + 0) / 3 each."""
    built = season_league(played=False)
    event = built.night(1, [(("Ada", "Ben", "Cy", "Dee", "Eve"), (0, 1, 0))])
    standings.standings_refresh(league=built.league)
    lines = {name: points for name, points, *_ in league_lines(built.league, event)}
    # Ada wins two hands (20 - 10 + 20 = 30), Ben one (-10 + 10 - 10 = -10), the rest -30
    assert lines == {"Ada": 5.0, "Ben": 3.0, "Cy": 1.0, "Dee": 1.0, "Eve": 1.0}


def test_catching_up_a_season_costs_queries_bounded_by_the_players_not_the_games() -> None:
    built = season_league()
    tasks.league_standings_refresh(built.league.pk)
    event = built.events[0]
    built.extra_round(event, ("Ada", "Ben", "Cy", "Dee"), (0, 0, 0))
    with CaptureQueriesContext(connection) as few:
        assert tasks.league_standings_refresh(built.league.pk) == 4
    # three more nights of games, then the same game's cost again
    for day in (20, 21, 22):
        built.night(day, [(("Eve", "Fay", "Gus", "Hal"), (0, 1, 2))])
    tasks.league_standings_refresh(built.league.pk)
    built.extra_round(event, ("Ada", "Ben", "Cy", "Dee"), (0, 0, 0))
    with CaptureQueriesContext(connection) as more:
        assert tasks.league_standings_refresh(built.league.pk) == 4
    assert len(more) <= len(few) + 2  # a tie's head-to-head read, at most, in each scope
    caught_up = league_lines(built.league)
    standings.standings_refresh(league=built.league)
    assert league_lines(built.league) == caught_up


# -- the format, checked ---------------------------------------------------------------------

BAD_FORMATS: list[tuple[Any, str, str]] = [
    ([1, 2], "season", "an object"),
    ({"points_by_place": POINTS, "extra": 1}, "season.extra", "unknown in season"),
    ({"best_nights": 2}, "season.points_by_place", "a list of points for each table size"),
    ({"points_by_place": {k: v for k, v in POINTS.items() if k != "5"}},
     "season.points_by_place.5", "no points for tables of 5"),
    ({"points_by_place": {**POINTS, "4": [4, 2, 1]}}, "season.points_by_place.4",
     "4 places, so 4 numbers of points, not 3"),
    ({"points_by_place": {**POINTS, "4": [4, 2, 3, 0]}}, "season.points_by_place.4",
     "place 3 has more than place 2"),
    ({"points_by_place": {**POINTS, "4": [4, 2, -1, -2]}}, "season.points_by_place.4",
     "from 0"),
    ({"points_by_place": {**POINTS, "4": [4, 2, "1", 0]}}, "season.points_by_place.4",
     "must be a number"),
    ({"points_by_place": {**POINTS, "4": [4, 2, True, 0]}}, "season.points_by_place.4",
     "must be a number"),
    ({"points_by_place": {**POINTS, "4": [float("inf"), 2, 1, 0]}}, "season.points_by_place.4",
     "must be a number"),
    ({"points_by_place": {**POINTS, "16": [1] * 16}}, "season.points_by_place.16",
     "not a table size"),
    ({"points_by_place": {**POINTS, "four": [4, 2, 1, 0]}}, "season.points_by_place.four",
     "not a table size"),
    ({"points_by_place": {**POINTS, "3": "3-1-0"}}, "season.points_by_place.3",
     "a list of 3 numbers"),
    ({"points_by_place": POINTS, "best_nights": 0}, "season.best_nights", "from 1"),
    ({"points_by_place": POINTS, "best_nights": 2.5}, "season.best_nights", "whole number"),
    ({"points_by_place": POINTS, "min_games": -1}, "season.min_games", "from 0"),
    ({"points_by_place": POINTS, "min_games": None}, "season.min_games", "whole number"),
]  # fmt: skip


@pytest.mark.parametrize(("season", "field", "words"), BAD_FORMATS)
def test_a_bad_format_is_refused_by_the_part_at_fault_and_nothing_is_stored(
    season: Any, field: str, words: str
) -> None:
    club = ClubFactory()
    with pytest.raises(ServiceError) as refused:
        league_create(club=club, name="L", game=Game.BLUKE, season=season)
    assert refused.value.field == field
    assert words in refused.value.message
    assert not club.leagues.exists()
    league = league_create(club=club, name="L", game=Game.BLUKE)
    with pytest.raises(ServiceError) as again:
        league_update(league=copy.copy(league), season=season)
    assert again.value.field == field
    league.refresh_from_db()
    assert league.season is None
    assert not AuditEntry.objects.exists()


def test_a_buck_euchre_format_gives_points_for_tables_of_four_alone() -> None:
    club = ClubFactory()
    league = league_create(
        club=club,
        name="Buck",
        game=Game.BUCK_EUCHRE,
        season={"points_by_place": {"4": [3, 1.5, 0.5, 0]}, "min_games": 2},
    )
    assert league.season == {
        "points_by_place": {"4": [3, 1.5, 0.5, 0]},
        "best_nights": None,
        "min_games": 2,
    }
    with pytest.raises(ServiceError) as refused:
        league_update(league=league, season={"points_by_place": {"3": [3, 1, 0]}})
    assert refused.value.field == "season.points_by_place.3"


def test_a_new_format_owes_a_full_rebuild_and_is_in_the_audit_trail() -> None:
    built = season_league(season=None)
    league = built.league
    tasks.league_standings_refresh(league.pk)
    assert league_lines(league)[0][1] is None
    league_update(league=league, season=SEASON)
    assert StandingsOwed.objects.filter(league=league, event=None, player=None).exists()
    assert JobOwed.objects.filter(kind=JobOwed.Kind.STANDINGS, target_id=league.pk).exists()
    entry = AuditEntry.objects.get(action="league.season_changed")
    assert entry.club_id == built.club.pk
    assert entry.before == {"league": league.pk, "season": None}
    assert entry.after["season"]["best_nights"] == 2
    tasks.league_standings_refresh(league.pk)
    assert [line[0] for line in league_lines(league)][:2] == ["Cy", "Eve"]

    # the same format again changes nothing and owes nothing
    StandingsOwed.objects.all().delete()
    league_update(league=league, season=copy.deepcopy(SEASON))
    assert not StandingsOwed.objects.exists()
    assert AuditEntry.objects.filter(action="league.season_changed").count() == 1
    # back to today's order
    league_update(league=league, season=None)
    tasks.league_standings_refresh(league.pk)
    assert {line[1] for line in league_lines(league)} == {None}
    assert AuditEntry.objects.filter(action="league.season_changed").count() == 2


def test_the_format_in_words() -> None:
    assert season_in_words(SEASON, nights=3, first=4) == (
        "best 2 of 3 nights; 4-2-1-0 at tables of four; 6-4-3-2-1-0 at tables of six; "
        "5-3-2-1-0 at tables of five; 3-1-0 at tables of three; at least 3 games to qualify"
    )


# -- the API -------------------------------------------------------------------------------


def organiser_client(club: Any) -> Any:
    user = UserFactory()
    membership_set(club=club, user=user, role="organiser")
    return client_for(user)


def test_the_league_resource_takes_and_shows_the_season() -> None:
    club = ClubFactory()
    client = organiser_client(club)
    made = client.post(
        "/api/leagues/",
        {"club": club.pk, "name": "Points", "game": "bluke", "season": SEASON},
    )
    assert made.status_code == 201, made.content
    assert made.json()["season"] == SEASON
    assert made.json()["season_words"].startswith("best 2 nights; 4-2-1-0 at tables of four")
    league_id = made.json()["id"]
    plain = client.post("/api/leagues/", {"club": club.pk, "name": "Plain", "game": "bluke"})
    assert plain.json()["season"] is None
    assert plain.json()["season_words"] == "ranked by wins, then average place"

    changed = client.patch(
        f"/api/leagues/{league_id}/", {"season": {**SEASON, "best_nights": None}}
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["season"]["best_nights"] is None
    renamed = client.patch(f"/api/leagues/{league_id}/", {"name": "Points 2026"})
    assert renamed.json()["season"]["points_by_place"] == POINTS  # left as it was
    cleared = client.patch(f"/api/leagues/{league_id}/", {"season": None})
    assert cleared.json()["season"] is None
    assert client.get(f"/api/leagues/{league_id}/").json()["season"] is None


@pytest.mark.parametrize(("season", "field", "words"), BAD_FORMATS)
def test_the_api_refuses_a_bad_format_by_its_field(season: Any, field: str, words: str) -> None:
    try:
        json.dumps(season, allow_nan=False)
    except ValueError:
        pytest.skip("the API's JSON parser refuses Infinity before the format is read")
    club = ClubFactory()
    client = organiser_client(club)
    body = assert_problem(
        client.post(
            "/api/leagues/", {"club": club.pk, "name": "L", "game": "bluke", "season": season}
        ),
        400,
    )
    assert words in body["errors"][field][0]
    assert not club.leagues.exists()
    league = league_create(club=club, name="L", game=Game.BLUKE)
    body = assert_problem(client.patch(f"/api/leagues/{league.pk}/", {"season": season}), 400)
    assert field in body["errors"]


def test_the_api_refuses_a_nul_in_a_format() -> None:
    club = ClubFactory()
    client = organiser_client(club)
    body = assert_problem(
        client.post(
            "/api/leagues/",
            {"club": club.pk, "name": "L", "game": "bluke", "season": {"x\x00": 1}},
        ),
        400,
    )
    assert body["errors"]
    assert not club.leagues.exists()


def test_standings_rows_show_the_season_figures() -> None:
    built = season_league()
    standings.standings_refresh(league=built.league)
    client = client_for(None)
    rows = client.get(f"/api/leagues/{built.league.pk}/standings/").json()["results"]
    assert [(r["player_name"], r["season_points"], r["nights_counted"], r["qualified"])
            for r in rows[:5]] == [
        ("Cy", 7.0, 2, True),
        ("Eve", 7.0, 2, True),
        ("Ben", 5.0, 2, True),
        ("Dee", 1.5, 2, True),
        ("Ada", 4.0, 2, False),
    ]  # fmt: skip
    night = client.get(f"/api/events/{built.events[2].pk}/standings/").json()["results"]
    assert night[0]["player_name"] == "Cy" and night[0]["season_points"] == 4.0
    # a date range, computed on the spot: the first two nights, best 2 of them
    ranged = client.get(f"/api/leagues/{built.league.pk}/standings/?date_before=2026-10-08").json()[
        "results"
    ]
    firsts = {r["player_name"]: (r["season_points"], r["qualified"]) for r in ranged}
    assert firsts["Eve"] == (7.0, False)  # two games: below the three to qualify
    assert firsts["Cy"] == (3.0, False)
