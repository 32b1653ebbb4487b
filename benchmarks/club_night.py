"""A club night on one box: tables entering hands at once while the room
screens and the standings are read. Does the default set-up bounce results?

Why: issue 27 found that ``make run`` (SQLite, no broker) answered 82 of 246
hands ``503 database-busy`` with eight tables entering at once, and a 503 after
nearly every completed game even for one client: SQLite in its default journal
mode with deferred transactions, while the standings and ratings jobs wrote
from the web process's thread. The target: 0 answers 5xx, every hand stored,
and the hand POST's p99 under 250 ms at eight tables on two cores.

What runs, for each set-up and each number of tables (``--tables``):

1. A fresh database: a SQLite file in a scratch folder, or a scratch PostgreSQL
   database (``--server``; created and dropped), migrated.
2. Through :mod:`league.services`, in a subprocess: an organiser with an API
   token, a club, a Bluke league and a Buck Euchre league, one game night
   each with one round, and ``--tables`` tables of four, half of each game;
   each table's whole game played in advance by the engine's bot and kept as
   results-only records (bids and tricks; trump, maker and drops), what a
   table types in.
3. The server, as each set-up runs it, without a broker (the standings and
   ratings jobs in the web process):
   - ``default``: ``manage.py runserver`` with the local settings: ``make run``;
   - ``gunicorn-sqlite``: gunicorn with ``--workers`` sync workers and the
     production settings on SQLite: a club's one box (README);
   - ``postgres``: the same gunicorn on PostgreSQL.
4. Every table posts its game's hands one after another (``--pause`` seconds
   between two; 0, back to back, by default) through ``POST
   /api/tables/{id}/hands/``, while ``--screens`` room screens and one
   standings reader read their pages every ``--read-every`` seconds. A 503 is
   counted and the hand sent again after its ``Retry-After`` (a tenth of it).
5. Prints, per run: hands stored (from the database, against those the games
   have), answers 5xx, other refusals, the hand POST's p50 and p99 (every
   attempt), the reads' p50 and p99, and how long the night took.

Usage: ``python benchmarks/club_night.py [--setups default gunicorn-sqlite postgres]
[--tables 8 30] [--workers 4] [--pause 0] [--screens 2] [--read-every 1]
[--server postgres://user@host:port]``
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
import sqlite3
import subprocess
import sys
import tempfile
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
SETUPS = ("default", "gunicorn-sqlite", "postgres")


@contextmanager
def fresh_database(setup: str, server: str, name: str) -> Iterator[str]:
    """A new, empty database for ``setup``; yields its URL, removes it at the end."""
    if setup != "postgres":
        with tempfile.TemporaryDirectory(prefix="club-night-") as folder:
            yield f"sqlite:///{folder}/db.sqlite3"
        return
    with fresh_postgres(server, name) as url:
        yield url


def environment(setup: str, database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "DATABASE_URL")}
    env.update(
        DATABASE_URL=database_url,
        LOG_LEVEL="ERROR",  # not a line for each 4xx
        PYTHONPATH=str(REPO),
        PYTHONWARNINGS="ignore:No directory at:UserWarning",
    )
    if setup == "default":
        env["DJANGO_SETTINGS_MODULE"] = "config.settings.local"
    else:
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.production",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS=f"{HOST},localhost",
            SECURE_SSL_REDIRECT="0",
        )
    return env


def create_data(spec: dict[str, int]) -> dict[str, Any]:
    """Runs in the subprocess: the organiser, token, club, leagues, nights and
    tables, through the services, and each table's game as results-only records."""
    import random

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import transaction

    import games
    from games.bots import bot_game
    from league.models import Game
    from league.services.accounts import api_token_create
    from league.services.clubs import club_create, player_create
    from league.services.fixtures import event_create, league_create, table_create

    tables = spec["tables"]
    rng = random.Random(27)
    with transaction.atomic():
        user = get_user_model().objects.create_user(
            username="night-organiser", password=secrets.token_urlsafe(20)
        )
        token = api_token_create(user=user, name="benchmark").key
        club = club_create(organiser=user, name="Club Night")
        players = [player_create(club=club, name=f"Player {n}") for n in range(4 * tables)]
        found: dict[str, Any] = {"token": token, "tables": [], "events": [], "leagues": []}
        for index, game in enumerate((Game.BLUKE, Game.BUCK_EUCHRE)):
            league = league_create(club=club, name=f"{game.label} league", game=game)
            event = event_create(
                league=league, name="Tonight", date=datetime.date(2026, 12, 2), rounds=1
            )
            found["events"].append(event.pk)
            found["leagues"].append(league.pk)
            round_ = event.rounds.get()
            rules = games.rules_for(game, 4, league.options)
            for number in range(index, tables, 2):
                seated = players[4 * number : 4 * number + 4]
                table = table_create(round=round_, number=number + 1, players=seated)
                moves = bot_game(rules, first_dealer=table.first_dealer, seed=rng.randrange(2**32))
                tally = games.GameTally(rules, first_dealer=table.first_dealer)
                hands = []
                for record in moves:
                    result = tally.add(record)
                    typed: dict[str, Any] = {
                        "trump": result.trump.value if result.trump is not None else None,
                        "tricks": list(result.tricks),
                    }
                    if game == Game.BLUKE:
                        typed["bids"] = record["bids"]
                    else:
                        typed["maker"] = result.maker
                        typed["drops"] = sorted(result.drops)
                    hands.append(typed)
                found["tables"].append({"id": table.pk, "hands": hands})
    return found


