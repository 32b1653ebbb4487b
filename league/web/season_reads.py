"""Page-shaped reads of a league's season: its format in words, and its final.

Each a fixed number of queries, whatever the league's size."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from league import selectors
from league.models import Event, Game, League, Standing
from league.season import season_in_words, season_order_in_words

FIGURE_COLUMNS = {True: 9, False: 11}
"""The columns of a standings table without the season's, by ``bluke``: rank,
player, games, wins, average place, total and average points, and each
game's own (templates/league/_pages_figure_headers.html)."""


@dataclass(frozen=True)
class SeasonShown:
    """What a standings page shows of the league's season format: whether it
    has one (``points``: the season columns and "not yet qualified"), its
    words, its order in a line (``None``: today's order, said by the page),
    the games to qualify and how many columns a standings row has."""

    points: bool
    words: str
    order: str | None
    min_games: int
    columns: int


def season_shown(league: League, *, count_nights: bool = True) -> SeasonShown:
    """The league's season format as its pages show it, with the nights the
    season has for "best 8 of 12 nights" when ``count_nights`` (no query for a
    league of :func:`league.selectors.league_for_page`, which counts them;
    one otherwise)."""
    season: dict[str, Any] | None = league.season
    nights = None
    if season and season.get("best_nights") and count_nights:
        nights = getattr(league, "season_nights", None)
        if nights is None:
            nights = Event.objects.filter(league=league, is_final=False).count()
    bluke = league.game == Game.BLUKE
    return SeasonShown(
        points=bool(season),
        words=season_in_words(season, nights=nights, first=league.table_size),
        order=season_order_in_words(season),
        min_games=int(season.get("min_games") or 0) if season else 0,
        columns=FIGURE_COLUMNS[bluke] + (2 if season else 0),
    )


def final_shown(league: League) -> selectors.FinalResult | None:
    """The league's final and its result (two queries), ``None`` before it is
    made (no query then for a league of :func:`league.selectors.league_for_page`,
    which has its final's id)."""
    if hasattr(league, "final_id"):
        if league.final_id is None:
            return None
        event: Event | None = Event.objects.get(pk=league.final_id)
    else:
        event = selectors.league_final(league=league)
    return selectors.final_result(event=event) if event is not None else None


def qualified_count(league: League) -> int:
    """How many players the league's stored season standings have qualified (one query)."""
    return Standing.objects.filter(league=league, event=None, qualified=True).count()
