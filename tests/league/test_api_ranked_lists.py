"""The API's ranked lists, a page at a time: the standings of a league and of an event, and
the rating leaderboards of a league and of a club (league/api/pagination.py ``RankOrder``).

Each comes in pages in rank order, by a cursor over the last row's rank and player: the
pages followed by their ``next`` links hold the whole list once, in order, and the
``previous`` links lead back. ``player=`` gives those players' rows alone, with their ranks
in the whole list. The leaderboard is ranked by the database
(``league.selectors.ratings.leaderboard_ranked``) exactly as Python ranks it
(``ratings.leaderboard``): the same order, the same figures.

The lists are made here as their jobs store them (ranked standings rows, ratings of a
scope), so that a long list is quick to make.
"""

from __future__ import annotations

import base64
import datetime
import itertools
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from league import ratings
from league.models import Event, Game, League, Player, Rating, RatingScope, Standing
from league.selectors import ratings as ratings_selectors
from league.services.fixtures import event_create, league_create
from tests.support.factories import ClubFactory

pytestmark = pytest.mark.django_db

LAST_DAY = datetime.date(2026, 3, 2)


@dataclass
class Lists:
    league: League
    event: Event
    players: list[Player]
    by_rank: list[Player]
    """The league standings' order."""
    scope: RatingScope


def key_of(day: datetime.date, table: int) -> str:
    return f"{day.isoformat()}/00001/00001/{table:019d}"


def lists(*, players: int) -> Lists:
    """``players`` players with standings (of the league, and of one event in the reverse
    order) and ratings in a league scope, last played on days up to a year apart, several
    with equal ratings: names that differ in the case of their first letter (and, as a
    club's names are unique without regard to case, in one more), equal in all but the
    name, or equal in ordinal but not in mu."""
    club = ClubFactory()
    league = league_create(club=club, name="Ranked", game=Game.BLUKE)
    # pairs of players rated alike, named alike but for the case of a letter (and
    # the last: "Cora" and "core" sort by code point, upper case first)
    names = [f"{'Cc'[n % 2]}or{'ae'[n % 2]} {n // 2:03d}" for n in range(players)]
    people = Player.objects.bulk_create(Player(club=club, name=name) for name in names)
    by_rank = people[1::2] + people[0::2]
    event = event_create(league=league, name="Night", date=LAST_DAY, rounds=1)
    now = timezone.now()
    for place_in, order in ((None, by_rank), (event, by_rank[::-1])):
        Standing.objects.bulk_create(
            Standing(
                league=league,
                event=place_in,
                player=player,
                games=5,
                wins=players - rank,
                average_place=2.0,
                total_points=10 * rank,
                average_points=2.0 * rank,
                hands=125,
                rank=rank,
                computed_at=now,
            )
            for rank, player in enumerate(order, start=1)
        )
    scope = RatingScope.objects.create(club=club, game=Game.BLUKE, league=league, rated_at=now)
    Rating.objects.bulk_create(
        Rating(
            scope=scope,
            player=player,
            mu=30.0 - (k % 5) / 4,  # five values, so mu ties
            # provisional (Bluke's threshold is 10.2): on the board mu less 3 x the sigma
            # above it, so sigma and the days away count (a settled rating is its mu)
            sigma=11.0 + (k % 3) / 4,
            ordinal=0.0,  # what the leaderboard shows is computed as of the latest game
            games=10,
            last_order_key=key_of(LAST_DAY - datetime.timedelta(days=(k % 4) * 73), n + 1),
        )
        for n, player in enumerate(people)
        for k in [n // 2]
    )
    return Lists(league, event, people, by_rank, scope)


def follow(client: APIClient, url: str, **query: Any) -> list[dict[str, Any]]:
    """Every page from ``url`` on, by their ``next`` links; each page's ``previous``
    link leads back to the page before it."""
    pages = [client.get(url, query).json()]
    while pages[-1]["next"]:
        pages.append(client.get(pages[-1]["next"]).json())
    assert pages[0]["previous"] is None
    for before, page in itertools.pairwise(pages):
        assert client.get(page["previous"]).json()["results"] == before["results"]
    return pages


def problem_field(response: Any) -> list[str]:
    assert response.status_code == 400, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    return list(response.json()["errors"])


# -- standings ------------------------------------------------------------------------------


def test_the_standings_come_in_pages_that_hold_the_whole_list_once() -> None:
    data = lists(players=23)
    client = APIClient()
    pages = follow(client, f"/api/leagues/{data.league.pk}/standings/", page_size=5)
    assert [len(page["results"]) for page in pages] == [5, 5, 5, 5, 3]
    rows = [row for page in pages for row in page["results"]]
    assert [row["player"] for row in rows] == [p.pk for p in data.by_rank]
    assert [row["rank"] for row in rows] == list(range(1, 24))
    assert all(row["computed_at"] for row in rows)
    assert rows[0]["player_name"] == data.by_rank[0].name

    whole = client.get(f"/api/leagues/{data.league.pk}/standings/").json()
    assert len(whole["results"]) == 23 and whole["next"] is None  # 50 a page by default
    biggest = client.get(f"/api/leagues/{data.league.pk}/standings/", {"page_size": 10_000})
    assert len(biggest.json()["results"]) == 23


def test_ranks_that_tie_are_ordered_by_player_and_none_is_lost() -> None:
    data = lists(players=9)
    Standing.objects.filter(league=data.league, event=None, rank__in=[4, 5, 6]).update(rank=4)
    pages = follow(APIClient(), f"/api/leagues/{data.league.pk}/standings/", page_size=2)
    rows = [(row["rank"], row["player"]) for page in pages for row in page["results"]]
    assert rows == sorted(rows)
    assert sorted(player for _, player in rows) == sorted(p.pk for p in data.players)


def test_an_events_standings_come_in_pages_too() -> None:
    data = lists(players=7)
    pages = follow(APIClient(), f"/api/events/{data.event.pk}/standings/", page_size=3)
    rows = [row["player"] for page in pages for row in page["results"]]
    assert rows == [p.pk for p in data.by_rank[::-1]]


def test_a_lookup_of_players_gives_their_rows_with_their_ranks() -> None:
    data = lists(players=12)
    client = APIClient()
    url = f"/api/leagues/{data.league.pk}/standings/"
    ninth, third = data.by_rank[8], data.by_rank[2]
    repeated = client.get(f"{url}?player={ninth.pk}&player={third.pk}").json()
    assert [(row["player"], row["rank"]) for row in repeated["results"]] == [
        (third.pk, 3),
        (ninth.pk, 9),
    ]
    assert (repeated["next"], repeated["previous"]) == (None, None)
    joined = client.get(url, {"player": f"{ninth.pk},{third.pk}"}).json()
    assert joined["results"] == repeated["results"]
    other_club = Player.objects.create(club=ClubFactory(), name="Elsewhere")
    assert client.get(url, {"player": other_club.pk}).json()["results"] == []
    event = client.get(f"/api/events/{data.event.pk}/standings/", {"player": ninth.pk}).json()
    assert [row["rank"] for row in event["results"]] == [12 - 8]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"player": "abc"}, "player"),
        ({"player": "1,x"}, "player"),
        ({"player": "0"}, "player"),
        ({"player": str(2**63)}, "player"),
        ({"player": "\u0661"}, "player"),  # an Arabic-Indic one: a digit, but not ASCII
        ({"player": ",".join(str(n) for n in range(1, 202))}, "player"),
        ({"cursor": "abc"}, "cursor"),
        ({"cursor": "%%%"}, "cursor"),
        ({"cursor": base64.urlsafe_b64encode(b"a:0:1").decode()}, "cursor"),
        ({"cursor": base64.urlsafe_b64encode(b"c:1:1").decode()}, "cursor"),
        ({"cursor": base64.urlsafe_b64encode(b"a:1:99999999999999999999").decode()}, "cursor"),
    ],
)
@pytest.mark.parametrize("path", ["leagues/{league}/standings", "leagues/{league}/ratings"])
def test_bad_lookups_and_cursors_are_refused_with_a_problem(
    query: dict[str, str], field: str, path: str
) -> None:
    data = lists(players=3)
    url = "/api/" + path.format(league=data.league.pk) + "/"
    assert problem_field(APIClient().get(url, query)) == [field]


