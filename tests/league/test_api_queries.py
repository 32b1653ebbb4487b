"""The results endpoints use a constant number of queries, whatever the
number of hands a table has."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import games
from league.models import Table
from league.services.results import hand_submit
from tests.support.api import client_for, etag
from tests.support.factories import make_table
from tests.support.records import bluke_results
from tests.support.setups import club_setup

pytestmark = pytest.mark.django_db

BOUND = 40  # a sanity bound for the first measurement; the point is the equality
SCHEDULE = (*range(13, 0, -1), *range(2, 14))  # a four-seat Bluke game: 25 hands


def tables_with(short: int, long: int) -> tuple[Any, Table, Table]:
    """A scorekeeper and two tables of a Bluke league, with ``short`` and
    ``long`` hands stored."""
    setup = club_setup()
    tables = (setup.table, make_table(round=setup.round, players=setup.players[4:8], number=2))
    for table, count in zip(tables, (short, long), strict=True):
        for record in hands(count):
            hand_submit(table=table, record=record)
    return setup.scorekeeper, *tables


def hands(count: int) -> list[dict[str, Any]]:
    return [bluke_results(SCHEDULE[n], winner=n % 4) for n in range(count)]


def test_submitting_a_hand_takes_as_many_queries_after_20_hands_as_after_1(
    django_assert_max_num_queries: Any, django_assert_num_queries: Any
) -> None:
    user, short, long = tables_with(1, 20)
    client = client_for(user)

    def submit(table: Table, number: int) -> Any:
        return client.post(
            f"/api/tables/{table.pk}/hands/",
            {"number": number, "record": bluke_results(SCHEDULE[number])},
        )

    with django_assert_max_num_queries(BOUND) as first:
        assert submit(short, 1).status_code == 201
    with django_assert_num_queries(len(first.captured_queries)):
        response = submit(long, 20)
    assert response.status_code == 201
    assert response.json()["hand"]["number"] == 20


def test_reading_the_score_sheet_takes_as_many_queries_for_20_hands_as_for_1(
    django_assert_max_num_queries: Any, django_assert_num_queries: Any
) -> None:
    _, short, long = tables_with(1, 20)
    client = client_for()

    with django_assert_max_num_queries(BOUND) as first:
        assert len(client.get(f"/api/tables/{short.pk}/sheet/").json()["hands"]) == 1
    with django_assert_num_queries(len(first.captured_queries)):
        assert len(client.get(f"/api/tables/{long.pk}/sheet/").json()["hands"]) == 20


def test_correcting_the_first_hand_takes_as_many_queries_with_20_hands_as_with_1(
    django_assert_max_num_queries: Any, django_assert_num_queries: Any
) -> None:
    user, short, long = tables_with(1, 20)
    client = client_for(user)
    correction = bluke_results(13, winner=3)
    short_tag, long_tag = etag(short), etag(long)

    def correct(table: Table, tag: str) -> Any:
        return client.put(
            f"/api/tables/{table.pk}/hands/0/", {"record": correction}, HTTP_IF_MATCH=tag
        )

    with django_assert_max_num_queries(BOUND) as first:
        assert correct(short, short_tag).status_code == 200
    with django_assert_num_queries(len(first.captured_queries)):
        response = correct(long, long_tag)

    assert response.status_code == 200
    body = response.json()
    assert len(body["hands"]) == 20
    expected = games.check_record(
        {"game": "bluke", "players": 4, "first_dealer": 0, "hands": [correction, *hands(20)[1:]]}
    )
    assert [s["total"] for s in body["hands"][19]["seats"]] == expected["totals"]
    assert [s["total"] for s in body["table"]["seatings"]] == expected["totals"]


WRITE = re.compile(r"(INSERT) INTO (\w+)|(?<!FOR )(UPDATE) (\w+)")


def writes_of(sql: str) -> list[tuple[str, str]]:
    """Each table a statement writes and how (``INSERT`` or ``UPDATE``), those of
    its CTEs included: ``[("INSERT", "league_hand"), ...]``."""
    return [
        (insert or update, into or updated)
        for insert, into, update, updated in WRITE.findall(sql.replace('"', ""))
    ]


def test_a_hand_submission_costs_one_statement_a_step() -> None:
    """The request's round trips, each named (issue 17), so that none is added
    unnoticed: the table read with the caller's role in its club (the access
    check), then on PostgreSQL one statement, with no transaction around it,
    for the hand, its lines, the table's new totals and the audit entry (if
    the table's version is still the one read); on SQLite, which cannot write
    from a CTE, in one transaction the table locked and a statement each.
    (The client is signed in already: a token adds one query to find it. The
    transaction's own statements are left out: the test's transaction makes
    the service take savepoints, as an Idempotency-Key's does.)"""
    user, table, _ = tables_with(1, 0)
    client = client_for(user)
    one_statement = connection.vendor == "postgresql"
    with CaptureQueriesContext(connection) as done:
        response = client.post(
            f"/api/tables/{table.pk}/hands/", {"number": 1, "record": bluke_results(SCHEDULE[1])}
        )
    assert response.status_code == 201
    steps = []
    for query in done.captured_queries:
        sql = query["sql"].replace('"', "")
        words = sql.split()
        if words[0] in ("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"):  # the transaction's own
            continue
        # SELECT ... FROM table ..., INSERT INTO table ..., UPDATE table ..., and
        # WITH ... (INSERT INTO table ..., UPDATE table ...) SELECT ...
        writes = writes_of(sql)
        read = re.findall(r"FROM (\w+)", sql)[-1:]  # the row's: a subquery's is among its columns
        target = " ".join(table for _, table in writes) if writes else " ".join(read)
        steps.append((words[0], target, "FOR UPDATE" in sql))
    if one_statement:
        written = "league_table league_hand league_handseat league_auditentry"
        assert steps == [("SELECT", "league_table", False), ("WITH", written, False)]
    else:
        assert steps == [
            ("SELECT", "league_table", False),
            ("SELECT", "league_table", False),  # SQLite locks the whole database
            ("INSERT", "league_hand", False),
            ("INSERT", "league_handseat", False),
            ("UPDATE", "league_table", False),
            ("INSERT", "league_auditentry", False),
        ]


def test_the_hand_that_completes_a_game_costs_a_few_statements_more(
    django_assert_max_num_queries: Any,
) -> None:
    """The last hand (here the first game of the league: its rating scopes
    are made too) also stores the seatings' totals, places and hand counts
    (one statement), marks the rating scopes, owes the standings lines and the
    jobs, and looks for the club's webhooks; the jobs themselves run after
    the response."""
    setup = club_setup(options={"max_cards": 1})  # a game of one hand
    client = client_for(setup.scorekeeper)
    with django_assert_max_num_queries(BOUND) as done:
        response = client.post(
            f"/api/tables/{setup.table.pk}/hands/", {"number": 0, "record": bluke_results(1)}
        )
    assert response.status_code == 201
    assert response.json()["table"]["status"] == "complete"
    writes = [write for query in done.captured_queries for write in writes_of(query["sql"])]
    seatings = [write for write in writes if write == ("UPDATE", "league_seating")]
    assert len(seatings) == 1  # totals, places and counts of every seat at once
    assert {table for verb, table in writes if verb == "INSERT"} >= {
        "league_standingsowed",
        "league_jobowed",
        "league_auditentry",
    }
