"""A 25-hand Bluke pad typed into the grid: how many requests, how long each
hand takes the server, and how long a person takes to type it.

Why: issue 29 found a Bluke hand took three page loads, a hundred forms for a
night of four tables. The target: a 25-hand pad in at most 26 requests, each
hand's server time under 50 ms on the default set-up (``make run``: runserver
on SQLite), typed from paper in about three minutes.

What runs:

1. A fresh SQLite database in a scratch folder, migrated, and through the
   services a scorekeeper, a club, a Bluke league (the default options: 25
   hands) and ``--tables`` tables of four, each table's game played in
   advance by the engine's bot and kept as what its paper pad says (trump,
   bids, tricks).
2. ``manage.py runserver`` with the local settings, as ``make run`` starts it.
3. The scorekeeper signs in through the login page, then for each table, in
   turn, in one of three ways (``--ways``):
   - ``whole``: opens the pad (``GET /tables/<id>/pad/``) and sends every row
     at once: 2 requests;
   - ``fives``: sends the pad five rows at a time, as a club typing while the
     game goes on would: 1 + 5 requests;
   - ``rows``: sends one row a request: 1 + 25 requests.
   Every answer is checked (200, the hands on the sheet, 25 stored at the end).
4. Prints, per way: the requests a pad took, the pad's POSTs' time (p50, the
   slowest), and the server time per hand (a POST's time over the hands it
   stored: each hand is checked by the engine and stored in its own
   transaction, then the page is drawn once), measured on this machine's
   loopback, so close to the server's own time.
5. Prints the typing estimate, from the pads themselves, by the keystroke-level
   model (Card, Moran and Newell, 1980; the operator times from Kieras' "Using
   the Keystroke-Level Model", 2001): each digit typed is a keystroke (K,
   0.28 s: an average non-secretarial typist; 0.20 s for a good one), each
   move to the next box a keystroke (Tab, or the phone keyboard's next key);
   the trump a pick from a list (a point, P, 1.1 s, and a keystroke); a mental
   act (M, 1.35 s) for each row to find it on the paper and read it, and one
   for each player's score checked against the totals the grid shows. The
   figure is stated as a model's, not a stopwatch's: it counts what the grid
   asks of the fingers and eyes, so it answers "does the grid make this
   quick?", not "how fast is a given scorekeeper?".

Usage: ``python benchmarks/pad_entry.py [--tables 4] [--ways whole fives rows]``
"""

from __future__ import annotations

import argparse
import http.cookiejar
import re
import secrets
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    from benchmarks.club_night import environment, serving
    from benchmarks.harness import HOST, data_made, prepare
except ImportError:  # run as a script: its own folder is on the path
    from club_night import environment, serving  # type: ignore[no-redef]
    from harness import HOST, data_made, prepare  # type: ignore[no-redef]

REPO = Path(__file__).resolve().parent.parent
WAYS = {"whole": 25, "fives": 5, "rows": 1}
"""Each way of sending the pad, and the rows it sends a request."""

KEYSTROKE, GOOD_KEYSTROKE, POINT, MENTAL = 0.28, 0.20, 1.1, 1.35
"""The keystroke-level model's operators, in seconds."""


def create_data(spec: dict[str, Any]) -> dict[str, Any]:
    """Runs in the subprocess: the scorekeeper, the club, the tables, their pads."""
    import datetime
    import random

    import django

    django.setup()
    from django.contrib.auth import get_user_model

    import games
    from games.bots import bot_game
    from league.models import Game, Membership
    from league.services.clubs import club_create, membership_set, player_create
    from league.services.fixtures import event_create, league_create, table_create

    rng = random.Random(29)
    organiser = get_user_model().objects.create_user(
        username="pad-organiser", password=secrets.token_urlsafe(20)
    )
    keeper = get_user_model().objects.create_user(username="pad-keeper", password=spec["password"])
    club = club_create(organiser=organiser, name="Pad Club")
    membership_set(club=club, user=keeper, role=Membership.Role.SCOREKEEPER)
    league = league_create(club=club, name="Bluke league", game=Game.BLUKE)
    event = event_create(league=league, name="Pads", date=datetime.date(2026, 12, 2), rounds=1)
    round_ = event.rounds.get()
    rules = games.rules_for(Game.BLUKE, 4, league.options)
    tables = []
    for number in range(spec["tables"]):
        players = [player_create(club=club, name=f"Player {number}-{seat}") for seat in range(4)]
        table = table_create(round=round_, number=number + 1, players=players)
        tally = games.GameTally(rules, first_dealer=table.first_dealer)
        pad = []
        for log in bot_game(rules, first_dealer=table.first_dealer, seed=rng.randrange(2**32)):
            result = tally.add(log)
            pad.append(
                {
                    "trump": result.trump.value if result.trump is not None else "none",
                    "bids": list(log["bids"]),
                    "tricks": list(result.tricks),
                }
            )
        tables.append({"id": table.pk, "pad": pad})
    return {"username": keeper.get_username(), "tables": tables}


class Browser:
    """A scorekeeper's browser: cookies, the CSRF token, timed requests."""

    def __init__(self, port: int) -> None:
        self.base = f"http://{HOST}:{port}"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.requests = 0

    def csrf(self) -> str:
        return next(cookie.value for cookie in self.jar if cookie.name == "csrftoken")

    def fetch(self, path: str, form: dict[str, str] | None = None) -> tuple[int, str, float]:
        """GET ``path``, or POST ``form`` to it: the status, the page, the seconds."""
        data = None
        headers = {"Referer": self.base + path}
        if form is not None:
            data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": self.csrf()}).encode()
        began = time.perf_counter()
        try:
            with self.opener.open(urllib.request.Request(self.base + path, data, headers)) as r:
                status, body = r.status, r.read().decode()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read().decode()
        self.requests += 1
        return status, body, time.perf_counter() - began

    def sign_in(self, username: str, password: str) -> None:
        self.fetch("/accounts/login/")
        status, body, _ = self.fetch(
            "/accounts/login/", {"username": username, "password": password, "next": "/"}
        )
        if status != 200 or 'action="/accounts/logout/"' not in body:
            raise SystemExit(f"signing in failed: {status}")
        self.requests = 0  # the pad's requests are counted, not the login's


