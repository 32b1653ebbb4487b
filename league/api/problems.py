"""RFC 9457 problem details for every API error.

Every error the API returns is ``application/problem+json`` with ``type``,
``title``, ``status`` and ``detail``; validation errors add ``errors`` (the
fields at fault), and engine rejections add the engine's ``code``, ``hand``,
``play``, ``seat`` and ``card``.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.db import IntegrityError
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler

import games
from league.errors import Conflict, Forbidden, NotFound, PreconditionFailed, ServiceError

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_BASE = "/api/problems/"


def problem(
    status_code: int, title: str, detail: str, *, kind: str, **extra: Any
) -> dict[str, Any]:
    return {
        "type": f"{PROBLEM_BASE}{kind}",
        "title": title,
        "status": status_code,
        "detail": detail,
        **extra,
    }


def problem_response(body: dict[str, Any]) -> Response:
    return Response(body, status=body["status"], content_type=PROBLEM_CONTENT_TYPE)


def _domain_problem(exc: Exception) -> dict[str, Any] | None:
    """The problem for an exception of the engine or the services, if it is one."""
    if isinstance(exc, games.RecordError):
        engine = {k: v for k, v in exc.to_json().items() if k != "message"}
        return problem(
            422,
            "The rules engine refused the record",
            exc.message,
            kind=f"engine/{exc.code}".replace("_", "-"),
            **engine,
        )
    if isinstance(exc, IntegrityError):
        # A constraint refused a write that raced another: the database, not
        # luck, keeps the rule. The client may reload and retry.
        return problem(
            409,
            HTTPStatus(409).phrase,
            "Another change got there first; reload and try again.",
            kind="conflict",
        )
    if isinstance(exc, NotFound):
        return problem(404, HTTPStatus(404).phrase, "Not found.", kind="not-found")
    if isinstance(exc, Forbidden):
        return problem(403, HTTPStatus(403).phrase, exc.message, kind="permission-denied")
    if isinstance(exc, PreconditionFailed):
        return problem(412, HTTPStatus(412).phrase, exc.message, kind="stale-version")
    if isinstance(exc, Conflict):
        extra = {"field": exc.field} if exc.field else {}
        return problem(409, HTTPStatus(409).phrase, exc.message, kind="conflict", **extra)
    if isinstance(exc, ServiceError):
        return problem(
            400,
            HTTPStatus(400).phrase,
            exc.message,
            kind="invalid-input",
            errors={exc.field or "non_field_errors": [exc.message]},
        )
    return None


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler, answering problem+json."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    domain = _domain_problem(exc)
    if domain is not None:
        answer = Response(domain, status=domain["status"])
        _render_as_problem(answer, context)
        return answer
    response = exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(exc, exceptions.ValidationError):
        body = problem(
            response.status_code,
            HTTPStatus(response.status_code).phrase,
            "The request has fields that are missing or wrong; see errors.",
            kind="invalid-input",
            errors=data,
        )
    else:
        detail = data.get("detail", "") if isinstance(data, dict) else str(data)
        code = getattr(exc, "default_code", "error")
        body = problem(
            response.status_code,
            HTTPStatus(response.status_code).phrase,
            str(detail),
            kind=str(code).replace("_", "-"),
        )
    response.data = body
    _render_as_problem(response, context)
    return response


def _render_as_problem(response: Response, context: dict[str, Any]) -> None:
    """An error is problem+json whatever the client accepts (a browser asks
    for HTML, and would otherwise get the browsable API's page)."""
    response.content_type = PROBLEM_CONTENT_TYPE
    request = context.get("request")
    if request is not None:
        request.accepted_renderer = ProblemJSONRenderer()
        request.accepted_media_type = PROBLEM_CONTENT_TYPE


class ProblemJSONRenderer(JSONRenderer):
    media_type = PROBLEM_CONTENT_TYPE
    format = "problem+json"


def api_not_found(request: Any, exception: Exception | None = None) -> JsonResponse:
    """Django's 404 for unknown URLs, as problem+json under /api/."""
    body = problem(
        status.HTTP_404_NOT_FOUND,
        HTTPStatus.NOT_FOUND.phrase,
        f"There is nothing at {request.path}.",
        kind="not-found",
    )
    return JsonResponse(body, status=404, content_type=PROBLEM_CONTENT_TYPE)


def api_server_error(request: Any) -> JsonResponse:
    """Django's 500 under /api/, as problem+json."""
    body = problem(
        status.HTTP_500_INTERNAL_SERVER_ERROR,
        HTTPStatus.INTERNAL_SERVER_ERROR.phrase,
        "The server failed on this request; it has been logged.",
        kind="server-error",
    )
    return JsonResponse(body, status=500, content_type=PROBLEM_CONTENT_TYPE)
