"""How long each background job takes on a big league: the figure the broker's
visibility timeout is set from.

Why: a worker takes a job's message from Redis and acknowledges it when the job
is done (``acks_late``); a message left unacknowledged longer than the
visibility timeout (``CELERY_BROKER_TRANSPORT_OPTIONS`` in the settings) is
given to another worker, since its worker is presumed dead. The timeout must
be longer than the longest job, or every long job runs twice, and as short as
that allows, or a dead worker's jobs wait that long.

What runs:

1. A fresh PostgreSQL database (``--database``, default ``league_bench_jobs``;
   the script stops if it exists already), migrated, Django set up in this
   process with production settings and no broker, as in ``ratings_rebuild.py``,
   whose loader makes one club of ``--players`` players (2,000) and a Buck
   Euchre league of ``--games`` complete four-player games (100,000). Each game
   gets its hands here too (as many as the loader says it played, 6 to 20),
   with a line per seat, made by SQL inside the database: the standings sum
   every hand line, so a league without them would time a smaller job.
   Loading is timed but not measured.
2. Each job as a worker runs it, through its Celery task (eagerly, in this
   process: the same code, its lock and the work owed included), owed afresh
   before each run: the standings job (``league_standings_refresh``) owed a
   full rebuild of the league (its longest run: a completed game costs it
   milliseconds, see ``scale.py``) and a
   full re-rating of the league's scope (``ratings_refresh`` owed a
   re-rating from the first game, as a correction of the league's first game
   owes it). Best and worst of ``--repeat`` runs.
3. A game completed in the league while its full re-rating runs (in a thread
   of its own): how long the completion took, and whether the job was still
   running when it was done (the completion is rolled back, so it owes
   nothing). It waited for the whole re-rating before (issue 28 item 11).
4. The longest job's worst run next to the visibility timeout in force, and
   the most its work stays undone after its message is lost or its worker
   dies: the sweep's wait before sending it again (``outbox.RESEND_AFTER``),
   the time to the next sweep (``outbox.SWEEP_EVERY``) and the job (the issue's
   bound: 60 s once the broker and a worker are back).

The database is dropped at the end, whatever happens.

Usage: ``python benchmarks/job_durations.py [--games N] [--players N] [--repeat R]
[--seed S] [--database NAME] [--server postgres://user@host:port]``; about 5
minutes on 2 cores at the defaults.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from api_throughput import fresh_database
from ratings_rebuild import SEATS, TABLES_PER_ROUND, load_league, setup_django

HANDS_AND_LINES = """
INSERT INTO league_hand (table_id, number, dealer, cards, trump, maker, drops, takes_all,
                         is_move_log, record, submitted_at)
SELECT t.id, n, (t.first_dealer + n) %% 4, 5, 'S', (n + 1) %% 4, '[]', NULL, false,
       '{}', now()
FROM league_table t CROSS JOIN LATERAL generate_series(0, t.hands_played - 1) AS n
WHERE t.round_id IN (SELECT r.id FROM league_round r JOIN league_event e ON e.id = r.event_id
                     WHERE e.league_id = %(league)s);
INSERT INTO league_handseat (hand_id, seat, player_id, dropped, bid, tricks, points, total)
SELECT h.id, s.seat, s.player_id, (h.number + s.seat) %% 7 = 0, NULL,
       (h.number + s.seat) %% 4, CASE WHEN (h.number + s.seat) %% 5 = 0 THEN 5 ELSE -1 END, 0
FROM league_hand h JOIN league_seating s ON s.table_id = h.table_id
WHERE h.table_id IN (SELECT t.id FROM league_table t JOIN league_round r ON r.id = t.round_id
                     JOIN league_event e ON e.id = r.event_id WHERE e.league_id = %(league)s);
