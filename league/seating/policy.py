"""How many tables a round has and how large they are: :class:`TablePolicy`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

from league.seating.errors import SeatingError

GAMES: tuple[str, ...] = ("bluke", "buck_euchre")
"""The games, named as :mod:`games.rules` names them."""

MIN_SIZE, MAX_SIZE = 3, 6
"""The sizes a Bluke table may have."""


@dataclass(frozen=True)
class TablePolicy:
    """The table sizes of a game.

    ``buck_euchre``: tables of exactly 4, whoever is left over sits out.

    ``bluke``: tables of the preferred ``size`` (3 to 6, default 4), and nobody sits
    out while 3 or more are present. The remainder is spread as tables of one fewer
    (``spill="smaller"``, the default) or one more (``spill="larger"``):
    11 → 4+4+3; 13 → 4+3+3+3, or 5+4+4 when larger. Where that cannot be done
    (preferred 6 and 7 present: 5+... would need tables of 2; preferred 3 and
    "smaller"), the sizes are the closest to the preferred size within 3..6: as even
    as possible, the least total difference from ``size``, then the fewest tables
    that differ from it, then the spill direction's side. Tables are listed largest
    first.

    >>> TablePolicy("bluke").table_sizes(13)
    (4, 3, 3, 3)
    >>> TablePolicy("bluke", spill="larger").table_sizes(13)
    (5, 4, 4)
    >>> TablePolicy("buck_euchre").table_sizes(11)
    (4, 4)
    """

    game: str
    size: int = 4
    spill: Literal["smaller", "larger"] = "smaller"

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise SeatingError(
                "bad_table_size",
                f"unknown game {self.game!r}; one of {GAMES}",
                size=self.size,
                facts={"reason": "game", "game": repr(self.game), "games": str(GAMES)},
            )
        if self.spill not in ("smaller", "larger"):
            raise SeatingError(
                "bad_table_size",
                f"spill is 'smaller' or 'larger', not {self.spill!r}",
                facts={"reason": "spill", "spill": repr(self.spill)},
            )
        if self.game == "buck_euchre" and self.size != 4:
            raise SeatingError(
                "bad_table_size",
                "Buck Euchre is played four to a table",
                size=self.size,
                facts={"reason": "buck_euchre"},
            )
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise SeatingError(
                "bad_table_size",
                f"a Bluke table seats {MIN_SIZE} to {MAX_SIZE}, not {self.size}",
                size=self.size,
                facts={"reason": "bluke", "least": MIN_SIZE, "most": MAX_SIZE},
            )

    @property
    def min_players(self) -> int:
        """The fewest present for one table: 4 for Buck Euchre, 3 for Bluke."""
        return 4 if self.game == "buck_euchre" else MIN_SIZE

    def table_sizes(self, present: int) -> tuple[int, ...]:
        """The table sizes for ``present`` players, largest first; their sum is the
        number seated (all of them for Bluke; a multiple of 4 for Buck Euchre).

        Raises :class:`SeatingError` ``too_few_players`` below :attr:`min_players`."""
        if present < self.min_players:
            raise SeatingError(
                "too_few_players",
                f"{present} present; a {self.game} table needs {self.min_players}",
                facts={"present": present, "game": self.game, "least": self.min_players},
            )
        if self.game == "buck_euchre":
            return (4,) * (present // 4)
        return _bluke_sizes(present, self.size, self.spill)

    def sizes_drawn(self) -> dict[int, int]:
        """Every table size a round is ever drawn with, each with the fewest present
        who are drawn a table of that size, smallest size first: what a league's
        rule options must suit (a preferred 4 still draws a table of 5 when exactly
        5 come).

        >>> TablePolicy("bluke").sizes_drawn()
        {3: 3, 4: 4, 5: 5}
        >>> TablePolicy("bluke", size=4, spill="larger").sizes_drawn()
        {3: 3, 4: 4, 5: 5, 6: 6}
        >>> TablePolicy("buck_euchre").sizes_drawn()
        {4: 4}
        """
        return dict(_sizes_drawn(self))


SIZES_SEEN_BY: int = 10 * MAX_SIZE
"""Present counts up to this one show every table size a policy draws: beyond a
few tables' worth of players, a count is drawn as tables of the sizes a smaller
count has already shown (tests/seating checks every count to 600, every policy)."""


@cache
def _sizes_drawn(policy: TablePolicy) -> tuple[tuple[int, int], ...]:
    first: dict[int, int] = {}
    for present in range(policy.min_players, SIZES_SEEN_BY + 1):
        for size in policy.table_sizes(present):
            first.setdefault(size, present)
    return tuple(sorted(first.items()))


def _bluke_sizes(n: int, size: int, spill: str) -> tuple[int, ...]:
    step = -1 if spill == "smaller" else 1
    other = size + step
    if MIN_SIZE <= other <= MAX_SIZE:
        # Tables of `size` and `other` only: t tables, k of them `other`.
        tables = -(-n // size) if step < 0 else n // size
        if tables:
            k = (tables * size - n) if step < 0 else (n - tables * size)
            if 0 <= k <= tables:
                return tuple(sorted([size] * (tables - k) + [other] * k, reverse=True))
    if n % size == 0:
        return (size,) * (n // size)
    best: tuple[tuple[int, int, int], tuple[int, ...]] | None = None
    for tables in range(-(-n // MAX_SIZE), n // MIN_SIZE + 1):
        low, extra = divmod(n, tables)
        sizes = [low + 1] * extra + [low] * (tables - extra)
        if sizes[-1] < MIN_SIZE or sizes[0] > MAX_SIZE:
            continue
        off = [abs(s - size) for s in sizes]
        side = 0 if (sizes[0] - size) * step >= 0 and (sizes[-1] - size) * step >= 0 else 1
        key = (sum(off), sum(1 for o in off if o), side)
        if best is None or key < best[0]:
            best = (key, tuple(sizes))
    assert best is not None  # any n >= 3 splits into tables of 3 to 5
    return best[1]
