"""The league page's tops and the league's full lists (league/web/lists.py): standings and
leaderboard a hundred a page, searchable by name, always with the signed-in player's own
row; game nights fifty a page; the same queries whatever the league's size; answers
compressed unless they may hold a secret; a rating chart that stays small however long
the history.

The standings and ratings are made here as their jobs store them (rows with a rank, ratings
of a scope), so that a league of any size is quick to make: what these pages do is read them.
"""

from __future__ import annotations

import datetime
import doctest
import gzip
import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league.models import (
    Event,
    Game,
    League,
    Player,
    Rating,
    RatingHistory,
    RatingScope,
    Standing,
)
from league.services.fixtures import event_create, league_create, table_create
from league.web import charts, lists, search
from league.web.compression import may_hold_a_secret
from league.web.search import NUL_REFUSED
from tests.support.factories import ClubFactory, UserFactory
from tests.support.tree import Element, assert_accessible, links, page, parse
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db

FIRST_NAMES = ["Ada", "Ben", "Cora", "Dan", "Esme", "Finn", "Greta", "Hal", "Iris", "Jon"]
LAST_DAY = datetime.date(2026, 3, 2)


@dataclass
class Ranked:
    """A league with stored standings and ratings of every player, and game nights."""

    league: League
    players: list[Player]
    by_rank: list[Player]
    """The standings' order."""
    by_rating: list[Player]
    """The leaderboard's order."""
    events: list[Event]
    """The latest first."""

    def url(self, name: str, **query: Any) -> str:
        url = reverse(name, args=[self.league.pk])
        return url + "?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else url


def ranked_league(*, players: int, nights: int, name: str = "Thursday League") -> Ranked:
    """``players`` players ranked in the standings in one order and on the leaderboard in
    another (neither the order of their names), and ``nights`` game nights, the latest of
    which has a round with one table."""
    club = ClubFactory()
    league = league_create(club=club, name=name, game=Game.BLUKE)
    people = Player.objects.bulk_create(
        Player(club=club, name=f"{FIRST_NAMES[n % len(FIRST_NAMES)]} Player {n:03d}")
        for n in range(players)
    )
    by_rank = people[::-1]
    by_rating = people[1::2] + people[0::2]
    now = timezone.now()
    Standing.objects.bulk_create(
        Standing(
            league=league,
            player=player,
            games=10,
            wins=players - rank,
            average_place=1 + rank / players,
            total_points=100 * (players - rank),
            average_points=10.0 * (players - rank),
            hands=250,
            bids_made_share=0.5,
            average_overtricks=0.25,
            rank=rank,
            computed_at=now,
        )
        for rank, player in enumerate(by_rank, start=1)
    )
    scope = RatingScope.objects.create(club=club, game=Game.BLUKE, league=league, rated_at=now)
    key = f"{LAST_DAY.isoformat()}/00001/00001/{1:019d}"
    Rating.objects.bulk_create(
        Rating(
            scope=scope,
            player=player,
            mu=40.0 - position / 10,
            sigma=1.0,
            ordinal=37.0 - position / 10,
            games=10,
            last_order_key=key,
        )
        for position, player in enumerate(by_rating, start=1)
    )
    events = Event.objects.bulk_create(
        Event(league=league, name=f"Night {n + 1}", date=LAST_DAY - datetime.timedelta(nights - n))
        for n in range(nights - 1)
    )
    latest = event_create(league=league, name=f"Night {nights}", date=LAST_DAY, rounds=1)
    table_create(round=latest.rounds.get(), number=1, players=people[:4])
    return Ranked(league, people, by_rank, by_rating, [latest, *events[::-1]])


def sign_in_as(player: Player) -> Client:
    user = UserFactory()
    player.user = user
    player.save(update_fields=["user"])
    return signed_in(user)


# -- reading the lists ----------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    cells: list[str]
    own: bool
    """Marked as the signed-in player's."""
    foot: bool
    """In the table's foot section: the own row, off the list shown."""


def table_rows(tree: Element, table_id: str) -> list[Row]:
    """Every body row of the table ``table_id``, in order, foot sections included."""
    (table,) = [t for t in tree.iter("table") if t.attrs.get("id") == table_id]
    rows = []
    for body in table.iter("tbody"):
        for tr in body.iter("tr"):
            rows.append(
                Row(
                    cells=[" ".join(c.text().split()) for c in tr.element_children()],
                    own="own" in tr.attrs.get("class", "").split(),
                    foot="own-row" in body.attrs.get("class", "").split(),
                )
            )
    return rows


