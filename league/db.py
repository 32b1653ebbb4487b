"""Bounded waits on the database, and what to do when one runs out.

**Limits.** On PostgreSQL every connection gets a ``statement_timeout`` and a
``lock_timeout`` (from ``settings.DATABASE_TIMEOUTS``, seconds; 0 for none) by
the kind of work that uses it:

- ``web``: a request. It gives up on a lock within 3 s and on any statement
  after 5 s, well inside gunicorn's 30 s, so a locked table or a stuck query
  is answered 503 (with ``Retry-After``) instead of holding a worker until
  gunicorn kills it.
- ``job``: a background job, and anything that is not a request (management
  commands, migrations, scripts). Jobs scan whole leagues, so they wait
  longer; a job that still times out is retried by Celery.

The lock limit is the most a statement waits for a lock. PostgreSQL's
``lock_timeout`` counts each wait apart, and a row's lock can be two waits:
the second in a row's queue first waits for its place, which the first
waiter holds until it gets the row or gives up, then for the row's holder.
So ``lock_timeout`` is set to half the limit (:data:`LOCK_WAITS`): with it
at the full limit, the second request queued on a row locked elsewhere waited
twice 3 s and met the 5 s statement timeout instead. (A row share-locked by
several transactions at once is a wait for each of them in turn: there the
statement timeout is the bound.)

A connection gets the limits of the work that opens it; a request switches
its thread's open connection to the web limits when it starts, a Celery task
(in a worker, or run eagerly after a request's transaction commits) to the
job limits while it runs. Switching costs one query, and only when the limits
differ: a web process's connection keeps the web limits from request to
request, at no cost.

**Prepared statements.** For web work a statement that has run five times
on a connection is prepared there (psycopg's ``prepare_threshold``; the settings
bind parameters on the server, so a statement's text does not change with
its values): PostgreSQL then parses and plans it once, not on every request.
Planning was most of the database's time in a hand submission (0.6 ms for
each read of the table, against 0.1 ms to run it). Jobs prepare nothing:
their statements scan whole leagues, a hundred games or a hundred thousand,
and a plan made once for all of them (PostgreSQL's generic plan, which it
may choose for a prepared statement) could suit one and not the other.
``DB_PREPARED_STATEMENTS=0`` turns preparing off.

**Failures.** :func:`failure_kind` tells the database errors that are worth
answering "try again" (:class:`Failure`) from real faults: a deadlock or
serialization failure (``conflict``: the transaction can simply be run again),
a lock or statement timeout (``busy``), and a lost or refused connection
(``unavailable``). The API answers each with a 503 problem and the pages with a
503 page, never a 500.

**Retries.** :func:`retry_on_conflict` runs a transaction again, a few times
with jitter, when the database chose it as a deadlock's victim or refused it
for a serialization failure; a timeout is never retried (the caller is
answered at once, within its limit).
"""

from __future__ import annotations

import functools
import logging
import random
import threading
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Final, ParamSpec, TypeVar

import psycopg
from celery import signals as celery_signals
from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import OperationalError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created

logger = logging.getLogger(__name__)


class Role(StrEnum):
    """The kind of work a connection serves, which decides its limits."""

    WEB = "web"
    JOB = "job"


class Failure(StrEnum):
    """A database error that says "try again", not "this is wrong"."""

    CONFLICT = "conflict"
    """A deadlock's victim or a serialization failure: nothing was stored, and
    running the transaction again may well succeed."""
    BUSY = "busy"
    """A lock or statement timeout: what the work needs is held or slow."""
    UNAVAILABLE = "unavailable"
    """No connection: the server is down, refusing, or shutting down."""


RETRY_AFTER: Final[dict[Failure, int]] = {
    Failure.CONFLICT: 1,
    Failure.BUSY: 2,
    Failure.UNAVAILABLE: 5,
}
"""Seconds a client is told to wait (``Retry-After``) before trying again."""