def test_a_lookup_of_players_has_no_pages() -> None:
    data = lists(players=8)
    client = APIClient()
    first = client.get(f"/api/leagues/{data.league.pk}/standings/", {"page_size": 3}).json()
    both = client.get(f"{first['next']}&player={data.players[0].pk}")
    assert problem_field(both) == ["player"]


def test_date_range_standings_are_computed_then_cut_into_pages() -> None:
    data = lists(players=4)  # no games: a range has no rows
    client = APIClient()
    url = f"/api/leagues/{data.league.pk}/standings/"
    empty = client.get(url, {"date_after": "2026-01-01", "page_size": 2}).json()
    assert empty == {"next": None, "previous": None, "results": []}


# -- rating leaderboards -------------------------------------------------------------------


def test_the_database_ranks_the_leaderboard_as_python_does() -> None:
    data = lists(players=60)
    expected = ratings.leaderboard(scope=data.scope)
    got = list(ratings_selectors.leaderboard_ranked(scope=data.scope))
    assert [r.player_id for r in got] == [r.player_id for r in expected]
    assert [r.rank for r in got] == list(range(1, 61))  # type: ignore[attr-defined]
    assert [(r.sigma_now, r.ordinal_now) for r in got] == [  # type: ignore[attr-defined]
        (r.sigma, r.ordinal) for r in expected
    ]
    # the board holds ties the order breaks by the name, code point by code point
    assert len({(r.ordinal, r.mu) for r in expected}) == len(expected) / 2
    first, second = expected[0].player.name, expected[1].player.name
    # alike but for the case of the first letter and the letter a club's names need
    # to be unique without regard to case ("Cora 000", "core 000")
    assert (first[0], second[0], first[1:3] + first[4:]) == ("C", "c", second[1:3] + second[4:])