def text_of(tree: Element) -> str:
    return " ".join(next(tree.iter("main")).text().split())


def names(rows: list[Row]) -> list[str]:
    return [row.cells[1].removesuffix(" (you)") for row in rows]


# -- the league page --------------------------------------------------------------------------


def test_the_league_page_shows_the_top_of_each_list_and_links_to_the_rest(
    client: Client,
) -> None:
    data = ranked_league(players=130, nights=14)
    _, tree = page(client, data.url("league"))
    text = text_of(tree)

    standings = table_rows(tree, "standings")
    assert [row.cells[0] for row in standings] == [str(n) for n in range(1, lists.TOP + 1)]
    assert names(standings) == [p.name for p in data.by_rank[: lists.TOP]]
    assert not any(row.own or row.foot for row in standings)
    assert "The best 50 of 130 players." in text
    board = table_rows(tree, "ratings")
    assert [row.cells[0] for row in board] == [str(n) for n in range(1, lists.TOP + 1)]
    assert names(board) == [p.name for p in data.by_rating[: lists.TOP]]
    assert "The best 50 of 130 rated players." in text

    found = links(tree)
    assert found["All the standings"] == data.url("league-all-standings")
    assert found["The whole leaderboard"] == data.url("league-leaderboard")
    assert found["All 14 game nights"] == data.url("league-game-nights")
    shown = [text for text, href in found.items() if re.fullmatch(r"/events/[0-9]+/", href)]
    assert [label.split(",")[0] for label in shown] == [
        event.name for event in data.events[: lists.RECENT_EVENTS]
    ]
    assert "(0 of 1 game complete)" in text  # the latest night's table


def test_a_short_league_shows_everything_and_still_links_the_full_lists(
    client: Client,
) -> None:
    data = ranked_league(players=6, nights=3)
    _, tree = page(client, data.url("league"))
    text = text_of(tree)
    assert len(table_rows(tree, "standings")) == len(table_rows(tree, "ratings")) == 6
    assert "The best" not in text
    found = links(tree)
    assert found["All the standings"] == data.url("league-all-standings")
    assert found["The whole leaderboard"] == data.url("league-leaderboard")
    assert not any(label.startswith("All 3 game nights") for label in found)


def test_the_signed_in_player_sees_their_own_rows_below_the_top() -> None:
    data = ranked_league(players=130, nights=2)
    me = data.by_rank[119]
    position = data.by_rating.index(me) + 1
    assert position > lists.TOP
    _, tree = page(sign_in_as(me), data.url("league"))

    standings = table_rows(tree, "standings")
    assert len(standings) == lists.TOP + 1
    assert standings[-1].foot and standings[-1].own
    assert standings[-1].cells[:2] == ["120", f"{me.name} (you)"]
    board = table_rows(tree, "ratings")
    assert board[-1].foot and board[-1].own
    assert board[-1].cells[:2] == [str(position), f"{me.name} (you)"]
    captions = [c.text() for c in tree.iter("caption")]
    assert all(caption.endswith("your own row last") for caption in captions)


def test_the_signed_in_player_in_the_top_is_marked_where_they_stand() -> None:
    data = ranked_league(players=130, nights=2)
    me = next(p for p in data.by_rank[: lists.TOP] if data.by_rating.index(p) < lists.TOP)
    _, tree = page(sign_in_as(me), data.url("league"))
    for table_id in ("standings", "ratings"):
        rows = table_rows(tree, table_id)
        assert len(rows) == lists.TOP and not any(row.foot for row in rows)
        (own,) = [row for row in rows if row.own]
        assert own.cells[1] == f"{me.name} (you)"
    assert table_rows(tree, "standings")[data.by_rank.index(me)].own


def test_a_login_without_a_player_of_the_club_has_no_own_rows() -> None:
    data = ranked_league(players=60, nights=2)
    elsewhere = ranked_league(players=4, nights=2, name="Elsewhere")
    client = sign_in_as(elsewhere.players[0])
    for name, tables in (
        ("league", ["standings", "ratings"]),
        ("league-all-standings", ["standings"]),
        ("league-leaderboard", ["ratings"]),
    ):
        _, tree = page(client, data.url(name))
        for table_id in tables:
            assert not any(row.own or row.foot for row in table_rows(tree, table_id))
        assert "(you)" not in text_of(tree)


