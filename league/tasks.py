"""Celery tasks: thin wrappers around the derived-data jobs of
:mod:`league.standings` and :mod:`league.ratings`, a webhook's delivery
(:mod:`league.webhooks`), a password reset's mail (:mod:`league.mails`), the
downloads prepared as files (:mod:`league.archives`), and the sweep of the work
owed to them and to the other jobs of :data:`JOBS`
(:mod:`league.outbox`).

The services owe these jobs through :mod:`league.services.jobs`, which
imports :data:`JOBS` from here; this module imports no service, so there is
no cycle (the import of a results file, whose job is a service's, is named:
:data:`RESULTS_IMPORT_TASK`).

Every job is safe to run twice, at the same time too: a league's standings
jobs take the league's standings lock (:func:`league.standings.standings_lock`)
and a scope's ratings jobs the scope's ratings lock
(:func:`league.ratings.ratings_lock`), advisory locks that
:func:`league.outbox.running` takes first, so they run one after the other,
and the second finds the work done (no :class:`~league.models.StandingsOwed`
rows for the standings, no :class:`~league.models.RatingsOwed` rows nor
``rerate_from`` for the ratings) and returns at once; a password reset's mail
locks its row while it goes out, and the second run finds the row gone. That
makes the broker's redelivery after its visibility timeout, and the sweep's
sending again, harmless.
"""

from __future__ import annotations

from typing import Any, Final

from celery import shared_task
from django.db import OperationalError

from config.celery import app as celery_app
from league import idempotency, mails, outbox, ratings, standings, webhooks
from league.models import JobOwed, League, RatingScope

JOB_OPTIONS: dict[str, Any] = {
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


@shared_task(**JOB_OPTIONS)
def league_standings_refresh(league_id: int) -> int:
    """Recompute the standings a league owes (see
    :func:`league.standings.standings_catch_up`); returns how many lines owed
    it recomputed (0 when nothing was owed).

    The league's :class:`~league.models.StandingsOwed` rows say what is owed,
    so this runs whether or not a :class:`~league.models.JobOwed` row is there:
    a second run finds nothing owed. The league's standings lock is taken
    first (:func:`league.outbox.running`)."""
    with outbox.running(JobOwed.Kind.STANDINGS, league_id):
        league = League.objects.filter(pk=league_id).first()
        if league is None:  # deleted since it was owed: its row goes, nothing else
            return 0
        return standings.standings_catch_up(league=league)


@shared_task(**JOB_OPTIONS)
def ratings_refresh(scope_id: int) -> int:
    """Re-rate a scope from its earliest changed game (see :mod:`league.ratings`).

    The scope's :class:`~league.models.RatingsOwed` rows (and its
    ``rerate_from``) say what is owed, so this runs whether or not a
    :class:`~league.models.JobOwed` row is there: a second run finds nothing
    to re-rate. The scope's ratings lock, taken first
    (:func:`league.outbox.running`), keeps one job per scope running at a time."""
    with outbox.running(JobOwed.Kind.RATINGS, scope_id):
        if not RatingScope.objects.filter(pk=scope_id).exists():
            return 0
        return ratings.ratings_refresh(scope_id=scope_id)


@shared_task(**JOB_OPTIONS)
def password_reset_mail(asked_id: int) -> int:
    """Mail a password reset's link to the logins with the address asked for
    (:func:`league.mails.password_reset_send`); the row locked while it goes
    out, so a second run finds it sent."""
    return mails.password_reset_send(asked_id)


@shared_task(**JOB_OPTIONS)
def archive_prepare(archive_id: int) -> int:
    """Write a download prepared as a file (see :mod:`league.archives`); returns
    the lines written (0 when there was nothing to do).

    The archive's ``state`` and ``started_at`` say what is owed and who is at it,
    so a second run finds the file made, or being made, and returns at once."""
    # imported here: the archives read through league.exports, which imports the
    # standings, which owe jobs through this module's JOBS
    from league import archives

    return archives.archive_prepare(archive_id=archive_id)


RESULTS_IMPORT_TASK: Final = "league.services.imports.results_import_job"
"""The name of the task that imports a results file kept by the import page: it
lives with the import service (:func:`league.services.imports.results_import_job`),
which this module may not import, so its work owed is sent by its name. The league
app loads that module in every process (:meth:`league.apps.LeagueConfig.ready`), so
the task is there wherever it is sent or run."""


JOBS: Final[dict[str, Any]] = {
    JobOwed.Kind.STANDINGS: league_standings_refresh,
    JobOwed.Kind.RATINGS: ratings_refresh,
    # a webhook delivery's attempt (its task lives with the delivery code)
    JobOwed.Kind.WEBHOOK: webhooks.webhook_deliver,
    # a results file's import, by its task's name (see RESULTS_IMPORT_TASK)
    JobOwed.Kind.IMPORT: celery_app.signature(RESULTS_IMPORT_TASK),
    JobOwed.Kind.PASSWORD_RESET: password_reset_mail,
    JobOwed.Kind.ARCHIVE: archive_prepare,
}
"""The task of each kind of work owed."""


@shared_task(ignore_result=True)
def jobs_sweep() -> int:
    """Send the work owed that is due (Celery beat runs this every
    :data:`league.outbox.SWEEP_EVERY` seconds; see :func:`league.outbox.sweep`).
    Returns how many jobs were sent."""
    return outbox.sweep(jobs=JOBS)


@shared_task(ignore_result=True)
def idempotency_keys_prune() -> int:
    """Delete the expired ``Idempotency-Key`` answers (Celery beat runs this
    hourly; see :mod:`league.idempotency`). Returns how many."""
    return idempotency.idempotency_keys_prune()