def row_fields(number: int, hand: dict[str, Any]) -> dict[str, str]:
    """What the pad's row for hand ``number`` posts: its number, trump, bids, tricks."""
    typed = {f"h{number}-number": str(number), f"h{number}-trump": hand["trump"]}
    for seat, (bid, tricks) in enumerate(zip(hand["bids"], hand["tricks"], strict=True)):
        typed[f"h{number}-bid_{seat}"] = str(bid)
        typed[f"h{number}-tricks_{seat}"] = str(tricks)
    return typed


@dataclass
class Way:
    name: str
    requests: list[int] = field(default_factory=list)
    posts: list[float] = field(default_factory=list)
    per_hand: list[float] = field(default_factory=list)


def enter_pad(browser: Browser, table: dict[str, Any], way: Way, chunk: int) -> None:
    """Opens the table's pad and sends it ``chunk`` rows a request, checking each answer."""
    path = f"/tables/{table['id']}/pad/"
    browser.requests = 0
    status, _, _ = browser.fetch(path)
    assert status == 200, f"the pad answered {status}"
    pad = table["pad"]
    for first in range(0, len(pad), chunk):
        rows = range(first, min(first + chunk, len(pad)))
        form: dict[str, str] = {}
        for number in rows:
            form.update(row_fields(number, pad[number]))
        status, body, took = browser.fetch(path, form)
        stored = (
            f"Hand {rows[0] + 1} is on the sheet."
            if len(rows) == 1
            else f"Hands {rows[0] + 1} to {rows[-1] + 1} are on the sheet."
        )
        if status != 200 or stored not in body:
            refusal = re.findall(r'role="alert"[^>]*>(.*?)<', body)
            raise SystemExit(f"table {table['id']}, rows {rows}: {status} {refusal[:2]}")
        way.posts.append(took)
        way.per_hand.append(took / len(rows))
    if "The game is complete" not in body:
        raise SystemExit(f"table {table['id']}: the pad did not complete the game")
    way.requests.append(browser.requests)


def typing_estimate(pads: Sequence[Sequence[dict[str, Any]]], keystroke: float) -> float:
    """The keystroke-level model's seconds to type a pad, averaged over ``pads``
    (see the module's docstring)."""
    totals = []
    for pad in pads:
        seconds = 0.0
        for hand in pad:
            digits = sum(len(str(n)) for n in [*hand["bids"], *hand["tricks"]])
            boxes = len(hand["bids"]) + len(hand["tricks"])
            seconds += MENTAL  # find the row on the paper, read it
            seconds += POINT + keystroke  # the trump, from its list
            seconds += (digits + boxes) * keystroke  # each number, then on to the next box
        seconds += MENTAL * len(pad[0]["bids"])  # each total checked against the paper's
        totals.append(seconds)
    return statistics.mean(totals)


def measure(args: argparse.Namespace) -> tuple[list[Way], list[list[dict[str, Any]]]]:
    """Every way's pads entered on a fresh default set-up; the ways and the pads."""
    password = secrets.token_urlsafe(16)
    ways = []
    with tempfile.TemporaryDirectory(prefix="pad-entry-") as folder:
        env = environment("default", f"sqlite:///{folder}/db.sqlite3")
        spec = {"tables": args.tables * len(args.ways), "password": password}
        data = prepare(__file__, env, spec, static=False)
        pads = [table["pad"] for table in data["tables"]]
        with serving("default", env, workers=1) as port:
            browser = Browser(port)
            browser.sign_in(data["username"], password)
            for index, way_name in enumerate(args.ways):
                way = Way(way_name)
                for table in data["tables"][index * args.tables : (index + 1) * args.tables]:
                    enter_pad(browser, table, way, WAYS[way_name])
                ways.append(way)
    return ways, pads


def run(args: argparse.Namespace) -> int:
    ways, pads = measure(args)
    print(
        f"{args.tables} Bluke pads of 25 hands a way, the default set-up (runserver, SQLite), "
        "one scorekeeper signed in"
    )
    print(
        f"\n  {'way':6} {'requests a pad':>14} {'POST p50':>9} {'POST max':>9} "
        f"{'a hand p50':>10} {'a hand max':>10}"
    )
    for way in ways:
        print(
            f"  {way.name:6} {max(way.requests):14d} "
            f"{1000 * statistics.median(way.posts):7.1f}ms {1000 * max(way.posts):7.1f}ms "
            f"{1000 * statistics.median(way.per_hand):8.1f}ms {1000 * max(way.per_hand):8.1f}ms"
        )
    average, good = typing_estimate(pads, KEYSTROKE), typing_estimate(pads, GOOD_KEYSTROKE)
    print(
        f"\n  typing a pad from paper (keystroke-level model, {len(pads)} pads): "
        f"{average / 60:.1f} min for an average typist, {good / 60:.1f} min for a good one"
    )
    return 0


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4, help="pads a way (4)")
    parser.add_argument("--ways", nargs="+", choices=list(WAYS), default=list(WAYS))
    parser.add_argument("--create-data", metavar="JSON", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if data_made(args, create_data):
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
