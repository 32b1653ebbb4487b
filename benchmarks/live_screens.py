"""A hundred screens following a night: what conditional polling costs the server.

Why: issue 29 asks that the room screen and the Tonight page show each hand
within 2 s without a reload. They poll ``/events/<id>/live/`` every 1.5 seconds
with the ETag they hold (``league/static/league/live.js``); while nothing has
changed the answer is an empty 304 from one query. This measures what a
hundred of them cost while tables enter hands.

What runs:

1. A fresh database (PostgreSQL scratch database, or with ``--sqlite`` a SQLite
   file), migrated, and through the services a club with a Buck Euchre night
   of ``--tables`` tables (each table's game played in advance by the bot).
2. gunicorn with ``--workers`` sync workers, no broker (the jobs in the web
   processes), production settings.
3. ``--viewers`` threads poll the room screen's live answer every ``--every``
   seconds (each starting at a random moment of the period), sending the
   ETag they hold, for ``--seconds`` seconds, while one writer enters the
   tables' hands, a hand every ``--hand-every`` seconds (10: eight tables each
   entering a hand every minute or two, as a night does).
4. Prints the polls a second, the share answered 304, the polls' p50 and p99,
   the CPU seconds the server's processes used a second (from /proc), and how
   long after a hand's 201 each viewer held the changed page (p50 and p99 over
   every hand and viewer: the poll's period at most, plus the answer's time).

Usage: ``python benchmarks/live_screens.py [--viewers 100] [--every 1.5] [--seconds 30]
[--tables 8] [--hand-every 10] [--workers 4] [--sqlite]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

try:
    from benchmarks.harness import HOST, data_made, free_port, fresh_postgres, percentile, prepare
except ImportError:  # run as a script: its own folder is on the path
    from harness import (  # type: ignore[no-redef]
        HOST,
        data_made,
        free_port,
        fresh_postgres,
        percentile,
        prepare,
    )

REPO = Path(__file__).resolve().parent.parent


@contextmanager
def database(args: argparse.Namespace) -> Iterator[str]:
    if args.sqlite:
        with tempfile.TemporaryDirectory(prefix="live-screens-") as folder:
            yield f"sqlite:///{folder}/db.sqlite3"
        return
    with fresh_postgres(args.server, args.database) as url:
        yield url


def environment(url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "DATABASE_URL")}
    env.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=f"{HOST},localhost",
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="ERROR",
        PYTHONPATH=str(REPO),
    )
    return env


def create_data(spec: dict[str, int]) -> dict[str, Any]:
    """Runs in the subprocess: an organiser's token, a night of tables, their games."""
    import datetime

    import django

    django.setup()
    from django.contrib.auth import get_user_model

    import games
    from games.bots import bot_game
    from league.services.accounts import api_token_create
    from league.services.clubs import club_create, player_create
    from league.services.fixtures import event_create, league_create, table_create

    user = get_user_model().objects.create_user(username="screens", password="x" * 20)
    token = api_token_create(user=user, name="benchmark").key
    club = club_create(organiser=user, name="Screens")
    league = league_create(club=club, name="Buck", game="buck_euchre")
    event = event_create(league=league, name="Night", date=datetime.date(2026, 12, 2), rounds=1)
    round_ = event.rounds.get()
    rules = games.rules_for("buck_euchre", 4, {})
    tables = []
    for number in range(spec["tables"]):
        players = [player_create(club=club, name=f"P{number}-{seat}") for seat in range(4)]
        table = table_create(round=round_, number=number + 1, players=players)
        tally = games.GameTally(rules, first_dealer=table.first_dealer)
        hands = []
        for log in bot_game(rules, first_dealer=table.first_dealer, seed=number):
            result = tally.add(log)
            hands.append(
                {
                    "trump": result.trump.value if result.trump else None,
                    "maker": result.maker,
                    "drops": sorted(result.drops),
                    "tricks": list(result.tricks),
                }
            )
        tables.append({"id": table.pk, "hands": hands})
    return {"token": token, "event": event.pk, "tables": tables}