def test_the_leaderboard_comes_in_pages_with_what_it_says_beside_them() -> None:
    data = lists(players=17)
    client = APIClient()
    pages = follow(client, f"/api/leagues/{data.league.pk}/ratings/", page_size=4)
    assert len(pages) == 5
    assert {page["status"] for page in pages} == {"up_to_date"}
    assert all(page["provisional_above_sigma"] > 0 for page in pages)
    rows = [row for page in pages for row in page["results"]]
    expected = ratings.leaderboard(scope=data.scope)
    assert [row["player"] for row in rows] == [r.player_id for r in expected]
    assert [row["rank"] for row in rows] == list(range(1, 18))
    assert [(row["ordinal"], row["sigma"]) for row in rows] == [
        (r.ordinal, r.sigma) for r in expected
    ]
    assert rows[0]["player_name"] == expected[0].player.name


def test_a_lookup_of_players_on_the_leaderboard_keeps_their_ranks_on_the_whole_board() -> None:
    data = lists(players=15)
    expected = [r.player_id for r in ratings.leaderboard(scope=data.scope)]
    wanted = [expected[10], expected[3]]
    client = APIClient()
    board = client.get(f"/api/leagues/{data.league.pk}/ratings/", {"player": wanted}).json()
    assert [(row["player"], row["rank"]) for row in board["results"]] == [
        (expected[3], 4),
        (expected[10], 11),
    ]
    club = client.get(
        f"/api/clubs/{data.league.club_id}/ratings/",
        {"game": "bluke", "player": ",".join(map(str, wanted))},
    ).json()
    assert club["results"] == []  # the club-wide scope has no ratings yet


def test_a_club_board_and_an_unrated_board_are_pages_too() -> None:
    data = lists(players=6)
    RatingScope.objects.filter(pk=data.scope.pk).update(league=None)  # club-wide now
    client = APIClient()
    club = f"/api/clubs/{data.league.club_id}/ratings/"
    pages = follow(client, club, game="bluke", page_size=4)
    assert [len(page["results"]) for page in pages] == [4, 2]
    assert "game=bluke" in pages[0]["next"]  # the query is kept in the links
    unrated = client.get(f"/api/leagues/{data.league.pk}/ratings/").json()
    assert unrated == {
        "next": None,
        "previous": None,
        "status": "up_to_date",
        "rated_at": None,
        "provisional_above_sigma": None,
        "results": [],
    }
    assert client.get(club, {"game": "buck_euchre"}).json()["results"] == []


# -- cost ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "queries"),
    [
        # the league; its standings' page
        ("leagues/{league}/standings", 2),
        # the event; its league; its standings' page
        ("events/{event}/standings", 3),
        # the league; its rating scope; the board's page, ranked in the query
        ("leagues/{league}/ratings", 3),
    ],
)
def test_a_page_and_a_lookup_cost_the_same_queries_at_any_depth_and_size(
    path: str, queries: int, django_assert_num_queries: Any
) -> None:
    client = APIClient()
    for size in (5, 140):
        data = lists(players=size)
        url = "/api/" + path.format(league=data.league.pk, event=data.event.pk) + "/"
        with django_assert_num_queries(queries):
            first = client.get(url, {"page_size": 2}).json()
        with django_assert_num_queries(queries):
            second = client.get(first["next"]).json()
        with django_assert_num_queries(queries):
            assert client.get(second["previous"]).json()["results"] == first["results"]
        with django_assert_num_queries(queries):
            client.get(url, {"player": [p.pk for p in data.players[-3:]]})
        if size > 100:
            deep = client.get(url, {"page_size": 50}).json()
            deep = client.get(client.get(deep["next"]).json()["next"]).json()
            assert deep["results"][0]["rank"] == 101
            assert len(deep["results"]) == 40


def test_the_database_ranks_settled_and_provisional_ratings_as_python_does() -> None:
    """Half the board settled (its figure is mu), half provisional: the database's
    ranks and figures are Python's, the settled ones at their mu."""
    data = lists(players=24)
    Rating.objects.filter(scope=data.scope, last_order_key__startswith=LAST_DAY.isoformat()).update(
        sigma=8.0
    )
    expected = ratings.leaderboard(scope=data.scope)
    got = list(ratings_selectors.leaderboard_ranked(scope=data.scope))
    assert [r.player_id for r in got] == [r.player_id for r in expected]
    assert [(r.sigma_now, r.ordinal_now) for r in got] == [  # type: ignore[attr-defined]
        (r.sigma, r.ordinal) for r in expected
    ]
    settled = [r for r in expected if r.sigma == 8.0]
    assert settled and all(r.ordinal == r.mu for r in settled)
    assert len(settled) < len(expected)
