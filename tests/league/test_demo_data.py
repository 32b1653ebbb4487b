"""``manage.py demo_data``: legal, complete games that are the same for the same seed."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import ProtectedError

import games
from league import standings
from league.models import (
    Club,
    Event,
    Game,
    Hand,
    League,
    Membership,
    Player,
    Seating,
    Standing,
    Table,
)
from league.services.results import hand_submit
from tests.support.factories import ClubFactory, make_table
from tests.support.setups import run_demo_data
from tests.support.state import LEAGUE_MODELS

pytestmark = pytest.mark.django_db


def game_record(table: Table) -> dict[str, Any]:
    """The table's game as the engine reads it: its stored hands as submitted."""
    league = table.round.event.league
    return {
        "game": league.game,
        "players": table.players,
        "first_dealer": table.first_dealer,
        "options": league.options,
        "hands": [hand.record for hand in table.hands.order_by("number")],
    }


def all_records() -> list[tuple[Any, ...]]:
    """Every stored hand, in an order that does not depend on primary keys."""
    return list(
        Hand.objects.order_by(
            "table__round__event__league__name",
            "table__round__event__date",
            "table__round__number",
            "table__number",
            "number",
        ).values_list(
            "table__round__event__league__name",
            "table__round__event__date",
            "table__round__number",
            "table__number",
            "table__first_dealer",
            "number",
            "record",
        )
    )


def all_seatings() -> list[tuple[Any, ...]]:
    return list(
        Seating.objects.order_by(
            "table__round__event__league__name",
            "table__round__event__date",
            "table__round__number",
            "table__number",
            "seat",
        ).values_list("player__name", "total", "place")
    )


def delete_everything() -> None:
    # Tables first: deleting the clubs directly is refused while seatings
    # protect their players (see test_deleting_a_club_deletes_its_games).
    Table.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()
    for model in LEAGUE_MODELS:
        assert not model.objects.exists(), model


def test_demo_data_makes_a_club_with_players_leagues_and_complete_games(demo_data: str) -> None:
    assert "1 club, 12 players, 2 leagues" in demo_data
    assert Club.objects.count() == 1
    assert Player.objects.count() == 12
    assert sorted(League.objects.values_list("game", flat=True)) == [Game.BLUKE, Game.BUCK_EUCHRE]
    assert set(Membership.objects.values_list("user__username", "role")) == {
        ("organiser", "organiser"),
        ("scorekeeper", "scorekeeper"),
    }
    for league in League.objects.all():
        events = league.events.all()
        assert events.exists()
        for event in events:
            rounds = event.rounds.all()
            assert rounds.exists()
            assert list(rounds.values_list("number", flat=True)) == list(
                range(1, rounds.count() + 1)
            )
            for round_ in rounds:
                tables = round_.tables.all()
                assert tables.count() == 3
                seated = Seating.objects.filter(round=round_)
                assert seated.count() == 12
                assert seated.values("player").distinct().count() == 12
    assert Table.objects.count() > 0
    assert not Table.objects.filter(complete=False).exists()
    assert not Seating.objects.filter(place__isnull=True).exists()
    assert Hand.objects.count() == int(demo_data.split(" hands")[0].split()[-1])


def test_every_stored_game_checks_out_with_the_engine(demo_data: str) -> None:
    tables = Table.objects.select_related("round__event__league").prefetch_related("hands")
    assert tables.count() == 2 * 3 + 3 * 2 * 3  # Bluke 2 events x 3 tables; Buck 3 x 2 rounds
    for table in tables:
        answer = games.check_record(game_record(table))
        assert answer["ok"] is True, (table, answer)
        assert answer["complete"] is True, table
        seatings = list(table.seatings.order_by("seat"))
        assert answer["totals"] == [s.total for s in seatings], table
        assert answer["ranks"] == [s.place for s in seatings], table
        stored = [
            list(hand.seats.order_by("seat").values_list("points", flat=True))
            for hand in table.hands.order_by("number")
        ]
        assert stored == [hand["points"] for hand in answer["hands"]], table
        assert all(hand.is_move_log for hand in table.hands.all()), table


def test_demo_nights_are_checked_in_and_drawn_by_the_seating_generator(demo_data: str) -> None:
    for event in Event.objects.all():
        assert event.attendance.filter(until_round__isnull=True).count() == 12
        for round_ in event.rounds.all():
            assert round_.seating_method == "balanced"
            assert round_.seating_seed is not None
    # the Buck Euchre nights' second rounds avoid their first rounds' pairs
    # where they can: of 18 pairs per round, fewer than half meet again
    for event in Event.objects.filter(league__game=Game.BUCK_EUCHRE):
        first, second = (
            {frozenset(p) for t in Table.objects.filter(round=r) for p in pairs(t.seat_players)}
            for r in event.rounds.order_by("number")
        )
        assert len(first & second) < 9


def pairs(players: list[int]) -> list[tuple[int, int]]:
    return [(a, b) for n, a in enumerate(players) for b in players[n + 1 :]]


def test_the_same_seed_gives_the_same_games() -> None:
    run_demo_data("--seed", "7")
    first, first_seatings = all_records(), all_seatings()
    assert first
    delete_everything()

    run_demo_data("--seed", "7")
    assert all_records() == first
    assert all_seatings() == first_seatings
    delete_everything()

    run_demo_data("--seed", "8")
    assert all_records() != first


def test_deleting_a_club_deletes_its_games() -> None:
    """Resetting the demo data deletes its club: the cascade must not stop at the players."""
    table = make_table(game=Game.BUCK_EUCHRE)
    hand_submit(table=table, record={"trump": "S", "maker": 1, "tricks": [0, 5, 0, 0]})
    try:
        Club.objects.all().delete()
    except ProtectedError as error:
        pytest.fail(f"deleting the club was refused: {error.args[0]}")
    for model in (*LEAGUE_MODELS, Standing):
        assert not model.objects.exists(), model


def test_if_empty_does_nothing_when_a_club_exists() -> None:
    club = ClubFactory()
    output = run_demo_data("--if-empty")
    assert "nothing done" in output
    assert list(Club.objects.all()) == [club]
    for model in LEAGUE_MODELS[1:]:
        assert not model.objects.exists(), model
    assert not get_user_model().objects.exists()


def test_the_demo_cup_is_scored_by_points_for_places(demo_data: str) -> None:
    """Three nights of two rounds: every player has six games, two nights count."""
    cup = League.objects.get(game=Game.BUCK_EUCHRE)
    assert cup.season is not None and cup.season["best_nights"] == 2
    standings.standings_refresh(league=cup)
    rows = list(Standing.objects.filter(league=cup, event=None).order_by("rank"))
    assert len(rows) == 12
    assert all(row.qualified and row.nights_counted == 2 for row in rows)
    points = [row.season_points for row in rows]
    assert points == sorted(points, reverse=True) and points[0] > 0
