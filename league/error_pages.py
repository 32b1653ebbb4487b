"""The error pages of the whole site (the handlers ``config/urls.py`` names):
problem+json under /api/, as :mod:`league.api.problems` shapes it, and pages
elsewhere. Above both ways in, the API and the pages, as it chooses between them."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.defaults import bad_request as django_bad_request
from django.views.defaults import server_error as django_server_error

from league.api.problems import (
    api_bad_request,
    api_not_found,
    api_server_error,
    api_unavailable,
    unavailable_problem,
)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """400 (and 413 for a body too large): problem+json under /api/, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return api_bad_request(request, exception)
    return django_bad_request(request, exception)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: problem+json under /api/, a page elsewhere."""
    if request.path.startswith("/api/"):
        return api_not_found(request, exception)
    return render(request, "404.html", {"path": request.path}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """500: problem+json under /api/, Django's plain page elsewhere; but a
    database error that says "try again" (a lock or statement timeout, no
    connection: :func:`league.db.failure_kind`) is a 503 with ``Retry-After``."""
    unavailable = unavailable_problem(sys.exc_info()[1])  # Django calls this in its except
    if unavailable is not None:
        if request.path.startswith("/api/"):
            return api_unavailable(request, unavailable)
        unreachable = unavailable["type"].endswith("unavailable")
        context = {"problem": unavailable, "unreachable": unreachable}
        page = render(request, "503.html", context, status=503)
        page["Retry-After"] = str(unavailable["retry_after"])
        return page
    if request.path.startswith("/api/"):
        return api_server_error(request)
    return django_server_error(request)
