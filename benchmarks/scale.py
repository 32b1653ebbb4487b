"""A club's league at 1,000, 10,000 and 100,000 complete games, and a club among many: what
the last hand's POST, the jobs a completed game owes, every page, feed, download and API list
cost (issues 15 and 28).

Why: a league's work must follow what changed, not the league's size, nor what other clubs
hold. The issues' targets, which this table holds later changes to: a completed game's
standings work under 50 ms in a constant number of queries; the last hand's POST answered as
fast as any other hand's; every page and API response under 100 ms (median) and 150 KB at
100,000 games and 2,000 players; a night's downloads under 1 s at any league size and whatever
other clubs hold; a whole league's games complete as a file at 100,000 games.

What runs:

1. A fresh PostgreSQL database (``--database``, default ``league_bench_scale``; the script
   stops if it exists already), migrated with the production settings (a random ``SECRET_KEY``,
   ``DEBUG=0``, no Celery broker: the jobs run in the web process after each change commits, as a
   small club runs it). A settings module in a scratch folder adds one thing to them: a scratch
   ``STATIC_ROOT``, filled by ``collectstatic``, since the pages name their stylesheets through
   the static files' manifest.
2. For each size of ``--sizes`` (games, players, game nights: 1,000, 50, 22; 10,000, 500, 101;
   100,000, 2,000, 1,001; ``--tiny``: 200, 40, 6), a club of its own in that database, with a
   Bluke league loaded in bulk (:func:`load`): every night but the last has four rounds of
   four-player tables, players drawn at random each night, until the size's games are played.
   Each game is one of ``--templates`` games (300) played by :class:`games.bots.SimpleBot`, with
   all 25 hands: its rows (hands, each seat's line of each hand, the table's totals, the
   seatings' places) are what the results service computes for it
   (:func:`league.services.results.replay_results`), given to each table with its own players.
   One game in ten keeps its hands card by card (move logs); the others are stored as results
   only, as the score sheet's form submits them. Written with PostgreSQL's ``COPY`` (elsewhere,
   ``bulk_create`` in batches). The last night holds the tables the measurements finish: in
   round 1, ``2 x --repeat`` tables with 24 of their 25 hands, in round 2, ``--repeat`` with 23.
   Then the standings and the ratings are computed once by their jobs' own functions
   (:func:`league.standings.standings_refresh`, :func:`league.ratings.ratings_rebuild`).
3. gunicorn with the project's ``config/gunicorn.conf.py`` (``--workers`` sync workers) on a free
   loopback port. ``--in-process`` uses Django's test client in this process instead.
4. For each size, ``--repeat`` times, each answer checked (201):

   a. ``POST /api/tables/{id}/hands/`` of hand 23 of a round-2 table: a hand that completes
      nothing (the issue's "any other hand"), after two such POSTs that are not measured;
   b. ``POST /api/tables/{id}/hands/`` of hand 24 of a round-1 table, which completes its game
      (without a broker the standings and ratings jobs run in the web process); then how long
      after the POST began all the work the game owed was done (no
      :class:`~league.models.JobOwed` row left of the league or its rating scopes, and no scope
      waiting to be re-rated). An answer other than 201 (a worker killed at gunicorn's timeout)
      is counted, if the hand was stored all the same, and the work it owed is then done by the
      sweep, as ``manage.py jobs_sweep`` does it;
   c. in this process, the next round-1 table's last hand through
      :func:`league.services.results.hand_submit`, with every Celery task that runs in this
      process meanwhile (in any thread) timed and its queries counted, through Celery's
      ``task_prerun``/``task_postrun`` signals: the standings job and the ratings jobs (the
      league's scope and the club-wide one) that one completed game costs.

   The round-1 tables are finished in table order, after every other game of the league: each
   new game is the last one played, as on a club night.
5. Then each page, ``--requests`` times after two unmeasured requests (each download at most
   :data:`DOWNLOAD_REQUESTS` times): the league page, the full standings and the full
   leaderboard (their first pages), the game nights, the last complete night's event page and
   room screen, the score sheet of a game entered card by card, the page of the player with
   the most games; the club's and the league's calendar feeds; every download: the league's
   standings, leaderboard and games (CSV and JSON Lines: a 303 to the files page past
   ``DOWNLOAD_STREAM_LINES``), the night's standings and games; and the API: the league's
   standings and ratings (first pages, and one player's rows) and every list, whole and by
   club, league, night or player (with the organiser's token where only members may read).
   Median time, bytes of the body as sent (without and with ``Accept-Encoding: gzip``; ``*``
   where the answer was not compressed) and the queries of one request in this process
   (Django's test client).
6. The league's games prepared as files (``league/archives.py``), each asked for on the files
   page as a browser does (its form, with the CSRF token), until its job (in a web process's
   job thread: there is no broker) has made it; then fetched gzip-encoded, as it is stored,
   and its lines counted against those the league holds: complete, or not.
7. With ``--clubs N`` (20), N clubs of 1,000 games (50 players, 22 nights) loaded beside the
   leagues above, and the last of them measured as in 4 to 6: its night's downloads must cost
   what its own night holds, whatever the others do.
8. Prints one Markdown table, a column per size, after each size (with the sizes before it),
   ending with the largest page or API answer (raw bytes), the slowest (median), and the
   slowest night download, each named, against the issues' targets.

The database is dropped and gunicorn stopped at the end, whatever happens.

Usage: ``python benchmarks/scale.py [--sizes 1000 10000 100000] [--clubs N] [--tiny]
[--repeat R] [--requests N] [--templates T] [--workers W] [--in-process] [--seed S]
[--database NAME] [--server postgres://user@host:port]``. ``make bench-scale`` runs the
defaults (1,000 and 10,000 games, then 20 clubs of 1,000): about 10 minutes on 2 cores.
100,000 games take about 10 more (7 to load, 2.5 to make its games into files), and
``--clubs 50`` (the deployment of issue 28) about 5.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import http.client
import itertools
import json
import math
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

REPO = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
ROUNDS = 4
"""Rounds of a game night."""
SEATS = 4
HANDS = 25
"""A four-player game of Bluke: 13 cards down to 1 and back up, 25 hands."""
CARD_BY_CARD_EVERY = 10
"""One template game in this many keeps its hands card by card (move logs)."""
LAST_NIGHT = datetime.date(2026, 3, 2)
"""The date of the last game night (the one the measurements finish); the others are the
days before it."""
EVENING = datetime.time(19, 30)
WARM_UP = 2
"""Unmeasured POSTs and GETs before the measured ones."""


# -- sizes ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Size:
    """A league to load: ``games`` complete games by ``players`` players over ``nights`` game
    nights, the last of which holds only the games the measurements finish."""

    games: int
    players: int
    nights: int

    @property
    def tables_per_round(self) -> int:
        return math.ceil(self.games / (self.nights - 1) / ROUNDS)

    def check(self, repeat: int) -> None:
        """Refuse a size that cannot be seated (SystemExit)."""
        if self.nights < 2 or self.games < 1:
            raise SystemExit(f"{self}: two nights and one game at least")
        if SEATS * self.tables_per_round > self.players:
            raise SystemExit(f"{self}: too few players for {self.tables_per_round} tables a round")
        if SEATS * max(2 * repeat, WARM_UP + repeat) > self.players:
            raise SystemExit(f"{self}: too few players for the last night's tables")


SIZES: dict[int, Size] = {
    size.games: size
    for size in (
        Size(games=200, players=40, nights=6),
        Size(games=1_000, players=50, nights=22),
        Size(games=10_000, players=500, nights=101),
        Size(games=100_000, players=2_000, nights=1_001),
    )
}
"""The issue's sizes, and a tiny one (``--tiny``, and the test suite's)."""
TINY = 200

FIRST_NAMES = (
    "Ada",
    "Alma",
    "Ben",
    "Bea",
    "Cal",
    "Cora",
    "Dan",
    "Dora",
    "Eli",
    "Esme",
    "Finn",
    "Flora",
    "Gus",
    "Greta",
    "Hal",
    "Hana",
    "Ivo",
    "Iris",
    "Jon",
    "Juno",
    "Kai",
    "Kira",
    "Leo",
    "Lena",
    "Max",
    "Mia",
    "Ned",
    "Nora",
    "Otto",
    "Olga",
    "Pia",
    "Paul",
    "Quin",
    "Rosa",
    "Rex",
    "Sam",
    "Sara",
    "Tom",
    "Tess",
    "Uma",
)
LAST_NAMES = (
    "Abbott",
    "Baker",
    "Carter",
    "Dale",
    "Ellis",
    "Foster",
    "Grant",
    "Hayes",
    "Irwin",
    "Jensen",
    "Keller",
    "Lowe",
    "Moss",
    "Nash",
    "Olsen",
    "Price",
    "Quill",
    "Reyes",
    "Shaw",
    "Tate",
    "Underwood",
    "Vance",
    "Walsh",
    "Young",
    "Zeller",
    "Adler",
    "Brook",
    "Cole",
    "Drake",
    "Eaton",
    "Frost",
    "Gale",
    "Hart",
    "Ivers",
    "Jolly",
    "Knox",
    "Lane",
    "Marsh",
    "Noble",
    "Oakes",
    "Penn",
    "Rowe",
    "Stone",
    "Thorn",
    "Vale",
    "Wren",
    "York",
    "Ames",
    "Bell",
    "Crane",
)


def player_names(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct names of a first and a last name (numbered past the 2,000 pairs),
    shuffled: searching a list by a first name finds a few dozen."""
    pairs = [f"{first} {last}" for first, last in itertools.product(FIRST_NAMES, LAST_NAMES)]
    rng.shuffle(pairs)
    return [
        pairs[n % len(pairs)] + ("" if n < len(pairs) else f" {n // len(pairs) + 1}")
        for n in range(count)
    ]


