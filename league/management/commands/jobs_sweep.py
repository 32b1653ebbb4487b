"""``manage.py jobs_sweep``: send the background jobs that are owed and due
(:func:`league.outbox.jobs_sweep`; what is due: :mod:`league.outbox`).

Once by default, for cron or a systemd timer; ``--loop [SECONDS]`` sweeps
every SECONDS (15 by default, as Celery beat's schedule) until it is stopped
(SIGTERM, SIGINT), for a deployment that runs no beat. A database or broker
failure in the loop is reported and the loop goes on. Without a broker (``make
run``), the jobs run in this process. Prints how many jobs were sent, when
any were.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connections

from league import outbox
from league.outbox import jobs_sweep


class Command(BaseCommand):
    help = "Send the background jobs owed (standings, ratings) that were not sent."

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stopped = threading.Event()
        """Set to end ``--loop`` (SIGTERM and SIGINT set it)."""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--loop",
            type=float,
            nargs="?",
            const=outbox.SWEEP_EVERY,
            default=None,
            metavar="SECONDS",
            help=f"sweep every SECONDS (default {outbox.SWEEP_EVERY:g}) until stopped",
        )

    def handle(self, *args: Any, loop: float | None, **options: Any) -> None:
        if loop is None:
            self.sweep()
            return
        if loop <= 0:
            raise CommandError("--loop takes a number of seconds above 0")
        handled: dict[signal.Signals, Callable[[int, FrameType | None], object] | int | None] = {}
        if threading.current_thread() is threading.main_thread():  # signals reach it alone
            for stop_signal in (signal.SIGTERM, signal.SIGINT):
                handled[stop_signal] = signal.signal(stop_signal, lambda *_: self.stopped.set())
        try:
            while not self.stopped.is_set():
                try:
                    self.sweep()
                except DatabaseError as error:  # the next pass tries again
                    self.stderr.write(f"jobs_sweep: the database failed: {error}")
                self.stopped.wait(loop)
        finally:
            for stop_signal, handler in handled.items():
                signal.signal(stop_signal, handler)

    def sweep(self) -> None:
        # A long-running loop must not keep a connection the database dropped,
        # nor one past its CONN_MAX_AGE (as close_old_connections does between
        # requests); never one inside a transaction of its caller's.
        for database in connections.all(initialized_only=True):
            if not database.in_atomic_block:
                database.close_if_unusable_or_obsolete()
        sent = jobs_sweep()
        if sent:
            self.stdout.write(f"jobs_sweep: sent {sent} job{'s' * (sent != 1)}")
