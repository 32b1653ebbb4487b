"""The league page, and its lists in full: the standings, the rating
leaderboard and the game nights.

The league page shows the top :data:`TOP` of the standings and of the
leaderboard and the :data:`RECENT_EVENTS` latest game nights, each with a link
to its full list. A full list shows :data:`PER_PAGE` rows a page (Django's
paginator, ``?page=``) and finds players by name (``?q=``, any part of the
name, in any case; a search with a NUL character is refused by the box,
400). The signed-in player's own row is always shown, at the foot of the
table when the page does not hold it (a login is a player of a club through
:attr:`league.models.Player.user`).

Each page costs a fixed number of queries, whatever the league's size, and
reads only the rows it shows. The standings are stored ranked, so the
database cuts a page out of them. The leaderboard's order is each rating as
of the league's latest game (:func:`league.ratings.as_of`), which the database
computes as Python would (:func:`league.selectors.ratings.leaderboard_ranked`), so it cuts a
page out of the board too, each row with its position on the whole board.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from django.core.paginator import Page, Paginator
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import URLPattern, path
from django.utils.http import urlencode
from django.views.decorators.http import require_safe

from league.models import Game, League, Rating, Standing
from league.selectors import clubs as clubs_selectors
from league.selectors import leagues as leagues_selectors
from league.selectors import ratings as ratings_selectors
from league.selectors import standings as standings_selectors
from league.selectors.seasons import final_shown, season_shown
from league.web.access import members_only_refusal
from league.web.pages import STANDINGS_ORDER, computed_at_of, private_feed_url, rating_words
from league.web.search import Search, search_of

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


RowT = TypeVar("RowT")
RowModel = TypeVar("RowModel", bound=Model)

LeaderboardRow = dict[str, Any]
"""A row of the leaderboard as :func:`league.selectors.ratings.leaderboard_row` makes it."""


@dataclass(frozen=True)
class Shown(Generic[RowT]):
    """What a page shows of a ranked list: its rows, the signed-in player's
    own row when it is not among them, and how many rows the whole list has."""

    rows: Sequence[RowT]
    own: RowT | None
    total: int


# -- the reads, shaped -------------------------------------------------------------------


def standings_top(*, league: League, player_id: int | None) -> Shown[Standing]:
    """The league's best :data:`TOP` standings rows, and ``player_id``'s
    below them (the rows with their count in one query, the own row in another)."""
    rows, total = leagues_selectors.first_rows(
        standings_selectors.standings_matching(league=league), limit=TOP
    )
    return Shown(rows=rows, own=_own_standing(league, player_id, rows), total=total)


def _own_standing(
    league: League, player_id: int | None, rows: Sequence[Standing]
) -> Standing | None:
    """``player_id``'s standings row when ``rows`` do not hold it: one query
    whenever there is a player, so that the count does not depend on where
    they stand (none without one)."""
    if player_id is None:
        return None
    own = standings_selectors.standing_of(league=league, player_id=player_id)
    return None if any(row.player_id == player_id for row in rows) else own


@dataclass(frozen=True)
class Board:
    """The league's rating leaderboard: what it says beside its rows
    (``status``, ``rated_at``, ``provisional_above_sigma``: no query) and its
    ratings, ranked, to cut (``None`` before the first rated game)."""

    about: Mapping[str, object]
    ranked: QuerySet[Rating] | None
    game: str
    scope_id: int | None

    def __getitem__(self, name: str) -> object:
        return self.about[name]  # the templates read board.status and the like


def board_of(league: League) -> Board:
    """The league's leaderboard, unread (no query: the league comes from
    :func:`league.selectors.leagues.league_for_page` with its scope)."""
    scope = ratings_selectors.league_scope(league)
    ranked = ratings_selectors.leaderboard_ranked(scope=scope) if scope is not None else None
    scope_id = scope.pk if scope is not None else None
    return Board(ratings_selectors.rating_board_about(scope=scope), ranked, league.game, scope_id)


def in_words(board: Board, ratings: Sequence[Rating]) -> list[LeaderboardRow]:
    """Ratings of the board as its rows, each with its ``position`` on the
    whole board and its rating also in words (no query)."""
    rows = [ratings_selectors.leaderboard_row(rating, game=board.game) for rating in ratings]
    return [
        row
        | {
            "position": row["rank"],
            "words": rating_words(
                ordinal=row["ordinal"],
                sigma=row["sigma"],
                games=row["games"],
                settling=row["provisional"],
            ),
        }
        for row in rows
    ]


def board_shown(
    board: Board, ratings: Sequence[Rating], player_id: int | None, *, total: int
) -> Shown[LeaderboardRow]:
    """``ratings`` of ``board`` in words, with ``player_id``'s row when they
    are rated and it is not among them: one query whenever there is a player,
    so that the count does not depend on where they stand (none without one)."""
    own = None
    if player_id is not None and board.ranked is not None:
        mine = ratings_selectors.leaderboard_of_players(board.ranked, [player_id]).first()
        if mine is not None and not any(r.player_id == player_id for r in ratings):
            own = in_words(board, [mine])[0]
    return Shown(rows=in_words(board, ratings), own=own, total=total)


def board_top(board: Board, player_id: int | None) -> Shown[LeaderboardRow]:
    """The board's best :data:`TOP` rows, with how many rated players it has
    (one query), and ``player_id``'s row below them."""
    if board.ranked is None:
        return Shown(rows=[], own=None, total=0)
    top, total = leagues_selectors.first_rows(board.ranked, limit=TOP)
    return board_shown(board, top, player_id, total=total)


