"""Bounded waits: the connection settings, the database errors that say "try
again", the retry of a deadlock's victim, and the 503 answers (problem+json
on the API, a page elsewhere) that replace a 500.

The failures here are made by hand (an ``OperationalError`` caused by the
psycopg error PostgreSQL raises), so these tests run on either database;
``tests/faults/test_locks.py`` makes real ones on PostgreSQL.
"""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import psycopg
import psycopg.errors
import pytest
from django.conf import settings
from django.db import IntegrityError, OperationalError, ProgrammingError, connection
from django.test import Client, override_settings

from league import db, health
from league.models import Hand, Standing
from league.services import results, results_sql
from tests.support.api import assert_problem, client_for
from tests.support.records import bluke_results
from tests.support.setups import club_setup

GUNICORN_CONF = Path(__file__).resolve().parents[2] / "config" / "gunicorn.conf.py"


def database_error(cause: Exception) -> OperationalError:
    """The ``OperationalError`` Django raises for ``cause``, as its wrapper does."""
    error = OperationalError(*cause.args)
    error.__cause__ = cause
    return error


def failing(monkeypatch: pytest.MonkeyPatch, cause: type[Exception], times: int) -> list[int]:
    """Make the results service's replay step fail ``times`` times with
    ``cause``, then work; the list counts the calls."""
    calls: list[int] = []
    original = results.replay_results

    def replay(**kwargs: Any) -> results.Replay:
        calls.append(1)
        if len(calls) <= times:
            raise database_error(cause("made to fail by the test"))
        return original(**kwargs)

    monkeypatch.setattr(results, "replay_results", replay)
    return calls


def post_hand(client: Any, table_id: int, **extra: Any) -> Any:
    body = {"number": 0, "record": bluke_results(13)}
    return client.post(f"/api/tables/{table_id}/hands/", body, **extra)


# -- settings ------------------------------------------------------------------------------


def test_connections_are_kept_briefly_checked_and_bounded() -> None:
    database = settings.DATABASES["default"]
    # sync workers hold one connection each; kept a minute, checked before reuse
    assert 0 < database["CONN_MAX_AGE"] <= 300
    assert database["CONN_HEALTH_CHECKS"] is True
    if connection.vendor == "postgresql":
        assert 0 < database["OPTIONS"]["connect_timeout"] <= health.PROBE_TIMEOUT + 1


def test_the_waits_of_a_request_end_before_gunicorn_gives_up_on_it() -> None:
    gunicorn = runpy.run_path(str(GUNICORN_CONF))
    web, job = settings.DATABASE_TIMEOUTS["web"], settings.DATABASE_TIMEOUTS["job"]
    assert 0 < web["lock"] < web["statement"] < gunicorn["timeout"]
    assert job["lock"] >= web["lock"] and job["statement"] >= web["statement"]
    assert gunicorn["worker_class"] == "sync"  # one request, one connection: see the config
    assert not gunicorn["bind"][0].startswith("0.0.0.0")  # behind the proxy only
    assert health.PROBE_TIMEOUT < 3


def test_limits_for_a_role_are_in_milliseconds() -> None:
    web = settings.DATABASE_TIMEOUTS["web"]
    assert db.limits_for(db.Role.WEB) == (web["statement"] * 1000, web["lock"] * 1000)


def test_postgresql_waits_for_a_lock_a_share_of_the_limit_each_time() -> None:
    """PostgreSQL's ``lock_timeout`` counts each wait for a lock apart, and a
    row's lock can be two waits in a row (tests/faults/test_locks.py): half
    the limit each keeps the whole within it."""
    assert db.LOCK_WAITS == 2
    limits = {"web": {"statement": 5, "lock": 3}, "job": {"statement": 600, "lock": 0}}
    with override_settings(DATABASE_TIMEOUTS=limits):
        assert db.postgresql_timeouts(db.Role.WEB) == (5000, 1500)
        assert db.postgresql_timeouts(db.Role.JOB) == (600_000, 0)  # none stays none


# -- what a database error means ---------------------------------------------------------


@pytest.mark.parametrize(
    ("cause", "kind"),
    [
        (psycopg.errors.DeadlockDetected("deadlock detected"), db.Failure.CONFLICT),
        (psycopg.errors.SerializationFailure("could not serialize"), db.Failure.CONFLICT),
        (psycopg.errors.LockNotAvailable("lock timeout"), db.Failure.BUSY),
        (psycopg.errors.QueryCanceled("statement timeout"), db.Failure.BUSY),
        (psycopg.errors.AdminShutdown("terminating connection"), db.Failure.UNAVAILABLE),
        (psycopg.errors.TooManyConnections("too many clients"), db.Failure.UNAVAILABLE),
        (psycopg.OperationalError("connection refused"), db.Failure.UNAVAILABLE),
        (psycopg.errors.DiskFull("could not extend file"), None),
    ],
)
def test_the_database_errors_that_say_try_again(cause: Exception, kind: db.Failure | None) -> None:
    assert db.failure_kind(database_error(cause)) is kind


