"""Imports of players and past results (league.services.imports): the round trip of
the games CSV and of JSON Lines, re-imports that change nothing, and every kind of
refusal listed by row, hand and seat with nothing stored."""

from __future__ import annotations

import datetime
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from league import exports
from league.models import Event, Game, Hand, JobOwed, League, Player, Seating, Standing, Table
from league.services import imports
from league.services.clubs import player_create
from league.services.fixtures import event_create, league_create, table_create
from league.services.imports import (
    ImportFormat,
    ImportRefused,
    NotThePreviewedFile,
    check_players_import,
    check_results_import,
    file_digest,
    players_import,
    problems_text,
    results_import,
)
from league.services.results import hand_submit
from tests.support.factories import ClubFactory
from tests.support.imports import (
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
    assert [imports._unescape(cell) for cell in written] == names


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
        extra = dict(rows[index], hand="4", dealer="3")
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
    assert lines[0].startswith("row 16, hand 1, seat 2 (Gil): ") and lines[0].endswith("(bad_bid)")
    assert lines[1].startswith("row 25, hand 1, seat 2 (Cy): ") and lines[1].endswith("(points)")
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
