"""Downloads at any size (issue 28 item 13): a night's statements start from its
rounds whatever else the database holds, rows leave as PostgreSQL finds them, a
stream that runs out of time ends as an error, and the games of a league too large
to stream are prepared as a file, found on the files page, that holds what the
stream would."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from benchmarks import scale
from league import archives, exports
from league.models import Archive, Game, League, Membership
from league.services.clubs import club_create, club_update, membership_set
from league.services.fixtures import league_create
from league.web.exports import DownloadCutShort
from tests.support.factories import UserFactory
from tests.support.imports import played_league
from tests.support.state import db_state
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db
on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's plans and cursors"
)

GAMES = ("games-csv", "games-jsonl")


@pytest.fixture
def jobs_run(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


def streamed(response: Any) -> bytes:
    assert response.status_code == 200 and response.streaming
    return b"".join(response.streaming_content)


def scans(plan: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Each node of an ``EXPLAIN (FORMAT JSON)`` plan that reads a table: its type
    and table."""
    if "Relation Name" in plan:
        yield plan["Node Type"], plan["Relation Name"]
    for child in plan.get("Plans", []):
        yield from scans(child)


@on_postgresql
def test_a_nights_downloads_start_from_its_rounds_whatever_the_database_holds(
    client: Client, jobs_run: Any
) -> None:
    # other clubs' games beside the night: 33,000 hand lines, as the benchmark loads
    # them, and PostgreSQL's statistics of them
    with_rules = league_create(club=club_create(name="Rules only"), name="B", game=Game.BLUKE)
    templates = scale.make_templates(with_rules, 2, seed=5)
    scale.load(scale.Size(games=300, players=100, nights=4), templates=templates, repeat=1, seed=6)
    event = played_league(jobs_run, game=Game.BLUKE).events.get(name="Night 2")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    read: list[tuple[str, str]] = []
    for name in ("event-games-csv", "event-games-jsonl", "event-standings-csv"):
        with CaptureQueriesContext(connection) as queries:
            streamed(client.get(reverse(name, args=[event.pk])))
        for query in queries.captured_queries:
            with connection.cursor() as cursor:
                cursor.execute(f"EXPLAIN (FORMAT JSON) {query['sql']}")
                (plan,) = cursor.fetchone()[0]
            read += [(name, *scan) for scan in scans(plan["Plan"])]
    # every hand and hand line is reached through an index, from the night's rounds
    whole = [scan for scan in read if scan[2] in ("league_hand", "league_handseat")]
    assert whole and all(kind.startswith(("Index", "Bitmap")) for _, kind, _ in whole), read


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_rows_leave_as_postgresql_finds_them(client: Client, jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BLUKE)
    response = client.get(reverse("league-games-csv", args=[league.pk]))
    lines = iter(response.streaming_content)
    next(lines), next(lines)  # the header and the first row: the cursor is open
    with connection.cursor() as cursor:
        cursor.execute("SELECT is_holdable FROM pg_cursors")
        held = [row[0] for row in cursor.fetchall()]
    # a cursor WITH HOLD (Django's, outside a transaction) has its whole result built
    # before the first row: the request's statement timeout does not hold it then
    assert held == [False]
    rest = b"".join(lines)
    assert rest.count(b"\r\n") == exports.hand_lines(league=league) - 1
    response.close()


def test_a_stream_that_runs_out_of_time_ends_as_an_error(
    client: Client, jobs_run: Any, settings: Any
) -> None:
    league = played_league(jobs_run, game=Game.BLUKE)
    settings.DOWNLOAD_STREAM_SECONDS = 0
    for name in ("league-games-csv", "league-games-jsonl", "league-standings-csv"):
        response = client.get(reverse(name, args=[league.pk]))
        assert response.status_code == 200
        lines = iter(response.streaming_content)
        assert next(lines)  # the status and the headers have gone, then a line
        with pytest.raises(DownloadCutShort):
            b"".join(lines)


def _league_past_the_limit(jobs_run: Any, settings: Any) -> League:
    league = played_league(jobs_run, game=Game.BLUKE)
    settings.DOWNLOAD_STREAM_LINES = exports.hand_lines(league=league) - 1
    return league


def test_games_past_the_limit_are_sent_to_the_files_page(
    client: Client, jobs_run: Any, settings: Any, archives_dir: Path
) -> None:
    league = _league_past_the_limit(jobs_run, settings)
    night = league.events.get(name="Night 2")  # half the games: under the limit
    files = reverse("league-files", args=[league.pk])
    for name in GAMES:
        response = client.get(reverse(f"league-{name}", args=[league.pk]))
        assert (response.status_code, response["Location"]) == (303, f"{files}#{name}")
        assert streamed(client.get(reverse(f"event-{name}", args=[night.pk])))
    # the standings and the leaderboard, a row a player, always stream
    assert streamed(client.get(reverse("league-standings-csv", args=[league.pk])))
    page = client.get(files).content.decode()
    assert f"has {exports.hand_lines(league=league)} rows of hands" in page
    assert page.count('<button type="submit">Prepare the file</button>') == 2
    assert "Download it now" not in page  # no direct download past the limit