def prepare(env: dict[str, str], spec: dict[str, int]) -> dict[str, Any]:
    data: dict[str, Any] = harness_prepare(
        __file__, env, spec, static=env["DJANGO_SETTINGS_MODULE"].endswith("production")
    )
    return data


@contextmanager
def serving(setup: str, env: dict[str, str], *, workers: int) -> Iterator[int]:
    """The set-up's server until the block ends; its port."""
    port = free_port()
    if setup == "default":
        command = [
            *(sys.executable, "manage.py", "runserver", f"{HOST}:{port}"),
            *("--noreload", "--skip-checks"),
        ]
        server_env = env
    else:
        command = [
            *(sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py"),
            *("config.wsgi", "--log-level", "warning", "--access-logfile", "/dev/null"),
        ]
        server_env = {**env, "GUNICORN_BIND": f"{HOST}:{port}", "GUNICORN_WORKERS": str(workers)}
    process = subprocess.Popen(
        command, cwd=REPO, env=server_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
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
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit(f"{setup}: the server did not answer within 30 s")
            time.sleep(0.2)
        yield port
    finally:
        process.send_signal(signal.SIGINT if setup == "default" else signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        errors = process.stderr.read().decode(errors="replace") if process.stderr else ""
        tracebacks = errors.count("Traceback")
        if tracebacks:
            last = errors[errors.rindex("Traceback") :].strip().splitlines()
            print(f"  server log: {tracebacks} tracebacks; the last ends: {last[-1][:300]}")


@dataclass
class Timings:
    latencies: list[float] = field(default_factory=list)

    def ms(self, fraction: float) -> str:
        return f"{1000 * percentile(self.latencies, fraction):.1f}ms"


@dataclass
class Night:
    setup: str
    tables: int
    statuses: collections.Counter[int] = field(default_factory=collections.Counter)
    posts: Timings = field(default_factory=Timings)
    reads: Timings = field(default_factory=Timings)
    read_statuses: collections.Counter[int] = field(default_factory=collections.Counter)
    samples: dict[int, str] = field(default_factory=dict)
    slowest: list[tuple[float, int, int, int, bool]] = field(default_factory=list)
    """(seconds, table id, hand number, status, whether the hand ended the game)"""
    hands_expected: int = 0
    hands_stored: int = 0
    jobs_left: int = 0
    wall: float = 0.0


def request(
    conn: http.client.HTTPConnection, method: str, path: str, body: Any, headers: dict[str, str]
) -> tuple[http.client.HTTPConnection, int, bytes, float, dict[str, str]]:
    """One request on ``conn`` (opened again after a failure): the connection to
    go on with, the status (0: no answer), the body, the seconds it took and the
    headers."""
    began = time.perf_counter()
    try:
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        answer = conn.getresponse()
        content = answer.read()
        return conn, answer.status, content, time.perf_counter() - began, dict(answer.headers)
    except OSError as error:
        conn.close()
        fresh = http.client.HTTPConnection(HOST, conn.port, timeout=60)
        return fresh, 0, str(error).encode(), time.perf_counter() - began, {}


def play(setup: str, port: int, data: dict[str, Any], args: argparse.Namespace) -> Night:
    """Every table enters its game while the screens read theirs."""
    night = Night(setup, len(data["tables"]))
    night.hands_expected = sum(len(table["hands"]) for table in data["tables"])
    lock = threading.Lock()
    entering = threading.Event()
    entering.set()
    start = threading.Barrier(len(data["tables"]) + args.screens + 2)
    headers = {"Authorization": f"Token {data['token']}", "Content-Type": "application/json"}

    def table_client(table: dict[str, Any]) -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=60)
        # the table opens its sheet first, as a phone does (not timed)
        conn, *_ = request(conn, "GET", f"/api/tables/{table['id']}/sheet/", None, headers)
        start.wait()
        number = 0
        while number < len(table["hands"]):
            body = {"number": number, "record": table["hands"][number]}
            conn, status, content, took, answer = request(
                conn, "POST", f"/api/tables/{table['id']}/hands/", body, headers
            )
            with lock:
                night.statuses[status] += 1
                night.posts.latencies.append(took)
                night.samples.setdefault(status, content[:300].decode(errors="replace"))
                last = number == len(table["hands"]) - 1
                night.slowest.append((took, table["id"], number, status, last))
            if status in (201, 409):  # stored (409: stored by an earlier try)
                number += 1
                if args.pause:
                    time.sleep(args.pause)
            elif status == 503:
                time.sleep(float(answer.get("Retry-After", "1")) / 10)
            else:
                return  # anything else is reported, not retried
        conn.close()

    def reader(paths: Sequence[str]) -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=60)
        conn, *_ = request(conn, "GET", paths[0], None, {})  # opened before the night (not timed)
        start.wait()
        turn = 0
        while entering.is_set():
            path = paths[turn % len(paths)]
            conn, status, content, took, _ = request(conn, "GET", path, None, {})
            turn += 1
            with lock:
                night.read_statuses[status] += 1
                night.reads.latencies.append(took)
                if status != 200:
                    night.samples.setdefault(-status, content[:300].decode(errors="replace"))
            time.sleep(args.read_every)
        conn.close()

    rooms = [f"/events/{event}/room/" for event in data["events"]]
    standings = [f"/leagues/{league}/standings/" for league in data["leagues"]]
    tables = [threading.Thread(target=table_client, args=(t,)) for t in data["tables"]]
    readers = [threading.Thread(target=reader, args=(rooms,)) for _ in range(args.screens)]
    readers.append(threading.Thread(target=reader, args=(standings,)))
    for thread in [*tables, *readers]:
        thread.start()
    began = time.perf_counter()
    start.wait()
    for thread in tables:
        thread.join()
    night.wall = time.perf_counter() - began
    entering.clear()
    for thread in readers:
        thread.join()
    night.slowest = sorted(night.slowest, reverse=True)[:5]
    return night


def count_stored(database_url: str) -> tuple[int, int]:
    """Hands stored and jobs still owed, read from the database itself."""
    queries = ("SELECT COUNT(*) FROM league_hand", "SELECT COUNT(*) FROM league_jobowed")
    if database_url.startswith("sqlite:///"):
        with sqlite3.connect(database_url.removeprefix("sqlite:///"), timeout=30) as conn:
            hands, jobs = (conn.execute(q).fetchone()[0] for q in queries)
        return int(hands), int(jobs)
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        hands, jobs = (conn.execute(q).fetchone()[0] for q in queries)  # type: ignore[index]
    return int(hands), int(jobs)


def report(nights: Sequence[Night]) -> None:
    print(
        f"\n  {'set-up':16} {'tables':>6} {'stored':>9} {'5xx':>4} {'other':>5} "
        f"{'POST p50':>9} {'POST p99':>9} {'read p50':>9} {'read p99':>9} {'night s':>8} "
        f"{'jobs left':>9}"
    )
    for night in nights:
        fives = sum(n for status, n in night.statuses.items() if status >= 500 or status == 0)
        fives += sum(n for status, n in night.read_statuses.items() if status >= 500)
        other = sum(n for status, n in night.statuses.items() if status not in (201, 409))
        other -= sum(n for status, n in night.statuses.items() if status >= 500 or status == 0)
        print(
            f"  {night.setup:16} {night.tables:6d} "
            f"{night.hands_stored:4d}/{night.hands_expected:<4d} {fives:4d} {other:5d} "
            f"{night.posts.ms(0.5):>9} {night.posts.ms(0.99):>9} "
            f"{night.reads.ms(0.5):>9} {night.reads.ms(0.99):>9} "
            f"{night.wall:8.1f} {night.jobs_left:9d}"
        )
        slow = ", ".join(
            f"{1000 * took:.0f} ms (table {table}, hand {hand}{' (its last)' * last}, {status})"
            for took, table, hand, status, last in night.slowest
        )
        print(f"    slowest POSTs: {slow}")
        for status, sample in sorted(night.samples.items()):
            if status not in (201, 409, -200):
                print(f"    {status}: {sample}")


def night_run(setup: str, tables: int, args: argparse.Namespace) -> Night:
    """One night of ``tables`` tables on ``setup``, from a fresh database to the
    jobs it owed done (a minute at most)."""
    with fresh_database(setup, args.server, args.database) as url:
        env = environment(setup, url)
        data = prepare(env, {"tables": tables})
        with serving(setup, env, workers=args.workers) as port:
            night = play(setup, port, data, args)
            # the jobs a night owed are done in the web process, after the answers
            deadline = time.monotonic() + 60
            while True:
                night.hands_stored, night.jobs_left = count_stored(url)
                if not night.jobs_left or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
    return night


def run(args: argparse.Namespace) -> int:
    print(
        f"tables {args.tables}; {args.screens} room screens and a standings page read every "
        f"{args.read_every} s; pause between a table's hands {args.pause} s; gunicorn "
        f"{args.workers} sync workers; no broker; {os.cpu_count()} CPUs"
    )
    nights = []
    for setup in args.setups:
        for tables in args.tables:
            nights.append(night_run(setup, tables, args))
            report(nights[-1:])
    print("\nall runs:")
    report(nights)
    return 0


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setups", nargs="+", choices=SETUPS, default=list(SETUPS))
    parser.add_argument("--tables", nargs="+", type=int, default=[8, 30])
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers (4)")
    parser.add_argument("--pause", type=float, default=0.0, help="seconds between a table's hands")
    parser.add_argument("--screens", type=int, default=2, help="room screens (2)")
    parser.add_argument("--read-every", type=float, default=1.0, help="seconds between reads")
    parser.add_argument("--database", default="league_bench_night", help="created, dropped")
    parser.add_argument(
        "--server", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server URL"
    )
    parser.add_argument("--create-data", metavar="JSON", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if data_made(args, create_data):
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
