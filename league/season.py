"""A league's season format: points for places, a player's best nights, the
games to qualify, and the order of a season's standings.

Pure Python (no Django), like :mod:`league.rating_model`: the standings
(:mod:`league.standings`) and the services (:mod:`league.services.fixtures`)
build on it. A league's ``season`` is ``None`` (today's order: wins, then the
average place) or, as the API takes and shows it::

    {"points_by_place": {"3": [3, 1, 0], "4": [4, 2, 1, 0], ...},
     "best_nights": null | N, "min_games": M}

- **Points for places.** Each table size the league can seat has a list of
  points, one a place. Players who tie at a table share the places they span
  and the points of those places, averaged: two tied for first at a table of
  four scored 4-2-1-0 get (4 + 2) / 2 = 3 each.
- **A night's points** are the sum of its games' points. With ``best_nights``
  N only a player's best N nights count; ``nights_counted`` says how many do.
- **Qualifying.** A player with fewer than ``min_games`` complete games is not
  yet qualified: ranked after every qualified player, listed apart.
- **The order**, with its tie-breaks: qualified first; more season points;
  the better average place; more wins; then head to head between exactly the
  players still tied (in the games where two or more of them sat at one
  table, how many of the others each finished ahead of); then the name.

Arithmetic is exact (:class:`fractions.Fraction`) until a total is stored as a
float, so that equal totals compare equal whatever order they were added in.

>>> fmt = SeasonFormat.from_json({"points_by_place": {"4": [4, 2, 1, 0]},
...     "best_nights": 2, "min_games": 3})
>>> float(fmt.seat_points(size=4, place=1, tied=2))  # two share first
3.0
>>> season_in_words(fmt.to_json(), nights=12)
'best 2 of 12 nights; 4-2-1-0 at tables of four; at least 3 games to qualify'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, SupportsFloat, TypedDict, TypeVar

from league.errors import ServiceError

SEAT_SIZES: Final[dict[str, tuple[int, ...]]] = {
    "bluke": (3, 4, 5, 6),
    "buck_euchre": (4,),
}
"""The table sizes a league of each game seats when its rounds are drawn or
adjusted (the seating generator's sizes, :mod:`league.seating.policy`, whatever
the preferred size and spill: a Bluke draw or a move by hand makes any of 3 to
6). A season format gives points for every one of them."""

OTHER_SIZES: Final[dict[str, tuple[int, ...]]] = {
    "bluke": (2, *range(7, 16)),
    "buck_euchre": (),
}
"""Further sizes a format may give points for: those of a table made by hand
(the engine seats 2 to 15 at Bluke). A game at a table of a size the format
has no points for earns none (it counts as a game, a win and a place)."""

FORMAT_KEYS: Final = ("points_by_place", "best_nights", "min_games")
MAX_POINTS: Final = 1_000_000
"""The most points a place may be given: far beyond any club's table, and
small enough that a season's sum stays exact as a float."""
MAX_NIGHTS: Final = 10_000
MAX_GAMES: Final = 100_000

SIZE_WORDS: Final = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}

TODAYS_ORDER: Final = "ranked by wins, then average place"
"""A league without a season format, in words."""


class SeasonJson(TypedDict):
    """A season format as :func:`season_check` stores it and the API shows it:
    points a place by table size (sizes as strings, in order), the best nights
    that count (``None``: every night), the games to qualify."""

    points_by_place: dict[str, list[int | float]]
    best_nights: int | None
    min_games: int


def _points(value: int | float) -> Fraction:
    """A JSON number as an exact fraction, a float by its decimal digits (2.5 is
    5/2, 0.1 is 1/10), so that the sums are those the organiser wrote."""
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(repr(value))


