"""The read-only pages members open on their phones: the clubs, a league's
standings and ratings, an event's tables, a player's profile.

Views stay thin: the reads are in :mod:`league.selectors` (each page a
fixed number of queries, whatever the number of games), the chart in
:mod:`league.web.charts`; a view only picks the object (404 when it does
not exist) and shapes the context.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import SafeString
from django.views.decorators.http import require_safe

from league import ratings, selectors
from league.models import Game, Player, Standing
from league.web import charts


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Clubs and their leagues, each league linking to its page."""
    return render(request, "league/home.html", {"clubs": selectors.clubs_with_leagues()})


@require_safe
def league_page(request: HttpRequest, league_id: int) -> HttpResponse:
    """A league's stored standings, its rating leaderboard and its events."""
    league = get_object_or_404(selectors.league_for_page(), pk=league_id)
    standings = list(selectors.league_standings(league=league))
    return render(
        request,
        "league/league.html",
        {
            "league": league,
            "bluke": league.game == Game.BLUKE,
            "standings": standings,
            "computed_at": _computed_at(standings),
            "board": selectors.rating_board(scope=selectors.league_scope(league)),
            "events": list(selectors.league_events(league=league)),
        },
    )


@require_safe
def event_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """An event's rounds and tables (who sat where, how each game stands)
    and the event's own standings."""
    event = get_object_or_404(selectors.event_for_page(), pk=event_id)
    standings = list(selectors.league_standings(league=event.league, event=event))
    return render(
        request,
        "league/event.html",
        {
            "event": event,
            "league": event.league,
            "bluke": event.league.game == Game.BLUKE,
            "rounds": selectors.event_rounds(event=event),
            "standings": standings,
            "computed_at": _computed_at(standings),
        },
    )


@dataclass(frozen=True)
class RatingSection:
    """One scope on a player's page: the rating, its chart and the chart in words."""

    rating: selectors.ScopeRating
    label: str
    chart: SafeString
    summary: str


@dataclass(frozen=True)
class GameStandings:
    """A player's standing rows in the leagues of one game (the columns differ)."""

    game: str
    label: str
    bluke: bool
    rows: list[Standing]


@require_safe
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's ratings with their history charts, recent games and
    statistics in each league."""
    player = get_object_or_404(selectors.player_for_page(), pk=player_id)
    return render(
        request,
        "league/player.html",
        {
            "player": player,
            "ratings": _rating_sections(player, selectors.player_ratings(player=player)),
            "provisional_below": ratings.PROVISIONAL_BELOW,
            "recent": selectors.player_recent_games(player=player),
            "standings": _by_game(selectors.player_standings(player=player)),
        },
    )


def _rating_sections(player: Player, rated: list[selectors.ScopeRating]) -> list[RatingSection]:
    """Each scope's chart of mu ± sigma (mu, not the ordinal: the band around
    the estimate is what shows how sure it is) and the same in words."""
    sections = []
    for item in rated:
        scope = item.scope
        game = Game(scope.game).label
        label = scope.league.name if scope.league else "Club-wide"
        points = [charts.Point(row.games, row.mu, row.sigma) for row in item.history]
        summary = charts.describe(charts.summarise(points), value_name="mu")
        title = f"{player.name}'s rating (mu ± sigma) by games played: {label} ({game})"
        sections.append(
            RatingSection(
                rating=item,
                label=label,
                chart=charts.rating_chart(
                    points,
                    chart_id=f"rating-chart-{scope.pk}",
                    title=title,
                    description=summary,
                    value_label="mu ± sigma",
                ),
                summary=summary,
            )
        )
    return sections


def _by_game(rows: Sequence[Standing]) -> list[GameStandings]:
    """Split the rows by game: each game's statistics have their own columns."""
    groups: dict[str, list[Standing]] = {}
    for row in rows:
        groups.setdefault(row.league.game, []).append(row)
    return [
        GameStandings(game=game, label=Game(game).label, bluke=game == Game.BLUKE, rows=items)
        for game, items in groups.items()
    ]


def _computed_at(standings: Sequence[Standing]) -> datetime.datetime | None:
    """When the shown standings were computed (all rows of a refresh share it)."""
    return max((row.computed_at for row in standings), default=None)
