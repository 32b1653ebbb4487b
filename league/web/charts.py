"""Rating history charts, drawn on the server as inline SVG.

A chart is plain markup (no JavaScript, nothing fetched), so it shows on
any phone and prints; its title and a text summary make it readable to
screen readers. The functions here are pure: points in, markup out. Its
words (the legend, the axis, the summary) are in the reader's language; its
coordinates stay machine numbers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.rating_words import decimal

WIDTH: Final = 400
HEIGHT: Final = 262
"""The viewBox: small enough that 13-unit text stays legible at 375 px wide."""

LEFT: Final = 60
RIGHT: Final = 14
TOP: Final = 34
BOTTOM: Final = 44
"""Margins around the plot area, room for the legend, the tick labels and axis titles."""
LEGEND_Y: Final = 14
"""Where the legend's line of text sits, above the plot."""

LINE: Final = "#1d4f91"
BAND: Final = "#9bb8de"
INK: Final = "#333333"
GRID: Final = "#d6d6d6"


@dataclass(frozen=True)
class Point:
    """A rating after ``games`` games: its value and the uncertainty (sigma)."""

    games: int
    value: float
    sigma: float


MOST_POINTS: Final = 200
"""The most points a chart draws: a player with thousands of games still gets a small page."""
LATEST_POINTS: Final = 100
"""The latest games of a thinned chart, every one of them drawn."""


@dataclass(frozen=True)
class Summary:
    """What a chart shows, in words: the first, last, best and lowest values."""

    first: Point
    last: Point
    best: Point
    lowest: Point


def usable(points: Iterable[Point]) -> list[Point]:
    """The points a chart can draw, in the order of games: those whose value
    and sigma are finite numbers (anything else is left out, not drawn wrong)."""
    return sorted(
        (p for p in points if math.isfinite(p.value) and math.isfinite(p.sigma)),
        key=lambda p: p.games,
    )


def summarise(points: Iterable[Point]) -> Summary | None:
    """The text alternative's figures (``None`` for an empty history).

    The best and the lowest are the earliest such point, so a value reached
    again later does not move them."""
    points = usable(points)
    if not points:
        return None
    return Summary(
        first=points[0],
        last=points[-1],
        best=max(points, key=lambda p: (p.value, -p.games)),
        lowest=min(points, key=lambda p: (p.value, p.games)),
    )


def thin(
    points: Iterable[Point], *, most: int = MOST_POINTS, latest: int = LATEST_POINTS
) -> list[Point]:
    """At most ``most`` of the :func:`usable` points, in the order of games: all
    of them when they are that few; else every one of the ``latest`` last
    games, the older ones evenly spaced from the first, and the highest and
    the lowest (which :func:`describe` names), so the line still reaches them.

    >>> history = [Point(n, float(n % 7), 1.0) for n in range(1, 3001)]
    >>> drawn = thin(history)
    >>> len(drawn), drawn[0].games, drawn[-1].games
    (200, 1, 3000)
    >>> all(p in drawn for p in history[-100:])
    True
    >>> thin(history[:150]) == history[:150]
    True
    """
    points = usable(points)
    if len(points) <= most:
        return points
    older = len(points) - latest
    summary = summarise(points)
    assert summary is not None
    extremes = {points.index(summary.best), points.index(summary.lowest)}
    # the first of the older games always, the last of them too when there is room
    spaced = max(most - latest - len(extremes), 2)
    kept = {round(n * (older - 1) / (spaced - 1)) for n in range(spaced)}
    kept |= extremes | set(range(older, len(points)))
    return [points[n] for n in sorted(kept)]


