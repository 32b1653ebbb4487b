"""Imports of players and past results (league.services.imports): the round trip of
the games CSV and of JSON Lines, re-imports that change nothing, and every kind of
refusal listed by row, hand and seat with nothing stored."""

from __future__ import annotations

import contextlib
import datetime
import io
import json
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import OperationalError, connection, transaction
from django.test import Client

from league import exports, outbox
from league.csv_format import HAND_COLUMNS, HAND_COLUMNS_FROM_0
from league.errors import Conflict
from league.import_files.csv_rows import unescape
from league.import_files.problems import problems_text
from league.import_files.results import ImportFormat
from league.models import (
    AuditEntry,
    Event,
    Game,
    Hand,
    JobOwed,
    League,
    Player,
    ResultsImport,
    Seating,
    Standing,
    Table,
)
from league.services import imports
from league.services.clubs import player_create, players_create
from league.services.fixtures import event_create, league_create, table_create
from league.services.imports import (
    ImportRefused,
    NotThePreviewedFile,
    check_players_import,
    check_results_import,
    file_digest,
    players_import,
    results_import,
    results_import_queue,
)
from league.services.results import hand_submit
from tests.support.factories import ClubFactory, UserFactory
from tests.support.imports import (
    as_downloaded_before,
    csv_of,
    download,
    empty_league_like,
    jsonl_of,
    played_league,
    rows_of,
)
from tests.support.records import bluke_results
from tests.support.state import db_state

pytestmark = pytest.mark.django_db

Rows = list[dict[str, str]]