@dataclass(frozen=True)
class SeasonFormat:
    """A checked season format (:func:`season_check` makes one from JSON)."""

    points_by_place: Mapping[int, tuple[Fraction, ...]]
    best_nights: int | None
    min_games: int

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> SeasonFormat:
        """A format from its stored JSON (already checked)."""
        return cls(
            points_by_place={
                int(size): tuple(_points(p) for p in points)
                for size, points in value["points_by_place"].items()
            },
            best_nights=value.get("best_nights"),
            min_games=int(value.get("min_games") or 0),
        )

    def to_json(self) -> SeasonJson:
        return {
            "points_by_place": {
                str(size): [_number(p) for p in points]
                for size, points in sorted(self.points_by_place.items())
            },
            "best_nights": self.best_nights,
            "min_games": self.min_games,
        }

    def seat_points(self, *, size: int, place: int, tied: int) -> Fraction:
        """The points of a seat placed ``place`` at a table of ``size``, which
        ``tied`` players share (1: alone): the mean of the points of the places
        it spans, ``place`` to ``place + tied - 1``. Nothing (0) at a table of a
        size the format gives no points for.

        >>> fmt = SeasonFormat({3: (Fraction(3), Fraction(1), Fraction(0))}, None, 0)
        >>> fmt.seat_points(size=3, place=2, tied=2), fmt.seat_points(size=3, place=1, tied=3)
        (Fraction(1, 2), Fraction(4, 3))
        >>> fmt.seat_points(size=5, place=1, tied=1)
        Fraction(0, 1)
        """
        points = self.points_by_place.get(size)
        if not points:
            return Fraction(0)
        spanned = points[place - 1 : place - 1 + tied]
        return sum(spanned, Fraction(0)) / tied if spanned else Fraction(0)

    def counted(self, nights: Iterable[Fraction]) -> tuple[Fraction, int]:
        """A player's season points from their nights' points, and how many
        nights count: the best ``best_nights`` of them, or all.

        >>> SeasonFormat({}, 2, 0).counted([Fraction(1), Fraction(5), Fraction(3)])
        (Fraction(8, 1), 2)
        """
        ordered = sorted(nights, reverse=True)
        if self.best_nights is not None:
            ordered = ordered[: self.best_nights]
        return sum(ordered, Fraction(0)), len(ordered)


def _number(value: Fraction) -> int | float:
    """A fraction as JSON shows it: a whole number as an int."""
    return int(value) if value.denominator == 1 else float(value)


class SeasonRefused(ServiceError):
    """A season format refused, as data for the services to word in the request's
    language (this module is pure, so its ``message`` is English): ``rule`` says
    which rule refused it and ``facts`` its numbers and names (``size``, ``place``,
    ``sizes``...). ``code`` stays unset, as the API has always answered these.
    See :func:`league.services.fixtures.season_refusal_words`."""

    def __init__(self, message: str, *, field: str, rule: str, **facts: object) -> None:
        super().__init__(message, field=field)
        self.rule = rule
        self.facts = facts


def season_check(*, game: str, season: object) -> SeasonJson | None:
    """The season format ``season`` (JSON, as the API takes it) checked for a
    league of ``game``, in its stored form (sizes in order, numbers as sent);
    ``None`` for today's order. A :class:`ServiceError` names the part at fault
    (``season.points_by_place.4``, ``season.best_nights``...) and changes
    nothing.

    >>> season_check(game="buck_euchre", season={"points_by_place": {"4": [4, 2, 1, 0]},
    ...     "best_nights": None, "min_games": 0})
    {'points_by_place': {'4': [4, 2, 1, 0]}, 'best_nights': None, 'min_games': 0}
    >>> try:
    ...     season_check(game="buck_euchre", season={"points_by_place": {"4": [4, 2, 3, 0]}})
    ... except ServiceError as error:
    ...     print(error.field)
    ...     print(error.message.split(": ")[1])
    season.points_by_place.4
    place 3 has more than place 2
    """
    if season is None:
        return None
    if not isinstance(season, Mapping):
        raise SeasonRefused(
            "season is an object with points_by_place, best_nights and min_games, or null",
            field="season",
            rule="season-not-object",
        )
    unknown = sorted(str(key) for key in season if key not in FORMAT_KEYS)
    if unknown:
        raise SeasonRefused(
            f"unknown in season: {', '.join(unknown)}; it takes {', '.join(FORMAT_KEYS)}",
            field=f"season.{unknown[0]}",
            rule="season-unknown",
            unknown=", ".join(unknown),
            takes=", ".join(FORMAT_KEYS),
        )
    points = _check_points(game, season.get("points_by_place"))
    best_nights = season.get("best_nights")
    if best_nights is not None and not _whole(best_nights, 1, MAX_NIGHTS):
        raise SeasonRefused(
            f"best_nights is a whole number of nights from 1 to {MAX_NIGHTS}, or null "
            "for every night",
            field="season.best_nights",
            rule="best-nights",
            most=MAX_NIGHTS,
        )
    min_games = season.get("min_games", 0)
    if not _whole(min_games, 0, MAX_GAMES):
        raise SeasonRefused(
            f"min_games is a whole number of games from 0 to {MAX_GAMES}",
            field="season.min_games",
            rule="min-games",
            most=MAX_GAMES,
        )
    return {"points_by_place": points, "best_nights": best_nights, "min_games": min_games}


