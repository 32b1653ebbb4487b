"""Cards as value objects.

There are exactly 54 :class:`Card` instances, created once at import: a card
is found by its code, never constructed, so cards compare by identity and
hash fast. That matters because replaying a record touches every card many
times.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Suit(StrEnum):
    """A suit, named by its one-letter code."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def word(self) -> str:
        """The plural English name used in messages: ``"hearts"``."""
        return self.name.lower()

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (for the left bower)."""
        return _PARTNER[self]

    @classmethod
    def parse(cls, value: object) -> Suit | None:
        """The suit for a letter (any case), or ``None`` if it is not one."""
        if isinstance(value, str) and len(value) == 1 and value.isascii():
            try:
                return cls(value.upper())
            except ValueError:
                return None
        return None


_PARTNER: Final = {
    Suit.CLUBS: Suit.SPADES,
    Suit.SPADES: Suit.CLUBS,
    Suit.DIAMONDS: Suit.HEARTS,
    Suit.HEARTS: Suit.DIAMONDS,
}

RANK_CHARS: Final = "23456789TJQKA"
"""Rank letters, low to high; rank values run 2..14 in the same order."""

HI_BLUKE_RANK: Final = 16
LO_BLUKE_RANK: Final = 15


class Card:
    """One playing card, or one of the two jokers (Blukes).

    ``rank`` is 2..14 for 2..A, 15 for the Lo Bluke and 16 for the Hi Bluke;
    ``suit`` is ``None`` for a Bluke. ``code`` is the canonical upper-case
    code (``"TH"``, ``"BH"``).
    """

    __slots__ = ("code", "index", "rank", "suit")

    rank: int
    suit: Suit | None
    code: str
    index: int

    def __init__(self, rank: int, suit: Suit | None, code: str, index: int) -> None:
        if _SEALED:
            raise TypeError("cards are not constructed: use Card.parse() or card()")
        self.rank = rank
        self.suit = suit
        self.code = code
        self.index = index

    @property
    def is_bluke(self) -> bool:
        return self.suit is None

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (card, (self.code,))

    @staticmethod
    def parse(value: object) -> Card | None:
        """The card for a code such as ``"10h"`` or ``"BL"``, else ``None``."""
        if not isinstance(value, str):
            return None
        found = CARD_BY_CODE.get(value)
        if found is None and 2 <= len(value) <= 3 and value.isascii():
            upper = value.upper()
            if upper.startswith("10"):
                upper = "T" + upper[2:]
            found = CARD_BY_CODE.get(upper)
        return found


_SEALED = False


def _make_cards() -> tuple[Card, ...]:
    made: list[Card] = []
    for suit in Suit:
        for offset, char in enumerate(RANK_CHARS):
            made.append(Card(offset + 2, suit, char + suit.value, len(made)))
    made.append(Card(LO_BLUKE_RANK, None, "BL", len(made)))
    made.append(Card(HI_BLUKE_RANK, None, "BH", len(made)))
    return tuple(made)


ALL_CARDS: Final[tuple[Card, ...]] = _make_cards()
_SEALED = True

CARD_BY_CODE: Final[dict[str, Card]] = {c.code: c for c in ALL_CARDS}
"""Canonical codes, plus the lower-case and ``10`` spellings seen most often,
so that the common inputs are one dictionary look-up."""
for _c in ALL_CARDS:
    CARD_BY_CODE.setdefault(_c.code.lower(), _c)
    if _c.code[0] == "T":
        CARD_BY_CODE.setdefault("10" + _c.code[1], _c)
        CARD_BY_CODE.setdefault("10" + _c.code[1].lower(), _c)

LO_BLUKE: Final = CARD_BY_CODE["BL"]
HI_BLUKE: Final = CARD_BY_CODE["BH"]

BLUKE_DECK: Final[frozenset[Card]] = frozenset(ALL_CARDS)
"""All 54 cards: the 52-card pack and both Blukes."""

EUCHRE_DECK: Final[frozenset[Card]] = frozenset(
    c for c in ALL_CARDS if c.suit is not None and c.rank >= 9
)
"""The 24 cards 9..A of every suit."""


def card(code: str) -> Card:
    """The card for ``code``; raises ``ValueError`` if it is not a card code."""
    found = Card.parse(code)
    if found is None:
        raise ValueError(f"not a card code: {code!r}")
    return found


def cards(codes: str) -> list[Card]:
    """Cards from a space-separated string of codes: ``cards("AS 7D BL")``."""
    return [card(code) for code in codes.split()]
