"""What is wrong with an import's file, and where: :class:`Problem` (by the file's
row or line, the hand and the seat), what the file says of the hand a problem is
about (:class:`ProblemHand`), the import's own problem codes, a problem's words
as data (:class:`Words`: an English text with its facts, for the layer above to
word in the reader's language), and problems as lines of plain text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Final

import games
from league.names import MAX_NAME, NameFault


def gettext_noop(text: str) -> str:
    """``text`` unchanged. It marks a problem's English for the catalogues: ``make
    messages`` gathers the texts of calls by this name, as of Django's own, which
    this pure module may not import. The page words it in the reader's language
    (:func:`league.services.import_words.problem_words`)."""
    return text


def ngettext_lazy(singular: str, plural: str, count: int) -> tuple[str, str, int]:
    """The two English forms of a text by a count, unchanged (for :class:`Words`),
    to be worded later, where shown: named as Django's lazy plural so that ``make
    messages`` gathers the pair as one message with its plural forms (Ukrainian
    and Czech have three); it words nothing itself."""
    return singular, plural, count


@dataclass(frozen=True)
class Words:
    """A problem's words as data: an English text with ``%(name)s`` placeholders
    (marked for the catalogues), its ``plural`` form chosen by ``count`` where it
    counts something, and the ``params`` it is filled with. A param may itself be
    :class:`Words` (a part worded on its own) or a :class:`~league.names.NameFault`.
    :meth:`english` is the problem's ``message``; the pages word it in the
    reader's language from the same data."""

    text: str
    params: Mapping[str, object] = field(default_factory=dict)
    plural: str = ""
    count: int = 0

    @classmethod
    def counted(cls, forms: tuple[str, str, int], params: Mapping[str, object]) -> Words:
        """Words by a count: ``forms`` as :func:`ngettext_lazy` gives them."""
        singular, plural, count = forms
        return cls(singular, params, plural=plural, count=count)

    def english(self) -> str:
        text = self.plural if self.plural and self.count != 1 else self.text
        return text % {key: _english(value) for key, value in self.params.items()}


def _english(value: object) -> object:
    if isinstance(value, Words):
        return value.english()
    if isinstance(value, NameFault):
        return fault_words(value).english()
    return value


def fault_words(fault: NameFault) -> Words:
    """A name's fault in words: the services' texts for it
    (:func:`league.services.clubs.name_fault_words`), so the catalogue shares them."""
    if fault.code == "control-character":
        return Words(
            gettext_noop("a name cannot hold a control character (%(char)s)"),
            {"char": f"U+{fault.char:04X}"},
        )
    if fault.code == "too-long":
        return Words.counted(
            ngettext_lazy(
                "a name has at most %(most)d characters (this one has %(length)d)",
                "a name has at most %(most)d characters (this one has %(length)d)",
                MAX_NAME,
            ),
            {"most": MAX_NAME, "length": fault.length},
        )
    if fault.code == "empty":
        return Words(gettext_noop("the name is empty"))
    return Words(gettext_noop("the name has nothing to show"))


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
    words: Words | None = field(default=None, compare=False)
    """The import's own problem as data (``message`` is its English); ``None``
    for an engine refusal (worded from ``error`` and ``facts``)."""

    @classmethod
    def said(
        cls,
        row: int | None,
        code: str,
        words: Words,
        *,
        hand: int | None = None,
        seat: int | None = None,
        player: str = "",
        facts: ProblemHand | None = None,
    ) -> Problem:
        """A problem of the import's own, its ``message`` the English of ``words``."""
        return cls(
            row,
            code,
            words.english(),
            hand=hand,
            seat=seat,
            player=player,
            facts=facts,
            words=words,
        )


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