# -- the full standings -----------------------------------------------------------------------


def test_the_full_standings_come_a_hundred_a_page(client: Client) -> None:
    data = ranked_league(players=130, nights=2)
    _, tree = page(client, data.url("league-all-standings"))
    rows = table_rows(tree, "standings")
    assert [row.cells[0] for row in rows] == [str(n) for n in range(1, 101)]
    assert names(rows) == [p.name for p in data.by_rank[:100]]
    text = text_of(tree)
    assert "Players 1 to 100 of 130, by rank." in text
    assert "Page 1 of 2" in text
    found = links(tree)
    assert found["Next page"] == "?page=2" and found["Last page"] == "?page=2"
    assert "Previous page" not in found

    _, tree = page(client, data.url("league-all-standings", page=2))
    rows = table_rows(tree, "standings")
    assert [row.cells[0] for row in rows] == [str(n) for n in range(101, 131)]
    assert links(tree)["Previous page"] == "?page=1"
    assert "Next page" not in links(tree)
    # not a number: the first page; past the end: the last
    for asked, first in (("x", "1"), ("99", "101")):
        _, tree = page(client, data.url("league-all-standings", page=asked))
        assert table_rows(tree, "standings")[0].cells[0] == first


def test_the_full_standings_find_players_by_any_part_of_their_name(client: Client) -> None:
    data = ranked_league(players=130, nights=2)
    _, tree = page(client, data.url("league-all-standings", q="  cORa "))
    rows = table_rows(tree, "standings")
    wanted = [(n, p) for n, p in enumerate(data.by_rank, start=1) if "Cora" in p.name]
    assert [row.cells[0] for row in rows] == [str(n) for n, _ in wanted]  # their own ranks
    assert names(rows) == [p.name for _, p in wanted]
    text = text_of(tree)
    assert f"{len(wanted)} players in the standings match “cORa”." in text
    field = next(e for e in tree.iter("input") if e.attrs.get("name") == "q")
    assert field.attrs["value"] == "cORa"
    assert links(tree)["Everyone"] == data.url("league-all-standings")

    # a search of more than a page: the pages' links keep it
    _, tree = page(client, data.url("league-all-standings", q="player"))
    assert links(tree)["Next page"] == "?q=player&page=2"

    _, tree = page(client, data.url("league-all-standings", q="nobody"))
    assert "0 players in the standings match “nobody”." in text_of(tree)
    assert not list(tree.iter("table"))


def test_the_full_standings_always_show_your_own_row() -> None:
    data = ranked_league(players=130, nights=2)
    me = data.by_rank[119]
    client = sign_in_as(me)
    _, tree = page(client, data.url("league-all-standings"))
    rows = table_rows(tree, "standings")
    assert len(rows) == 101 and rows[-1].foot and rows[-1].cells[0] == "120"
    assert links(tree)["page 2"] == "?page=2"

    _, tree = page(client, data.url("league-all-standings", page=2))
    rows = table_rows(tree, "standings")
    assert not any(row.foot for row in rows)
    assert [row.cells[0] for row in rows if row.own] == ["120"]

    _, tree = page(client, data.url("league-all-standings", q="nobody"))
    (row,) = table_rows(tree, "standings")
    assert row.foot and row.cells[:2] == ["120", f"{me.name} (you)"]


def test_a_league_without_standings_says_so(client: Client) -> None:
    data = ranked_league(players=4, nights=1)
    Standing.objects.filter(league=data.league).delete()
    RatingScope.objects.filter(league=data.league).delete()
    for name, words in (
        ("league-all-standings", "No standings yet"),
        ("league-leaderboard", "No ratings"),
    ):
        html, tree = page(client, data.url(name))
        assert words in html
        assert not list(tree.iter("table"))


@pytest.mark.parametrize(
    ("name", "table_id"), [("league-all-standings", "standings"), ("league-leaderboard", "ratings")]
)
def test_a_search_with_a_nul_is_refused_by_its_box(
    client: Client, name: str, table_id: str
) -> None:
    """PostgreSQL refuses a NUL in text: the search is refused by the box, 400, and the
    list shown whole, not a 500 from the database (issue 28, item 3)."""
    data = ranked_league(players=4, nights=1)
    for query in ("%00", "Co%00ra"):
        response = client.get(data.url(name, q=query))
        assert response.status_code == 400
        html = response.content.decode()
        assert "\x00" not in html
        tree = parse(html)
        assert_accessible(tree)
        box = next(e for e in tree.iter("input") if e.attrs.get("name") == "q")
        assert box.attrs["value"] == "" and box.attrs["aria-invalid"] == "true"
        assert box.attrs["aria-describedby"] == "q-error"
        error = next(e for e in tree.iter("p") if e.attrs.get("id") == "q-error")
        assert error.text() == NUL_REFUSED
        assert len(table_rows(tree, table_id)) == 4  # everyone
        assert "Next page" not in links(tree)


