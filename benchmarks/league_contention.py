"""Submissions in one busy league against a league per client: does a league's
traffic queue behind one lock, deadlock, or answer 500?

Why: issue 14 found that every submission in a league waited on the league's
row (the table lock took its round, event and league rows too): 27-78
requests/s and 30-48 deadlocks a minute answered 500 with 4-64 clients in one
league, 98/s with a league per client. The table lock now takes the table's
row only (``of=("self",)``), a deadlock's victim is run again, and a wait past
the request's lock timeout is a 503, never a 500.

What runs:

1. A fresh PostgreSQL database (``--database``, default ``league_bench_contention``; the
   script stops if it exists already), migrated with the production settings.
2. Through :mod:`league.services`, in a subprocess: a user with an API token, a club of
   ``4 x clients`` players, and two Buck Euchre setups of ``clients x games`` tables: all in
   one league, and one league per client.
3. gunicorn (``config/gunicorn.conf.py``, ``--workers`` sync workers) on a free loopback port.
   Without ``--broker`` the standings and ratings jobs run in the web process after each
   completed game, as on a one-host install; with ``--broker redis://...`` a Celery worker
   (``--concurrency 2``) runs them.
4. For each setup, ``--clients`` threads each play their ``--games`` games hand by hand (five
   hands of Buck Euchre, each a maker taking all five tricks, so every fifth request completes
   a game and owes the league's jobs), all at once.
5. Prints, per setup: requests, answers by status, p50 and p99 latency, requests/s, and the
   deadlocks PostgreSQL counted (``pg_stat_database.deadlocks``). The database is dropped and
   the processes stopped at the end, whatever happens.

Usage: ``python benchmarks/league_contention.py [--clients 16] [--games 4] [--workers 4]
[--broker URL] [--database NAME] [--server postgres://user@host:port]``
"""

from __future__ import annotations

import argparse
import collections
import datetime
import http.client
import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from benchmarks.harness import HOST, data_made, free_port, fresh_postgres, percentile
    from benchmarks.harness import prepare as harness_prepare
except ImportError:  # run as a script: its own folder is on the path
    from harness import (  # type: ignore[no-redef]
        HOST,
        data_made,
        free_port,
        fresh_postgres,
        percentile,
    )
    from harness import prepare as harness_prepare  # type: ignore[no-redef]

REPO = Path(__file__).resolve().parent.parent
HANDS_PER_GAME = 5
"""A Buck Euchre game of four hands a maker makes with three tricks, then a hand
in which the maker takes all five, which ends the game at once."""


def deadlocks(url: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    return int(row[0]) if row else 0


def environment(database_url: str, broker: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "DATABASE_URL")}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=f"{HOST},localhost",
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="ERROR",  # not a line for each 4xx
        PYTHONPATH=str(REPO),
        PYTHONWARNINGS="ignore:No directory at:UserWarning",
    )
    if broker:
        env["CELERY_BROKER_URL"] = broker
    return env


def create_data(spec: dict[str, int]) -> dict[str, Any]:
    """Runs in the subprocess: the user, token, club, leagues and tables, through the services."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from league.models import Game
    from league.services.accounts import api_token_create
    from league.services.clubs import club_create, player_create
    from league.services.fixtures import event_create, league_create, table_create

    clients, games = spec["clients"], spec["games"]
    with transaction.atomic():
        user = get_user_model().objects.create_user(
            username="bench-organiser", password=secrets.token_urlsafe(20)
        )
        token = api_token_create(user=user, name="benchmark").key
        club = club_create(organiser=user, name="Contention Club")
        players = [player_create(club=club, name=f"Player {n}") for n in range(4 * clients)]

        def tables_of(league: Any, client_ids: Sequence[int]) -> dict[int, list[int]]:
            """``games`` tables for each client, a round a game, in one event of ``league``."""
            event = event_create(
                league=league, name="Night", date=datetime.date(2026, 9, 3), rounds=games
            )
            found: dict[int, list[int]] = {client: [] for client in client_ids}
            for round_ in event.rounds.order_by("number"):
                for number, client in enumerate(client_ids, start=1):
                    seated = players[4 * client : 4 * client + 4]
                    table = table_create(round=round_, number=number, players=seated)
                    found[client].append(table.pk)
            return found

        one = league_create(club=club, name="One league", game=Game.BUCK_EUCHRE)
        shared = tables_of(one, range(clients))
        apart: dict[int, list[int]] = {}
        for client in range(clients):
            own = league_create(club=club, name=f"League {client}", game=Game.BUCK_EUCHRE)
            apart.update(tables_of(own, [client]))
    return {"token": token, "one league": shared, "a league per client": apart}


def prepare(env: dict[str, str], spec: dict[str, int]) -> dict[str, Any]:
    data: dict[str, Any] = harness_prepare(__file__, env, spec, static=False)
    return data


@contextmanager
def serving(env: dict[str, str], *, workers: int, broker: str | None) -> Iterator[int]:
    """gunicorn (and a Celery worker with a broker) until the block ends; the port."""
    port = free_port()
    server_env = {**env, "GUNICORN_BIND": f"{HOST}:{port}", "GUNICORN_WORKERS": str(workers)}
    processes = [
        subprocess.Popen(
            [
                *(sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py"),
                *("config.wsgi", "--log-level", "warning", "--access-logfile", "/dev/null"),
            ],
            cwd=REPO,
            env=server_env,
        )
    ]
    if broker:
        processes.append(
            subprocess.Popen(
                [
                    *(sys.executable, "-m", "celery", "-A", "config", "worker"),
                    *("--concurrency", "2", "--loglevel", "WARNING"),
                    *("--without-heartbeat", "--without-gossip"),
                ],
                cwd=REPO,
                env=env,
            )
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = http.client.HTTPConnection(HOST, port, timeout=5)
                conn.request("GET", "/api/")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("gunicorn did not answer within 30 s")
            time.sleep(0.2)
        yield port
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def buck_euchre_hand(number: int) -> dict[str, Any]:
    """Hand ``number`` of the benchmark's games (:data:`HANDS_PER_GAME`)."""
    maker = number % 4
    tricks = [0, 0, 0, 0]
    if number == HANDS_PER_GAME - 1:
        tricks[maker] = 5
    else:
        tricks[maker], tricks[(maker + 1) % 4], tricks[(maker + 2) % 4] = 3, 1, 1
    return {"trump": "S", "maker": maker, "tricks": tricks}


