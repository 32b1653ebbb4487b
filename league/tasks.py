"""Celery tasks: thin, idempotent wrappers around services."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from league import services
from league.models import League


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def league_standings_refresh(league_id: int) -> int:
    """Recompute a league's standings (see :func:`services.standings_refresh`)."""
    league = League.objects.filter(pk=league_id).first()
    if league is None:  # deleted since the task was queued: nothing to do
        return 0
    return services.standings_refresh(league=league)
