"""Django's SQLite backend, with its writers queued in the order they came.

The settings (``config/settings/base.py``) run SQLite for several writers at
once: the WAL journal (readers never wait for the writer, nor it for them),
transactions that take the write lock when they begin (``BEGIN IMMEDIATE``:
a transaction that began as a reader and then writes fails at once if
another wrote meanwhile), and a busy timeout. This backend adds the queue:
every write transaction, and every write statement outside one, first takes
the :class:`~league.backends.sqlite.gate.WriterGate` of its database file,
and gives it back when it commits, rolls back or its connection closes.

How long a writer waits for the gate is the lock timeout of the work it does
(``settings.DATABASE_TIMEOUTS``: 3 s for a request, 120 s for a job); past it,
the writer is refused as SQLite refuses one, ``OperationalError("database is
locked")``, which :func:`league.db.failure_kind` calls busy (a 503 with
``Retry-After``). Reads take no gate.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Final

from django.db import OperationalError
from django.db.backends.sqlite3 import base

from league.backends.sqlite.gate import WriterGate

READS: Final = ("SELECT", "PRAGMA", "EXPLAIN", "WITH")
"""Statements that write nothing (Django writes no data-modifying ``WITH`` on SQLite)."""

_gates: dict[str, WriterGate] = {}
_gates_lock = threading.Lock()


def gate_for(name: str, *, in_memory: bool) -> WriterGate:
    """The one gate of database ``name`` in this process."""
    with _gates_lock:
        gate = _gates.get(name)
        if gate is None:
            gate = _gates[name] = WriterGate(None if in_memory else f"{name}-writer.lock")
        return gate


def gate_timeout() -> float:
    """Seconds a writer of the current work may wait for the gate: its lock timeout."""
    from league.db import current_role, limits_for  # league.db imports the database layer

    return limits_for(current_role())[1] / 1000 or 3600.0


class DatabaseWrapper(base.DatabaseWrapper):
    """SQLite, each write transaction waiting its turn at the file's gate."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._gate_held = False

    @property
    def gate(self) -> WriterGate:
        return gate_for(str(self.settings_dict["NAME"]), in_memory=self.is_in_memory_db())

    def take_gate(self) -> None:
        """Wait for this database's gate (see :func:`gate_timeout`), unless held."""
        if self._gate_held:
            return
        if not self.gate.acquire(timeout=gate_timeout()):
            raise OperationalError("database is locked")
        self._gate_held = True

    def give_gate(self) -> None:
        if self._gate_held:
            self._gate_held = False
            self.gate.release()

    def _start_transaction_under_autocommit(self) -> None:
        self.take_gate()
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self.give_gate()
            raise

    def _commit(self) -> Any:
        done = super()._commit()  # type: ignore[misc]
        self.give_gate()  # only once committed: a failed commit is rolled back next
        return done

    def _rollback(self) -> Any:
        try:
            return super()._rollback()  # type: ignore[misc]
        finally:
            self.give_gate()

    def _close(self) -> Any:
        try:
            return super()._close()  # type: ignore[misc]
        finally:
            self.give_gate()

    def create_cursor(self, name: Any = None) -> Any:
        cursor = self.connection.cursor(factory=GatedCursor)
        cursor.wrapper = self
        return cursor

    def gated_statement(self) -> bool:
        """Take the gate for one write statement outside a transaction;
        whether it was taken here (and is to be given back after it)."""
        if self._gate_held:
            return False
        self.take_gate()
        return True


class GatedCursor(base.SQLiteCursorWrapper):
    """A cursor whose write statements outside a transaction (SQLite runs each
    as a transaction of its own) take the gate for as long as they run."""

    wrapper: DatabaseWrapper

    def execute(self, query: str, params: Any = None) -> Any:
        if self.connection.in_transaction or query.lstrip()[:7].upper().startswith(READS):
            return super().execute(query, params)
        return self._gated(super().execute, query, params)

    def executemany(self, query: str, param_list: Any) -> Any:
        if self.connection.in_transaction:
            return super().executemany(query, param_list)
        return self._gated(super().executemany, query, param_list)

    def _gated(self, run: Callable[..., Any], *args: Any) -> Any:
        taken = self.wrapper.gated_statement()
        try:
            return run(*args)
        finally:
            if taken:
                self.wrapper.give_gate()
