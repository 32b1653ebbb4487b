"""Statements written by hand (league/statements.py) read and write what the
ORM would: the reads give the ORM's instances, and a hand appended in one
statement (PostgreSQL) stores the rows the ORM's statements store."""

from __future__ import annotations

import doctest
from typing import Any

import pytest
from django.db import connection
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from league import statements
from league.api.authentication import TOKEN_AND_USER
from league.models import AuditEntry, Game, Hand, HandSeat, Membership, Seating, Table
from league.selectors.tables import SHEET_TABLE_AND_ROLE, sheet_table_and_role
from league.services import results
from league.services.accounts import api_token_create, token_digest
from league.statements import JoinedRead
from tests.support.factories import UserFactory
from tests.support.records import bluke_results, bot_logs
from tests.support.setups import ClubSetup, club_setup

pytestmark = pytest.mark.django_db

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="one statement of data-modifying CTEs"
)

SHEET_PATHS = ("round__event__league__club",)


def values(instance: Model, *, without: tuple[str, ...] = ()) -> dict[str, Any]:
    """An instance's stored values, by attribute name."""
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in without
    }


def test_the_modules_examples() -> None:
    failed, tried = doctest.testmod(statements, raise_on_error=False)
    assert tried and not failed


# -- reads -----------------------------------------------------------------------------------


def test_a_joined_read_gives_the_orms_instances_with_their_related_ones(
    django_assert_num_queries: Any,
) -> None:
    setup = club_setup()
    results.hand_submit(table=setup.table, record=bluke_results(13))  # totals, version: not 0
    orm = Table.objects.select_related(*SHEET_PATHS).get(pk=setup.table.pk)

    with django_assert_num_queries(1):
        read = SHEET_TABLE_AND_ROLE.get(setup.organiser.pk, setup.table.pk)
        assert read is not None
        chain = [read, read.round, read.round.event, read.round.event.league]
        chain.append(read.round.event.league.club)  # all read with it: no query

    expected = [orm, orm.round, orm.round.event, orm.round.event.league]
    expected.append(orm.round.event.league.club)
    for got, want in zip(chain, expected, strict=True):
        assert type(got) is type(want)
        assert values(got) == values(want)
        assert not got._state.adding and got._state.db == "default"
    assert read.totals == orm.totals and isinstance(read.totals, list)  # JSON, decoded
    assert read.round.event.league.options == orm.round.event.league.options


def test_the_table_and_role_read_says_each_users_role_and_none_for_others() -> None:
    setup = club_setup()
    outsider = UserFactory()
    for user, role in (
        (setup.organiser, Membership.Role.ORGANISER),
        (setup.scorekeeper, Membership.Role.SCOREKEEPER),
        (outsider, None),
    ):
        table, found = sheet_table_and_role(setup.table.pk, user)
        assert table.pk == setup.table.pk
        assert found == role
    with pytest.raises(Table.DoesNotExist):
        sheet_table_and_role(setup.table.pk + 1000, setup.organiser)
    assert SHEET_TABLE_AND_ROLE.get(setup.organiser.pk, setup.table.pk + 1000) is None
    assert SHEET_TABLE_AND_ROLE.get(setup.organiser.pk, 10**30) is None  # beyond any column


def test_a_token_is_read_with_its_user() -> None:
    user = UserFactory()
    made = api_token_create(user=user, name="laptop")
    token, key = made.token, made.key

    read = TOKEN_AND_USER.get(token_digest(key))
    assert read is not None
    assert values(read) == values(token)
    assert values(read.user) == values(user)
    assert TOKEN_AND_USER.get(token_digest(key + "x")) is None


def test_a_nullable_foreign_key_is_an_outer_join_and_none_when_null(setup: ClubSetup) -> None:
    results.hand_submit(table=setup.table, record=bluke_results(13))  # by a command: no actor
    entry = AuditEntry.objects.get(table_id=setup.table.pk, action=AuditEntry.Action.HAND_SUBMITTED)
    read = JoinedRead(model=AuditEntry, related=("actor",), where="base.id = %s").get(entry.pk)
    assert read is not None
    assert read.actor is None
    assert values(read) == values(entry)


def test_a_locking_read_locks_its_own_row_alone() -> None:
    sql, _, _ = results.LOCKED_TABLE._plan
    if connection.features.has_select_for_update:
        assert sql.endswith("FOR UPDATE OF base")  # not the round, event or league
    else:
        assert "FOR UPDATE" not in sql  # SQLite locks the whole database to write


@pytest.fixture
def setup() -> ClubSetup:
    return club_setup()


# -- the append in one statement ----------------------------------------------------------------


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
def test_a_game_appended_in_one_statement_is_stored_as_the_orm_stores_it(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, orm = club_setup(game=game), club_setup(game=game)
    assert one.table.first_dealer == orm.table.first_dealer
    logs = bot_logs(game, first_dealer=one.table.first_dealer, seed=7)

    changes = submit_game(one.table, logs)
    with monkeypatch.context() as patched:
        patched.setattr(results, "appends_in_one_statement", lambda: False)
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
def test_a_whole_game_in_one_statement_is_stored_as_the_orm_stores_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    one, orm = club_setup(game=Game.BUCK_EUCHRE), club_setup(game=Game.BUCK_EUCHRE)
    logs = bot_logs(Game.BUCK_EUCHRE, first_dealer=one.table.first_dealer, seed=3)

    results.game_submit(table=one.table, record={"hands": logs})
    with monkeypatch.context() as patched:
        patched.setattr(results, "appends_in_one_statement", lambda: False)
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