def _whole(value: object, low: int, high: int) -> bool:
    """A JSON whole number within bounds (not a boolean, not 2.0)."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _check_points(game: str, given: object) -> dict[str, list[int | float]]:
    field = "season.points_by_place"
    needed = SEAT_SIZES[game]
    allowed = (*needed, *OTHER_SIZES[game])
    sizes_in_words = ", ".join(map(str, needed))
    if not isinstance(given, Mapping):
        raise SeasonRefused(
            f"points_by_place gives a list of points for each table size ({sizes_in_words}), "
            'by size: {"4": [4, 2, 1, 0], ...}',
            field=field,
            rule="points-not-by-size",
            sizes=sizes_in_words,
        )
    by_size: dict[int, object] = {}
    for key, points in given.items():
        size = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() else None
        if size is None or size not in allowed:
            raise SeasonRefused(
                f"{key!r} is not a table size of this game's league; the sizes are "
                f"{', '.join(map(str, allowed))}",
                field=f"{field}.{key}",
                rule="points-size-unknown",
                key=repr(key),
                sizes=", ".join(map(str, allowed)),
            )
        by_size[size] = points
    missing = [size for size in needed if size not in by_size]
    if missing:
        raise SeasonRefused(
            f"points_by_place has no points for tables of {', '.join(map(str, missing))}: the "
            f"league seats tables of {sizes_in_words} when it draws a round",
            field=f"{field}.{missing[0]}",
            rule="points-size-missing",
            missing=", ".join(map(str, missing)),
            sizes=sizes_in_words,
        )
    checked: dict[str, list[int | float]] = {}
    for size in sorted(by_size):
        checked[str(size)] = _check_places(size, by_size[size], field=f"{field}.{size}")
    return checked


def _check_places(size: int, points: object, *, field: str) -> list[int | float]:
    """A table size's points: one finite number, 0 or more, a place, never rising."""
    if not isinstance(points, Sequence) or isinstance(points, str | bytes):
        raise SeasonRefused(
            f"the points of a table of {size} are a list of {size} numbers, one a place",
            field=field,
            rule="places-not-list",
            size=size,
        )
    if len(points) != size:
        raise SeasonRefused(
            f"a table of {size} has {size} places, so {size} numbers of points, not {len(points)}",
            field=field,
            rule="places-count",
            size=size,
            given=len(points),
        )
    for place, value in enumerate(points, start=1):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or not 0 <= value <= MAX_POINTS
        ):
            raise SeasonRefused(
                f"the points of place {place} at a table of {size} must be a number from 0 "
                f"to {MAX_POINTS}",
                field=field,
                rule="place-points-range",
                place=place,
                size=size,
                most=MAX_POINTS,
            )
    for place in range(1, size):
        if points[place] > points[place - 1]:
            raise SeasonRefused(
                f"the points of a table of {size} must not rise from one place to the next: "
                f"place {place + 1} has more than place {place}",
                field=field,
                rule="places-rise",
                size=size,
                place=place + 1,
                before=place,
            )
    return list(points)


# -- in words ----------------------------------------------------------------------------


def points_in_words(value: SupportsFloat) -> str:
    """A number of points as the pages write it: 4, 2.5, 1.33 (two decimals at most).

    >>> points_in_words(4.0), points_in_words(2.5), points_in_words(4 / 3)
    ('4', '2.5', '1.33')
    """
    number = round(float(value), 2)
    return str(int(number)) if number.is_integer() else f"{number:g}"


