"""The background jobs under broker and worker faults, with a real Redis and
real Celery workers, on loopback.

- Redis stopped (refusing) or frozen (SIGSTOP: it accepts connections and
  never answers) while a game completes: the submission is answered 201
  within 2 s with its work owed; once Redis is back, the sweep sends the work
  and a worker brings the standings and ratings up to date.
- Redis restarted empty after a game completed while no worker ran: the
  messages it held are lost; the sweep sends the work again once it has gone
  undone for ``outbox.RESEND_AFTER``, so the league is up to date within a
  minute of Redis and a worker being back.
- A worker killed (SIGKILL) in the middle of a job: another worker runs the
  job once the broker's visibility timeout has passed (a few seconds here,
  by ``tests/faults/worker_settings.py``). PostgreSQL only: the workers are
  processes of their own, which SQLite's in-memory test database cannot serve.
- The sweep does not send again a job that runs (it holds its lock), and
  sends it once the lock is free and the work still owed. PostgreSQL only.
- Two standings jobs of one league at once both succeed, and so do two
  ratings jobs of one scope. PostgreSQL only: SQLite lets one transaction
  write at a time, and has no such race.

Each test starts a Redis of its own on a free loopback port; without
``redis-server`` the tests are skipped, except in CI (``CI=true``), where
they fail. Timed assertions are generous upper bounds, only to show that a
wait was bounded.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from celery import signals
from django.db import connection
from django.db.models import F
from django.utils import timezone

from league import outbox, ratings, standings, tasks
from league.models import Game, JobOwed, RatingScope, RatingsOwed, Standing, StandingsOwed
from league.outbox import jobs_sweep, standings_owe
from league.standings import standing_rows
from tests.faults.worker_settings import VISIBILITY_TIMEOUT
from tests.support.api import client_for
from tests.support.brokers import OwnRedis, celery_on, free_port, own_redis, thread_worker
from tests.support.records import buck_takes_all
from tests.support.setups import ClubSetup, club_setup

pytestmark = pytest.mark.django_db(transaction=True)

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="worker processes and concurrent writers need PostgreSQL",
)

ANSWERED_WITHIN = 2.0
"""Seconds: the issue's bound on a submission's answer whatever the broker does."""
WAIT = 30.0
"""Seconds any step of these tests may wait for a worker before the test fails."""
REPO = Path(__file__).resolve().parents[2]
WORKER_APP_NAME = "league-fault-worker"
"""The ``application_name`` of the worker processes' database sessions."""


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[OwnRedis]:
    with own_redis(tmp_path) as server:
        yield server


def submit_the_winning_hand(setup: ClubSetup) -> tuple[int, float]:
    """Seat 1 makes spades and takes all five tricks, which wins the game at
    once, through the API: its status and how long it took to answer."""
    client = client_for(setup.scorekeeper)
    started = time.monotonic()
    response = client.post(
        f"/api/tables/{setup.table.pk}/hands/", {"number": 0, "record": buck_takes_all(1)}
    )
    return response.status_code, time.monotonic() - started


def the_jobs_of(setup: ClubSetup) -> set[tuple[str, int]]:
    """The tasks and arguments a complete game of the setup's league owes."""
    scopes = RatingScope.objects.filter(club=setup.club).values_list("pk", flat=True)
    return {(tasks.league_standings_refresh.name, setup.league.pk)} | {
        (tasks.ratings_refresh.name, pk) for pk in scopes
    }


@contextmanager
def finished(expected: set[tuple[str, int]]) -> Iterator[threading.Event]:
    """An event set once each of ``expected`` (task name, argument) has run to
    success in a worker thread of this process, whatever else ran."""
    done: set[tuple[str, int]] = set()
    all_done = threading.Event()

    def on_postrun(task: Any = None, args: Any = (), state: str = "", **_: Any) -> None:
        if state == "SUCCESS" and args:
            done.add((task.name, args[0]))
            if expected <= done:
                all_done.set()

    signals.task_postrun.connect(on_postrun, weak=False)
    try:
        yield all_done
    finally:
        signals.task_postrun.disconnect(on_postrun)


