"""Imports through the pages, four at once, under gunicorn on PostgreSQL: does a
large file still hold the web workers?

Why: issue 28 found that anyone who makes a club can import a 60,000-row players
file, whose confirmation ran past gunicorn's 30 s and was killed (a 500, nothing
stored), and that four at once held all four workers: ``/healthz`` answered after
37 s. The target: every request answered well inside its 30 s, no 5xx, and
``/healthz`` answering in well under a second throughout.

What runs, for each ``--files`` kind:

1. A scratch PostgreSQL database (``--server``, ``--database``; created and
   dropped), migrated, the static files collected (the production settings need
   their manifest).
2. Through :mod:`league.services`, in a subprocess: ``--clients`` organisers, each
   with a club of their own and an empty Bluke league.
3. gunicorn with ``--workers`` sync workers and the production settings, no
   broker: a large import's job runs in a thread of the web process that owed it,
   as on a box without Redis.
4. Each organiser, at once: logs in, uploads the file on the import page (the
   preview), then confirms it (the same file again). The files:
   - ``players``: 60,000 names, a row each (600 KB; the page takes 5,000);
   - ``results``: 180 complete four-seat Bluke games of 25 hands, 18,000 rows
     (1 MiB: the most the page takes), as ``benchmarks/imports.py`` writes them.
   Meanwhile a monitor asks for ``/healthz`` every ``--probe-every`` seconds.
5. Prints each request's status and time, the longest ``/healthz`` wait and any
   5xx, and how long until every import was stored (read from the database).

Usage: ``python benchmarks/import_pages.py [--files players results] [--clients 4]
[--workers 4] [--server postgres://user@host:port] [--database NAME]``
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import secrets
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from benchmarks.club_night import environment, serving
    from benchmarks.harness import HOST, data_made, fresh_postgres, percentile
    from benchmarks.harness import prepare as harness_prepare
    from benchmarks.imports import games_csv
except ImportError:  # run as a script: its own folder is on the path
    from club_night import environment, serving  # type: ignore[no-redef]
    from harness import HOST, data_made, fresh_postgres, percentile  # type: ignore[no-redef]
    from harness import prepare as harness_prepare  # type: ignore[no-redef]
    from imports import games_csv  # type: ignore[no-redef]

REPO = Path(__file__).resolve().parent.parent
FILES = ("players", "results")
PASSWORD = "bench-import-" + secrets.token_hex(8)


def create_data(spec: dict[str, Any]) -> dict[str, Any]:
    """Runs in the subprocess: the organisers, their clubs and empty leagues, and the
    file to import, written to ``spec["file"]``."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from league.services.clubs import club_create
    from league.services.fixtures import league_create

    found: list[dict[str, Any]] = []
    for n in range(spec["clients"]):
        user = get_user_model().objects.create_user(
            username=f"importer{n}", password=spec["password"]
        )
        club = club_create(name=f"Importers {n}", organiser=user)
        league = league_create(club=club, name="Last season", game="bluke")
        found.append({"username": user.username, "club": club.pk, "league": league.pk})
    if spec["kind"] == "players":
        data = ("name\n" + "".join(f"Player {n}\n" for n in range(60_000))).encode()
    else:
        data = games_csv(games=180, players=40, tables=5, seed=1)
    Path(spec["file"]).write_bytes(data)
    return {"clients": found}


def prepare(env: dict[str, str], spec: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = harness_prepare(__file__, env, spec, static=True)
    return data


class Browser:
    """One organiser's requests: its cookies, and the CSRF token of the last form."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, *, form: dict[str, str] | None = None, file: Any = None
    ) -> tuple[int, str, float, str]:
        """The status, the body, the seconds it took and the redirect's target."""
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body: bytes | None = None
        if form is not None:
            body, content_type = encode(form, file)
            headers["Content-Type"] = content_type
        conn = http.client.HTTPConnection(HOST, self.port, timeout=120)
        began = time.perf_counter()
        try:
            conn.request(method, path, body, headers)
            answer = conn.getresponse()
            content = answer.read().decode(errors="replace")
        except OSError as error:
            return 0, str(error), time.perf_counter() - began, ""
        finally:
            conn.close()
        took = time.perf_counter() - began
        for value in answer.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return answer.status, content, took, answer.headers.get("Location", "")

    def token(self, html: str) -> str:
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        assert match, "no CSRF token on the page"
        return match[1]


def encode(form: dict[str, str], file: tuple[str, str, bytes] | None) -> tuple[bytes, str]:
    """A multipart/form-data body of ``form``'s fields and ``file`` (field, name, bytes)."""
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in form.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
            .encode()
        )  # fmt: skip
    if file is not None:
        field_name, filename, data = file
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{field_name}"; '
            f'filename="{filename}"\r\nContent-Type: text/csv\r\n\r\n'.encode()
            + data
            + b"\r\n"
        )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


@dataclass
class Client:
    answers: list[tuple[str, int, float]] = field(default_factory=list)
    """(step, status, seconds) of each timed request."""
    error: str = ""


