"""The read-only pages members open on their phones: the clubs, an event's
tables, a player's profile (the league page and its lists are
:mod:`league.web.lists`).

Views stay thin: the reads are in :mod:`league.selectors` (each page a
fixed number of queries, whatever the number of games), the chart in
:mod:`league.web.charts`; a view only picks the object (404 when it does
not exist) and shapes the context.
"""

from __future__ import annotations

import copy
import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from league import access
from league.models import Club, Game, League, Player, RatingHistory, RatingScope, Standing
from league.rating_model import MODELS
from league.rating_words import (
    decimal,
    game_words,
    held_down_words,
    signed,
)
from league.rating_words import rating_words as rating_words  # lists.py too
from league.selectors import clubs as clubs_selectors
from league.selectors import events as events_selectors
from league.selectors import player_stats as player_stats_selectors
from league.selectors import players as players_selectors
from league.selectors import ratings as ratings_selectors
from league.selectors import seasons as seasons_selectors
from league.selectors import standings as standings_selectors
from league.services import clubs
from league.web import charts, player_figures
from league.web.access import members_only_refusal

STANDINGS_ORDER: Final = {
    True: gettext_lazy(
        "Ordered by wins, then average place, then average points (more is better), "
        "then games played."
    ),
    False: gettext_lazy(
        "Ordered by wins, then average place, then average points (Buck Euchre counts "
        "down: fewer points are better), then games played."
    ),
}
"""The standings' order in one line, by ``bluke``: :func:`league.standings`' tie-breaks."""


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Clubs and their leagues, each league linking to its page; a "Manage"
    link by each club the signed-in user organises (one query for them all),
    and a way to start a club for whoever may."""
    shown = [
        # a members-only club is shown to its members alone: with its feeds' private address
        (club, private_feed_url(request, club) if club.members_only else "")
        for club in clubs_selectors.clubs_with_leagues().filter(access.visible_clubs(request.user))
    ]
    return render(
        request,
        "league/home.html",
        {
            "clubs": shown,
            "organised": clubs_selectors.organised_club_ids(request.user),
            "may_start_club": access.club_creation_offered(request.user),
        },
    )


def private_feed_url(request: HttpRequest, club: Club, league: League | None = None) -> str:
    """The private address of a members-only club's calendar feed (the club's,
    or ``league``'s), for its members' calendar apps (league.web.privacy)."""
    key = clubs.club_feed_key(club=club)
    if league is None:
        path = reverse("club-calendar", kwargs={"club_id": club.pk})
    else:
        path = reverse("league-calendar", kwargs={"league_id": league.pk})
    return request.build_absolute_uri(f"{path}?key={key}")


@require_safe
def event_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """An event's rounds and tables (who sat where, how each game stands)
    and the event's own standings; for the club's organisers, links to manage
    the night and run it (one query more for a signed-in user)."""
    event = get_object_or_404(events_selectors.event_for_page(), pk=event_id)
    if refusal := members_only_refusal(request, event.league.club):
        return refusal
    standings = list(standings_selectors.league_standings(league=event.league, event=event))
    # a night's standings: its points, no games to qualify
    league = event.league
    night = copy.copy(league)
    night.season = {**league.season, "min_games": 0} if league.season else None
    return render(
        request,
        "league/event.html",
        {
            "event": event,
            "league": event.league,
            "bluke": event.league.game == Game.BLUKE,
            "rounds": events_selectors.event_rounds(event=event),
            "standings": standings,
            "standings_order": STANDINGS_ORDER[event.league.game == Game.BLUKE],
            "season": seasons_selectors.season_shown(night, count_nights=False),
            "computed_at": computed_at_of(standings),
        },
    )


@require_safe
def ratings_explained(request: HttpRequest) -> HttpResponse:
    """How ratings work, in the words the pages use; mu, sigma and the
    ordinal are named here for those who read the API."""
    return render(
        request,
        "league/ratings_explained.html",
        {
            "bluke_settled": MODELS["bluke"].provisional_sigma,
            "buck_euchre_settled": MODELS["buck_euchre"].provisional_sigma,
            # a Bluke player's uncertainty after 4 and 40 games, as the model has it
            "example": rating_words(
                ordinal=12.4, sigma=MODELS["bluke"].sigma_after(4), games=4, settling=True
            ),
            "settled": rating_words(
                ordinal=27.6, sigma=MODELS["bluke"].sigma_after(40), games=40, settling=False
            ),
            "bluke_order": STANDINGS_ORDER[True],
            "buck_euchre_order": STANDINGS_ORDER[False],
        },
    )


@dataclass(frozen=True)
class RatedGameLine:
    """One game under a rating's chart: the rating before and after it (at one
    decimal, as the chart), the change, and why, in words."""

    row: RatingHistory
    before: str | None
    after: str
    change: str
    words: str
    held_down: str


@dataclass(frozen=True)
class RatingSection:
    """One scope on a player's page: the rating, its chart, the chart in words
    and the latest games explained; or, for a club-wide rating the same as a
    league's, the league whose chart serves it (``chart_in``)."""

    rating: ratings_selectors.ScopeRating
    label: str
    words: str
    chart: SafeString | str = ""
    summary: str = ""
    games: list[RatedGameLine] = field(default_factory=list)
    serves_club_wide: bool = False
    all_games_url: str = ""
    chart_in: str = ""


@dataclass(frozen=True)
class GameStandings:
    """A player's standing rows in the leagues of one game (the columns differ)."""

    game: str
    label: str
    bluke: bool
    rows: list[Standing]

    @property
    def order(self) -> str:
        """How the standings of this game are ordered, in one line."""
        return str(STANDINGS_ORDER[self.bluke])

    @property
    def seasons(self) -> bool:
        """Whether a league of these has a season format (a column of season points)."""
        return any(row.league.season is not None for row in self.rows)


