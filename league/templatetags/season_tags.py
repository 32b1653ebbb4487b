"""Template tags of a league's season: its format in words (no query)."""

from __future__ import annotations

from django import template

from league.models import League
from league.season_words import points_words
from league.season_words import season_words as worded

register = template.Library()


@register.filter
def season_words(league: League) -> str:
    """The league's season format in a line, in the page's language
    (:func:`league.season_words.season_words`)."""
    return worded(league.season, first=league.table_size)


@register.filter
def season_points(value: float | None) -> str:
    """Season points as the page's language writes them: 7, 1.5, 1.33 (Czech 1,5);
    a dash for none."""
    return "\u2013" if value is None else points_words(value)  # an en dash, as the pages