ANALYZE;
"""


ONE_DAY = datetime.timedelta(days=1)


def timed(runs: int, prepare: Callable[[], None], job: Callable[[], int]) -> list[float]:
    """Seconds of each of ``runs`` runs of ``job``, each after ``prepare``."""
    seconds = []
    for _ in range(runs):
        prepare()
        began = time.perf_counter()
        job()
        seconds.append(time.perf_counter() - began)
    return seconds


class Rollback(Exception):
    """Raised to roll a measured change back."""


def completion_while(job: Callable[[], int], *, table: Any, scope_id: int) -> tuple[float, bool]:
    """Seconds a game takes to complete at ``table`` (rolled back) while ``job``,
    the scope's re-rating, runs in a thread of its own, and whether the job
    still ran once the game was stored."""
    from django.db import connection, transaction

    from league import outbox
    from league.models import JobOwed
    from league.services.results import hand_submit

    def in_thread() -> None:
        try:
            job()
        finally:
            connection.close()

    worker = threading.Thread(target=in_thread)
    worker.start()
    rating = [(JobOwed.Kind.RATINGS, scope_id)]
    while not outbox.jobs_running(rating):  # the job holds its lock: it runs
        time.sleep(0.005)
    began = time.perf_counter()
    try:
        with transaction.atomic():
            # seat 1 makes spades and takes all five tricks: the game is won
            hand_submit(table=table, record={"trump": "S", "maker": 1, "tricks": [0, 5, 0, 0]})
            took = time.perf_counter() - began
            still_running = bool(outbox.jobs_running(rating))
            raise Rollback
    except Rollback:
        pass
    worker.join()
    return took, still_running


def run(args: argparse.Namespace) -> int:
    with fresh_database(args.server, args.database) as url:
        setup_django(url)
        from django.conf import settings
        from django.db import connection
        from django.utils import timezone

        from league import outbox, tasks
        from league.models import Club, HandSeat, JobOwed, Player, RatingsOwed, StandingsOwed
        from league.ratings import EARLIEST
        from league.services.fixtures import event_create, table_create

        began = time.perf_counter()
        club = Club.objects.create(name="Benchmark Club", slug="benchmark-club")
        players = [
            p.pk
            for p in Player.objects.bulk_create(
                Player(club=club, name=f"Player {n + 1:05d}") for n in range(args.players)
            )
        ]
        league = load_league(
            club=club,
            players=players,
            skill=dict.fromkeys(players, 0.0),
            games=args.games,
            name="Big Buck Euchre",
            seed=args.seed,
        )
        with connection.cursor() as cursor:
            # a statement at a time: parameters bound on the server take one each
            for statement in filter(str.strip, HANDS_AND_LINES.split(";")):
                cursor.execute(statement, {"league": league.league.pk})
        print(
            f"loaded a league of {league.games:,} games and {HandSeat.objects.count():,} hand "
            f"lines in {time.perf_counter() - began:.0f} s (not measured)"
        )
        # the jobs as a worker runs them: no broker here, so Celery runs them in this process
        assert settings.CELERY_TASK_ALWAYS_EAGER

        def owe(kind: JobOwed.Kind, target_id: int) -> None:
            """The row a service writes (not :func:`~league.outbox.job_owe`,
            which would also run the job at once, there being no broker)."""
            now = timezone.now()
            JobOwed.objects.create(
                kind=kind, target_id=target_id, owed_since=now, owed_at=now, token=outbox.token()
            )

        def owe_standings() -> None:
            # a full rebuild, the longest the standings job runs (a correction
            # of many nights at once, or a repair): a completed game costs milliseconds
            StandingsOwed.objects.create(league_id=league.league.pk, owed_at=timezone.now())
            owe(JobOwed.Kind.STANDINGS, league.league.pk)

        def owe_ratings() -> None:
            # the row a correction of the first game writes
            RatingsOwed.objects.create(
                scope_id=league.scope.pk, rerate_from=EARLIEST, owed_at=timezone.now()
            )
            owe(JobOwed.Kind.RATINGS, league.scope.pk)

        figures = {
            "standings job, full rebuild (league_standings_refresh)": timed(
                args.repeat, owe_standings, lambda: tasks.league_standings_refresh(league.league.pk)
            ),
            "full re-rating (ratings_refresh)": timed(
                args.repeat, owe_ratings, lambda: tasks.ratings_refresh(league.scope.pk)
            ),
        }
        print(f"\neach job on a league of {league.games:,} games, {args.repeat} runs:")
        for name, seconds in figures.items():
            print(f"  {name:45} best {min(seconds):6.1f} s   worst {max(seconds):6.1f} s")

        night = event_create(
            league=league.league, name="One more night", date=league.last_night + ONE_DAY
        )
        table = table_create(
            round=night.rounds.get(), number=1, players=Player.objects.filter(pk__in=players[:4])
        )
        owe_ratings()
        took, still_running = completion_while(
            lambda: tasks.ratings_refresh(league.scope.pk), table=table, scope_id=league.scope.pk
        )
        print(
            f"\na game completed while the full re-rating ran: stored in {1000 * took:.0f} ms, "
            f"{'the job still running' if still_running else 'after the job had ended'}"
        )
        longest = max(max(seconds) for seconds in figures.values())
        timeout = outbox.visibility_timeout()
        print(
            f"\nlongest job: {longest:.1f} s; the visibility timeout: {timeout:.0f} s, "
            f"{timeout / longest:.1f} times the longest"
        )
        resend, every = outbox.RESEND_AFTER.total_seconds(), outbox.SWEEP_EVERY
        print(
            f"a message lost or a worker dead: done within {resend + every + longest:.0f} s "
            f"(sent again {resend:.0f} s after, a sweep every {every:.0f} s, the job; "
            f"target 60 s)"
        )
        assert not JobOwed.objects.exists(), "a job left its work owed"
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="of the league (100000)")
    parser.add_argument("--players", type=int, default=2_000, help="of the club (2000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each job (3)")
    parser.add_argument("--seed", type=int, default=2026, help="of the synthetic data (2026)")
    parser.add_argument("--database", default="league_bench_jobs", help="created and dropped")
    parser.add_argument(
        "--server",
        default="postgres://postgres@127.0.0.1:5432",
        help="PostgreSQL server URL, without a database (postgres://postgres@127.0.0.1:5432)",
    )
    args = parser.parse_args(argv)
    if args.players < SEATS * TABLES_PER_ROUND or args.games < 1 or args.repeat < 1:
        parser.error(f"--players must be {SEATS * TABLES_PER_ROUND} or more, the others 1 or more")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
