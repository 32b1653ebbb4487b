"""How long an ``Idempotency-Key``'s first response is kept, and its pruning.

A retry comes within seconds or minutes of the request it repeats; a day is
ample (as Stripe keeps keys). After that the same key is a new request
(:mod:`league.api.idempotency` treats an expired key as absent), and
:func:`idempotency_keys_prune` deletes expired keys, run hourly by Celery
beat or daily by ``manage.py idempotency_keys_prune`` from cron: otherwise
every submission with a key would keep its score sheet forever.
"""

from __future__ import annotations

import datetime
from typing import Final

from django.utils import timezone

from league.models import IdempotencyKey

IDEMPOTENCY_KEY_TTL: Final = datetime.timedelta(hours=24)
"""How long a key's first response is replayed."""

PRUNE_BATCH: Final = 5_000
"""Keys deleted a statement: a backlog is deleted in short statements."""


def idempotency_key_expired(key: IdempotencyKey, *, now: datetime.datetime | None = None) -> bool:
    """Whether ``key`` is older than :data:`IDEMPOTENCY_KEY_TTL`."""
    return key.created_at < (now or timezone.now()) - IDEMPOTENCY_KEY_TTL


def idempotency_keys_prune(*, older_than: datetime.timedelta = IDEMPOTENCY_KEY_TTL) -> int:
    """Delete the keys made more than ``older_than`` ago, :data:`PRUNE_BATCH`
    a statement (each its own transaction, so none holds locks for long).
    Returns how many were deleted. Safe to run twice at once: a key deleted
    by the other run is simply not counted here."""
    cutoff = timezone.now() - older_than
    deleted = 0
    while True:
        batch = list(
            IdempotencyKey.objects.filter(created_at__lt=cutoff)
            .order_by("created_at")
            .values_list("pk", flat=True)[:PRUNE_BATCH]
        )
        if not batch:
            return deleted
        count, _ = IdempotencyKey.objects.filter(pk__in=batch).delete()
        deleted += count
