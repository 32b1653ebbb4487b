"""Downloads of a league's or an event's records: standings and the rating
leaderboard as CSV, every game as CSV (one row per hand and seat) and as JSON Lines
of the engine's game records (:mod:`league.exports` reads and writes them). Public,
like the pages they mirror.

**Streamed or prepared.** A download is streamed as it is read from the database,
in constant memory, while it is small enough to be sent well within a request: the
standings and leaderboard always (a row a player), every game while the league (or
event) has at most ``settings.DOWNLOAD_STREAM_LINES`` hand lines. Beyond that the
games' URL answers 303 with the league's (or event's) files page, where anyone may
ask for the file to be prepared by a job (:mod:`league.archives`) and find it there
once it is ready: a sync worker streaming a league of 100,000 games (10 million hand
lines) would be killed at gunicorn's 30 s timeout, and the client would get a file
cut short.

**Never cut short without an error.** A stream still running after
``settings.DOWNLOAD_STREAM_SECONDS`` stops with :class:`DownloadCutShort`: gunicorn
then closes the connection without the chunked answer's last, empty chunk (the
proxy talks HTTP/1.1 to it for that, deploy/nginx.conf), so the client sees an
error, not a file that looks whole. A prepared file is sent with its length.

**Spreadsheets.** The CSV files are UTF-8, starting with its byte order mark (by
which Excel knows UTF-8: without it "José" reads "JosÃ©"), with a header row,
written by :mod:`csv` (RFC 4180). Every text cell is quoted, numbers are not: a
spreadsheet that splits lines on another character than the comma (a semicolon,
where the comma is the decimal mark) still reads a quoted cell whole when it starts
its line. A text cell
that a spreadsheet would run as a formula (one starting ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return: a player named ``=HYPERLINK(...)``) is also written
with a leading apostrophe, as OWASP advises, and so is one that starts with an
apostrophe, so the import can tell them apart. Such a spreadsheet also starts a
cell after each semicolon of a cell quoted further along the line (it honours a
quote only at the start of a cell): so the guard goes after every semicolon, tab,
bar and line break in a text cell too, and a player named ``Ann;=1+1`` is written
``"Ann;'=1+1"``.
"""

from __future__ import annotations

import datetime
import gzip
import logging
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.files import File
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseRedirect,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods, require_safe

from league import access, archives, exports
from league.models import Archive, Event, League
from league.selectors import events as events_selectors
from league.selectors import leagues as leagues_selectors
from league.selectors import ratings as ratings_selectors
from league.services.archives import archive_again_after, archive_request

logger = logging.getLogger(__name__)

ACCEPTS_GZIP: Final = re.compile(r"\bgzip\b")
"""An ``Accept-Encoding`` that takes gzip (as Django's gzip middleware reads it)."""
FILE_CHUNK: Final = 64 * 1024
"""Bytes read at a time from a prepared file sent to a client that takes no gzip."""
REFRESH_SECONDS: Final = 10
"""How often the files page reloads itself while a file is being prepared."""


class HttpResponseSeeOther(HttpResponseRedirect):
    """303 See Other: the answer is at another URL, to be fetched with GET."""

    status_code = 303


class DownloadCutShort(Exception):
    """A streamed download that ran past ``settings.DOWNLOAD_STREAM_SECONDS``: raised
    mid-stream, so that the answer ends as an error instead of looking complete."""


def within_time(lines: Iterable[str], *, what: str, seconds: float) -> Iterator[str]:
    """``lines``, until ``seconds`` have passed since the first: then
    :class:`DownloadCutShort` (after at least the first line, so the answer's
    status and headers are sent first)."""
    began = time.monotonic()
    for sent, line in enumerate(lines, start=1):
        yield line
        if time.monotonic() - began > seconds:
            logger.error(
                "%s: stopped after %d lines in %.1f s (DOWNLOAD_STREAM_SECONDS is %s); "
                "the client was sent an incomplete answer, as an error",
                what,
                sent,
                time.monotonic() - began,
                seconds,
            )
            raise DownloadCutShort(what)


def _download(
    lines: Iterator[str], *, filename: str, content_type: str, what: str
) -> StreamingHttpResponse:
    timed = within_time(lines, what=what, seconds=settings.DOWNLOAD_STREAM_SECONDS)
    response = StreamingHttpResponse(
        (line.encode() for line in timed), content_type=f"{content_type}; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _csv(
    header: Sequence[str], rows: Iterable[Sequence[object]], *, filename: str, what: str
) -> StreamingHttpResponse:
    lines = exports.csv_lines(header, rows)
    return _download(lines, filename=filename, content_type="text/csv", what=what)


