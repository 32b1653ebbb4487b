"""Background work owed by a change (a transactional outbox), and how it
reaches its job, whatever the broker does.

A change whose work a background job derives from (a game's result: the
league's standings and its scopes' ratings; a draw's sit-outs: the standings;
a webhook's delivery) calls :func:`jobs_owe` (or :func:`job_owe`,
:func:`standings_owe`) inside its transaction. The work is written as
:class:`~league.models.JobOwed` rows in that transaction, so it is owed if and
only if the change commits, and the jobs are sent once it commits. Sending
never fails the caller: a broker that is down or silent costs at most its
short timeout, and the work stays owed until :func:`jobs_sweep` (Celery beat,
or ``manage.py jobs_sweep``) sends it.

Each kind of work owed has its job, a Celery task named here by its registered
name (:data:`JOB_TASKS`; :data:`JOBS` sends it by that name), with the options
every job shares (:data:`JOB_OPTIONS`) and the lock it holds
(:data:`JOB_LOCKS`). The tasks are defined above this module (most in
:mod:`league.tasks`, a webhook's delivery in :mod:`league.webhook_delivery`, a
results file's import in :mod:`league.services.imports`), so nothing that owes
work imports them; the league app loads them in every process
(:meth:`league.apps.LeagueConfig.ready`). This module sends the jobs and keeps
the rows:

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
- :func:`running` wraps a job's transaction: it takes the job's lock
  (:func:`job_lock`), and clears the row when the job has done the work,
  unless the work was owed again while it ran.
- :func:`sweep` sends the work owed for longer than :data:`SWEEP_GRACE` that
  no message is carrying: work not sent since it was last owed (its publish
  failed, or the process stopped before publishing); work sent longer than
  :data:`RESEND_AFTER` ago, still owed, whose job is not running (its message
  was lost, as a Redis restarted without persistence loses them, or its
  worker died); and work whose job raised, once the broker's visibility
  timeout has passed since. Celery beat runs it every :data:`SWEEP_EVERY`
  seconds (``league.tasks.jobs_sweep``); ``manage.py jobs_sweep`` runs it
  without beat. So after a lost message or a dead worker the work is done
  within ``RESEND_AFTER + SWEEP_EVERY`` seconds (30) and the job's own time,
  once the broker and a worker are there.

Sending a job twice is harmless: a job that finds its work done returns (see
:mod:`league.tasks`). A job still queued behind others after
:data:`RESEND_AFTER` (or while no worker runs) is sent again too, once a
sweep; the copies find the work done.

Locks: the standings and ratings jobs each hold an advisory lock on their
target for their whole transaction (:data:`JOB_LOCKS`), which no service
takes: what a service owes is rows of its own (``JobOwed``,
``StandingsOwed``, ``RatingsOwed``), written without waiting for a job. The
lock is also how the sweep tells a job that runs (its lock held) from a
message lost. A job reads its ``JobOwed`` row without locking it until it
deletes the row at its very end, so a service owing the work again meanwhile
waits for no job, and the job waits at most for that service's commit.
"""

from __future__ import annotations

import atexit
import datetime
import logging
import secrets
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from typing import Final, TypedDict

from celery.canvas import Signature
from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import DatabaseError, OperationalError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from config.celery import app as celery_app
from league.background import JobThread
from league.models import JobOwed, StandingsOwed

logger = logging.getLogger(__name__)

SWEEP_GRACE: Final = datetime.timedelta(seconds=5)
"""Work first owed more recently than this is left to the send after its commit."""
RESEND_AFTER: Final = datetime.timedelta(seconds=15)
"""Work sent this long ago and still owed, whose job is not running, is sent
again: its message was lost or its worker died. Far longer than a message
takes to reach an idle worker (milliseconds); a job that runs longer holds
its lock, and is not sent again while it does."""
SWEEP_EVERY: Final = 15.0
"""Seconds between two sweeps: Celery beat's schedule (the settings'
``CELERY_BEAT_SCHEDULE``) and ``jobs_sweep --loop``'s default."""
SWEEP_BATCH: Final = 500
"""The most jobs one sweep sends; the next sweep sends the rest."""
BROKER_BACKOFF: Final = 5.0
"""Seconds after a failed publish during which a request publishes nothing."""


