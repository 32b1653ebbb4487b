"""What the engine answers for a valid hand or game, as small dataclasses,
and the answer objects of :func:`games.check_record` as JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NotRequired, TypeAlias, TypedDict

from games.cards import Card, Suit


class HandAnswer(TypedDict):
    """A valid hand's answer (:meth:`HandResult.to_json`); ``winners`` for a
    move log, and the Buck Euchre fields for Buck Euchre."""

    ok: Literal[True]
    game: str
    trump: Suit | None
    tricks: list[int]
    points: list[int]
    winners: NotRequired[list[int]]
    maker: NotRequired[int | None]
    drops: NotRequired[list[int]]
    takes_all: NotRequired[int | None]


class GameAnswer(TypedDict):
    """A valid game's answer (:meth:`GameResult.to_json`)."""

    ok: Literal[True]
    game: str
    totals: list[int]
    complete: bool
    ranks: list[int] | None
    hands: list[HandAnswer]


class ErrorAnswer(TypedDict):
    """A refused record's answer: ``error`` is :meth:`RecordError.to_json`
    (``code``, where known ``hand``, ``play``, ``seat`` and ``card``, then
    ``message``)."""

    ok: Literal[False]
    error: dict[str, str | int]


Answer: TypeAlias = HandAnswer | GameAnswer | ErrorAnswer
"""The answer object for any record."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand's outcome. ``points`` is this hand's change to each seat's
    score (Buck Euchre counts down, so a good hand is negative); ``winners``
    is the seat that took each trick, known only from a move log."""

    game: str
    trump: Suit | None
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...] | None = None
    # Buck Euchre only:
    maker: int | None = None
    drops: tuple[int, ...] = ()
    takes_all: int | None = None

    def to_json(self) -> HandAnswer:
        # Suit is a str enum, so json.dumps writes the trump as its letter.
        out: HandAnswer = {
            "ok": True,
            "game": self.game,
            "trump": self.trump,
            "tricks": list(self.tricks),
            "points": list(self.points),
        }
        if self.winners is not None:
            out["winners"] = list(self.winners)
        if self.game == "buck_euchre":
            out["maker"] = self.maker
            out["drops"] = list(self.drops)
            out["takes_all"] = self.takes_all
        return out


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick of a replayed move log: the seat that led it, the cards in
    the order played with the seat that played each, and the seat that won."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """A game so far: running ``totals`` after the last hand, whether it is
    ``complete``, and ``ranks`` (1 = best, ties share) once it is."""

    game: str
    totals: tuple[int, ...]
    complete: bool
    ranks: tuple[int, ...] | None
    hands: tuple[HandResult, ...] = field(default=())

    def to_json(self) -> GameAnswer:
        return {
            "ok": True,
            "game": self.game,
            "totals": list(self.totals),
            "complete": self.complete,
            "ranks": list(self.ranks) if self.ranks is not None else None,
            "hands": [h.to_json() for h in self.hands],
        }


def competition_ranks(keys: list[int]) -> tuple[int, ...]:
    """Ranks where a lower key is better and equal keys share a place, the
    next place being skipped: keys 3, 3, 7 rank 1, 1, 3."""
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)