def test_the_search_modules_examples_hold() -> None:
    failed, tried = doctest.testmod(search, raise_on_error=False)
    assert (failed, tried > 0) == (0, True)


# -- the full leaderboard ---------------------------------------------------------------------


def test_the_full_leaderboard_numbers_every_page_and_keeps_positions_in_a_search(
    client: Client,
) -> None:
    data = ranked_league(players=130, nights=2)
    _, tree = page(client, data.url("league-leaderboard", page=2))
    rows = table_rows(tree, "ratings")
    assert [row.cells[0] for row in rows] == [str(n) for n in range(101, 131)]
    assert names(rows) == [p.name for p in data.by_rating[100:]]
    assert "Page 2 of 2" in text_of(tree)

    _, tree = page(client, data.url("league-leaderboard", q="esme"))
    rows = table_rows(tree, "ratings")
    wanted = [(n, p) for n, p in enumerate(data.by_rating, start=1) if "Esme" in p.name]
    assert [(row.cells[0], row.cells[1]) for row in rows] == [(str(n), p.name) for n, p in wanted]
    assert all(row.cells[2].startswith("about ") for row in rows)  # in words
    assert f"{len(wanted)} of 130 rated players match “esme”." in text_of(tree)

    html, tree = page(client, data.url("league-leaderboard", q="nobody"))
    assert "0 of 130 rated players match “nobody”." in text_of(tree)
    assert not list(tree.iter("table")) and "No ratings yet" not in html


def test_the_full_leaderboard_always_shows_your_own_row() -> None:
    data = ranked_league(players=130, nights=2)
    me = data.by_rating[110]
    _, tree = page(sign_in_as(me), data.url("league-leaderboard"))
    rows = table_rows(tree, "ratings")
    assert len(rows) == 101
    assert rows[-1].foot and rows[-1].own and rows[-1].cells[:2] == ["111", f"{me.name} (you)"]
    assert links(tree)["page 2"] == "?page=2"


# -- the game nights --------------------------------------------------------------------------


def test_the_game_nights_come_fifty_a_page_the_latest_first(client: Client) -> None:
    data = ranked_league(players=4, nights=60)
    _, tree = page(client, data.url("league-game-nights"))
    shown = [href for href in links(tree).values() if re.fullmatch(r"/events/[0-9]+/", href)]
    assert shown == [reverse("event", args=[e.pk]) for e in data.events[: lists.EVENTS_PER_PAGE]]
    assert "The latest first: 1 to 50 of 60." in text_of(tree)
    _, tree = page(client, data.url("league-game-nights", page=2))
    shown = [href for href in links(tree).values() if re.fullmatch(r"/events/[0-9]+/", href)]
    assert shown == [reverse("event", args=[e.pk]) for e in data.events[50:]]


# -- queries ----------------------------------------------------------------------------------


PAGES = [
    ("league", {}),
    ("league-all-standings", {}),
    ("league-all-standings", {"q": "ada", "page": 2}),
    ("league-leaderboard", {}),
    ("league-leaderboard", {"q": "ada"}),
    ("league-game-nights", {}),
]


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured.captured_queries)


