"""Reading the JSON records of hands and games, and answering them.

The entry point is :func:`check_record`, which takes one parsed JSON value
and returns the answer object: ``{"ok": true, ...}`` or
``{"ok": false, "error": {...}}``. :func:`parse_record` turns JSON text into
a value with the bounds of :mod:`games.limits` applied.

Every move log is replayed through the same state API that bots and score
pads use (:class:`~games.bluke.BlukeHand`,
:class:`~games.buck_euchre.BuckEuchreHand`): replay is the validation.
"""

from __future__ import annotations

import functools
import json
import json.scanner
from collections.abc import Callable, Mapping
from typing import Any, Final

from games import bluke, buck_euchre
from games.bluke import Bluke, BlukeHand
from games.buck_euchre import BuckEuchre, BuckEuchreHand
from games.cards import CARD_BY_CODE, Card, Suit
from games.errors import IllegalMove, InvalidRecord, RecordError, check_seat
from games.errors import kind as _kind
from games.errors import shown as _shown
from games.errors import shown_card as _shown_card
from games.limits import MAX_RECORD_CHARS
from games.results import GameResult, HandResult, Trick
from games.rules import GAME_NAMES, Rules


def _fields(required: str, optional: str = "") -> tuple[frozenset[str], frozenset[str]]:
    """Required and allowed field names, from space-separated lists."""
    return frozenset(required.split()), frozenset(required.split() + optional.split())


# Keyed by (game, whether the hand is a move log).
_STANDALONE_FIELDS = {
    (bluke.NAME, True): _fields("game dealer deal turn_up bids plays", "options"),
    (bluke.NAME, False): _fields("game dealer cards trump bids tricks", "options"),
    (buck_euchre.NAME, True): _fields(
        "game dealer deal turn_up plays", "calls discard drops options"
    ),
    (buck_euchre.NAME, False): _fields("game dealer trump tricks", "maker drops options"),
}
_IN_GAME_FIELDS = {
    (bluke.NAME, True): _fields("deal turn_up bids plays", "game dealer"),
    (bluke.NAME, False): _fields("trump bids tricks", "game dealer cards"),
    (buck_euchre.NAME, True): _fields("deal turn_up plays", "game dealer calls discard drops"),
    (buck_euchre.NAME, False): _fields("trump tricks", "game dealer maker drops"),
}
_GAME_FIELDS = {
    bluke.NAME: _fields("game players first_dealer hands", "options"),
    buck_euchre.NAME: _fields("game first_dealer hands", "players options"),
}

_GAME_CHOICES = " or ".join(repr(name) for name in GAME_NAMES)
"""The known games as a message lists them: ``'bluke' or 'buck_euchre'``."""


# -- entry points ------------------------------------------------------------


def check_record(record: object) -> dict[str, Any]:
    """The answer object for one record (a hand or a whole game):
    ``evaluate_record(record).to_json()``, or the error answer."""
    try:
        if isinstance(record, dict) and "hands" not in record:
            # A hand: its answer straight from the replayed state, without a
            # HandResult in between (what `games check` does most, per record).
            outcome = _hand_outcome(record)
            if isinstance(outcome, BlukeHand):
                return outcome.answer()
            return (outcome if isinstance(outcome, HandResult) else outcome.result()).to_json()
        return evaluate_record(record).to_json()
    except RecordError as error:
        return {"ok": False, "error": error.to_json()}


def answer_json(record: object) -> tuple[str, bool]:
    """``json.dumps(check_record(record))``, and whether that answer is ``ok``:
    one line of ``games check``'s output. The answer to a Bluke move log, the
    usual record, is written out directly rather than by ``json.dumps``."""
    outcome: HandResult | BlukeHand | BuckEuchreHand | None = None
    if isinstance(record, dict) and "hands" not in record:
        try:
            outcome = _hand_outcome(record)
        except RecordError as error:
            return json.dumps({"ok": False, "error": error.to_json()}), False
    if isinstance(outcome, BlukeHand):
        return outcome.answer_json(), True
    if outcome is None:
        answer = check_record(record)
    else:
        answer = (outcome if isinstance(outcome, HandResult) else outcome.result()).to_json()
    return json.dumps(answer), bool(answer["ok"])


def evaluate_record(record: object) -> HandResult | GameResult:
    """The result of a valid record; raises :class:`RecordError` otherwise."""
    if not isinstance(record, dict):
        raise InvalidRecord("invalid", f"a record is a JSON object, not {_kind(record)}")
    if "hands" in record:
        return evaluate_game(record)
    return evaluate_hand(record)