# -- the games --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Template:
    """A whole game played by the bot, as the results service stores it: per hand, the
    :class:`~league.models.Hand` fields and each seat's :class:`~league.models.HandSeat`
    fields (players by seat), and the places at the end."""

    first_dealer: int
    records: list[dict[str, Any]]
    """Each hand's record as submitted (a move log, or results only)."""
    hands: list[dict[str, Any]]
    lines: list[list[dict[str, Any]]]
    ranks: tuple[int, ...]

    @property
    def card_by_card(self) -> bool:
        return bool(self.hands[0]["is_move_log"])

    def totals_after(self, hands: int) -> list[int]:
        return [line["total"] for line in self.lines[hands - 1]]

    def seat_counts(self, seat: int) -> tuple[int, ...]:
        """The seat's counts of its hand lines in the whole game, in the order of
        :data:`league.models.SEATING_COUNTS` (Bluke: nothing bucked)."""
        lines = [seats[seat] for seats in self.lines]
        made = [line for line in lines if line["tricks"] >= line["bid"]]
        dropped = sum(line["dropped"] for line in lines)
        return (len(lines), len(made), sum(m["tricks"] - m["bid"] for m in made), 0, 0, dropped)

    def seat_figures(self, seat: int) -> tuple[int, ...]:
        """The seat's figures of its hand lines for the player's page, in the order of
        :data:`league.models.SEATING_FIGURES` (Bluke: nobody makes trump; the hands whose
        bid was made, as bits)."""
        made = [
            number
            for number, seats in enumerate(self.lines)
            if seats[seat]["tricks"] >= seats[seat]["bid"]
        ]
        return (0, sum(1 << number for number in made))


def results_only(move_log: dict[str, Any], result: Any) -> dict[str, Any]:
    """A hand played card by card as the score sheet's form submits it: trump (``None`` when a
    Bluke was turned up), the bids and the tricks each seat took."""
    trump = result.trump.value if result.trump is not None else None
    return {"trump": trump, "bids": list(move_log["bids"]), "tricks": list(result.tricks)}


def make_templates(league: Any, count: int, seed: int) -> list[Template]:
    """``count`` four-player games of ``league`` (Bluke) played by the bot, each replayed by
    the results service on a table that is never saved."""
    import games
    from games.bots import SimpleBot, play_game
    from league.models import Event, Round, Table
    from league.services.results import replay_results

    rules = games.rules_for(league.game, SEATS, league.options)
    start = games.GameTally(rules, first_dealer=0).totals
    made = []
    for n in range(count):
        first_dealer = n % SEATS
        move_logs, tally = play_game(SimpleBot(seed + n), rules, first_dealer=first_dealer)
        assert tally.complete and len(move_logs) == HANDS, (n, len(move_logs))
        records = (
            move_logs
            if n % CARD_BY_CARD_EVERY == 0
            else [
                results_only(log, result)
                for log, result in zip(move_logs, tally.hands, strict=True)
            ]
        )
        table = Table(
            round=Round(event=Event(league=league), number=1),
            number=1,
            game=league.game,
            players=SEATS,
            first_dealer=first_dealer,
            hands_played=0,
            totals=list(start),
            seat_players=list(range(SEATS)),  # seats stand in for players: filled per table
        )
        replay = replay_results(table=table, keep=0, records=records)
        ranks = replay.tally.ranks()
        assert ranks is not None and replay.tally.totals == tally.totals
        made.append(
            Template(
                first_dealer=first_dealer,
                records=records,
                hands=[
                    {
                        field: getattr(hand, field)
                        for field in (
                            "number",
                            "dealer",
                            "cards",
                            "trump",
                            "maker",
                            "drops",
                            "takes_all",
                            "is_move_log",
                            "record",
                        )
                    }
                    for hand in replay.hands
                ],
                lines=[
                    [
                        {
                            field: getattr(line, field)
                            for field in ("seat", "dropped", "bid", "tricks", "points", "total")
                        }
                        for line in lines
                    ]
                    for lines in replay.lines
                ],
                ranks=ranks,
            )
        )
    return made


# -- writing rows -----------------------------------------------------------------------------


