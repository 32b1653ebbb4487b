"""Celery tasks: thin, idempotent wrappers around services."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from league import ratings, services
from league.models import League


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def league_standings_refresh(league_id: int) -> int:
    """Recompute a league's standings (see :mod:`league.standings`)."""
    league = League.objects.filter(pk=league_id).first()
    if league is None:  # deleted since the task was queued: nothing to do
        return 0
    return services.standings_refresh(league=league)


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def ratings_refresh(scope_id: int) -> int:
    """Re-rate a scope from its earliest changed game (see :mod:`league.ratings`).

    Idempotent: a second run finds nothing to re-rate. The scope row lock
    keeps one job per scope running at a time."""
    if not ratings.RatingScope.objects.filter(pk=scope_id).exists():
        return 0
    return ratings.ratings_refresh(scope_id=scope_id)
