"""SQLite's writers queued in the order they came (league/backends/sqlite).

The gate alone (no Django): first come, first served among threads, one
process at a time through its lock file, and bounded waits. Then the backend on
a SQLite file of its own: a write transaction holds the gate from BEGIN to
COMMIT or ROLLBACK, a write statement outside a transaction for as long as it
runs, and a writer that waits past its lock timeout is refused as SQLite
refuses one, which the API answers 503. The whole of a club night through a
real server is tests/benchmarks/test_club_night.py.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError
from django.db.utils import ConnectionHandler

from league.backends.sqlite.base import DatabaseWrapper
from league.backends.sqlite.gate import WriterGate
from league.db import Failure, failure_kind

# -- the gate ------------------------------------------------------------------------


def test_waiting_threads_get_the_gate_in_the_order_they_came() -> None:
    gate = WriterGate(None)
    assert gate.acquire(timeout=1)
    order: list[int] = []
    threads = []
    for number in range(5):
        thread = threading.Thread(
            target=lambda n=number: (gate.acquire(timeout=10), order.append(n), gate.release())
        )
        thread.start()
        threads.append(thread)
        _until(lambda n=number: len(gate._waiting) == n + 1)  # queued in this order
    gate.release()
    for thread in threads:
        thread.join()
    assert order == [0, 1, 2, 3, 4]


def test_a_wait_past_its_timeout_is_refused_and_leaves_the_queue() -> None:
    gate = WriterGate(None)
    assert gate.acquire(timeout=1)
    began = time.monotonic()
    refused = _in_thread(lambda: gate.acquire(timeout=0.2))
    assert refused is False
    assert 0.2 <= time.monotonic() - began < 5
    assert not gate._waiting
    gate.release()
    assert _in_thread(lambda: gate.acquire(timeout=0.1)) is True  # free again


def test_the_gate_orders_processes_through_its_file(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3-writer.lock")
    gate = WriterGate(path)
    assert gate.acquire(timeout=1)
    context = multiprocessing.get_context("fork")
    answer = context.Queue()
    child = context.Process(target=_child_acquires, args=(path, 0.3, answer))
    child.start()
    assert answer.get(timeout=10) is False  # held here: the other process waited it out
    child.join()
    gate.release()
    child = context.Process(target=_child_acquires, args=(path, 5, answer))
    child.start()
    assert answer.get(timeout=10) is True
    child.join()


def test_a_forked_child_takes_the_file_lock_on_its_own_descriptor(tmp_path: Path) -> None:
    """A flock belongs to the open file: a child that used its parent's
    descriptor would share the parent's lock instead of waiting for it."""
    gate = WriterGate(str(tmp_path / "lock"))
    assert gate.acquire(timeout=1)  # opens the descriptor in this process
    gate.release()
    assert gate.acquire(timeout=1)
    context = multiprocessing.get_context("fork")
    answer = context.Queue()
    child = context.Process(target=_inherited_acquires, args=(gate, answer))
    child.start()
    assert answer.get(timeout=10) is False
    child.join()
    gate.release()


def _child_acquires(path: str, timeout: float, answer: Any) -> None:
    gate = WriterGate(path)
    taken = gate.acquire(timeout=timeout)
    answer.put(taken)
    if taken:
        gate.release()


def _inherited_acquires(gate: WriterGate, answer: Any) -> None:
    gate._held = False  # the parent's thread holds it there, not here
    answer.put(gate.acquire(timeout=0.3))


# -- the backend on a file -------------------------------------------------------------


@pytest.fixture
def sqlite_file(tmp_path: Path, django_db_blocker: Any) -> Iterator[ConnectionHandler]:
    """Connections to a SQLite file of the test's own, configured as the settings
    configure the default database (WAL, immediate transactions, the gate); not
    the test database, so pytest-django's guard is lifted for them."""
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "league.backends.sqlite",
                "NAME": str(tmp_path / "db.sqlite3"),
                "OPTIONS": {
                    "transaction_mode": "IMMEDIATE",
                    "timeout": 5,
                    "init_command": "PRAGMA journal_mode=WAL",
                },
                "TIME_ZONE": None,
                "CONN_MAX_AGE": 0,
                "CONN_HEALTH_CHECKS": False,
                "AUTOCOMMIT": True,
                "ATOMIC_REQUESTS": False,
                "TEST": {},
                "USER": "",
                "PASSWORD": "",
                "HOST": "",
                "PORT": "",
            }
        }
    )
    with django_db_blocker.unblock():
        first = handler["default"]
        with first.cursor() as cursor:
            cursor.execute("CREATE TABLE counter (n integer)")
            cursor.execute("INSERT INTO counter VALUES (0)")
        first.close()
        yield handler


