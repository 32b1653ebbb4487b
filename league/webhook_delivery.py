"""Webhook deliveries: how an event reaches a club's endpoint, signed, with
retries, and what is kept of each attempt.

The services record a delivery (a :class:`~league.models.WebhookDelivery`
row, ``pending``) and owe its job (a :class:`~league.models.JobOwed` row of
kind ``webhook``) in the transaction of the change it tells of
(:func:`league.webhook_events.webhooks_emit`), so a change rolled back
sends nothing, and the job is sent once the change commits. The job,
:func:`webhook_deliver`, runs :func:`deliver`:

1. **Claim**, in a short transaction holding the endpoint's row, then the
   delivery's: a delivery that is no longer pending, or not due yet, is left
   as it is (so the job is safe to run twice, at once too: the second finds
   the first's claim). Claiming counts the attempt and moves
   ``next_attempt_at`` (and the job's ``owed_since``) :data:`CLAIM_LEASE`
   ahead: if the worker dies mid-request, the sweep sends the job again then.
2. **POST**, outside any transaction, with bounded timeouts
   (:data:`TIMEOUT`), no redirect followed, no proxy from the environment.
   Unless ``WEBHOOKS_ALLOW_PRIVATE_ADDRESSES`` is set, the host's addresses
   are resolved first, every one must be public, and the request goes to the
   address checked (the name kept for TLS and ``Host``), so a name that
   resolves to a public address when checked and to a private one when
   connecting (DNS rebinding) reaches nothing private.
3. **Record** the outcome, again under both rows. A 2xx answer delivers it,
   clears the job and the endpoint's count of failures. Anything else (an
   error status, a redirect, a timeout, a refused connection) is a failed
   attempt: the delivery is due again after the next of :data:`RETRY_DELAYS`
   (the job's ``owed_since`` moves there too, so the outbox's sweep sends it
   then: the sweep is what retries), or, after :data:`MAX_ATTEMPTS`,
   ``failed``. After :data:`DISABLE_AFTER` failed attempts in a row, across
   its deliveries, the endpoint is disabled, with the reason kept for the
   organiser, and its pending deliveries fail.

Each attempt is signed afresh (:func:`signature`): ``Webhook-Signature:
v1=<hex HMAC-SHA256 of "<timestamp>.<body>" under the endpoint's secret>``
with the ``Webhook-Timestamp`` it covers; ``Webhook-Id`` is the event's id,
the same in every attempt and every endpoint's delivery of the event.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import ipaddress
import json
import logging
import socket
import time
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

import httpx
from celery import shared_task
from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import Case, F, QuerySet, TextField, Value, When
from django.utils import timezone

from league import outbox
from league.errors import ServiceError
from league.models import JobOwed, WebhookDelivery, WebhookEndpoint

logger = logging.getLogger(__name__)

TIMEOUT = httpx.Timeout(5.0, connect=3.0)
"""Seconds to connect (3), and for each read and write (5): a receiver
that answers later is a failed attempt."""
CLAIM_LEASE: Final = datetime.timedelta(seconds=90)
"""How long a claimed attempt holds its delivery: longer than an attempt
can take (the task's hard time limit is 60 s), so that a second run of the
job finds the claim, and short enough that a worker's death delays the
retry little."""
RETRY_DELAYS: Final = (
    datetime.timedelta(minutes=1),
    datetime.timedelta(minutes=5),
    datetime.timedelta(minutes=30),
    datetime.timedelta(hours=2),
    datetime.timedelta(hours=6),
)
"""The wait after the first, second, ... failed attempt of a delivery."""
MAX_ATTEMPTS: Final = len(RETRY_DELAYS) + 1
"""Attempts made before a delivery is ``failed``: 6, over about 8 h 36 min."""
DISABLE_AFTER: Final = 15
"""Failed attempts in a row (across an endpoint's deliveries, reset by any
success) after which the endpoint is disabled."""
SIGNATURE_VERSION: Final = "v1"
USER_AGENT: Final = "card-league-webhooks/1"
MAX_ERROR: Final = 500
"""The longest ``last_error`` kept."""


# -- signing ----------------------------------------------------------------------------


def signature(*, secret: str, timestamp: int, body: bytes) -> str:
    """The ``Webhook-Signature`` header of ``body`` sent at ``timestamp``
    (Unix seconds): ``v1=`` and the hex HMAC-SHA256, under ``secret``, of the
    timestamp, a full stop and the body, byte for byte::

        >>> signature(secret="s3cret", timestamp=1700000000, body=b'{"id":"x"}')
        'v1=2382c1d0968a5e57238c68de957f44d87e83d3049a5588ec251442ca372b8aec'
    """
    signed = f"{timestamp}.".encode() + body
    digest = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return f"{SIGNATURE_VERSION}={digest}"


def envelope(delivery: WebhookDelivery, *, club_id: int) -> bytes:
    """The body of a delivery: the event's id, type, time and club, and its
    payload (``data``), as compact JSON with sorted keys; the same bytes in
    every attempt."""
    body = {
        "id": str(delivery.event_id),
        "type": delivery.event,
        "created_at": delivery.created_at.isoformat(),
        "club": club_id,
        "data": delivery.payload,
    }
    return json.dumps(body, separators=(",", ":"), sort_keys=True).encode()


# -- where a delivery may go -------------------------------------------------------------


def private_allowed() -> bool:
    """Whether deliveries may go to loopback and private addresses (the
    ``WEBHOOKS_ALLOW_PRIVATE_ADDRESSES`` setting: off in production)."""
    return bool(getattr(settings, "WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", False))


REFUSED_IPV4: Final = tuple(
    ipaddress.IPv4Network(network)
    for network in (
        "0.0.0.0/8",  # "this network"
        "10.0.0.0/8",  # private
        "100.64.0.0/10",  # shared (carrier-grade NAT)
        "127.0.0.0/8",  # loopback
        "169.254.0.0/16",  # link-local: the cloud metadata address 169.254.169.254
        "172.16.0.0/12",  # private
        "192.0.0.0/24",  # IETF protocol assignments
        "192.0.2.0/24",  # documentation
        "192.88.99.0/24",  # 6to4 relays, deprecated (RFC 7526)
        "192.168.0.0/16",  # private
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",  # documentation
        "203.0.113.0/24",  # documentation
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, and the broadcast address
    )
)
"""IPv4 networks a delivery never reaches: the special-purpose ranges of
IANA's registry that are not globally reachable, and the deprecated ones."""

GLOBAL_UNICAST_IPV6: Final = ipaddress.IPv6Network("2000::/3")
"""The only IPv6 addresses a delivery may reach outside an IPv4 address in
IPv6 form: everything else (loopback, unique local ``fc00::/7``, link-local,
the deprecated site-local ``fec0::/10``, multicast, discard ``100::/64``,
local-use NAT64 ``64:ff9b:1::/48``, SRv6 ``5f00::/16``...) is not global."""

REFUSED_IPV6: Final = tuple(
    ipaddress.IPv6Network(network)
    for network in (
        "2001::/23",  # IETF protocol assignments: Teredo, benchmarking, ORCHID
        "2001:db8::/32",  # documentation
        "3ffe::/16",  # the 6bone, returned (RFC 3701)
        "3fff::/20",  # documentation (RFC 9637)
    )
)
"""IPv6 networks inside :data:`GLOBAL_UNICAST_IPV6` a delivery never reaches."""

NAT64_IPV6: Final = ipaddress.IPv6Network("64:ff9b::/96")
"""NAT64's well-known prefix (RFC 6052): the last 32 bits are an IPv4
address, reached through the network's translator."""
COMPATIBLE_IPV6: Final = ipaddress.IPv6Network("::/96")
"""IPv4-compatible addresses (deprecated, RFC 4291): ``::a.b.c.d``."""
TRANSLATED_IPV6: Final = ipaddress.IPv6Network("::ffff:0:0:0/96")
"""IPv4-translated addresses (RFC 2765): ``::ffff:0:a.b.c.d``."""


def embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address ``ip`` stands for, when it is one in IPv6 form:
    IPv4-mapped (``::ffff:a.b.c.d``), IPv4-translated, IPv4-compatible,
    NAT64 (``64:ff9b::a.b.c.d``) or 6to4 (``2002:aabb:ccdd::/48``); ``None``
    otherwise. Such an address reaches the IPv4 one (through the host's
    dual stack, a tunnel or a translator), so it is judged by it::

        >>> [str(embedded_ipv4(ipaddress.IPv6Address(a))) for a in
        ...  ("::ffff:7f00:1", "::ffff:0:a00:1", "::a9fe:a9fe", "64:ff9b::808:808",
        ...   "2002:c0a8:101::1", "2606:4700::1111")]
        ['127.0.0.1', '10.0.0.1', '169.254.169.254', '8.8.8.8', '192.168.1.1', 'None']
    """
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if any(ip in network for network in (TRANSLATED_IPV6, COMPATIBLE_IPV6, NAT64_IPV6)):
        return ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
    return None


def is_public(address: str) -> bool:
    """Whether ``address`` is a public unicast address, one a delivery may
    reach. Loopback, private, link-local, shared, reserved, documentation,
    deprecated and multicast addresses are not; an IPv6 address outside
    global unicast (``2000::/3``) is not; an IPv4 address in IPv6 form is
    public only if the IPv4 address is (:func:`embedded_ipv4`). The tables
    are the league's own (:data:`REFUSED_IPV4`, :data:`REFUSED_IPV6`), and
    Python's ``is_global`` must agree too: its list differs between Python
    versions, and calls some of these forms public::

        >>> [is_public(a) for a in ("93.184.215.14", "127.0.0.1", "10.1.2.3", "169.254.169.254")]
        [True, False, False, False]
        >>> [is_public(a) for a in ("::1", "::ffff:127.0.0.1", "fd00::1", "2606:4700::1111")]
        [False, False, False, True]
        >>> [is_public(a) for a in ("64:ff9b::a9fe:a9fe", "::127.0.0.1", "2002:7f00:1::")]
        [False, False, False]
        >>> [is_public(a) for a in ("::ffff:0:7f00:1", "fec0::1", "64:ff9b:1::1")]
        [False, False, False]
        >>> [is_public(a) for a in ("64:ff9b::808:808", "2002:808:808::1")]
        [True, True]
    """
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        ipv4 = embedded_ipv4(ip)
        if ipv4 is None:
            return (
                ip in GLOBAL_UNICAST_IPV6
                and not any(ip in network for network in REFUSED_IPV6)
                and ip.is_global
            )
        ip = ipv4
    return not any(ip in network for network in REFUSED_IPV4) and ip.is_global


CONTROL: Final = frozenset({"Cc", "Zl", "Zp"})
"""Unicode categories no webhook URL holds: controls (C0 with CR, LF and
tab, DEL, C1) and the line and paragraph separators."""


class AddressRefused(Exception):
    """The URL's host is, or resolves to, an address a delivery may not reach."""


def public_addresses(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to, when every one is public;
    :class:`AddressRefused` when one is not or the name does not resolve."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise AddressRefused(f"the host {host} does not resolve ({error})") from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    refused = [a for a in addresses if not is_public(a)]
    if refused or not addresses:
        raise AddressRefused(
            f"the host {host} is a loopback or private address ({', '.join(refused)}); "
            "deliveries go to public addresses only"
        )
    return addresses


def check_url(url: str) -> str:
    """``url`` as an endpoint may have it: http or https, a host, no user
    name or password in it, no control character anywhere (a line break, a
    tab: URL parsers drop them silently, so the URL stored would not be the
    one checked), at most 500 characters; and, unless private addresses are
    allowed, a host that resolves to public addresses only. Spaces around it
    are dropped. Raises :class:`ServiceError` (``url``) saying what is wrong."""
    if any(unicodedata.category(character) in CONTROL for character in url):
        raise ServiceError(
            "a webhook URL has no line breaks, tabs or other control characters",
            field="url",
        )
    url = url.strip()
    if len(url) > 500:
        raise ServiceError("a webhook URL has at most 500 characters", field="url")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise ServiceError(f"not a URL: {error}", field="url") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ServiceError("give an http or https URL with a host", field="url")
    if parts.username is not None or parts.password is not None:
        raise ServiceError("a webhook URL carries no user name or password", field="url")
    if not private_allowed():
        default = 443 if parts.scheme == "https" else 80
        try:
            public_addresses(parts.hostname, port or default)
        except AddressRefused as error:
            raise ServiceError(str(error), field="url") from None
    return url


# -- the job -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Attempt:
    """What a claimed attempt sends."""

    delivery_id: int
    number: int
    url: str
    secret: str
    event_id: str
    body: bytes


@dataclass(frozen=True)
class Outcome:
    """An attempt's outcome: the status answered (``None``: no answer) and,
    unless delivered, what went wrong."""

    status_code: int | None
    error: str

    @property
    def delivered(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


@shared_task(
    name=outbox.JOB_TASKS[JobOwed.Kind.WEBHOOK],
    acks_late=True,  # a worker that dies mid-job leaves it to another
    autoretry_for=(OperationalError,),  # a lost connection or lock timeout: later
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
    time_limit=60,  # a receiver that trickles its answer cannot hold a worker
)
def webhook_deliver(delivery_id: int) -> str:
    """Make the delivery's attempt that is due, if one is (:func:`deliver`)."""
    return deliver(delivery_id)


def deliver(delivery_id: int) -> str:
    """Claim, send and record one attempt of a delivery (see the module's
    docstring); returns what happened: ``delivered``, ``retry``, ``failed``,
    or why nothing was sent (``done``, ``not-due``, ``gone``)."""
    attempt = _claim(delivery_id)
    if isinstance(attempt, str):
        return attempt
    outcome = post(attempt)
    return _record(attempt, outcome)


def _claim(delivery_id: int) -> Attempt | str:
    with transaction.atomic():
        endpoint_id = (
            WebhookDelivery.objects.filter(pk=delivery_id)
            .values_list("endpoint_id", flat=True)
            .first()
        )
        if endpoint_id is None:
            _job_done(delivery_id)
            return "gone"
        endpoint, delivery = _lock(endpoint_id, delivery_id)
        if endpoint is None or delivery is None:  # deleted since
            _job_done(delivery_id)
            return "gone"
        if delivery.status != WebhookDelivery.Status.PENDING:
            _job_done(delivery_id)
            return "done"
        if not endpoint.active:  # paused or disabled since the event
            _fail(WebhookDelivery.objects.filter(pk=delivery_id), endpoint_off(endpoint))
            _job_done(delivery_id)
            return "failed"
        now = timezone.now()
        assert delivery.next_attempt_at is not None  # pending: due at a time (constraint)
        if delivery.next_attempt_at > now:  # sent early, or claimed by another run
            return "not-due"
        if delivery.attempts >= MAX_ATTEMPTS:  # the last attempt's run died unrecorded
            _fail(WebhookDelivery.objects.filter(pk=delivery_id), "no answer recorded")
            _job_done(delivery_id)
            return "failed"
        delivery.attempts += 1
        delivery.next_attempt_at = now + CLAIM_LEASE
        delivery.save(update_fields=["attempts", "next_attempt_at"])
        _job_due(delivery_id, at=delivery.next_attempt_at)
        return Attempt(
            delivery_id=delivery_id,
            number=delivery.attempts,
            url=endpoint.url,
            secret=endpoint.secret,
            event_id=str(delivery.event_id),
            body=envelope(delivery, club_id=endpoint.club_id),
        )


def post(attempt: Attempt) -> Outcome:
    """POST the attempt's body to its URL, signed now; never raises for
    what the receiver or the network does."""
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Webhook-Id": attempt.event_id,
        "Webhook-Timestamp": str(timestamp),
        "Webhook-Signature": signature(
            secret=attempt.secret, timestamp=timestamp, body=attempt.body
        ),
    }
    try:
        url = httpx.URL(attempt.url)
    except (httpx.InvalidURL, ValueError) as error:  # stored before a stricter check
        return Outcome(None, _short(f"not sent: not a URL ({error})"))
    extensions: dict[str, str] = {}
    if not private_allowed():
        try:
            address = public_addresses(url.host, url.port or _default_port(url))[0]
        except AddressRefused as error:
            return Outcome(None, _short(f"not sent: {error}"))
        # connect to the address checked; TLS and Host still name the host
        headers["Host"] = url.netloc.decode("ascii")
        extensions["sni_hostname"] = url.host
        url = url.copy_with(host=address)
    try:
        with (
            httpx.Client(timeout=TIMEOUT, follow_redirects=False, trust_env=False) as client,
            client.stream(
                "POST", url, content=attempt.body, headers=headers, extensions=extensions
            ) as response,
        ):
            # the answer's body is not read: only its status counts
            code = response.status_code
            if 200 <= code < 300:
                return Outcome(code, "")
            if response.is_redirect:
                where = response.headers.get("Location", "")
                return Outcome(code, _short(f"HTTP {code}: redirects are not followed ({where})"))
            return Outcome(code, f"HTTP {code} {response.reason_phrase}".strip())
    except httpx.TimeoutException as error:
        return Outcome(None, _short(f"no answer in time ({type(error).__name__})"))
    except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError) as error:
        return Outcome(None, _short(f"could not deliver: {outbox.describe(error)}"))


def _record(attempt: Attempt, outcome: Outcome) -> str:
    with transaction.atomic():
        endpoint_id = (
            WebhookDelivery.objects.filter(pk=attempt.delivery_id)
            .values_list("endpoint_id", flat=True)
            .first()
        )
        if endpoint_id is None:  # deleted with its endpoint while we sent
            _job_done(attempt.delivery_id)
            return "gone"
        endpoint, delivery = _lock(endpoint_id, attempt.delivery_id)
        if endpoint is None or delivery is None:
            _job_done(attempt.delivery_id)
            return "gone"
        if delivery.status != WebhookDelivery.Status.PENDING or delivery.attempts != attempt.number:
            # failed meanwhile (the endpoint was turned off), or our claim ran
            # out and a later attempt took over: that one records its own
            return "done"
        now = timezone.now()
        delivery.last_status_code = outcome.status_code
        delivery.last_error = outcome.error
        if outcome.delivered:
            delivery.status = WebhookDelivery.Status.DELIVERED
            delivery.delivered_at = now
            delivery.next_attempt_at = None
            result = "delivered"
            _job_done(delivery.pk)
            if endpoint.consecutive_failures:
                endpoint.consecutive_failures = 0
                endpoint.save(update_fields=["consecutive_failures"])
        else:
            if delivery.attempts >= MAX_ATTEMPTS:
                delivery.status = WebhookDelivery.Status.FAILED
                delivery.next_attempt_at = None
                result = "failed"
                _job_done(delivery.pk)
            else:
                delivery.next_attempt_at = now + RETRY_DELAYS[delivery.attempts - 1]
                result = "retry"
                _job_due(delivery.pk, at=delivery.next_attempt_at)
            endpoint.consecutive_failures += 1
            endpoint.save(update_fields=["consecutive_failures"])
        delivery.save(
            update_fields=[
                "status",
                "delivered_at",
                "next_attempt_at",
                "last_status_code",
                "last_error",
            ]
        )
        if not outcome.delivered and endpoint.consecutive_failures >= DISABLE_AFTER:
            reason = (
                f"{endpoint.consecutive_failures} delivery attempts in a row failed; "
                f"the last: {outcome.error}"
            )
            endpoint_disable(endpoint, reason=_short(reason))
        logger.info(
            "webhook delivery %s attempt %s: %s (%s)",
            delivery.pk,
            attempt.number,
            result,
            outcome.error or outcome.status_code,
        )
        return result


def _lock(
    endpoint_id: int, delivery_id: int
) -> tuple[WebhookEndpoint | None, WebhookDelivery | None]:
    """Lock the endpoint's row, then the delivery's (the services' order too).

    ``FOR NO KEY UPDATE``: a change that makes deliveries for the endpoint
    (their foreign key takes a key-share lock on it) does not wait for this."""
    endpoint = WebhookEndpoint.objects.select_for_update(no_key=True).filter(pk=endpoint_id).first()
    delivery = WebhookDelivery.objects.select_for_update(no_key=True).filter(pk=delivery_id).first()
    return endpoint, delivery


# -- turning an endpoint off -------------------------------------------------------------


def endpoint_off(endpoint: WebhookEndpoint) -> str:
    """Why a delivery to the inactive ``endpoint`` was not sent."""
    if endpoint.disabled_at is not None:
        return "not sent: the endpoint was disabled after failing deliveries"
    return "not sent: the endpoint was turned off"


def endpoint_disable(endpoint: WebhookEndpoint, *, reason: str = "") -> None:
    """Turn the (locked) endpoint off: paused by its organiser, or, with a
    ``reason``, disabled by the league after failing deliveries. Its
    pending deliveries fail, and their jobs are cleared."""
    endpoint.active = False
    if reason:
        endpoint.disabled_at = timezone.now()
        endpoint.disabled_reason = reason
    endpoint.save(update_fields=["active", "disabled_at", "disabled_reason"])
    pending = WebhookDelivery.objects.filter(
        endpoint=endpoint, status=WebhookDelivery.Status.PENDING
    )
    ids = list(pending.values_list("pk", flat=True))
    _fail(WebhookDelivery.objects.filter(pk__in=ids), endpoint_off(endpoint))
    JobOwed.objects.filter(kind=JobOwed.Kind.WEBHOOK, target_id__in=ids).delete()


def _fail(deliveries: QuerySet[WebhookDelivery], reason: str) -> None:
    """Fail pending ``deliveries``, keeping the error of any attempt made."""
    deliveries.filter(status=WebhookDelivery.Status.PENDING).update(
        status=WebhookDelivery.Status.FAILED,
        next_attempt_at=None,
        last_error=Case(
            When(last_error="", then=Value(reason)),
            default=F("last_error"),
            output_field=TextField(),
        ),
    )


# -- the job's outbox row ----------------------------------------------------------------


def _job_due(delivery_id: int, *, at: datetime.datetime) -> None:
    """Owe the delivery's job from ``at``: the sweep sends it once ``at``
    has passed (and not been sent since), whatever became of the message
    that ran this attempt."""
    now = timezone.now()
    JobOwed.objects.bulk_create(
        [
            JobOwed(
                kind=JobOwed.Kind.WEBHOOK,
                target_id=delivery_id,
                owed_since=at,
                owed_at=now,
                token=outbox.token(),
            )
        ],
        update_conflicts=True,
        unique_fields=["kind", "target_id"],
        update_fields=["owed_since", "owed_at", "token", "sent_at"],
    )


def _job_done(delivery_id: int) -> None:
    JobOwed.objects.filter(kind=JobOwed.Kind.WEBHOOK, target_id=delivery_id).delete()


def _default_port(url: httpx.URL) -> int:
    return 443 if url.scheme == "https" else 80


def _short(text: str) -> str:
    return text if len(text) <= MAX_ERROR else text[: MAX_ERROR - 1] + "…"


def payload_json(payload: Mapping[str, object]) -> object:
    """``payload`` as JSON keeps it (so a payload of dates or ids of other
    types is stored as it will be sent)."""
    return json.loads(json.dumps(payload, default=str))