def recent_events(league: League) -> tuple[list[leagues_selectors.EventLine], int]:
    """The league's :data:`RECENT_EVENTS` latest game nights with their
    tables counted, and how many nights it has (two queries)."""
    events, total = leagues_selectors.first_rows(
        leagues_selectors.league_events_latest(league=league), limit=RECENT_EVENTS
    )
    return leagues_selectors.event_lines(events), total


def search_query(request: HttpRequest) -> Search:
    """The ``q`` of the request: what to find in players' names, its spaces
    made single and cut to :data:`QUERY_LENGTH`; refused with a NUL in it
    (:func:`league.web.search.search_of`)."""
    return search_of(request, clean=lambda given: " ".join(given.split())[:QUERY_LENGTH])


def page_of(
    request: HttpRequest, rows: QuerySet[RowModel] | Sequence[RowModel], per_page: int
) -> Page[RowModel]:
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
    signed-in player's own rows) and its latest game nights; its season format
    in words, and its final's result above the season's standings."""
    league = get_object_or_404(leagues_selectors.league_for_page(), pk=league_id)
    if refusal := members_only_refusal(request, league.club):
        return refusal
    me = clubs_selectors.club_player_id(user=request.user, club_id=league.club_id)
    standings = standings_top(league=league, player_id=me)
    board = board_of(league)
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
            "season": season_shown(league),
            "final": final_shown(league),
            "board": board,
            "ranked": board_top(board, me),
            "events": events,
            "events_total": events_total,
            "top": TOP,
            "feed_url": private_feed_url(request, league.club, league)
            if league.club.members_only
            else "",
        },
    )


@require_safe
def standings_list(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's whole standings, a page at a time, searchable by name."""
    league = get_object_or_404(leagues_selectors.league_for_page(), pk=league_id)
    if refusal := members_only_refusal(request, league.club):
        return refusal
    me = clubs_selectors.club_player_id(user=request.user, club_id=league.club_id)
    search = search_query(request)
    query = search.text
    page = page_of(
        request, standings_selectors.standings_matching(league=league, query=query), PER_PAGE
    )
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
            "search_error": search.error,
            "page": page,
            "links": page_links(query),
            "shown": Shown(rows=rows, own=own, total=page.paginator.count),
            "own_page": math.ceil(own.rank / PER_PAGE) if own is not None else None,
            "computed_at": computed_at_of([*rows, *([own] if own else [])]),
            "standings_order": STANDINGS_ORDER[league.game == Game.BLUKE],
            "season": season_shown(league),
        },
        status=search.status,
    )


@require_safe
def ratings_list(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's whole rating leaderboard, a page at a time, searchable by name."""
    league = get_object_or_404(leagues_selectors.league_for_page(), pk=league_id)
    if refusal := members_only_refusal(request, league.club):
        return refusal
    me = clubs_selectors.club_player_id(user=request.user, club_id=league.club_id)
    search = search_query(request)
    query = search.text
    board = board_of(league)
    found: QuerySet[Rating] | list[Rating] = []
    if board.ranked is not None:
        # the whole board counted alongside, before the search keeps its rows
        found = leagues_selectors.with_count(board.ranked)
        found = ratings_selectors.leaderboard_matching(found, query) if query else found
    page = page_of(request, found, PER_PAGE)
    shown = list(page.object_list)
    if shown or not query or board.scope_id is None:
        total = shown[0].rows_in_all if shown else 0
    else:  # a search that found nobody: the board's size is a count of its own
        total = ratings_selectors.scope_rating_count(scope_id=board.scope_id)
    ranked = board_shown(board, shown, me, total=total)
    return render(
        request,
        "league/league_ratings.html",
        {
            "league": league,
            "me": me,
            "query": query,
            "search_error": search.error,
            "page": page,
            "links": page_links(query),
            "board": board,
            "ranked": ranked,
            "matches": page.paginator.count,
            "own_page": (
                math.ceil(ranked.own["position"] / PER_PAGE) if ranked.own is not None else None
            ),
        },
        status=search.status,
    )


@require_safe
def events_list(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's game nights, the latest first, a page at a time."""
    league = get_object_or_404(leagues_selectors.league_for_page(), pk=league_id)
    if refusal := members_only_refusal(request, league.club):
        return refusal
    page = page_of(request, leagues_selectors.league_events_latest(league=league), EVENTS_PER_PAGE)
    return render(
        request,
        "league/league_events.html",
        {
            "league": league,
            "page": page,
            "links": "",
            "events": leagues_selectors.event_lines(list(page.object_list)),
        },
    )


urlpatterns: list[URLPattern] = [
    path("leagues/<int:league_id>/", league_page, name="league"),
    path("leagues/<int:league_id>/standings/", standings_list, name="league-all-standings"),
    path("leagues/<int:league_id>/ratings/", ratings_list, name="league-leaderboard"),
    path("leagues/<int:league_id>/events/", events_list, name="league-game-nights"),
]
