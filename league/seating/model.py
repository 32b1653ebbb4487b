"""The value objects of the seating generator: what goes in and what comes out."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)
"""A player id: anything hashable (the league passes ``Player`` primary keys)."""


class Method(StrEnum):
    """How players are grouped at tables.

    - ``random``: a seeded draw; only keep-apart pairs and pins are honoured (the
      repeats are reported and priced, not avoided).
    - ``balanced`` (the default): the fewest repeat meetings, weighted by
      :class:`Weights`.
    - ``swiss``: players grouped with their neighbours in the given ranking
      (tonight's standing, then the league's), and within that the fewest repeats.
    - ``rating``: players grouped by the given rating order, repeats only breaking
      ties.
    """

    RANDOM = "random"
    BALANCED = "balanced"
    SWISS = "swiss"
    RATING = "rating"


@dataclass(frozen=True)
class Weights:
    """The cost of a seating, in whole points (so costs add up exactly).

    A pair at the same table who met earlier in this event (a round in the history
    with ``events_ago == 0``, or an earlier round of the same plan) costs ``tonight``
    (100), and ``again`` (10) more for each further earlier meeting tonight: a pair's
    second meeting of the night costs 100, its third 110, its fourth 120. So the
    search first seats the fewest repeat meetings (what players notice and what
    Pantheon counts), and among seatings with as many, spreads them over more pairs.

    On top of that, for each time they met at an earlier event, a pair costs
    ``previous_event`` (20) for the last event, halved (rounded down) for each event
    further back, never below ``floor`` (1): 20, 10, 5, 2, 1, 1, ... These add up
    over every earlier meeting, so across a season the meetings spread evenly.

    A keep-apart pair at one table costs ``keep_apart`` (1,000,000): more than any
    number of repeats, so it happens only where no seating avoids it.

    ``swiss`` and ``rating`` add, for each table, ``swiss_step`` (30) or
    ``rating_step`` (1,000) points per place of spread beyond the tightest: a table
    of ranks 5, 6, 7, 8 costs nothing, 5, 6, 7, 10 costs two steps. So a swiss table
    takes in a player three places away rather than let a pair meet again tonight,
    while a rating table gives up grouping only for keep-apart pairs.
    """

    tonight: int = 100
    again: int = 10
    previous_event: int = 20
    floor: int = 1
    keep_apart: int = 1_000_000
    swiss_step: int = 30
    rating_step: int = 1_000

    def meeting(self, events_ago: int) -> int:
        """The cost of one earlier meeting ``events_ago`` (at least 1) events back.

        >>> [Weights().meeting(k) for k in range(1, 7)]
        [20, 10, 5, 2, 1, 1]
        """
        return max(self.floor, self.previous_event >> (max(1, events_ago) - 1))

    def meeting_tonight(self, earlier: int) -> int:
        """The cost of a meeting of a pair who met ``earlier`` times before tonight.

        >>> [Weights().meeting_tonight(k) for k in range(4)]
        [0, 100, 110, 120]
        """
        return 0 if earlier <= 0 else self.tonight + self.again * (earlier - 1)

    def spread_step(self, method: Method) -> int:
        """The cost of a place of spread under ``method`` (0 unless swiss or rating)."""
        return {Method.SWISS: self.swiss_step, Method.RATING: self.rating_step}.get(method, 0)


@dataclass(frozen=True)
class PastRound(Generic[P]):
    """A round already played: its tables (players, any order) and who sat out.

    ``events_ago`` is 0 for a round of this event (tonight), 1 for the last event,
    and so on. A history is a sequence of these, oldest first; players not present
    now are ignored."""

    tables: tuple[tuple[P, ...], ...]
    sit_out: tuple[P, ...] = ()
    events_ago: int = 0


@dataclass(frozen=True)
class Search:
    """The effort of the search: at most ``iterations`` swaps per restart (``None``:
    an amount scaled to the problem, see :func:`~league.seating.plan_night`) and
    ``restarts`` fresh starts after the first; it stops early at zero cost. The
    effort is counted in swaps, not time, so a plan does not depend on the machine."""

    iterations: int | None = None
    restarts: int = 1


@dataclass(frozen=True)
class Table(Generic[P]):
    """A table: its ``players`` in seat order and the seat (0-based index into
    ``players``) of the first dealer."""

    players: tuple[P, ...]
    first_dealer: int


@dataclass(frozen=True)
class Repeat(Generic[P]):
    """A pair seated together who met before: ``tonight`` times earlier this event
    (history and earlier rounds of the plan), ``earlier_events`` times at earlier
    events; ``cost`` is what their meeting adds (keep-apart excluded)."""

    players: tuple[P, P]
    tonight: int
    earlier_events: int
    cost: int


@dataclass(frozen=True)
class Cost:
    """A seating's cost by term, in :class:`Weights` points."""

    repeats: int = 0
    keep_apart: int = 0
    spread: int = 0

    @property
    def total(self) -> int:
        """The sum of the terms, which the search minimises."""
        return self.repeats + self.keep_apart + self.spread

    def __add__(self, other: Cost) -> Cost:
        return Cost(
            self.repeats + other.repeats,
            self.keep_apart + other.keep_apart,
            self.spread + other.spread,
        )


@dataclass(frozen=True)
class RoundSeating(Generic[P]):
    """One round: ``tables`` (largest first), ``sit_out`` (Buck Euchre's leftover
    players, in the order players were given), the ``repeats`` seated (pairs in the
    order players were given), the keep-apart pairs seated together despite it
    (only where no seating avoids it) and the round's ``cost``."""

    tables: tuple[Table[P], ...]
    sit_out: tuple[P, ...]
    repeats: tuple[Repeat[P], ...]
    kept_apart_together: tuple[tuple[P, P], ...]
    cost: Cost

    @property
    def repeat_count(self) -> int:
        """Pairs seated together this round who had met before."""
        return len(self.repeats)


@dataclass(frozen=True)
class Plan(Generic[P]):
    """A night's rounds in order, with the method and seed that made them; ``cost``
    is the sum of the rounds' costs."""

    rounds: tuple[RoundSeating[P], ...]
    method: Method
    seed: int

    @property
    def cost(self) -> Cost:
        """The rounds' costs added up."""
        total = Cost()
        for seating in self.rounds:
            total = total + seating.cost
        return total

    @property
    def repeat_count(self) -> int:
        """Meetings over the night of pairs who had met before (in the history or an
        earlier round): a pair at one table in three rounds counts 2 (or 3 if they
        met in the history)."""
        return sum(seating.repeat_count for seating in self.rounds)