def test_a_file_prepared_from_the_files_page_holds_what_the_stream_would(
    client: Client, jobs_run: Any, settings: Any, archives_dir: Path
) -> None:
    league = _league_past_the_limit(jobs_run, settings)
    files = reverse("league-files", args=[league.pk])
    with jobs_run(execute=True):  # the job owed runs as the request's commit does
        answer = client.post(files, {"kind": "games.csv"})
    assert (answer.status_code, answer["Location"]) == (302, f"{files}#games-csv")
    archive = Archive.objects.get(league=league)
    assert archive.state == Archive.State.READY
    page = client.get(files).content.decode()
    (link,) = re.findall(r'href="(/files/[^"]+)"', page)
    assert link == reverse("archive-file", args=[archive.pk, "cup-games.csv"])
    assert f"{archive.lines} rows" in page and "Prepare a newer file" not in page
    as_sent = client.get(link, headers={"accept-encoding": "gzip, deflate, br"})
    assert as_sent["Content-Encoding"] == "gzip" and as_sent["Vary"] == "Accept-Encoding"
    assert as_sent["Content-Disposition"] == 'attachment; filename="cup-games.csv"'
    assert as_sent["Content-Type"] == "text/csv; charset=utf-8"
    packed = b"".join(as_sent.streaming_content)
    assert int(as_sent["Content-Length"]) == len(packed)
    plain = client.get(link)  # a client that takes no gzip
    assert "Content-Encoding" not in plain and int(plain["Content-Length"]) == archive.size
    data = b"".join(plain.streaming_content)
    assert gzip.decompress(packed) == data
    settings.DOWNLOAD_STREAM_LINES = 10**9
    assert data == streamed(client.get(reverse("league-games-csv", args=[league.pk])))
    # a file of another name, or one not ready, is not there
    assert client.get(link.replace("cup-games", "other")).status_code == 404
    assert client.post(link).status_code == 405
    (archives_dir / archive.file).unlink()  # lost under its row: not found, never a 500
    assert client.get(link).status_code == 404


def test_the_files_page_says_a_file_is_being_prepared_and_updates_itself(
    client: Client, jobs_run: Any, settings: Any, archives_dir: Path
) -> None:
    league = _league_past_the_limit(jobs_run, settings)
    night = league.events.get(name="Night 1")
    files = reverse("event-files", args=[night.pk])
    answer = client.post(files, {"kind": "games.jsonl"}, follow=True)  # the job not run yet
    page = answer.content.decode()
    assert "The games as records (JSON Lines): the file is being prepared." in page
    assert '<meta http-equiv="refresh" content="10">' in page
    assert page.count("Being prepared: asked for at") == 1
    archive = Archive.objects.get(event=night)
    assert archive.kind == "games.jsonl" and archive.state == Archive.State.OWED
    assert client.get(reverse("archive-file", args=[archive.pk, "x.jsonl"])).status_code == 404
    # asking again while it is owed asks for nothing more
    client.post(files, {"kind": "games.jsonl"})
    assert Archive.objects.count() == 1
    # the night streams (it is under the limit), and its page links both ways
    assert page.count("Download it now</a>, the games as they are.") == 2
    refused = client.post(files, {"kind": "games.xlsx"}, follow=True)
    assert "Choose a file to prepare." in refused.content.decode()
    assert Archive.objects.count() == 1


def test_a_prepared_jsonl_file_passes_the_engines_check(
    client: Client, jobs_run: Any, settings: Any, archives_dir: Path
) -> None:
    league = _league_past_the_limit(jobs_run, settings)
    with jobs_run(execute=True):
        client.post(reverse("league-files", args=[league.pk]), {"kind": "games.jsonl"})
    archive = Archive.objects.get(league=league)
    data = b"".join(
        client.get(reverse("archive-file", args=[archive.pk, "cup-games.jsonl"])).streaming_content
    )
    records = [json.loads(line) for line in data.splitlines()]
    assert len(records) == archive.lines == 6 and all(r["game"] == "bluke" for r in records)


def test_a_members_only_clubs_files_are_its_members(
    client: Client, jobs_run: Any, settings: Any, archives_dir: Path
) -> None:
    """The files page and the files prepared there follow the club's visibility,
    as its downloads do: a 404 to anyone else, as for a file that does not exist."""
    league = _league_past_the_limit(jobs_run, settings)
    organiser = UserFactory()
    membership_set(club=league.club, user=organiser, role=Membership.Role.ORGANISER)
    files = reverse("league-files", args=[league.pk])
    with jobs_run(execute=True):
        client.post(files, {"kind": "games.csv"})
    archive = Archive.objects.get(league=league, state=Archive.State.READY)
    link = reverse("archive-file", args=[archive.pk, archives.download_name(archive)])
    club_update(club=league.club, visibility="members")
    before = db_state()
    for stranger in (Client(), signed_in(UserFactory())):
        assert stranger.get(files).status_code == 404
        assert stranger.post(files, {"kind": "games.jsonl"}).status_code == 404
        assert stranger.get(link).status_code == 404
    assert db_state() == before
    member = signed_in(organiser)
    assert member.get(files).status_code == 200
    assert member.get(link).status_code == 200
