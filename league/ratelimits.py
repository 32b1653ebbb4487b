"""How many requests a table link, a password reset and an invitation may
make, counted by django-ratelimit.

A link is a secret anyone at the table may pass on, so what it may do is
bounded by a rate: ``TABLE_LINK_RATE`` requests a window for one link (all its
phones together, whatever they ask), and ``TABLE_LINK_REFUSED_RATE`` refused
links a window from one address (a made-up, expired or revoked secret), past
which that address is answered 429 before any secret it sends is looked up.

A player's personal link (:mod:`league.services.replies`) is bounded alike:
``PERSONAL_LINK_RATE`` requests a window for one link, and its refusals count
with the table links' against the address (``TABLE_LINK_REFUSED_RATE``: one
count of secrets guessed, whichever kind). An organiser mails at most
``PERSONAL_LINK_MAIL_RATE`` personal links a window.

A password reset mails whoever has the address typed: ``PASSWORD_RESET_RATE``
resets a window from one client address, and ``PASSWORD_RESET_EMAIL_RATE`` for
one email address (whatever its case, from anywhere: so for one account), past
which the form is answered 429. The second counts the address typed, whether or
not a login has it, so being refused tells nothing either. An organiser makes
at most ``INVITATION_RATE`` invitations a window.

The counts live in the cache (the settings' ``CACHES``).

A cache that fails (Redis down or silent, each call bounded to a second by the
settings) lets the request through, logged: the limit guards against a link
passed around, not the results, and a club night goes on without it.
"""

from __future__ import annotations

import logging
from typing import TypedDict

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import get_usage  # type: ignore[import-untyped]

from league.client_address import client_ip

logger = logging.getLogger(__name__)


def link_over_limit(request: HttpRequest, link_id: int) -> bool:
    """Count one request of link ``link_id``; whether it is over ``TABLE_LINK_RATE``."""
    return _over(request, "table-link", f"link:{link_id}", settings.TABLE_LINK_RATE, count=True)


def personal_link_over_limit(request: HttpRequest, link_id: int) -> bool:
    """Count one request of personal link ``link_id``; whether it is over
    ``PERSONAL_LINK_RATE``."""
    return _over(
        request, "personal-link", f"link:{link_id}", settings.PERSONAL_LINK_RATE, count=True
    )


def personal_link_mails_over_limit(request: HttpRequest, *, mails: int) -> bool:
    """Count ``mails`` personal links about to be mailed by the signed-in
    organiser; whether that takes them over ``PERSONAL_LINK_MAIL_RATE`` (the
    ones counted before the limit was reached are counted all the same)."""
    sender = f"user:{request.user.pk}"
    over = False
    for _ in range(mails):
        over = _over(
            request, "personal-link-mail", sender, settings.PERSONAL_LINK_MAIL_RATE, count=True
        )
        if over:
            break
    return over


def refused_over_limit(request: HttpRequest, *, count: bool) -> bool:
    """Whether the client's address is over ``TABLE_LINK_REFUSED_RATE``
    refused links, counting one more when ``count`` (a link was just refused)."""
    address = f"address:{client_ip(request) or 'unknown'}"
    return _over(
        request, "table-link-refused", address, settings.TABLE_LINK_REFUSED_RATE, count=count
    )


def password_reset_over_limit(request: HttpRequest, *, email: str) -> bool:
    """Count one password reset asked for ``email`` from the client's address;
    whether either is over its rate (``PASSWORD_RESET_RATE``,
    ``PASSWORD_RESET_EMAIL_RATE``). An address over its rate is refused
    without counting the email."""
    address = f"address:{client_ip(request) or 'unknown'}"
    if _over(request, "password-reset", address, settings.PASSWORD_RESET_RATE, count=True):
        return True
    wanted = f"email:{email.casefold()}"
    return _over(
        request, "password-reset-email", wanted, settings.PASSWORD_RESET_EMAIL_RATE, count=True
    )


def invitation_over_limit(request: HttpRequest) -> bool:
    """Count one invitation made by the signed-in user; whether they are over
    ``INVITATION_RATE``."""
    inviter = f"user:{request.user.pk}"
    return _over(request, "invitation", inviter, settings.INVITATION_RATE, count=True)


class Usage(TypedDict):
    """What django-ratelimit's ``get_usage`` answers of a rate (it ships no types)."""

    count: int
    limit: int
    should_limit: bool
    time_left: int


def _over(request: HttpRequest, group: str, key: str, rate: str, *, count: bool) -> bool:
    try:
        usage: Usage | None = get_usage(
            request, group=group, key=lambda _group, _request: key, rate=rate, increment=count
        )
    except Exception as error:  # the cache failed: the limit is not applied (see above)
        logger.warning("rate limit %s not applied: the cache failed (%s)", group, error)
        return False
    if usage is None:
        return False
    # counted, the request is over once the count passes the limit; looked at
    # without counting, it is over once the count has reached it
    return bool(usage["should_limit"] if count else usage["count"] >= usage["limit"])