# -- the jobs ------------------------------------------------------------------------------

JOB_TASKS: Final[Mapping[str, str]] = {
    JobOwed.Kind.STANDINGS: "league.tasks.league_standings_refresh",
    JobOwed.Kind.RATINGS: "league.tasks.ratings_refresh",
    # a webhook delivery's attempt; its task lives with the delivery code
    # (league.webhook_delivery) and keeps the name it had before that module's
    # rename, so that messages queued by an older release still find it
    JobOwed.Kind.WEBHOOK: "league.webhooks.webhook_deliver",
    # a results file's import: a service's task (league.services.imports)
    JobOwed.Kind.IMPORT: "league.services.imports.results_import_job",
    JobOwed.Kind.PASSWORD_RESET: "league.tasks.password_reset_mail",
    JobOwed.Kind.ARCHIVE: "league.tasks.archive_prepare",
}
"""The registered name of each kind of work owed's task. Each task takes its
name from here (``shared_task(name=...)``), and the work owed is sent by it
(:data:`JOBS`), so that what owes work never imports the tasks."""

JOBS: Final[Mapping[str, Signature[object]]] = {
    kind: celery_app.signature(name) for kind, name in JOB_TASKS.items()
}
"""The task of each kind of work owed, by its registered name (:data:`JOB_TASKS`):
sent, applied or called as the task itself is, once its module is loaded."""


class JobOptions(TypedDict):
    """The Celery options :data:`JOB_OPTIONS` gives every job's task."""

    acks_late: bool
    autoretry_for: tuple[type[Exception], ...]
    retry_backoff: bool
    retry_backoff_max: int
    max_retries: int


JOB_OPTIONS: Final[JobOptions] = {
    # Acknowledged once done, so a worker that dies mid-job leaves it to
    # another (after the broker's visibility timeout, see the settings); the
    # jobs are safe to run twice, so that is harmless.
    "acks_late": True,
    # A lost connection or a lock timeout is worth another try, later.
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    # Well under the visibility timeout: a worker holds a retry,
    # unacknowledged, until its countdown ends; held longer, it would be
    # delivered to a second worker too.
    "retry_backoff_max": 60,
    "max_retries": 5,
}
"""The Celery options of the jobs' tasks (:mod:`league.tasks`, a results file's
import)."""


# -- work owed -----------------------------------------------------------------------------


def jobs_owe(*, jobs: Iterable[tuple[JobOwed.Kind, int]]) -> None:
    """Record that each ``(kind, target id)`` of ``jobs`` is owed (a league's
    standings, a rating scope's ratings), and send them, in that order, once
    the current transaction commits.

    Call inside the transaction of the change that owes the work: the rows
    are written in it, so a rollback owes nothing. One query, an upsert: work
    owed already is owed again (a new token, not sent nor failed since), and
    stays one row. It waits for no job that runs but one ending with this
    very row (its delete, then its commit: see :func:`running`)."""
    owed = sorted(set(jobs))  # one order for every caller: rows are locked in it
    if not owed:
        return
    now = timezone.now()
    JobOwed.objects.bulk_create(
        [
            JobOwed(kind=kind, target_id=target_id, owed_since=now, owed_at=now, token=token())
            for kind, target_id in owed
        ],
        update_conflicts=True,
        unique_fields=["kind", "target_id"],
        # owed again: a new token (so a job running now leaves the row), not sent
        # nor failed since (the failures counted so far are kept, for whoever looks)
        update_fields=["owed_at", "token", "sent_at", "failed_at"],
    )

    def send_owed() -> None:
        for kind, target_id in owed:
            send(JOBS[kind], kind=kind, target_id=target_id, in_request=True)

    # robust: whatever sending does, the change is committed and the caller answers
    transaction.on_commit(send_owed, robust=True)