@dataclass
class Result:
    name: str
    statuses: collections.Counter[int] = field(default_factory=collections.Counter)
    latencies: list[float] = field(default_factory=list)
    wall: float = 0.0
    deadlocks: int = 0
    samples: dict[int, str] = field(default_factory=dict)

    def percentile(self, fraction: float) -> float:
        return percentile(self.latencies, fraction)


def play(name: str, port: int, token: str, tables: dict[str, list[int]], url: str) -> Result:
    """Every client plays its tables' games hand by hand, all clients at once."""
    result = Result(name)
    lock = threading.Lock()
    start = threading.Barrier(len(tables) + 1)
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def client(table_ids: list[int]) -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=60)
        start.wait()
        for table in table_ids:
            hand = 0
            while hand < HANDS_PER_GAME:
                body = {"number": hand, "record": buck_euchre_hand(hand)}
                began = time.perf_counter()
                try:
                    conn.request("POST", f"/api/tables/{table}/hands/", json.dumps(body), headers)
                    answer = conn.getresponse()
                    content = answer.read()
                    status = answer.status
                except OSError:
                    conn.close()
                    conn = http.client.HTTPConnection(HOST, port, timeout=60)
                    status, content = 0, b"connection failed"
                elapsed = time.perf_counter() - began
                with lock:
                    result.statuses[status] += 1
                    result.latencies.append(elapsed)
                    result.samples.setdefault(status, content[:200].decode(errors="replace"))
                if status == 201 or status == 409:  # stored (409: stored by an earlier try)
                    hand += 1
                elif status == 503:
                    time.sleep(float(answer.headers.get("Retry-After", "1")) / 10)
                else:
                    return  # anything else is reported, not retried
        conn.close()

    threads = [threading.Thread(target=client, args=(ids,)) for ids in tables.values()]
    for thread in threads:
        thread.start()
    before = deadlocks(url)
    began = time.perf_counter()
    start.wait()
    for thread in threads:
        thread.join()
    result.wall = time.perf_counter() - began
    result.deadlocks = deadlocks(url) - before
    return result


def report(results: Sequence[Result]) -> None:
    print(
        f"\n  {'':22} {'requests':>8} {'201':>5} {'503':>5} {'other':>5} {'p50 ms':>8} "
        f"{'p99 ms':>8} {'req/s':>7} {'deadlocks':>9}"
    )
    for result in results:
        total = sum(result.statuses.values())
        other = total - result.statuses[201] - result.statuses[503]
        print(
            f"  {result.name:22} {total:8d} {result.statuses[201]:5d} {result.statuses[503]:5d} "
            f"{other:5d} {1000 * result.percentile(0.5):8.1f} "
            f"{1000 * result.percentile(0.99):8.1f} {total / result.wall:7.1f} "
            f"{result.deadlocks:9d}"
        )
        for status, sample in sorted(result.samples.items()):
            if status not in (201,):
                print(f"    {status}: {sample}")


def run(args: argparse.Namespace) -> int:
    spec = {"clients": args.clients, "games": args.games}
    jobs = f"on {args.broker}" if args.broker else "in the web process"
    print(
        f"{args.clients} clients x {args.games} games x {HANDS_PER_GAME} hands; gunicorn "
        f"{args.workers} sync workers; jobs {jobs}; {os.cpu_count()} CPUs"
    )
    with fresh_postgres(args.server, args.database) as url:
        env = environment(url, args.broker)
        data = prepare(env, spec)
        with serving(env, workers=args.workers, broker=args.broker) as port:
            results = [
                play(name, port, data["token"], data[name], url)
                for name in ("one league", "a league per client")
            ]
    report(results)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16, help="client threads (16)")
    parser.add_argument("--games", type=int, default=4, help="games per client (4)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (4)")
    parser.add_argument("--broker", help="a Celery broker URL: jobs on a worker")
    parser.add_argument("--database", default="league_bench_contention", help="created, dropped")
    parser.add_argument(
        "--server", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server URL"
    )
    parser.add_argument("--create-data", metavar="JSON", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if data_made(args, create_data):
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
