"""The fields of a JSON record, read and checked, and the rules a record names.

Each reader takes a value as the JSON decoder gave it and returns it typed
(an integer, an array, a card, a suit, a deal, the options), or raises
:class:`InvalidRecord` naming the field; :func:`check_fields` holds a record
to the fields its kind requires and allows. :func:`rules_for` gives the
rules for a game name, players and options as a record spells them, and
:func:`game_rules` the same for values already read, cached.

The floor of the reading of records: :mod:`games.hands` reads a hand with
these, :mod:`games.tally` a game, and :mod:`games.records` answers either.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Final, cast

from games import bluke
from games.bluke import Bluke
from games.buck_euchre import BuckEuchre
from games.cards import CARD_BY_CODE, Card, Suit
from games.errors import InvalidRecord
from games.errors import kind as _kind
from games.errors import shown as _shown
from games.errors import shown_card as _shown_card
from games.rules import GAME_NAMES, Rules


def field_sets(required: str, optional: str = "") -> tuple[frozenset[str], frozenset[str]]:
    """Required and allowed field names, from space-separated lists."""
    return frozenset(required.split()), frozenset(required.split() + optional.split())


_GAME_CHOICES = " or ".join(repr(name) for name in GAME_NAMES)
"""The known games as a message lists them: ``'bluke' or 'buck_euchre'``."""


def game_name(record: Mapping[str, object]) -> str:
    """The ``game`` a record names, one the engine knows; raises
    :class:`InvalidRecord` otherwise."""
    if "game" not in record:
        raise InvalidRecord("invalid", "missing field 'game'")
    return _known_game(record["game"])


def _known_game(name: object) -> str:
    """``name`` if it names a game the engine knows; raises
    :class:`InvalidRecord` otherwise."""
    if not isinstance(name, str) or name not in GAME_NAMES:
        raise InvalidRecord("invalid", f"game must be {_GAME_CHOICES}, not {_shown(name)}")
    return name


def rules_for(name: object, players: object, options: object = None) -> Rules:
    """The rules for a game name, a number of players and options as a record
    spells them; raises :class:`InvalidRecord` for anything not allowed."""
    return game_rules(
        _known_game(name),
        int_field(players, "players"),
        options_field({} if options is None else options),
    )


def game_rules(name: str, players: int, options: dict[str, Any]) -> Rules:
    """The rules object for a game, players and options (cached: records
    repeat the same few)."""
    if not options:  # most records: no cache key to build
        found = _PLAIN_RULES.get((name, players))
        if found is None:  # made (or refused) once; only valid rules are kept
            found = _PLAIN_RULES[name, players] = _make_rules(name, players, options)
        return found
    # The key carries each value's type: True == 1 == 1.0 in Python, but
    # only the int is a valid max_cards.
    key = tuple(sorted((option, type(value), value) for option, value in options.items()))
    try:
        return _cached_rules(name, players, key)
    except TypeError:  # an option value that cannot be a cache key
        return _make_rules(name, players, options)


_PLAIN_RULES: Final[dict[tuple[str, int], Rules]] = {}
"""The rules without options, by game and players (at most one a valid count)."""


@functools.lru_cache(maxsize=256)
def _cached_rules(name: str, players: int, options: tuple[tuple[str, type, Any], ...]) -> Rules:
    return _make_rules(name, players, {option: value for option, _, value in options})


def _make_rules(name: str, players: int, options: dict[str, Any]) -> Rules:
    if name == bluke.NAME:
        unknown = set(options) - {"bluke_lead", "max_cards"}
        if unknown:
            raise InvalidRecord("invalid", f"unknown Bluke option {_shown(min(unknown))}")
        lead = options.get("bluke_lead", "trump")
        if lead not in ("trump", "free"):  # compiled, Bluke's str field raises a TypeError
            raise InvalidRecord(
                "invalid", f"option bluke_lead must be 'trump' or 'free', not {_shown(lead)}"
            )
        max_cards = options.get("max_cards")
        if max_cards is not None:
            max_cards = int_field(max_cards, "options.max_cards")
        return Bluke(players, bluke_lead=lead, max_cards=max_cards)
    if options:
        raise InvalidRecord("invalid", f"Buck Euchre has no options, not {_shown(min(options))}")
    return BuckEuchre(players)


def options_field(value: object) -> dict[str, Any]:
    """A record's ``options`` object, its values as sent: the rules check them
    (``Bluke`` its ``bluke_lead``; ``max_cards`` is read by :func:`int_field`)."""
    if not isinstance(value, dict):
        raise InvalidRecord("invalid", f"options must be an object, not {_kind(value)}")
    return value


def check_fields(
    record: Mapping[str, object], fields: tuple[frozenset[str], frozenset[str]]
) -> None:
    """Every ``required`` field of ``fields = (required, allowed)`` is present
    and nothing else than the ``allowed``. (One argument, not ``*fields``: a
    compiled call with ``*`` goes through Python's generic call.)"""
    required, allowed = fields
    # Most records hold exactly the required fields: that needs only look-ups
    # (compiled, comparing the key sets would go through Python's generic compare).
    if len(record) == len(required) and all([name in record for name in required]):
        return
    keys = record.keys()
    if required <= keys and keys <= allowed:
        return
    for name in sorted(required):
        if name not in record:
            raise InvalidRecord("invalid", f"missing field {name!r}")
    for name in record:
        if name not in allowed:
            raise InvalidRecord("invalid", f"unknown field {_shown(name)}")


def int_field(value: object, name: str, code: str = "invalid") -> int:
    if type(value) is not int:
        raise InvalidRecord(code, f"{name} must be an integer, not {_shown(value)}")
    return value


def list_field(value: object, name: str) -> list[object]:
    if not isinstance(value, list):
        raise InvalidRecord("invalid", f"{name} must be an array, not {_kind(value)}")
    return value


def int_list_field(value: object, name: str, code: str) -> list[int]:
    values = list_field(value, name)
    for index, item in enumerate(values):
        if type(item) is not int:
            raise InvalidRecord(code, f"{name}[{index}] must be an integer, not {_shown(item)}")
    return cast("list[int]", values)  # every item checked above


def trump_field(value: object) -> Suit | None:
    if value is None:
        return None
    suit = Suit.parse(value)
    if suit is None:
        raise InvalidRecord("invalid", f"trump must be a suit letter or null, not {_shown(value)}")
    return suit


def card_field(value: object, name: str, *, code: str = "bad_card") -> Card:
    found = Card.parse(value)
    if found is None:
        raise InvalidRecord(code, f"{name} is not a card: {_shown(value)}", card=_shown_card(value))
    return found


def fast_cards(values: list[object]) -> list[Card] | None:
    """The cards for the codes ``CARD_BY_CODE`` holds (canonical, lower-case,
    ``10``), or ``None`` if any value needs the slower, checked parse."""
    # A plain loop (not list(map(CARD_BY_CODE.get, values))): compiled, each
    # look-up is a direct dictionary call.
    found: list[Card] = []
    for value in values:
        card = CARD_BY_CODE.get(value) if isinstance(value, str) else None
        if card is None:
            return None
        found.append(card)
    return found


def deal_field(value: object) -> list[list[Card]]:
    hands = list_field(value, "deal")
    if not hands or len(hands) > bluke.MAX_PLAYERS:
        raise InvalidRecord("bad_deal", f"deal has {len(hands)} hands")
    deal = []
    for seat, dealt in enumerate(hands):
        if not isinstance(dealt, list):
            raise InvalidRecord(
                "bad_deal", f"deal[{seat}] must be an array, not {_kind(dealt)}", seat=seat
            )
        cards = fast_cards(dealt)
        if cards is None:
            cards = []
            for value_ in dealt:
                found = Card.parse(value_)
                if found is None:
                    raise InvalidRecord(
                        "bad_card",
                        f"seat {seat} was dealt something that is not a card: {_shown(value_)}",
                        seat=seat,
                        card=_shown_card(value_),
                    )
                cards.append(found)
        deal.append(cards)
    return deal
