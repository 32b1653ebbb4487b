"""``make run``'s server: Django's (as whitenoise runs it, static files from
whitenoise), with room for a club night's connections.

Django's development server keeps a listening queue of 10 connections. Thirty
tables and a room screen opening theirs at once overflowed it, and the
connections beyond were reset (``benchmarks/club_night.py``). A small club
serves its nights with exactly this server (README), so the queue here holds
as many as the system allows (``SOMAXCONN``).
"""

from __future__ import annotations

import socket

from django.core.servers.basehttp import WSGIServer

# whitenoise ships no types; its command picks the runserver it wraps at import time
from whitenoise.runserver_nostatic.management.commands.runserver import (  # type: ignore[import-untyped]
    Command as WhitenoiseRunserver,
)


class ClubNightServer(WSGIServer):
    request_queue_size = socket.SOMAXCONN


class Command(WhitenoiseRunserver):
    server_cls = ClubNightServer
