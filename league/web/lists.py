"""The league page, and its lists in full: the standings, the rating
leaderboard and the game nights.

The league page shows the top :data:`TOP` of the standings and of the
leaderboard and the :data:`RECENT_EVENTS` latest game nights, each with a link
to its full list. A full list shows :data:`PER_PAGE` rows a page (Django's
paginator, ``?page=``) and finds players by name (``?q=``, any part of the
name, in any case). The signed-in player's own row is always shown, at the
foot of the table when the page does not hold it (a login is a player of a
club through :attr:`league.models.Player.user`).

Each page costs a fixed number of queries, whatever the league's size. The
standings are stored ranked, so the database cuts a page out of them. The
leaderboard's order is each rating as of the league's latest game
(:func:`league.ratings.as_of`), which Python computes: the board is read whole
(one query, a row per rated player) and cut here, and only the rows shown
are put into words.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from django.core.paginator import Page, Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import URLPattern, path
from django.utils.http import urlencode
from django.views.decorators.http import require_safe

from league import selectors
from league.models import Game, League, Standing
from league.web.pages import STANDINGS_ORDER, computed_at_of, rating_words

TOP: Final = 50
"""Standings rows and ratings on the league page."""
PER_PAGE: Final = 100
"""Rows a page of a full list."""
RECENT_EVENTS: Final = 10
"""Game nights on the league page."""
EVENTS_PER_PAGE: Final = 50
"""Game nights a page of the full list."""
QUERY_LENGTH: Final = 100
"""A search is cut to this many characters (a player's name has at most 100)."""


@dataclass(frozen=True)
class Shown:
    """What a page shows of a ranked list: its rows, the signed-in player's
    own row when it is not among them, and how many rows the whole list has."""

    rows: Sequence[Any]
    own: Any | None
    total: int


# -- the reads, shaped -------------------------------------------------------------------


def standings_top(*, league: League, player_id: int | None) -> Shown:
    """The league's best :data:`TOP` standings rows, and ``player_id``'s
    below them (the rows with their count in one query, the own row in another)."""
    rows, total = selectors.first_rows(selectors.standings_matching(league=league), limit=TOP)
    return Shown(rows=rows, own=_own_standing(league, player_id, rows), total=total)


def _own_standing(league: League, player_id: int | None, rows: Sequence[Standing]) -> Any:
    """``player_id``'s standings row when ``rows`` do not hold it: one query
    whenever there is a player, so that the count does not depend on where
    they stand (none without one)."""
    if player_id is None:
        return None
    own = selectors.standing_of(league=league, player_id=player_id)
    return None if any(row.player_id == player_id for row in rows) else own


def numbered_board(league: League) -> dict[str, Any]:
    """The league's whole leaderboard (:func:`selectors.rating_board`, one
    query), each row with its ``position`` from 1."""
    board = selectors.rating_board(scope=selectors.league_scope(league))
    rows = [row | {"position": n} for n, row in enumerate(board["ratings"], start=1)]
    return board | {"ratings": rows}


def in_words(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Leaderboard rows, each rating also in words (no query)."""
    return [
        row
        | {
            "words": rating_words(
                ordinal=row["ordinal"],
                sigma=row["sigma"],
                games=row["games"],
                settling=row["provisional"],
            )
        }
        for row in rows
    ]


def board_shown(
    board: dict[str, Any], rows: Sequence[dict[str, Any]], player_id: int | None
) -> Shown:
    """``rows`` of ``board`` in words, with ``player_id``'s row when they are
    rated and it is not among them."""
    own = None
    if player_id is not None and not any(row["player_id"] == player_id for row in rows):
        own = next((row for row in board["ratings"] if row["player_id"] == player_id), None)
    return Shown(
        rows=in_words(rows),
        own=in_words([own])[0] if own is not None else None,
        total=len(board["ratings"]),
    )


def recent_events(league: League) -> tuple[list[selectors.EventLine], int]:
    """The league's :data:`RECENT_EVENTS` latest game nights with their
    tables counted, and how many nights it has (two queries)."""
    events, total = selectors.first_rows(
        selectors.league_events_latest(league=league), limit=RECENT_EVENTS
    )
    return selectors.event_lines(events), total


def search_query(request: HttpRequest) -> str:
    """The ``q`` of the request: what to find in players' names."""
    return " ".join(request.GET.get("q", "").split())[:QUERY_LENGTH]


def page_of(request: HttpRequest, rows: Any, per_page: int) -> Page:
    """The page of ``rows`` that ``?page=`` asks for (the first when it is not
    a number, the last when it is past the end)."""
    return Paginator(rows, per_page).get_page(request.GET.get("page"))


def page_links(query: str) -> str:
    """What the links to other pages of a list carry before their ``page=``:
    the search, if any."""
    return f"{urlencode({'q': query})}&" if query else ""


# -- the pages ------------------------------------------------------------------------------


@require_safe
def league_page(request: HttpRequest, league_id: int) -> HttpResponse:
    """A league's standings and rating leaderboard (their tops, and the
    signed-in player's own rows) and its latest game nights."""
    league = get_object_or_404(selectors.league_for_page(), pk=league_id)
    me = selectors.club_player_id(user=request.user, club_id=league.club_id)
    standings = standings_top(league=league, player_id=me)
    board = numbered_board(league)
    events, events_total = recent_events(league)
    return render(
        request,
        "league/league.html",
        {
            "league": league,
            "bluke": league.game == Game.BLUKE,
            "me": me,
            "standings": standings,
            "computed_at": computed_at_of(standings.rows),
            "standings_order": STANDINGS_ORDER[league.game == Game.BLUKE],
            "board": board,
            "ranked": board_shown(board, board["ratings"][:TOP], me),
            "events": events,
            "events_total": events_total,
            "top": TOP,
        },
    )


@require_safe
def standings_list(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's whole standings, a page at a time, searchable by name."""
    league = get_object_or_404(selectors.league_for_page(), pk=league_id)
    me = selectors.club_player_id(user=request.user, club_id=league.club_id)
    query = search_query(request)
    page = page_of(request, selectors.standings_matching(league=league, query=query), PER_PAGE)
    rows = list(page.object_list)
    own = _own_standing(league, me, rows)
    return render(
        request,
        "league/league_standings.html",
        {
            "league": league,
            "bluke": league.game == Game.BLUKE,
            "me": me,
            "query": query,
            "page": page,
            "links": page_links(query),
            "shown": Shown(rows=rows, own=own, total=page.paginator.count),
            "own_page": math.ceil(own.rank / PER_PAGE) if own is not None else None,
            "computed_at": computed_at_of([*rows, *([own] if own else [])]),
            "standings_order": STANDINGS_ORDER[league.game == Game.BLUKE],
        },
    )


@require_safe
def ratings_list(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's whole rating leaderboard, a page at a time, searchable by name."""
    league = get_object_or_404(selectors.league_for_page(), pk=league_id)
    me = selectors.club_player_id(user=request.user, club_id=league.club_id)
    query = search_query(request)
    board = numbered_board(league)
    found = board["ratings"]
    if query:
        wanted = query.casefold()
        found = [row for row in found if wanted in row["player"].name.casefold()]
    page = page_of(request, found, PER_PAGE)
    ranked = board_shown(board, list(page.object_list), me)
    return render(
        request,
        "league/league_ratings.html",
        {
            "league": league,
            "me": me,
            "query": query,
            "page": page,
            "links": page_links(query),
            "board": board,
            "ranked": ranked,
            "matches": page.paginator.count,
            "own_page": (
                math.ceil(ranked.own["position"] / PER_PAGE) if ranked.own is not None else None
            ),
        },
    )


@require_safe
def events_list(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's game nights, the latest first, a page at a time."""
    league = get_object_or_404(selectors.league_for_page(), pk=league_id)
    page = page_of(request, selectors.league_events_latest(league=league), EVENTS_PER_PAGE)
    return render(
        request,
        "league/league_events.html",
        {
            "league": league,
            "page": page,
            "links": "",
            "events": selectors.event_lines(list(page.object_list)),
        },
    )


urlpatterns: list[URLPattern] = [
    path("leagues/<int:league_id>/", league_page, name="league"),
    path("leagues/<int:league_id>/standings/", standings_list, name="league-all-standings"),
    path("leagues/<int:league_id>/ratings/", ratings_list, name="league-leaderboard"),
    path("leagues/<int:league_id>/events/", events_list, name="league-game-nights"),
]
