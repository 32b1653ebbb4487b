"""Downloads prepared as files (league.archives, league.services.archives): the file
holds exactly what the stream would, a request while one is owed or fresh asks for
nothing more, and the job is safe to run twice, taken over when lost, and leaves no
file behind that nothing names."""

from __future__ import annotations

import datetime
import gzip
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError, connections
from django.utils import timezone

from league import archives, exports
from league.errors import ServiceError
from league.models import Archive, Game, JobOwed
from league.services.archives import archive_request
from league.services.fixtures import league_create
from tests.support.factories import ClubFactory
from tests.support.imports import played_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def jobs_run(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


def owed(archive: Archive) -> bool:
    return JobOwed.objects.filter(kind=JobOwed.Kind.ARCHIVE, target_id=archive.pk).exists()


def unpacked(folder: Path, archive: Archive) -> bytes:
    return gzip.decompress((folder / archive.file).read_bytes())


def streamed(archive: Archive) -> bytes:
    return "".join(archives.archive_lines(archive)).encode()


def test_the_file_holds_what_the_download_streams(jobs_run: Any, archives_dir: Path) -> None:
    league = played_league(jobs_run, game=Game.BLUKE)
    event = league.events.get(name="Night 2")
    for kind in Archive.Kind.values:
        for of in (None, event):
            archive = archive_request(league=league, event=of, kind=kind)
            assert owed(archive) and archive.state == Archive.State.OWED
            written = archives.archive_prepare(archive_id=archive.pk)
            archive.refresh_from_db()
            assert archive.state == Archive.State.READY and not owed(archive)
            data = unpacked(archives_dir, archive)
            assert data == streamed(archive) and len(data) == archive.size
            # a CSV file starts with the byte order mark, as the download does
            assert data.startswith(b'\xef\xbb\xbf"event",') == (kind == "games.csv")
            expected = (
                exports.hand_lines(league=league, event=of)
                if kind == "games.csv"
                else len(data.splitlines())
            )
            assert written == archive.lines == expected
    assert len(list(archives_dir.iterdir())) == 4
    assert archives.download_name(archive) == "cup-2026-10-08-games.jsonl"


def test_asking_while_one_is_owed_or_fresh_asks_for_nothing_more(
    jobs_run: Any, archives_dir: Path, settings: Any
) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    first = archive_request(league=league, kind="games.csv")
    assert archive_request(league=league, kind="games.csv") == first  # owed: the same
    other = archive_request(league=league, kind="games.jsonl")
    assert other != first  # another kind is another file
    archives.archive_prepare(archive_id=first.pk)
    assert archive_request(league=league, kind="games.csv") == first  # made moments ago
    settings.ARCHIVE_AGAIN_AFTER_MINUTES = 0
    newer = archive_request(league=league, kind="games.csv")
    assert newer != first and newer.state == Archive.State.OWED and owed(newer)
    with jobs_run(execute=True):  # the old file goes once the new archive commits
        archives.archive_prepare(archive_id=newer.pk)
    # the newer replaces the older, file and all
    assert list(Archive.objects.filter(league=league, kind="games.csv")) == [newer]
    names = {path.name for path in archives_dir.iterdir()}
    newer.refresh_from_db()
    assert names == {newer.file}


def test_refusals_say_what_is_wrong(jobs_run: Any) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    other = league_create(club=ClubFactory(), name="Other", game=Game.BLUKE)
    with pytest.raises(ServiceError) as refused:
        archive_request(league=league, kind="games.xlsx")
    assert (refused.value.field, refused.value.code) == ("kind", "unknown_kind")
    with pytest.raises(ServiceError) as refused:
        archive_request(league=other, event=league.events.get(), kind="games.csv")
    assert (refused.value.field, refused.value.code) == ("event", "not_in_league")
    assert not Archive.objects.exists()


def test_a_second_job_at_once_leaves_the_archive_to_the_first(
    jobs_run: Any, archives_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    archive = archive_request(league=league, kind="games.csv")
    lines = archives.archive_lines
    second: list[int] = []

    def meanwhile(of: Archive) -> Iterator[str]:
        second.append(archives.archive_prepare(archive_id=archive.pk))  # while the first writes
        assert owed(archive)  # the second leaves the work owed to the first
        yield from lines(of)

    monkeypatch.setattr(archives, "archive_lines", meanwhile)
    written = archives.archive_prepare(archive_id=archive.pk)
    assert second == [0] and written > 0
    archive.refresh_from_db()
    assert archive.state == Archive.State.READY and not owed(archive)
    assert [path.name for path in archives_dir.iterdir()] == [archive.file]


def test_a_job_whose_heartbeat_is_late_is_taken_over_and_its_file_not_kept(
    jobs_run: Any, archives_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    archive = archive_request(league=league, kind="games.csv")
    lines = archives.archive_lines
    calls = 0

    def slow_first(of: Archive) -> Iterator[str]:
        nonlocal calls
        calls += 1
        if calls == 1:  # the first job: its heartbeat stops (a worker lost, say)
            late = timezone.now() - 2 * archives.LOST_AFTER
            Archive.objects.filter(pk=archive.pk).update(heartbeat_at=late)
            assert archives.archive_prepare(archive_id=archive.pk) > 0  # the second, whole
        yield from lines(of)

    monkeypatch.setattr(archives, "archive_lines", slow_first)
    with jobs_run(execute=True):
        assert archives.archive_prepare(archive_id=archive.pk) == 0  # the first: not its own
    archive.refresh_from_db()
    assert archive.state == Archive.State.READY and not owed(archive)
    assert [path.name for path in archives_dir.iterdir()] == [archive.file]  # the first's went
    assert unpacked(archives_dir, archive) == "".join(lines(archive)).encode()


def test_a_file_that_cannot_be_written_fails_and_may_be_asked_for_again(
    jobs_run: Any, archives_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    archive = archive_request(league=league, kind="games.jsonl")

    def broken(of: Archive) -> Iterator[str]:
        yield "{}\n"
        raise ValueError("a bug")

    monkeypatch.setattr(archives, "archive_lines", broken)
    assert archives.archive_prepare(archive_id=archive.pk) == 0
    archive.refresh_from_db()
    assert (archive.state, archive.error) == (Archive.State.FAILED, "write_failed")
    assert archive.error in archives.ERRORS
    assert not owed(archive) and list(archives_dir.iterdir()) == []
    monkeypatch.undo()
    again = archive_request(league=league, kind="games.jsonl")
    assert again != archive and owed(again)
    with jobs_run(execute=True):
        archives.archive_prepare(archive_id=again.pk)
    assert not Archive.objects.filter(pk=archive.pk).exists()  # the failure is replaced too


def test_a_database_failure_gives_the_archive_up_for_the_retry(
    jobs_run: Any, archives_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    archive = archive_request(league=league, kind="games.csv")

    def lost(of: Archive) -> Iterator[str]:
        yield "event\r\n"
        raise OperationalError("the connection was lost")

    monkeypatch.setattr(archives, "archive_lines", lost)
    with pytest.raises(OperationalError):
        archives.archive_prepare(archive_id=archive.pk)
    archive.refresh_from_db()
    assert archive.state == Archive.State.OWED and archive.started_at is None and owed(archive)
    assert list(archives_dir.iterdir()) == []
    monkeypatch.undo()
    assert archives.archive_prepare(archive_id=archive.pk) > 0  # the retry makes it


def test_a_job_for_an_archive_gone_or_done_clears_the_work_owed(
    jobs_run: Any, archives_dir: Path
) -> None:
    league = played_league(jobs_run, game=Game.BLUKE, nights=1)
    archive = archive_request(league=league, kind="games.csv")
    archives.archive_prepare(archive_id=archive.pk)
    file = archives_dir / Archive.objects.get(pk=archive.pk).file
    assert file.exists()
    JobOwed.objects.create(
        kind=JobOwed.Kind.ARCHIVE,
        target_id=archive.pk,
        owed_since=timezone.now() - datetime.timedelta(minutes=1),
        owed_at=timezone.now(),
        token=1,
    )
    assert archives.archive_prepare(archive_id=archive.pk) == 0  # sent again: done already
    assert not owed(archive)
    with jobs_run(execute=True):
        league.delete()
    assert not file.exists()  # the file goes with its league
    assert archives.archive_prepare(archive_id=archive.pk) == 0


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_keeps_a_slow_job_its_archive_and_stops_one_taken_over(
    archives_dir: Path, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    league = played_league(django_capture_on_commit_callbacks, game=Game.BLUKE, nights=1)
    # asked for without its job (which, outside a test's transaction, runs at once)
    archive = Archive.objects.create(league=league, kind="games.csv", requested_at=timezone.now())
    monkeypatch.setattr(archives, "HEARTBEAT_EVERY", 0.05)
    monkeypatch.setattr(archives, "LOST_AFTER", datetime.timedelta(seconds=1))
    monkeypatch.setattr(archives, "BATCH", 1)
    lines = archives.archive_lines
    seen: list[int] = []

    def slow(of: Archive) -> Iterator[str]:
        for n, line in enumerate(lines(of)):
            if n == 1:  # past LOST_AFTER since the job began: its heartbeat is fresh
                time.sleep(1.5)
                seen.append(archives.archive_prepare(archive_id=archive.pk))
            yield line

    monkeypatch.setattr(archives, "archive_lines", slow)
    assert archives.archive_prepare(archive_id=archive.pk) > 0
    assert seen == [0]  # the second left it to the first
    archive.refresh_from_db()
    assert archive.state == Archive.State.READY

    again = Archive.objects.filter(pk=archive.pk)
    again.update(state=Archive.State.OWED, heartbeat_at=None, started_at=None)

    pulled: list[str] = []

    def take_over() -> None:  # as another job would: on a connection of its own
        again.update(started_at=timezone.now() + datetime.timedelta(days=1))
        connections.close_all()

    def taken(of: Archive) -> Iterator[str]:
        for n, line in enumerate(lines(of)):
            if n == 1:  # another job takes it up: the next heartbeat finds it gone
                other = threading.Thread(target=take_over)
                other.start()
                other.join()
                time.sleep(0.5)
            pulled.append(line)
            yield line

    monkeypatch.setattr(archives, "archive_lines", taken)
    assert archives.archive_prepare(archive_id=archive.pk) == 0  # stopped, file and all
    assert len(pulled) < archive.lines  # at the batch after the heartbeat found out
    assert [path.name for path in archives_dir.iterdir()] == [archive.file]
