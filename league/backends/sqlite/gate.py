"""One writer at a time, in the order they came: the queue in front of a SQLite
file's write lock.

SQLite lets one connection write at a time. A writer that finds the lock
taken is made to wait by SQLite's busy handler, which sleeps and tries again
(1, 2, 5, 10, ... up to 100 ms between tries) until its timeout: whoever asks
just as the lock comes free gets it, however long the others have waited. With
eight tables entering hands at once that unfairness, not the work, was the
wait: write transactions held the lock 3 ms (p50) and 50 ms at most, and some
requests waited 1.6 s for it (``benchmarks/club_night.py``).

:class:`WriterGate` queues the writers before they ask SQLite: first come,
first served among the threads of a process (each waiter is woken by the one
before it, not by polling), then one process at a time by an exclusive
``flock`` on a file beside the database, which every process of the site
takes in turn. The process that holds the gate is the only one asking SQLite
for the write lock, so SQLite's busy handler is left with writers from
outside the site (a ``sqlite3`` shell, say).

Waits are bounded: :meth:`WriterGate.acquire` gives up after ``timeout``
seconds and says so, and the caller answers as it would for SQLite's own
"database is locked". No Django here, so that the queue can be tested alone.

>>> gate = WriterGate(None)       # no file: the threads of this process only
>>> gate.acquire(timeout=1)
True
>>> gate.release()
"""

from __future__ import annotations

import collections
import fcntl
import os
import threading
import time
from typing import Final

POLL_FIRST: Final = 0.0001
"""Seconds between two tries for another process's ``flock`` at first; doubled
after each try up to :data:`POLL_MOST` (``flock`` itself cannot time out)."""
POLL_MOST: Final = 0.002


class WriterGate:
    """First come, first served writers of one database file.

    ``lock_path`` names the file whose ``flock`` orders the processes (made if
    missing); ``None`` orders the threads of this process alone (an in-memory
    database, which no other process sees).

    A thread holds the gate from :meth:`acquire` to :meth:`release`; it is not
    re-entrant: a thread that holds it and asks again waits for itself until
    its timeout, so callers take it once per transaction."""

    def __init__(self, lock_path: str | None) -> None:
        self._lock_path = lock_path
        self._mutex = threading.Lock()
        self._held = False
        self._waiting: collections.deque[threading.Event] = collections.deque()
        self._fd: int | None = None
        self._fd_pid = 0

    def acquire(self, *, timeout: float) -> bool:
        """Wait for the gate, at most ``timeout`` seconds; whether it was taken."""
        deadline = time.monotonic() + timeout
        if not self._take_turn(deadline):
            return False
        if self._lock_path is None or self._lock_file(deadline):
            return True
        self._pass_turn()
        return False

    def release(self) -> None:
        """Let the next writer in: another process first (the file's lock),
        then the thread here that has waited longest."""
        if self._fd is not None and self._fd_pid == os.getpid():
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        self._pass_turn()

    # -- the threads of this process ----------------------------------------------

    def _take_turn(self, deadline: float) -> bool:
        with self._mutex:
            if not self._held and not self._waiting:
                self._held = True
                return True
            turn = threading.Event()
            self._waiting.append(turn)
        if turn.wait(max(0.0, deadline - time.monotonic())):
            return True  # handed over by the writer before: the gate is ours
        with self._mutex:
            if turn.is_set():  # handed over just as the wait ran out
                return True
            self._waiting.remove(turn)
            return False

    def _pass_turn(self) -> None:
        with self._mutex:
            if self._waiting:
                self._waiting.popleft().set()  # still held: it passes to that thread
            else:
                self._held = False

    # -- the processes of the site ------------------------------------------------

    def _lock_file(self, deadline: float) -> bool:
        fd = self._file()
        pause = POLL_FIRST
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                time.sleep(min(pause, left))
                pause = min(pause * 2, POLL_MOST)

    def _file(self) -> int:
        """This process's descriptor of the lock file: a forked child opens its
        own (a ``flock`` is shared by the descriptors of one open file)."""
        assert self._lock_path is not None
        if self._fd is None or self._fd_pid != os.getpid():
            self._fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            self._fd_pid = os.getpid()
        return self._fd
