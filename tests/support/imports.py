"""Leagues with games played, to export and import again, and the files they make."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from django.test import Client
from django.urls import reverse

from league.csv_format import HAND_COLUMNS, HAND_COLUMNS_FROM_0, SEAT_NUMBER
from league.exports import PLAYED, game_records
from league.models import Club, Game, League, Table
from league.services.clubs import player_create
from league.services.fixtures import event_create, league_create, table_create
from league.services.results import game_submit, hand_submit
from tests.support.factories import ClubFactory
from tests.support.records import bluke_results, bot_logs

JobsRun = Callable[..., AbstractContextManager[Any]]
"""``django_capture_on_commit_callbacks``: ``with jobs_run(execute=True):`` runs the
standings and ratings jobs a change owes when it "commits"."""

NAMES = ["=HYPERLINK(1)", "Bob", "Cy", "Dee", "Eve", "-Fay", "Gil"]
"""The club's players; two names start as a spreadsheet formula would, so the
export writes them with an apostrophe and the import must take it off."""

BLUKE_OPTIONS = {"max_cards": 2}
"""Short Bluke games: hands of 2, 1, 2 cards."""

BUCK_HANDS = [
    {"trump": "S", "maker": 1, "drops": [3], "tricks": [1, 3, 1, 0]},
    {"trump": "C", "maker": None, "tricks": [2, 1, 1, 1]},
]
"""Two hands of a Buck Euchre game left unfinished: a drop, and a turned-up club."""


def played_league(jobs_run: JobsRun, *, game: str, nights: int = 2) -> League:
    """A league of ``game`` in a new club, with ``nights`` game nights of two rounds.

    Bluke: in round 1 a game of move logs played by the bot at table 1 and a game of
    results at a table of three; in round 2 a game of results. Buck Euchre: in round
    1 a game of move logs; in round 2 two hands of results, the game unfinished.
    Each change runs the jobs it owes."""
    club = ClubFactory()
    players = [player_create(club=club, name=name) for name in NAMES]
    options = BLUKE_OPTIONS if game == Game.BLUKE else {}
    league = league_create(club=club, name="Cup", game=game, options=options)
    for night in range(nights):
        event = event_create(
            league=league,
            name=f"Night {night + 1}",
            date=datetime.date(2026, 10, 1 + 7 * night),
            rounds=2,
        )
        first, second = event.rounds.order_by("number")
        dealer = night % 4
        logs = table_create(round=first, number=1, players=players[:4], first_dealer=dealer)
        with jobs_run(execute=True):
            game_submit(
                table=logs,
                record={"hands": bot_logs(game, first_dealer=dealer, seed=night, options=options)},
            )
        if game == Game.BLUKE:
            three = table_create(round=first, number=2, players=players[4:7], first_dealer=2)
            _bluke_results(jobs_run, three, players=3)
            four = table_create(round=second, number=1, players=players[1:5][::-1])
            _bluke_results(jobs_run, four, players=4)
        else:
            table = table_create(round=second, number=1, players=players[2:6][::-1])
            for record in BUCK_HANDS:
                with jobs_run(execute=True):
                    hand_submit(table=table, record=record)
    return league


def _bluke_results(jobs_run: JobsRun, table: Table, *, players: int) -> None:
    """A whole short Bluke game of results: one player bids and takes every trick."""
    for cards in (2, 1, 2):
        with jobs_run(execute=True):
            hand_submit(
                table=table, record=bluke_results(cards, winner=cards % players, players=players)
            )


def empty_league_like(league: League) -> League:
    """A league of the same game and options in a new club with no players."""
    club: Club = ClubFactory()
    return league_create(club=club, name="Imported", game=league.game, options=league.options)


def download(client: Client, name: str, *args: int) -> bytes:
    """A download's bytes, read whole."""
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return b"".join(response.streaming_content)


def rows_of(data: bytes) -> list[dict[str, str]]:
    """A games CSV's rows, by column (row 2 of the file is ``rows[0]``)."""
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


TEXT_COLUMNS = frozenset({"event", "date", "player", "trump"})
"""The games CSV's columns of text; the others hold whole numbers (or nothing)."""


def csv_of(rows: list[dict[str, str]], columns: Sequence[str] = HAND_COLUMNS) -> bytes:
    """Rows as a games CSV, written as the download writes one but without its byte
    order mark (which the import takes or leaves): its header, text quoted, whole
    numbers not (a cell of a number column that is not one, as a test of refusals
    writes, is quoted as text)."""

    def cell(column: str, value: str) -> str | int:
        if column not in TEXT_COLUMNS and re.fullmatch(r"-?[0-9]+", value):
            return int(value)
        return value

    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        assert set(row) <= set(columns), set(row) - set(columns)
        writer.writerow([cell(column, row.get(column, "")) for column in columns])
    return out.getvalue().encode()


def as_downloaded_before(data: bytes) -> bytes:
    """A games CSV as the download wrote it before seats were counted from 1: no byte
    order mark, the column ``seat`` for ``seat_number``, and ``dealer``, ``maker``
    and ``seat`` from 0."""

    def from_0(value: str) -> str:
        return str(int(value) - 1) if value else value

    rows = []
    for row in rows_of(data):
        seat = row.pop(SEAT_NUMBER)
        rows.append(
            {**row, "seat": from_0(seat), "dealer": from_0(row["dealer"]),
             "maker": from_0(row["maker"])}
        )  # fmt: skip
    return csv_of(rows, HAND_COLUMNS_FROM_0)


def jsonl_of(league: League) -> bytes:
    """The league's games as the import's JSON Lines: each record the export writes
    (:func:`league.exports.game_records`), with its game night, round, table and players."""
    tables = (
        Table.objects.filter(round__event__league=league, hands__isnull=False)
        .distinct()
        .order_by(*PLAYED)
        .select_related("round__event")
    )
    lines = []
    for table, record in zip(tables, game_records(league=league), strict=True):
        names = [s.player.name for s in table.seatings.select_related("player").order_by("seat")]
        line = {
            "event": table.round.event.name,
            "date": table.round.event.date.isoformat(),
            "round": table.round.number,
            "table": table.number,
            "players": names,
            "record": record,
        }
        lines.append(json.dumps(line) + "\n")
    return "".join(lines).encode()