class Rows:
    """Writes rows of a model, given as tuples of field values in ``fields`` order: PostgreSQL's
    ``COPY`` (JSON fields dumped here), elsewhere ``bulk_create`` in batches."""

    BATCH = 2_000

    def __init__(self) -> None:
        from django.db import connection

        self.connection = connection
        self.postgresql = connection.vendor == "postgresql"

    def next_id(self, model: Any) -> int:
        """The first free id of ``model``'s table, for rows written with their ids."""
        from django.db.models import Max

        return int(model.objects.aggregate(top=Max("pk"))["top"] or 0) + 1

    def write(self, model: Any, fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
        from django.db import models

        meta = model._meta
        if not self.postgresql:
            written = 0
            batch: list[Any] = []
            for row in rows:
                batch.append(model(**dict(zip(fields, row, strict=True))))
                if len(batch) == self.BATCH:
                    written += len(model.objects.bulk_create(batch))
                    batch = []
            return written + len(model.objects.bulk_create(batch))
        quote = self.connection.ops.quote_name
        columns = ", ".join(quote(meta.get_field(name).column) for name in fields)
        as_json = [isinstance(meta.get_field(name), models.JSONField) for name in fields]
        dumps = json.dumps
        written = 0
        with (
            self.connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(
                    [dumps(v) if j else v for v, j in zip(row, as_json, strict=True)]
                    if any(as_json)
                    else row
                )
                written += 1
        return written

    def reset_sequences(self, models: Sequence[Any]) -> None:
        """Set each table's id sequence past the ids written (PostgreSQL; SQLite does itself)."""
        from django.core.management.color import no_style

        with self.connection.cursor() as cursor:
            for statement in self.connection.ops.sequence_reset_sql(no_style(), list(models)):
                cursor.execute(statement)


# -- the league -------------------------------------------------------------------------------


@dataclass
class Drawn:
    """A table to write: where it is, who sits in each seat, which game and how many hands."""

    table_id: int
    round_id: int
    number: int
    players: list[int]
    template: Template
    hands: int
    night: datetime.date


@dataclass
class Loaded:
    """A loaded league and what the measurements use of it."""

    size: Size
    label: str
    """The column's head in the report."""
    league: Any
    scope_ids: list[int]
    key: str
    """An API token key of the club's organiser."""
    middle: list[Drawn]
    """Tables that have played 23 hands: hand 23 completes nothing (the first
    :data:`WARM_UP` of them are not measured)."""
    last_by_post: list[Drawn]
    last_in_process: list[Drawn]
    """Tables that have played 24 hands, finished in turns: by a POST, in this process."""
    event_id: int
    """The last complete night."""
    sheet_table_id: int
    """A complete game entered card by card."""
    player_id: int
    """The player with the most games."""
    seconds: dict[str, float] = field(default_factory=dict)


def load(
    size: Size,
    *,
    templates: Sequence[Template],
    repeat: int,
    seed: int,
    name: str = "",
    vacuum: bool = True,
) -> Loaded:
    """Load ``size``'s club and league (see the module's docstring); standings and ratings
    computed once. ``name`` tells apart clubs of one size (the clubs of a deployment);
    ``vacuum`` False leaves the database's VACUUM to a later load (on PostgreSQL)."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from league import ratings, standings
    from league.db import Role, apply_limits
    from league.models import Event, Hand, Player, Round, Table
    from league.services.accounts import api_token_create
    from league.services.clubs import club_create
    from league.services.fixtures import league_create

    size.check(repeat)
    # a job's limits, not a request's: the COPY of 100,000 games' hands takes minutes
    apply_limits(connection, Role.JOB)
    began = time.perf_counter()
    rng = random.Random(seed)
    with transaction.atomic():
        organiser = get_user_model().objects.create_user(
            username=f"scale-organiser-{size.games}{name}", password=secrets.token_urlsafe(20)
        )
        club = club_create(name=f"Scale club of {size.games:,} games{name}", organiser=organiser)
        league = league_create(club=club, name="Bluke", game="bluke")
        key = api_token_create(user=organiser, name="scale benchmark").key
        players = [
            p.pk
            for p in Player.objects.bulk_create(
                Player(club=club, name=name) for name in player_names(size.players, rng)
            )
        ]
        first_night = LAST_NIGHT - datetime.timedelta(days=size.nights - 1)
        events = Event.objects.bulk_create(
            Event(
                league=league,
                name=f"Night {n + 1}",
                date=first_night + datetime.timedelta(days=n),
                start_time=EVENING,
            )
            for n in range(size.nights)
        )
        rounds = Round.objects.bulk_create(
            (Round(event=e, number=r) for e in events for r in range(1, ROUNDS + 1)),
            batch_size=5_000,
        )
        rows = Rows()
        next_table = rows.next_id(Table)
        drawn: list[Drawn] = []

        def draw(round_: Any, number: int, seated: list[int], hands: int) -> Drawn:
            nonlocal next_table
            table = Drawn(
                table_id=next_table,
                round_id=round_.pk,
                number=number,
                players=seated,
                template=templates[rng.randrange(len(templates))],
                hands=hands,
                night=round_.event.date,
            )
            next_table += 1
            drawn.append(table)
            return table

        per_round = size.tables_per_round
        for night in range(size.nights - 1):
            present = rng.sample(players, SEATS * per_round)
            for round_ in rounds[night * ROUNDS : (night + 1) * ROUNDS]:
                rng.shuffle(present)
                for number in range(1, per_round + 1):
                    if len(drawn) == size.games:
                        break
                    draw(round_, number, present[(number - 1) * SEATS : number * SEATS], HANDS)
        first, second = rounds[-ROUNDS], rounds[-ROUNDS + 1]
        present = rng.sample(players, SEATS * 2 * repeat)
        finishing = [
            draw(first, n + 1, present[n * SEATS : (n + 1) * SEATS], HANDS - 1)
            for n in range(2 * repeat)
        ]
        present = rng.sample(players, SEATS * (WARM_UP + repeat))
        middle = [
            draw(second, n + 1, present[n * SEATS : (n + 1) * SEATS], HANDS - 2)
            for n in range(WARM_UP + repeat)
        ]
        write_tables(rows, drawn)
        rows.reset_sequences([Table, Hand])
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
    loaded = time.perf_counter()
    standings.standings_refresh(league=league)
    standings_done = time.perf_counter()
    scopes = ratings.scopes_of(league)
    for scope in scopes:
        ratings.ratings_rebuild(scope=scope)
    ratings_done = time.perf_counter()
    if vacuum and connection.vendor == "postgresql" and not connection.in_atomic_block:
        # (a test's transaction is such a block) the tables as autovacuum keeps a running
        # database's: pages marked all-visible (so index-only scans need no heap),
        # statistics fresh; rows written by COPY are neither
        with connection.cursor() as cursor:
            cursor.execute("VACUUM (ANALYZE)")
    complete = [t for t in drawn if t.hands == HANDS]
    last_night = max(t.night for t in complete)
    # a game entered card by card, of the last night if it has one (a small league's
    # may not: then the latest)
    by_card = [t for t in complete if t.template.card_by_card] or complete
    sheet = next((t for t in reversed(by_card) if t.night == last_night), by_card[-1])
    counts: dict[int, int] = {}
    for table in complete:
        for player in table.players:
            counts[player] = counts.get(player, 0) + 1
    return Loaded(
        size=size,
        label=f"{size.games:,} games",
        league=league,
        scope_ids=[scope.pk for scope in scopes],
        key=key,
        middle=middle,
        last_by_post=finishing[0::2],
        last_in_process=finishing[1::2],
        event_id=events[-2].pk,
        sheet_table_id=sheet.table_id,
        player_id=max(counts, key=lambda p: (counts[p], -p)),
        seconds={
            "loading": loaded - began,
            "standings_refresh": standings_done - loaded,
            "ratings_rebuild": ratings_done - standings_done,
        },
    )


def write_tables(rows: Rows, drawn: Sequence[Drawn]) -> None:
    """The drawn tables with their seatings, hands and hand lines: complete ones with their
    places, the others as far as they have played."""
    from league.models import SEATING_COUNTS, SEATING_FIGURES, Hand, HandSeat, Seating, Table

    no_counts = (None,) * (len(SEATING_COUNTS) + len(SEATING_FIGURES))
    rows.write(
        Table,
        (
            "id",
            "round_id",
            "number",
            "game",
            "players",
            "first_dealer",
            "complete",
            "hands_played",
            "totals",
            "seat_players",
            "version",
        ),
        (
            (
                t.table_id,
                t.round_id,
                t.number,
                "bluke",
                SEATS,
                t.template.first_dealer,
                t.hands == HANDS,
                t.hands,
                t.template.totals_after(t.hands),
                t.players,
                t.hands,  # a change of results a hand
            )
            for t in drawn
        ),
    )
    rows.write(
        Seating,
        (
            *("table_id", "round_id", "seat", "player_id", "total", "place"),
            *SEATING_COUNTS,
            *SEATING_FIGURES,
        ),
        (
            (
                t.table_id,
                t.round_id,
                seat,
                player,
                t.template.totals_after(t.hands)[seat] if t.hands == HANDS else None,
                t.template.ranks[seat] if t.hands == HANDS else None,
                *(
                    (*t.template.seat_counts(seat), *t.template.seat_figures(seat))
                    if t.hands == HANDS
                    else no_counts
                ),
            )
            for t in drawn
            for seat, player in enumerate(t.players)
        ),
    )
    first_hand = rows.next_id(Hand)
    hand_fields = (
        "number",
        "dealer",
        "cards",
        "trump",
        "maker",
        "drops",
        "takes_all",
        "is_move_log",
        "record",
    )

    def hands() -> Iterator[tuple[Any, ...]]:
        hand_id = first_hand
        for t in drawn:
            started = datetime.datetime.combine(t.night, EVENING, tzinfo=datetime.UTC)
            for hand in t.template.hands[: t.hands]:
                submitted = started + datetime.timedelta(minutes=4 * hand["number"])
                yield (hand_id, t.table_id, *(hand[f] for f in hand_fields), submitted)
                hand_id += 1

    rows.write(Hand, ("id", "table_id", *hand_fields, "submitted_at"), hands())
    line_fields = ("seat", "dropped", "bid", "tricks", "points", "total")

    def lines() -> Iterator[tuple[Any, ...]]:
        hand_id = first_hand
        for t in drawn:
            for seats in t.template.lines[: t.hands]:
                for line in seats:
                    yield (hand_id, t.players[line["seat"]], *(line[f] for f in line_fields))
                hand_id += 1

    rows.write(HandSeat, ("hand_id", "player_id", *line_fields), lines())


# -- answers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    """Lower-case names."""
    body: bytes
    seconds: float


class Web(Protocol):
    """Where requests go: gunicorn over HTTP, or Django's test client in this process."""

    name: str

    def request(
        self, method: str, path: str, *, body: bytes | None = None, headers: dict[str, str]
    ) -> Answer: ...


class LiveWeb:
    """gunicorn on ``port``: a connection a request, as the proxy in front of it opens them."""

    name = "gunicorn"

    def __init__(self, port: int) -> None:
        self.port = port

    def request(
        self, method: str, path: str, *, body: bytes | None = None, headers: dict[str, str]
    ) -> Answer:
        began = time.perf_counter()
        connection = http.client.HTTPConnection(HOST, self.port, timeout=120)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            content = response.read()
        finally:
            connection.close()
        return Answer(
            status=response.status,
            headers={k.lower(): v for k, v in response.getheaders()},
            body=content,
            seconds=time.perf_counter() - began,
        )


class InProcessWeb:
    """Django's test client in this process."""

    name = "Django's test client"

    def __init__(self) -> None:
        from django.test import Client

        self.client = Client(HTTP_HOST="localhost")

    def request(
        self, method: str, path: str, *, body: bytes | None = None, headers: dict[str, str]
    ) -> Answer:
        content_type = headers.get("Content-Type", "application/octet-stream")
        rest = {k: v for k, v in headers.items() if k != "Content-Type"}
        began = time.perf_counter()
        response = self.client.generic(
            method, path, data=body or b"", content_type=content_type, headers=rest
        )
        content = (
            b"".join(response.streaming_content)  # type: ignore[attr-defined]
            if response.streaming
            else response.content
        )
        seconds = time.perf_counter() - began
        return Answer(
            status=response.status_code,
            headers={k.lower(): v for k, v in response.headers.items()},
            body=content,
            seconds=seconds,
        )


# -- the jobs -----------------------------------------------------------------------------------


@dataclass
class JobRun:
    task: str
    args: tuple[Any, ...]
    seconds: float = 0.0
    queries: int = 0


class JobMeter:
    """Every Celery task that runs in this process, in any thread, while the meter is on: its
    name, arguments, time and queries (through Celery's ``task_prerun``/``task_postrun``
    signals and an execute wrapper on each database connection)."""

    def __init__(self) -> None:
        self.runs: list[JobRun] = []
        self._local = threading.local()
        self._began: dict[str, float] = {}
        self._wrapped: list[Any] = []

    def __enter__(self) -> JobMeter:
        from celery.signals import task_postrun, task_prerun
        from django.db import connections
        from django.db.backends.signals import connection_created

        task_prerun.connect(self._prerun, weak=False)
        task_postrun.connect(self._postrun, weak=False)
        connection_created.connect(self._created, weak=False)
        for connection in connections.all():
            self._wrap(connection)
        return self

    def __exit__(self, *exc: object) -> None:
        from celery.signals import task_postrun, task_prerun
        from django.db.backends.signals import connection_created

        task_prerun.disconnect(self._prerun)
        task_postrun.disconnect(self._postrun)
        connection_created.disconnect(self._created)
        for connection in self._wrapped:
            if self._count in connection.execute_wrappers:
                connection.execute_wrappers.remove(self._count)

    def _created(self, sender: Any, connection: Any, **kwargs: Any) -> None:
        self._wrap(connection)

    def _wrap(self, connection: Any) -> None:
        if self._count not in connection.execute_wrappers:
            connection.execute_wrappers.append(self._count)
            self._wrapped.append(connection)

    def _count(self, execute: Callable[..., Any], *args: Any) -> Any:
        stack = getattr(self._local, "stack", None)
        if stack:
            stack[-1].queries += 1
        return execute(*args)

    def _prerun(self, task_id: str, task: Any, args: Any = (), **kwargs: Any) -> None:
        run = JobRun(task=task.name.rsplit(".", 1)[-1], args=tuple(args or ()))
        run.seconds = -time.perf_counter()
        self._local.stack = [*getattr(self._local, "stack", []), run]

    def _postrun(self, task_id: str, task: Any, **kwargs: Any) -> None:
        stack = getattr(self._local, "stack", [])
        if stack:
            run = stack.pop()
            run.seconds += time.perf_counter()
            self.runs.append(run)


def wait_for_jobs(loaded: Loaded, *, timeout: float = 600) -> bool:
    """Until no work is owed to the league's standings or its scopes' ratings and no scope
    waits to be re-rated: False. True, with ``timeout`` 0, when some is; SystemExit past
    another ``timeout``."""
    from django.db.models import Q

    from league.models import JobOwed, RatingScope, RatingsOwed

    owed = JobOwed.objects.filter(
        Q(kind=JobOwed.Kind.STANDINGS, target_id=loaded.league.pk)
        | Q(kind=JobOwed.Kind.RATINGS, target_id__in=loaded.scope_ids)
    )
    pending = RatingScope.objects.filter(pk__in=loaded.scope_ids, rerate_from__isnull=False)
    rerating = RatingsOwed.objects.filter(scope_id__in=loaded.scope_ids)
    deadline = time.monotonic() + timeout
    while owed.exists() or pending.exists() or rerating.exists():
        if not timeout:
            return True
        if time.monotonic() > deadline:
            raise SystemExit(f"the work owed was not done within {timeout:.0f} s")
        time.sleep(0.01)
    return False


# -- the measurements ---------------------------------------------------------------------------


@dataclass
class Timing:
    seconds: list[float] = field(default_factory=list)
    queries: list[int] = field(default_factory=list)


@dataclass
class PageFigures:
    seconds: list[float]
    raw: int
    sent_gzip: int
    compressed: bool
    queries: int
    status: int = 200
    kind: str = "page"


@dataclass
class ArchiveFigures:
    """A league's games prepared as a file (league/archives.py): from the POST that asked
    for it to the file ready, its bytes (uncompressed, and as stored and sent), its lines
    against those the league holds, and the GET of the file."""

    prepared: float
    raw: int
    packed: int
    lines: int
    expected: int
    sent: float

    @property
    def complete(self) -> bool:
        return self.lines == self.expected


@dataclass
class Figures:
    """What one size measured."""

    loaded: Loaded
    middle_post: list[float] = field(default_factory=list)
    last_post: list[float] = field(default_factory=list)
    last_post_failed: list[str] = field(default_factory=list)
    """The answers to those POSTs that were not 201 (the hand stored all the same)."""
    owed_done: list[float] = field(default_factory=list)
    jobs: dict[str, Timing] = field(default_factory=dict)
    pages: dict[str, PageFigures | None] = field(default_factory=dict)
    archives: dict[str, ArchiveFigures] = field(default_factory=dict)


def json_headers(key: str | None = None) -> dict[str, str]:
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Token {key}"
    return headers


def post_hand(web: Web, loaded: Loaded, table: Drawn) -> Answer:
    """POST the table's next hand (the caller checks the answer)."""
    number = table.hands
    body = json.dumps({"number": number, "record": table.template.records[number]}).encode()
    return web.request(
        "POST", f"/api/tables/{table.table_id}/hands/", body=body, headers=json_headers(loaded.key)
    )


def refused(answer: Answer, table: Drawn) -> SystemExit:
    return SystemExit(
        f"POST hand {table.hands} of table {table.table_id}: {answer.status} {answer.body[:300]!r}"
    )


def last_post(web: Web, loaded: Loaded, table: Drawn, figures: Figures) -> None:
    """POST a game's last hand, then wait for the work it owed. An answer other than 201 (a
    worker killed at gunicorn's timeout, say) is counted, if the hand was stored all the same;
    its work, still owed, is then done as ``manage.py jobs_sweep`` does it."""
    from league import outbox
    from league.models import Table
    from league.outbox import jobs_sweep

    began = time.perf_counter()
    try:
        answer = post_hand(web, loaded, table)
        status = str(answer.status)
    except OSError as error:  # the server closed the connection
        answer, status = None, type(error).__name__
    figures.last_post.append(time.perf_counter() - began)
    if status != "201":
        if not Table.objects.filter(pk=table.table_id, hands_played=table.hands + 1).exists():
            raise refused(answer, table) if answer else SystemExit(f"POST: {status}")
        figures.last_post_failed.append(status)
        owed = wait_for_jobs(loaded, timeout=0)
        while owed:
            time.sleep(outbox.SWEEP_GRACE.total_seconds())
            jobs_sweep()
            owed = wait_for_jobs(loaded, timeout=0)
    wait_for_jobs(loaded)
    figures.owed_done.append(time.perf_counter() - began)


def measure_results(web: Web, loaded: Loaded, figures: Figures) -> None:
    """Steps 4a to 4c of the module's docstring."""
    from django.db import connection

    from league.db import Role, apply_limits
    from league.models import Table
    from league.services.results import hand_submit

    for n, table in enumerate(loaded.middle):
        answer = post_hand(web, loaded, table)
        if answer.status != 201:
            raise refused(answer, table)
        if n >= WARM_UP:  # the first of each web process: imports, connections
            figures.middle_post.append(answer.seconds)
    wait_for_jobs(loaded)
    for by_post, in_process in zip(loaded.last_by_post, loaded.last_in_process, strict=True):
        last_post(web, loaded, by_post, figures)
        number = in_process.hands
        # this process's connection as a worker's: no switch of limits counted in the jobs
        apply_limits(connection, Role.JOB)
        with JobMeter() as meter:
            hand_submit(
                table=Table.objects.get(pk=in_process.table_id),
                record=in_process.template.records[number],
                number=number,
            )
            wait_for_jobs(loaded)
        for run in meter.runs:
            timing = figures.jobs.setdefault(run.task, Timing())
            timing.seconds.append(run.seconds)
            timing.queries.append(run.queries)
        if not meter.runs:
            raise SystemExit("no job ran in this process after a game was completed")


@dataclass(frozen=True)
class Get:
    """A GET the table measures: its path, what it is (``page``, ``api``, ``feed``,
    ``download``, ``night download``: the summary lines of the report take each
    kind's target), and whether it is sent with the club organiser's API token."""

    path: str
    kind: str = "page"
    token: bool = False

    @property
    def downloads(self) -> bool:
        return self.kind.endswith("download")


def pages(loaded: Loaded) -> dict[str, Get | None]:
    """The pages, feeds, downloads and API answers measured, by label (``None`` for one
    this version lacks)."""
    from django.urls import NoReverseMatch, reverse

    league, club, event = loaded.league.pk, loaded.league.club_id, loaded.event_id
    player, table = loaded.player_id, loaded.sheet_table_id

    def url(name: str, kind: str = "page", **kwargs: int) -> Get | None:
        try:
            return Get(reverse(name, kwargs=kwargs), kind=kind)
        except NoReverseMatch:
            return None

    def api(path: str, *, token: bool = False) -> Get:
        return Get(f"/api/{path}", kind="api", token=token)

    night = "night download"
    return {
        "league page": url("league", league_id=league),
        "full standings, page 1": url("league-all-standings", league_id=league),
        "full leaderboard, page 1": url("league-leaderboard", league_id=league),
        "game nights, page 1": url("league-game-nights", league_id=league),
        "event page (a night of the league)": url("event", event_id=event),
        "room screen (that night)": url("event-room", event_id=event),
        "score sheet (card by card)": url("score-sheet", table_id=table),
        "player page (most games)": url("player", player_id=player),
        "calendar feed of the club": url("club-calendar", kind="feed", club_id=club),
        "calendar feed of the league": url("league-calendar", kind="feed", league_id=league),
        "league standings (CSV)": url("league-standings-csv", kind="download", league_id=league),
        "league leaderboard (CSV)": url("league-ratings-csv", kind="download", league_id=league),
        "league games (CSV; 303 past the stream's limit)": url(
            "league-games-csv", kind="download", league_id=league
        ),
        "league games (JSON Lines; 303 past it)": url(
            "league-games-jsonl", kind="download", league_id=league
        ),
        "night standings (CSV)": url("event-standings-csv", kind=night, event_id=event),
        "night games (CSV)": url("event-games-csv", kind=night, event_id=event),
        "night games (JSON Lines)": url("event-games-jsonl", kind=night, event_id=event),
        "API standings, page 1": api(f"leagues/{league}/standings/"),
        "API ratings, page 1": api(f"leagues/{league}/ratings/"),
        "API standings, one player": api(f"leagues/{league}/standings/?player={player}"),
        "API ratings, one player": api(f"leagues/{league}/ratings/?player={player}"),
        "API clubs, page 1": api("clubs/"),
        "API club's memberships (organiser)": api(f"memberships/?club={club}", token=True),
        "API players, page 1": api("players/"),
        "API club's players, page 1": api(f"players/?club={club}"),
        "API club's players named 'ada'": api(f"players/?club={club}&name=ada"),
        "API leagues, page 1": api("leagues/"),
        "API game nights, page 1": api("events/"),
        "API league's game nights, page 1": api(f"events/?league={league}"),
        "API night's rounds": api(f"rounds/?event={event}"),
        "API tables, page 1": api("tables/"),
        "API league's tables, page 1": api(f"tables/?league={league}"),
        "API night's tables, page 1": api(f"tables/?event={event}"),
        "API player's tables, page 1": api(f"tables/?player={player}"),
        "API webhooks (organiser)": api("webhooks/", token=True),
        "API night's standings, page 1": api(f"events/{event}/standings/"),
        "API night's attendance": api(f"events/{event}/attendance/"),
        "API club's Bluke ratings, page 1": api(f"clubs/{club}/ratings/?game=bluke"),
        "API player's rating history": api(f"players/{player}/rating-history/?league={league}"),
        "API table's history (organiser)": api(f"tables/{table}/history/", token=True),
    }


DOWNLOAD_REQUESTS = 5
"""The most GETs of each download measured (a league's games stream for seconds)."""


def measure_pages(web: Web, loaded: Loaded, figures: Figures, *, requests: int) -> None:
    """Step 5 of the module's docstring."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    here = InProcessWeb()
    for label, get in pages(loaded).items():
        if get is None:
            figures.pages[label] = None
            continue
        path = get.path
        accept = {"Accept": "application/json"} if get.kind == "api" else {}
        if get.token:
            accept["Authorization"] = f"Token {loaded.key}"
        times = min(requests, DOWNLOAD_REQUESTS) if get.downloads else requests
        for _ in range(WARM_UP):  # imports, caches, connections
            web.request("GET", path, headers=accept)
        answers = [web.request("GET", path, headers=accept) for _ in range(times)]
        zipped = web.request("GET", path, headers={**accept, "Accept-Encoding": "gzip"})
        # once uncounted: the first request after other work may switch the
        # connection's limits (league.db), a query that is not the page's
        here.request("GET", path, headers=accept)
        with CaptureQueriesContext(connection) as queries:
            counted = here.request("GET", path, headers=accept)
        # a league's games past the stream's limit: 303, to the files page
        expected = {200, 303} if get.downloads else {200}
        for answer in [*answers, zipped, counted]:
            if answer.status not in expected:
                raise SystemExit(f"GET {path}: {answer.status} {answer.body[:300]!r}")
        compressed = zipped.headers.get("content-encoding") == "gzip"
        if compressed:
            gzip.decompress(zipped.body)  # whole and valid
        figures.pages[label] = PageFigures(
            seconds=[answer.seconds for answer in answers],
            raw=len(answers[-1].body),
            sent_gzip=len(zipped.body),
            compressed=compressed,
            queries=len(queries.captured_queries),
            status=answers[-1].status,
            kind=get.kind,
        )


ARCHIVE_KINDS = ("games.csv", "games.jsonl")
ARCHIVE_TIMEOUT = 3600.0
"""Seconds to wait for a league's games to be prepared as a file."""


def ask_for_file(web: Web, path: str, kind: str) -> Answer:
    """POST the files page's form for ``kind``, with the CSRF token and cookie its GET
    gives, as a browser does."""
    from urllib.parse import urlencode

    page = web.request("GET", path, headers={})
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.body.decode())
    cookie = re.search(r"csrftoken=([^;]+)", page.headers.get("set-cookie", ""))
    if page.status != 200 or token is None:
        raise SystemExit(f"GET {path}: {page.status}, no form")
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if cookie is not None:
        headers["Cookie"] = f"csrftoken={cookie.group(1)}"
    body = urlencode({"csrfmiddlewaretoken": token.group(1), "kind": kind}).encode()
    return web.request("POST", path, body=body, headers=headers)


def lines_packed(packed: bytes) -> int:
    """The lines of gzip-compressed ``packed``, counted as it is unpacked."""
    import zlib

    unpacker = zlib.decompressobj(wbits=31)
    lines, step = 0, 1 << 20
    for start in range(0, len(packed), step):
        lines += unpacker.decompress(packed[start : start + step]).count(b"\n")
    return lines + unpacker.flush().count(b"\n")


def measure_archives(web: Web, loaded: Loaded, figures: Figures) -> None:
    """Step 6 of the module's docstring: each of the league's games files prepared by
    its job, asked for on the files page, then fetched whole and its lines counted."""
    from django.db.models import F, Max, Sum
    from django.urls import reverse

    from league import archives
    from league.models import Archive, Table

    league = loaded.league
    files = reverse("league-files", args=[league.pk])
    for kind in ARCHIVE_KINDS:
        tables = Table.objects.filter(round__event__league=league, hands_played__gt=0)
        if kind == "games.csv":  # the header, and a row a hand and seat
            expected = 1 + (tables.aggregate(n=Sum(F("hands_played") * F("players")))["n"] or 0)
        else:  # a record a table with hands
            expected = tables.count()
        before = Archive.objects.aggregate(top=Max("pk"))["top"] or 0
        began = time.perf_counter()
        answer = ask_for_file(web, files, kind)
        if answer.status != 302:
            raise SystemExit(f"POST {files}: {answer.status} {answer.body[:300]!r}")
        deadline = time.monotonic() + ARCHIVE_TIMEOUT
        while (
            made := Archive.objects.filter(league=league, kind=kind, pk__gt=before)
            .exclude(state=Archive.State.OWED)
            .first()
        ) is None:
            if time.monotonic() > deadline:
                raise SystemExit(f"{kind} of league {league.pk}: not ready within the timeout")
            time.sleep(0.2)
        prepared = time.perf_counter() - began
        if made.state != Archive.State.READY:
            raise SystemExit(f"{kind} of league {league.pk}: {made.state} ({made.error})")
        link = reverse("archive-file", args=[made.pk, archives.download_name(made)])
        sent = web.request("GET", link, headers={"Accept-Encoding": "gzip"})
        if sent.status != 200 or sent.headers.get("content-encoding") != "gzip":
            raise SystemExit(f"GET {link}: {sent.status} {sent.body[:300]!r}")
        figures.archives[kind] = ArchiveFigures(
            prepared=prepared,
            raw=int(made.size or 0),
            packed=len(sent.body),
            lines=lines_packed(sent.body),
            expected=expected,
            sent=sent.seconds,
        )


CLUB = Size(games=1_000, players=50, nights=22)
"""Each club of the deployment of many clubs (``--clubs``)."""


def measure(
    sizes: Sequence[Size],
    *,
    web: Callable[[], Web],
    repeat: int,
    requests: int,
    template_count: int,
    seed: int,
    say: Callable[[str], None] = print,
    web_name: str = "",
    clubs: int = 0,
    club_size: Size = CLUB,
) -> list[Figures]:
    """Load and measure each size in the database Django is set up with (steps 2 and 4
    to 6), then, with ``clubs``, that many clubs of ``club_size`` beside them, and the last
    of those (step 7); with ``web_name``, the table so far is said after each."""
    from django.db import transaction

    from league.services.clubs import club_create
    from league.services.fixtures import league_create

    began = time.perf_counter()
    # the templates need a league for its rules only: one of a club that is rolled back
    with transaction.atomic():
        league = league_create(
            club=club_create(name="Templates (never kept)"), name="Bluke", game="bluke"
        )
        templates = make_templates(league, template_count, seed)
        transaction.set_rollback(True)
    say(
        f"{len(templates)} games played by the bot in {time.perf_counter() - began:.1f} s "
        f"({sum(t.card_by_card for t in templates)} kept card by card)"
    )
    measured = []
    for n, size in enumerate(sizes):
        loaded = load(size, templates=templates, repeat=repeat, seed=seed + 1 + n)
        say(
            f"{size.games:,} games: loaded in {loaded.seconds['loading']:.1f} s; standings "
            f"computed in {loaded.seconds['standings_refresh']:.1f} s, ratings (2 scopes) in "
            f"{loaded.seconds['ratings_rebuild']:.1f} s"
        )
        measured.append(measure_league(web, loaded, requests=requests))
        if web_name:
            say(f"\n{report(measured, web_name=web_name)}\n")
    if clubs:
        began = time.perf_counter()
        for n in range(clubs):
            loaded = load(
                club_size,
                templates=templates,
                repeat=repeat,
                seed=seed + 1_000 + n,
                name=f", club {n + 1}",
                vacuum=n == clubs - 1,
            )
        loaded.label = f"{club_size.games:,} games, beside {clubs} club{'s' if clubs > 1 else ''}"
        say(
            f"{clubs} clubs of {club_size.games:,} games loaded in "
            f"{time.perf_counter() - began:.0f} s, beside the leagues above: the last measured"
        )
        measured.append(measure_league(web, loaded, requests=requests))
        if web_name:
            say(f"\n{report(measured, web_name=web_name)}\n")
    return measured


def measure_league(web: Callable[[], Web], loaded: Loaded, *, requests: int) -> Figures:
    """Steps 4 to 6 of the module's docstring, for one loaded league."""
    figures = Figures(loaded=loaded)
    measure_results(web(), loaded, figures)
    measure_pages(web(), loaded, figures, requests=requests)
    measure_archives(web(), loaded, figures)
    return figures


# -- the report ---------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    value = 1000 * seconds
    return f"{value:,.0f} ms" if value >= 10 else f"{value:.1f} ms"


def spread(seconds: Sequence[float]) -> str:
    """The median, with the range when there are several."""
    if not seconds:
        return "-"
    if len(seconds) == 1:
        return ms(seconds[0])
    return f"{ms(statistics.median(seconds))} ({ms(min(seconds))}-{ms(max(seconds))})"


def failed(figures: Figures) -> str:
    """``; 2 of 5 answered 500``: the last hands' POSTs not answered 201."""
    if not figures.last_post_failed:
        return ""
    answers = ", ".join(sorted(set(figures.last_post_failed)))
    return f"; {len(figures.last_post_failed)} of {len(figures.last_post)} answered {answers}"


def kb(size: int) -> str:
    return f"{size / 1024:,.1f} KB"


def of_kinds(figures: Figures, *kinds: str) -> dict[str, PageFigures]:
    return {
        label: page
        for label, page in figures.pages.items()
        if page is not None and page.kind in kinds
    }


def largest(figures: Figures) -> str:
    """The page or API answer of the most bytes as sent uncompressed, named."""
    shown = of_kinds(figures, "page", "api")
    if not shown:
        return "-"
    label = max(shown, key=lambda name: shown[name].raw)
    return f"{kb(shown[label].raw)}: {label}"


def slowest(figures: Figures, *kinds: str) -> str:
    """The answer of ``kinds`` of the longest median time, named."""
    shown = of_kinds(figures, *kinds)
    if not shown:
        return "-"
    label = max(shown, key=lambda name: statistics.median(shown[name].seconds))
    return f"{ms(statistics.median(shown[label].seconds))}: {label}"


def mb(size: int) -> str:
    return f"{size / 1024 / 1024:,.1f} MB"


def prepared(figures: Figures, kind: str) -> str:
    """A league's games file made by its job: how long, how large, whether whole."""
    made = figures.archives.get(kind)
    if made is None:
        return "-"
    whole = "complete" if made.complete else f"INCOMPLETE, of {made.expected:,}"
    return (
        f"{made.prepared:,.1f} s, {mb(made.raw)} ({mb(made.packed)} gzip), "
        f"{made.lines:,} lines, {whole}; sent in {ms(made.sent)}"
    )


def counted(values: Sequence[int]) -> str:
    low, high = min(values), max(values)
    return f"{low:,} q" if low == high else f"{low:,}-{high:,} q"


def report(measured: Sequence[Figures], *, web_name: str) -> str:
    """The Markdown table of the module's docstring."""
    head = ["", *(f.loaded.label for f in measured)]
    rows: list[list[str]] = [
        [
            "players / game nights",
            *(f"{f.loaded.size.players:,} / {f.loaded.size.nights:,}" for f in measured),
        ],
        [
            f"POST of a hand that completes nothing ({web_name})",
            *(spread(f.middle_post) for f in measured),
        ],
        [
            f"POST of the last hand ({web_name}; no broker)",
            *(spread(f.last_post) + failed(f) for f in measured),
        ],
        [
            "… all the work the game owed done, after the POST began",
            *(spread(f.owed_done) for f in measured),
        ],
    ]
    tasks = sorted({task for f in measured for task in f.jobs})
    for task in tasks:
        label = {
            "league_standings_refresh": "standings job, one completed game",
            "ratings_refresh": "ratings job, one new game (each of 2 scopes)",
        }.get(task, f"job {task}")
        cells = []
        for f in measured:
            timing = f.jobs.get(task)
            cells.append(f"{spread(timing.seconds)}, {counted(timing.queries)}" if timing else "-")
        rows.append([label, *cells])
    labels = list(measured[0].pages) if measured else []
    for label in labels:
        cells = []
        for f in measured:
            page = f.pages.get(label)
            if page is None:
                cells.append("-")
                continue
            star = "" if page.compressed else "*"
            status = "" if page.status == 200 else f"{page.status}, "
            cells.append(
                f"{status}{ms(statistics.median(page.seconds))}, {kb(page.raw)} "
                f"({kb(page.sent_gzip)}{star} gzip), {page.queries} q"
            )
        rows.append([label, *cells])
    for kind, what in (("games.csv", "CSV"), ("games.jsonl", "JSON Lines")):
        rows.append(
            [
                f"league games ({what}) prepared as a file, then sent",
                *(prepared(f, kind) for f in measured),
            ]
        )
    rows.append(["largest page or API answer (raw; target under 150 KB)", *map(largest, measured)])
    rows.append(
        [
            "slowest page or API answer (median; target under 100 ms)",
            *(slowest(f, "page", "api") for f in measured),
        ]
    )
    rows.append(
        [
            "slowest night download (median; target under 1 s)",
            *(slowest(f, "night download") for f in measured),
        ]
    )
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return "\n".join(
        [line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows)]
    )