def standings_owe(
    *,
    league_id: int,
    event_id: int | None = None,
    player_ids: Iterable[int] = (),
    more_jobs: Iterable[tuple[JobOwed.Kind, int]] = (),
) -> None:
    """Owe the standings ``player_ids`` have in the event ``event_id`` and in
    the league (or, with no event, every line of the league: a full rebuild),
    and the league's standings job that recomputes them
    (:func:`league.standings.standings_catch_up`), with ``more_jobs`` (sent
    together). Call inside the change's transaction, as :func:`jobs_owe`: one
    insert, then its upsert."""
    now = timezone.now()
    if event_id is None:
        lines = [StandingsOwed(league_id=league_id, owed_at=now)]
    else:
        lines = [
            StandingsOwed(league_id=league_id, event_id=event_id, player_id=player_id, owed_at=now)
            for player_id in sorted(set(player_ids))
        ]
    jobs = list(more_jobs)
    if lines:
        StandingsOwed.objects.bulk_create(lines)
        jobs.append((JobOwed.Kind.STANDINGS, league_id))
    jobs_owe(jobs=jobs)


def job_owe(*, kind: JobOwed.Kind, target_id: int) -> None:
    """Owe one job: :func:`jobs_owe` of one."""
    jobs_owe(jobs=[(kind, target_id)])


def jobs_sweep(*, batch: int = SWEEP_BATCH) -> int:
    """Send the work owed that is due, at most ``batch`` jobs (see
    :func:`sweep`); returns how many were sent."""
    return sweep(jobs=JOBS, batch=batch)


# -- sending -------------------------------------------------------------------------------


def token() -> int:
    """A fresh token for a :class:`~league.models.JobOwed` row: random, so that
    two processes owing the same work at once never draw the same (a counter
    would need a read first)."""
    return secrets.randbits(63)


def send(task: Signature[object], *, kind: JobOwed.Kind, target_id: int, in_request: bool) -> bool:
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
        result = task.apply(args=(target_id,), throw=False)
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
        task.apply_async(args=(target_id,), retry=False)
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


def sweep(*, jobs: Mapping[str, Signature[object]], batch: int = SWEEP_BATCH) -> int:
    """Send the jobs owed that are due (see the module's docstring), oldest
    first, at most ``batch`` of them; ``jobs`` gives each kind's task. Returns
    how many were sent (or, without a broker, run). Stops at the first publish
    that fails: the broker is down, and the next sweep tries again."""
    now = timezone.now()
    failed_since_sent = Q(failed_at__isnull=False) & (
        Q(sent_at__isnull=True) | Q(failed_at__gte=F("sent_at"))
    )
    due = list(
        JobOwed.objects.filter(owed_since__lte=now - SWEEP_GRACE)
        .filter(
            # not sent since last owed (nor run: without a broker nothing is "sent")
            Q(sent_at__isnull=True, failed_at__isnull=True)
            # sent, and still owed a while later: lost, unless its job runs now
            | (Q(sent_at__lte=now - RESEND_AFTER) & ~failed_since_sent)
            # its job raised: tried again once the visibility timeout has passed
            | (failed_since_sent & Q(failed_at__lte=now - _failed_resend_after()))
        )
        .order_by("owed_since", "pk")
        .values_list("kind", "target_id", "sent_at", "failed_at")[:batch]
    )
    # work sent or run before is not sent again while its job runs
    tried = [(kind, target) for kind, target, sent_at, failed_at in due if sent_at or failed_at]
    busy = jobs_running(tried)
    sent = 0
    for kind, target_id, _, _ in due:
        if (kind, target_id) in busy:
            continue
        if not send(jobs[kind], kind=JobOwed.Kind(kind), target_id=target_id, in_request=False):
            break
        sent += 1
    return sent


