"""A real Celery worker on Redis runs the work the results service dispatches.

The worker runs in a thread of this process (``celery.contrib.testing``), so
it sees the test database; the task crosses Redis because eager mode is off
and the broker is Redis. Without Redis the test is skipped, except in CI
(``CI=true``), where it must run.
"""

from __future__ import annotations

import datetime
import json
import os
import threading
from collections.abc import Iterator

import pytest
import redis
from celery import signals
from celery.contrib.testing.worker import start_worker

from config.celery import app as celery_app
from league.import_files.results import ImportFormat
from league.models import Club, Hand, Rating, Standing
from league.services.clubs import club_create, player_create
from league.services.fixtures import event_create, league_create, table_create
from league.services.imports import check_results_import, results_import_queue
from league.services.results import hand_submit
from tests.support.records import buck_takes_all

BROKER_URL = os.environ.get("CELERY_TEST_BROKER_URL", "redis://127.0.0.1:6379/15")


def _redis_answers() -> bool:
    try:
        return bool(redis.Redis.from_url(BROKER_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def _forget_broker_connections() -> None:
    """Drop Celery's pooled connections and producers. A task dispatched
    eagerly still takes a producer from the pool, which keeps the broker URL
    of that moment (Celery's default); switching brokers needs a fresh pool."""
    celery_app._pool = None
    if "amqp" in celery_app.__dict__:
        celery_app.amqp._producer_pool = None


@pytest.fixture
def redis_worker() -> Iterator[None]:
    """Celery pointed at Redis with eager mode off, and a worker thread."""
    if not _redis_answers():
        if os.environ.get("CI"):
            pytest.fail(f"CI needs Redis at {BROKER_URL} for the worker test")
        pytest.skip(f"no Redis at {BROKER_URL}")
    redis.Redis.from_url(BROKER_URL).flushdb()
    saved = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager")}
    celery_app.conf.update(broker_url=BROKER_URL, task_always_eager=False)
    _forget_broker_connections()
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            yield
    finally:
        celery_app.conf.update(saved)
        _forget_broker_connections()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_complete_game_updates_the_standings_through_a_worker_on_redis(
    redis_worker: None,
) -> None:
    club = club_create(name="Worker Club")
    players = [player_create(club=club, name=f"P{n}") for n in range(4)]
    league = league_create(club=club, name="Cup", game="buck_euchre")
    event = event_create(league=league, name="Night", date=datetime.date(2026, 11, 1))
    table = table_create(round=event.rounds.get(), number=1, players=players, first_dealer=0)
    assert not Standing.objects.exists()
    received: list[str] = []
    finished: list[str] = []
    all_done = threading.Event()
    expected = {
        "league.tasks.league_standings_refresh": 1,
        "league.tasks.ratings_refresh": 2,  # the league's and the club-wide ratings
    }

    def on_received(request: object, **_: object) -> None:
        received.append(getattr(request, "name", ""))

    def on_finished(task: object, **_: object) -> None:
        finished.append(getattr(task, "name", ""))
        if len(finished) == sum(expected.values()):
            all_done.set()

    signals.task_received.connect(on_received, weak=False)
    signals.task_postrun.connect(on_finished, weak=False)
    # seat 1 takes all five tricks: the game is won at once
    hand_submit(table=table, record={"trump": "S", "maker": 1, "tricks": [0, 5, 0, 0]})
    # Wait on the worker's signal, not by polling: SQLite's shared in-memory
    # test database locks a table that two threads use at once.
    assert all_done.wait(timeout=30), f"the worker ran only {finished}"
    signals.task_received.disconnect(on_received)
    signals.task_postrun.disconnect(on_finished)
    # the worker took the tasks from the broker: they were not run eagerly
    assert {name: received.count(name) for name in set(received)} == expected
    standings = {s.player.name: s for s in Standing.objects.filter(league=league)}
    assert standings["P1"].wins == 1
    assert standings["P1"].total_points == 20
    assert {s.games for s in standings.values()} == {1}
    ratings = Rating.objects.filter(scope__league=league).select_related("player")
    assert {r.player.name: r.games for r in ratings} == {"P0": 1, "P1": 1, "P2": 1, "P3": 1}
    assert max(ratings, key=lambda r: r.mu).player.name == "P1"
    assert Club.objects.count() == 1


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_results_file_queued_by_the_page_is_imported_by_a_worker_on_redis(
    redis_worker: None,
) -> None:
    """Issue 28: its task is a service's, sent by its name (league.outbox.JOB_TASKS)."""
    club = club_create(name="Import Club")
    league = league_create(club=club, name="Cup", game="buck_euchre")
    line = {
        "event": "Night",
        "date": "2026-11-01",
        "round": 1,
        "table": 1,
        "players": ["P0", "P1", "P2", "P3"],
        "record": {"game": "buck_euchre", "first_dealer": 0, "hands": [buck_takes_all(1)]},
    }
    data = json.dumps(line).encode()
    check = check_results_import(league=league, data=data, format=ImportFormat.JSON_LINES)
    finished: list[str] = []
    imported = threading.Event()

    def on_finished(task: object, **_: object) -> None:
        finished.append(getattr(task, "name", ""))
        if finished[-1] == "league.services.imports.results_import_job":
            imported.set()

    signals.task_postrun.connect(on_finished, weak=False)
    queued = results_import_queue(check=check, data=data, digest=check.digest)
    assert imported.wait(timeout=30), f"the worker ran only {finished}"
    signals.task_postrun.disconnect(on_finished)
    queued.refresh_from_db()
    assert queued.state == "done" and queued.summary is not None
    assert Hand.objects.filter(table__round__event__league=league).count() == 1