def assert_up_to_date(setup: ClubSetup) -> None:
    """The league's stored standings are what its games say, its scopes
    rated, and no work is owed."""
    assert not JobOwed.objects.exists()
    stored = {
        s.player_id: (s.games, s.wins, s.total_points, s.rank)
        for s in Standing.objects.filter(league=setup.league, event=None)
    }
    now = {
        row["player_id"]: (row["games"], row["wins"], row["total_points"], row["rank"])
        for row in standing_rows(league=setup.league)
    }
    assert stored == now and len(stored) == 4
    scopes = RatingScope.objects.filter(club=setup.club)
    assert scopes.count() == 2
    assert not RatingsOwed.objects.exists()
    for scope in scopes:
        assert scope.rerate_from is None
        assert scope.ratings.count() == 4


def sweep_and_work(setup: ClubSetup) -> None:
    """The sweep sends the work owed; a worker does it."""
    # owed long enough for the sweep to send it (rather than wait out its grace)
    JobOwed.objects.update(owed_since=F("owed_since") - timedelta(minutes=1))
    assert jobs_sweep() == 3
    # The worker starts once the sweep is done: SQLite's shared in-memory test
    # database locks a table that two threads use at once.
    with finished(the_jobs_of(setup)) as all_done, thread_worker():
        assert all_done.wait(WAIT), "the worker did not run the jobs the sweep sent"


# -- the broker fails while a game completes ---------------------------------------------


def test_redis_stopped_while_a_game_completes(redis_server: OwnRedis) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    with celery_on(redis_server.url):
        redis_server.stop()
        status, took = submit_the_winning_hand(setup)
        assert status == 201
        assert took < ANSWERED_WITHIN, took
        assert JobOwed.objects.filter(sent_at__isnull=True).count() == 3
        assert not Standing.objects.exists()

        redis_server.start()  # empty: nothing was kept
        sweep_and_work(setup)
    assert_up_to_date(setup)


def test_redis_frozen_while_a_game_completes(redis_server: OwnRedis) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    with celery_on(redis_server.url):
        redis_server.freeze()
        try:
            status, took = submit_the_winning_hand(setup)
        finally:
            redis_server.thaw()
        assert status == 201
        assert took < ANSWERED_WITHIN, took
        assert JobOwed.objects.filter(sent_at__isnull=True).count() == 3
        assert not Standing.objects.exists()

        sweep_and_work(setup)
    assert_up_to_date(setup)


STALE_AT_MOST = 60.0
"""Seconds: the issue's bound on how long anything stays stale after a single
fault, once the broker and a worker are back."""


def test_a_message_lost_with_redis_restarted_empty_is_sent_again_within_a_minute(
    redis_server: OwnRedis,
) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    with celery_on(redis_server.url):
        status, _ = submit_the_winning_hand(setup)  # published; no worker takes it
        assert status == 201
        assert JobOwed.objects.filter(sent_at__isnull=False).count() == 3
        redis_server.stop()
        redis_server.start()  # empty: the three messages are lost
        assert not Standing.objects.exists()

        # as when the sweep comes RESEND_AFTER after the send (the test does
        # not wait it out): the work is still owed, and no job of it runs
        assert jobs_sweep() == 0  # just sent: the message may still be on its way
        JobOwed.objects.update(
            owed_since=F("owed_since") - outbox.RESEND_AFTER,
            sent_at=F("sent_at") - outbox.RESEND_AFTER,
        )
        started = time.monotonic()
        assert jobs_sweep() == 3
        with finished(the_jobs_of(setup)) as all_done, thread_worker():
            assert all_done.wait(WAIT), "the worker did not run the jobs the sweep sent"
        worked = time.monotonic() - started
    assert_up_to_date(setup)
    # the worst case: lost just after the send, the sweep sees it RESEND_AFTER
    # later, at most SWEEP_EVERY after that, then the work itself
    worst = outbox.RESEND_AFTER.total_seconds() + outbox.SWEEP_EVERY + worked
    assert worst < STALE_AT_MOST, worst


# -- a worker dies in the middle of a job ------------------------------------------------


