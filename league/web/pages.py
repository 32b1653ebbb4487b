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
from dataclasses import dataclass
from typing import Final

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_safe

from league import access
from league.models import Club, Game, League, Player, Standing
from league.rating_model import MODELS
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


def rating_words(*, ordinal: float, sigma: float, games: int, settling: bool) -> str:
    """A rating as members read it: the number that orders the leaderboard
    (the ordinal: the estimate of the player's skill, held down while provisional
    by three times its uncertainty above the threshold), rounded, the uncertainty (sigma) as ± and
    whether it is still ``settling`` (provisional), in words. The API keeps mu,
    sigma and the ordinal.

    >>> rating_words(ordinal=27.6, sigma=1.2, games=40, settling=False)
    'about 28, ± 1 — based on 40 games'
    >>> rating_words(ordinal=12.4, sigma=5.6, games=12, settling=True)  # away for months
    'about 12, ± 6 — still settling after 12 games'
    >>> rating_words(ordinal=-3.4, sigma=7.4, games=1, settling=True)
    'about -3, ± 7 — still settling after 1 game'
    >>> rating_words(ordinal=-0.4, sigma=0.3, games=300, settling=False)
    'about 0, ± less than 1 — based on 300 games'
    """
    shown = str(round(ordinal))  # an int: never "-0"
    spread = round(sigma)
    # Translators: the uncertainty of a rating below 1 point, after "±"
    plus_minus = str(spread) if spread >= 1 else _("less than 1")
    words = {"rating": shown, "spread": plus_minus, "games": games}
    if settling:
        return (
            ngettext(
                # Translators: a provisional rating: about 12, ± 6 — still settling after 4 games
                "about %(rating)s, ± %(spread)s — still settling after %(games)d game",
                "about %(rating)s, ± %(spread)s — still settling after %(games)d games",
                games,
            )
            % words
        )
    return (
        ngettext(
            # Translators: a settled rating: about 28, ± 1 — based on 40 games
            "about %(rating)s, ± %(spread)s — based on %(games)d game",
            "about %(rating)s, ± %(spread)s — based on %(games)d games",
            games,
        )
        % words
    )


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
            "settled_below": {
                Game(game).label: model.provisional_sigma for game, model in MODELS.items()
            },
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
class RatingSection:
    """One scope on a player's page: the rating, its chart and the chart in words."""

    rating: ratings_selectors.ScopeRating
    label: str
    words: str
    chart: SafeString
    summary: str


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


def _rating_sections(
    player: Player, rated: list[ratings_selectors.ScopeRating]
) -> list[RatingSection]:
    """Each scope's rating in words and its chart: the rating (the ordinal,
    the number the leaderboard orders by) after every game, with a band of ±
    its uncertainty (sigma), the same figures the words give."""
    sections = []
    for item in rated:
        scope = item.scope
        game = Game(scope.game).label
        label = scope.league.name if scope.league else "Club-wide"
        points = [charts.Point(row.games, row.ordinal, row.sigma) for row in item.history]
        summary = charts.describe(charts.summarise(points), value_name="rating")
        title = f"{player.name}'s rating, ± its uncertainty, by games played: {label} ({game})"
        rating = item.rating
        sections.append(
            RatingSection(
                rating=item,
                label=label,
                words=rating_words(
                    ordinal=rating.ordinal,
                    sigma=rating.sigma,
                    games=rating.games,
                    settling=item.provisional,
                ),
                chart=charts.rating_chart(
                    points,
                    chart_id=f"rating-chart-{scope.pk}",
                    title=title,
                    description=summary,
                    value_label="Rating ± uncertainty",
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


def computed_at_of(standings: Sequence[Standing]) -> datetime.datetime | None:
    """When the shown standings were computed (all rows of a refresh share it)."""
    return max((row.computed_at for row in standings), default=None)