@contextmanager
def gunicorn(env: dict[str, str], workers: int) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = free_port()
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"),
            *("--log-level", "warning", "--access-logfile", "/dev/null"),
        ],
        cwd=REPO,
        env={**env, "GUNICORN_BIND": f"{HOST}:{port}", "GUNICORN_WORKERS": str(workers)},
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection(HOST, port, timeout=2)
                conn.request("GET", "/api/")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        yield port, process
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def cpu_seconds(pid: int) -> float:
    """User and system CPU of ``pid`` and its children now running (gunicorn's workers)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    with suppress(OSError):
        pids += [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for each in pids:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def run(args: argparse.Namespace) -> None:
    with database(args) as url:
        env = environment(url)
        data = prepare(__file__, env, {"tables": args.tables}, static=True)
        with gunicorn(env, args.workers) as (port, server):
            measure(args, port, server.pid, data)


def measure(args: argparse.Namespace, port: int, pid: int, data: dict[str, Any]) -> None:
    path = f"/events/{data['event']}/live/?view=room"
    stop = time.monotonic() + args.seconds
    lock = threading.Lock()
    polls: list[float] = []
    statuses: dict[int, int] = {}
    seen: list[list[tuple[float, str]]] = []  # by viewer: when it was answered a new tag
    stored: dict[str, float] = {}  # when each hand's 201 came

    def viewer() -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        tag = ""
        mine: list[tuple[float, str]] = []
        with lock:
            seen.append(mine)
        time.sleep(random.uniform(0, args.every))
        while time.monotonic() < stop:
            began = time.perf_counter()
            try:
                conn.request("GET", path, headers={"If-None-Match": tag} if tag else {})
                answer = conn.getresponse()
                answer.read()
            except OSError:
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
                continue
            took = time.perf_counter() - began
            with lock:
                polls.append(took)
                statuses[answer.status] = statuses.get(answer.status, 0) + 1
                if answer.status == 200:
                    tag = answer.getheader("ETag") or ""
                    mine.append((time.monotonic(), tag))
            time.sleep(max(0.0, args.every - took))

    def writer() -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        headers = {"Authorization": f"Token {data['token']}", "Content-Type": "application/json"}
        queue = [(t["id"], n, h) for t in data["tables"] for n, h in enumerate(t["hands"])]
        queue.sort(key=lambda item: (item[1], item[0]))  # hand by hand across the tables
        for table, number, hand in queue:
            if time.monotonic() > stop - 3:
                return
            body = json.dumps({"number": number, "record": hand})
            conn.request("POST", f"/api/tables/{table}/hands/", body, headers)
            answer = conn.getresponse()
            answer.read()
            if answer.status == 201:
                with lock:
                    stored[f"{table}-{number}"] = time.monotonic()
            time.sleep(args.hand_every)

    before = cpu_seconds(pid)
    began = time.monotonic()
    threads = [threading.Thread(target=viewer) for _ in range(args.viewers)]
    threads.append(threading.Thread(target=writer))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - began
    used = cpu_seconds(pid) - before
    # lag: for each hand stored and each viewer, how long from the hand's 201 until
    # the viewer held a tag other than the one it held then (the hand's change)
    lags = []
    for at in stored.values():
        for answers in seen:
            held = next((tag for when, tag in reversed(answers) if when < at), "")
            later = next((when for when, tag in answers if when >= at and tag != held), None)
            if later is not None:
                lags.append(later - at)
    total = len(polls)
    print(
        f"{args.viewers} viewers polling every {args.every} s, {len(stored)} hands entered, "
        f"{args.workers} gunicorn workers, {'SQLite' if args.sqlite else 'PostgreSQL'}, "
        f"{os.cpu_count()} CPUs, {wall:.0f} s"
    )
    print(f"  polls a second            {total / wall:8.1f}")
    print(f"  answered 304              {100 * statuses.get(304, 0) / max(total, 1):7.1f} %")
    print(f"  other than 200 or 304     {total - statuses.get(304, 0) - statuses.get(200, 0):8d}")
    p50, p99 = (1000 * percentile(polls, fraction) for fraction in (0.5, 0.99))
    print(f"  poll p50 / p99            {p50:7.1f} / {p99:.1f} ms")
    share = 100 * used / wall / (os.cpu_count() or 1)
    print(f"  server CPU a second       {used / wall:8.2f} s ({share:.0f} % of the machine)")
    print(
        f"  a hand seen after p50/p99 {percentile(lags, 0.5):7.2f} / {percentile(lags, 0.99):.2f} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--every", type=float, default=1.5)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--hand-every", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file, not PostgreSQL")
    parser.add_argument("--database", default="league_bench_live")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--create-data", metavar="JSON", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if data_made(args, create_data):
        return 0
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
