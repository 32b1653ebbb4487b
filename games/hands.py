"""A hand record checked: standing alone, or as a hand of a game.

A move log (a hand with its ``deal``) is replayed through the same state API
that bots and score pads use (:class:`~games.bluke.BlukeHand`,
:class:`~games.buck_euchre.BuckEuchreHand`): replay is the validation. A hand
given as results is scored by its rules. :func:`replay_tricks` gives a move
log's tricks card by card, as a score sheet shows them.

The fields are read by :mod:`games.fields`; a game's hands are added up by
:mod:`games.tally`, which reads each with :func:`evaluate_game_hand`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games import bluke, buck_euchre
from games.bluke import Bluke, BlukeHand
from games.buck_euchre import BuckEuchre, BuckEuchreHand
from games.cards import Card
from games.errors import IllegalMove, InvalidRecord, check_seat
from games.errors import shown as _shown
from games.fields import (
    card_field,
    check_fields,
    deal_field,
    fast_cards,
    field_sets,
    game_name,
    game_rules,
    int_field,
    int_list_field,
    list_field,
    options_field,
    trump_field,
)
from games.results import HandResult, Trick
from games.rules import Rules

# Keyed by (game, whether the hand is a move log).
_STANDALONE_FIELDS = {
    (bluke.NAME, True): field_sets("game dealer deal turn_up bids plays", "options"),
    (bluke.NAME, False): field_sets("game dealer cards trump bids tricks", "options"),
    (buck_euchre.NAME, True): field_sets(
        "game dealer deal turn_up plays", "calls discard drops options"
    ),
    (buck_euchre.NAME, False): field_sets("game dealer trump tricks", "maker drops options"),
}
_IN_GAME_FIELDS = {
    (bluke.NAME, True): field_sets("deal turn_up bids plays", "game dealer"),
    (bluke.NAME, False): field_sets("trump bids tricks", "game dealer cards"),
    (buck_euchre.NAME, True): field_sets("deal turn_up plays", "game dealer calls discard drops"),
    (buck_euchre.NAME, False): field_sets("trump tricks", "game dealer maker drops"),
}


def evaluate_hand(record: Mapping[str, object]) -> HandResult:
    """The result of a hand record standing alone."""
    outcome = hand_outcome(record)
    return outcome if isinstance(outcome, HandResult) else outcome.result()


def hand_outcome(record: Mapping[str, object]) -> HandResult | BlukeHand | BuckEuchreHand:
    """A hand record standing alone, checked: the finished hand for a move
    log (its ``result()`` is the record's result), the result for a hand given
    as results. Raises :class:`RecordError`."""
    name = game_name(record)
    form = "deal" in record
    check_fields(record, _STANDALONE_FIELDS[name, form])
    options = options_field(record.get("options", {}))
    if name == buck_euchre.NAME:
        rules: Rules = game_rules(name, buck_euchre.PLAYERS, options)
    else:
        # A Bluke hand does not state its players: they are the seats dealt
        # or, for results only, the seats that bid.
        field = "deal" if form else "bids"
        players = len(list_field(record[field], field))
        if not bluke.MIN_PLAYERS <= players <= bluke.MAX_PLAYERS:
            raise InvalidRecord(
                "bad_deal" if form else "bad_bid",
                f"{field} has {players} seats: "
                f"Bluke is for {bluke.MIN_PLAYERS} to {bluke.MAX_PLAYERS} players",
            )
        rules = game_rules(name, players, options)
    dealer = check_seat(int_field(record["dealer"], "dealer"), rules.players, field="dealer")
    return _hand_body(rules, record, dealer=dealer, cards=None)


def evaluate_game_hand(
    rules: Rules, record: Mapping[str, object], *, dealer: int, cards: int | None
) -> HandResult:
    """The result of one hand of a game, in either form.

    ``dealer`` is the seat whose turn it is to deal and ``cards`` the hand
    size the game's schedule requires (Bluke; ``None`` for Buck Euchre). The
    hand may repeat the game's ``game`` and ``dealer`` but not contradict
    them. Raises :class:`RecordError` for a hand the engine refuses.
    """
    _check_in_game_header(rules, record, dealer=dealer)
    return _evaluate_hand_body(rules, record, dealer=dealer, cards=cards)


def _check_in_game_header(rules: Rules, record: Mapping[str, object], *, dealer: int) -> None:
    """A hand in a game may repeat ``game`` and ``dealer`` but must not
    contradict them; its other fields are those of its form."""
    check_fields(record, _IN_GAME_FIELDS[rules.name, "deal" in record])
    if "game" in record and record["game"] != rules.name:
        raise InvalidRecord("invalid", f"a hand of {rules.name} says game {_shown(record['game'])}")
    if "dealer" in record and int_field(record["dealer"], "dealer") != dealer:
        raise InvalidRecord(
            "invalid", f"the dealer of this hand is seat {dealer}, not {_shown(record['dealer'])}"
        )


def _evaluate_hand_body(
    rules: Rules, record: Mapping[str, object], *, dealer: int, cards: int | None
) -> HandResult:
    """A hand's result once the game, players and dealer are known.

    ``cards`` is the hand size a game's schedule requires (Bluke), or
    ``None`` for a hand standing alone."""
    outcome = _hand_body(rules, record, dealer=dealer, cards=cards)
    return outcome if isinstance(outcome, HandResult) else outcome.result()


def _hand_body(
    rules: Rules, record: Mapping[str, object], *, dealer: int, cards: int | None
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
    rules: Bluke, record: Mapping[str, object], *, dealer: int, cards: int | None
) -> BlukeHand:
    deal = deal_field(record["deal"])
    hand = rules.new_hand(
        dealer=dealer, deal=deal, turn_up=card_field(record["turn_up"], "turn_up")
    )
    if cards is not None and hand.cards != cards:
        raise InvalidRecord(
            "bad_deal", f"this hand of the game deals {cards} cards a seat, not {hand.cards}"
        )
    hand.apply_bids(int_list_field(record["bids"], "bids", "bad_bid"))
    _replay_plays(hand, record["plays"])
    return hand


def _score_bluke(rules: Bluke, record: Mapping[str, object], *, cards: int | None) -> HandResult:
    size = int_field(record["cards"], "cards") if "cards" in record else cards
    if size is None:
        raise InvalidRecord("invalid", "missing field 'cards'")
    if cards is not None and size != cards:
        raise InvalidRecord(
            "bad_deal", f"this hand of the game deals {cards} cards, not {_shown(size)}"
        )
    return rules.score_results(
        cards=size,
        trump=trump_field(record["trump"]),
        bids=int_list_field(record["bids"], "bids", "bad_bid"),
        tricks=int_list_field(record["tricks"], "tricks", "bad_tricks"),
    )


def _replayed_buck_euchre(
    rules: BuckEuchre, record: Mapping[str, object], *, dealer: int
) -> BuckEuchreHand:
    hand: BuckEuchreHand = rules.new_hand(
        dealer=dealer,
        deal=deal_field(record["deal"]),
        turn_up=card_field(record["turn_up"], "turn_up"),
    )
    calls = list_field(record.get("calls", []), "calls")
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
        hand.discard(card_field(record["discard"], "discard", code="bad_discard"))
    elif "discard" in record:
        raise IllegalMove("bad_discard", "nobody ordered up, so the dealer does not discard")
    hand.apply_drops(int_list_field(record.get("drops", []), "drops", "bad_drop"))
    _replay_plays(hand, record["plays"])
    return hand


def _score_buck_euchre(rules: BuckEuchre, record: Mapping[str, object]) -> HandResult:
    maker = record.get("maker")
    return rules.score_results(
        trump=trump_field(record["trump"]),
        maker=None if maker is None else int_field(maker, "maker"),
        drops=int_list_field(record.get("drops", []), "drops", "bad_drop"),
        tricks=int_list_field(record["tricks"], "tricks", "bad_tricks"),
    )


def _replay_plays(hand: BlukeHand | BuckEuchreHand, plays: object) -> None:
    """Replay the plays to the end of the hand. A value that is not a card
    code is passed on as it is: the trick play refuses it (``bad_card``) where
    it lies, once the plays before it have been checked."""
    values = list_field(plays, "plays")
    cards: Sequence[object] | None = fast_cards(values)
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