def describe(summary: Summary | None, *, value_name: str | None = None) -> str:
    """The chart in one sentence, for its ``<desc>`` and for the page text:
    the first and last values, the highest and the lowest, at one decimal as
    the page's words give them. ``value_name`` names something else than the
    rating (a name of the API's, left untranslated)."""
    if summary is None:
        return _("No rating yet.") if value_name is None else f"No {value_name} yet."

    def at(point: Point) -> str:
        return ngettext(
            "%(value)s after %(games)s game", "%(value)s after %(games)s games", point.games
        ) % {"value": decimal(point.value), "games": point.games}

    first, last = at(summary.first), at(summary.last)
    if value_name is None:
        if summary.first == summary.last:
            return _("Rating %(first)s.") % {"first": first}
        return _("Rating %(first)s, %(last)s; highest %(best)s, lowest %(lowest)s.") % {
            "first": first,
            "last": last,
            "best": at(summary.best),
            "lowest": at(summary.lowest),
        }
    name = value_name[:1].upper() + value_name[1:]
    if summary.first == summary.last:
        return f"{name} {first}."
    return f"{name} {first}, {last}; highest {at(summary.best)}, lowest {at(summary.lowest)}."


def nice_step(raw: float) -> float:
    """The smallest of 1, 2, 5 times a power of ten that is at least ``raw`` (> 0)."""
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))


def nice_ticks(low: float, high: float, *, count: int = 5, step_at_least: float = 0) -> list[float]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) from at or
    below ``low`` to at or above ``high``, about ``count`` of them.

    >>> nice_ticks(17.2, 33.9)
    [15.0, 20.0, 25.0, 30.0, 35.0]
    >>> nice_ticks(24.0, 24.0)
    [23.0, 23.5, 24.0, 24.5, 25.0]
    >>> nice_ticks(0, 3, count=6, step_at_least=1)
    [0.0, 1.0, 2.0, 3.0]
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError("ticks need finite bounds")
    low, high = min(low, high), max(low, high)
    if high == low:  # a flat line still gets an axis around it
        low, high = low - 1, high + 1
    step = max(nice_step((high - low) / max(count - 1, 1)), step_at_least)
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    return [round(n * step, 10) + 0.0 for n in range(first, last + 1)]


def _label(value: float) -> str:
    """A tick label: at most one decimal, none when it is ``.0``."""
    return f"{value:.1f}".removesuffix(".0")