CONFLICT_ATTEMPTS: Final = 3
"""How many times :func:`retry_on_conflict` runs a transaction in all."""
CONFLICT_BACKOFF: Final = 0.05
"""Seconds; the n-th retry sleeps a random time up to ``CONFLICT_BACKOFF * 2**n``,
so that the transactions that deadlocked do not meet again in step."""

# SQLSTATEs (PostgreSQL's appendix A)
_CONFLICT_STATES: Final = frozenset({"40001", "40P01"})  # serialization_failure, deadlock
_BUSY_STATES: Final = frozenset({"55P03", "57014"})  # lock_not_available, query_canceled
_UNAVAILABLE_STATES: Final = frozenset(
    {"57P01", "57P02", "57P03", "53300"}  # shutdowns, cannot_connect_now, too_many_connections
)


def failure_kind(error: BaseException | None) -> Failure | None:
    """The :class:`Failure` a Django database error is, or ``None`` for any
    other error (a bug, a broken constraint: those stay what they are).

    >>> failure_kind(OperationalError("database is locked"))
    <Failure.BUSY: 'busy'>
    >>> failure_kind(OperationalError("no such table: league_club")) is None
    True
    >>> failure_kind(ValueError("database is locked")) is None
    True
    """
    if not isinstance(error, OperationalError):
        return None
    cause = error.__cause__
    state = getattr(cause, "sqlstate", None)
    if state:
        if state in _CONFLICT_STATES:
            return Failure.CONFLICT
        if state in _BUSY_STATES:
            return Failure.BUSY
        if state.startswith("08") or state in _UNAVAILABLE_STATES:
            return Failure.UNAVAILABLE
        return None
    if isinstance(cause, psycopg.OperationalError):
        return Failure.UNAVAILABLE  # psycopg's failures to connect carry no SQLSTATE
    # SQLite: a writer waited out its busy timeout for the database lock
    message = str(error)
    if message in ("database is locked", "database table is locked"):
        return Failure.BUSY
    return None


P = ParamSpec("P")
R = TypeVar("R")