def season_in_words(
    season: Mapping[str, Any] | None, *, nights: int | None = None, first: int | None = None
) -> str:
    """A league's season format in a line, as the pages, downloads and
    webhooks show it; ``nights``, when known, is how many game nights the
    season has (finals aside); ``first``, the table size to name first (the
    league's preferred size), then the others, the largest first.

    >>> season_in_words(None)
    'ranked by wins, then average place'
    >>> print(season_in_words({"points_by_place": {"3": [3, 1, 0], "4": [4, 2, 1, 0]},
    ...     "best_nights": 8, "min_games": 6}, nights=12, first=4).replace("; ", ";\\n"))
    best 8 of 12 nights;
    4-2-1-0 at tables of four;
    3-1-0 at tables of three;
    at least 6 games to qualify
    >>> season_in_words({"points_by_place": {"4": [3, 1.5, 0.5, 0]}, "best_nights": None,
    ...     "min_games": 1})
    'points every night; 3-1.5-0.5-0 at tables of four; at least 1 game to qualify'
    """
    if season is None:
        return TODAYS_ORDER
    best = season.get("best_nights")
    if best is None:
        parts = ["points every night"]
    elif nights is None:
        parts = [f"best {best} night{'s' if best != 1 else ''}"]
    else:
        parts = [f"best {best} of {nights} night{'s' if nights != 1 else ''}"]
    points = season["points_by_place"]
    # the preferred size first, as a club reads its format; then the largest first
    for size in sorted(points, key=lambda size: (int(size) != first, -int(size))):
        places = "-".join(points_in_words(p) for p in points[size])
        parts.append(f"{places} at tables of {SIZE_WORDS.get(int(size), size)}")
    games = season.get("min_games") or 0
    if games:
        parts.append(f"at least {games} game{'s' if games != 1 else ''} to qualify")
    return "; ".join(parts)


def season_order_in_words(season: Mapping[str, Any] | None) -> str | None:
    """The order of a season's standings in a line (``None``: today's order,
    which the pages say in their own words)."""
    if season is None:
        return None
    order = (
        "Ordered by season points, then average place, then wins, then head to head "
        "(the tied players' games together), then name"
    )
    if season.get("min_games"):
        return f"{order}; players not yet qualified come after those qualified."
    return f"{order}."


# -- the order ------------------------------------------------------------------------------


def season_key(row: Mapping[str, Any]) -> tuple[Any, ...]:
    """The order of a season's standings before head to head: qualified
    first, more points, the better average place, more wins."""
    return (
        not row["qualified"],
        -(row["season_points"] or 0.0),
        row["average_place"],
        -row["wins"],
    )


Row = TypeVar("Row", bound=Mapping[str, Any])


def season_ranked(
    rows: Sequence[Row], *, head_to_head: Callable[[list[list[int]]], Mapping[int, int]]
) -> list[Row]:
    """``rows`` (each with ``player_id``, ``name``, ``qualified``,
    ``season_points``, ``average_place``, ``wins``) in the season's order.
    ``head_to_head(groups)`` is called once, with the groups of player ids
    still tied after :func:`season_key` (none: not called), and answers each
    tied player's head-to-head score (players finished ahead of, among their
    group); ties after it go by name, then id.

    >>> rows = [dict(player_id=i, name=n, qualified=True, season_points=3.0,
    ...     average_place=2.0, wins=1) for i, n in ((1, "Bo"), (2, "Al"), (3, "Cy"))]
    >>> [r["name"] for r in season_ranked(rows, head_to_head=lambda groups: {3: 2, 1: 1})]
    ['Cy', 'Bo', 'Al']
    """
    by_key: dict[tuple[Any, ...], list[int]] = {}
    for row in rows:
        by_key.setdefault(season_key(row), []).append(row["player_id"])
    groups = [players for players in by_key.values() if len(players) > 1]
    scores: Mapping[int, int] = head_to_head(groups) if groups else {}
    return sorted(
        rows,
        key=lambda row: (
            *season_key(row),
            -scores.get(row["player_id"], 0),
            row["name"],
            row["player_id"],
        ),
    )


def head_to_head_scores(
    groups: Sequence[Sequence[int]], seats: Iterable[tuple[int, int, int]]
) -> dict[int, int]:
    """Each tied player's head-to-head score: over the games (``seats``: table
    id, player id, place) where two or more players of their group sat, how
    many of the others of the group they finished ahead of.

    >>> head_to_head_scores([[1, 2, 3]], [(10, 1, 1), (10, 2, 2), (10, 9, 3),
    ...     (11, 2, 1), (11, 3, 1)])
    {1: 1, 2: 0, 3: 0}
    """
    group_of = {player: n for n, players in enumerate(groups) for player in players}
    scores = {player: 0 for player in group_of}
    tables: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for table_id, player_id, place in seats:
        group = group_of.get(player_id)
        if group is not None:
            tables.setdefault((table_id, group), []).append((player_id, place))
    for met in tables.values():
        for player, place in met:
            scores[player] += sum(1 for _, other in met if place < other)
    return scores
