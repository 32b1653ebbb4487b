"""The statements of a change of results written by hand
(league/services/results_sql.py) store what the ORM code they mirror stores.

Hands appended in one statement (PostgreSQL) against the ORM way of
``store_results``: the same games stored both ways, every row compared; and the
statement's version check, which sends a hand checked against a table changed
since the locked way. The places statement (``store_places``) is held by
tests/league/test_seating_counts.py, which counts each seat's hand lines one by
one, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from league.models import AuditEntry, Game, Hand, HandSeat, Seating, Table
from league.services import results, results_sql
from tests.support.records import bluke_results, bot_logs
from tests.support.setups import ClubSetup, club_setup

pytestmark = pytest.mark.django_db

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="one statement of data-modifying CTEs"
)


def values(instance: Model, *, without: tuple[str, ...] = ()) -> dict[str, Any]:
    """An instance's stored values, by attribute name."""
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in without
    }


@pytest.fixture
def setup() -> ClubSetup:
    return club_setup()


def stored(table: Table) -> dict[str, Any]:
    """What a table's results are, as stored: its hands and lines (the seat, not
    the player, as the two tables compared seat different players), its own
    counters, its seatings' places and counts and its audit trail of results;
    no ids."""
    table.refresh_from_db()
    hands = Hand.objects.filter(table=table).order_by("number")
    lines = HandSeat.objects.filter(hand__table=table).order_by("hand__number", "seat")
    seatings = Seating.objects.filter(table=table).order_by("seat")
    entries = AuditEntry.objects.filter(table_id=table.pk).order_by("id")
    entries = entries.exclude(action=AuditEntry.Action.TABLE_CREATED)  # names the players
    return {
        "table": values(table, without=("id", "round_id", "seat_players")),
        "hands": [values(hand, without=("id", "table_id", "submitted_at")) for hand in hands],
        "lines": [values(line, without=("id", "hand_id", "player_id")) for line in lines],
        "seatings": [
            values(seating, without=("id", "table_id", "round_id", "player_id"))
            for seating in seatings
        ],
        "audit": [
            values(entry, without=("id", "club_id", "event_id", "round_id", "table_id", "at"))
            for entry in entries
        ],
    }


def submit_game(table: Table, logs: list[dict[str, Any]]) -> list[results.ResultsChange]:
    """Every hand of a game, each submitted with the table as read just before
    (as the API reads it), the last one ending the game."""
    changes = []
    for record in logs:
        fresh = Table.objects.select_related("round__event__league").get(pk=table.pk)
        changes.append(results.hand_submit(table=fresh, record=record))
    return changes


@postgresql_only
@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_each_hand_appended_in_one_statement_is_stored_as_store_results_orm_way_stores_it(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """:func:`~league.services.results_sql.store_appended` (one statement a hand
    submitted, the last hand by the locked way) against the ORM way of
    :func:`~league.services.results.store_results` (``bulk_create`` of the hands
    and lines, ``table.save(update_fields=TABLE_RESULTS)``, ``entry.save()``)."""
    one, orm = club_setup(game=game), club_setup(game=game)
    assert one.table.first_dealer == orm.table.first_dealer
    logs = bot_logs(game, first_dealer=one.table.first_dealer, seed=7)

    changes = submit_game(one.table, logs)
    with monkeypatch.context() as patched:
        patched.setattr(results_sql, "appends_in_one_statement", lambda: False)
        submit_game(orm.table, logs)

    assert stored(one.table) == stored(orm.table)
    assert stored(one.table)["table"]["complete"]
    for change in changes:  # the objects answered have their ids, as the ORM's would
        [hand], [lines] = change.hands, change.lines
        assert Hand.objects.get(pk=hand.pk).number == hand.number
        assert [line.hand_id for line in lines] == [hand.pk] * len(lines)
        assert [values(line) for line in lines] == [
            values(line) for line in HandSeat.objects.filter(hand=hand).order_by("seat")
        ]


@postgresql_only
def test_a_whole_game_in_one_statement_is_stored_as_store_results_orm_way_stores_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """:func:`~league.services.results_sql.store_appended` with every hand of a game
    (``game_submit``) against the ORM way of
    :func:`~league.services.results.store_results`, as above."""
    one, orm = club_setup(game=Game.BUCK_EUCHRE), club_setup(game=Game.BUCK_EUCHRE)
    logs = bot_logs(Game.BUCK_EUCHRE, first_dealer=one.table.first_dealer, seed=3)

    results.game_submit(table=one.table, record={"hands": logs})
    with monkeypatch.context() as patched:
        patched.setattr(results_sql, "appends_in_one_statement", lambda: False)
        results.game_submit(table=orm.table, record={"hands": logs})

    assert stored(one.table) == stored(orm.table)
    assert stored(one.table)["table"]["hands_played"] == len(logs) > 1


@postgresql_only
def test_a_hand_checked_against_a_table_changed_since_is_checked_again_under_the_lock(
    setup: ClubSetup,
) -> None:
    """The statement stores nothing when the version is not the one read; the
    locked way then decides, with the table as it is."""
    stale = Table.objects.select_related("round__event__league").get(pk=setup.table.pk)
    results.hand_submit(table=setup.table, record=bluke_results(13))

    with pytest.raises(results.Conflict):  # hand 0 was stored meanwhile
        results.hand_submit(table=stale, record=bluke_results(13), number=0)
    change = results.hand_submit(table=stale, record=bluke_results(12, winner=1))

    assert change.hands[0].number == 1
    assert stored(setup.table)["table"]["hands_played"] == 2
    assert [hand.number for hand in Hand.objects.filter(table=setup.table)] == [0, 1]
    fresh = Table.objects.select_related("round__event__league").get(pk=setup.table.pk)
    with CaptureQueriesContext(connection) as done:  # as read: one statement, no lock
        results.hand_submit(table=fresh, record=bluke_results(11, winner=2))
    statements = [query["sql"].split()[0] for query in done.captured_queries]
    # the test's transaction makes the service take a savepoint, as an Idempotency-Key's does
    assert [word for word in statements if word not in ("SAVEPOINT", "RELEASE")] == ["WITH"]
    assert stale.hands_played == 0 and stale.version == 0  # the caller's table, untouched


def test_a_hand_for_a_table_gone_since_it_was_read_is_not_found(setup: ClubSetup) -> None:
    """A round drawn again between the access check and the submission: the
    table is no more, which is a 404, not a crash, on either way."""
    read = Table.objects.select_related("round__event__league").get(pk=setup.table.pk)
    Table.objects.filter(pk=setup.table.pk).delete()
    with pytest.raises(results.NotFound):
        results.hand_submit(table=read, record=bluke_results(13))
    assert not Hand.objects.exists()
