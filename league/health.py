"""The health check a load balancer or monitor asks: is the database up, is the broker?"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app as celery_app


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Whether the database and the broker answer: 200 if both do, else 503."""
    checks = {"database": _database_status(), "broker": _broker_status()}
    healthy = all(value in ("ok", "not configured") for value in checks.values())
    body = {"status": "ok" if healthy else "unavailable", **checks}
    if checks["broker"] == "not configured":
        body["tasks"] = "run in the web process (no CELERY_BROKER_URL)"
    return JsonResponse(body, status=200 if healthy else 503)


def _database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure is what the check reports
        return f"error: {type(error).__name__}"
    return "ok"


def _broker_status() -> str:
    if not settings.CELERY_BROKER_URL:
        return "not configured"
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as error:  # any failure is what the check reports
        return f"error: {type(error).__name__}"
    return "ok"
