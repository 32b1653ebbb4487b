"""The members' pages: home, league, event and player, with real data made
through the services (standings and ratings computed by their on-commit
jobs), their empty states, 404s, accessibility landmarks, a constant number
of queries whatever the amount of data, and the SVG chart."""

from __future__ import annotations

import datetime
import doctest
import re
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league import ratings
from league.models import (
    Club,
    Event,
    Game,
    League,
    Player,
    RatingScope,
    RatingsOwed,
    Standing,
    Table,
)
from league.selectors import ratings as ratings_selectors
from league.services.fixtures import event_create, league_create, table_create
from league.services.results import game_submit, hand_submit
from league.web import charts
from tests.support.factories import ClubFactory, PlayerFactory
from tests.support.records import bluke_results, buck_takes_all
from tests.support.setups import run_demo_data
from tests.support.tree import Element, links, page, parse, rows_of
from tests.support.web import sheet_url

pytestmark = pytest.mark.django_db

BLUKE_OPTIONS = {"max_cards": 2}
"""Short Bluke games: hands of 2, 1 and 2 cards."""
BLUKE_HANDS = (2, 1, 2)
NONE = "\N{EN DASH}"
"""What a cell shows when the figure does not exist (yet)."""


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """Run a service and then the jobs it schedules on commit (standings,
    ratings), as the web process does without a broker."""

    def run(service: Callable[..., Any], **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return run


# -- data ---------------------------------------------------------------------------


@dataclass
class Season:
    """A league of a club with its players, game nights and games."""

    league: League
    players: list[Player]
    run: Callable[..., Any]
    events: list[Event] = field(default_factory=list)

    @property
    def bluke(self) -> bool:
        return self.league.game == Game.BLUKE

    def night(self, day: int, *, rounds: int = 1) -> Event:
        event = event_create(
            league=self.league,
            name=f"Night {day}",
            date=datetime.date(2026, 9, 1) + datetime.timedelta(days=day),
            rounds=rounds,
        )
        self.events.append(event)
        return event

    def table(
        self, event: Event, seats: list[int], *, round_number: int = 1, number: int = 1
    ) -> Table:
        return table_create(
            round=event.rounds.get(number=round_number),
            number=number,
            players=[self.players[s] for s in seats],
        )

    def play(self, table: Table, winner: int) -> Table:
        """Complete the table's game, seat ``winner`` winning it."""
        if self.bluke:
            hands = [bluke_results(cards, winner=winner) for cards in BLUKE_HANDS]
        else:
            hands = [buck_takes_all(winner)]
        return self.run(game_submit, table=table, record={"hands": hands})


def season(
    run: Callable[..., Any],
    *,
    game: str,
    club: Club | None = None,
    players: int = 4,
    name: str = "Thursday League",
) -> Season:
    club = club or ClubFactory()
    people = [PlayerFactory(club=club) for _ in range(players)]
    league = league_create(
        club=club, name=name, game=game, options=BLUKE_OPTIONS if game == Game.BLUKE else {}
    )
    return Season(league=league, players=people, run=run)


def small_season(run: Callable[..., Any], *, game: str, club: Club | None = None) -> Season:
    """One night, one complete game of four."""
    data = season(run, game=game, club=club, name=f"Small {game}")
    data.play(data.table(data.night(1), [0, 1, 2, 3]), winner=0)
    return data


def large_season(
    run: Callable[..., Any], *, game: str, club: Club | None = None, nights: int = 3
) -> Season:
    """Nights of two rounds of two tables (eight players), every game
    complete but the last night's last, which is not started."""
    data = season(run, game=game, club=club, players=8, name=f"Large {game}")
    for day in range(1, nights + 1):
        event = data.night(day, rounds=2)
        for round_number in (1, 2):
            for number, seats in ((1, [0, 1, 2, 3]), (2, [4, 5, 6, 7])):
                shift = (day + round_number) % 8
                table = data.table(
                    event,
                    [(s + shift) % 8 for s in seats],
                    round_number=round_number,
                    number=number,
                )
                if (day, round_number, number) != (nights, 2, 2):
                    data.play(table, winner=(day + number) % 4)
    return data


# -- home ------------------------------------------------------------------------------


def test_home_lists_clubs_and_links_their_leagues(client: Client, on_commit: Any) -> None:
    club = ClubFactory(name="Riverside")
    bluke = season(on_commit, game=Game.BLUKE, club=club, name="Thursday Bluke")
    buck = season(on_commit, game=Game.BUCK_EUCHRE, club=club, name="Dirty Clubs Cup")
    ClubFactory(name="Empty Club")

    html, tree = page(client, reverse("home"))

    assert reverse("home") == "/"
    found = links(tree)
    assert found["Thursday Bluke"] == f"/leagues/{bluke.league.pk}/"
    assert found["Dirty Clubs Cup"] == reverse("league", args=[buck.league.pk])
    assert "(Buck Euchre)" in html
    empty = next(s for s in tree.iter("section") if "Empty Club" in s.text())
    assert "No leagues yet." in empty.text()


def test_home_queries_do_not_grow_with_clubs_and_leagues(
    client: Client, on_commit: Any, django_assert_num_queries: Any
) -> None:
    small_season(on_commit, game=Game.BLUKE)
    with django_assert_num_queries(3):
        client.get("/")
    for _ in range(3):
        club = ClubFactory()
        season(on_commit, game=Game.BLUKE, club=club, name="Extra A")
        season(on_commit, game=Game.BUCK_EUCHRE, club=club, name="Extra B")
    with django_assert_num_queries(3):  # clubs, leagues, and tonight's game nights
        page(client, "/")


# -- league ----------------------------------------------------------------------------


def test_the_league_page_shows_standings_ratings_and_events(client: Client, on_commit: Any) -> None:
    data = large_season(on_commit, game=Game.BLUKE)
    league = data.league
    stored = list(Standing.objects.filter(league=league, event=None).order_by("rank"))

    html, tree = page(client, reverse("league", args=[league.pk]))

    assert next(tree.iter("h1")).text() == league.name
    rows = rows_of(tree, f"Standings of {league.name}")
    assert len(rows) == len(stored) == 8
    for row, standing in zip(rows, stored, strict=True):
        assert row[:4] == [
            str(standing.rank),
            standing.player.name,
            str(standing.games),
            str(standing.wins),
        ]
        assert row[4] == f"{standing.average_place:.2f}"
        assert row[5] == str(standing.total_points)
        assert row[6] == f"{standing.average_points:.1f}"
        assert row[7] == f"{round(standing.bids_made_share * 100)} %"
        expected = standing.average_overtricks
        assert row[8] == (NONE if expected is None else f"{expected:.2f}")
    found = links(tree)
    assert found[stored[0].player.name] == reverse("player", args=[stored[0].player_id])
    # the lines are computed as games change them: the newest shown says how fresh they are
    computed = max(standing.computed_at for standing in stored)
    assert f'datetime="{computed.isoformat()}"' in html
    assert computed.strftime("%H:%M UTC") in html

    board = rows_of(tree, f"Rating leaderboard of {league.name}")
    scope = RatingScope.objects.get(league=league)
    leaders = ratings.leaderboard(scope=scope)
    assert [r[1] for r in board] == [r.player.name for r in leaders]
    # the rating in words: the ordinal (what orders the board) ± sigma, and
    # whether it is still settling (by its sigma)
    provisional = ratings.is_provisional(leaders[0], game=league.game)
    settling = "still settling after" if provisional else "based on"
    assert board[0] == [
        "1",
        leaders[0].player.name,
        f"about {leaders[0].ordinal:.1f}, ± {leaders[0].sigma:.1f} — "
        f"{settling} {leaders[0].games} games",
    ]
    assert "Up to date" in html
    assert found["How ratings work"] == reverse("ratings-explained")

    for event in data.events:
        label = f"{event.name}, {event.date:%a} {event.date.day} {event.date:%b %Y}"
        assert found[label] == reverse("event", args=[event.pk])
    assert "(3 of 4 games complete)" in html  # the last night's unfinished table
    # the latest night first
    assert html.index("Night 3,") < html.index("Night 1,")


def test_the_league_page_of_buck_euchre_shows_its_own_columns(
    client: Client, on_commit: Any
) -> None:
    data = small_season(on_commit, game=Game.BUCK_EUCHRE)
    html, tree = page(client, reverse("league", args=[data.league.pk]))
    headers = [th.text() for th in tree.iter("th") if th.attrs.get("scope") == "col"]
    assert {"Bucked as maker", "Bucked as player", "Drops", "Sat out"} <= set(headers)
    assert "Bids made" not in headers
    rows = {row[1]: row for row in rows_of(tree, "Standings of")}
    winner = rows[data.players[0].name]
    assert winner[:4] == ["1", data.players[0].name, "1", "1"]
    assert "Ordered by wins, then average place, then average points (Buck Euchre counts " in html
    # seat 0 took all five tricks as maker: the other three were bucked as players
    assert winner[7:] == ["0", "0", "0", "0"]  # ..., drops, sat out
    assert rows[data.players[1].name][7:] == ["0", "1", "0", "0"]


def test_a_league_without_games_says_so(client: Client, on_commit: Any) -> None:
    data = season(on_commit, game=Game.BLUKE, name="Quiet League")
    html, tree = page(client, reverse("league", args=[data.league.pk]))
    assert "No standings yet" in html
    assert "No ratings yet" in html
    assert "No events yet." in html
    assert not list(tree.iter("table"))

    data.night(1)
    html, _ = page(client, reverse("league", args=[data.league.pk]))
    assert "(0 of 0 games complete)" in html


@pytest.mark.parametrize("owed", ["a change of results", "a rebuild"])
def test_the_league_and_player_pages_say_when_ratings_are_pending(
    client: Client, on_commit: Any, owed: str
) -> None:
    data = small_season(on_commit, game=Game.BLUKE)
    scope = RatingScope.objects.get(league=data.league)
    player = data.players[0]
    before, _ = page(client, reverse("player", args=[player.pk]))
    assert "Update pending" not in before
    if owed == "a rebuild":  # the scope's own mark, which its lock holders write
        RatingScope.objects.filter(pk=scope.pk).update(rerate_from="2026-09-02")
    else:  # the row a game completed or corrected owes, its job not run yet
        RatingsOwed.objects.create(scope=scope, rerate_from="2026-09-02", owed_at=timezone.now())
    html, _ = page(client, reverse("league", args=[data.league.pk]))
    assert "Update pending" in html
    assert "Up to date" not in html
    html, _ = page(client, reverse("player", args=[player.pk]))
    assert html.count("Update pending") == 1  # the league's scope, not the club's


def test_league_page_queries_do_not_grow_with_the_league(
    client: Client, on_commit: Any, django_assert_num_queries: Any
) -> None:
    small = small_season(on_commit, game=Game.BLUKE)
    large = large_season(on_commit, game=Game.BUCK_EUCHRE)
    for data in (small, large):
        # the league; its top standings, counted in the same query; its leaderboard; its
        # latest game nights, counted so too; their tables; tonight's game nights
        with django_assert_num_queries(6):
            client.get(reverse("league", args=[data.league.pk]))


# -- event -----------------------------------------------------------------------------


def test_the_event_page_shows_rounds_tables_seatings_and_standings(
    client: Client, on_commit: Any
) -> None:
    data = large_season(on_commit, game=Game.BLUKE)
    event = data.events[-1]
    tables = {
        (t.round.number, t.number): t
        for t in Table.objects.filter(round__event=event).select_related("round")
    }

    html, tree = page(client, reverse("event", args=[event.pk]))

    assert next(tree.iter("h1")).text() == event.name
    found = links(tree)
    assert found[data.league.name] == reverse("league", args=[data.league.pk])
    assert "Round 1" in html and "Round 2" in html
    done = tables[1, 1]
    seats = list(done.seatings.select_related("player").order_by("seat"))
    rows = rows_of(tree, "Round 1, table 1")
    assert rows == [[str(s.seat + 1), s.player.name, str(s.total), str(s.place)] for s in seats]
    assert found[seats[0].player.name] == reverse("player", args=[seats[0].player_id])
    assert "complete after 3 hands." in html
    for table in tables.values():
        assert f'href="{sheet_url(table)}"' in html

    unplayed = tables[2, 2]
    rows = rows_of(tree, "Round 2, table 2")
    assert [row[2:] for row in rows] == [["0", NONE]] * 4
    assert "not started" in html

    standings = rows_of(tree, f"Standings of {event.name}")
    stored = list(Standing.objects.filter(event=event).order_by("rank"))
    assert [row[1] for row in standings] == [s.player.name for s in stored]
    assert unplayed.complete is False


def test_the_event_page_shows_a_game_in_progress_with_running_totals(
    client: Client, on_commit: Any
) -> None:
    data = season(on_commit, game=Game.BLUKE)
    event = data.night(1)
    table = data.table(event, [0, 1, 2, 3])
    on_commit(hand_submit, table=table, record=bluke_results(2, winner=1))
    table.refresh_from_db()

    html, tree = page(client, reverse("event", args=[event.pk]))

    assert "1 hand played; the totals are running totals." in html
    rows = rows_of(tree, "Round 1, table 1")
    assert [row[2] for row in rows] == [str(total) for total in table.totals]
    assert [row[3] for row in rows] == [NONE] * 4
    assert "No standings yet" in html


def test_an_event_without_tables_says_so(client: Client, on_commit: Any) -> None:
    data = season(on_commit, game=Game.BUCK_EUCHRE)
    event = data.night(1, rounds=2)
    html, tree = page(client, reverse("event", args=[event.pk]))
    assert html.count("No tables in this round yet.") == 2
    assert "No standings yet" in html
    assert not list(tree.iter("table"))


def test_event_page_queries_do_not_grow_with_the_event(
    client: Client, on_commit: Any, django_assert_num_queries: Any
) -> None:
    small = small_season(on_commit, game=Game.BUCK_EUCHRE)
    large = large_season(on_commit, game=Game.BLUKE)
    for event in (small.events[0], large.events[-1]):
        with django_assert_num_queries(6):
            client.get(reverse("event", args=[event.pk]))


# -- player ----------------------------------------------------------------------------


def test_the_player_page_shows_ratings_charts_games_and_statistics(
    client: Client, on_commit: Any
) -> None:
    club = ClubFactory(name="Riverside")
    bluke = large_season(on_commit, game=Game.BLUKE, club=club, nights=6)
    buck = season(on_commit, game=Game.BUCK_EUCHRE, club=club, name="Cup")
    buck.players = bluke.players[:4]  # the same people in the other league
    buck.play(buck.table(buck.night(10), [0, 1, 2, 3]), winner=2)
    player = bluke.players[0]

    html, tree = page(client, reverse("player", args=[player.pk]))

    assert next(tree.iter("h1")).text() == player.name
    assert "Riverside" in html
    # a rating per league, and a club-wide one per game; one chart per distinct history:
    # each game has one league here, so its league's chart serves the club-wide rating too
    rated = {item.rating.scope_id: item for item in ratings_selectors.player_ratings(player=player)}
    assert len(rated) == 4
    svgs = list(tree.iter("svg"))
    assert len(svgs) == 2
    for item in rated.values():
        rating = item.rating
        heading = next(
            e for e in tree.iter("h3") if e.attrs.get("id") == f"rating-{rating.scope_id}"
        )
        label = rating.scope.league.name if rating.scope.league else "Club-wide"
        assert label in heading.text()
        charted = [
            s for s in svgs if s.attrs["aria-labelledby"] == f"rating-chart-{rating.scope_id}-title"
        ]
        if rating.scope.league is None:
            assert not charted  # the league's chart serves it
        else:
            chart = charted[0]
            polyline = next(chart.iter("polyline"))
            assert len(polyline.attrs["points"].split()) == rating.games
            assert chart.attrs["aria-labelledby"] and "Rating ± uncertainty" in chart.text()
        words = f"about {rating.ordinal:.1f}, ± {rating.sigma:.1f} — "
        settling = "still settling after" if item.provisional else "based on"
        played = f"{rating.games} game{'' if rating.games == 1 else 's'}"
        assert f"{words}{settling} {played}" in html
    league_rating = next(i.rating for i in rated.values() if i.rating.scope.league == bluke.league)
    history = list(league_rating.scope.history.filter(player=player).order_by("order_key"))
    # the chart draws the rating (the ordinal), ± sigma, as the words say it
    summary = charts.describe(
        charts.summarise([charts.Point(h.games, h.ordinal, h.sigma) for h in history]),
        value_name="rating",
    )
    assert summary in html
    assert f"{history[-1].ordinal:.1f} after {history[-1].games} games" in summary
    assert links(tree)["How ratings work"] == reverse("ratings-explained")
    assert "Rank: the place in the league's standings. Ordered by wins" in html

    recent = rows_of(tree, f"{player.name}'s latest complete games")
    played = list(
        player.seatings.filter(table__complete=True)
        .select_related("table__round__event__league")
        .order_by("-table__round__event__date", "-table__round__number", "-table__number")
    )
    assert len(played) > 10
    assert len(recent) == 10
    latest = played[0]
    assert recent[0][1:5] == [
        "Cup",
        latest.table.round.event.name,
        f"{latest.place} of 4",
        str(latest.total),
    ]
    assert f'href="{sheet_url(latest.table)}"' in html

    stats = rows_of(tree, f"{player.name} in each Bluke league")
    standing = Standing.objects.get(league=bluke.league, event=None, player=player)
    assert stats == [
        [
            bluke.league.name,
            str(standing.rank),
            str(standing.games),
            str(standing.wins),
            f"{standing.average_place:.2f}",
            str(standing.total_points),
            f"{standing.average_points:.1f}",
            f"{round(standing.bids_made_share * 100)} %",
            NONE if standing.average_overtricks is None else f"{standing.average_overtricks:.2f}",
        ]
    ]
    assert rows_of(tree, f"{player.name} in each Buck Euchre league")[0][0] == "Cup"


def test_a_player_without_games_says_so(client: Client) -> None:
    player = PlayerFactory(name="Newcomer")
    html, tree = page(client, reverse("player", args=[player.pk]))
    assert "No ratings yet" in html
    assert "No complete games yet." in html
    assert "No statistics yet" in html
    assert not list(tree.iter("svg"))
    assert not list(tree.iter("table"))


def test_player_names_are_escaped(client: Client, on_commit: Any) -> None:
    data = season(on_commit, game=Game.BUCK_EUCHRE)
    data.players[0].name = '<script>alert("x")</script>'
    data.players[0].save()
    data.play(data.table(data.night(1), [0, 1, 2, 3]), winner=0)
    for url in (
        reverse("player", args=[data.players[0].pk]),
        reverse("league", args=[data.league.pk]),
        reverse("event", args=[data.events[0].pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert b"<script>" not in response.content
        assert b"&lt;script&gt;" in response.content


def test_player_page_queries_do_not_grow_with_the_games(
    client: Client, on_commit: Any, django_assert_num_queries: Any
) -> None:
    small = small_season(on_commit, game=Game.BUCK_EUCHRE)
    club = ClubFactory()
    large = large_season(on_commit, game=Game.BLUKE, club=club)
    other = season(on_commit, game=Game.BUCK_EUCHRE, club=club, name="Cup")
    other.players = large.players[:4]
    other.play(other.table(other.night(10), [0, 1, 2, 3]), winner=1)
    for player in (small.players[0], large.players[0]):
        # seven for the ratings (one for the tables of the latest games they explain),
        # games and standings, four for the figures of each game
        with django_assert_num_queries(11):
            client.get(reverse("player", args=[player.pk]))


# -- every page of the demo club ---------------------------------------------------------


def test_every_page_of_the_demo_club_renders_and_links_to_pages_that_exist(
    client: Client,
) -> None:
    """Follow every link from the home page through leagues and events to
    players and score sheets: each page answers 200 and passes the checks."""
    run_demo_data()
    seen: set[str] = set()
    queue = ["/"]
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        if url.startswith("/tables/"):
            assert client.get(url).status_code == 200, url
            continue
        _, tree = page(client, url)
        for href in links(tree).values():
            path = href.split("#")[0]
            if re.fullmatch(r"/(?:leagues|events|players|tables)/[0-9]+/|/", path):
                queue.append(path)
    kinds = {url.split("/")[1] for url in seen}
    assert kinds == {"", "leagues", "events", "players", "tables"}
    assert sum(url.startswith("/players/") for url in seen) == Player.objects.count()
    assert sum(url.startswith("/events/") for url in seen) == Event.objects.count()


def test_times_are_shown_in_the_sites_time_zone(
    client: Client, on_commit: Any, settings: Any
) -> None:
    data = small_season(on_commit, game=Game.BUCK_EUCHRE)
    computed = max(
        Standing.objects.filter(league=data.league, event=None).values_list(
            "computed_at", flat=True
        )
    )
    settings.TIME_ZONE = "America/New_York"
    html, _ = page(client, reverse("league", args=[data.league.pk]))
    local = computed.astimezone(zoneinfo.ZoneInfo("America/New_York"))
    assert f"{local:%H:%M} {local.tzname()}" in html
    assert f'datetime="{local.isoformat()}"' in html


# -- not found ---------------------------------------------------------------------------


def test_the_pages_only_read(client: Client, on_commit: Any) -> None:
    """The members' pages take GET and HEAD; anything else is refused (405)."""
    season = small_season(on_commit, game=Game.BLUKE)
    for url in (
        reverse("home"),
        reverse("league", args=[season.league.pk]),
        reverse("event", args=[season.events[0].pk]),
        reverse("player", args=[season.players[0].pk]),
    ):
        assert client.get(url).status_code == 200, url
        assert client.head(url).status_code == 200, url
        assert client.post(url).status_code == 405, url
        assert client.put(url).status_code == 405, url


@pytest.mark.parametrize("name", ["league", "event", "player"])
@pytest.mark.parametrize("pk", [999_999, 2**63, 10**30])
def test_a_missing_id_is_the_sites_404_page(client: Client, name: str, pk: int) -> None:
    response = client.get(reverse(name, args=[pk]))
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert "<h1>Not found</h1>" in response.content.decode()


@pytest.mark.parametrize("url", ["/leagues/abc/", "/events/-1/", "/players/1.5/", "/leagues/"])
def test_malformed_ids_are_404_too(client: Client, url: str) -> None:
    assert client.get(url).status_code == 404


# -- the chart ---------------------------------------------------------------------------


def chart(points: list[charts.Point], **kwargs: Any) -> Element:
    markup = charts.rating_chart(
        points,
        chart_id=kwargs.pop("chart_id", "c"),
        title=kwargs.pop("title", "Rating"),
        description=kwargs.pop("description", "History"),
        **kwargs,
    )
    (svg,) = parse(str(markup)).iter("svg")
    return svg


def coordinates(svg: Element, tag: str) -> list[tuple[float, float]]:
    element = next(svg.iter(tag))
    return [
        (float(x), float(y))
        for x, y in (pair.split(",") for pair in element.attrs["points"].split())
    ]


def assert_in_view(svg: Element, pairs: list[tuple[float, float]]) -> None:
    _, _, width, height = (float(n) for n in svg.attrs["viewbox"].split())
    for x, y in pairs:
        assert charts.LEFT <= x <= width - charts.RIGHT, x
        assert charts.TOP <= y <= height - charts.BOTTOM, y


def test_an_empty_history_draws_nothing() -> None:
    assert charts.rating_chart([], chart_id="c", title="t", description="d") == ""
    assert charts.summarise([]) is None
    assert charts.describe(None) == "No rating yet."


def test_one_point_is_a_dot_with_a_sigma_bar() -> None:
    svg = chart([charts.Point(1, 27.0, 7.0)])
    assert svg.attrs["role"] == "img"
    line = coordinates(svg, "polyline")
    assert len(line) == 1
    assert_in_view(svg, line)
    bar = next(e for e in svg.iter("line") if e.attrs.get("class") == "chart-band")
    assert float(bar.attrs["y1"]) < line[0][1] < float(bar.attrs["y2"])
    assert not list(svg.iter("polygon"))
    summary = charts.summarise([charts.Point(1, 27.0, 7.0)])
    assert charts.describe(summary, value_name="mu") == "Mu 27.0 after 1 game."


def test_many_points_stay_in_the_plot_and_rise_where_the_value_does() -> None:
    points = [charts.Point(n, 25 + (n % 7) - n / 10, 8.3 - n / 20) for n in range(1, 121)]
    svg = chart(points)
    line = coordinates(svg, "polyline")
    band = coordinates(svg, "polygon")
    assert len(line) == 120 and len(band) == 240
    assert_in_view(svg, line + band)
    # x grows with the games; a higher value is drawn higher (smaller y)
    assert [x for x, _ in line] == sorted(x for x, _ in line)
    for (a, b), (ya, yb) in zip(pairwise(points), pairwise(line), strict=True):
        if a.value < b.value:
            assert ya[1] > yb[1]
    # the band encloses the line
    upper = band[:120]
    lower = band[120:][::-1]
    for (_, top), (_, mid), (_, bottom) in zip(upper, line, lower, strict=True):
        assert top <= mid <= bottom


def test_the_axes_have_ticks_labels_and_titles() -> None:
    svg = chart([charts.Point(n, 20 + n, 3) for n in range(1, 15)])
    texts = [" ".join(t.text().split()) for t in svg.iter("text")]
    assert "Games played" in texts
    assert "Rating" in texts
    assert {"0", "5", "10", "15"} <= set(texts)  # x ticks
    assert {"20", "30"} <= set(texts)  # y ticks, round numbers
    ids = {e.attrs.get("id") for e in svg.iter()}
    assert {"c-title", "c-desc"} <= ids
    assert svg.attrs["aria-describedby"] == "c-desc"


def test_chart_text_is_escaped() -> None:
    markup = str(
        charts.rating_chart(
            [charts.Point(1, 25, 8), charts.Point(2, 26, 7)],
            chart_id="c",
            title='<script>alert("t")</script>',
            description="a & b < c",
            value_label="<b>mu</b>",
        )
    )
    assert "<script>" not in markup and "<b>" not in markup
    assert "&lt;script&gt;" in markup
    assert "a &amp; b &lt; c" in markup
    parse(markup)


def test_a_flat_or_odd_history_still_draws_in_range() -> None:
    flat = [charts.Point(n, 25.0, 0.0) for n in range(1, 4)]
    svg = chart(flat)
    assert_in_view(svg, coordinates(svg, "polyline") + coordinates(svg, "polygon"))
    odd = [charts.Point(1, float("nan"), 1.0), charts.Point(2, -3.5, 2.0), charts.Point(3, 1e6, 1)]
    svg = chart(odd)
    line = coordinates(svg, "polyline")
    assert len(line) == 2
    assert_in_view(svg, line)


def test_the_summary_names_first_last_highest_and_lowest() -> None:
    points = [charts.Point(1, 25.04, 8), charts.Point(2, 27.5, 7), charts.Point(3, 26, 6.5)]
    assert charts.describe(charts.summarise(points), value_name="mu") == (
        "Mu 25.0 after 1 game, 26.0 after 3 games; "
        "highest 27.5 after 2 games, lowest 25.0 after 1 game."
    )


@pytest.mark.parametrize(
    ("low", "high"), [(17.2, 33.9), (-4.0, 4.0), (0.0, 0.3), (24.999, 25.001), (1e3, 5e4)]
)
def test_ticks_are_round_and_cover_the_range(low: float, high: float) -> None:
    ticks = charts.nice_ticks(low, high)
    assert ticks[0] <= low and ticks[-1] >= high
    assert 2 <= len(ticks) <= 11
    steps = {round(b - a, 9) for a, b in pairwise(ticks)}
    assert len(steps) == 1


def test_the_chart_modules_examples_hold() -> None:
    failures, tried = doctest.testmod(charts)
    assert tried and not failures


def test_the_summary_and_the_chart_ignore_values_that_are_not_numbers() -> None:
    points = [charts.Point(2, 26.0, 7.0), charts.Point(1, float("inf"), 8.0)]
    assert charts.describe(charts.summarise(points)) == "Rating 26.0 after 2 games."
    assert (
        charts.rating_chart(
            [charts.Point(1, float("nan"), 1)], chart_id="c", title="t", description="d"
        )
        == ""
    )
