"""Downloads prepared in the background: every game of a league (or of one of its
events) as one file, for a league too large to stream within a request.

A games download streams while the league (or event) has at most
``settings.DOWNLOAD_STREAM_LINES`` hand lines (:mod:`league.web.exports`); beyond
that it would hold a web worker past gunicorn's timeout, and the file is made
here instead, by a job, once someone asks for it
(:func:`league.services.archives.archive_request`, which owes the job in its
transaction). :func:`archive_prepare` writes exactly the lines the stream would
(:data:`league.exports.GAMES_FILES`, read from one server-side cursor in constant
memory, a single statement: every row as of one moment), gzip-compressed, to a
file of the ``archives`` storage (``settings.STORAGES``), then marks the
:class:`~league.models.Archive` ready and deletes the older archives of the same
league (or event) and kind, with their files. The file is served as it is stored,
``Content-Encoding: gzip``, to any client that takes gzip (every browser), so a
web worker hands it to the proxy at once (:func:`league.web.exports.archive_file`).

Safe to run twice, at the same time too: a job takes the archive up by setting its
``started_at`` and ``heartbeat_at`` (one ``UPDATE``, which only one of two jobs can
win), and a thread of its own sets ``heartbeat_at`` again every
:data:`HEARTBEAT_EVERY` seconds while it writes, from its own connection (the
writing job's statements may run for minutes: the first fetch of a league's rows
sorts them all). Another job leaves the archive alone while the heartbeat is
fresh, and takes it over once it is :data:`LOST_AFTER` late (its job was killed: a
worker lost, a web process recycled while its job thread wrote). A job taken over
stops at its next batch of lines; each writes a file of its own name, and only the
one holding the archive makes it ready. (A league of 100,000 games takes minutes.)

Failures: a database error gives the archive up (``started_at`` cleared) and
passes on, so the job is tried again (Celery's retry, the outbox's sweep); any
other error marks the archive ``failed`` (its ``error`` a code of :data:`ERRORS`)
and is logged, and whoever asks may ask again.
"""

from __future__ import annotations

import datetime
import gzip
import logging
import os
import secrets
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import IO, Final

from django.conf import settings
from django.core.files import File
from django.core.files.storage import Storage, storages
from django.db import DatabaseError, connections, transaction
from django.db.models import Q, QuerySet
from django.db.models.signals import post_delete
from django.utils import timezone

from league import exports, outbox
from league.models import Archive, JobOwed

logger = logging.getLogger(__name__)

ERRORS: Final = {"write_failed": "the file could not be written"}
"""Why an archive failed, by its ``error`` code."""

BATCH: Final = 1_000
"""Lines joined before each write to the compressor (one call for each is slow)."""
HEARTBEAT_EVERY: Final = 10.0
"""Seconds between two heartbeats of a job writing an archive."""
LOST_AFTER: Final = datetime.timedelta(seconds=60)
"""How late a heartbeat may be before another job takes the archive over."""


def archives_storage() -> Storage:
    """Where archives' files are kept: the ``archives`` storage of the settings."""
    return storages["archives"]


def download_name(archive: Archive) -> str:
    """The file's name for whoever downloads it: ``<league>[-<date>]-games.csv``."""
    league, event = archive.league, archive.event
    return f"{exports.file_stem(league, event)}-{exports.GAMES_FILES[archive.kind].name}"


def archive_lines(archive: Archive) -> Iterator[str]:
    """The lines of the archive's file: those its league's (or event's) download
    streams."""
    games_file = exports.GAMES_FILES[archive.kind]
    return games_file.lines(archive.league, archive.event)


class _TakenOver(Exception):
    """The archive was taken over by another job while this one wrote it."""


