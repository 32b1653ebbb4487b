"""Standings: the statistics of each game, the tie-breaks, date ranges and
events, and independence from the order results were submitted in."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from league import standings
from league.models import Game, Standing, Table
from league.services.fixtures import event_create, league_create, table_create
from league.services.results import hand_submit
from league.standings import standings_refresh
from tests.support.factories import ClubFactory, PlayerFactory
from tests.support.records import buck_takes_all

pytestmark = pytest.mark.django_db


class League_:
    def __init__(self, game: str, players: int = 4, **options: Any) -> None:
        self.club = ClubFactory()
        self.players = [PlayerFactory(club=self.club, name=f"P{n}") for n in range(players)]
        self.league = league_create(club=self.club, name="L", game=game, options=options)

    def table(self, day: int, seats: list[int] | None = None) -> Table:
        event = event_create(league=self.league, name=f"N{day}", date=datetime.date(2026, 10, day))
        chosen = [self.players[s] for s in (seats or range(4))]
        return table_create(round=event.rounds.get(), number=1, players=chosen)

    def rows(self, **kwargs: Any) -> dict[str, dict[str, Any]]:
        return {r["name"]: r for r in standings.standing_rows(league=self.league, **kwargs)}


def test_bluke_counts_bids_made_and_overtricks() -> None:
    league = League_(Game.BLUKE, max_cards=2)  # hands of 2, 1, 2 cards
    table = league.table(1)
    for record in (
        {"trump": "S", "bids": [1, 1, 1, 1], "tricks": [2, 0, 0, 0]},  # P0 made +1
        {"trump": "S", "bids": [1, 1, 1, 1], "tricks": [0, 1, 0, 0]},  # P1 made +0
        {"trump": "S", "bids": [1, 2, 1, 1], "tricks": [1, 0, 1, 0]},  # P0, P2 made
    ):
        hand_submit(table=table, record=record)
    rows = league.rows()
    assert rows["P0"]["bids_made_share"] == pytest.approx(2 / 3)
    assert rows["P0"]["average_overtricks"] == pytest.approx(0.5)
    assert rows["P1"]["bids_made_share"] == pytest.approx(1 / 3)
    assert rows["P3"]["bids_made_share"] == 0
    assert rows["P3"]["average_overtricks"] is None
    assert {r["hands"] for r in rows.values()} == {3}
    assert rows["P0"]["bucked_as_maker"] is None


def test_buck_euchre_counts_bucks_as_maker_and_player_and_drops() -> None:
    league = League_(Game.BUCK_EUCHRE)
    table = league.table(1)
    # P1 makes and takes 2 (bucked as maker); P3 drops; P2 takes none (bucked)
    hand_submit(
        table=table, record={"trump": "S", "maker": 1, "drops": [3], "tricks": [3, 2, 0, 0]}
    )
    # P0 takes all five and wins; P1, P2, P3 are bucked as players
    hand_submit(table=table, record={"trump": "H", "maker": 0, "tricks": [5, 0, 0, 0]})
    rows = league.rows()
    assert (rows["P1"]["bucked_as_maker"], rows["P1"]["bucked_as_player"]) == (1, 1)
    assert (rows["P2"]["bucked_as_maker"], rows["P2"]["bucked_as_player"]) == (0, 2)
    assert rows["P3"]["drops"] == 1
    assert rows["P0"]["wins"] == 1 and rows["P0"]["rank"] == 1
    assert rows["P0"]["bids_made_share"] is None


def test_the_tie_breaks_order_the_standings() -> None:
    league = League_(Game.BUCK_EUCHRE, players=6)
    # everyone one game; two winners; then average place, then average points (lower
    # is better in Buck Euchre), then games, then name
    hand_submit(table=league.table(1, [0, 1, 2, 3]), record=buck_takes_all(0))
    hand_submit(table=league.table(2, [4, 5, 2, 3]), record=buck_takes_all(1))
    ranked = [r["name"] for r in standings.standing_rows(league=league.league)]
    assert ranked[:2] == ["P0", "P5"]  # both won once, place 1: equal points, then the name
    assert set(ranked[2:]) == {"P1", "P2", "P3", "P4"}
    assert [r["rank"] for r in standings.standing_rows(league=league.league)] == list(range(1, 7))


def test_a_date_range_and_an_event_have_their_own_standings() -> None:
    league = League_(Game.BUCK_EUCHRE)
    early, late = league.table(1), league.table(20)
    hand_submit(table=early, record=buck_takes_all(0))
    hand_submit(table=late, record=buck_takes_all(3))
    assert league.rows()["P0"]["games"] == 2
    in_range = league.rows(date_after=datetime.date(2026, 10, 10))
    assert (in_range["P3"]["wins"], in_range["P0"]["wins"]) == (1, 0)
    standings_refresh(league=league.league)
    event_rows = Standing.objects.filter(event=late.round.event).order_by("rank")
    assert event_rows[0].player.name == "P3"
    client = APIClient()
    api = client.get(f"/api/leagues/{league.league.pk}/standings/", {"date_before": "2026-10-05"})
    assert api.json()["results"][0]["player_name"] == "P0"
    assert api.json()["results"][0]["games"] == 1
    event_api = client.get(f"/api/events/{late.round.event_id}/standings/").json()["results"]
    assert event_api[0]["player_name"] == "P3"
    stored = client.get(f"/api/leagues/{league.league.pk}/standings/").json()["results"]
    assert stored[0]["games"] == 2

    # a range's standings, computed now, come in pages and answer lookups as the stored do
    def players(answer: Any) -> list[tuple[int, int]]:
        return [(row["rank"], row["player"]) for row in answer.json()["results"]]

    whole = players(api)
    ranged = {"date_before": "2026-10-05"}
    assert len(whole) == 4  # the four of the one game before the date
    first = client.get(api.request["PATH_INFO"], {**ranged, "page_size": 2})
    assert players(first) == whole[:2] and first.json()["previous"] is None
    second = client.get(first.json()["next"])
    assert players(second) == whole[2:] and second.json()["next"] is None
    assert players(client.get(second.json()["previous"])) == whole[:2]
    wanted = [whole[3][1], whole[1][1]]
    found = client.get(api.request["PATH_INFO"], {**ranged, "player": wanted})
    assert players(found) == [whole[1], whole[3]]


def test_standings_do_not_depend_on_the_order_results_were_submitted() -> None:
    outcomes = list(zip(range(1, 9), [0, 1, 2, 3, 0, 0, 1, 3], strict=True))
    results = []
    for order in (outcomes, random.Random(7).sample(outcomes, len(outcomes))):
        league = League_(Game.BUCK_EUCHRE)
        tables = {day: league.table(day) for day, _ in outcomes}
        for day, seat in order:
            hand_submit(table=tables[day], record=buck_takes_all(seat))
        standings_refresh(league=league.league)
        results.append(
            [
                (s.player.name, s.rank, s.games, s.wins, s.total_points, s.average_place)
                for s in Standing.objects.filter(league=league.league, event=None).order_by("rank")
            ]
        )
    assert results[0] == results[1]
