"""Downloads of a league's or an event's records: standings and the rating
leaderboard as CSV, every game as CSV (one row per hand and seat) and as JSON Lines
of the engine's game records. Streamed, so the largest league downloads in constant
memory (:mod:`league.exports` reads them). Public, like the pages they mirror.

The CSV files are UTF-8 with a header row, written by :mod:`csv` (RFC 4180 quoting).
A text cell that a spreadsheet would run as a formula (one starting ``=``, ``+``,
``-``, ``@``, a tab or a carriage return: a player named ``=HYPERLINK(...)``) is
written with a leading apostrophe, as OWASP advises, and so is one that starts with an
apostrophe, so the import can tell them apart; numbers are written as they are.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.http import Http404, HttpRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from league import access, exports, selectors
from league.models import Event, League


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet should read it: text that would start a formula,
    or that starts with an apostrophe, gets a leading apostrophe; anything else is
    unchanged.

    >>> safe_cell("=1+1"), safe_cell("-Ann"), safe_cell("'Tis"), safe_cell("Ann"), safe_cell(-10)
    ("'=1+1", "'-Ann", "''Tis", 'Ann', -10)
    """
    if isinstance(value, str) and value.startswith(exports.FORMULA_STARTS):
        return "'" + value
    return value


class _Line:
    """A file-like object whose ``write`` hands back the line :mod:`csv` wrote."""

    def write(self, text: str) -> str:
        return text


def csv_lines(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Iterator[str]:
    """The header and ``rows`` as CSV lines, made safe for spreadsheets, one at a time."""
    writer = csv.writer(_Line())
    yield writer.writerow(header)
    for row in rows:
        yield writer.writerow([safe_cell(value) for value in row])


def json_lines(records: Iterable[dict[str, Any]]) -> Iterator[str]:
    """Each record as one line of compact JSON."""
    for record in records:
        yield json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n"


def _download(lines: Iterator[str], *, filename: str, content_type: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(
        (line.encode() for line in lines), content_type=f"{content_type}; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _csv(
    header: Sequence[str], rows: Iterable[Sequence[Any]], *, filename: str
) -> StreamingHttpResponse:
    return _download(csv_lines(header, rows), filename=filename, content_type="text/csv")


def _jsonl(records: Iterable[dict[str, Any]], *, filename: str) -> StreamingHttpResponse:
    return _download(json_lines(records), filename=filename, content_type="application/jsonl")


def _league(request: HttpRequest, league_id: int) -> League:
    """The league, if the request may read its club (404 otherwise, as for a
    league that does not exist: a members-only club's downloads are its
    members'; a download link is followed from a page they are logged in to)."""
    league = get_object_or_404(selectors.league_for_page(), pk=league_id)
    if not access.club_visible(request.user, league.club):
        raise Http404("no such league")
    return league


def _event(request: HttpRequest, event_id: int) -> Event:
    """The event, if the request may read its club (as :func:`_league`)."""
    event = get_object_or_404(selectors.event_for_page(), pk=event_id)
    if not access.club_visible(request.user, event.league.club):
        raise Http404("no such event")
    return event


def _name(league: League, event: Event | None = None) -> str:
    """A file name's stem: the league's slug (or name), and the event's date."""
    stem = league.slug or slugify(league.name) or f"league-{league.pk}"
    return f"{stem}-{event.date.isoformat()}" if event is not None else stem


@require_safe
def league_standings_csv(request: HttpRequest, league_id: int) -> StreamingHttpResponse:
    league = _league(request, league_id)
    rows = exports.standings_rows(league=league)
    return _csv(exports.STANDINGS_COLUMNS, rows, filename=f"{_name(league)}-standings.csv")


@require_safe
def league_ratings_csv(request: HttpRequest, league_id: int) -> StreamingHttpResponse:
    league = _league(request, league_id)
    rows = exports.rating_rows(scope=selectors.league_scope(league))
    return _csv(exports.RATINGS_COLUMNS, rows, filename=f"{_name(league)}-ratings.csv")


@require_safe
def league_games_csv(request: HttpRequest, league_id: int) -> StreamingHttpResponse:
    league = _league(request, league_id)
    rows = exports.hand_rows(league=league)
    return _csv(exports.HAND_COLUMNS, rows, filename=f"{_name(league)}-games.csv")


@require_safe
def league_games_jsonl(request: HttpRequest, league_id: int) -> StreamingHttpResponse:
    league = _league(request, league_id)
    records = exports.game_records(league=league)
    return _jsonl(records, filename=f"{_name(league)}-games.jsonl")


@require_safe
def event_standings_csv(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    event = _event(request, event_id)
    rows = exports.standings_rows(league=event.league, event=event)
    name = _name(event.league, event)
    return _csv(exports.STANDINGS_COLUMNS, rows, filename=f"{name}-standings.csv")


@require_safe
def event_games_csv(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    event = _event(request, event_id)
    rows = exports.hand_rows(league=event.league, event=event)
    return _csv(exports.HAND_COLUMNS, rows, filename=f"{_name(event.league, event)}-games.csv")


@require_safe
def event_games_jsonl(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    event = _event(request, event_id)
    records = exports.game_records(league=event.league, event=event)
    return _jsonl(records, filename=f"{_name(event.league, event)}-games.jsonl")