def parse_record(text: str | bytes) -> object:
    """One JSON value, within the size limits. Raises :class:`InvalidRecord`
    (``too_large``) beyond them and ``ValueError`` for text that is not JSON."""
    if len(text) > MAX_RECORD_CHARS:
        raise InvalidRecord(
            "too_large", f"a record is at most {MAX_RECORD_CHARS} characters, not {len(text)}"
        )
    try:
        return _decode(text if isinstance(text, str) else text.decode())
    except ValueError as error:
        # Python refuses to convert integer literals of more than
        # sys.get_int_max_str_digits() digits; nothing in a record needs them.
        if "integer string conversion" in str(error):
            raise InvalidRecord("too_large", "a number in the record is too large") from None
        raise
    except RecursionError:
        raise InvalidRecord("too_large", "the record is nested too deeply") from None


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


_DECODER: Final = json.JSONDecoder(parse_constant=_refuse_constant)
"""Strict JSON: Python's reader otherwise accepts NaN and Infinity."""

_make_scanner: Any = json.scanner.make_scanner  # typeshed describes the class, not the factory
_SCAN: Final[Callable[[str, int], tuple[object, int]]] = _make_scanner(_DECODER)
"""The scanner that ``_DECODER.decode`` calls (the C one), called directly."""


def _decode(text: str) -> object:
    """``_DECODER.decode(text)``, faster for a JSON Lines line: a value from
    the first character on, then at most JSON whitespace (a line end). Any
    other text, and any text that is not JSON, goes through ``decode`` itself,
    so the errors are its own."""
    if text[:1] == "{":
        try:
            value, end = _SCAN(text, 0)
        except StopIteration:
            return _DECODER.decode(text)
        if end == len(text) or not text[end:].strip(_JSON_SPACE):
            return value
    return _DECODER.decode(text)


_JSON_SPACE: Final = " \t\n\r"
"""The characters JSON counts as whitespace (``str.strip()`` would take more)."""


# -- hands -----------------------------------------------------------------


def evaluate_hand(record: Mapping[str, Any]) -> HandResult:
    """The result of a hand record standing alone."""
    outcome = _hand_outcome(record)
    return outcome if isinstance(outcome, HandResult) else outcome.result()


def _hand_outcome(record: Mapping[str, Any]) -> HandResult | BlukeHand | BuckEuchreHand:
    """A hand record standing alone, checked: the finished hand for a move
    log (its ``result()`` is the record's result), the result for a hand given
    as results. Raises :class:`RecordError`."""
    name = _game_name(record)
    form = "deal" in record
    _check_fields(record, _STANDALONE_FIELDS[name, form])
    options = _options(record.get("options", {}))
    if name == buck_euchre.NAME:
        rules: Rules = _rules(name, buck_euchre.PLAYERS, options)
    else:
        # A Bluke hand does not state its players: they are the seats dealt
        # or, for results only, the seats that bid.
        field = "deal" if form else "bids"
        players = len(_list(record[field], field))
        if not bluke.MIN_PLAYERS <= players <= bluke.MAX_PLAYERS:
            raise InvalidRecord(
                "bad_deal" if form else "bad_bid",
                f"{field} has {players} seats: "
                f"Bluke is for {bluke.MIN_PLAYERS} to {bluke.MAX_PLAYERS} players",
            )
        rules = _rules(name, players, options)
    dealer = check_seat(_int(record["dealer"], "dealer"), rules.players, field="dealer")
    return _hand_body(rules, record, dealer=dealer, cards=None)


def evaluate_game_hand(
    rules: Rules, record: Mapping[str, Any], *, dealer: int, cards: int | None
) -> HandResult:
    """The result of one hand of a game, in either form.

    ``dealer`` is the seat whose turn it is to deal and ``cards`` the hand
    size the game's schedule requires (Bluke; ``None`` for Buck Euchre). The
    hand may repeat the game's ``game`` and ``dealer`` but not contradict
    them. Raises :class:`RecordError` for a hand the engine refuses.
    """
    _check_in_game_header(rules, record, dealer=dealer)
    return _evaluate_hand_body(rules, record, dealer=dealer, cards=cards)


def _check_in_game_header(rules: Rules, record: Mapping[str, Any], *, dealer: int) -> None:
    """A hand in a game may repeat ``game`` and ``dealer`` but must not
    contradict them; its other fields are those of its form."""
    _check_fields(record, _IN_GAME_FIELDS[rules.name, "deal" in record])
    if "game" in record and record["game"] != rules.name:
        raise InvalidRecord("invalid", f"a hand of {rules.name} says game {_shown(record['game'])}")
    if "dealer" in record and _int(record["dealer"], "dealer") != dealer:
        raise InvalidRecord(
            "invalid", f"the dealer of this hand is seat {dealer}, not {_shown(record['dealer'])}"
        )


