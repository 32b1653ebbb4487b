"""Jobs without a broker run in a thread of the web process (league.background):
the request that owed them answers first; they run once each, in order; one
that fails is logged and stays owed; the thread sweeps when idle; a process
finishes its queued jobs when it exits."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import pytest
from django.db import connection
from django.test import override_settings

from league import outbox, standings
from league.background import JobThread
from league.models import Game, JobOwed, Standing
from tests.support.api import client_for
from tests.support.records import buck_takes_all
from tests.support.setups import club_setup


class Recorder:
    """A job runner for a :class:`JobThread` that records what it ran, and
    may be held at a gate."""

    def __init__(self) -> None:
        self.ran: list[tuple[str, int]] = []
        self.sweeps = 0
        self.gate = threading.Event()
        self.gate.set()
        self.started = threading.Event()

    def run(self, kind: str, target_id: int) -> None:
        self.started.set()
        assert self.gate.wait(10)
        if kind == "broken":
            raise RuntimeError("the job is broken")
        self.ran.append((kind, target_id))

    def sweep(self) -> None:
        self.sweeps += 1


def test_jobs_run_in_the_thread_in_order_and_a_waiting_job_is_queued_once() -> None:
    recorder = Recorder()
    jobs = JobThread(run=recorder.run, sweep=recorder.sweep, sweep_every=60)
    recorder.gate.clear()
    jobs.submit("standings", 1)
    assert recorder.started.wait(10)  # the first runs, held at the gate
    for job in [("ratings", 2), ("standings", 3), ("ratings", 2), ("standings", 1)]:
        jobs.submit(*job)
    assert recorder.ran == []  # the caller did not wait for any of them
    recorder.gate.set()
    assert jobs.drain(10)
    # ("ratings", 2) waited already when it came again; ("standings", 1) was running
    assert recorder.ran == [("standings", 1), ("ratings", 2), ("standings", 3), ("standings", 1)]
    assert threading.current_thread().name != "league-jobs"


def test_a_job_that_fails_is_logged_and_the_thread_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    recorder = Recorder()
    jobs = JobThread(run=recorder.run, sweep=recorder.sweep, sweep_every=60)
    with caplog.at_level(logging.ERROR, logger="league.background"):
        jobs.submit("broken", 1)
        jobs.submit("standings", 2)
        assert jobs.drain(10)
    assert recorder.ran == [("standings", 2)]
    failures = [r.getMessage() for r in caplog.records if r.name == "league.background"]
    assert failures == ["the broken job for 1 failed in the background thread; it stays owed"]


def test_an_idle_thread_sweeps() -> None:
    recorder = Recorder()
    jobs = JobThread(run=recorder.run, sweep=recorder.sweep, sweep_every=0.05)
    jobs.submit("standings", 1)
    deadline = time.monotonic() + 10
    while recorder.sweeps < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert recorder.sweeps >= 2


def test_drain_without_a_thread_returns_at_once() -> None:
    recorder = Recorder()
    jobs = JobThread(run=recorder.run, sweep=recorder.sweep, sweep_every=60)
    assert jobs.drain(0)


def test_a_requests_jobs_wait_until_its_response_is_sent() -> None:
    recorder = Recorder()
    jobs = JobThread(run=recorder.run, sweep=recorder.sweep, sweep_every=60)
    jobs.hold()  # a request begins in this thread
    jobs.submit_after_response("standings", 1)
    jobs.submit_after_response("ratings", 2)
    elsewhere = threading.Thread(target=jobs.submit_after_response, args=("standings", 3))
    elsewhere.start()  # another thread, serving no request: at once
    elsewhere.join()
    assert jobs.drain(10)
    assert recorder.ran == [("standings", 3)]
    jobs.release()  # the response has been sent
    assert jobs.drain(10)
    assert recorder.ran == [("standings", 3), ("standings", 1), ("ratings", 2)]
    jobs.submit_after_response("standings", 4)  # no request now: at once
    assert jobs.drain(10)
    assert recorder.ran[-1] == ("standings", 4)


@pytest.mark.django_db(transaction=True)
def test_the_last_hand_answers_before_its_jobs_run_and_they_run_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    gate, started = threading.Event(), threading.Event()
    catch_up = standings.standings_catch_up

    def held(*, league: Any) -> int:
        started.set()
        assert gate.wait(20)
        return catch_up(league=league)

    monkeypatch.setattr(standings, "standings_catch_up", held)
    client = client_for(setup.scorekeeper)
    try:
        with override_settings(JOBS_WITHOUT_BROKER="thread"):
            response = client.post(
                f"/api/tables/{setup.table.pk}/hands/",
                {"number": 0, "record": buck_takes_all(1)},
            )
            assert response.status_code == 201, response.content
            # answered while the standings job waits in the thread: nothing computed yet
            assert started.wait(20)
            assert not Standing.objects.exists()
            assert JobOwed.objects.filter(kind="standings").exists()
    finally:
        gate.set()
    assert outbox._job_thread.drain(30)
    assert Standing.objects.filter(league=setup.league, event=None).count() == 4
    assert not JobOwed.objects.exists()  # the ratings ran too, after the standings
    connection.close()