def _failed_resend_after() -> datetime.timedelta:
    return datetime.timedelta(seconds=visibility_timeout())


JOB_LOCKS: Final[Mapping[str, int]] = {
    JobOwed.Kind.STANDINGS: 0x5354,  # "ST"
    JobOwed.Kind.RATINGS: 0x5254,  # "RT"
    JobOwed.Kind.IMPORT: 0x494D,  # "IM"
}
"""The first key of the advisory lock each kind of job holds while it runs
(the target's id modulo 2**31 is the second): a league's standings job, a
rating scope's ratings job, a results file's import (which runs for a minute
or more: the sweep must not send it again meanwhile). A webhook delivery's
job has none: its claim on the delivery keeps a second run off
(:mod:`league.webhook_delivery`)."""


def job_lock(kind: JobOwed.Kind, target_id: int) -> None:
    """Take the job's advisory lock (:data:`JOB_LOCKS`) until the current
    transaction ends, waiting for a job of the same target that holds it.
    Targets whose ids are equal modulo 2**31 share a lock: they only wait for
    each other. On SQLite, which lets one transaction write at a time, there
    is none to take."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s::integer, %s::integer)",
                [JOB_LOCKS[kind], target_id % 2**31],
            )


def jobs_running(jobs: Iterable[tuple[str, int]]) -> set[tuple[str, int]]:
    """The ``(kind, target id)`` of ``jobs`` whose job runs now: its lock
    (:func:`job_lock`) is held in this database. One query (PostgreSQL's
    ``pg_locks``), none when no job of ``jobs`` has a lock; on SQLite none
    is known to run."""
    locked = [(kind, target_id) for kind, target_id in jobs if kind in JOB_LOCKS]
    if not locked or connection.vendor != "postgresql":
        return set()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT classid::bigint, objid::bigint FROM pg_locks"
            " WHERE locktype = 'advisory' AND granted AND objsubid = 2"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND classid::bigint = ANY(%s)",
            [sorted(set(JOB_LOCKS.values()))],
        )
        held = set(cursor.fetchall())
    return {
        (kind, target_id)
        for kind, target_id in locked
        if (JOB_LOCKS[kind], target_id % 2**31) in held
    }


@contextmanager
def running(kind: JobOwed.Kind, target_id: int) -> Iterator[int | None]:
    """A job's transaction: take the job's lock (:func:`job_lock`, for the
    kinds that have one), read the token of the job's
    :class:`~league.models.JobOwed` row (``None`` when there is none), run the
    body, and delete the row if it still holds that token. Work owed again
    while the body ran drew a new token, so its row stays, for the job its
    change sent.

    The token is read before the body reads anything it derives from, so a
    row is cleared only of work the body saw. The row is read, not locked: a
    service owing the work again does not wait for the job. Deleting it at the
    end waits at most for such a service's transaction, which never waits for
    the job (see the locks above).

    When the body raises, the failure is counted on the row, with when it
    happened (so the sweep leaves it a while), and the error passes on (to
    Celery's retry)."""
    owed = JobOwed.objects.filter(kind=kind, target_id=target_id)
    try:
        with transaction.atomic():
            if kind in JOB_LOCKS:
                job_lock(kind, target_id)
            token = owed.values_list("token", flat=True).first()
            yield token
            if token is not None:
                owed.filter(token=token).delete()
    except Exception as error:
        # if the database is what failed, the row stays as it was: a failure
        # it could not note, which the sweep treats as a message lost
        with suppress(DatabaseError):
            owed.update(
                attempts=F("attempts") + 1, last_error=describe(error), failed_at=timezone.now()
            )
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


def _note(kind: JobOwed.Kind, target_id: int, **fields: object) -> None:
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
    send(JOBS[kind], kind=JobOwed.Kind(kind), target_id=target_id, in_request=False)


def _sweep_in_thread() -> None:
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
