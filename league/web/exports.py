"""Downloads of a league's or an event's records: standings and the rating
leaderboard as CSV, every game as CSV (one row per hand and seat) and as JSON Lines
of the engine's game records. Streamed, so the largest league downloads in constant
memory (:mod:`league.exports` reads them). Public, like the pages they mirror.

The CSV files are UTF-8 with a header row, written by :mod:`csv` (RFC 4180). Every
text cell is quoted, numbers are not: a spreadsheet that splits lines on another
character than the comma (a semicolon, where the comma is the decimal mark) still
reads a quoted cell whole when it starts its line. A text cell that a spreadsheet
would run as a formula (one starting ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return: a player named ``=HYPERLINK(...)``) is also written with a leading
apostrophe, as OWASP advises, and so is one that starts with an apostrophe, so the
import can tell them apart. Such a spreadsheet also starts a cell after each
semicolon of a cell quoted further along the line (it honours a quote only at the
start of a cell): so the guard goes after every semicolon, tab, bar and line break
in a text cell too, and a player named ``Ann;=1+1`` is written ``"Ann;'=1+1"``.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.http import HttpRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from league import exports, selectors
from league.models import Event, League


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet should read it: text that would start a formula,
    or that starts with an apostrophe, gets a leading apostrophe, and so does what
    follows a semicolon, tab, bar or line break in it
    (:func:`league.exports.cell_guarded`); anything else is unchanged.

    >>> safe_cell("=1+1"), safe_cell("-Ann"), safe_cell("'Tis"), safe_cell("Ann"), safe_cell(-10)
    ("'=1+1", "'-Ann", "''Tis", 'Ann', -10)
    >>> safe_cell("Ann;=1+1 night")
    "Ann;'=1+1 night"
    """
    if isinstance(value, str):
        return exports.cell_guarded(value)
    return value


class _Line:
    """A file-like object whose ``write`` hands back the line :mod:`csv` wrote."""

    def write(self, text: str) -> str:
        return text


def csv_lines(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Iterator[str]:
    """The header and ``rows`` as CSV lines, made safe for spreadsheets, one at a time:
    text quoted (empty text too), numbers (and ``True``/``False``) as they are.

    >>> list(csv_lines(["player", "points"], [["Ann;=1+1", -10], ["=1+1", 3], ["", 0]]))
    ['"player","points"\\r\\n', '"Ann;\\'=1+1",-10\\r\\n', '"\\'=1+1",3\\r\\n', '"",0\\r\\n']
    """
    writer = csv.writer(_Line(), quoting=csv.QUOTE_NONNUMERIC)
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


def _league(league_id: int) -> League:
    return get_object_or_404(selectors.league_for_page(), pk=league_id)


def _event(event_id: int) -> Event:
    return get_object_or_404(selectors.event_for_page(), pk=event_id)


def _name(league: League, event: Event | None = None) -> str:
    """A file name's stem: the league's slug (or name), and the event's date."""
    stem = league.slug or slugify(league.name) or f"league-{league.pk}"
    return f"{stem}-{event.date.isoformat()}" if event is not None else stem


@require_safe
def league_standings_csv(request: HttpRequest, league_id: int) -> StreamingHttpResponse:
    league = _league(league_id)
    rows = exports.standings_rows(league=league)
    return _csv(exports.STANDINGS_COLUMNS, rows, filename=f"{_name(league)}-standings.csv")


@require_safe
def league_ratings_csv(request: HttpRequest, league_id: int) -> StreamingHttpResponse:
    league = _league(league_id)
    rows = exports.rating_rows(scope=selectors.league_scope(league))
    return _csv(exports.RATINGS_COLUMNS, rows, filename=f"{_name(league)}-ratings.csv")


@require_safe
def league_games_csv(request: HttpRequest, league_id: int) -> StreamingHttpResponse:
    league = _league(league_id)
    rows = exports.hand_rows(league=league)
    return _csv(exports.HAND_COLUMNS, rows, filename=f"{_name(league)}-games.csv")


@require_safe
def league_games_jsonl(request: HttpRequest, league_id: int) -> StreamingHttpResponse:
    league = _league(league_id)
    records = exports.game_records(league=league)
    return _jsonl(records, filename=f"{_name(league)}-games.jsonl")


@require_safe
def event_standings_csv(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    event = _event(event_id)
    rows = exports.standings_rows(league=event.league, event=event)
    name = _name(event.league, event)
    return _csv(exports.STANDINGS_COLUMNS, rows, filename=f"{name}-standings.csv")


@require_safe
def event_games_csv(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    event = _event(event_id)
    rows = exports.hand_rows(league=event.league, event=event)
    return _csv(exports.HAND_COLUMNS, rows, filename=f"{_name(event.league, event)}-games.csv")


@require_safe
def event_games_jsonl(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    event = _event(event_id)
    records = exports.game_records(league=event.league, event=event)
    return _jsonl(records, filename=f"{_name(event.league, event)}-games.jsonl")