def archive_prepare(*, archive_id: int) -> int:
    """Write the archive's file and mark it ready (see the module's docstring);
    returns the lines written, 0 when there was nothing to do: the archive is gone
    (its league or event deleted), ready or failed already, or another job is at
    it."""
    archive = Archive.objects.select_related("league", "event").filter(pk=archive_id).first()
    if archive is None or archive.state != Archive.State.OWED:
        with outbox.running(JobOwed.Kind.ARCHIVE, archive_id):
            return 0
    began = timezone.now()
    claimed = (
        Archive.objects.filter(pk=archive_id, state=Archive.State.OWED)
        .filter(Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=began - LOST_AFTER))
        .update(started_at=began, heartbeat_at=began)
    )
    if not claimed:
        # another job is writing it, and clears the work owed when done
        return 0
    ours = Archive.objects.filter(pk=archive_id, state=Archive.State.OWED, started_at=began)
    try:
        with _heartbeat(ours) as taken_over:
            name, lines, size = _write(archive, taken_over=taken_over)
    except _TakenOver:
        logger.info("archive %s: taken over by another job, which finishes it", archive_id)
        return 0
    except DatabaseError:
        # given up, for the retry: the job is tried again (the work is still owed)
        ours.update(started_at=None, heartbeat_at=None)
        raise
    except Exception:
        logger.exception("archive %s (%s) could not be written", archive_id, archive)
        with transaction.atomic():
            failed = ours.update(
                state=Archive.State.FAILED, error="write_failed", finished_at=timezone.now()
            )
            if failed:  # (else another job took it over, and finishes it)
                with outbox.running(JobOwed.Kind.ARCHIVE, archive_id):
                    pass  # done with: whoever asks may ask again
        return 0
    with transaction.atomic():
        # the archive's row first, then the work owed (the outbox's lock order)
        done = ours.select_for_update(of=("self",)).select_related("league", "event").first()
        if done is None:
            # taken over just now, or gone with its league: this file is not wanted,
            # and the work owed stays for the job that holds the archive now (or for
            # the sweep, to find it gone)
            transaction.on_commit(lambda: _delete_file(name))
            return 0
        with outbox.running(JobOwed.Kind.ARCHIVE, archive_id):
            done.state = Archive.State.READY
            done.file, done.lines, done.size = name, lines, size
            done.finished_at = timezone.now()
            done.save(update_fields=["state", "file", "lines", "size", "finished_at"])
            # the older archives of the same league (or event) and kind: their
            # files go once this commits (post_delete)
            Archive.objects.filter(league=done.league, event=done.event, kind=done.kind).exclude(
                state=Archive.State.OWED
            ).exclude(pk=done.pk).delete()
    logger.info(
        "archive %s (%s): %d lines, %d bytes in %.1f s",
        archive_id,
        done,
        lines,
        size,
        (timezone.now() - began).total_seconds(),
    )
    return lines


@contextmanager
def _heartbeat(ours: QuerySet[Archive]) -> Iterator[Callable[[], bool]]:
    """While the body runs, a thread sets the archive's ``heartbeat_at`` every
    :data:`HEARTBEAT_EVERY` seconds (on a connection of its own, so that each beat
    commits whatever the body's transaction does). Yields a function that says
    whether the archive has been taken over (a beat found it no longer this job's)."""
    stop, lost = threading.Event(), threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(HEARTBEAT_EVERY):
                if not ours.update(heartbeat_at=timezone.now()):
                    lost.set()
                    return
        except DatabaseError as error:  # the writing job's own statements will tell
            logger.warning("archive heartbeat stopped: %s", error)
        finally:
            connections.close_all()  # this thread's

    thread = threading.Thread(target=beat, name="archive-heartbeat", daemon=True)
    thread.start()
    try:
        yield lost.is_set
    finally:
        stop.set()
        thread.join()


def _write(archive: Archive, *, taken_over: Callable[[], bool]) -> tuple[str, int, int]:
    """Write the archive's lines, gzip-compressed, to a temporary file, then into
    the archives storage; returns its name there, its lines (the CSV's header not
    counted) and its size in bytes uncompressed. :class:`_TakenOver` as soon as
    ``taken_over`` says so."""
    lines = size = 0
    target = f"{archive.pk}-{secrets.token_hex(4)}-{download_name(archive)}.gz"
    handle, path = tempfile.mkstemp(suffix=".gz", dir=settings.FILE_UPLOAD_TEMP_DIR)
    try:
        with os.fdopen(handle, "wb") as out:
            lines, size = _compress(archive_lines(archive), out, taken_over=taken_over)
        if archive.kind == Archive.Kind.GAMES_CSV:
            lines -= 1  # the header
        with open(path, "rb") as done:
            name = archives_storage().save(target, File(done))
    finally:
        with suppress(FileNotFoundError):
            os.unlink(path)
    return name, lines, size


def _compress(
    lines: Iterator[str], out: IO[bytes], *, taken_over: Callable[[], bool]
) -> tuple[int, int]:
    """Write ``lines`` to ``out`` through gzip (``mtime`` 0: the same lines make the
    same bytes); returns how many lines and bytes before compression."""
    count = size = 0
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=6, mtime=0) as packed:
        batch: list[str] = []
        for line in lines:
            batch.append(line)
            if len(batch) == BATCH:
                if taken_over():
                    raise _TakenOver
                data = "".join(batch).encode()
                packed.write(data)
                count, size, batch = count + len(batch), size + len(data), []
        data = "".join(batch).encode()
        packed.write(data)
        count, size = count + len(batch), size + len(data)
    return count, size


def _delete_file(name: str) -> None:
    """Delete an archive's file; a file gone already, or a storage that fails, is
    logged, never raised (the archive's row is what counts)."""
    try:
        archives_storage().delete(name)
    except OSError as error:
        logger.warning("could not delete the archive file %s: %s", name, error)


def _archive_deleted(sender: type[Archive], instance: Archive, **kwargs: object) -> None:
    """An archive deleted (replaced by a newer one, or with its league or event):
    its file goes too, once the deletion commits."""
    if instance.file:
        name = instance.file
        transaction.on_commit(lambda: _delete_file(name))


def connect_signals() -> None:
    """Connect the receiver that deletes a deleted archive's file (from the app's
    ``ready``)."""
    post_delete.connect(_archive_deleted, sender=Archive, dispatch_uid="league.archives.deleted")