def _connect(handler: ConnectionHandler) -> DatabaseWrapper:
    """A connection of its own (connections are a thread's; these are shared on purpose)."""
    wrapper = handler.create_connection("default")
    assert isinstance(wrapper, DatabaseWrapper)
    wrapper.inc_thread_sharing()
    return wrapper


def test_the_settings_run_sqlite_with_the_gate_wal_and_immediate_transactions(
    sqlite_file: ConnectionHandler,
) -> None:
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"] != "league.backends.sqlite":
        pytest.skip("the suite runs on another database")
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in options["init_command"]
    conn = _connect(sqlite_file)
    with conn.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
    conn.close()


def test_a_write_transaction_holds_the_gate_from_begin_to_commit(
    sqlite_file: ConnectionHandler,
) -> None:
    first, second = _connect(sqlite_file), _connect(sqlite_file)
    first.set_autocommit(True)
    first.ensure_connection()
    first._start_transaction_under_autocommit()
    assert first._gate_held
    waited: list[float] = []

    def write() -> None:
        began = time.monotonic()
        second.ensure_connection()
        second._start_transaction_under_autocommit()
        waited.append(time.monotonic() - began)
        with second.cursor() as cursor:
            cursor.execute("UPDATE counter SET n = n + 1")
        second._commit()

    writer = threading.Thread(target=write)
    writer.start()
    time.sleep(0.3)
    assert not waited  # queued at the gate, not polling SQLite's lock
    with first.cursor() as cursor:
        cursor.execute("UPDATE counter SET n = n + 10")
    first._commit()
    writer.join(timeout=10)
    assert waited and waited[0] >= 0.25
    with first.cursor() as cursor:
        cursor.execute("SELECT n FROM counter")
        assert cursor.fetchone()[0] == 11
    assert not first._gate_held and not second._gate_held
    first.close()
    second.close()


def test_a_rollback_and_a_closed_connection_give_the_gate_back(
    sqlite_file: ConnectionHandler,
) -> None:
    conn = _connect(sqlite_file)
    conn.ensure_connection()
    conn._start_transaction_under_autocommit()
    conn._rollback()
    assert not conn._gate_held
    conn._start_transaction_under_autocommit()
    conn.close()
    assert not conn._gate_held
    assert conn.gate.acquire(timeout=0.1)
    conn.gate.release()


def test_a_writer_that_waits_past_its_lock_timeout_is_refused_as_busy(
    sqlite_file: ConnectionHandler, settings: Any
) -> None:
    settings.DATABASE_TIMEOUTS = {
        "web": {"statement": 5, "lock": 0.2},
        "job": {"statement": 5, "lock": 0.2},
    }
    holder, waiter = _connect(sqlite_file), _connect(sqlite_file)
    holder.ensure_connection()
    holder._start_transaction_under_autocommit()
    waiter.ensure_connection()
    with pytest.raises(OperationalError) as refused:
        waiter._start_transaction_under_autocommit()
    assert failure_kind(refused.value) is Failure.BUSY
    assert not waiter._gate_held
    # a write outside a transaction waits at the gate too
    with pytest.raises(OperationalError), waiter.cursor() as cursor:
        cursor.execute("UPDATE counter SET n = 5")
    with waiter.cursor() as cursor:  # a read takes no gate
        cursor.execute("SELECT n FROM counter")
        assert cursor.fetchone()[0] == 0
    holder._rollback()
    with waiter.cursor() as cursor:
        cursor.execute("UPDATE counter SET n = 5")
    assert not waiter._gate_held
    holder.close()
    waiter.close()


def test_a_reader_does_not_wait_for_the_writer(sqlite_file: ConnectionHandler) -> None:
    """WAL: a read goes on while another connection holds the write lock."""
    writer = _connect(sqlite_file)
    writer.ensure_connection()
    writer._start_transaction_under_autocommit()
    with writer.cursor() as cursor:
        cursor.execute("UPDATE counter SET n = 7")
    plain = sqlite3.connect(sqlite_file["default"].settings_dict["NAME"], timeout=0)
    assert plain.execute("SELECT n FROM counter").fetchone()[0] == 0  # the committed value
    plain.close()
    writer._commit()
    writer.close()


# -- helpers ---------------------------------------------------------------------------


def _until(condition: Any, timeout: float = 5) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def _in_thread(work: Any) -> Any:
    found: list[Any] = []
    thread = threading.Thread(target=lambda: found.append(work()))
    thread.start()
    thread.join(timeout=10)
    return found[0]
