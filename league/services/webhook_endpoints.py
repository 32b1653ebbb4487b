"""Webhook endpoints: a club's, made and changed by its organisers.

An organiser registers an endpoint (a URL and the events it wants) and is
given its secret once (:func:`webhook_endpoint_create`); they may change its
URL and events, turn it off and on, send it a test ping, or delete it. The
events the league sends the endpoints are :mod:`league.webhook_events`; how
deliveries are sent, signed and retried is :mod:`league.webhook_delivery`.

Locks: an endpoint, then its deliveries, and nothing else (the order of every
webhook lock is in :mod:`league.webhook_events`).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from django.db import transaction
from django.utils.translation import gettext

from league import webhook_delivery
from league.errors import Conflict, ServiceError
from league.models import Club, JobOwed, WebhookDelivery, WebhookEndpoint, WebhookEvent
from league.users import SiteUser
from league.webhook_events import SUBSCRIBABLE, webhook_deliveries_owe

MAX_ENDPOINTS: Final = 10
"""The most endpoints a club may have: each event is sent to every one."""


@dataclass(frozen=True)
class NewWebhookEndpoint:
    """An endpoint just made, and its secret: the only time it is shown."""

    endpoint: WebhookEndpoint
    secret: str


# -- the endpoints -------------------------------------------------------------------------


def check_events(events: Iterable[str]) -> list[str]:
    """The events subscribed to, each once, in a fixed order; a
    :class:`ServiceError` (``events``) for none or an unknown one."""
    chosen = list(dict.fromkeys(events))
    unknown = [e for e in chosen if e not in SUBSCRIBABLE]
    if unknown:
        known = ", ".join(SUBSCRIBABLE)
        raise ServiceError(
            gettext("unknown event %(unknown)s: choose from %(known)s")
            % {"unknown": repr(unknown[0]), "known": known},
            field="events",
        )
    if not chosen:
        raise ServiceError(gettext("choose at least one event"), field="events")
    return [e.value for e in SUBSCRIBABLE if e in chosen]


@transaction.atomic
def webhook_endpoint_create(
    *, club: Club, url: str, events: Iterable[str], by: SiteUser | None = None
) -> NewWebhookEndpoint:
    """Register ``url`` for the club's ``events``, on behalf of ``by`` (an
    organiser of the club: the caller checks). The secret is made here and
    returned once. Errors: :class:`ServiceError` for a URL the league will
    not send to (``url``, see :func:`league.webhook_delivery.check_url`) or no or
    unknown events; :class:`Conflict` for a URL the club has already, or a
    club at :data:`MAX_ENDPOINTS`."""
    url = webhook_delivery.check_url(url)
    chosen = check_events(events)
    # one count at a time; NO KEY: rows that refer to the club may still be made
    Club.objects.select_for_update(no_key=True).get(pk=club.pk)
    if WebhookEndpoint.objects.filter(club=club).count() >= MAX_ENDPOINTS:
        raise Conflict(
            gettext("a club has at most %(max_endpoints)s webhook endpoints")
            % {"max_endpoints": MAX_ENDPOINTS},
            field="url",
        )
    if WebhookEndpoint.objects.filter(club=club, url=url).exists():
        raise Conflict(gettext("the club has an endpoint at this URL already"), field="url")
    secret = "whsec_" + secrets.token_urlsafe(32)
    endpoint = WebhookEndpoint.objects.create(
        club=club,
        url=url,
        events=chosen,
        secret=secret,
        created_by=by if by is not None and by.is_authenticated else None,
    )
    return NewWebhookEndpoint(endpoint=endpoint, secret=secret)


@transaction.atomic
def webhook_endpoint_update(
    *,
    endpoint: WebhookEndpoint,
    url: str | None = None,
    events: Iterable[str] | None = None,
    active: bool | None = None,
) -> WebhookEndpoint:
    """Change an endpoint's URL or events, or turn it off or on (``None``:
    unchanged). Turning it off fails its pending deliveries; turning it on
    clears why it was disabled and its count of failures. Errors as
    :func:`webhook_endpoint_create`."""
    endpoint = WebhookEndpoint.objects.select_for_update(no_key=True).get(pk=endpoint.pk)
    fields: list[str] = []
    if url is not None:
        url = webhook_delivery.check_url(url)
        if WebhookEndpoint.objects.filter(club_id=endpoint.club_id, url=url).exclude(
            pk=endpoint.pk
        ):
            raise Conflict(gettext("the club has an endpoint at this URL already"), field="url")
        endpoint.url = url
        fields.append("url")
    if events is not None:
        endpoint.events = check_events(events)
        fields.append("events")
    if fields:
        endpoint.save(update_fields=fields)
    if active is False and endpoint.active:
        webhook_delivery.endpoint_disable(endpoint)
    elif active is True and not endpoint.active:
        endpoint.active = True
        endpoint.disabled_at = None
        endpoint.disabled_reason = ""
        endpoint.consecutive_failures = 0
        endpoint.save(
            update_fields=["active", "disabled_at", "disabled_reason", "consecutive_failures"]
        )
    return endpoint


@transaction.atomic
def webhook_endpoint_delete(*, endpoint: WebhookEndpoint) -> None:
    """Delete an endpoint, its deliveries, and the jobs owed to them."""
    endpoint = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
    ids = list(endpoint.deliveries.values_list("pk", flat=True))
    JobOwed.objects.filter(kind=JobOwed.Kind.WEBHOOK, target_id__in=ids).delete()
    endpoint.delete()


@transaction.atomic
def webhook_ping(*, endpoint: WebhookEndpoint) -> WebhookDelivery:
    """Send the endpoint a ``ping`` (its payload names the endpoint), as any
    delivery is sent: after this commits, with retries. A :class:`Conflict`
    for an endpoint that is off."""
    endpoint = WebhookEndpoint.objects.select_for_update(no_key=True).get(pk=endpoint.pk)
    if not endpoint.active:
        raise Conflict(gettext("the endpoint is off: turn it on first"), field="active")
    deliveries = webhook_deliveries_owe(
        [endpoint], WebhookEvent.PING, {"endpoint": endpoint.pk, "url": endpoint.url}
    )
    return deliveries[0]
