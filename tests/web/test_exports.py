"""Downloads: standings, ratings and every game as CSV, and the games as JSON Lines
that the engine's own checker accepts as they are."""

from __future__ import annotations

import csv
import datetime
import doctest
import io
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.cli import answers_for_text
from league import exports
from league.exports import safe_cell
from league.models import Game, HandSeat, Player, Standing
from league.rating_model import Skill, model_for
from league.services.fixtures import event_create, league_create, table_create
from league.services.results import game_submit, hand_submit
from tests.support.factories import ClubFactory, PlayerFactory
from tests.support.records import bluke_results, bot_logs

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def jobs_run(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


def body(response: Any) -> str:
    assert response.status_code == 200
    assert response.streaming  # never built whole in memory
    return b"".join(response.streaming_content).decode()


def rows(response: Any) -> list[dict[str, str]]:
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    text = body(response)
    assert text.startswith("\ufeff")  # the byte order mark, for Excel
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


def bluke_league(jobs_run: Any, *, nights: int = 2) -> Any:
    """A Bluke league of short games (max_cards 2: hands of 2, 1, 2 cards): per
    night of two rounds, a game of move logs played by the bot in round 1 and one
    of results in round 2, with a
    player whose name would start a spreadsheet formula."""
    club = ClubFactory()
    names = ["=HYPERLINK(1)", "Bob", "Cy", "Dee", "Eve"]
    players = [PlayerFactory(club=club, name=name) for name in names]
    league = league_create(club=club, name="Cup", game=Game.BLUKE, options={"max_cards": 2})
    for night in range(nights):
        event = event_create(
            league=league,
            name=f"Night {night + 1}",
            date=datetime.date(2026, 10, 1 + 7 * night),
            rounds=2,
        )
        first, second = event.rounds.order_by("number")
        logs = table_create(round=first, number=1, players=players[:4])
        with jobs_run(execute=True):
            game_submit(
                table=logs,
                record={
                    "hands": bot_logs("bluke", first_dealer=0, seed=night, options=league.options)
                },
            )
        results = table_create(round=second, number=1, players=players[1:5][::-1])
        for cards in (2, 1, 2):
            with jobs_run(execute=True):
                hand_submit(table=results, record=bluke_results(cards, winner=cards % 4))
    return league


def test_every_game_as_csv_one_row_per_hand_and_seat(client: Client, jobs_run: Any) -> None:
    league = bluke_league(jobs_run)
    found = rows(client.get(reverse("league-games-csv", args=[league.pk])))
    assert list(found[0]) == [
        "event", "date", "round", "table", "hand", "dealer", "cards", "trump", "maker",
        "seat_number", "player", "bid", "dropped", "tricks", "points", "total",
    ]  # fmt: skip
    assert len(found) == HandSeat.objects.filter(hand__table__round__event__league=league).count()
    assert len(found) == 2 * 2 * 3 * 4  # nights x tables x hands x seats
    first = found[0]
    assert (first["event"], first["date"], first["round"], first["table"], first["hand"]) == (
        "Night 1", "2026-10-01", "1", "1", "1",
    )  # fmt: skip
    assert first["player"] == "'=HYPERLINK(1)"  # not a formula in a spreadsheet
    assert [r["seat_number"] for r in found[:4]] == ["1", "2", "3", "4"]  # as the sheet counts
    assert [r["dealer"] for r in found[:4]] == ["1"] * 4  # seat 0 deals the first hand
    stored = HandSeat.objects.select_related("hand", "player").get(
        hand__table__round__event__name="Night 2",
        hand__table__round__number=2,
        hand__number=2,
        seat=1,
    )
    row = next(
        r for r in found
        if (r["event"], r["round"], r["hand"], r["seat_number"]) == ("Night 2", "2", "3", "2")
    )  # fmt: skip
    assert row["player"] == stored.player.name and int(row["points"]) == stored.points
    assert int(row["total"]) == stored.total and int(row["bid"]) == stored.bid
    assert row["trump"] == stored.hand.trump and int(row["cards"]) == stored.hand.cards
    assert row["maker"] == "" and row["dropped"] == ""  # Buck Euchre's columns


def test_games_as_json_lines_pass_the_engines_check_as_they_are(
    client: Client, jobs_run: Any
) -> None:
    league = bluke_league(jobs_run)
    response = client.get(reverse("league-games-jsonl", args=[league.pk]))
    assert response["Content-Type"] == "application/jsonl; charset=utf-8"
    text = body(response)
    records = [json.loads(line) for line in text.splitlines()]
    assert len(records) == 4
    assert all(r["options"] == {"max_cards": 2} and len(r["hands"]) == 3 for r in records)
    assert "deal" in records[0]["hands"][0]  # the bot's game: move logs, card by card
    answers = answers_for_text(text)
    assert [a["ok"] for a in answers] == [True] * 4
    assert all(a["complete"] for a in answers)
    event = league.events.get(name="Night 2")
    one_night = body(client.get(reverse("event-games-jsonl", args=[event.pk])))
    assert one_night.splitlines() == text.splitlines()[2:]


def test_buck_euchre_games_leave_out_bids_and_options(client: Client, jobs_run: Any) -> None:
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(4)]
    league = league_create(club=club, name="Buck", game=Game.BUCK_EUCHRE)
    event = event_create(league=league, name="N", date=datetime.date(2026, 10, 1))
    table = table_create(round=event.rounds.get(), number=1, players=players)
    with jobs_run(execute=True):
        hand_submit(table=table, record={"trump": "S", "maker": 1, "tricks": [1, 2, 1, 1]})
    found = rows(client.get(reverse("event-games-csv", args=[event.pk])))
    assert [r["bid"] for r in found] == ["", "", "", ""]
    assert [r["tricks"] for r in found] == ["1", "2", "1", "1"]
    assert [r["maker"] for r in found] == ["2"] * 4  # seat 1 made it: the second seat
    assert [r["dropped"] for r in found] == ["0"] * 4
    text = body(client.get(reverse("league-games-jsonl", args=[league.pk])))
    (record,) = [json.loads(line) for line in text.splitlines()]
    assert "options" not in record and record["players"] == 4
    (answer,) = answers_for_text(text)
    assert answer["ok"] and not answer["complete"]  # a game in progress is a record too


