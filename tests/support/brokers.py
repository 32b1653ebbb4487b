"""Brokers for the tests of the background jobs: Celery pointed at a broker
(eager mode off), a Redis of a test's own on a free loopback port that can be
stopped, frozen and brought back, and a Celery worker in a thread."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from celery.contrib.testing.worker import start_worker

from config.celery import app as celery_app


def free_port() -> int:
    """A loopback TCP port that nothing listens on (now)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def forget_broker_connections() -> None:
    """Drop Celery's pooled connections and producers. A task dispatched
    eagerly still takes a producer from the pool, which keeps the broker URL
    of that moment (Celery's default); switching brokers needs a fresh pool."""
    celery_app._pool = None  # type: ignore[attr-defined]
    if "amqp" in celery_app.__dict__:
        celery_app.amqp._producer_pool = None  # type: ignore[attr-defined]


@contextmanager
def celery_on(url: str) -> Iterator[None]:
    """Celery publishing to the broker at ``url``, eager mode off, for the block."""
    saved = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager")}
    celery_app.conf.update(broker_url=url, task_always_eager=False)
    forget_broker_connections()
    try:
        yield
    finally:
        celery_app.conf.update(saved)
        forget_broker_connections()


@contextmanager
def thread_worker() -> Iterator[None]:
    """A Celery worker in a thread of this process (so it sees the test
    database), one job at a time, on the broker Celery points at now."""
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        yield


class OwnRedis:
    """A ``redis-server`` of a test's own on a free loopback port, without
    persistence: stopped, it refuses connections; frozen (SIGSTOP), it
    accepts them and never answers; started again, it is empty."""

    def __init__(self, binary: str, directory: Path) -> None:
        self.binary = binary
        self.directory = directory
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        """Start the server (again) on its port, and wait until it answers."""
        self.process = subprocess.Popen(
            [
                *(self.binary, "--bind", "127.0.0.1", "--port", str(self.port)),
                *("--save", "", "--appendonly", "no"),
            ],
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(self.url, socket_timeout=1).ping()
                return
            except redis.RedisError:
                assert time.monotonic() < deadline, "the test's Redis did not start"
                time.sleep(0.05)

    def freeze(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        """Stop the server; its port refuses connections until :meth:`start`."""
        if self.process is None or self.process.poll() is not None:
            return
        self.thaw()  # a frozen process cannot act on SIGTERM
        self.process.terminate()
        self.process.wait(10)


@contextmanager
def own_redis(directory: Path) -> Iterator[OwnRedis]:
    """A Redis of the test's own (see :class:`OwnRedis`), stopped at the end.
    Skipped without ``redis-server`` on PATH, except in CI (``CI=true``),
    where that fails."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs redis-server on PATH for the broker fault tests")
        pytest.skip("no redis-server on PATH")
    server = OwnRedis(binary, directory)
    try:
        yield server
    finally:
        server.stop()
