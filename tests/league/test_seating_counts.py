"""A complete game's seatings carry the counts of their hand lines
(``Seating.hands`` and the rest), which the standings add up instead of
reading every hand line of a league: they are what the hand lines say, they
go when the game stops being complete, and the migration that added them
counts the games stored before it the same way. Also this stop's other data
migration: Bluke's ratings re-rated after its model's constants changed."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.db import connection

from league import rating_model, ratings
from league.models import (
    SEATING_COUNTS,
    Game,
    HandSeat,
    JobOwed,
    Rating,
    RatingScope,
    Seating,
    Table,
)
from league.services.results import game_submit, hand_delete_last
from tests.support.factories import make_table
from tests.support.records import bot_logs

pytestmark = pytest.mark.django_db

backfill = importlib.import_module("league.migrations.0009_seating_counts")


class Statements:
    """What the migration asks of its schema editor, to run its statements here
    inside the test's transaction (SQLite's own editor refuses to open in one)."""

    def execute(self, sql: str) -> None:
        with connection.cursor() as cursor:
            cursor.execute(sql)


def counted_by_hand(table: Table) -> dict[int, dict[str, int]]:
    """Each seat's counts, tallied here line by line from the stored hand lines."""
    counts = {seat: dict.fromkeys(SEATING_COUNTS, 0) for seat in range(table.players)}
    for line in HandSeat.objects.filter(hand__table=table).select_related("hand"):
        seat = counts[line.seat]
        seat["hands"] += 1
        if line.bid is not None and line.tricks >= line.bid:
            seat["bids_made"] += 1
            seat["overtricks"] += line.tricks - line.bid
        if table.game == Game.BUCK_EUCHRE and line.points > 0:
            maker = line.hand.maker == line.seat
            seat["bucked_as_maker" if maker else "bucked_as_player"] += 1
        seat["drops"] += line.dropped
    return counts


def stored_counts(table: Table) -> dict[int, dict[str, Any]]:
    return {
        seating.seat: {field: getattr(seating, field) for field in SEATING_COUNTS}
        for seating in Seating.objects.filter(table=table)
    }


def played(game: str, seed: int) -> Table:
    table = make_table(game=game)
    game_submit(table=table, record={"hands": bot_logs(game, first_dealer=0, seed=seed)})
    table.refresh_from_db()
    assert table.complete
    return table


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_the_places_statement_counts_each_seats_hand_lines_as_counted_one_by_one(
    game: str,
) -> None:
    """The places statement (``store_places``, league/services/results_sql.py) has
    no ORM twin in the service: its counts are held to the hand lines as the ORM
    reads them, counted here one by one (:func:`counted_by_hand`)."""
    table = played(game, seed=11)
    counts = stored_counts(table)
    assert counts == counted_by_hand(table)
    figures = {field: sum(seat[field] for seat in counts.values()) for field in SEATING_COUNTS}
    if game == Game.BLUKE:  # bids were made, some with tricks over; nothing bucked
        assert figures["bids_made"] > 0 and figures["overtricks"] > 0
        assert figures["bucked_as_maker"] == figures["bucked_as_player"] == 0
    else:  # the bot's Buck Euchre games see bucks and drops
        assert figures["bucked_as_maker"] + figures["bucked_as_player"] > 0
        assert figures["drops"] > 0 and figures["bids_made"] == 0


def test_the_counts_go_with_the_place_when_the_game_is_complete_no_more() -> None:
    table = played(Game.BLUKE, seed=12)
    hand_delete_last(table=table, number=table.hands_played - 1, version=table.version)
    assert set(Seating.objects.filter(table=table).values_list("place", *SEATING_COUNTS)) == {
        (None,) * (1 + len(SEATING_COUNTS))
    }


def test_the_migration_counts_the_games_stored_before_it() -> None:
    tables = [played(Game.BLUKE, seed=13), played(Game.BUCK_EUCHRE, seed=14)]
    counted = [stored_counts(table) for table in tables]
    Seating.objects.update(**dict.fromkeys(SEATING_COUNTS, 99))  # what it must overwrite
    unfinished = make_table(game=Game.BLUKE)  # no place: left uncounted
    backfill.count_hand_lines(django_apps, Statements())
    assert [stored_counts(table) for table in tables] == counted
    assert set(
        Seating.objects.filter(table=unfinished).values_list(*SEATING_COUNTS, flat=False)
    ) == {(None,) * len(SEATING_COUNTS)}


def test_the_model_change_rerates_every_bluke_scope_from_its_first_game() -> None:
    """Migration 0012 (Bluke's rating constants changed): every Bluke scope is
    marked for re-rating from before its first game, with its job owed; Buck
    Euchre's are left as they are."""
    rerate = importlib.import_module("league.migrations.0012_rerate_bluke")
    bluke, buck = played(Game.BLUKE, seed=15), played(Game.BUCK_EUCHRE, seed=16)
    for table in (bluke, buck):
        for scope in ratings.scopes_of(table.round.event.league):
            ratings.ratings_rebuild(scope=scope)  # up to date: nothing to re-rate
    JobOwed.objects.all().delete()
    rerate.rerate_bluke(django_apps, Statements())
    marked = dict(RatingScope.objects.values_list("game", "rerate_from").distinct())
    assert marked == {Game.BLUKE: ratings.EARLIEST, Game.BUCK_EUCHRE: None}
    owed = set(JobOwed.objects.values_list("kind", "target_id"))
    assert owed == {
        ("ratings", pk)
        for pk in RatingScope.objects.filter(game=Game.BLUKE).values_list("pk", flat=True)
    }


def test_the_board_change_rerates_every_scope_from_its_first_game() -> None:
    """Migration 0024 (issue 32: the board's figure and Bluke's constants changed):
    every scope of both games is marked for re-rating from before its first game, with
    its job owed, and the job then stores the new board's figure."""
    rerate = importlib.import_module("league.migrations.0024_rerate_for_the_board")
    tables = [played(Game.BLUKE, seed=17), played(Game.BUCK_EUCHRE, seed=18)]
    for table in tables:
        for scope in ratings.scopes_of(table.round.event.league):
            ratings.ratings_rebuild(scope=scope)
    Rating.objects.update(ordinal=-99.0)  # as a rating stored before the change might be
    JobOwed.objects.all().delete()
    rerate.rerate_every_scope(django_apps, Statements())
    assert set(RatingScope.objects.values_list("rerate_from", flat=True)) == {ratings.EARLIEST}
    owed = set(JobOwed.objects.values_list("kind", "target_id"))
    assert owed == {("ratings", pk) for pk in RatingScope.objects.values_list("pk", flat=True)}
    for scope in RatingScope.objects.all():
        ratings.ratings_refresh(scope_id=scope.pk)
    for rating in Rating.objects.select_related("scope"):
        skill = rating_model.Skill(rating.mu, rating.sigma)
        assert rating.ordinal == rating_model.model_for(rating.scope.game).board_value(skill)