@contextmanager
def worker_process(name: str, broker: str, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``celery worker`` as a process of its own (one job at a time), on the
    test database and ``broker``, with the fault tests' short visibility
    timeout; stopped at the end if it still runs."""
    settings = connection.settings_dict
    database = (
        f"postgres://{settings['USER']}:{settings['PASSWORD'] or ''}@{settings['HOST']}:"
        f"{settings['PORT'] or 5432}/{settings['NAME']}"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.faults.worker_settings",
        "DATABASE_URL": database,
        "CELERY_BROKER_URL": broker,
        "PGAPPNAME": WORKER_APP_NAME,
        "PYTHONPATH": str(REPO),
    }
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo"]
    command += ["--without-heartbeat", "--without-gossip", "--without-mingle"]
    command += ["--loglevel", "INFO", "--hostname", f"{name}@%h"]
    with log.open("wb") as output:
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        try:
            yield process
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(10)


@contextmanager
def lock_held_elsewhere(
    target_id: int, *, kind: JobOwed.Kind = JobOwed.Kind.STANDINGS
) -> Iterator[psycopg.Connection[Any]]:
    """The lock of ``kind``'s job on ``target_id`` (a league's standings lock,
    by default; a scope's ratings lock), held by a connection of the test's
    own until the block ends: a job waits for it, and seems to run."""
    settings = connection.settings_dict
    holder = psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        dbname=settings["NAME"],
    )
    try:
        holder.execute(
            "SELECT pg_advisory_xact_lock(%s::integer, %s::integer)",
            [outbox.JOB_LOCKS[kind], target_id % 2**31],
        )
        yield holder
    finally:
        holder.rollback()
        holder.close()


def waiting_for_the_lock(
    holder: psycopg.Connection[Any], target_id: int, *, kind: JobOwed.Kind = JobOwed.Kind.STANDINGS
) -> int:
    """How many sessions wait for the lock of ``kind``'s job on ``target_id``."""
    row = holder.execute(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        " AND classid = %s AND objid = %s AND objsubid = 2",
        [outbox.JOB_LOCKS[kind], target_id % 2**31],
    ).fetchone()
    return int(row[0]) if row else 0


def until(condition: Callable[[], bool], timeout: float) -> bool:
    """Whether ``condition`` held within ``timeout`` seconds (asked every 0.1 s)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


@pytest.fixture
def no_worker_sessions_left() -> Iterator[None]:
    """End the database sessions the worker processes left (a killed worker's
    session lingers until it next talks to its client), so the test database
    can be dropped."""
    yield
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [WORKER_APP_NAME],
        )


@postgresql_only
def test_a_worker_killed_mid_job_leaves_it_to_another_within_the_visibility_timeout(
    redis_server: OwnRedis, tmp_path: Path, no_worker_sessions_left: None
) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    status, _ = submit_the_winning_hand(setup)  # no broker yet: the jobs ran here
    assert status == 201 and not JobOwed.objects.exists()
    Standing.objects.filter(league=setup.league).delete()
    league_id = setup.league.pk

    with lock_held_elsewhere(league_id) as holder, celery_on(redis_server.url):
        standings_owe(league_id=league_id)  # a full rebuild, committed: published
        assert JobOwed.objects.get().sent_at is not None
        with worker_process("doomed", redis_server.url, tmp_path / "doomed.log") as doomed:
            # the worker took the job and waits, mid-job, for the lock
            assert until(lambda: waiting_for_the_lock(holder, league_id) == 1, WAIT), (
                tmp_path / "doomed.log"
            ).read_text()
            os.killpg(doomed.pid, signal.SIGKILL)
            doomed.wait(10)
        killed_at = time.monotonic()
    # the lock is free again; the killed worker's job is still owed
    assert JobOwed.objects.exists() and not Standing.objects.exists()

    log = tmp_path / "survivor.log"
    with worker_process("survivor", redis_server.url, log):
        done = until(
            lambda: not JobOwed.objects.exists() and Standing.objects.exists(),
            # the timeout, a second for the worker's look for such jobs, its start
            VISIBILITY_TIMEOUT + 1 + WAIT,
        )
        took = time.monotonic() - killed_at
    assert done, log.read_text()
    assert took >= VISIBILITY_TIMEOUT, "given to another worker before the timeout"
    assert "league_standings_refresh" in log.read_text()
    assert_up_to_date(setup)


# -- two standings jobs of one league at once --------------------------------------------


def at_once(
    work: Callable[[], Any],
    holder: psycopg.Connection[Any],
    target_id: int,
    *,
    kind: JobOwed.Kind = JobOwed.Kind.STANDINGS,
) -> list[Any]:
    """Run ``work`` in two threads (two connections) that both start while the
    lock of ``kind``'s job on ``target_id`` is held elsewhere (``holder``), so
    both wait for it, then let them go: their answers (or errors), in the
    order they finished."""
    answers: list[Any] = []

    def run() -> None:
        try:
            answers.append(work())
        except Exception as error:  # shown by the caller's assertion
            answers.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        assert until(lambda: waiting_for_the_lock(holder, target_id, kind=kind) == 2, WAIT)
    finally:
        holder.rollback()  # let them go
        for thread in threads:
            thread.join(WAIT)
    return answers


@postgresql_only
def test_two_standings_jobs_of_one_league_at_once_both_succeed() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    assert submit_the_winning_hand(setup)[0] == 201  # no broker: the jobs ran here
    league = setup.league

    # the write itself, twice at once: one after the other, both succeed
    with lock_held_elsewhere(league.pk) as holder:
        answers = at_once(lambda: standings.standings_refresh(league=league), holder, league.pk)
    assert answers == [4, 4]

    # the job, owed once and sent twice: the second finds the work done
    now = timezone.now()
    StandingsOwed.objects.create(league=league, owed_at=now)  # a full rebuild
    JobOwed.objects.create(
        kind=JobOwed.Kind.STANDINGS,
        target_id=league.pk,
        owed_since=now,
        owed_at=now,
        token=outbox.token(),
    )
    with lock_held_elsewhere(league.pk) as holder:
        answers = at_once(lambda: tasks.league_standings_refresh(league.pk), holder, league.pk)
    assert answers == [1, 0]  # the one line owed (the whole league), then nothing
    assert_up_to_date(setup)


@postgresql_only
def test_two_ratings_jobs_of_one_scope_at_once_both_succeed() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    assert submit_the_winning_hand(setup)[0] == 201  # no broker: the jobs ran here
    scope = RatingScope.objects.get(league=setup.league)

    # owed once (a correction, say) and sent twice: the second finds the work done
    RatingsOwed.objects.create(scope=scope, rerate_from=ratings.EARLIEST, owed_at=timezone.now())
    JobOwed.objects.create(
        kind=JobOwed.Kind.RATINGS,
        target_id=scope.pk,
        owed_since=timezone.now(),
        owed_at=timezone.now(),
        token=outbox.token(),
    )
    kind = JobOwed.Kind.RATINGS
    with lock_held_elsewhere(scope.pk, kind=kind) as holder:
        answers = at_once(lambda: tasks.ratings_refresh(scope.pk), holder, scope.pk, kind=kind)
    assert answers == [1, 0]  # the one game re-rated, then nothing
    assert_up_to_date(setup)


@postgresql_only
def test_the_sweep_leaves_a_job_that_runs_and_sends_it_once_it_stopped() -> None:
    """Work sent a while ago and still owed whose job holds its lock is being
    done (a long re-rating, say): sending it again would only queue a copy
    behind it. Once the lock is free with the work still owed (the worker
    died), the sweep sends it."""
    setup = club_setup(game=Game.BUCK_EUCHRE)
    with celery_on(f"redis://127.0.0.1:{free_port()}/0"):  # refuses: the work stays owed
        assert submit_the_winning_hand(setup)[0] == 201
    a_while_ago = timezone.now() - outbox.RESEND_AFTER - timedelta(seconds=1)
    JobOwed.objects.update(owed_since=a_while_ago, sent_at=a_while_ago)
    sent: list[tuple[str, int]] = []

    def send(task: Any, *, kind: str, target_id: int, in_request: bool) -> bool:
        sent.append((kind, target_id))
        return True

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(outbox, "send", send)
        with lock_held_elsewhere(setup.league.pk):  # its standings job runs
            assert jobs_sweep() == 2
        assert ("standings", setup.league.pk) not in sent
        assert jobs_sweep() == 3  # stopped, and the work still owed
    assert sent.count(("standings", setup.league.pk)) == 1