def organiser(
    port: int, who: dict[str, Any], kind: str, data: bytes, start: threading.Barrier
) -> Client:
    """Log in, preview ``data``, confirm it; the preview and confirmation timed."""
    client = Client()
    browser = Browser(port)
    _, html, _, _ = browser.request("GET", "/accounts/login/")
    status, _, _, _ = browser.request(
        "POST",
        "/accounts/login/",
        form={
            "csrfmiddlewaretoken": browser.token(html),
            "username": who["username"],
            "password": PASSWORD,
        },
    )
    if status != 302:
        client.error = f"login answered {status}"
        start.wait()
        return client
    page = f"/clubs/{who['club']}/import/"
    _, html, _, _ = browser.request("GET", page)
    form = {
        "csrfmiddlewaretoken": browser.token(html),
        "what": kind,
        "league": str(who["league"]) if kind == "results" else "",
    }
    name = "players.csv" if kind == "players" else "games.csv"
    start.wait()
    status, html, took, _ = browser.request("POST", page, form=form, file=("file", name, data))
    client.answers.append(("preview", status, took))
    digest = re.search(r'name="digest" value="([0-9a-f]{64})"', html)
    if status != 200 or digest is None:
        refused = re.search(r'<ul class="errorlist[^"]*" id="id_file_error">(.*?)</ul>', html, re.S)
        client.error = re.sub(r"<[^>]+>", "", refused[1]).strip() if refused else f"{status}"
        return client
    confirm = {**form, "csrfmiddlewaretoken": browser.token(html), "digest": digest[1]}
    status, _, took, location = browser.request(
        "POST", f"{page}confirm/", form=confirm, file=("file", name, data)
    )
    client.answers.append((f"confirm -> {location or status}", status, took))
    return client


def stored(database_url: str, kind: str) -> tuple[int, int]:
    """Players (or hands) stored, and jobs still owed, read from the database."""
    import psycopg

    what = "league_player" if kind == "players" else "league_hand"
    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(f"SELECT COUNT(*) FROM {what}").fetchone()
        owed = conn.execute("SELECT COUNT(*) FROM league_jobowed").fetchone()
    assert rows is not None and owed is not None
    return int(rows[0]), int(owed[0])


def run_kind(kind: str, args: argparse.Namespace) -> None:
    expected = (60_000 if kind == "players" else 180 * 25) * args.clients
    with fresh_postgres(args.server, args.database) as url, tempfile.TemporaryDirectory() as tmp:
        env = environment("postgres", url)
        spec = {"clients": args.clients, "password": PASSWORD, "kind": kind, "file": f"{tmp}/f"}
        accounts = prepare(env, spec)["clients"]
        data = Path(spec["file"]).read_bytes()
        print(f"\n{kind}: {len(data) / 2**20:.2f} MiB each, {args.clients} organisers at once")
        with serving("postgres", env, workers=args.workers) as port:
            probes: list[tuple[float, int]] = []
            running = threading.Event()
            running.set()

            def monitor() -> None:
                while running.is_set():
                    conn = http.client.HTTPConnection(HOST, port, timeout=120)
                    began = time.perf_counter()
                    try:
                        conn.request("GET", "/healthz")
                        status = conn.getresponse().status
                    except OSError:
                        status = 0
                    finally:
                        conn.close()
                    probes.append((time.perf_counter() - began, status))
                    time.sleep(args.probe_every)

            start = threading.Barrier(args.clients + 1)
            results: list[Client] = [Client() for _ in accounts]

            def one(index: int) -> None:
                results[index] = organiser(port, accounts[index], kind, data, start)

            threads = [threading.Thread(target=one, args=(n,)) for n in range(len(accounts))]
            for thread in threads:
                thread.start()
            probe = threading.Thread(target=monitor)
            probe.start()
            began = time.perf_counter()
            start.wait()
            for thread in threads:
                thread.join()
            answered = time.perf_counter() - began
            deadline = time.monotonic() + args.wait_for_jobs
            while True:  # until the background imports, and the jobs they owe, are done
                count, owed = stored(url, kind)
                if not owed or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            done = time.perf_counter() - began
            running.clear()
            probe.join()
    for index, client in enumerate(results):
        steps = ", ".join(
            f"{step} {status} in {took:.2f} s" for step, status, took in client.answers
        )
        print(f"  organiser {index}: {steps}{f'; refused: {client.error}' if client.error else ''}")
    waits = [took for took, _ in probes]
    fives = sum(1 for _, status in probes if status >= 500 or status == 0)
    print(
        f"  /healthz: {len(probes)} probes, p50 {1000 * percentile(waits, 0.5):.0f} ms, "
        f"longest {max(waits):.2f} s, {fives} not 200"
    )
    print(
        f"  every request answered after {answered:.1f} s; stored {count:,} of {expected:,} "
        f"({'players' if kind == 'players' else 'hands'}) after {done:.1f} s; jobs owed {owed}"
    )


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", nargs="+", choices=FILES, default=list(FILES))
    parser.add_argument("--clients", type=int, default=4, help="organisers at once (4)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers (4)")
    parser.add_argument("--probe-every", type=float, default=0.25, help="seconds (0.25)")
    parser.add_argument(
        "--wait-for-jobs", type=float, default=120, help="seconds to wait for the jobs (120)"
    )
    parser.add_argument("--database", default="league_bench_import_pages", help="made, dropped")
    parser.add_argument(
        "--server", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server URL"
    )
    parser.add_argument("--create-data", metavar="JSON", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if data_made(args, create_data):
        return 0
    print(f"gunicorn {args.workers} sync workers, production settings, no broker; PostgreSQL")
    print(f"{os.cpu_count()} CPUs")
    for kind in args.files:
        run_kind(kind, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
