"""``/healthz`` answers within 3 s whatever the broker or the database does.

A Redis of the test's own, on a free loopback port, is running, frozen
(SIGSTOP: it accepts connections and never answers) or stopped (refusing).
The tests need ``redis-server`` and are skipped without it, except in CI
(``CI=true``), where they must run. A database that never answers is made
by hand: the probe is held until the test lets it go.

Timed assertions are generous upper bounds, only to show the answer was bounded.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from django.test import Client, override_settings

from league import health

pytestmark = pytest.mark.django_db

ANSWER_WITHIN = 3.0
"""Seconds: the issue's bound on a /healthz answer."""


@dataclass
class OwnRedis:
    process: subprocess.Popen[bytes]
    url: str

    def freeze(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        self.thaw()  # a frozen process cannot act on SIGTERM
        self.process.terminate()
        self.process.wait(10)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """A Redis of this test's own, which the settings point at."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs redis-server for the broker fault tests")
        pytest.skip("no redis-server on PATH")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    server = OwnRedis(process, url)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(url, socket_timeout=1).ping()
                break
            except redis.RedisError:
                assert time.monotonic() < deadline, "the test's Redis did not start"
                time.sleep(0.05)
        with override_settings(CELERY_BROKER_URL=url):
            yield server
    finally:
        if process.poll() is None:
            server.stop()
        forget_hanging_probes()


def forget_hanging_probes() -> None:
    """Let the probes left hanging by a test end (their sockets time out), so
    that the next test starts with none."""
    for probe in list(health._hanging.values()):
        probe.join(15)
    health._hanging.clear()


def check() -> tuple[int, dict[str, str], float]:
    started = time.monotonic()
    response = Client().get("/healthz")
    return response.status_code, response.json(), time.monotonic() - started


def test_a_running_broker_is_healthy(own_redis: OwnRedis) -> None:
    status, body, _ = check()
    assert (status, body["broker"], body["database"]) == (200, "ok", "ok")


def test_a_frozen_broker_is_a_503_within_3_seconds_and_healthy_again_once_thawed(
    own_redis: OwnRedis,
) -> None:
    own_redis.freeze()
    status, body, took = check()
    assert status == 503 and body["broker"].startswith("error"), body
    assert body["database"] == "ok"
    assert took < ANSWER_WITHIN, took
    # asked again while the first probe still hangs: answered as fast
    status, body, took = check()
    assert status == 503 and took < ANSWER_WITHIN, (body, took)

    own_redis.thaw()
    deadline = time.monotonic() + 15
    while (answer := check())[0] != 200:
        assert time.monotonic() < deadline, answer
        time.sleep(0.2)


def test_a_stopped_broker_is_a_503_within_3_seconds(own_redis: OwnRedis) -> None:
    own_redis.stop()
    status, body, took = check()
    assert status == 503 and body["broker"].startswith("error"), body
    assert took < ANSWER_WITHIN, took


def test_a_database_that_never_answers_is_a_503_within_3_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answer = threading.Event()

    def database_hangs() -> str:
        assert answer.wait(30)
        return "ok"

    monkeypatch.setattr(health, "_database_status", database_hangs)
    try:
        status, body, took = check()
        assert (status, body["database"]) == (503, "error: no answer within 2 s"), body
        assert took < ANSWER_WITHIN, took
        # one hanging probe is enough: the next check does not start another
        status, body, took = check()
        assert (status, body["database"]) == (503, "error: an earlier probe still has no answer")
        assert took < 1, took
    finally:
        answer.set()
        forget_hanging_probes()
    status, body, _ = check()
    assert (status, body["database"]) == (200, "ok"), body