def test_a_broken_rule_or_a_bug_is_not_a_failure_to_retry() -> None:
    integrity = IntegrityError("duplicate key")
    integrity.__cause__ = psycopg.errors.UniqueViolation("duplicate key")
    programming = ProgrammingError("relation does not exist")
    programming.__cause__ = psycopg.errors.UndefinedTable("relation does not exist")
    assert db.failure_kind(integrity) is None
    assert db.failure_kind(programming) is None
    assert db.failure_kind(None) is None


# -- a deadlock's victim is retried ----------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("key", [None, "retry-key"], ids=["plain", "idempotency-key"])
def test_a_submission_chosen_as_a_deadlock_victim_is_run_again(
    monkeypatch: pytest.MonkeyPatch, key: str | None
) -> None:
    """With an ``Idempotency-Key`` the service runs inside the key's
    transaction, and its attempts are rolled back to a savepoint."""
    setup = club_setup()
    calls = failing(monkeypatch, psycopg.errors.DeadlockDetected, times=db.CONFLICT_ATTEMPTS - 1)
    extra = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}

    response = post_hand(client_for(setup.scorekeeper), setup.table.pk, **extra)

    assert response.status_code == 201, response.content
    assert len(calls) == db.CONFLICT_ATTEMPTS
    assert Hand.objects.filter(table=setup.table).count() == 1
    setup.table.refresh_from_db()
    assert setup.table.version == 1  # the failed attempts left nothing behind