def rating_chart(
    points: Iterable[Point],
    *,
    chart_id: str,
    title: str,
    description: str,
    value_label: str | None = None,
) -> SafeString:
    """An SVG line chart of ``points``: the value as a line, value ± sigma
    as a shaded band, games played along the x axis, ticks on both axes, and a
    legend above the plot saying which is which.

    ``chart_id`` prefixes the ids of the title and description elements
    (it must be unique in the page); ``title`` and ``description`` become
    the chart's accessible name and description. All text is escaped.
    Points that are not finite numbers are left out rather than break the
    page; with nothing left the result is empty: the page says so in words.
    A long history is thinned (:func:`thin`): at most :data:`MOST_POINTS`
    are drawn.
    """
    points = thin(points)
    if not points:
        return mark_safe("")
    if value_label is None:
        value_label = _("Rating")
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    bottom = TOP + plot_h

    low = min(p.value - abs(p.sigma) for p in points)
    high = max(p.value + abs(p.sigma) for p in points)
    if high - low < 1:  # the axis spans a unit at least, so one-decimal labels differ
        middle = (low + high) / 2
        low, high = middle - 0.5, middle + 0.5
    y_ticks = nice_ticks(low, high)
    y_low, y_high = y_ticks[0], y_ticks[-1]
    x_ticks = nice_ticks(0, max(max(p.games for p in points), 1), count=6, step_at_least=1)
    x_high = x_ticks[-1]

    def x(games: float) -> str:
        return f"{LEFT + plot_w * max(games, 0) / x_high:.1f}"

    def y(value: float) -> str:
        return f"{TOP + plot_h * (y_high - value) / (y_high - y_low):.1f}"

    line = " ".join(f"{x(p.games)},{y(p.value)}" for p in points)
    upper = [f"{x(p.games)},{y(p.value + abs(p.sigma))}" for p in points]
    lower = [f"{x(p.games)},{y(p.value - abs(p.sigma))}" for p in reversed(points)]
    last = points[-1]
    if len(points) > 1:
        band = format_html(
            '<polygon class="chart-band" points="{}" fill="{}" fill-opacity="0.45"/>',
            " ".join(upper + lower),
            BAND,
        )
    else:  # one game: the band is a bar
        band = format_html(
            '<line class="chart-band" x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="{}" '
            'stroke-width="6"/>',
            y(last.value + abs(last.sigma)),
            y(last.value - abs(last.sigma)),
            BAND,
            x=x(last.games),
        )
    y_axis = format_html_join(
        "",
        '<line x1="{left}" y1="{y}" x2="{right}" y2="{y}" stroke="{grid}"/>'
        '<text x="{at}" y="{y}" dy="0.35em" text-anchor="end">{label}</text>',
        (
            {"left": LEFT, "right": WIDTH - RIGHT, "grid": GRID, "at": LEFT - 6}
            | {"y": y(tick), "label": _label(tick)}
            for tick in y_ticks
        ),
    )
    x_axis = format_html_join(
        "",
        '<line x1="{x}" y1="{bottom}" x2="{x}" y2="{tick}" stroke="{ink}"/>'
        '<text x="{x}" y="{at}" text-anchor="middle">{label}</text>',
        (
            {"x": x(t), "bottom": bottom, "tick": bottom + 5, "ink": INK, "at": bottom + 18}
            | {"label": int(t)}
            for t in x_ticks
        ),
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-labelledby="{id}-title" '
        'aria-describedby="{id}-desc" font-size="13" fill="{ink}">'
        '<title id="{id}-title">{title}</title><desc id="{id}-desc">{description}</desc>'
        '<g class="chart-legend" font-size="12">'
        '<line x1="{left}" y1="{legend_mark}" x2="{legend_line_end}" y2="{legend_mark}" '
        'stroke="{stroke}" stroke-width="2.5"/>'
        '<text x="{legend_line_text}" y="{legend_y}">{legend_line}</text>'
        '<rect x="{legend_band_x}" y="{legend_band_top}" width="18" height="10" fill="{band_fill}" '
        'fill-opacity="0.45"/>'
        '<text x="{legend_band_text}" y="{legend_y}">{legend_band}</text></g>'
        "{y_axis}{band}"
        '<polyline class="chart-line" points="{line}" fill="none" stroke="{stroke}" '
        'stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"/>'
        '<circle class="chart-last" cx="{last_x}" cy="{last_y}" r="4" fill="{stroke}"/>'
        '<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="{ink}"/>'
        '<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="{ink}"/>'
        "{x_axis}"
        '<text x="{x_mid}" y="{x_title}" text-anchor="middle">{games_played}</text>'
        '<text transform="translate(16 {y_mid}) rotate(-90)" text-anchor="middle">'
        "{value_label}</text></svg>",
        w=WIDTH,
        h=HEIGHT,
        id=chart_id,
        ink=INK,
        title=title,
        description=description,
        y_axis=y_axis,
        band=band,
        line=line,
        stroke=LINE,
        last_x=x(last.games),
        last_y=y(last.value),
        left=LEFT,
        right=WIDTH - RIGHT,
        top=TOP,
        bottom=bottom,
        x_axis=x_axis,
        x_mid=LEFT + plot_w // 2,
        x_title=HEIGHT - 8,
        y_mid=TOP + plot_h // 2,
        value_label=value_label,
        games_played=_("Games played"),
        legend_y=LEGEND_Y,
        legend_mark=LEGEND_Y - 4,
        legend_line_end=LEFT + 18,
        legend_line_text=LEFT + 24,
        # Translators: the chart's legend: the line is the rating the leaderboard shows
        legend_line=_("Rating on the board"),
        legend_band_x=LEFT + 176,
        legend_band_top=LEGEND_Y - 9,
        legend_band_text=LEFT + 200,
        band_fill=BAND,
        # Translators: the chart's legend: the shaded band around the line
        legend_band=_("± uncertainty"),
    )