@require_safe
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's ratings with their history charts, recent games, each game's
    form, rivals and records across the club's leagues (``?opponents=all``: every
    opponent of the head to head) and statistics in each league."""
    player = get_object_or_404(players_selectors.player_for_page(), pk=player_id)
    if refusal := members_only_refusal(request, player.club):
        return refusal
    return render(
        request,
        "league/player.html",
        {
            "player": player,
            "ratings": _rating_sections(player, ratings_selectors.player_ratings(player=player)),
            "recent": players_selectors.player_recent_games(player=player),
            "standings": _by_game(standings_selectors.player_standings(player=player)),
            "figures": [
                player_figures.game_figures(
                    stats, all_opponents=request.GET.get("opponents") == "all"
                )
                for stats in player_stats_selectors.player_game_stats(player=player)
            ],
        },
    )


LATEST_GAMES: Final = 10
"""The games explained under a rating's chart; the API lists them all."""


def _rating_sections(
    player: Player, rated: list[ratings_selectors.ScopeRating]
) -> list[RatingSection]:
    """Each scope's rating in words, its chart and its latest games explained:
    the rating (the board's figure) after every game, with a band of ± its
    uncertainty (sigma), the same figures, at one decimal, as the words give.

    A club-wide rating whose history is the league's (a club with one league of
    the game) gets no chart of its own: the league's serves both, and says so."""
    # the latest games of every scope with their tables: one query for the page
    latest_rows = ratings_selectors.with_tables(
        [row for item in rated for row in item.history[-LATEST_GAMES:]]
    )
    tabled = {id(row) for row in latest_rows}
    by_history = {_history_key(item): item for item in rated if item.scope.league is not None}
    sections = []
    for item in rated:
        scope = item.scope
        game = Game(scope.game).label
        # Translators: the club-wide rating of a game, beside a league's own
        label = scope.league.name if scope.league else _("Club-wide")
        rating = item.rating
        words = rating_words(
            ordinal=rating.ordinal,
            sigma=rating.sigma,
            games=rating.games,
            settling=item.provisional,
        )
        twin = by_history.get(_history_key(item)) if scope.league is None else None
        if twin is not None:
            assert twin.scope.league is not None
            sections.append(
                RatingSection(
                    rating=item, label=label, words=words, chart_in=twin.scope.league.name
                )
            )
            continue
        points = [charts.Point(row.games, row.ordinal, row.sigma) for row in item.history]
        summary = charts.describe(charts.summarise(points))
        title = _(
            "%(player)s's rating, ± its uncertainty, by games played: %(scope)s (%(game)s)"
        ) % {"player": player.name, "scope": label, "game": game}
        latest = item.history[-LATEST_GAMES:]
        before = item.history[-LATEST_GAMES - 1] if len(item.history) > LATEST_GAMES else None
        games = [
            game
            for game in ratings_selectors.explain_games(latest, scope=scope, before=before)
            if id(game.row) in tabled
        ]
        shared = next(
            (
                other
                for other in rated
                if other.scope.league is None
                and scope.league is not None
                and by_history.get(_history_key(other)) is item
            ),
            None,
        )
        sections.append(
            RatingSection(
                rating=item,
                label=label,
                words=words,
                chart=charts.rating_chart(
                    points,
                    chart_id=f"rating-chart-{scope.pk}",
                    title=title,
                    description=summary,
                    value_label=_("Rating ± uncertainty"),
                ),
                summary=summary,
                games=[_game_line(line) for line in reversed(games)],
                serves_club_wide=shared is not None,
                all_games_url=_rating_games_url(player, scope),
            )
        )
    return sections


def _history_key(
    item: ratings_selectors.ScopeRating,
) -> tuple[str, tuple[tuple[str, float, float], ...]]:
    """What makes two scopes' charts the same: the game and every point drawn."""
    return item.scope.game, tuple((row.order_key, row.mu, row.sigma) for row in item.history)


def _rating_games_url(player: Player, scope: RatingScope) -> str:
    """The API's list of every game of the player's rating in ``scope``."""
    url = reverse("player-rating-games", kwargs={"pk": player.pk})
    return f"{url}?scope={scope.league_id if scope.league_id is not None else scope.game}"


def _game_line(game: ratings_selectors.RatedGame) -> RatedGameLine:
    """A game of a rating's list: its figures and why the rating moved, in words."""
    explained = game.explained
    if explained is None:
        return RatedGameLine(
            row=game.row,
            before=None,
            after=decimal(game.row.ordinal),
            change="",
            words=_("Explained once the league's ratings are next updated."),
            held_down="",
        )
    return RatedGameLine(
        row=game.row,
        before=decimal(explained.before),
        after=decimal(explained.after),
        change=signed(explained.change),
        words=game_words(explained),
        held_down=held_down_words(explained),
    )


def _by_game(rows: Sequence[Standing]) -> list[GameStandings]:
    """Split the rows by game: each game's statistics have their own columns."""
    groups: dict[str, list[Standing]] = {}
    for row in rows:
        groups.setdefault(row.league.game, []).append(row)
    return [
        GameStandings(game=game, label=Game(game).label, bluke=game == Game.BLUKE, rows=items)
        for game, items in groups.items()
    ]


def computed_at_of(standings: Sequence[Standing]) -> datetime.datetime | None:
    """When the shown standings were computed (all rows of a refresh share it)."""
    return max((row.computed_at for row in standings), default=None)