def _evaluate_hand_body(
    rules: Rules, record: Mapping[str, Any], *, dealer: int, cards: int | None
) -> HandResult:
    """A hand's result once the game, players and dealer are known.

    ``cards`` is the hand size a game's schedule requires (Bluke), or
    ``None`` for a hand standing alone."""
    outcome = _hand_body(rules, record, dealer=dealer, cards=cards)
    return outcome if isinstance(outcome, HandResult) else outcome.result()


def _hand_body(
    rules: Rules, record: Mapping[str, Any], *, dealer: int, cards: int | None
) -> HandResult | BlukeHand | BuckEuchreHand:
    """As :func:`_evaluate_hand_body`, but a move log's finished hand itself."""
    if isinstance(rules, Bluke):
        if "deal" in record:
            return _replayed_bluke(rules, record, dealer=dealer, cards=cards)
        return _score_bluke(rules, record, cards=cards)
    if "deal" in record:
        return _replayed_buck_euchre(rules, record, dealer=dealer)
    return _score_buck_euchre(rules, record)


def _replayed_bluke(
    rules: Bluke, record: Mapping[str, Any], *, dealer: int, cards: int | None
) -> BlukeHand:
    deal = _deal(record["deal"])
    hand = rules.new_hand(dealer=dealer, deal=deal, turn_up=_card(record["turn_up"], "turn_up"))
    if cards is not None and hand.cards != cards:
        raise InvalidRecord(
            "bad_deal", f"this hand of the game deals {cards} cards a seat, not {hand.cards}"
        )
    hand.apply_bids(_int_list(record["bids"], "bids", "bad_bid"))
    _replay_plays(hand, record["plays"])
    return hand


def _score_bluke(rules: Bluke, record: Mapping[str, Any], *, cards: int | None) -> HandResult:
    size = _int(record["cards"], "cards") if "cards" in record else cards
    if size is None:
        raise InvalidRecord("invalid", "missing field 'cards'")
    if cards is not None and size != cards:
        raise InvalidRecord(
            "bad_deal", f"this hand of the game deals {cards} cards, not {_shown(size)}"
        )
    return rules.score_results(
        cards=size,
        trump=_trump(record["trump"]),
        bids=_int_list(record["bids"], "bids", "bad_bid"),
        tricks=_int_list(record["tricks"], "tricks", "bad_tricks"),
    )


def _replayed_buck_euchre(
    rules: BuckEuchre, record: Mapping[str, Any], *, dealer: int
) -> BuckEuchreHand:
    hand: BuckEuchreHand = rules.new_hand(
        dealer=dealer, deal=_deal(record["deal"]), turn_up=_card(record["turn_up"], "turn_up")
    )
    calls = _list(record.get("calls", []), "calls")
    for index, call in enumerate(calls):
        if hand.phase is not buck_euchre.Phase.CALL:
            why = "a club was turned up" if hand.club_turned else "trump is already settled"
            raise IllegalMove("bad_call", f"call {index} comes after {why}", seat=None)
        hand.call(call)
    if hand.phase is buck_euchre.Phase.CALL:
        raise IllegalMove(
            "bad_call",
            f"the calls stop after {len(calls)} without settling trump",
            seat=hand.to_act,
        )
    if hand.phase is buck_euchre.Phase.DISCARD:
        if "discard" not in record:
            raise IllegalMove(
                "bad_discard",
                f"seat {hand.maker} ordered up, so the dealer must discard",
                seat=hand.dealer,
            )
        hand.discard(_card(record["discard"], "discard", code="bad_discard"))
    elif "discard" in record:
        raise IllegalMove("bad_discard", "nobody ordered up, so the dealer does not discard")
    hand.apply_drops(_int_list(record.get("drops", []), "drops", "bad_drop"))
    _replay_plays(hand, record["plays"])
    return hand


def _score_buck_euchre(rules: BuckEuchre, record: Mapping[str, Any]) -> HandResult:
    maker = record.get("maker")
    return rules.score_results(
        trump=_trump(record["trump"]),
        maker=None if maker is None else _int(maker, "maker"),
        drops=_int_list(record.get("drops", []), "drops", "bad_drop"),
        tricks=_int_list(record["tricks"], "tricks", "bad_tricks"),
    )


def _replay_plays(hand: BlukeHand | BuckEuchreHand, plays: object) -> None:
    """Replay the plays to the end of the hand. A value that is not a card
    code is passed on as it is: the trick play refuses it (``bad_card``) where
    it lies, once the plays before it have been checked."""
    values = _list(plays, "plays")
    cards = _fast_cards(values)
    if cards is None:
        cards = [Card.parse(value) or value for value in values]
    hand.play_many(cards)
    if not hand.is_terminal():
        raise InvalidRecord(
            "wrong_number_of_plays",
            f"the plays stop after {len(cards)} cards, before the hand is finished",
            seat=hand.to_act,
        )