def _league(request: HttpRequest, league_id: int) -> League:
    """The league, if the request may read its club (404 otherwise, as for a
    league that does not exist: a members-only club's downloads are its
    members'; a download link is followed from a page they are logged in to)."""
    league = get_object_or_404(leagues_selectors.league_for_page(), pk=league_id)
    if not access.club_visible(request.user, league.club):
        raise Http404("no such league")
    return league


def _event(request: HttpRequest, event_id: int) -> Event:
    """The event, if the request may read its club (as :func:`_league`)."""
    event = get_object_or_404(events_selectors.event_for_page(), pk=event_id)
    if not access.club_visible(request.user, event.league.club):
        raise Http404("no such event")
    return event


def _games(
    request: HttpRequest, league: League, event: Event | None, name: str
) -> HttpResponseBase:
    """Every game of the league (or event) as the file ``name``: streamed while it
    has at most ``DOWNLOAD_STREAM_LINES`` hand lines, else the files page (303)."""
    if exports.hand_lines(league=league, event=event) > settings.DOWNLOAD_STREAM_LINES:
        return HttpResponseSeeOther(_files_url(league, event) + f"#{_anchor(name)}")
    games_file = exports.GAMES_FILES[name]
    return _download(
        games_file.lines(league, event),
        filename=f"{exports.file_stem(league, event)}-{games_file.name}",
        content_type=games_file.content_type,
        what=request.path,
    )


def _files_url(league: League, event: Event | None) -> str:
    if event is not None:
        return reverse("event-files", args=[event.pk])
    return reverse("league-files", args=[league.pk])


def _anchor(name: str) -> str:
    return name.replace(".", "-")


@require_safe
def league_standings_csv(request: HttpRequest, league_id: int) -> StreamingHttpResponse:
    league = _league(request, league_id)
    rows = exports.standings_rows(league=league)
    filename = f"{exports.file_stem(league)}-standings.csv"
    return _csv(exports.STANDINGS_COLUMNS, rows, filename=filename, what=request.path)


@require_safe
def league_ratings_csv(request: HttpRequest, league_id: int) -> StreamingHttpResponse:
    league = _league(request, league_id)
    rows = exports.rating_rows(scope=ratings_selectors.league_scope(league))
    filename = f"{exports.file_stem(league)}-ratings.csv"
    return _csv(exports.RATINGS_COLUMNS, rows, filename=filename, what=request.path)


@require_safe
def league_games_csv(request: HttpRequest, league_id: int) -> HttpResponseBase:
    return _games(request, _league(request, league_id), None, "games.csv")


@require_safe
def league_games_jsonl(request: HttpRequest, league_id: int) -> HttpResponseBase:
    return _games(request, _league(request, league_id), None, "games.jsonl")


