"""What the benchmarks that serve the project share: a scratch PostgreSQL
database, a free port on loopback, and the percentile of a list of timings.

A benchmark run as a script (``python benchmarks/club_night.py``) imports this
as ``harness``, its own folder being on the path; imported by the tests, as
``benchmarks.harness``."""

from __future__ import annotations

import math
import socket
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

HOST = "127.0.0.1"


@contextmanager
def fresh_postgres(server: str, name: str) -> Iterator[str]:
    """Create database ``name`` on ``server``, yield its URL, drop it at the end
    (whatever happens); stop if it exists already."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            raise SystemExit(f"database {name!r} exists already: drop it, or use --database")
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield f"{server}/{name}"
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank);
    NaN for none.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5)
    3.0
    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.99)
    5.0
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1)]