def retry_on_conflict(func: Callable[P, R]) -> Callable[P, R]:
    """Run ``func`` again when the database refuses it as a :attr:`Failure.CONFLICT`,
    up to :data:`CONFLICT_ATTEMPTS` times in all, with jittered backoff.

    ``func`` must be a transaction of its own (decorate it with
    ``transaction.atomic`` beneath this decorator), so that a failed attempt
    leaves nothing behind: called outside a transaction, the attempt is rolled
    back whole; called inside one (an ``Idempotency-Key`` claim, say), it is
    rolled back to its savepoint and the outer transaction goes on. When the
    outer transaction cannot go on (it took no savepoint), or the attempts run
    out, the error is raised for the caller to answer (503).
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(1, CONFLICT_ATTEMPTS + 1):
            try:
                return func(*args, **kwargs)
            except OperationalError as error:
                if (
                    failure_kind(error) is not Failure.CONFLICT
                    or attempt == CONFLICT_ATTEMPTS
                    or any(conn.needs_rollback for conn in connections.all(initialized_only=True))
                ):
                    raise
                logger.warning(
                    "%s: %s; trying again (attempt %d of %d)",
                    func.__qualname__,
                    error.__cause__ or error,
                    attempt + 1,
                    CONFLICT_ATTEMPTS,
                )
            time.sleep(random.uniform(0, CONFLICT_BACKOFF * 2**attempt))
        raise AssertionError("unreachable: the last attempt returns or raises")

    return wrapper


# -- limits by role ------------------------------------------------------------------


class _Work(threading.local):
    """What this thread is doing: serving a request, and how many tasks deep."""

    in_request = False
    tasks = 0


_work = _Work()


def current_role() -> Role:
    """The role of the work this thread is doing now (see the module's docstring)."""
    if _work.tasks or not _work.in_request:
        return Role.JOB
    return Role.WEB


PREPARE_THRESHOLD: Final = 5
"""A web connection prepares a statement that has run this many times (psycopg's
default), for its next runs."""


def prepare_threshold_for(role: Role) -> int | None:
    """psycopg's ``prepare_threshold`` for ``role``'s work: ``None`` prepares nothing."""
    if role is Role.WEB and settings.DATABASE_PREPARED_STATEMENTS:
        return PREPARE_THRESHOLD
    return None


def limits_for(role: Role) -> tuple[int, int]:
    """``(statement, lock)`` limits in milliseconds for ``role``: the most a
    statement runs, and waits for a lock (see the module's docstring)."""
    found = settings.DATABASE_TIMEOUTS[role.value]
    return round(found["statement"] * 1000), round(found["lock"] * 1000)


LOCK_WAITS: Final = 2
"""The waits PostgreSQL may make for one row's lock, each up to its
``lock_timeout``: for the tuple lock that orders the row's waiters, then
for the transaction that holds the row."""


def postgresql_timeouts(role: Role) -> tuple[int, int]:
    """``(statement_timeout, lock_timeout)`` in milliseconds as PostgreSQL is
    given them for ``role``: the lock limit split between a row's
    :data:`LOCK_WAITS` waits, so that a lock is waited for within the limit
    (a request's 3 s: 1.5 s a wait)."""
    statement, lock = limits_for(role)
    return statement, -(-lock // LOCK_WAITS)  # rounded up: 0 (none) stays 0


def apply_limits(conn: BaseDatabaseWrapper, role: Role | None = None) -> None:
    """Set ``role``'s limits (the thread's current role by default) on an open
    PostgreSQL connection, unless it has them already, and whether it prepares
    statements. Other databases: nothing to do (SQLite waits for its lock up
    to its own busy ``timeout``, 5 s).

    Only between transactions: inside one, a setting would be undone if it
    rolled back. Requests and tasks start outside a transaction (a task is
    dispatched when the transaction that owed it commits); a request made
    inside one (a test's) keeps the connection's limits."""
    if conn.vendor != "postgresql" or conn.connection is None or conn.in_atomic_block:
        return
    role = role or current_role()
    conn.connection.prepare_threshold = prepare_threshold_for(role)
    wanted = postgresql_timeouts(role)
    if getattr(conn, "league_limits", None) == wanted:
        return
    with conn.cursor() as cursor:
        # set_config(..., false) lasts for the session; one round trip for both
        cursor.execute(
            "SELECT set_config('statement_timeout', %s, false), "
            "set_config('lock_timeout', %s, false)",
            [f"{wanted[0]}ms", f"{wanted[1]}ms"],
        )
    conn.league_limits = wanted  # type: ignore[attr-defined]


def _on_connection_created(
    sender: object, connection: BaseDatabaseWrapper, **kwargs: object
) -> None:
    connection.league_limits = None  # type: ignore[attr-defined]
    apply_limits(connection)


def _switch_open_connections() -> None:
    for conn in connections.all(initialized_only=True):
        apply_limits(conn)


def _on_request_started(**kwargs: object) -> None:
    _work.in_request = True
    _switch_open_connections()


def _on_request_finished(**kwargs: object) -> None:
    # The connection keeps the web limits until other work switches it: in a
    # web process the next request wants them again, at no cost.
    _work.in_request = False


def _on_task_prerun(**kwargs: object) -> None:
    _work.tasks += 1
    _switch_open_connections()


def _on_task_postrun(**kwargs: object) -> None:
    _work.tasks = max(0, _work.tasks - 1)
    if _work.in_request:  # a task run eagerly by a request: back to the web limits
        _switch_open_connections()


def connect_signals() -> None:
    """Connect the receivers that keep each connection's limits (from the app's ``ready``)."""
    connection_created.connect(_on_connection_created, dispatch_uid="league.db.limits")
    request_started.connect(_on_request_started, dispatch_uid="league.db.request_started")
    request_finished.connect(_on_request_finished, dispatch_uid="league.db.request_finished")
    celery_signals.task_prerun.connect(_on_task_prerun, dispatch_uid="league.db.task_prerun")
    celery_signals.task_postrun.connect(_on_task_postrun, dispatch_uid="league.db.task_postrun")