def test_standings_and_ratings_as_csv_match_the_pages(client: Client, jobs_run: Any) -> None:
    league = bluke_league(jobs_run)
    standings = rows(client.get(reverse("league-standings-csv", args=[league.pk])))
    stored = list(Standing.objects.filter(league=league, event=None).order_by("rank"))
    assert [int(r["rank"]) for r in standings] == [s.rank for s in stored]
    assert [r["player"] for r in standings] == [safe_cell(s.player.name) for s in stored]
    assert [int(r["total_points"]) for r in standings] == [s.total_points for s in stored]
    event = league.events.get(name="Night 1")
    night = rows(client.get(reverse("event-standings-csv", args=[event.pk])))
    assert {int(r["games"]) for r in night} == {1, 2}  # players 1-3 played both tables

    board = rows(client.get(reverse("league-ratings-csv", args=[league.pk])))
    assert [r["rank"] for r in board] == ["1", "2", "3", "4", "5"]
    ratings = [float(r["rating"]) for r in board]
    assert ratings == sorted(ratings, reverse=True)
    model = model_for(league.game)
    for r in board:
        # the board's figure: mu less 3 x the part of sigma above the provisional
        # threshold (mu - 3 sigma before issue 32)
        mu, sigma = float(r["mu"]), float(r["sigma"])
        assert float(r["rating"]) == pytest.approx(model.board_value(Skill(mu, sigma)), abs=1e-3)
        assert r["provisional"] == str(sigma > model.provisional_sigma)


def test_downloads_cost_a_fixed_number_of_queries_whatever_the_league_size(
    client: Client, jobs_run: Any, django_assert_max_num_queries: Any
) -> None:
    small, large = bluke_league(jobs_run, nights=1), bluke_league(jobs_run, nights=4)
    for name in ("league-games-csv", "league-games-jsonl", "league-standings-csv"):
        for league in (small, large):
            with django_assert_max_num_queries(3):
                body(client.get(reverse(name, args=[league.pk])))