@pytest.mark.django_db
def test_a_deadlock_that_persists_is_a_503_with_retry_after_and_stores_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On PostgreSQL the hand is first tried as read, in one statement; a
    conflict there sends it the locked way, which tries it as often as any
    change (``retry_on_conflict``) before answering 503."""
    setup = club_setup()
    as_read = 1 if results_sql.appends_in_one_statement() else 0
    attempts = as_read + db.CONFLICT_ATTEMPTS
    calls = failing(monkeypatch, psycopg.errors.DeadlockDetected, times=attempts)

    response = post_hand(client_for(setup.scorekeeper), setup.table.pk)

    body = assert_problem(response, 503)
    assert body["type"] == "/api/problems/database-conflict"
    assert response["Retry-After"] == str(db.RETRY_AFTER[db.Failure.CONFLICT])
    assert body["retry_after"] == db.RETRY_AFTER[db.Failure.CONFLICT]
    assert len(calls) == attempts
    assert not Hand.objects.filter(table=setup.table).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("cause", "kind"),
    [
        (psycopg.errors.LockNotAvailable, "database-busy"),
        (psycopg.errors.QueryCanceled, "database-busy"),
        (psycopg.errors.AdminShutdown, "database-unavailable"),
    ],
)
def test_a_timeout_is_answered_at_once_not_retried(
    monkeypatch: pytest.MonkeyPatch, cause: type[Exception], kind: str
) -> None:
    setup = club_setup()
    calls = failing(monkeypatch, cause, times=1)

    response = post_hand(client_for(setup.scorekeeper), setup.table.pk)

    body = assert_problem(response, 503)
    assert body["type"] == f"/api/problems/{kind}"
    assert int(response["Retry-After"]) >= 1
    assert len(calls) == 1
    assert not Hand.objects.filter(table=setup.table).exists()


@pytest.mark.django_db
def test_any_other_database_error_is_not_turned_into_a_503(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    setup = club_setup()
    failing(monkeypatch, psycopg.errors.DiskFull, times=1)

    response = post_hand(client_for(setup.scorekeeper, crash_as_500=True), setup.table.pk)

    assert response.status_code == 500


# -- pages ------------------------------------------------------------------------------------


def busy(*args: Any, **kwargs: Any) -> Any:
    raise database_error(psycopg.errors.LockNotAvailable("canceling statement: lock timeout"))


def unreachable(*args: Any, **kwargs: Any) -> Any:
    raise database_error(psycopg.OperationalError("connection refused"))


@pytest.mark.django_db
def test_a_page_that_times_out_is_a_503_page_that_says_to_try_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("league.selectors.clubs.clubs_with_leagues", busy)

    response = Client(raise_request_exception=False).get("/")

    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert response["Retry-After"] == str(db.RETRY_AFTER[db.Failure.BUSY])
    page = response.content.decode()
    assert "<h1>Busy for a moment</h1>" in page
    assert "busy" in page and "sending it again is safe" in page


@pytest.mark.django_db
def test_a_page_without_its_database_is_a_503_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("league.selectors.clubs.clubs_with_leagues", unreachable)

    response = Client(raise_request_exception=False).get("/")

    assert response.status_code == 503
    assert response["Retry-After"] == str(db.RETRY_AFTER[db.Failure.UNAVAILABLE])
    page = response.content.decode()
    assert "<h1>Unavailable for a moment</h1>" in page and "cannot be reached" in page


# -- which limits a connection has (PostgreSQL) ---------------------------------------------


def shown_limits() -> tuple[str, str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('statement_timeout'), current_setting('lock_timeout')"
        )
        statement, lock = cursor.fetchone()
    return statement, lock


def as_shown(milliseconds: int) -> str:
    """PostgreSQL's way of showing a duration: in whole minutes, seconds or
    milliseconds."""
    if milliseconds % 60_000 == 0:
        return f"{milliseconds // 60_000}min"
    if milliseconds % 1000 == 0:
        return f"{milliseconds // 1000}s"
    return f"{milliseconds}ms"


def limits_shown(role: db.Role) -> tuple[str, str]:
    """The limits a connection doing ``role``'s work shows: the lock limit
    split between a row's waits (``db.postgresql_timeouts``)."""
    statement, lock = db.postgresql_timeouts(role)
    return as_shown(statement), as_shown(lock)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the limits are PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_a_request_has_the_web_limits_and_a_job_it_runs_has_the_job_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The standings job runs eagerly in the request that completes a game
    (there is no broker in the tests) and has the job limits while it runs."""
    connection.close()
    assert shown_limits() == limits_shown(db.Role.JOB)  # no request

    seen: dict[str, tuple[str, str]] = {}
    check = results.check_results_change

    def checked_in_the_request(**kwargs: Any) -> int:
        seen["request"] = shown_limits()
        return check(**kwargs)

    def standings_job(**kwargs: Any) -> int:
        seen["job"] = shown_limits()
        return 0

    monkeypatch.setattr(results, "check_results_change", checked_in_the_request)
    monkeypatch.setattr("league.standings.standings_catch_up", standings_job)
    setup = club_setup(options={"max_cards": 1})  # one hand completes the game

    response = client_for(setup.scorekeeper).post(
        f"/api/tables/{setup.table.pk}/hands/", {"number": 0, "record": bluke_results(1)}
    )

    assert response.status_code == 201, response.content
    assert response.json()["table"]["status"] == "complete"
    assert seen["request"] == limits_shown(db.Role.WEB)
    assert seen["job"] == limits_shown(db.Role.JOB)
    assert not Standing.objects.exists()  # the job was the test's stand-in


def prepared_statements() -> list[str]:
    """The statements prepared on this test's connection, as PostgreSQL lists them."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [statement for (statement,) in cursor.fetchall()]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared on PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_a_request_prepares_what_it_runs_again_and_a_job_prepares_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A request's statement that has run five times on a connection is
    prepared (parsed and planned once) for its next runs; the job a request
    runs prepares nothing, and nothing is prepared when the setting turns it
    off."""
    setup = club_setup(options={"max_cards": 1})
    connection.close()
    client = client_for(setup.scorekeeper)
    url = f"/api/tables/{setup.table.pk}/sheet/"
    jobs_connection: list[object] = []

    def standings_job(**kwargs: Any) -> int:
        jobs_connection.append(connection.connection.prepare_threshold)
        return 0

    monkeypatch.setattr("league.standings.standings_catch_up", standings_job)
    for _ in range(db.PREPARE_THRESHOLD):
        assert client.get(url).status_code == 200
    assert prepared_statements() == []
    assert client.get(url).status_code == 200
    prepared = prepared_statements()
    assert any('FROM "league_table"' in statement for statement in prepared), prepared
    assert all("$1" in s or "WHERE" not in s for s in prepared)  # values bound, not quoted in
    assert connection.connection.prepare_threshold == db.PREPARE_THRESHOLD

    response = client.post(
        f"/api/tables/{setup.table.pk}/hands/", {"number": 0, "record": bluke_results(1)}
    )
    assert response.status_code == 201, response.content
    assert jobs_connection == [None]  # the job ran (eagerly) preparing nothing

    monkeypatch.setattr(settings, "DATABASE_PREPARED_STATEMENTS", False)
    connection.close()
    for _ in range(db.PREPARE_THRESHOLD + 1):
        assert client.get(url).status_code == 200
    assert prepared_statements() == []
