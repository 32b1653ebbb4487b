"""How long an import of past results takes, and how much memory it holds: the figures
behind the import page's limits (1 MB, 20,000 rows, 500 games, 5,000 players), its
background job for large files, and the advice to use ``import_results`` beyond them.

What runs:

1. A scratch database: a SQLite file in a temporary folder (the default), or with
   ``--server postgres://user@host:port`` a fresh PostgreSQL database
   (``--database``, ``league_bench_imports`` by default), dropped at the end.
   Migrated; no broker, and the jobs an import owes run in this process after it
   commits (``JOBS_WITHOUT_BROKER=inline``), so that they can be timed.
2. A games CSV of ``--games`` complete four-seat Bluke games (25 hands each; 100
   rows a game) over nights of ``--tables`` tables and two rounds, among
   ``--players`` players, written as the export writes it: each hand's bids and
   tricks drawn at random, its points and totals scored by the engine.
3. Timed, each once: the check alone (``check_results_import``), the import into an
   empty league (``results_import``; its jobs after commit timed apart), and the
   same file imported again (every table found stored, nothing changed). The peak
   of Python's memory (``tracemalloc``) is given for the check, in a run of its own.
4. The import page's way with a large file, into another empty league: what its
   confirmation does while the browser waits (the check, then keeping the file and
   owing the job: ``results_import_queue``), and the background job
   (``results_import_run``) apart.
5. Players files of ``--player-rows`` names (5,000 and 60,000 by default): the check
   and the import into an empty club.

Usage: ``python benchmarks/imports.py [--games N] [--players N] [--tables N]
[--player-rows N ...] [--seed S] [--server postgres://user@host:port]
[--database NAME]``.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import io
import os
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parent.parent
DATABASE = "league_bench_imports"
T = TypeVar("T")


def games_csv(*, games: int, players: int, tables: int, seed: int) -> bytes:
    """A games CSV of complete four-seat Bluke games (see the module's docstring)."""
    import games as engine
    from league.csv_format import HAND_COLUMNS

    rng = random.Random(seed)
    rules = engine.rules_for("bluke", 4, {})
    names = [f"Player {n + 1}" for n in range(players)]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(HAND_COLUMNS)
    day = datetime.date(2020, 1, 2)
    sitting: list[str] = []
    for game in range(games):
        night, place = divmod(game, tables * 2)
        round_, table = divmod(place, tables)
        if place == 0 and game:
            day += datetime.timedelta(days=7)
        if place % tables == 0:  # a new round: its tables seat different players
            sitting = rng.sample(names, 4 * tables)
        seated = sitting[4 * table : 4 * table + 4]
        first_dealer = rng.randrange(4)
        tally = engine.GameTally(rules, first_dealer=first_dealer)
        for hand in range(len(rules.schedule)):
            dealer, cards = tally.next_dealer, tally.next_hand_size
            assert cards is not None
            tricks = [0, 0, 0, 0]
            for _ in range(cards):
                tricks[rng.randrange(4)] += 1
            bids = [max(1, min(cards, took + rng.choice((-1, 0, 0, 1)))) for took in tricks]
            trump = rng.choice("CDHS")
            result = tally.add({"cards": cards, "trump": trump, "bids": bids, "tricks": tricks})
            for seat in range(4):
                writer.writerow(
                    [
                        f"Night {night + 1}", day.isoformat(), round_ + 1, table + 1, hand + 1,
                        dealer + 1, cards, trump, "", seat + 1, seated[seat], bids[seat], "",
                        tricks[seat], result.points[seat], tally.totals[seat],
                    ]
                )  # fmt: skip
    return out.getvalue().encode()


def timed(label: str, work: Callable[[], T]) -> T:
    start = time.perf_counter()
    result = work()
    print(f"{label}: {time.perf_counter() - start:.2f} s")
    return result


def peak_memory(label: str, work: Callable[[], object]) -> None:
    """The most memory Python held for ``work`` (traced apart: tracing slows it)."""
    tracemalloc.start()
    work()
    print(f"{label}: peak {tracemalloc.get_traced_memory()[1] / 2**20:.0f} MiB of Python memory")
    tracemalloc.stop()


def run(args: argparse.Namespace) -> None:
    from django.db import transaction

    from league.models import Club, Hand, Table
    from league.services.clubs import club_create
    from league.services.fixtures import league_create
    from league.services.imports import (
        check_results_import,
        results_import,
        results_import_queue,
        results_import_run,
    )

    data = timed(
        "writing the file",
        lambda: games_csv(
            games=args.games, players=args.players, tables=args.tables, seed=args.seed
        ),
    )
    rows = data.count(b"\n") - 1
    print(f"file: {args.games} games, {rows} rows, {len(data) / 2**20:.1f} MiB")
    club: Club = club_create(name="Bench")
    league = league_create(club=club, name="Imported", game="bluke")

    check = timed("check", lambda: check_results_import(league=league, data=data))
    assert check.ok, check.problems[:5]
    peak_memory("check", lambda: check_results_import(league=league, data=data))
    jobs: list[Callable[[], None]] = []

    def import_only() -> Any:
        # the jobs owed are sent after commit: keep them aside to time them apart
        with transaction.atomic():
            done = results_import(league=league, data=data)
            jobs.extend(callback for _, callback, _ in transaction.get_connection().run_on_commit)
            transaction.get_connection().run_on_commit = []
        return done

    done = timed("import (one transaction)", import_only)
    timed(f"the jobs it owes, run here ({len(jobs)} sends)", lambda: [job() for job in jobs])
    print(
        f"stored: {Table.objects.filter(round__event__league=league).count()} tables, "
        f"{Hand.objects.filter(table__round__event__league=league).count()} hands, "
        f"{len(done.summary.new_players)} new players"
    )
    again = timed("the same file again", lambda: results_import(league=league, data=data))
    assert again.summary.new_tables == 0 and again.summary.skipped_tables == args.games

    other = league_create(club=club, name="Imported in the background", game="bluke")

    def confirm() -> Any:
        check = check_results_import(league=other, data=data)
        with transaction.atomic():  # its job, sent after commit, is run below instead
            queued = results_import_queue(check=check, data=data, digest=check.digest)
            transaction.get_connection().run_on_commit = []
        return queued

    queued = timed("the page's confirmation: checked, kept, its job owed", confirm)
    ran = timed(
        "its job, and the jobs it owes after", lambda: results_import_run(import_id=queued.pk)
    )
    assert ran == "done"

    for rows in args.player_rows:
        players_file(rows)


def players_file(rows: int) -> None:
    """A players file of ``rows`` names checked, then imported into an empty club."""
    from league.models import Club
    from league.services.clubs import club_create
    from league.services.imports import check_players_import, players_import

    names = b"name\n" + b"".join(b"Someone %d\n" % n for n in range(rows))
    club: Club = club_create(name=f"Players {rows}")
    timed(
        f"players file of {rows} names: check", lambda: check_players_import(club=club, data=names)
    )
    timed(f"players file of {rows} names: import", lambda: players_import(club=club, data=names))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--tables", type=int, default=5)
    parser.add_argument("--player-rows", type=int, nargs="*", default=[5_000, 60_000])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server", help="a PostgreSQL server: postgres://user@host:port")
    parser.add_argument("--database", default=DATABASE, help="the scratch database's name")
    args = parser.parse_args(argv)
    if args.players < 4 * args.tables:
        parser.error("--players must seat every table of a round: at least 4 a table")
    sys.path.insert(0, str(REPO))
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ["JOBS_WITHOUT_BROKER"] = "inline"  # the jobs run where they can be timed
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    with tempfile.TemporaryDirectory() as folder:
        if args.server:
            import psycopg

            admin = psycopg.connect(f"{args.server}/postgres", autocommit=True)
            admin.execute(f"CREATE DATABASE {args.database}")
            os.environ["DATABASE_URL"] = f"{args.server}/{args.database}"
        else:
            os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
        try:
            import django
            from django.core.management import call_command

            django.setup()
            call_command("migrate", "--no-input", verbosity=0)
            run(args)
        finally:
            if args.server:
                from django.db import connections

                connections.close_all()
                admin.execute(f"DROP DATABASE IF EXISTS {args.database}")


if __name__ == "__main__":
    main()