@require_safe
def event_standings_csv(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    event = _event(request, event_id)
    rows = exports.standings_rows(league=event.league, event=event)
    filename = f"{exports.file_stem(event.league, event)}-standings.csv"
    return _csv(exports.STANDINGS_COLUMNS, rows, filename=filename, what=request.path)


@require_safe
def event_games_csv(request: HttpRequest, event_id: int) -> HttpResponseBase:
    event = _event(request, event_id)
    return _games(request, event.league, event, "games.csv")


@require_safe
def event_games_jsonl(request: HttpRequest, event_id: int) -> HttpResponseBase:
    event = _event(request, event_id)
    return _games(request, event.league, event, "games.jsonl")


# -- the files page, and the prepared files -------------------------------------------


class ArchiveRequestForm(forms.Form):
    """Which file to prepare."""

    kind = forms.ChoiceField(
        choices=Archive.Kind.choices,
        error_messages={"required": "Choose a file.", "invalid_choice": "Choose a file."},
    )


@dataclass(frozen=True)
class FileRow:
    """One of the files of every game, on the files page: its direct download while
    the league (or event) streams, and its latest prepared file and the one being
    prepared, if any."""

    kind: str
    label: str
    anchor: str
    direct_url: str
    ready: Archive | None
    owed: Archive | None
    failed: Archive | None
    again_from: datetime.datetime | None
    """When a new file may be asked for (``None``: now)."""

    @property
    def download_url(self) -> str | None:
        if self.ready is None:
            return None
        return reverse("archive-file", args=[self.ready.pk, archives.download_name(self.ready)])


def _file_rows(league: League, event: Event | None) -> list[FileRow]:
    """Each kind's row of the files page (one query for the archives)."""
    found = list(
        Archive.objects.filter(league=league, event=event)
        .select_related("league", "event")
        .order_by("kind", "-requested_at", "-id")
    )
    rows = []
    now = timezone.now()
    for kind, label in Archive.Kind.choices:
        mine = [a for a in found if a.kind == kind]
        ready = next((a for a in mine if a.state == Archive.State.READY), None)
        owed = next((a for a in mine if a.state == Archive.State.OWED), None)
        latest = mine[0] if mine else None
        failed = latest if latest is not None and latest.state == Archive.State.FAILED else None
        again_from = None
        if ready is not None and ready.finished_at is not None:
            when = ready.finished_at + archive_again_after()
            again_from = when if when > now else None
        if event is not None:
            direct = reverse(f"event-{_anchor(kind)}", args=[event.pk])
        else:
            direct = reverse(f"league-{_anchor(kind)}", args=[league.pk])
        rows.append(
            FileRow(
                kind=kind,
                label=str(label),
                anchor=_anchor(kind),
                direct_url=direct,
                ready=ready,
                owed=owed,
                failed=failed,
                again_from=again_from,
            )
        )
    return rows


def _files_page(request: HttpRequest, league: League, event: Event | None) -> HttpResponse:
    """The files page (GET), or a file asked for (POST, then back here)."""
    if request.method == "POST":
        form = ArchiveRequestForm(request.POST)
        if form.is_valid():
            archive = archive_request(league=league, event=event, kind=form.cleaned_data["kind"])
            label = Archive.Kind(archive.kind).label
            if archive.state == Archive.State.READY:
                messages.info(request, f"{label}: the file made at the time below is the latest.")
            else:
                messages.success(request, f"{label}: the file is being prepared.")
            return redirect(_files_url(league, event) + f"#{_anchor(archive.kind)}")
        messages.error(request, "Choose a file to prepare.")
        return redirect(_files_url(league, event))
    lines = exports.hand_lines(league=league, event=event)
    rows = _file_rows(league, event)
    shown = {
        "league": league,
        "event": event,
        "rows": rows,
        "lines": lines,
        "streamed": lines <= settings.DOWNLOAD_STREAM_LINES,
        "refresh": REFRESH_SECONDS if any(row.owed for row in rows) else None,
    }
    return render(request, "league/files.html", shown)


@require_http_methods(["GET", "HEAD", "POST"])
def league_files(request: HttpRequest, league_id: int) -> HttpResponse:
    return _files_page(request, _league(request, league_id), None)


@require_http_methods(["GET", "HEAD", "POST"])
def event_files(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(request, event_id)
    return _files_page(request, event.league, event)


@require_safe
def archive_file(request: HttpRequest, archive_id: int, filename: str) -> HttpResponseBase:
    """A prepared file, as it is stored (``Content-Encoding: gzip``) to a client that
    takes gzip, uncompressed as it is read to one that does not; with its length
    either way."""
    archive = get_object_or_404(
        Archive.objects.select_related("league__club", "event"),
        pk=archive_id,
        state=Archive.State.READY,
    )
    if filename != archives.download_name(archive):
        raise Http404("no such file")
    if not access.club_visible(request.user, archive.league.club):
        raise Http404("no such file")  # a members-only club's files are its members
    content_type = f"{exports.GAMES_FILES[archive.kind].content_type}; charset=utf-8"
    try:
        stored = archives.archives_storage().open(archive.file, "rb")
    except FileNotFoundError:  # deleted under the row (by hand, or a storage lost)
        logger.error("archive %s: its file %s is missing", archive.pk, archive.file)
        raise Http404("no such file") from None
    response: HttpResponseBase
    if ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = FileResponse(
            stored, as_attachment=True, filename=filename, content_type=content_type
        )
        response["Content-Encoding"] = "gzip"  # its length is the stored file's
    else:
        response = StreamingHttpResponse(_unpacked(stored), content_type=content_type)
        response["Content-Length"] = str(archive.size)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


def _unpacked(stored: File[bytes]) -> Iterator[bytes]:
    with stored, gzip.GzipFile(fileobj=stored, mode="rb") as unpacked:
        while chunk := unpacked.read(FILE_CHUNK):
            yield chunk


urlpatterns: list[URLPattern] = [
    path("leagues/<int:league_id>/files/", league_files, name="league-files"),
    path("events/<int:event_id>/files/", event_files, name="event-files"),
    path("files/<int:archive_id>/<str:filename>", archive_file, name="archive-file"),
]
