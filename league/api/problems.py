"""RFC 9457 problem details for every API error.

Every error the API returns is ``application/problem+json`` with ``type``,
``title``, ``status`` and ``detail``; validation errors add ``errors`` (the
fields at fault), and engine rejections add the engine's ``code``, ``hand``,
``play``, ``seat`` and ``card``.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import IntegrityError
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler

import games
from league import db
from league.errors import Conflict, Forbidden, NotFound, PreconditionFailed, ServiceError

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_BASE = "/api/problems/"

Problem = dict[str, Any]
"""A problem's JSON object: ``type``, ``title``, ``status`` and ``detail``, and the
members a kind of problem adds, whose values are JSON of the shapes they have
(``errors``: DRF's errors of the input, nested as its fields are)."""


def problem(status_code: int, title: str, detail: str, *, kind: str, **extra: object) -> Problem:
    return {
        "type": f"{PROBLEM_BASE}{kind}",
        "title": title,
        "status": status_code,
        "detail": detail,
        **extra,
    }


# A problem's detail follows the request's Accept-Language (league/web/languages.py);
# its type, title and codes stay English, for programs to compare (docs/api.md).
GENERIC_INVALID = gettext_lazy("The request has fields that are missing or wrong; see errors.")


class InvalidField(exceptions.ValidationError):
    """A 400 about one field, header or query parameter whose problem
    ``detail`` says what is wrong (a plain ``ValidationError``'s says "see
    errors"); ``errors`` names the field as for any invalid input."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__({field: [message]})
        self.problem_detail = f"{field}: {message}"


def too_large_problem() -> Problem:
    """413: a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, refused unread."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return problem(
        413,
        HTTPStatus(413).phrase,
        gettext("The request body is larger than the %(limit)s bytes the API takes.")
        % {"limit": limit},
        kind="too-large",
        max_bytes=limit,
    )


def unavailable_problem(exc: BaseException | None) -> Problem | None:
    """The 503 problem for a database error that says "try again" (a lock or
    statement timeout, a deadlock that outlived its retries, no connection;
    see :func:`league.db.failure_kind`), with ``retry_after`` in seconds, the
    answer's ``Retry-After``; ``None`` for any other error."""
    failure = db.failure_kind(exc)
    if failure is None:
        return None
    detail = {
        db.Failure.CONFLICT: gettext(
            "The change collided with others at the same moment and "
            "nothing was stored; send it again."
        ),
        db.Failure.BUSY: gettext(
            "The database is busy with what this request needs (another "
            "change holds it); nothing was stored. Try again in a moment."
        ),
        db.Failure.UNAVAILABLE: gettext("The database cannot be reached; try again shortly."),
    }[failure]
    return problem(
        503,
        HTTPStatus(503).phrase,
        detail,
        kind=f"database-{failure.value}",
        retry_after=db.RETRY_AFTER[failure],
    )


def _domain_problem(exc: Exception) -> Problem | None:
    """The problem for an exception of the engine or the services, if it is one."""
    unavailable = unavailable_problem(exc)
    if unavailable is not None:
        return unavailable
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
            gettext("Another change got there first; reload and try again."),
            kind="conflict",
        )
    if isinstance(exc, NotFound):
        return problem(404, HTTPStatus(404).phrase, gettext("Not found."), kind="not-found")
    if isinstance(exc, RequestDataTooBig):
        return too_large_problem()
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return problem(400, HTTPStatus(400).phrase, str(exc), kind="too-many-fields")
    if isinstance(exc, Forbidden):
        return problem(403, HTTPStatus(403).phrase, exc.message, kind="permission-denied")
    if isinstance(exc, PreconditionFailed):
        return problem(412, HTTPStatus(412).phrase, exc.message, kind="stale-version")
    if isinstance(exc, Conflict):
        extra = {"field": exc.field} if exc.field else {}
        if exc.code:
            extra["code"] = exc.code
        # a refusal that names what it clashes with (a name's player: its id)
        extra.update(getattr(exc, "problem_fields", {}))
        return problem(409, HTTPStatus(409).phrase, exc.message, kind="conflict", **extra)
    if isinstance(exc, ServiceError):
        return problem(
            400,
            HTTPStatus(400).phrase,
            exc.message,
            kind="invalid-input",
            errors={exc.field or "non_field_errors": [exc.message]},
            **({"code": exc.code} if exc.code else {}),
        )
    return None


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler, answering problem+json."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    domain = _domain_problem(exc)
    if domain is not None:
        answer = Response(domain, status=domain["status"])
        if "retry_after" in domain:
            answer["Retry-After"] = str(domain["retry_after"])
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
            str(getattr(exc, "problem_detail", GENERIC_INVALID)),
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


def api_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """Django's 404 for unknown URLs, as problem+json under /api/."""
    body = problem(
        status.HTTP_404_NOT_FOUND,
        HTTPStatus.NOT_FOUND.phrase,
        gettext("There is nothing at %(path)s.") % {"path": request.path},
        kind="not-found",
    )
    return JsonResponse(body, status=404, content_type=PROBLEM_CONTENT_TYPE)


def api_bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """Django's 400 under /api/ (a request refused before any view: a body
    too large, too many form fields, a host not allowed), as problem+json."""
    if isinstance(exception, RequestDataTooBig):
        body = too_large_problem()
    else:
        body = problem(
            status.HTTP_400_BAD_REQUEST,
            HTTPStatus.BAD_REQUEST.phrase,
            gettext("The request was refused before it reached the API."),
            kind="bad-request",
        )
    return JsonResponse(body, status=body["status"], content_type=PROBLEM_CONTENT_TYPE)


def api_unavailable(request: HttpRequest, body: Problem) -> JsonResponse:
    """A 503 problem (:func:`unavailable_problem`) outside DRF's views, with ``Retry-After``."""
    answer = JsonResponse(body, status=503, content_type=PROBLEM_CONTENT_TYPE)
    answer["Retry-After"] = str(body["retry_after"])
    return answer


def api_server_error(request: HttpRequest) -> JsonResponse:
    """Django's 500 under /api/, as problem+json."""
    body = problem(
        status.HTTP_500_INTERNAL_SERVER_ERROR,
        HTTPStatus.INTERNAL_SERVER_ERROR.phrase,
        gettext("The server failed on this request; it has been logged."),
        kind="server-error",
    )
    return JsonResponse(body, status=500, content_type=PROBLEM_CONTENT_TYPE)
