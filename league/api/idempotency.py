"""``Idempotency-Key`` for POSTs: a retry returns the first response.

The key is kept per user (or per table link) with a fingerprint of the request (method, path
and body), for a day (:mod:`league.idempotency`). The same key
with a different request answers 422. The first response is stored in the
same transaction as the change it reports, so a change is never counted
twice: of two concurrent requests with one key, the second waits for the
first, fails to store the key, rolls its change back and answers with the
first response.

A stored response is replayed only to a caller who may still make the
request: the view's ``check_replay_access`` runs the write's own access
check first, so a user removed from a club since is answered 404 or 403 as
any outsider is, not the club's data of then.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable
from typing import Protocol

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response

from league.api.problems import InvalidField
from league.idempotency import idempotency_key_expired
from league.models import IdempotencyKey, TableLink

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 200
KEY_PATTERN = re.compile(r"[\x20-\x7e]+")
"""A key is printable ASCII, as an HTTP header can carry it (no control
characters: PostgreSQL refuses a NUL in text)."""


class ReplayChecked(Protocol):
    """A view whose POST handlers are :func:`idempotent`."""

    def check_replay_access(
        self, request: Request, pk: str | None = None, **kwargs: str
    ) -> None: ...


class KeyReused(exceptions.APIException):
    status_code = 422
    default_detail = gettext_lazy("This Idempotency-Key was used with a different request.")
    default_code = "idempotency_key_reused"


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


REPLAYED_HEADERS = ("ETag", "Location")
"""Headers of the first response that a replay repeats."""


def _replay(
    view: ReplayChecked,
    request: Request,
    args: tuple[str, ...],
    kwargs: dict[str, str],
    stored: IdempotencyKey,
    fingerprint: str,
) -> Response:
    view.check_replay_access(request, *args, **kwargs)
    if stored.fingerprint != fingerprint:
        raise KeyReused()
    return Response(
        stored.body,
        status=stored.status_code,
        headers={**stored.headers, "Idempotent-Replayed": "true"},
    )


def _owner(request: Request) -> dict[str, object] | None:
    """Whose keys the request's is among: a signed-in user's, or a table
    link's (every phone at the table shares them); ``None`` for an anonymous
    request, which is not made idempotent (it may write nothing)."""
    if isinstance(request.auth, TableLink):
        return {"table_link": request.auth}
    if request.user.is_authenticated:
        return {"user": request.user}
    return None


def idempotent(handler: Callable[..., Response]) -> Callable[..., Response]:
    """Wrap a view's POST handler with ``Idempotency-Key`` support.

    The view has ``check_replay_access(request, *args, **kwargs)``: the
    handler's access check, run before a stored response is replayed.
    """

    @functools.wraps(handler)
    # a view's URL arguments: the text its URL pattern's groups matched
    def wrapper(self: ReplayChecked, request: Request, *args: str, **kwargs: str) -> Response:
        key = request.headers.get(HEADER)
        owner = _owner(request)
        if not key or owner is None:
            return handler(self, request, *args, **kwargs)
        if len(key) > MAX_KEY_LENGTH:
            raise InvalidField(
                HEADER,
                ngettext(
                    "at most %(count)d character", "at most %(count)d characters", MAX_KEY_LENGTH
                )
                % {"count": MAX_KEY_LENGTH},
            )
        if not KEY_PATTERN.fullmatch(key):
            raise InvalidField(HEADER, _("printable ASCII characters only"))
        fingerprint = _fingerprint(request)
        stored = IdempotencyKey.objects.filter(**owner, key=key).first()
        if stored is not None and idempotency_key_expired(stored):
            stored.delete()  # kept a day: the same key now starts a new request
            stored = None
        if stored is not None:
            return _replay(self, request, args, kwargs, stored, fingerprint)
        try:
            with transaction.atomic():
                # Claim the key before doing the work: a concurrent request with
                # the same key waits here until this one commits, then fails on
                # the unique key and replays this response.
                claim = IdempotencyKey.objects.create(
                    **owner, key=key, fingerprint=fingerprint, status_code=0, body={}
                )
                response = handler(self, request, *args, **kwargs)
                if response.status_code >= 400:
                    transaction.set_rollback(True)  # a refusal changes nothing
                else:
                    claim.status_code = response.status_code
                    claim.body = json.loads(json.dumps(response.data, default=str))
                    claim.headers = {h: response[h] for h in REPLAYED_HEADERS if h in response}
                    claim.save(update_fields=["status_code", "body", "headers"])
        except IntegrityError:
            stored = IdempotencyKey.objects.filter(**owner, key=key).first()
            if stored is None:
                raise
            return _replay(self, request, args, kwargs, stored, fingerprint)
        return response

    return wrapper
