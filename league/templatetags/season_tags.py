"""Template tags of a league's season: its format in words (no query)."""

from __future__ import annotations

from django import template

from league.models import League
from league.season import season_in_words
from league.selectors.seasons import points_shown

register = template.Library()


@register.filter
def season_words(league: League) -> str:
    """The league's season format in a line (league.season.season_in_words)."""
    return season_in_words(league.season, first=league.table_size)


@register.filter
def season_points(value: float | None) -> str:
    """Season points as the pages write them: 7, 1.5, 1.33 (Czech 1,5); a dash for none."""
    return "\u2013" if value is None else points_shown(value)  # an en dash, as the pages
