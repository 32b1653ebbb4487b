"""The shipped deployment's front: deploy/nginx.conf before gunicorn's sync
workers (config/gunicorn.conf.py), run for real on loopback.

- The config passes ``nginx -t``.
- Half-sent requests (headers or a body cut short) do not hold gunicorn's
  only worker: the proxy keeps them, and a whole request is answered at once.
- ``X-Forwarded-Proto`` is the proxy's, never the client's: production
  settings redirect to HTTPS on its word.
- A body past the proxy's limit is refused by it, as problem+json under /api/.
- A download cut short (a stream that ran out of time) reaches the client as an
  error, never as a file that looks whole: the proxy speaks HTTP/1.1 to gunicorn,
  whose chunked answer then lacks its last chunk.

The config is run as shipped except for what ties it to a host: its ports,
certificate, socket, pid and log paths, and its user (the test's own). Needs
``nginx`` and ``openssl``; skipped without them, except in CI (``CI=true``), which
installs nginx and fails the test if it is missing.
"""

from __future__ import annotations

import getpass
import http.client
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "deploy" / "nginx.conf"
GUNICORN_CONF = ROOT / "config" / "gunicorn.conf.py"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

HAS_TOOLS = Path(NGINX).exists() and shutil.which("openssl") is not None
pytestmark = pytest.mark.skipif(
    not HAS_TOOLS and os.environ.get("CI") != "true", reason="needs nginx and openssl"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def config_for(tmp: Path, *, http_port: int, https_port: int, sock: Path) -> Path:
    """The shipped config with this test's ports, certificate, socket and paths."""
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=localhost", "-keyout", tmp / "key.pem", "-out", tmp / "cert.pem"),
        ],
        check=True,
        capture_output=True,
    )
    text = SHIPPED.read_text()
    for shipped, here in {
        # the test's user, which can reach its socket (nginx started by root
        # would otherwise run its workers as nobody)
        "user www-data;": f"user {getpass.getuser()};" if os.geteuid() == 0 else "",
        "pid /run/nginx.pid;": f"pid {tmp / 'nginx.pid'};",
        "/var/log/nginx/": f"{tmp}/",
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen [::]:80;": "",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
        "listen [::]:443 ssl http2;": "",
        "/etc/letsencrypt/live/league.example.org/fullchain.pem": str(tmp / "cert.pem"),
        "/etc/letsencrypt/live/league.example.org/privkey.pem": str(tmp / "key.pem"),
        "unix:/run/league/gunicorn.sock": f"unix:{sock}",
    }.items():
        assert shipped in text, f"deploy/nginx.conf no longer has {shipped!r}: update this test"
        text = text.replace(shipped, here)
    # nginx's temporary files (bodies buffered to disk) in the test's folder
    text = text.replace("http {", f"http {{\n    client_body_temp_path {tmp / 'body'};", 1)
    conf = tmp / "nginx.conf"
    conf.write_text(text)
    return conf


def test_the_shipped_config_passes_nginx_check(tmp_path: Path) -> None:
    conf = config_for(tmp_path, http_port=free_port(), https_port=free_port(), sock=tmp_path / "s")
    checked = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr


