"""A complete game's seatings carry the figures a player's page needs of every hand
(``Seating.made_trump`` and ``Seating.bids_made_hands``,
:data:`~league.models.SEATING_FIGURES`): they are what the hand lines say, they go
when the game stops being complete, only a placed seat has them, and migration 0025
counts the games stored before it the same way."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.db import IntegrityError, connection, transaction

from league.models import SEATING_FIGURES, Game, HandSeat, Seating, Table
from league.services.results import game_submit, hand_delete_last
from tests.support.factories import PlayerFactory, make_table
from tests.support.records import bot_logs

pytestmark = pytest.mark.django_db

backfill = importlib.import_module("league.migrations.0025_seating_figures")


class Statements:
    """What the migration asks of its schema editor, run here inside the test's
    transaction (SQLite's own editor refuses to open in one)."""

    def execute(self, sql: str) -> None:
        with connection.cursor() as cursor:
            cursor.execute(sql)


def counted_by_hand(table: Table) -> dict[int, dict[str, int]]:
    """Each seat's figures, worked out here line by line from the stored hand lines."""
    figures = {seat: dict.fromkeys(SEATING_FIGURES, 0) for seat in range(table.players)}
    for line in HandSeat.objects.filter(hand__table=table).select_related("hand"):
        seat = figures[line.seat]
        seat["made_trump"] += line.hand.maker == line.seat
        if line.bid is not None and line.tricks >= line.bid:
            seat["bids_made_hands"] |= 1 << line.hand.number
    return figures


def stored(table: Table) -> dict[int, dict[str, Any]]:
    return {
        seating.seat: {field: getattr(seating, field) for field in SEATING_FIGURES}
        for seating in Seating.objects.filter(table=table)
    }


def played(game: str, seed: int) -> Table:
    table = make_table(game=game)
    game_submit(table=table, record={"hands": bot_logs(game, first_dealer=0, seed=seed)})
    table.refresh_from_db()
    assert table.complete
    return table


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_the_places_statement_stores_each_seats_figures(game: str) -> None:
    table = played(game, seed=21)
    figures = stored(table)
    assert figures == counted_by_hand(table)
    if game == Game.BLUKE:  # 25 hands: bids made at some, never all, nobody makes trump
        assert all(0 < seat["bids_made_hands"] < 1 << 25 for seat in figures.values())
        assert all(seat["made_trump"] == 0 for seat in figures.values())
    else:
        assert sum(seat["made_trump"] for seat in figures.values()) > 0
        assert all(seat["bids_made_hands"] == 0 for seat in figures.values())


def test_the_figures_go_with_the_place_when_the_game_is_complete_no_more() -> None:
    table = played(Game.BLUKE, seed=22)
    hand_delete_last(table=table, number=table.hands_played - 1, version=table.version)
    assert set(Seating.objects.filter(table=table).values_list("place", *SEATING_FIGURES)) == {
        (None,) * (1 + len(SEATING_FIGURES))
    }


@pytest.mark.parametrize("field", SEATING_FIGURES)
def test_only_a_placed_seat_has_them(field: str) -> None:
    table = make_table(game=Game.BLUKE)
    player = PlayerFactory(club=table.round.event.league.club)
    row = {"table": table, "round": table.round, "seat": 9, "player": player, "total": 0}
    with pytest.raises(IntegrityError, match="seating_figures_with_place"), transaction.atomic():
        Seating.objects.create(**row, **{field: 0})


def test_the_migration_counts_the_games_stored_before_it() -> None:
    tables = [played(Game.BLUKE, seed=23), played(Game.BUCK_EUCHRE, seed=24)]
    counted = [stored(table) for table in tables]
    Seating.objects.filter(place__isnull=False).update(made_trump=99, bids_made_hands=99)
    unfinished = make_table(game=Game.BLUKE)  # no place: left without
    backfill.count_figures(django_apps, Statements())
    assert [stored(table) for table in tables] == counted
    assert set(Seating.objects.filter(table=unfinished).values_list(*SEATING_FIGURES)) == {
        (None,) * len(SEATING_FIGURES)
    }