def replay_tricks(rules: Rules, record: object, *, dealer: int) -> tuple[Trick, ...]:
    """The tricks of a move-log hand of a game, card by card: who led each,
    the cards in the order played with the seat that played each, and who won.

    A score sheet shows a stored hand this way; the record is a hand as a game
    holds it (``game`` and ``dealer`` may be left out but must agree), so the
    game's ``rules`` and the hand's ``dealer`` are given. The hand is replayed
    through the same rules code that checked it, so a record the engine
    refuses raises :class:`RecordError` here too. A Buck Euchre hand in which
    fewer than two players stayed in has no plays and so no tricks.
    """
    if not isinstance(record, dict) or "deal" not in record:
        raise InvalidRecord("invalid", "only a move log (with a deal) has tricks to replay")
    check_seat(dealer, rules.players, field="dealer")
    _check_in_game_header(rules, record, dealer=dealer)
    if isinstance(rules, Bluke):
        hand: BlukeHand | BuckEuchreHand = _replayed_bluke(rules, record, dealer=dealer, cards=None)
    else:
        hand = _replayed_buck_euchre(rules, record, dealer=dealer)
    if hand.tricks is None:  # nobody played: everyone but one dropped
        return ()
    return tuple(
        Trick(leader=leader, plays=tuple(plays), winner=winner)
        for leader, plays, winner in hand.tricks.completed_tricks()
    )


# -- games -----------------------------------------------------------------


def evaluate_game(record: Mapping[str, Any]) -> GameResult:
    """The result of a whole game record (complete or still in progress)."""
    # Imported here: the tally reads each hand with evaluate_game_hand above,
    # so games.tally imports this module.
    from games.tally import GameTally

    name = _game_name(record)
    _check_fields(record, _GAME_FIELDS[name])
    players = _int(record.get("players", buck_euchre.PLAYERS), "players")
    rules = _rules(name, players, _options(record.get("options", {})))
    tally = GameTally(rules, first_dealer=_int(record["first_dealer"], "first_dealer"))
    hands = _list(record["hands"], "hands")
    for index, hand_record in enumerate(hands):
        try:
            tally.add(hand_record)
        except RecordError as error:
            error.hand = index
            raise
    return tally.result()


# -- fields ------------------------------------------------------------------


def _game_name(record: Mapping[str, Any]) -> str:
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
    return _rules(
        _known_game(name), _int(players, "players"), _options({} if options is None else options)
    )


def _rules(name: str, players: int, options: dict[str, Any]) -> Rules:
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
        max_cards = options.get("max_cards")
        if max_cards is not None:
            max_cards = _int(max_cards, "options.max_cards")
        return Bluke(players, bluke_lead=lead, max_cards=max_cards)
    if options:
        raise InvalidRecord("invalid", f"Buck Euchre has no options, not {_shown(min(options))}")
    return BuckEuchre(players)


def _options(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidRecord("invalid", f"options must be an object, not {_kind(value)}")
    return value


def _check_fields(record: Mapping[str, Any], fields: tuple[frozenset[str], frozenset[str]]) -> None:
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


def _int(value: object, name: str, code: str = "invalid") -> int:
    if type(value) is not int:
        raise InvalidRecord(code, f"{name} must be an integer, not {_shown(value)}")
    return value


def _list(value: object, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidRecord("invalid", f"{name} must be an array, not {_kind(value)}")
    return value


def _int_list(value: object, name: str, code: str) -> list[int]:
    values = _list(value, name)
    for index, item in enumerate(values):
        if type(item) is not int:
            raise InvalidRecord(code, f"{name}[{index}] must be an integer, not {_shown(item)}")
    return values


def _trump(value: object) -> Suit | None:
    if value is None:
        return None
    suit = Suit.parse(value)
    if suit is None:
        raise InvalidRecord("invalid", f"trump must be a suit letter or null, not {_shown(value)}")
    return suit


def _card(value: object, name: str, *, code: str = "bad_card") -> Card:
    found = Card.parse(value)
    if found is None:
        raise InvalidRecord(code, f"{name} is not a card: {_shown(value)}", card=_shown_card(value))
    return found


def _fast_cards(values: list[Any]) -> list[Card] | None:
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


def _deal(value: object) -> list[list[Card]]:
    hands = _list(value, "deal")
    if not hands or len(hands) > bluke.MAX_PLAYERS:
        raise InvalidRecord("bad_deal", f"deal has {len(hands)} hands")
    deal = []
    for seat, dealt in enumerate(hands):
        if not isinstance(dealt, list):
            raise InvalidRecord(
                "bad_deal", f"deal[{seat}] must be an array, not {_kind(dealt)}", seat=seat
            )
        cards = _fast_cards(dealt)
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
