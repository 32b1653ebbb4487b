"""Statements written by hand (league/statements.py) read what the ORM would:
the reads give the ORM's instances. The writes that use its helpers, a hand
appended in one statement, are held to the ORM's in
tests/league/test_results_sql.py."""

from __future__ import annotations

import doctest
from typing import Any

import pytest
from django.db import connection
from django.db.models import Model

from league import statements
from league.api.authentication import TOKEN_AND_USER
from league.models import AuditEntry, Membership, Table
from league.selectors.tables import SHEET_TABLE_AND_ROLE, sheet_table_and_role
from league.services import results
from league.services.accounts import api_token_create, token_digest
from league.statements import JoinedRead
from tests.support.factories import UserFactory
from tests.support.records import bluke_results
from tests.support.setups import ClubSetup, club_setup

pytestmark = pytest.mark.django_db

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
