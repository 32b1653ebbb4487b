"""Celery tasks: thin, idempotent wrappers around the derived-data jobs of
:mod:`league.standings` and :mod:`league.ratings`.

The services that owe these jobs import them at module level with a
``_task`` suffix (``league_standings_refresh_task``); this module imports no
service, so there is no cycle.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError

from league import ratings, standings
from league.models import League, RatingScope

JOB_OPTIONS: dict[str, Any] = {
    # Acknowledged once done, so a worker that dies mid-job leaves it to
    # another; the jobs are idempotent, so running one twice is harmless.
    "acks_late": True,
    # A lost connection or a lock timeout is worth another try, later.
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "max_retries": 5,
}


@shared_task(**JOB_OPTIONS)
def league_standings_refresh(league_id: int) -> int:
    """Recompute a league's standings (see :mod:`league.standings`)."""
    league = League.objects.filter(pk=league_id).first()
    if league is None:  # deleted since the task was queued: nothing to do
        return 0
    return standings.standings_refresh(league=league)


@shared_task(**JOB_OPTIONS)
def ratings_refresh(scope_id: int) -> int:
    """Re-rate a scope from its earliest changed game (see :mod:`league.ratings`).

    Idempotent: a second run finds nothing to re-rate. The scope row lock
    keeps one job per scope running at a time."""
    if not RatingScope.objects.filter(pk=scope_id).exists():
        return 0
    return ratings.ratings_refresh(scope_id=scope_id)
