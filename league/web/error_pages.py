"""The error pages of the whole site: problem+json under /api/, pages elsewhere."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.defaults import server_error as django_server_error

from league.api.problems import api_not_found, api_server_error


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: problem+json under /api/, a page elsewhere."""
    if request.path.startswith("/api/"):
        return api_not_found(request, exception)
    return render(request, "404.html", {"path": request.path}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """500: problem+json under /api/, Django's plain page elsewhere."""
    if request.path.startswith("/api/"):
        return api_server_error(request)
    return django_server_error(request)
