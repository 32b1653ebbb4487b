"""How the work owed to background jobs reaches them, whatever the broker does.

The services record work owed as :class:`~league.models.JobOwed` rows in the
transaction of the change that owes it (:func:`league.services.jobs.jobs_owe`);
this module sends the jobs and keeps the rows:

- :func:`send` hands one job to Celery. With a broker (``CELERY_BROKER_URL``)
  it is published once, with the bounded socket and connection timeouts of
  the settings' ``CELERY_*`` block and no retry: a publish that the broker
  refuses or does not answer in time is logged, counted on the row and left
  to the sweep, and the caller goes on (the change is committed). After a
  failed publish a web request publishes nothing for :data:`BROKER_BACKOFF`
  seconds, so that during an outage one request in that time waits for the
  broker's timeout, not each. Without a broker (eager mode: ``make run``) a
  request's job goes to the process's job thread (:mod:`league.background`),
  or, with ``JOBS_WITHOUT_BROKER = "inline"``, runs at once, as the sweep's
  do; a job that raises is logged and its row kept.
- :func:`running` wraps a job's transaction: it clears the row when the job
  has done the work, unless the work was owed again while it ran.
- :func:`sweep` sends every job owed for longer than :data:`SWEEP_GRACE` that
  has not been sent since it was last owed (its publish failed, or the process
  stopped before publishing), or was sent longer ago than the broker's
  visibility timeout and is still owed (its message was lost, as a Redis
  restarted without persistence loses them, or the job failed). Celery beat
  runs it every :data:`SWEEP_EVERY` seconds (``league.tasks.jobs_sweep``);
  ``manage.py jobs_sweep`` runs it without beat.

Sending a job twice is harmless: a job that finds its work done returns (see
:mod:`league.tasks`).

Lock order: a job's own lock (the rating scope's row, the league's standings
lock) before its ``JobOwed`` row, in the services as in the jobs. A service
takes any lock a job holds before it owes the work (the results service owes
the ratings after :func:`league.ratings.ratings_mark_changed` locked the
scopes), and a job reads its row without locking it until it deletes the row
at its very end, so neither waits for the other while holding what the other
needs.
"""

from __future__ import annotations

import atexit
import datetime
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from typing import Any, Final

from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import DatabaseError, transaction
from django.db.models import F, Q
from django.utils import timezone

from config.celery import app as celery_app
from league.background import JobThread
from league.models import JobOwed

logger = logging.getLogger(__name__)

SWEEP_GRACE: Final = datetime.timedelta(seconds=5)
"""Work first owed more recently than this is left to the send after its commit."""
SWEEP_EVERY: Final = 30.0
"""Seconds between two sweeps: Celery beat's schedule (the settings'
``CELERY_BEAT_SCHEDULE``) and ``jobs_sweep --loop``'s default."""
SWEEP_BATCH: Final = 500
"""The most jobs one sweep sends; the next sweep sends the rest."""
BROKER_BACKOFF: Final = 5.0
"""Seconds after a failed publish during which a request publishes nothing."""


def token() -> int:
    """A fresh token for a :class:`~league.models.JobOwed` row: random, so that
    two processes owing the same work at once never draw the same (a counter
    would need a read first)."""
    return secrets.randbits(63)


def send(task: Any, *, kind: JobOwed.Kind, target_id: int, in_request: bool) -> bool:
    """Send ``task`` for ``target_id``: run it here without a broker, else
    publish it. Returns False when the broker did not take it (or, for a web
    request, was not asked, having failed moments ago); never raises for the
    broker."""
    if celery_app.conf.task_always_eager:
        if in_request and settings.JOBS_WITHOUT_BROKER == "thread":
            # after the response, in this process's job thread (league.background)
            _job_thread.submit_after_response(kind, target_id)
            return True
        # here and now; the task counts a failure on the row
        result = task.apply(args=[target_id], throw=False)
        if result.failed():
            logger.error(
                "the %s job for %s failed; it stays owed for the sweep\n%s",
                kind,
                target_id,
                result.traceback,
            )
        return True
    broker = str(celery_app.conf.broker_url or "")
    if in_request and _backoff.active(broker):
        logger.info(
            "the broker failed moments ago: the %s job for %s is left to the sweep", kind, target_id
        )
        return False
    try:
        # bounded by the broker's socket timeouts (settings); no retry here
        task.apply_async(args=[target_id], retry=False)
    except Exception as error:  # whatever the broker does, the work stays owed
        _backoff.start(broker)
        logger.warning(
            "could not send the %s job for %s (%s); it stays owed for the sweep",
            kind,
            target_id,
            describe(error),
        )
        _note(kind, target_id, attempts=F("attempts") + 1, last_error=describe(error))
        return False
    _backoff.clear(broker)
    _note(kind, target_id, sent_at=timezone.now())
    return True


