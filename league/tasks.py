"""Celery tasks: thin wrappers around the derived-data jobs of
:mod:`league.standings` and :mod:`league.ratings`, the downloads prepared as files
(:mod:`league.archives`), and the sweep of the work owed to them
(:mod:`league.outbox`).

The services owe these jobs through :mod:`league.services.jobs`, which
imports :data:`JOBS` from here; this module imports no service, so there is
no cycle.

Every job is safe to run twice, at the same time too: a league's standings
jobs take the league's standings lock (:func:`league.standings.standings_lock`)
and a scope's ratings jobs the scope's row lock, so they run one after the
other, and the second finds the work done (no
:class:`~league.models.StandingsOwed` rows for the standings, no
``rerate_from`` for the ratings) and returns at once. That makes the broker's
redelivery after its visibility timeout, and the sweep's sending again,
harmless.
"""

from __future__ import annotations

from typing import Any, Final

from celery import shared_task
from django.db import OperationalError

from league import idempotency, outbox, ratings, standings, webhooks
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
    a second run finds nothing owed."""

    def lock() -> None:
        standings.standings_lock(league_id=league_id)

    with outbox.running(JobOwed.Kind.STANDINGS, league_id, lock=lock):
        league = League.objects.filter(pk=league_id).first()
        if league is None:  # deleted since it was owed: its row goes, nothing else
            return 0
        return standings.standings_catch_up(league=league)


@shared_task(**JOB_OPTIONS)
def ratings_refresh(scope_id: int) -> int:
    """Re-rate a scope from its earliest changed game (see :mod:`league.ratings`).

    The scope's ``rerate_from`` says what is owed, so this runs whether or not
    a :class:`~league.models.JobOwed` row is there: a second run finds nothing
    to re-rate. The scope row lock keeps one job per scope running at a time."""
    with outbox.running(JobOwed.Kind.RATINGS, scope_id):
        if not RatingScope.objects.filter(pk=scope_id).exists():
            return 0
        return ratings.ratings_refresh(scope_id=scope_id)


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


JOBS: Final[dict[str, Any]] = {
    JobOwed.Kind.STANDINGS: league_standings_refresh,
    JobOwed.Kind.RATINGS: ratings_refresh,
    # a webhook delivery's attempt (its task lives with the delivery code)
    JobOwed.Kind.WEBHOOK: webhooks.webhook_deliver,
    JobOwed.Kind.ARCHIVE: archive_prepare,
}
"""The task of each kind of work owed."""


@shared_task(ignore_result=True)
def jobs_sweep() -> int:
    """Send the work owed that is due (Celery beat runs this every half
    minute; see :func:`league.outbox.sweep`). Returns how many jobs were sent."""
    return outbox.sweep(jobs=JOBS)


@shared_task(ignore_result=True)
def idempotency_keys_prune() -> int:
    """Delete the expired ``Idempotency-Key`` answers (Celery beat runs this
    hourly; see :mod:`league.idempotency`). Returns how many."""
    return idempotency.idempotency_keys_prune()
