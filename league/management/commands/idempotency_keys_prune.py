"""``manage.py idempotency_keys_prune [--hours N]``: delete the stored
``Idempotency-Key`` answers older than N hours (24, the time a key is kept),
for an install without Celery beat: run it daily from cron or a systemd
timer. Prints how many were deleted."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.idempotency import IDEMPOTENCY_KEY_TTL, idempotency_keys_prune

DEFAULT_HOURS = int(IDEMPOTENCY_KEY_TTL.total_seconds() // 3600)


class Command(BaseCommand):
    help = "Delete the stored Idempotency-Key answers older than --hours (24)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hours", type=int, default=DEFAULT_HOURS)

    def handle(self, *args: Any, hours: int, **options: Any) -> None:
        if hours < DEFAULT_HOURS:
            raise CommandError(
                f"--hours must be at least {DEFAULT_HOURS}: a key is replayed for that long"
            )
        deleted = idempotency_keys_prune(older_than=datetime.timedelta(hours=hours))
        self.stdout.write(f"idempotency keys deleted: {deleted}")
