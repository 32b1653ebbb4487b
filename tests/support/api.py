"""API clients, RFC 9457 problem checks and ETags."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.http import HttpResponse
from rest_framework.test import APIClient

from league.models import Table

PROBLEM = "application/problem+json"


def client_for(user: AbstractUser | None = None, *, crash_as_500: bool = False) -> APIClient:
    """An API client signed in as ``user`` (anonymous without one), speaking JSON.

    With ``crash_as_500`` an exception in a view is answered as the server
    would answer it (a 500) instead of being raised into the test.
    """
    client = APIClient(raise_request_exception=not crash_as_500)
    client.default_format = "json"
    if user is not None:
        client.force_authenticate(user)
    return client


def assert_problem(response: HttpResponse, status: int) -> dict[str, Any]:
    """The body of an RFC 9457 problem response with ``status``."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert response["Content-Type"] == PROBLEM
    body = json.loads(response.content)
    assert body["status"] == status
    for field in ("type", "title", "detail"):
        assert isinstance(body[field], str), field
        assert body[field], field
    assert body["type"].startswith("/api/problems/")
    return body


def etag(table: Table) -> str:
    """The ETag the API gives ``table`` as it is stored now."""
    table.refresh_from_db()
    return f'"table-{table.pk}-v{table.version}"'