# -- the database, the settings and the server ----------------------------------------------------


@contextmanager
def fresh_database(server: str, name: str) -> Iterator[str]:
    """Create database ``name`` on ``server``, yield its URL, drop it at the end."""
    import psycopg
    from psycopg import sql

    try:
        admin = psycopg.connect(f"{server}/postgres", autocommit=True)
    except psycopg.OperationalError as error:
        raise SystemExit(f"cannot reach PostgreSQL at {server}: {error}") from None
    with admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            raise SystemExit(f"database {name!r} exists already: drop it, or use --database")
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield f"{server}/{name}"
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
        print(f"dropped database {name}")


SETTINGS = '''"""The production settings with a scratch STATIC_ROOT (benchmarks/scale.py)."""
from pathlib import Path

from config.settings.production import *  # noqa: F403

STATIC_ROOT = Path(__file__).resolve().parent / "static"
'''


def environment(database_url: str, scratch: Path) -> dict[str, str]:
    """The production settings (through the scratch settings module), no broker."""
    (scratch / "scale_settings.py").write_text(SETTINGS)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE", "DATABASE_URL")
    }
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="scale_settings",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=f"{HOST},localhost",
        SECURE_SSL_REDIRECT="0",
        DEBUG="0",
        LOG_LEVEL="WARNING",
        ARCHIVES_ROOT=str(scratch / "archives"),
        PYTHONPATH=os.pathsep.join([str(scratch), str(REPO)]),
    )
    return env


