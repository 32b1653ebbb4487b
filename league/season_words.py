"""A league's season format in the page's language: "best 8 of 12 nights; 4-2-1-0
at tables of four; at least 6 games to qualify".

:func:`league.season.season_in_words` says it in English for the downloads, the
webhooks and the API (and stays free of Django); the pages read it from here,
the same parts in the same order, each counted with ``ngettext`` (Ukrainian and
Czech have three plural forms) and each number written as the language writes
it (Czech 2,5).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsFloat

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext


def points_words(value: SupportsFloat) -> str:
    """Points as the page's language writes them: 4, 2.5, 1.33 (Czech 2,5, 1,33);
    two decimals at most, as :func:`league.season.points_in_words`."""
    number = round(float(value), 2)
    return number_format(int(number) if number.is_integer() else number)


def size_words(size: int) -> str:
    """A table size in words, as "tables of four" names it (a number past six)."""
    words = {
        2: pgettext("tables of", "two"),
        3: pgettext("tables of", "three"),
        4: pgettext("tables of", "four"),
        5: pgettext("tables of", "five"),
        6: pgettext("tables of", "six"),
    }
    return words.get(size, str(size))


def season_words(
    season: Mapping[str, Any] | None, *, nights: int | None = None, first: int | None = None
) -> str:
    """The season format in a line, in the page's language: the parts of
    :func:`league.season.season_in_words`, ``nights`` and ``first`` as there."""
    if season is None:
        return _("ranked by wins, then average place")
    best = season.get("best_nights")
    if best is None:
        parts = [_("points every night")]
    elif nights is None:
        parts = [ngettext("best %(best)d night", "best %(best)d nights", best) % {"best": best}]
    else:
        parts = [
            ngettext(
                "best %(best)d of %(nights)d night", "best %(best)d of %(nights)d nights", nights
            )
            % {"best": best, "nights": nights}
        ]
    points = season["points_by_place"]
    # the preferred size first, as a club reads its format; then the largest first
    for size in sorted(points, key=lambda size: (int(size) != first, -int(size))):
        places = "-".join(points_words(p) for p in points[size])
        # Translators: "4-2-1-0 at tables of four": the points of each place, first place first.
        parts.append(
            _("%(places)s at tables of %(size)s")
            % {"places": places, "size": size_words(int(size))}
        )
    games = season.get("min_games") or 0
    if games:
        parts.append(
            ngettext(
                "at least %(games)d game to qualify", "at least %(games)d games to qualify", games
            )
            % {"games": games}
        )
    return "; ".join(parts)


def season_order_in_language(season: Mapping[str, Any] | None) -> str | None:
    """The order of a season's standings in a line, in the active language (``None``:
    today's order, which the pages say in their own words)."""
    if season is None:
        return None
    if season.get("min_games"):
        return _(
            "Ordered by season points, then average place, then wins, then head to head "
            "(the tied players' games together), then name; players not yet qualified come "
            "after those qualified."
        )
    return _(
        "Ordered by season points, then average place, then wins, then head to head "
        "(the tied players' games together), then name."
    )
