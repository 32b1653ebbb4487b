"""Background jobs without a broker: a thread of the web process runs them.

Without ``CELERY_BROKER_URL`` (``make run``, a small club's single server)
there is no worker to send a job to. Running it in the request that owed it
would make that request wait for it (the last hand of a game would answer only
once the league's standings and ratings were recomputed), so
:func:`league.outbox.send` hands it to this module's :class:`JobThread`
instead, when the settings' ``JOBS_WITHOUT_BROKER`` is ``"thread"`` (the
default), which starts it once the request's response has been sent (so that
it does not compete with the response for the interpreter either).
``"inline"`` runs each job where it was owed, after the commit (the tests,
which read the standings a submission owed right after it).

Durability is the outbox's: the work owed is a :class:`~league.models.JobOwed`
row committed with the change, and the thread only takes it off once done. A
process that stops with jobs still queued leaves their rows; the thread of any
process of the site sweeps (:func:`league.outbox.sweep`) every
:data:`league.outbox.SWEEP_EVERY` seconds, so they are done then. A job that
raises is logged and its row kept, with the failure counted, for that sweep.

One thread per process, started by the first job it is given (so after a
pre-forking server such as gunicorn has forked its workers); the process
waits for its queued jobs when it exits (:meth:`JobThread.drain`). A job queued
while the same job waits to run is queued once. The thread closes its
database connection whenever it has nothing left to do, so an idle process
holds no connection for it.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Callable
from functools import partial

from django.db import connection

logger = logging.getLogger(__name__)

Job = tuple[str, int]
"""A job: its kind and target, as a :class:`~league.models.JobOwed` row names it."""


class JobThread:
    """A daemon thread that runs the jobs :meth:`submit` gives it, one at a
    time, in order, and sweeps the work owed whenever it has been idle for
    ``sweep_every`` seconds.

    ``run`` runs one job (the outbox's sending, which runs the task here and
    counts its failure on its row); ``sweep`` sends (here: runs) the work owed
    and due."""

    def __init__(
        self,
        *,
        run: Callable[[str, int], None],
        sweep: Callable[[], object],
        sweep_every: float,
    ) -> None:
        self._run = run
        self._sweep = sweep
        self._sweep_every = sweep_every
        self._queue: queue.Queue[Job] = queue.Queue()
        self._waiting: set[Job] = set()
        self._lock = threading.Lock()
        self._held = threading.local()  # .jobs: this thread's request's, or None
        self._thread: threading.Thread | None = None
        self._pid = 0
        self.idle = threading.Event()
        """Set while nothing is queued or running (for tests and shutdown)."""
        self.idle.set()

    def hold(self) -> None:
        """From now on, hold the jobs this (calling) thread gives
        :meth:`submit_after_response` until :meth:`release`: a request has
        begun, whose response they must not hold up (connected to Django's
        ``request_started`` by :mod:`league.outbox`)."""
        self._held.jobs = []

    def release(self) -> None:
        """Submit the jobs held for the calling thread, and hold no more (its
        response has been sent: Django's ``request_finished``)."""
        held: list[Job] = getattr(self._held, "jobs", None) or []
        self._held.jobs = None
        for kind, target_id in held:
            self.submit(kind, target_id)

    def submit_after_response(self, kind: str, target_id: int) -> None:
        """:meth:`submit`, once the response of the request the calling thread
        serves has been sent (see :meth:`hold`), so that the job does not
        compete with it for the interpreter; at once outside a request. A job
        held by a request that never finishes stays owed, for the sweep."""
        held: list[Job] | None = getattr(self._held, "jobs", None)
        if held is None:
            self.submit(kind, target_id)
        else:
            held.append((str(kind), target_id))

    def submit(self, kind: str, target_id: int) -> None:
        """Queue the job ``(kind, target_id)`` unless it waits already; start
        the thread if this process has none running."""
        job = (str(kind), target_id)
        with self._lock:
            self._start_if_needed()
            if job in self._waiting:
                return
            self._waiting.add(job)
            self.idle.clear()
        self._queue.put(job)

    def drain(self, timeout: float) -> bool:
        """Wait until the jobs queued in this process are done, at most
        ``timeout`` seconds; whether they were. Registered to run when the
        process exits, so that a command (an import, ``demo_data``) or a
        stopping web worker finishes the jobs it owed; what is left undone
        stays owed, for the sweep."""
        with self._lock:
            running = self._thread is not None and self._thread.is_alive()
            if not running or self._pid != os.getpid():
                return True
        return self.idle.wait(timeout)

    def _start_if_needed(self) -> None:
        # a forked child inherits the parent's object but not its thread
        alive = self._thread is not None and self._thread.is_alive()
        if alive and self._pid == os.getpid():
            return
        if self._pid != os.getpid():
            self._queue = queue.Queue()
            self._waiting = set()
        self._pid = os.getpid()
        self._thread = threading.Thread(target=self._loop, name="league-jobs", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while True:
            try:
                job = self._queue.get(timeout=self._sweep_every)
            except queue.Empty:
                self._guarded(self._sweep, "the sweep")
                connection.close()
                continue
            with self._lock:
                self._waiting.discard(job)
            kind, target_id = job
            self._guarded(partial(self._run, kind, target_id), f"the {kind} job for {target_id}")
            with self._lock:
                if not self._waiting and self._queue.empty():
                    connection.close()  # idle: hold no connection
                    self.idle.set()

    @staticmethod
    def _guarded(work: Callable[[], object], what: str) -> None:
        """Run ``work``; whatever it raises is logged, and the thread goes on
        (the work stays owed, for the sweep)."""
        try:
            work()
        except Exception:
            logger.exception("%s failed in the background thread; it stays owed", what)
            connection.close()  # a broken connection is not kept for the next job