def test_missing_leagues_and_events_are_404_and_writes_405(client: Client) -> None:
    for name in (
        "league-games-csv",
        "league-games-jsonl",
        "league-standings-csv",
        "league-ratings-csv",
    ):
        assert client.get(reverse(name, args=[999_999])).status_code == 404
    for name in ("event-games-csv", "event-games-jsonl", "event-standings-csv"):
        assert client.get(reverse(name, args=[999_999])).status_code == 404
    club = ClubFactory()
    league = league_create(club=club, name="Empty", game=Game.BLUKE)
    assert client.post(reverse("league-games-csv", args=[league.pk])).status_code == 405
    assert rows(client.get(reverse("league-games-csv", args=[league.pk]))) == []
    assert body(client.get(reverse("league-games-jsonl", args=[league.pk]))) == ""
    assert rows(client.get(reverse("league-ratings-csv", args=[league.pk]))) == []


def test_the_league_and_event_pages_link_their_downloads_and_calendar(
    client: Client, jobs_run: Any
) -> None:
    league = bluke_league(jobs_run, nights=1)
    html = client.get(reverse("league", args=[league.pk])).content.decode()
    for name in (
        "league-standings-csv",
        "league-ratings-csv",
        "league-games-csv",
        "league-games-jsonl",
        "league-calendar",
    ):
        assert reverse(name, args=[league.pk]) in html
    event = league.events.get()
    html = client.get(reverse("event", args=[event.pk])).content.decode()
    for name in ("event-standings-csv", "event-games-csv", "event-games-jsonl"):
        assert reverse(name, args=[event.pk]) in html


SEPARATORS = (",", ";", "\t", "|")
"""What a spreadsheet may split a CSV file on: a comma, or, where the comma is the
decimal mark (much of Europe), a semicolon; tabs and bars in some."""


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_no_cell_starts_a_formula_whatever_the_spreadsheet_splits_on(
    client: Client, jobs_run: Any
) -> None:
    club = ClubFactory()
    names = ["Ann;=1+1", "Bob\t@SUM(A1)", "Cy|+1", "Dee,-1"]
    # a tab is refused in a new name now, but a name stored before may hold one
    players = [
        Player.objects.create(club=club, name=name)
        if "\t" in name
        else PlayerFactory(club=club, name=name)
        for name in names
    ]
    league = league_create(
        club=club, name="Cup;=1+1 season", game=Game.BLUKE, options={"max_cards": 2}
    )
    event = event_create(league=league, name="Ann;=1+1 night", date=datetime.date(2026, 10, 1))
    table = table_create(round=event.rounds.get(), number=1, players=players)
    for cards in (2, 1, 2):  # the whole game: standings and ratings too
        with jobs_run(execute=True):
            hand_submit(table=table, record=bluke_results(cards, winner=cards % 4))
    for name, args in (
        ("league-games-csv", [league.pk]),
        ("event-games-csv", [event.pk]),
        ("league-standings-csv", [league.pk]),
        ("event-standings-csv", [event.pk]),
        ("league-ratings-csv", [league.pk]),
    ):
        response = client.get(reverse(name, args=args))
        text = body(response)
        assert len(list(csv.reader(io.StringIO(text)))) > 1, name  # a row besides the header
        for separator in SEPARATORS:
            for row in csv.reader(io.StringIO(text), delimiter=separator):
                for cell in row:
                    assert _is_number(cell) or not cell.startswith(("=", "+", "-", "@")), (
                        name,
                        separator,
                        cell,
                    )
        # read as the download means it, each name is there, guarded (the import
        # takes the guard off)
        found = list(csv.DictReader(io.StringIO(text)))
        assert {row["player"] for row in found} == {safe_cell(n) for n in names}, name


def test_every_text_cell_is_quoted_and_numbers_are_not(client: Client, jobs_run: Any) -> None:
    league = bluke_league(jobs_run, nights=1)
    text = body(client.get(reverse("league-games-csv", args=[league.pk])))
    header, first, *_ = text.split("\r\n")
    assert header.startswith('\ufeff"event","date","round","table","hand",')
    assert first.startswith('"Night 1","2026-10-01",1,1,1,')
    assert '"\'=HYPERLINK(1)"' in first  # the guard, inside the quotes


def test_the_exports_examples_hold() -> None:
    """league/exports.py's doctests: the byte order mark before the header, the
    spreadsheet guard of each cell."""
    failed, tried = doctest.testmod(exports, raise_on_error=False)
    assert tried >= 2 and failed == 0
