"""What the benchmarks that serve the project share: a scratch PostgreSQL
database, a free port on loopback, a database made ready with the benchmark's
own data, and the percentile of a list of timings.

A benchmark run as a script (``python benchmarks/club_night.py``) imports this
as ``harness``, its own folder being on the path; imported by the tests, as
``benchmarks.harness``."""

from __future__ import annotations

import argparse
import json
import math
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
REPO = Path(__file__).resolve().parent.parent


def prepare(script: str, env: dict[str, str], spec: Any, *, static: bool) -> Any:
    """Migrate the database ``env`` names (and collect the static files, which
    pages under production settings need), then make the benchmark's data in a
    child process (``script --create-data SPEC``, answered by :func:`data_made`,
    so Django is set up under ``env`` there, not here); the child's answer."""
    manage = [sys.executable, str(REPO / "manage.py")]
    subprocess.run([*manage, "migrate", "--no-input", "-v", "0"], cwd=REPO, env=env, check=True)
    if static:
        subprocess.run(
            [*manage, "collectstatic", "--no-input", "-v", "0"], cwd=REPO, env=env, check=True
        )
    done = subprocess.run(
        [sys.executable, script, "--create-data", json.dumps(spec)],
        cwd=REPO,
        env=env,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def data_made(args: argparse.Namespace, create_data: Callable[[Any], Any]) -> bool:
    """In the child :func:`prepare` starts: make the data, print it as the last
    line, and say so (the caller then exits); otherwise False."""
    if not args.create_data:
        return False
    print(json.dumps(create_data(json.loads(args.create_data))))
    return True


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