def sweep(*, jobs: Mapping[str, Any], batch: int = SWEEP_BATCH) -> int:
    """Send the jobs owed that are due (see the module's docstring), oldest
    first, at most ``batch`` of them; ``jobs`` gives each kind's task. Returns
    how many were sent (or, without a broker, run). Stops at the first publish
    that fails: the broker is down, and the next sweep tries again."""
    now = timezone.now()
    resend_after = datetime.timedelta(seconds=visibility_timeout())
    due = (
        JobOwed.objects.filter(owed_since__lte=now - SWEEP_GRACE)
        .filter(Q(sent_at__isnull=True) | Q(sent_at__lte=now - resend_after))
        .order_by("owed_since", "pk")
        .values_list("kind", "target_id")[:batch]
    )
    sent = 0
    for kind, target_id in due:
        if not send(jobs[kind], kind=JobOwed.Kind(kind), target_id=target_id, in_request=False):
            break
        sent += 1
    return sent


@contextmanager
def running(
    kind: JobOwed.Kind, target_id: int, *, lock: Callable[[], None] | None = None
) -> Iterator[int | None]:
    """A job's transaction: take ``lock``, read the token of the job's
    :class:`~league.models.JobOwed` row (``None`` when there is none), run the
    body, and delete the row if it still holds that token. Work owed again
    while the body ran drew a new token, so its row stays, for the job its
    change sent.

    The token is read before the body reads anything it derives from, so a
    row is cleared only of work the body saw. The row is read, not locked: a
    service owing the work again does not wait for the job. Deleting it at the
    end waits at most for such a service's transaction, which never waits for
    the job (see the lock order above).

    When the body raises, the failure is counted on the row and the error
    passes on (to Celery's retry)."""
    owed = JobOwed.objects.filter(kind=kind, target_id=target_id)
    try:
        with transaction.atomic():
            if lock is not None:
                lock()
            token = owed.values_list("token", flat=True).first()
            yield token
            if token is not None:
                owed.filter(token=token).delete()
    except Exception as error:
        # if the database is what failed, the row stays as it was
        with suppress(DatabaseError):
            owed.update(attempts=F("attempts") + 1, last_error=describe(error))
        raise


def visibility_timeout() -> float:
    """The broker's visibility timeout, in seconds: how long a message taken
    by a worker may go unacknowledged before the broker gives it to another
    (the settings' ``CELERY_BROKER_TRANSPORT_OPTIONS``)."""
    options = celery_app.conf.broker_transport_options or {}
    return float(options.get("visibility_timeout", 3600))


def describe(error: BaseException) -> str:
    """An error as a row's ``last_error`` keeps it."""
    return f"{type(error).__name__}: {error}"[:1000]


def _note(kind: JobOwed.Kind, target_id: int, **fields: Any) -> None:
    """Update a job's row (gone already if the job was quick). A failure here
    is logged, never raised: the caller's change is committed."""
    try:
        JobOwed.objects.filter(kind=kind, target_id=target_id).update(**fields)
    except DatabaseError as error:
        logger.warning("could not note the %s job for %s: %s", kind, target_id, error)


class _Backoff:
    """When each broker (by URL) last refused a publish in this process."""

    def __init__(self) -> None:
        self._failed_at: dict[str, float] = {}
        self._lock = threading.Lock()  # threaded web workers share the process

    def start(self, broker: str) -> None:
        with self._lock:
            self._failed_at[broker] = time.monotonic()

    def clear(self, broker: str) -> None:
        with self._lock:
            self._failed_at.pop(broker, None)

    def active(self, broker: str) -> bool:
        with self._lock:
            failed_at = self._failed_at.get(broker)
        return failed_at is not None and time.monotonic() - failed_at < BROKER_BACKOFF


_backoff = _Backoff()


def _run_in_thread(kind: str, target_id: int) -> None:
    from league.tasks import JOBS  # the tasks import this module

    send(JOBS[kind], kind=JobOwed.Kind(kind), target_id=target_id, in_request=False)


def _sweep_in_thread() -> None:
    from league.tasks import JOBS

    sweep(jobs=JOBS)


_job_thread = JobThread(run=_run_in_thread, sweep=_sweep_in_thread, sweep_every=SWEEP_EVERY)
"""This process's job thread, without a broker (:mod:`league.background`)."""
# a request's jobs wait until its response is sent (JobThread.hold)
request_started.connect(
    lambda **kwargs: _job_thread.hold(), weak=False, dispatch_uid="league-jobs-hold"
)
request_finished.connect(
    lambda **kwargs: _job_thread.release(), weak=False, dispatch_uid="league-jobs-release"
)
# a command that owed jobs (an import) finishes them before it exits; bounded
# as a worker's job is, by the broker's visibility timeout
atexit.register(lambda: _job_thread.drain(visibility_timeout()))