def test_the_pages_run_the_same_queries_whatever_the_league_size(client: Client) -> None:
    small = ranked_league(players=5, nights=2, name="Small")
    large = ranked_league(players=230, nights=120, name="Large")
    anonymous = {
        (name, str(query)): [queries(client, data.url(name, **query)) for data in (small, large)]
        for name, query in PAGES
    }
    assert {key: counts[0] for key, counts in anonymous.items()} == {
        # the league with its club and scope; the top standings, counted in the same query;
        # the leaderboard; the latest nights, counted so too; their tables; tonight's
        ("league", "{}"): 6,
        # the league; the standings' count and page (a search: the same two, filtered)
        ("league-all-standings", "{}"): 3,
        ("league-all-standings", "{'q': 'ada', 'page': 2}"): 3,
        # the league; the leaderboard's count and page (ranked and cut by the database; a
        # search: the same two, filtered, the page counting the whole board)
        ("league-leaderboard", "{}"): 3,
        ("league-leaderboard", "{'q': 'ada'}"): 3,
        # the league; the nights' count and page; their tables
        ("league-game-nights", "{}"): 4,
    }
    assert all(counts[0] == counts[1] for counts in anonymous.values()), anonymous

    # a signed-in player, last in both leagues: the same queries again, and a fixed few more
    # (the session and its user, their player, their standings row, their rating's row; on
    # the league page, their role in the club too: whether to show them its "Manage" link)
    extra = {
        "league": 6,
        "league-all-standings": 4,
        "league-leaderboard": 4,
        "league-game-nights": 2,
    }
    for data in (small, large):
        client = sign_in_as(data.by_rank[-1])
        for name, query in PAGES:
            expected = anonymous[(name, str(query))][0] + extra[name]
            assert queries(client, data.url(name, **query)) == expected, (name, query)


# -- compression ------------------------------------------------------------------------------


def test_pages_and_the_api_are_compressed_for_clients_that_ask(client: Client) -> None:
    data = ranked_league(players=130, nights=2)
    plain = client.get(data.url("league"))
    zipped = client.get(data.url("league"), headers={"accept-encoding": "gzip"})
    assert "Content-Encoding" not in plain
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    html = gzip.decompress(zipped.content).decode()
    parse(html)
    assert html.count("<tr") == plain.content.decode().count("<tr")
    assert len(zipped.content) < len(plain.content) / 5

    api = client.get(
        f"/api/leagues/{data.league.pk}/standings/",
        headers={"accept": "application/json", "accept-encoding": "gzip"},
    )
    assert api.status_code == 200 and api["Content-Encoding"] == "gzip"


def test_an_answer_that_shows_a_secret_is_never_compressed() -> None:
    client = signed_in(UserFactory())
    made = client.post(
        reverse("api-tokens"), {"name": "the club laptop"}, headers={"accept-encoding": "gzip"}
    )
    assert made.status_code in (200, 201)
    assert "no-store" in made["Cache-Control"]
    assert "Content-Encoding" not in made
    assert b"the club laptop" in made.content  # readable as it is


@pytest.mark.parametrize(
    ("cache_control", "secret"),
    [
        ("max-age=0, no-cache, no-store, must-revalidate, private", True),
        ("No-Store", True),
        ("private, max-age=60", False),
        ("no-cache", False),
        ("", False),
    ],
)
def test_what_may_hold_a_secret(cache_control: str, secret: bool) -> None:
    response = HttpResponse("x")
    if cache_control:
        response["Cache-Control"] = cache_control
    assert may_hold_a_secret(response) is secret


# -- a long rating history -----------------------------------------------------------------------


def history(data: Ranked, player: Player, games: int) -> None:
    scope = RatingScope.objects.get(league=data.league)
    RatingHistory.objects.bulk_create(
        RatingHistory(
            scope=scope,
            order_key=f"{LAST_DAY - datetime.timedelta(games - n):%Y-%m-%d}/00001/00001/{n:019d}",
            player=player,
            table_id=n,  # not checked by the database: the chart reads no table
            mu=25.0 + (n % 37) / 10 + n / 1000,
            sigma=max(1.0, 8.0 - n / 100),
            games=n,
        )
        for n in range(1, games + 1)
    )
    Rating.objects.filter(scope=scope, player=player).update(games=games)


def test_a_player_with_thousands_of_games_gets_a_small_chart() -> None:
    data = ranked_league(players=8, nights=2)
    long, short = data.players[0], data.players[1]
    history(data, long, 3_000)
    history(data, short, 3)
    client = Client()
    counts = [queries(client, reverse("player", args=[p.pk])) for p in (short, long)]
    assert counts[0] == counts[1]

    html, tree = page(client, reverse("player", args=[long.pk]))
    (svg,) = list(tree.iter("svg"))
    line = next(e for e in svg.iter("polyline") if "chart-line" in e.attrs.get("class", ""))
    drawn = line.attrs["points"].split()
    assert charts.MOST_POINTS - 2 <= len(drawn) <= charts.MOST_POINTS
    assert len(html.encode()) < 40_000
    # the words still read the whole history
    assert "after 3000 games" in next(svg.iter("desc")).text()