@dataclass
class Front:
    https_port: int
    http_port: int
    gunicorn: subprocess.Popen[bytes]

    def request(
        self,
        method: str,
        path: str,
        *,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        conn = http.client.HTTPSConnection(
            "127.0.0.1", self.https_port, context=context, timeout=10
        )
        try:
            conn.request(method, path, body=body, headers={"Host": "localhost", **(headers or {})})
            answer = conn.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            conn.close()

    def half_sent(self, data: bytes) -> ssl.SSLSocket:
        """A TLS connection that sends ``data`` (less than a whole request) and stops."""
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        raw = socket.create_connection(("127.0.0.1", self.https_port), timeout=10)
        wrapped = context.wrap_socket(raw, server_hostname="localhost")
        wrapped.sendall(data)
        return wrapped


def wait_for(path: Path, what: str) -> None:
    deadline = time.monotonic() + 20
    while not path.exists():
        assert time.monotonic() < deadline, f"{what} did not start"
        time.sleep(0.05)


def production_env(tmp_path: Path, **more: str) -> dict[str, str]:
    """The production settings on a SQLite file of the test's folder, no broker."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "proxy-test-" + "k" * 50,
        "ALLOWED_HOSTS": "localhost",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
        **more,
    }
    env.pop("CELERY_BROKER_URL", None)
    return env


@pytest.fixture
def front(tmp_path: Path) -> Iterator[Front]:
    """gunicorn (one sync worker, production settings) behind the shipped nginx."""
    with running_front(tmp_path, production_env(tmp_path)) as ports:
        yield ports


@contextmanager
def running_front(tmp_path: Path, env: dict[str, str]) -> Iterator[Front]:
    """gunicorn (one sync worker, ``env``) behind the shipped nginx, until the end."""
    sock = tmp_path / "gunicorn.sock"
    env = {**env, "GUNICORN_BIND": f"unix:{sock}", "GUNICORN_WORKERS": "1"}
    gunicorn = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), "config.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    ports = Front(https_port=free_port(), http_port=free_port(), gunicorn=gunicorn)
    conf = config_for(tmp_path, http_port=ports.http_port, https_port=ports.https_port, sock=sock)
    nginx = subprocess.Popen(
        [NGINX, "-p", str(tmp_path), "-c", str(conf), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(sock, "gunicorn")
        wait_for(tmp_path / "nginx.pid", "nginx")
        yield ports
    finally:
        for process in (nginx, gunicorn):
            process.terminate()
        for process in (nginx, gunicorn):
            process.wait(30)


def test_half_sent_requests_do_not_hold_the_only_worker(front: Front) -> None:
    assert front.request("GET", "/api/nothing-here/")[0] == 404  # the worker is warm
    slow = [
        front.half_sent(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: "),
        front.half_sent(
            b"POST /api/clubs/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b'Content-Length: 1000\r\n\r\n{"name": '
        ),
    ]
    try:
        started = time.monotonic()
        status, _, _ = front.request("GET", "/api/nothing-here/")
        took = time.monotonic() - started
    finally:
        for connection in slow:
            connection.close()
    assert status == 404
    # gunicorn alone holds its worker for the first half-sent request's whole
    # 30 s timeout (measured: 32.9 s); through the proxy a request takes tens of ms
    assert took < 5, took


def test_the_client_cannot_say_it_came_over_https(front: Front) -> None:
    """Over HTTPS the proxy says https whatever the client claims: no redirect.
    (Production settings redirect a request they believe came over HTTP.)"""
    status, _, _ = front.request("GET", "/api/nothing-here/", headers={"X-Forwarded-Proto": "http"})
    assert status == 404


def test_a_body_past_the_proxy_limit_is_refused_as_problem_json(front: Front) -> None:
    body = b"{" + b" " * (3 * 1024 * 1024) + b"}"
    status, headers, content = front.request(
        "POST", "/api/clubs/", body=body, headers={"Content-Type": "application/json"}
    )
    assert status == 413
    assert headers["content-type"] == "application/problem+json"
    assert b'"/api/problems/too-large"' in content
    assert b"larger than the proxy takes" in content  # nginx refused it, unread


def test_the_api_without_gunicorn_is_a_503_problem_with_retry_after(front: Front) -> None:
    front.gunicorn.terminate()
    front.gunicorn.wait(30)

    status, headers, content = front.request("GET", "/api/clubs/")

    assert status == 503
    assert headers["content-type"] == "application/problem+json"
    assert headers["retry-after"] == "5"
    assert b'"/api/problems/unavailable"' in content


# a league with a game, on the production settings (run in a process of its own)
MAKE_A_LEAGUE = """
import datetime, django
django.setup()
from league.services.clubs import club_create, player_create
from league.services.fixtures import event_create, league_create, table_create
from league.services.results import hand_submit
from tests.support.records import bluke_results
club = club_create(name="Club")
league = league_create(club=club, name="Cup", game="bluke", options={"max_cards": 2})
event = event_create(league=league, name="Night", date=datetime.date(2026, 10, 1))
players = [player_create(club=club, name=name) for name in ("Ann", "Bob", "Cy", "Dee")]
table = table_create(round=event.rounds.get(), number=1, players=players)
for cards in (2, 1, 2):
    hand_submit(table=table, record=bluke_results(cards, winner=0))
print(league.pk)
"""


def test_a_download_cut_short_reaches_the_client_as_an_error(tmp_path: Path) -> None:
    env = production_env(tmp_path, DOWNLOAD_STREAM_SECONDS="0", JOBS_WITHOUT_BROKER="inline")
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    made = subprocess.run(
        [sys.executable, "-c", MAKE_A_LEAGUE], cwd=ROOT, env=env, check=True, capture_output=True
    )
    league_id = int(made.stdout.split()[-1])
    with running_front(tmp_path, env) as front:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        conn = http.client.HTTPSConnection(
            "127.0.0.1", front.https_port, context=context, timeout=10
        )
        try:
            conn.request("GET", f"/leagues/{league_id}/games.csv", headers={"Host": "localhost"})
            answer = conn.getresponse()
            assert answer.status == 200  # sent before the stream ran out of time
            # the header row came, then the stream stopped: an error, not an end
            with pytest.raises(http.client.IncompleteRead) as cut:
                answer.read()
            assert cut.value.partial.startswith(b'\xef\xbb\xbf"event","date",')  # with the BOM
        finally:
            conn.close()
