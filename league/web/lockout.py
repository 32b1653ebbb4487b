"""Too many wrong passwords: what django-axes asks of the site.

django-axes counts the failed logins of a username from an address and,
past ``AXES_FAILURE_LIMIT``, refuses that username from that address for
``AXES_COOLOFF_TIME`` (``config/settings/base.py``). This module tells it
the client's address (:func:`client_ip`) and answers a refused login
(:func:`lockout_response`): the login page again, saying why and for how
long, with 429.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: from ``CLIENT_IP_HEADER`` where the settings
    name one (the production settings: the proxy in front replaces the
    header with the address it saw, and nothing but the proxy reaches the
    web process), else the connection's own; ``None`` when neither is known
    (a request made in code, as ``force_login`` makes), which django-axes
    stores as no address.

    The header's last address is the one the proxy added, should a client's
    own value have been kept before it.
    """
    header = getattr(settings, "CLIENT_IP_HEADER", None)
    if header:
        forwarded = str(request.META.get(header, "")).split(",")[-1].strip()
        if forwarded:
            return forwarded
    return str(request.META.get("REMOTE_ADDR") or "") or None


def cool_off_minutes() -> int:
    """How long a lockout lasts, in whole minutes (rounded up)."""
    return max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """The login page, saying that this username is locked out from here for
    a while (429); the same page for the site's login and the admin's."""
    username = ""
    if isinstance(credentials, dict):
        username = str(credentials.get("username") or "")
    form = AuthenticationForm(request, initial={"username": username})
    shown = {
        "form": form,
        "locked_out": True,
        "locked_username": username,
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "cool_off_minutes": cool_off_minutes(),
        "next": _next(request),
    }
    return render(request, "registration/login.html", shown, status=429)


def _next(request: HttpRequest) -> str:
    """Where the login page sends the user once they log in: where they were
    going, or the admin's index from the admin's login."""
    wanted = str(request.POST.get("next") or request.GET.get("next") or "")
    if not wanted and request.path.startswith(reverse("admin:index")):
        return reverse("admin:index")
    return wanted
