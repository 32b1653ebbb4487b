"""Too many wrong passwords: what django-axes asks of the site.

django-axes counts the failed logins of the login page and the admin's (the
settings' ``AXES_*``). Three counts, each over the last ``AXES_COOLOFF_TIME``,
pause logging in for that long, the right password too (:class:`LoginThrottle`):

- a username from one address: ``AXES_FAILURE_LIMIT`` (5) wrong passwords,
  someone guessing at one login;
- a username from anywhere: ``LOGIN_USERNAME_FAILURE_LIMIT`` (20), the same
  guessing spread over many addresses;
- an address whatever the username: ``LOGIN_ADDRESS_FAILURE_LIMIT`` (30), one
  address trying a few passwords at each of many logins (a spray).

The last two would let anyone lock a user out from everywhere, and one
person's typos lock out everyone behind a shared address (a club's wifi, a
NAT), so they spare a username at an address it has logged in from before
(django-axes' access log, kept 30 days: operations.md): the user at home or at
the club goes on logging in while a stranger guesses, and only the first count
holds there. A login that succeeds clears the first count alone: a success from
an address does not hide the failures of other logins there, nor of the same
login elsewhere. A new password (a reset link) clears every count of the
username (:func:`league.services.accounts.login_password_changed`).

django-axes takes the client's address from
:func:`league.client_address.client_ip`, which trusts ``X-Forwarded-For`` only
through ``TRUSTED_PROXIES`` proxies. This module answers a refused login
(:func:`lockout_response`): the login page again, saying which count paused it,
for how long and what to do, with 429.
"""

from __future__ import annotations

import enum
import math

from axes.attempts import get_cool_off_threshold  # type: ignore[import-untyped]
from axes.handlers.database import AxesDatabaseHandler  # type: ignore[import-untyped]
from axes.helpers import get_client_username  # type: ignore[import-untyped]
from axes.models import AccessAttempt, AccessLog  # type: ignore[import-untyped]
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse


class Pause(enum.Enum):
    """Which count paused a login (see the module's docstring)."""

    HERE = "here"
    """A username from this address."""
    USERNAME = "username"
    """A username from anywhere."""
    ADDRESS = "address"
    """This address, whatever the username."""


class LoginThrottle(AxesDatabaseHandler):
    """django-axes' database handler with the three counts of the module's
    docstring, each with its own limit (django-axes has one limit for all its
    lockout parameters)."""

    def get_failures(
        self, request: HttpRequest, credentials: dict[str, object] | None = None
    ) -> int:
        """The failures that count against ``AXES_FAILURE_LIMIT``: those of
        the username from this address, or the limit itself when a wider
        count pauses the login."""
        here, pause = self.counted(request, credentials)
        return settings.AXES_FAILURE_LIMIT if pause is not None else here

    def counted(
        self, request: HttpRequest, credentials: dict[str, object] | None = None
    ) -> tuple[int, Pause | None]:
        """The failures of the username from this address, and which count,
        if any, pauses the login now."""
        username = get_client_username(request, credentials)
        address = getattr(request, "axes_ip_address", None)
        recent = AccessAttempt.objects.filter(attempt_time__gte=get_cool_off_threshold(request))
        here = _failures(recent.filter(username=username, ip_address=address))
        if here >= settings.AXES_FAILURE_LIMIT:
            return here, Pause.HERE
        wider = []
        if username:
            wider.append((Pause.USERNAME, {"username": username}, "LOGIN_USERNAME_FAILURE_LIMIT"))
        if address:
            wider.append((Pause.ADDRESS, {"ip_address": address}, "LOGIN_ADDRESS_FAILURE_LIMIT"))
        for pause, which, limit in wider:
            if _failures(recent.filter(**which)) >= getattr(settings, limit):
                known = AccessLog.objects.filter(username=username, ip_address=address)
                return here, None if username and address and known.exists() else pause
        return here, None

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, object] | None = None
    ) -> int:
        """After a login succeeds: clear the failures of that username from
        that address only (see the module's docstring)."""
        username = get_client_username(request, credentials)
        address = getattr(request, "axes_ip_address", None)
        deleted, _ = AccessAttempt.objects.filter(username=username, ip_address=address).delete()
        return int(deleted)


def _failures(attempts: QuerySet[AccessAttempt]) -> int:
    return int(attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0)


def cool_off_minutes() -> int:
    """How long a lockout lasts, in whole minutes (rounded up)."""
    return max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, object] | None = None,
) -> HttpResponse:
    """The login page, saying which count paused logging in, for how long and
    what to do (429); the same page for the site's login and the admin's."""
    username = ""
    if isinstance(credentials, dict):
        username = str(credentials.get("username") or "")
    _here, pause = LoginThrottle().counted(request, credentials)
    form = AuthenticationForm(request, initial={"username": username})
    shown = {
        "form": form,
        "locked_out": True,
        "pause": (pause or Pause.HERE).value,
        "locked_username": username,
        "failure_limit": {
            Pause.USERNAME: settings.LOGIN_USERNAME_FAILURE_LIMIT,
            Pause.ADDRESS: settings.LOGIN_ADDRESS_FAILURE_LIMIT,
        }.get(pause or Pause.HERE, settings.AXES_FAILURE_LIMIT),
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