def setup_django(env: dict[str, str]) -> None:
    """Migrate and collect the static files (subprocesses), then set Django up here."""
    manage = [sys.executable, str(REPO / "manage.py")]
    for command in (["migrate", "--no-input"], ["collectstatic", "--no-input"]):
        subprocess.run([*manage, *command, "-v", "0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    for path in reversed(env["PYTHONPATH"].split(os.pathsep)):
        sys.path.insert(0, path)
    import django

    django.setup()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@contextmanager
def gunicorn(env: dict[str, str], *, workers: int) -> Iterator[int]:
    """gunicorn with the project's settings file on a free loopback port, until /healthz
    answers 200; stopped at the end."""
    port = free_port()
    installed = Path(sys.executable).with_name("gunicorn")
    command = [str(installed)] if installed.exists() else [sys.executable, "-m", "gunicorn"]
    command += [
        "-c",
        str(REPO / "config" / "gunicorn.conf.py"),
        "--access-logfile",
        os.devnull,
        "--log-level",
        "warning",
        "config.wsgi",
    ]
    server_env = {**env, "GUNICORN_BIND": f"{HOST}:{port}", "GUNICORN_WORKERS": str(workers)}
    server = subprocess.Popen(command, cwd=REPO, env=server_env)
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise SystemExit(f"gunicorn exited with status {server.returncode}")
            try:
                if LiveWeb(port).request("GET", "/healthz", headers={}).status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("/healthz did not answer 200 within 60 s")
            time.sleep(0.2)
        yield port
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def run(args: argparse.Namespace) -> int:
    sizes = [SIZES[games] for games in args.sizes]
    for size in sizes:
        size.check(args.repeat)
    print(
        f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}; sizes "
        f"{', '.join(f'{s.games:,}' for s in sizes)}; --repeat {args.repeat} --requests "
        f"{args.requests} --templates {args.templates}; "
        + ("Django's test client" if args.in_process else f"gunicorn, {args.workers} workers")
    )
    began = time.perf_counter()
    with (
        fresh_database(args.server, args.database) as url,
        tempfile.TemporaryDirectory(prefix="scale-") as scratch,
    ):
        env = environment(url, Path(scratch))
        setup_django(env)
        options: dict[str, Any] = {
            "repeat": args.repeat,
            "requests": args.requests,
            "template_count": args.templates,
            "seed": args.seed,
        }
        options["clubs"] = args.clubs
        if args.in_process:
            measure(sizes, web=InProcessWeb, web_name=InProcessWeb.name, **options)
        else:
            with gunicorn(env, workers=args.workers) as port:
                measure(sizes, web=lambda: LiveWeb(port), web_name=LiveWeb.name, **options)
    print(
        "\nTimes: medians (range) of --repeat POSTs or jobs, medians of --requests GETs. Bytes: "
        "the body as sent, without and with Accept-Encoding: gzip (* not compressed). q: SQL "
        "queries of one request (Django's test client, in this process) or job."
    )
    print(f"whole run: {time.perf_counter() - began:.0f} s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=[1_000, 10_000],
        choices=sorted(SIZES),
        metavar="GAMES",
        help="league sizes, in games: 1000, 10000, 100000 (default 1000 10000)",
    )
    parser.add_argument(
        "--tiny", action="store_true", help=f"one league of {TINY} games, 1 repeat, 3 requests"
    )
    parser.add_argument("--repeat", type=int, default=5, help="POSTs and jobs of each kind (5)")
    parser.add_argument("--requests", type=int, default=15, help="GETs of each page (15)")
    parser.add_argument("--templates", type=int, default=300, help="distinct bot games (300)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers (2)")
    parser.add_argument(
        "--clubs",
        type=int,
        default=20,
        help=f"clubs of {CLUB.games:,} games loaded beside the leagues, the last measured "
        "(20; 0: none)",
    )
    parser.add_argument(
        "--in-process", action="store_true", help="Django's test client instead of gunicorn"
    )
    parser.add_argument("--seed", type=int, default=2026, help="of the synthetic data (2026)")
    parser.add_argument("--database", default="league_bench_scale", help="created and dropped")
    parser.add_argument(
        "--server",
        default="postgres://postgres@127.0.0.1:5432",
        help="PostgreSQL server URL, without a database (postgres://postgres@127.0.0.1:5432)",
    )
    args = parser.parse_args(argv)
    if args.tiny:
        args.sizes, args.repeat, args.requests, args.clubs = [TINY], 1, 3, 0
        args.templates = min(args.templates, 20)
    if min(args.repeat, args.requests, args.templates, args.workers) < 1:
        parser.error("--repeat, --requests, --templates and --workers must be 1 or more")
    if args.clubs < 0:
        parser.error("--clubs must be 0 or more")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
