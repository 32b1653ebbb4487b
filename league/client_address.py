"""The client's address, through the trusted proxies: what django-axes counts
wrong passwords by (the settings' ``AXES_CLIENT_IP_CALLABLE``) and the rates
of :mod:`league.ratelimits` count requests by."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """The client's address.

    With ``CLIENT_IP_HEADER`` (``X-Forwarded-For`` in the production
    settings) and ``TRUSTED_PROXIES`` proxies in front, each of which adds
    the address it saw to the header's end, the address the farthest trusted
    proxy saw: the ``TRUSTED_PROXIES``-th from the end. Whatever a client put
    before it is not read. A header with fewer addresses than that gives its
    first; one that is not an address, the connection's. Without the header,
    the connection's own address; ``None`` when neither is known (a request
    made in code, as ``force_login`` makes), which django-axes stores as no
    address.
    """
    header = getattr(settings, "CLIENT_IP_HEADER", None)
    proxies = int(getattr(settings, "TRUSTED_PROXIES", 0))
    if header and proxies > 0:
        hops = [hop.strip() for hop in str(request.META.get(header, "")).split(",")]
        hops = [hop for hop in hops if hop]
        if hops:
            address = hops[-min(proxies, len(hops))]
            try:
                return str(ipaddress.ip_address(address))
            except ValueError:
                pass  # a proxy that is not the one documented: the connection's
    return str(request.META.get("REMOTE_ADDR") or "") or None