@pytest.fixture
def jobs_run(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


def table_versions() -> list[int]:
    return list(Table.objects.order_by("pk").values_list("version", flat=True))


# -- the round trip ------------------------------------------------------------------


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_a_league_exported_and_imported_into_an_empty_club_exports_the_same(
    client: Client, jobs_run: Any, game: str
) -> None:
    league = played_league(jobs_run, game=game)
    games_csv = download(client, "league-games-csv", league.pk)
    copy = empty_league_like(league)
    assert not Player.objects.filter(club=copy.club).exists()
    with jobs_run(execute=True):
        done = results_import(league=copy, data=games_csv)
    tables = Table.objects.filter(round__event__league=league, hands__isnull=False).distinct()
    assert done.summary.tables == done.summary.new_tables == tables.count()
    assert done.summary.new_events == done.summary.events == 2
    assert done.summary.hands == Hand.objects.filter(table__round__event__league=league).count()
    assert len(done.summary.new_players) == Player.objects.filter(club=copy.club).count()

    assert download(client, "league-games-csv", copy.pk) == games_csv
    for name in ("league-standings-csv", "league-ratings-csv"):
        exported = download(client, name, copy.pk)
        assert exported == download(client, name, league.pk), name
        assert exported.count(b"\n") > 3  # a header and players: not two empty files
    for night in ("Night 1", "Night 2"):
        ours, theirs = (
            download(client, "event-standings-csv", Event.objects.get(league=lg, name=night).pk)
            for lg in (copy, league)
        )
        assert ours == theirs

    before, versions = db_state(), table_versions()
    with jobs_run(execute=True):
        again = results_import(league=copy, data=games_csv)
    assert again.summary.new_tables == again.summary.hands == again.summary.new_events == 0
    assert again.summary.skipped_tables == done.summary.tables
    assert again.summary.new_players == ()
    assert db_state() == before
    assert table_versions() == versions


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_a_download_from_before_with_seats_from_0_imports_the_same_games(
    client: Client, jobs_run: Any, game: str
) -> None:
    """An older download (a ``seat`` column; dealer, maker and seat from 0; no byte
    order mark) is read as it was meant: imported into an empty club, the league
    downloads as the original does now."""
    league = played_league(jobs_run, game=game)
    games_csv = download(client, "league-games-csv", league.pk)
    older = as_downloaded_before(games_csv)
    assert older.startswith(b'"event","date","round","table","hand","dealer",')
    assert b'"seat"' in older.split(b"\r\n")[0] and b"seat_number" not in older
    first = rows_of(older)[0]
    assert (first["hand"], first["dealer"], first["seat"]) == ("1", "0", "0")
    check = check_results_import(league=empty_league_like(league), data=older)
    assert check.ok and check.seats_from == 0
    copy = empty_league_like(league)
    with jobs_run(execute=True):
        done = results_import(league=copy, data=older)
    assert done.summary.new_tables == done.summary.tables
    assert download(client, "league-games-csv", copy.pk) == games_csv
    assert download(client, "league-standings-csv", copy.pk) == download(
        client, "league-standings-csv", league.pk
    )


def test_the_byte_order_mark_is_read_or_not_alike(client: Client, jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BUCK_EUCHRE, nights=1)
    games_csv = download(client, "league-games-csv", league.pk)
    assert games_csv.startswith(b"\xef\xbb\xbf" + b'"event",')  # UTF-8's byte order mark
    bare = csv_of(rows_of(games_csv))
    assert not bare.startswith(b"\xef\xbb\xbf")
    copy = empty_league_like(league)
    with_mark, without = (
        check_results_import(league=copy, data=data) for data in (games_csv, bare)
    )
    assert with_mark.ok and without.ok and with_mark.seats_from == without.seats_from == 1
    assert with_mark.summary == without.summary


def test_an_older_files_problems_count_seats_from_0_as_it_does(jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    rows = rows_of(as_downloaded_before(export_csv(league)))
    set_cells(16, bid="9")(rows)  # Gil, the third seat: "2" in this file
    swap(23, 24)(rows)  # round 2's table: seats 1 and 0 where 0 and 1 come
    check = check_results_import(
        league=empty_league_like(league), data=csv_of(rows, HAND_COLUMNS_FROM_0)
    )
    assert check.seats_from == 0
    assert list(problems_text(check.problems, seats_from=check.seats_from)) == [
        "row 16, hand 1, seat 2 (Gil): seat 2 bid 9: bids run 1..2 (bad_bid)",
        "row 23, hand 1, seat 1 (Dee): seat 1 where seat 0 comes next: a hand's rows run "
        "seat 0, 1, 2... in order (seat_order)",
    ]


def test_a_file_with_seats_from_1_refuses_a_seat_0_and_says_seats_as_it_counts(
    jobs_run: Any,
) -> None:
    league = played_league(jobs_run, game=Game.BUCK_EUCHRE, nights=1)
    exported = rows_of(export_csv(league))
    results = next(i for i, r in enumerate(exported) if r["round"] == "2")
    second_hand = range(results + 4, results + 8)  # dealt by seat 1: "2" in the file

    def problems(change: Callable[[Rows], None]) -> list[tuple[int | None, str, str]]:
        rows = [dict(row) for row in exported]
        change(rows)
        check = check_results_import(league=empty_league_like(league), data=csv_of(rows))
        assert check.seats_from == 1
        return [(p.row, p.code, p.message) for p in check.problems]

    assert problems(lambda rows: rows[0].update(seat_number="0"))[0] == (
        2, "bad_value", "the seat_number 0 is out of range (from 1 to 15)"
    )  # fmt: skip

    def dealt_by_the_first_seat(rows: Rows) -> None:
        for index in second_hand:
            rows[index]["dealer"] = "1"

    assert problems(dealt_by_the_first_seat) == [
        (results + 6, "dealer",
         "seat 1 deals hand 2 here, but the deal passes left: seat 2 deals it"),
    ]  # fmt: skip
    assert problems(lambda rows: rows[results + 5].update(maker="1")) == [
        (results + 7, "hand_mismatch",
         "the maker is 1 here and empty on seat 1's row: every row of a hand gives the same"),
    ]  # fmt: skip


def test_json_lines_of_games_round_trip_and_keep_the_move_logs(
    client: Client, jobs_run: Any
) -> None:
    league = played_league(jobs_run, game=Game.BLUKE)
    lines = jsonl_of(league)
    copy = empty_league_like(league)
    with jobs_run(execute=True):
        done = results_import(league=copy, data=lines, format=ImportFormat.JSON_LINES)
    assert done.summary.new_tables == 6 and done.summary.hands == 18
    assert download(client, "league-games-csv", copy.pk) == download(
        client, "league-games-csv", league.pk
    )
    assert download(client, "league-games-jsonl", copy.pk) == download(
        client, "league-games-jsonl", league.pk
    )  # the records as sent, move logs card by card
    assert Hand.objects.filter(table__round__event__league=copy, is_move_log=True).count() == 6
    assert download(client, "league-ratings-csv", copy.pk) == download(
        client, "league-ratings-csv", league.pk
    )
    before = db_state()
    again = results_import(league=copy, data=lines, format=ImportFormat.JSON_LINES)
    assert again.summary.skipped_tables == 6 and db_state() == before


def test_an_import_owes_the_standings_and_ratings_like_any_result(jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BUCK_EUCHRE, nights=1)
    data = csv_of(rows_of(export_csv(league)))
    copy = empty_league_like(league)
    results_import(league=copy, data=data)  # the jobs are owed, not run
    owed = set(JobOwed.objects.values_list("kind", "target_id"))
    assert (JobOwed.Kind.STANDINGS, copy.pk) in owed
    assert not Standing.objects.filter(league=copy).exists()


def export_csv(league: League) -> bytes:
    return download(Client(), "league-games-csv", league.pk)


def test_tables_the_league_has_without_hands_are_filled(client: Client, jobs_run: Any) -> None:
    """A night drawn before the file came: its tables keep their ids; the first
    dealer follows the file."""
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    data = export_csv(league)
    copy = empty_league_like(league)
    night = event_create(league=copy, name="Night 1", date=datetime.date(2026, 10, 1), rounds=1)
    names = [row["player"].lstrip("'") for row in rows_of(data)[:4]]
    drawn = table_create(
        round=night.rounds.get(),
        number=1,
        players=[player_create(club=copy.club, name=name) for name in names],
    )
    check = check_results_import(league=copy, data=data)
    assert check.ok and check.summary.new_events == 0 and check.summary.new_tables == 3
    assert check.summary.new_players == ("Eve", "-Fay", "Gil")
    with jobs_run(execute=True):
        results_import(league=copy, data=data)
    drawn.refresh_from_db()
    assert drawn.hands_played == 3 and drawn.complete
    assert night.rounds.count() == 2  # the round the file needs is added
    assert download(client, "league-games-csv", copy.pk) == data


def test_the_apostrophe_that_guards_a_formula_comes_off_and_names_stay_apart() -> None:
    names = ["=HYPERLINK(1)", "'=HYPERLINK(1)", "'Tis", "''", "-Ann", "Ann", "@home"]
    written = [exports.safe_cell(name) for name in names]
    assert len(set(written)) == len(names)
    assert [unescape(cell) for cell in written] == names


def test_a_confirmation_names_the_file_checked() -> None:
    league = new_league()
    with pytest.raises(NotThePreviewedFile):
        results_import(league=league, data=b"event\n", digest=file_digest(b"another file"))


def new_league() -> League:
    return league_create(club=ClubFactory(), name="New", game=Game.BLUKE)


# -- refusals, by row, hand and seat -----------------------------------------------------
#
# The file: one night of the Bluke league (max_cards 2: hands of 2, 1, 2 cards).
# Rows 2-13: round 1 table 1 (4 seats, 3 hands: move logs played by the bot);
# rows 14-22: round 1 table 2 (3 seats); rows 23-34: round 2 table 1 (4 seats).


def row_index(row: int) -> int:
    return row - 2


def set_cells(row: int, **cells: str) -> Callable[[Rows], None]:
    def change(rows: Rows) -> None:
        rows[row_index(row)].update(cells)

    return change


def set_hand(first: int, seats: int, **cells: str) -> Callable[[Rows], None]:
    """Set cells on every row of the hand whose rows start at ``first``."""

    def change(rows: Rows) -> None:
        for index in range(row_index(first), row_index(first) + seats):
            rows[index].update(cells)

    return change


def swap(first: int, second: int) -> Callable[[Rows], None]:
    def change(rows: Rows) -> None:
        a, b = row_index(first), row_index(second)
        rows[a], rows[b] = rows[b], rows[a]

    return change


def rename(old: str, new: str, rows_from: int, rows_to: int) -> Callable[[Rows], None]:
    def change(rows: Rows) -> None:
        for index in range(row_index(rows_from), row_index(rows_to) + 1):
            if rows[index]["player"] == old:
                rows[index]["player"] = new

    return change


def move_to_end(row: int) -> Callable[[Rows], None]:
    def change(rows: Rows) -> None:
        rows.append(rows.pop(row_index(row)))

    return change


def drop_rows(first: int, last: int) -> Callable[[Rows], None]:
    def change(rows: Rows) -> None:
        del rows[row_index(first) : row_index(last) + 1]

    return change


def plus_one(column: str, row: int) -> Callable[[Rows], None]:
    def change(rows: Rows) -> None:
        cells = rows[row_index(row)]
        cells[column] = str(int(cells[column]) + 1)

    return change


def a_hand_after_the_end(rows: Rows) -> None:
    """A fourth hand at round 2's table: a copy of its third, dealt by the next seat."""
    for index in range(row_index(31), row_index(34) + 1):
        extra = dict(rows[index], hand="4", dealer="4")  # seat 4 of the file, from 1
        rows.insert(row_index(35) + index - row_index(31), extra)


Expected = list[tuple[int, int | None, int | None, str]]
"""Problems as (row, hand, seat, code)."""

REFUSALS: dict[str, tuple[Callable[[Rows], None], Expected]] = {
    # the engine's refusals: with the seat where the engine names one
    "a bid out of range": (set_cells(16, bid="9"), [(16, 1, 2, "bad_bid")]),
    "tricks that do not add up": (
        set_cells(24, tricks="1", points="-10", total="-10"),
        [(23, 1, None, "bad_tricks")],
    ),
    "a hand after the game ended": (a_hand_after_the_end, [(35, 4, None, "game_over")]),
    # the file against what the engine scores
    "points the rules do not score": (plus_one("points", 25), [(25, 1, 2, "points")]),
    "a total that does not add up": (plus_one("total", 29), [(29, 2, 2, "total")]),
    "a dealer out of turn": (set_hand(17, 3, dealer="2"), [(17, 2, None, "dealer")]),
    "cards the schedule does not deal": (set_hand(17, 3, cards="2"), [(17, 2, None, "cards")]),
    # cells missing, garbled, or of the other game
    "a bid missing": (set_cells(3, bid=""), [(3, 1, 1, "missing")]),
    "tricks that are no number": (set_cells(3, tricks="two"), [(3, 1, 1, "bad_value")]),
    "a date that is no date": (set_cells(5, date="1/10/2026"), [(5, 1, 3, "bad_value")]),
    "a maker in Bluke": (set_cells(4, maker="1"), [(4, 1, 2, "wrong_game")]),
    "a trump that is no suit": (set_cells(2, trump="X"), [(2, 1, 0, "bad_value")]),
    # the file's order and consistency
    "seats out of order": (swap(3, 4), [(3, 1, 2, "seat_order")]),
    "rows of a hand that disagree": (set_cells(15, trump="H"), [(15, 1, 1, "hand_mismatch")]),
    "a seat whose player changes": (
        set_cells(18, player="Zed"),
        [(18, 2, 1, "players_changed")],
    ),
    "a hand left out": (drop_rows(17, 19), [(17, 3, None, "hand_order")]),
    "a table's rows apart": (
        move_to_end(13),
        [(10, 3, None, "seat_order"), (34, 3, 3, "table_split")],
    ),
    "a player at two tables of a round": (
        rename("Gil", "Bob", 14, 22),
        [(16, None, 2, "two_tables")],
    ),
    "a player in two seats": (
        rename("Dee", "Cy", 2, 13),
        [(5, 1, 3, "player_twice")],
    ),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_every_refusal_is_listed_by_row_hand_and_seat_and_nothing_is_stored(
    jobs_run: Any, case: str
) -> None:
    change, expected = REFUSALS[case]
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    rows = rows_of(export_csv(league))
    assert len(rows) == 33
    change(rows)
    data = csv_of(rows)
    copy = empty_league_like(league)
    check = check_results_import(league=copy, data=data)
    found = [(p.row, p.hand, p.seat, p.code) for p in check.problems]
    assert found == expected, [p.message for p in check.problems]
    assert all(p.message for p in check.problems)
    before = db_state()
    with pytest.raises(ImportRefused) as refused:
        results_import(league=copy, data=data)
    assert refused.value.check.problems == check.problems
    assert db_state() == before


def test_an_engine_refusal_carries_the_hand_as_the_file_gives_it(jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    rows = rows_of(export_csv(league))
    set_cells(16, bid="9")(rows)
    (problem,) = check_results_import(league=empty_league_like(league), data=csv_of(rows)).problems
    assert problem.error is not None and problem.error.code == "bad_bid"
    assert problem.facts is not None
    assert problem.facts.names == ("Eve", "-Fay", "Gil")  # the apostrophe taken off
    assert problem.facts.bids[2] == 9 and problem.facts.cards == 2


def test_every_problem_of_a_file_is_listed_in_the_files_order(jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    rows = rows_of(export_csv(league))
    for change in (set_cells(16, bid="9"), plus_one("points", 25), set_cells(3, bid="")):
        change(rows)
    check = check_results_import(league=empty_league_like(league), data=csv_of(rows))
    assert [(p.row, p.code) for p in check.problems] == [
        (3, "missing"),
        (16, "bad_bid"),
        (25, "points"),
    ]
    assert list(problems_text(check.problems))[1].startswith("row 16, hand 1, seat 2 (Gil): ")


def test_buck_euchre_files_refuse_a_bid_and_check_drops(jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BUCK_EUCHRE, nights=1)
    rows = rows_of(export_csv(league))
    first_results = next(i for i, r in enumerate(rows) if r["round"] == "2")
    rows[0]["bid"] = "2"
    rows[first_results + 1]["dropped"] = "yes"
    check = check_results_import(league=empty_league_like(league), data=csv_of(rows))
    assert [(p.row, p.seat, p.code) for p in check.problems] == [
        (2, 0, "wrong_game"),
        (first_results + 3, 1, "bad_value"),
    ]


def test_a_dropped_player_with_tricks_is_the_engines_refusal(jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BUCK_EUCHRE, nights=1)
    rows = rows_of(export_csv(league))
    index = next(i for i, r in enumerate(rows) if r["round"] == "2" and r["dropped"] == "1")
    rows[index]["tricks"] = "1"
    (problem,) = check_results_import(league=empty_league_like(league), data=csv_of(rows)).problems
    assert (problem.row, problem.code) == (index + 2, "bad_tricks")


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"rank,player\n1,Ann\n", "header"),
        (b"", "empty"),
        (",".join(["event"] * 2).encode() + b"\n", "header"),
        ("event,date\n".encode("utf-16"), "encoding"),
        ("event,date\nNuit d'été,x\n".encode("latin-1"), "encoding"),
        (b"\x00\x01PK binary", "not_csv"),
    ],
)
def test_a_file_that_is_not_the_games_csv_is_one_problem_of_the_file(
    data: bytes, code: str
) -> None:
    league = new_league()
    check = check_results_import(league=league, data=data)
    assert [(p.row if code != "header" else 1, p.code) for p in check.problems] == [
        (None if code != "header" else 1, code)
    ]


@pytest.mark.parametrize(
    ("header", "said"),
    [
        # an older download lacking a column: said against the older columns
        ([c for c in HAND_COLUMNS_FROM_0 if c != "bid"], "(missing bid)"),
        # both ways of counting seats at once: neither
        ([*HAND_COLUMNS, "seat"], "(unknown 'seat')"),
    ],
)
def test_a_header_is_said_wrong_against_the_columns_it_comes_closest_to(
    header: list[str], said: str
) -> None:
    data = (",".join(header) + "\r\n").encode()
    (problem,) = check_results_import(league=new_league(), data=data).problems
    assert problem.code == "header"
    closest = HAND_COLUMNS_FROM_0 if "seat_number" not in header else HAND_COLUMNS
    assert problem.message == (f"the header row must name the columns {', '.join(closest)} {said}")


def test_only_a_header_is_an_empty_file(jobs_run: Any) -> None:
    league = new_league()
    (problem,) = check_results_import(league=league, data=csv_of([])).problems
    assert (problem.row, problem.code) == (None, "empty")


def test_a_table_the_league_has_with_other_hands_or_players_is_a_conflict(
    jobs_run: Any,
) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    data = export_csv(league)
    copy = empty_league_like(league)
    results_import(league=copy, data=data)
    rows = rows_of(data)
    rename("Eve", "Zed", 23, 34)(rows)  # round 2's table, with another player
    before = db_state()
    check = check_results_import(league=copy, data=csv_of(rows))
    assert [(p.row, p.code) for p in check.problems] == [(23, "conflict")]
    assert "other players" in check.problems[0].message
    with pytest.raises(ImportRefused):
        results_import(league=copy, data=csv_of(rows))
    assert db_state() == before

    # the same players, other hands: a second league whose table has a hand of its own
    other = empty_league_like(league)
    night = event_create(league=other, name="Night 1", date=datetime.date(2026, 10, 1), rounds=2)
    names = [row["player"].lstrip("'") for row in rows_of(data)[:4]]
    drawn = table_create(
        round=night.rounds.get(number=1),
        number=1,
        players=[player_create(club=other.club, name=name) for name in names],
    )
    hand_submit(table=drawn, record=bluke_results(2, winner=1))
    check = check_results_import(league=other, data=data)
    assert [(p.row, p.code) for p in check.problems] == [(2, "conflict")]
    assert "other hands (1 stored)" in check.problems[0].message


def test_a_player_at_a_table_of_the_round_already_and_two_nights_alike(jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    data = export_csv(league)
    copy = empty_league_like(league)
    night = event_create(league=copy, name="Night 1", date=datetime.date(2026, 10, 1), rounds=1)
    bob = player_create(club=copy.club, name="Bob")
    others = [player_create(club=copy.club, name=name) for name in ("P", "Q")]
    table_create(round=night.rounds.get(), number=7, players=[bob, *others])
    check = check_results_import(league=copy, data=data)
    assert [(p.row, p.seat, p.code) for p in check.problems] == [(3, 1, "two_tables")]

    event_create(league=copy, name="Night 1", date=datetime.date(2026, 10, 1))
    check = check_results_import(league=copy, data=data)
    assert [(p.row, p.code) for p in check.problems] == [(2, "ambiguous_event")]


# -- JSON Lines refusals --------------------------------------------------------------


def test_json_lines_refusals_are_listed_by_line(jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    lines = jsonl_of(league).decode().splitlines()
    broken = lines[2].replace('"tricks": [', '"tricks": [9, ')  # a results hand
    data = "\n".join(
        [lines[0], "not json", '{"event": "x"}', broken, lines[1].replace("bluke", "buck_euchre")]
    ).encode()
    check = check_results_import(
        league=empty_league_like(league), data=data, format=ImportFormat.JSON_LINES
    )
    found = [(p.row, p.hand, p.code) for p in check.problems]
    every_hand = [(4, hand, "bad_tricks") for hand in (1, 2, 3)]  # each checked on its own
    assert found == [
        (2, None, "bad_line"),
        (3, None, "bad_line"),
        *every_hand,
        (5, None, "bad_line"),
    ]
    assert "game is 'buck_euchre'" in check.problems[-1].message


# -- players -----------------------------------------------------------------------------


def test_players_are_added_once_and_names_the_club_has_stay() -> None:
    club = ClubFactory()
    player_create(club=club, name="Ann")
    data = b"name\nAnn\n Bob \n'=Cy\n\nDee\n"
    check = check_players_import(club=club, data=data)
    assert check.ok and check.new_players == ("Bob", "=Cy", "Dee") and check.existing == 1
    players_import(club=club, data=data, digest=check.digest)
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == [
        "=Cy",
        "Ann",
        "Bob",
        "Dee",
    ]
    before = db_state()
    again = players_import(club=club, data=data)
    assert again.new_players == () and again.existing == 4 and db_state() == before


def test_a_players_file_saved_by_excel_with_the_byte_order_mark_reads_whole() -> None:
    """Excel's "CSV UTF-8" starts the file with the mark: the first column is still
    ``name``, and "José" and "田中" arrive as they were typed."""
    club = ClubFactory()
    data = "\ufeffname\r\nJosé\r\n田中 花子\r\n".encode()
    check = check_players_import(club=club, data=data)
    assert check.ok and check.new_players == ("José", "田中 花子")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name\nAnn\nAnn\n", [(3, "duplicate")]),
        ("name\n" + "x" * 101 + "\n", [(2, "too_long")]),
        ("name,email\nAnn,a@example.org\n", [(1, "header")]),
        ("name\n", [(None, "empty")]),
        ("name\nAnn,Bob\n", [(2, "cells")]),
    ],
)
def test_a_players_file_with_problems_adds_no_one(
    text: str, expected: list[tuple[int | None, str]]
) -> None:
    club = ClubFactory()
    check = check_players_import(club=club, data=text.encode())
    assert [(p.row, p.code) for p in check.problems] == expected
    before = db_state()
    with pytest.raises(ImportRefused):
        players_import(club=club, data=text.encode())
    assert db_state() == before


# -- the commands ----------------------------------------------------------------------


def run(command: str, *args: str) -> str:
    out = io.StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


def test_import_results_checks_with_dry_run_then_imports(
    tmp_path: Any, client: Client, jobs_run: Any
) -> None:
    league = played_league(jobs_run, game=Game.BUCK_EUCHRE, nights=1)
    path = tmp_path / "games.csv"
    path.write_bytes(export_csv(league))
    copy = empty_league_like(league)
    before = db_state()
    dry = run("import_results", "--league", str(copy.pk), str(path), "--dry-run")
    assert "2 tables to import" in dry and "1 game nights (1 new)" in dry
    assert db_state() == before
    done = run("import_results", "--league", str(copy.pk), str(path))
    assert "2 tables imported" in done
    assert download(client, "league-games-csv", copy.pk) == path.read_bytes()
    again = run("import_results", "--league", str(copy.pk), str(path))
    assert "0 tables imported; 2 tables stored already" in again


def test_import_results_prints_every_problem_and_stores_nothing(
    tmp_path: Any, jobs_run: Any
) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    rows = rows_of(export_csv(league))
    set_cells(16, bid="9")(rows)
    plus_one("points", 25)(rows)
    path = tmp_path / "games.csv"
    path.write_bytes(csv_of(rows))
    copy = empty_league_like(league)
    before = db_state()
    out = io.StringIO()
    with pytest.raises(CommandError, match="2 problems; nothing was imported"):
        call_command("import_results", "--league", str(copy.pk), str(path), stdout=out)
    lines = out.getvalue().splitlines()
    # seats as the file counts them, from 1 (the engine's own words too)
    assert lines[0] == "row 16, hand 1, seat 3 (Gil): seat 3 bid 9: bids run 1..2 (bad_bid)"
    assert lines[1].startswith("row 25, hand 1, seat 3 (Cy): ") and lines[1].endswith("(points)")
    assert db_state() == before
    with pytest.raises(CommandError, match="no league"):
        call_command("import_results", "--league", "999999", str(path))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_results", "--league", str(copy.pk), str(tmp_path / "missing.csv"))


def test_import_results_reads_json_lines_by_the_files_name(tmp_path: Any, jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BUCK_EUCHRE, nights=1)
    path = tmp_path / "games.jsonl"
    path.write_bytes(jsonl_of(league))
    copy = empty_league_like(league)
    assert "2 tables imported" in run("import_results", "--league", str(copy.pk), str(path))
    assert Hand.objects.filter(table__round__event__league=copy, is_move_log=True).exists()


def test_import_players_adds_the_new_names(tmp_path: Any) -> None:
    club = ClubFactory()
    path = tmp_path / "players.csv"
    path.write_text("name\nAnn\nBob\n")
    assert "2 players to add: Ann, Bob" in run(
        "import_players", "--club", str(club.pk), str(path), "--dry-run"
    )
    assert not Player.objects.filter(club=club).exists()
    assert "2 players added" in run("import_players", "--club", str(club.pk), str(path))
    assert Player.objects.filter(club=club).count() == 2
    path.write_text("name\nAnn\nAnn\n")
    with pytest.raises(CommandError, match="1 problem;"):
        call_command("import_players", "--club", str(club.pk), str(path), stdout=io.StringIO())


def test_json_lines_of_bare_records_or_not_utf8_are_told_apart(
    client: Client, jobs_run: Any
) -> None:
    league = played_league(jobs_run, game=Game.BUCK_EUCHRE, nights=1)
    bare = download(client, "league-games-jsonl", league.pk)  # the download: records alone
    check = check_results_import(
        league=empty_league_like(league), data=bare, format=ImportFormat.JSON_LINES
    )
    assert [(p.row, p.code) for p in check.problems] == [(1, "bad_line"), (2, "bad_line")]
    assert "a game record alone" in check.problems[0].message
    latin = '{"event": "Été"}\n'.encode("latin-1")
    check = check_results_import(league=league, data=latin, format=ImportFormat.JSON_LINES)
    assert [(p.row, p.code) for p in check.problems] == [(None, "encoding")]


def test_imported_results_count_at_once_in_a_league_whose_players_confirm(
    client: Client, jobs_run: Any
) -> None:
    """Issue 27: only a game entered through its table link awaits confirmation."""
    league = played_league(jobs_run, game=Game.BUCK_EUCHRE)
    games_csv = download(client, "league-games-csv", league.pk)
    copy = empty_league_like(league)
    copy.results_confirmation = "player"
    copy.save()
    with jobs_run(execute=True):
        results_import(league=copy, data=games_csv)
    complete = Table.objects.filter(round__event__league=copy, complete=True)
    assert complete.exists()
    assert set(complete.values_list("confirmation", flat=True)) == {"none"}
    assert not Seating.objects.filter(table__in=complete, place__isnull=True).exists()


# -- what PostgreSQL refuses: text that is no text, statements of 65,535 parameters --------
#
# Issue 28: a lone surrogate or a NUL in a JSON Lines name crashed the preview, the
# confirmation and the command; a players file of 65,535 names passed PostgreSQL's
# parameters a statement. Each is a clear refusal now, or works.


def a_game_line(**fields: Any) -> str:
    """One JSON Lines game of a hand of 2 cards (the league's first), ``fields`` changed."""
    line: dict[str, Any] = {
        "event": "Night 1",
        "date": "2026-10-01",
        "round": 1,
        "table": 1,
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "record": {"game": "bluke", "first_dealer": 0, "hands": [bluke_results(2)]},
    }
    line.update(fields)
    return json.dumps(line)  # ASCII: a NUL or a surrogate written as a \u escape


NOT_TEXT = {
    "a lone surrogate in the event": (
        a_game_line(event="Night \ud800"),
        "event holds half of a surrogate pair",
    ),
    "a NUL in a player's name": (
        a_game_line(players=["Ann", "B\u0000b", "Cy", "Dee"]),
        "players[1] holds a NUL",
    ),
    "the second half of a pair alone in a hand": (
        a_game_line(record={"game": "bluke", "first_dealer": 0, "hands": [{"trump": "\udc00"}]}),
        "record.hands[0].trump holds half of a surrogate pair",
    ),
    "a NUL in a field's name": (
        a_game_line(record={"game": "bluke", "first_dealer": 0, "hands": [], "\u0000": 1}),
        "a field's name in record holds a NUL",
    ),
}


@pytest.mark.parametrize("case", list(NOT_TEXT))
def test_a_json_lines_value_that_is_no_text_is_refused_by_its_line(
    case: str, tmp_path: Any
) -> None:
    line, says = NOT_TEXT[case]
    league = league_create(
        club=ClubFactory(), name="Cup", game=Game.BLUKE, options={"max_cards": 2}
    )
    data = f"{a_game_line(table=2)}\n{line}\n".encode()
    check = check_results_import(league=league, data=data, format=ImportFormat.JSON_LINES)
    assert [(p.row, p.code) for p in check.problems] == [(2, "not_text")]
    assert check.problems[0].message.startswith(says)
    printed = list(problems_text(check.problems))
    assert printed[0].startswith(f"row 2: {says}") and printed[0].encode()  # printable
    before = db_state()
    with pytest.raises(ImportRefused):
        results_import(league=league, data=data, format=ImportFormat.JSON_LINES)
    path = tmp_path / "games.jsonl"
    path.write_bytes(data)
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 problem; nothing was imported"):
        call_command("import_results", "--league", str(league.pk), str(path), stdout=out)
    assert out.getvalue().startswith(f"row 2: {says}")
    assert db_state() == before


def test_a_surrogate_pair_written_as_escapes_is_the_character_it_makes() -> None:
    league = league_create(
        club=ClubFactory(), name="Cup", game=Game.BLUKE, options={"max_cards": 2}
    )
    data = a_game_line(event="Night \U0001f0cf").encode()  # a joker, as \ud83c\udccf
    assert b"\\ud83c\\udccf" in data
    done = results_import(league=league, data=data, format=ImportFormat.JSON_LINES)
    assert done.ok and Event.objects.get(league=league).name == "Night \U0001f0cf"


def test_a_json_lines_game_without_a_hand_is_refused() -> None:
    """On PostgreSQL storing it was a syntax error (a 500); a game has a hand at least."""
    league = league_create(
        club=ClubFactory(), name="Cup", game=Game.BLUKE, options={"max_cards": 2}
    )
    data = a_game_line(record={"game": "bluke", "first_dealer": 0, "hands": []}).encode()
    check = check_results_import(league=league, data=data, format=ImportFormat.JSON_LINES)
    assert [(p.row, p.code) for p in check.problems] == [(1, "bad_line")]
    assert "at least one" in check.problems[0].message
    before = db_state()
    with pytest.raises(ImportRefused):
        results_import(league=league, data=data, format=ImportFormat.JSON_LINES)
    assert db_state() == before


def test_a_players_file_past_postgresqls_parameters_a_statement_is_imported() -> None:
    """65,535 names: the check and the import each passed 65,535 parameters in one
    statement, which PostgreSQL refuses (shown as the database being unavailable)."""
    club = ClubFactory()
    player_create(club=club, name="P00000")
    names = [f"P{n:05d}" for n in range(65_535)]
    data = ("name\n" + "\n".join(names)).encode()
    check = check_players_import(club=club, data=data)
    assert check.ok and check.existing == 1 and len(check.new_players) == 65_534
    done = players_import(club=club, data=data, digest=check.digest)
    assert done.new_players == check.new_players
    assert Player.objects.filter(club=club).count() == 65_535


def test_adding_players_takes_a_few_statements_whatever_their_number(
    django_assert_max_num_queries: Any,
) -> None:
    """A statement a player took 60,000 players past gunicorn's 30 s (issue 28)."""
    club = ClubFactory()
    data = ("name\n" + "\n".join(f"Player {n}" for n in range(2_500))).encode()
    # the club's lock, a read of its names for the check and for the adding, and an
    # INSERT a thousand players (on SQLite, 249: its 999 parameters a statement);
    # savepoints besides. A statement a player was 5,000.
    with django_assert_max_num_queries(20):
        players_import(club=club, data=data)
    assert Player.objects.filter(club=club).count() == 2_500


def test_players_added_at_once_are_refused_together_if_one_is_taken() -> None:
    club = ClubFactory()
    player_create(club=club, name="Ann")
    for names, says in (
        (["Bob", "Ann"], "already has a player named 'Ann'"),
        (["Bob", "Bob"], "'Bob' is named twice"),
    ):
        with pytest.raises(Conflict, match=says):
            players_create(club=club, names=names)
    assert list(Player.objects.filter(club=club).values_list("name", flat=True)) == ["Ann"]


# -- in the background: a large file confirmed on the page -------------------------------
#
# Issue 28: a large file's confirmation ran past gunicorn's 30 s and was killed, and
# four at once held every worker. The page keeps such a file and owes its import to
# a background job, in one transaction; the job imports it all or nothing.


def queued_import(jobs_run: Any) -> tuple[ResultsImport, League, bytes]:
    """One night of a played Bluke league, its games CSV queued for an empty league
    like it (by a user), the job owed and not yet run (the test never commits)."""
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    data = export_csv(league)
    copy = empty_league_like(league)
    return queue(copy, data), copy, data


def queue(league: League, data: bytes) -> ResultsImport:
    check = check_results_import(league=league, data=data)
    return results_import_queue(
        check=check, data=data, digest=check.digest, filename="games.csv", by=UserFactory()
    )


def test_a_queued_import_keeps_the_file_and_owes_its_job_in_one_transaction(
    jobs_run: Any,
) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    data = export_csv(league)
    copy = empty_league_like(league)
    with jobs_run() as sent:  # the job is sent once the transaction commits: not before
        queued = queue(copy, data)
        assert JobOwed.objects.filter(kind="import", target_id=queued.pk).exists()
    assert len(sent) == 1
    queued.refresh_from_db()
    assert queued.state == "waiting" and bytes(queued.data) == data
    assert (queued.tables, queued.hands, queued.format) == (3, 9, "csv")
    assert not Table.objects.filter(round__event__league=copy).exists()

    other = data + b"\n"
    with pytest.raises(RuntimeError), transaction.atomic():
        again = queue(copy, other)
        raise RuntimeError("rolled back")
    assert not ResultsImport.objects.filter(pk=again.pk).exists()
    assert not JobOwed.objects.filter(kind="import", target_id=again.pk).exists()


def test_the_job_imports_the_file_all_or_nothing_and_lets_it_go(
    client: Client, jobs_run: Any
) -> None:
    queued, copy, data = queued_import(jobs_run)
    with jobs_run(execute=True):
        assert imports.results_import_job(queued.pk) == "done"
    queued.refresh_from_db()
    assert queued.state == "done" and bytes(queued.data) == b""
    assert queued.started_at is not None and queued.finished_at is not None
    assert queued.summary is not None
    assert (queued.summary["new_tables"], queued.summary["hands"]) == (3, 9)
    assert not JobOwed.objects.filter(kind="import").exists()
    assert download(client, "league-games-csv", copy.pk) == data
    entries = AuditEntry.objects.filter(club=copy.club, action="game.submitted")
    assert entries.count() == 3
    assert {(entry.via, entry.actor_id) for entry in entries} == {
        ("import", queued.requested_by_id)
    }
    assert Standing.objects.filter(league=copy).exists()  # its jobs ran after its commit

    before = db_state()
    assert imports.results_import_job(queued.pk) == "done"  # sent again: nothing to do
    assert db_state() == before


def test_the_same_file_confirmed_again_while_under_way_is_one_import(jobs_run: Any) -> None:
    queued, copy, data = queued_import(jobs_run)
    check = check_results_import(league=copy, data=data)
    again = results_import_queue(check=check, data=data, digest=check.digest)
    assert again.pk == queued.pk
    assert JobOwed.objects.filter(kind="import").count() == 1
    with jobs_run(execute=True):
        imports.results_import_job(queued.pk)
    third = results_import_queue(check=check, data=data, digest=check.digest)
    assert third.pk != queued.pk  # the first is done: this one finds every table stored


def test_a_queued_file_that_no_longer_fits_is_refused_and_nothing_is_stored(
    jobs_run: Any,
) -> None:
    queued, copy, data = queued_import(jobs_run)
    # meanwhile, someone draws round 1 of that night with another table 1
    date = datetime.date.fromisoformat(rows_of(data)[0]["date"])
    night = event_create(league=copy, name="Night 1", date=date, rounds=2)
    players = [player_create(club=copy.club, name=name) for name in ("W", "X", "Y", "Z")]
    table_create(round=night.rounds.get(number=1), number=1, players=players)
    before = db_state()
    assert imports.results_import_job(queued.pk) == "refused"
    assert db_state() == before
    queued.refresh_from_db()
    assert (queued.state, queued.problems, bytes(queued.data)) == ("refused", 1, b"")
    assert queued.refusal == "the file has 1 problem; nothing was imported"
    assert not JobOwed.objects.filter(kind="import").exists()


def test_a_queue_refuses_another_file_or_one_with_problems(jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    data = export_csv(league)
    copy = empty_league_like(league)
    check = check_results_import(league=copy, data=data)
    with pytest.raises(NotThePreviewedFile):
        results_import_queue(check=check, data=data, digest=file_digest(b"another"))
    rows = rows_of(data)
    rows[14]["bid"] = "9"
    bad = csv_of(rows)
    with pytest.raises(ImportRefused):
        results_import_queue(
            check=check_results_import(league=copy, data=bad), data=bad, digest=file_digest(bad)
        )
    assert not ResultsImport.objects.exists() and not JobOwed.objects.exists()


def test_a_job_that_fails_stays_owed_and_is_run_again(
    jobs_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    queued, copy, data = queued_import(jobs_run)

    def busy(**kwargs: Any) -> Any:
        raise OperationalError("canceling statement due to lock timeout")

    monkeypatch.setattr(imports, "results_import", busy)
    with pytest.raises(OperationalError):
        imports.results_import_run(import_id=queued.pk)
    queued.refresh_from_db()
    assert queued.state == "running" and bytes(queued.data) == data
    assert JobOwed.objects.get(kind="import", target_id=queued.pk).attempts == 1
    monkeypatch.undo()
    with jobs_run(execute=True):
        assert imports.results_import_run(import_id=queued.pk) == "done"
    assert Hand.objects.filter(table__round__event__league=copy).count() == 9


def test_the_job_of_an_import_deleted_with_its_league_clears_itself(jobs_run: Any) -> None:
    queued, copy, _ = queued_import(jobs_run)
    copy.delete()
    assert imports.results_import_job(queued.pk) == "gone"
    assert not JobOwed.objects.filter(kind="import").exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs concurrent writers")
def test_two_runs_of_an_import_at_once_import_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    league = played_league(lambda **kwargs: contextlib.nullcontext(), game=Game.BLUKE, nights=1)
    data = export_csv(league)
    copy = empty_league_like(league)
    with monkeypatch.context() as patched:  # committed, and not sent: run by hand below
        patched.setattr(outbox, "send", lambda *args, **kwargs: True)
        queued = queue(copy, data)
    storing, go_on = threading.Event(), threading.Event()
    store = imports.results_import

    calls: list[int] = []

    def store_slowly(**kwargs: Any) -> Any:
        calls.append(1)
        storing.set()
        assert go_on.wait(30)
        return store(**kwargs)

    monkeypatch.setattr(imports, "results_import", store_slowly)
    answers: list[Any] = []

    def job() -> None:
        try:
            answers.append(imports.results_import_job(queued.pk))
        except Exception as error:  # shown by the assertion below
            answers.append(error)
        finally:
            connection.close()

    first, second = threading.Thread(target=job), threading.Thread(target=job)
    first.start()
    try:
        assert storing.wait(30)
        # the sweep sees it run (its lock is held) and does not send it again meanwhile
        assert outbox.jobs_running([("import", queued.pk)]) == {("import", queued.pk)}
        second.start()  # waits for the first's lock
        time.sleep(0.5)
    finally:
        go_on.set()
        first.join(30)
        second.join(30)
    assert answers == ["done", "done"] and len(calls) == 1  # the second found it done
    assert outbox.jobs_running([("import", queued.pk)]) == set()
    queued.refresh_from_db()
    assert queued.summary is not None and queued.summary["new_tables"] == 3
    assert Hand.objects.filter(table__round__event__league=copy).count() == 9
    assert Table.objects.filter(round__event__league=copy).count() == 3


# -- names by their key ---------------------------------------------------------------------


def test_a_players_file_matches_the_club_s_names_by_key() -> None:
    club = ClubFactory()
    player_create(club=club, name="Ann")
    data = "name\nANN\nA\u200bnn\nbob\nBOB\n".encode()
    check = check_players_import(club=club, data=data)
    assert [(p.row, p.code) for p in check.problems] == [(3, "duplicate"), (5, "duplicate")]
    data = "name\nANN\nbob\nJose\u0301\n".encode()
    check = check_players_import(club=club, data=data)
    assert check.ok and check.new_players == ("bob", "José") and check.existing == 1
    players_import(club=club, data=data)
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == [
        "Ann",
        "José",
        "bob",
    ]


@pytest.mark.parametrize("bad", ["A\x01nn", "\u200b"])
def test_a_players_file_with_a_control_character_or_nothing_to_show_is_refused(bad: str) -> None:
    club = ClubFactory()
    check = check_players_import(club=club, data=f"name\nBob\n{bad}\n".encode())
    assert [(p.row, p.code) for p in check.problems] == [(3, "bad_name")]


def test_results_match_the_club_s_players_by_key_and_store_the_club_s_spelling(
    jobs_run: Any,
) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    data = export_csv(league)
    copy = empty_league_like(league)
    bob = player_create(club=copy.club, name="Bob")
    rows = rows_of(data)
    for row in rows:
        if row["player"] == "Bob":
            row["player"] = "BOB"  # as another spreadsheet spelled him
        if row["player"] == "Cy" and row["hand"] == "2":
            row["player"] = "cy"  # the same player, spelled otherwise in a later hand
    check = check_results_import(league=copy, data=csv_of(rows))
    assert check.ok, check.problems
    assert "BOB" not in check.summary.new_players and "Cy" in check.summary.new_players
    results_import(league=copy, data=csv_of(rows))
    names = set(Player.objects.filter(club=copy.club).values_list("name", flat=True))
    assert "Bob" in names and "BOB" not in names and "cy" not in names
    assert Seating.objects.filter(player=bob).exists()


def test_two_seats_of_one_name_in_other_letters_are_one_player_twice(jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    lines = jsonl_of(league).decode().splitlines()
    line = json.loads(lines[0])
    line["players"][1] = line["players"][0].swapcase()
    assert line["players"][1] != line["players"][0]
    check = check_results_import(
        league=empty_league_like(league),
        data=json.dumps(line).encode(),
        format=ImportFormat.JSON_LINES,
    )
    assert [(p.row, p.code) for p in check.problems] == [(1, "player_twice")]
