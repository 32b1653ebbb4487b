"""What is wrong with an import's file, and where: :class:`Problem` (by the file's
row or line, the hand and the seat), what the file says of the hand a problem is
about (:class:`ProblemHand`), the import's own problem codes, and problems as
lines of plain text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Final

import games


@dataclass(frozen=True)
class ProblemHand:
    """What the file says of the hand an engine refusal is about, so that a page
    can word the refusal (:func:`league.web.refusal_words.engine_message`) by name.

    Lists are by seat, ``None`` where the file has no value; all but ``names``
    are empty (``None``) for a hand given as a move log."""

    game: str
    names: tuple[str, ...]
    cards: int | None = None
    bids: tuple[int | None, ...] = ()
    tricks: tuple[int | None, ...] = ()
    trump: str | None = None
    """A suit letter; ``None`` for no trump (see ``results_only``)."""
    maker: int | None = None
    drops: frozenset[int] = frozenset()
    results_only: bool = False
    """The hand is a row per seat of results (CSV), not a move log."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file: where, and why.

    ``row`` is the row of a CSV file (the header is row 1, as a spreadsheet numbers
    them) or the line of a JSON Lines file (from 1); ``None`` for the file as a
    whole. ``hand`` counts from 1, as the file and the score sheet do; ``seat`` from
    0, as the records do (a games CSV counts them from 1: whoever shows a seat adds
    the file's ``seats_from``, :func:`problems_text`). ``code`` is the engine's error
    code (docs/records.md) when the engine refused the hand (``error`` is then its
    refusal), or one of :data:`PROBLEM_CODES`. ``facts``, where known, is what the
    file says of the hand: its players by seat, and what a page needs to word an
    engine refusal.
    """

    row: int | None
    code: str
    message: str
    hand: int | None = None
    seat: int | None = None
    player: str = ""
    """The player in ``seat``, as the file names them (empty when unknown)."""
    error: games.RecordError | None = field(default=None, compare=False)
    facts: ProblemHand | None = field(default=None, compare=False)


PROBLEM_CODES: Final = {
    "encoding": "the file is not UTF-8 text",
    "not_csv": "the file cannot be read as CSV",
    "header": "the header row does not name the columns the import reads",
    "empty": "the file has no rows after the header",
    "cells": "a row has more or fewer cells than the header",
    "missing": "a cell that must have a value is empty",
    "bad_value": "a cell's value is not of its kind (a whole number, a date, a suit, 0 or 1)",
    "wrong_game": "a cell filled in that only the league's other game has (a bid in Buck Euchre)",
    "too_long": "a name longer than 100 characters",
    "duplicate": "a player named twice in a players file",
    "bad_name": "a player's name with a control character, or nothing to show",
    "table_split": "a table's rows are not together in the file",
    "hand_order": "a table's hands are not numbered 1, 2, 3... in order",
    "seat_order": "a hand's rows are not seats 1, 2, 3... in order (0, 1, 2... in an older "
    "file), or not all the table's seats",
    "hand_mismatch": "the rows of one hand disagree on its dealer, cards, trump or maker",
    "players_changed": "a seat's player changes between the hands of a table",
    "player_twice": "a player in two seats of one table",
    "two_tables": "a player at two tables in one round",
    "seats": "a number of seats the league's game is not played with",
    "dealer": "a dealer other than the one the deal passes to",
    "cards": "a number of cards other than the league's schedule deals",
    "points": "a hand's points other than the engine scores",
    "total": "a running total other than the hands add up to",
    "conflict": "a table the league has already, with other players or other hands",
    "ambiguous_event": "the league has two game nights of that date and name",
    "bad_line": "a line of JSON Lines that is not a game as the import reads it",
    "not_text": "a value of JSON Lines holding a NUL or half of a surrogate pair: no text",
}
"""The import's own problem codes (the engine's are in docs/records.md)."""


def name_rows(problems: list[Problem], start: int, players: dict[int, str]) -> None:
    """Name the player of each problem from ``start`` on that has a seat, by its row
    (``players``: each row's player): a CSV problem with a seat is on that seat's row."""
    problems[start:] = [
        problem
        if problem.seat is None or problem.player or problem.row not in players
        else replace(problem, player=players[problem.row])
        for problem in problems[start:]
    ]


def problems_text(problems: Iterable[Problem], *, seats_from: int = 0) -> Iterator[str]:
    """Each problem as a line of plain text, as the management commands print them:
    ``row 12, hand 3, seat 1 (Ann): <message> (<code>)``, the seat counted from
    ``seats_from``, as the file counts it (``ResultsCheck.seats_from``). The import's
    own messages count seats so already; an engine refusal's (whose records count
    from 0) is said so too.

    >>> problem = Problem(16, "bad_bid", "seat 2 bid 9: bids run 1..2", hand=1, seat=2,
    ...                   player="Gil", error=games.RecordError("bad_bid", "", seat=2))
    >>> next(problems_text([problem], seats_from=1))
    'row 16, hand 1, seat 3 (Gil): seat 3 bid 9: bids run 1..2 (bad_bid)'
    """
    for problem in problems:
        where = [
            f"{label} {value}"
            for label, value in (
                ("row", problem.row),
                ("hand", problem.hand),
                ("seat", problem.seat + seats_from if problem.seat is not None else None),
            )
            if value is not None
        ]
        if problem.player and problem.seat is not None:
            where[-1] += f" ({problem.player})"
        message = problem.message
        if problem.error is not None and seats_from:
            message = engine_seats_shown(message, seats_from=seats_from)
        yield f"{', '.join(where) or 'the file'}: {message} ({problem.code})"


_ENGINE_SEAT: Final = re.compile(r"\bseat (\d+)\b")


def engine_seats_shown(message: str, *, seats_from: int) -> str:
    """An engine refusal's English, which names seats from 0 (``seat 2 bid 9``), with
    each seat counted from ``seats_from`` instead. The engine names a seat as
    ``seat <n>`` in every message (games/), which is what this relies on.

    >>> engine_seats_shown("seat 0 took 6 tricks of 5", seats_from=1)
    'seat 1 took 6 tricks of 5'
    """
    return _ENGINE_SEAT.sub(lambda found: f"seat {int(found[1]) + seats_from}", message)
