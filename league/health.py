"""The health check a load balancer or monitor asks: is the database up, is the broker?

``/healthz`` answers within :data:`PROBE_TIMEOUT` (and so well within 3 s)
whatever the database and the broker do: refuse, answer slowly, or accept
the connection and then say nothing (a frozen process: no socket timeout of
a client library bounds every such wait). Each probe runs in a thread of its
own, with its own connection and short socket timeouts, and the check waits
for it no longer than the deadline. A probe still hanging from an earlier
check is not started again (the check answers at once that it hangs), so a
frozen server costs one thread per process, not one per check.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Final

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app as celery_app

PROBE_TIMEOUT: Final = 2
"""Seconds each probe may take; both run at once."""


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Whether the database and the broker answer: 200 if both do, else 503."""
    probes = {"database": _database_status, "broker": _broker_status}
    checks = run_probes(probes, timeout=PROBE_TIMEOUT)
    healthy = all(value in ("ok", "not configured") for value in checks.values())
    body = {"status": "ok" if healthy else "unavailable", **checks}
    if checks["broker"] == "not configured":
        body["tasks"] = "run in the web process (no CELERY_BROKER_URL)"
    answer = JsonResponse(body, status=200 if healthy else 503)
    if not healthy:
        answer["Retry-After"] = "5"
    return answer


class _Probe(threading.Thread):
    """One probe in a daemon thread: the check never waits on it past its deadline."""

    def __init__(self, name: str, check: Callable[[], str]) -> None:
        super().__init__(name=f"healthz-{name}", daemon=True)
        self.check = check
        self.status = "error: no answer"

    def run(self) -> None:
        try:
            self.status = self.check()
        except Exception as error:  # any failure is what the check reports
            self.status = f"error: {type(error).__name__}"


_hanging: dict[str, _Probe] = {}
_hanging_lock = threading.Lock()


def run_probes(probes: dict[str, Callable[[], str]], *, timeout: float) -> dict[str, str]:
    """Each probe's status (``"ok"``, ``"not configured"`` or ``"error: ..."``),
    all of them run at once and none waited for longer than ``timeout`` seconds."""
    started: dict[str, _Probe] = {}
    statuses: dict[str, str] = {}
    with _hanging_lock:
        for name, check in probes.items():
            earlier = _hanging.get(name)
            if earlier is not None and earlier.is_alive():
                statuses[name] = "error: an earlier probe still has no answer"
                continue
            probe = _Probe(name, check)
            probe.start()
            started[name] = probe
    deadline = time.monotonic() + timeout
    for name, probe in started.items():
        probe.join(max(0.0, deadline - time.monotonic()))  # they run side by side
        if probe.is_alive():
            statuses[name] = f"error: no answer within {timeout:g} s"
            with _hanging_lock:
                _hanging[name] = probe
        else:
            statuses[name] = probe.status
    return {name: statuses[name] for name in probes}


def _database_status() -> str:
    # This thread's own connection (Django's are per thread), closed after:
    # the request's connection may be the one that hangs.
    connection = connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()
    return "ok"


def _broker_status() -> str:
    if not settings.CELERY_BROKER_URL:
        return "not configured"
    # A connection of its own with short socket timeouts, so the thread ends
    # soon after the deadline even when the broker never answers.
    seconds = PROBE_TIMEOUT
    with celery_app.connection_for_write(
        settings.CELERY_BROKER_URL,
        connect_timeout=seconds,
        transport_options={"socket_timeout": seconds, "socket_connect_timeout": seconds},
    ) as conn:
        conn.ensure_connection(max_retries=0, timeout=seconds)  # Redis: connects and PINGs
    return "ok"
