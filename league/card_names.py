"""Cards named in the page's language (docs/translating.md).

The engine, the API, the records and the downloads name a card by its code
(``AS``, ``TH``, ``10H``, ``BH``): those stay codes in every language. A page
that names a card for people reads it here: :func:`card_name` ("10 of hearts",
"десятка чирв", "srdcová desítka"), :func:`card_short` ("♥10", as clubs write
it on a pad, the rank's letter in the language) and :func:`suit_name`; the
templates' filters are in :mod:`league.templatetags.cards_i18n`.

Each card's name is a message of its own (context "card name"), not a rank put
into a suit's sentence: Czech bends the suit's adjective to the rank's gender
(srdcové eso, srdcový král, srdcová dáma) and Ukrainian names the suit in the
genitive, which a sentence with two slots cannot do.
"""

from __future__ import annotations

from typing import Final

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from games.cards import Card

SUIT_SYMBOLS: Final = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
"""The suits' signs, the same in every language."""

SUIT_NAMES: Final[dict[str, Promise]] = {
    "C": pgettext_lazy("suit", "clubs"),
    "D": pgettext_lazy("suit", "diamonds"),
    "H": pgettext_lazy("suit", "hearts"),
    "S": pgettext_lazy("suit", "spades"),
}

RANK_SHORT: Final[dict[str, Promise | str]] = {
    **{str(n): str(n) for n in range(2, 10)},
    "T": "10",
    # Translators: the letter of a jack on a card's corner, as players write it
    "J": pgettext_lazy("card rank, one letter", "J"),
    # Translators: the letter of a queen on a card's corner, as players write it
    "Q": pgettext_lazy("card rank, one letter", "Q"),
    # Translators: the letter of a king on a card's corner, as players write it
    "K": pgettext_lazy("card rank, one letter", "K"),
    # Translators: the letter of an ace on a card's corner, as players write it
    "A": pgettext_lazy("card rank, one letter", "A"),
}

CARD_NAMES: Final[dict[str, Promise]] = {
    "2C": pgettext_lazy("card name", "2 of clubs"),
    "3C": pgettext_lazy("card name", "3 of clubs"),
    "4C": pgettext_lazy("card name", "4 of clubs"),
    "5C": pgettext_lazy("card name", "5 of clubs"),
    "6C": pgettext_lazy("card name", "6 of clubs"),
    "7C": pgettext_lazy("card name", "7 of clubs"),
    "8C": pgettext_lazy("card name", "8 of clubs"),
    "9C": pgettext_lazy("card name", "9 of clubs"),
    "TC": pgettext_lazy("card name", "10 of clubs"),
    "JC": pgettext_lazy("card name", "jack of clubs"),
    "QC": pgettext_lazy("card name", "queen of clubs"),
    "KC": pgettext_lazy("card name", "king of clubs"),
    "AC": pgettext_lazy("card name", "ace of clubs"),
    "2D": pgettext_lazy("card name", "2 of diamonds"),
    "3D": pgettext_lazy("card name", "3 of diamonds"),
    "4D": pgettext_lazy("card name", "4 of diamonds"),
    "5D": pgettext_lazy("card name", "5 of diamonds"),
    "6D": pgettext_lazy("card name", "6 of diamonds"),
    "7D": pgettext_lazy("card name", "7 of diamonds"),
    "8D": pgettext_lazy("card name", "8 of diamonds"),
    "9D": pgettext_lazy("card name", "9 of diamonds"),
    "TD": pgettext_lazy("card name", "10 of diamonds"),
    "JD": pgettext_lazy("card name", "jack of diamonds"),
    "QD": pgettext_lazy("card name", "queen of diamonds"),
    "KD": pgettext_lazy("card name", "king of diamonds"),
    "AD": pgettext_lazy("card name", "ace of diamonds"),
    "2H": pgettext_lazy("card name", "2 of hearts"),
    "3H": pgettext_lazy("card name", "3 of hearts"),
    "4H": pgettext_lazy("card name", "4 of hearts"),
    "5H": pgettext_lazy("card name", "5 of hearts"),
    "6H": pgettext_lazy("card name", "6 of hearts"),
    "7H": pgettext_lazy("card name", "7 of hearts"),
    "8H": pgettext_lazy("card name", "8 of hearts"),
    "9H": pgettext_lazy("card name", "9 of hearts"),
    "TH": pgettext_lazy("card name", "10 of hearts"),
    "JH": pgettext_lazy("card name", "jack of hearts"),
    "QH": pgettext_lazy("card name", "queen of hearts"),
    "KH": pgettext_lazy("card name", "king of hearts"),
    "AH": pgettext_lazy("card name", "ace of hearts"),
    "2S": pgettext_lazy("card name", "2 of spades"),
    "3S": pgettext_lazy("card name", "3 of spades"),
    "4S": pgettext_lazy("card name", "4 of spades"),
    "5S": pgettext_lazy("card name", "5 of spades"),
    "6S": pgettext_lazy("card name", "6 of spades"),
    "7S": pgettext_lazy("card name", "7 of spades"),
    "8S": pgettext_lazy("card name", "8 of spades"),
    "9S": pgettext_lazy("card name", "9 of spades"),
    "TS": pgettext_lazy("card name", "10 of spades"),
    "JS": pgettext_lazy("card name", "jack of spades"),
    "QS": pgettext_lazy("card name", "queen of spades"),
    "KS": pgettext_lazy("card name", "king of spades"),
    "AS": pgettext_lazy("card name", "ace of spades"),
    # Translators: Bluke's higher joker (the game's own word for its jokers is "Bluke")
    "BH": pgettext_lazy("card name", "Hi Bluke"),
    # Translators: Bluke's lower joker
    "BL": pgettext_lazy("card name", "Lo Bluke"),
}
"""Every card's name, by its canonical code."""


def _card(code: object) -> Card | None:
    found = code if isinstance(code, Card) else Card.parse(code)
    return found


def card_name(code: object) -> str:
    """The card's name in the active language ("10 of hearts"); a value that is not
    a card code comes back as it is (a page never fails on a bad code)."""
    found = _card(code)
    if found is None:
        return str(code)
    return str(CARD_NAMES[found.code])


def card_short(code: object) -> str:
    """The card as clubs write it, its suit's sign and its rank ("♥10", "♠A"; in
    Ukrainian the ace is a Cyrillic letter); a joker by its name; anything else as it is."""
    found = _card(code)
    if found is None:
        return str(code)
    if found.suit is None:
        return str(CARD_NAMES[found.code])
    return SUIT_SYMBOLS[found.suit.value] + str(RANK_SHORT[found.code[0]])


def suit_name(letter: object) -> str:
    """A suit's name by its letter (``H``: "hearts"), or the value as it is."""
    key = str(letter).upper()
    return str(SUIT_NAMES[key]) if key in SUIT_NAMES else str(letter)
