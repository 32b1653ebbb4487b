"""The rules of Bluke: 2 to 15 players, 54 cards, bid 1..n and make it.

:class:`Bluke` is the immutable game (players and options); :class:`BlukeHand`
is the state of one hand, driven by :meth:`BlukeHand.apply_action`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Literal

from games.cards import ALL_CARDS, BLUKE_DECK, HI_BLUKE, LO_BLUKE, Card, Suit
from games.errors import IllegalMove, InvalidRecord, check_seat, shown
from games.results import HandAnswer, HandResult
from games.tricks import TrickPlay, TrickRules, check_tricks_taken, clockwise, dealt_hands, mask_of

NAME: Final = "bluke"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 15
BLUKE_LEADS: Final = ("trump", "free")


def max_hand_size(players: int) -> int:
    """The largest hand, ``M``: 13 for 2-4 players, else ``floor(52 / n)``."""
    return 13 if players <= 4 else 52 // players


def hand_points(bid: int, tricks: int) -> int:
    """A seat's score for one hand: ``10 x bid + overtricks``, or ``-10 x bid``."""
    return 10 * bid + (tricks - bid) if tricks >= bid else -10 * bid


class Phase(StrEnum):
    BID = "bid"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Bluke:
    """Bluke for ``players`` seats with its rule options.

    ``bluke_lead``: ``"trump"`` (a led Bluke calls for trumps) or ``"free"``.
    ``max_cards``: the largest hand of a shortened game (``None``: ``M``).
    """

    players: int
    bluke_lead: Literal["trump", "free"] = "trump"
    max_cards: int | None = None

    def __post_init__(self) -> None:
        if type(self.players) is not int or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidRecord(
                "invalid",
                f"Bluke is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {shown(self.players)}",
            )
        if self.bluke_lead not in BLUKE_LEADS:
            raise InvalidRecord(
                "invalid",
                f"option bluke_lead must be 'trump' or 'free', not {shown(self.bluke_lead)}",
            )
        limit = max_hand_size(self.players)
        if self.max_cards is not None and (
            type(self.max_cards) is not int or not 1 <= self.max_cards <= limit
        ):
            raise InvalidRecord(
                "invalid",
                f"option max_cards must be 1..{limit} for {self.players} players, "
                f"not {shown(self.max_cards)}",
            )

    @property
    def name(self) -> str:
        """``"bluke"``: the ``game`` of its records. (A property, not a class
        attribute: a dataclass compiled by mypyc cannot hold a ``ClassVar``.)"""
        return NAME

    @property
    def largest_hand(self) -> int:
        return self.max_cards if self.max_cards is not None else max_hand_size(self.players)

    @property
    def schedule(self) -> tuple[int, ...]:
        """Cards dealt in each hand: ``M, M-1, ..., 1, 2, ..., M``."""
        top = self.largest_hand
        return tuple(range(top, 0, -1)) + tuple(range(2, top + 1))

    @property
    def options(self) -> dict[str, object]:
        """The options that differ from the defaults, as a record spells them."""
        out: dict[str, object] = {}
        if self.bluke_lead != "trump":
            out["bluke_lead"] = self.bluke_lead
        if self.max_cards is not None:
            out["max_cards"] = self.max_cards
        return out

    def trick_rules(self, trump: Suit | None) -> TrickRules:
        return _trick_rules(trump, self.bluke_lead)

    def new_hand(self, *, dealer: int, deal: Sequence[Sequence[Card]], turn_up: Card) -> BlukeHand:
        """A hand ready for bidding; raises :class:`InvalidRecord` for a bad deal."""
        return BlukeHand(self, dealer=dealer, deal=deal, turn_up=turn_up)

    def deal_random(self, rng: random.Random, *, cards: int) -> tuple[list[list[Card]], Card]:
        """A shuffled deal of ``cards`` to every seat, and the turned-up card."""
        if not 1 <= cards <= self.largest_hand:
            raise ValueError(f"hand size must be 1..{self.largest_hand}")
        pack = list(ALL_CARDS)
        rng.shuffle(pack)
        deal = [pack[seat * cards : (seat + 1) * cards] for seat in range(self.players)]
        return deal, pack[self.players * cards]

    def score_results(
        self, *, cards: int, trump: Suit | None, bids: Sequence[int], tricks: Sequence[int]
    ) -> HandResult:
        """Check a hand given as results only (bids and tricks) and score it."""
        n = self.players
        if not 1 <= cards <= self.largest_hand:
            raise InvalidRecord(
                "bad_deal", f"a hand of {shown(cards)} cards is outside 1..{self.largest_hand}"
            )
        _check_bid_count(bids, n)
        for seat, bid in enumerate(bids):
            _check_bid(seat, bid, cards)
        check_tricks_taken(tricks, players=n, cards=cards)
        if sum(tricks) != cards:
            raise InvalidRecord(
                "bad_tricks", f"tricks add up to {shown(sum(tricks))}, not the {cards} cards dealt"
            )
        return HandResult(
            game=NAME,
            trump=trump,
            tricks=tuple(tricks),
            points=tuple(hand_points(b, t) for b, t in zip(bids, tricks, strict=True)),
        )


def _check_bid_count(bids: Sequence[object], players: int) -> None:
    if len(bids) != players:
        raise InvalidRecord("bad_bid", f"bids has {len(bids)} entries for {players} seats")


def _check_bid(seat: int, bid: object, cards: int) -> None:
    if type(bid) is not int or not 1 <= bid <= cards:
        raise IllegalMove(
            "bad_bid", f"seat {seat} bid {shown(bid)}: bids run 1..{cards}", seat=seat
        )


class BlukeHand:
    """One hand of Bluke: bidding from the dealer's left, then the tricks."""

    def __init__(
        self, game: Bluke, *, dealer: int, deal: Sequence[Sequence[Card]], turn_up: Card
    ) -> None:
        n = game.players
        check_seat(dealer, n, field="dealer")
        hands = _check_deal(game, deal, turn_up)
        self.game = game
        self.dealer = dealer
        self.cards = len(deal[0])
        self.turn_up = turn_up
        self.deal: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in deal)
        self.trump: Suit | None = turn_up.suit
        self.bids: list[int | None] = [None] * n
        self._bidder: int | None = (dealer + 1) % n
        first = (dealer + 1) % n
        self.tricks = TrickPlay(game.trick_rules(self.trump), hands, clockwise(n, first), first)

    @property
    def phase(self) -> Phase:
        if self._bidder is not None:
            return Phase.BID
        return Phase.OVER if self.tricks.is_over else Phase.PLAY

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or ``None`` when the hand is over."""
        return self._bidder if self._bidder is not None else self.tricks.to_play

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def legal_actions(self) -> list[int] | list[Card]:
        """Bids (ints) while bidding, then the cards the seat may play."""
        if self._bidder is not None:
            return list(range(1, self.cards + 1))
        return self.tricks.legal_cards()

    def apply_action(self, action: int | Card) -> None:
        """Bid (an int) or play (a :class:`Card`), checked against the rules."""
        if self._bidder is not None:
            if isinstance(action, Card):
                raise IllegalMove("bad_bid", f"seat {self._bidder} must bid, not play {action}")
            self.bid(action)
        elif isinstance(action, Card):
            self.play(action)
        else:
            raise InvalidRecord("bad_card", f"expected a card to play, not {shown(action)}")

    def bid(self, bid: int) -> None:
        seat = self._bidder
        if seat is None:
            raise IllegalMove("bad_bid", "the bidding is over")
        _check_bid(seat, bid, self.cards)
        self.bids[seat] = bid
        nxt = (seat + 1) % self.game.players
        self._bidder = None if nxt == (self.dealer + 1) % self.game.players else nxt

    def apply_bids(self, bids: Sequence[int]) -> None:
        """Every bid at once, given by seat; checked in bidding order."""
        _check_bid_count(bids, self.game.players)
        for seat in clockwise(self.game.players, (self.dealer + 1) % self.game.players):
            self.bid(bids[seat])

    def play(self, card: object) -> None:
        """Play one card for the seat to play (see :meth:`play_many`); a value
        that is not a :class:`Card` is refused as ``bad_card``."""
        self.play_many((card,))

    def play_many(self, cards: Sequence[object]) -> None:
        """Play cards in order; raises :class:`IllegalMove` at the first illegal one."""
        if self._bidder is not None:
            raise IllegalMove("bad_bid", f"seat {self._bidder} has not bid yet", seat=self._bidder)
        self.tricks.play(cards)

    def result(self) -> HandResult:
        """Tricks, points and trick winners of a finished hand."""
        return HandResult(
            game=NAME,
            trump=self.trump,
            points=tuple(self._points()),
            tricks=tuple(self.tricks.tricks),
            winners=tuple(self.tricks.winners),
        )

    def answer(self) -> HandAnswer:
        """``self.result().to_json()``, the answer to the hand's record, built
        without the :class:`HandResult` (checking a record needs only this)."""
        return {
            "ok": True,
            "game": NAME,
            "trump": self.trump,
            "tricks": list(self.tricks.tricks),
            "points": self._points(),
            "winners": list(self.tricks.winners),
        }

    def answer_json(self) -> str:
        """``json.dumps(self.answer())``, written directly: what ``games check``
        prints for the hand. The values are known (a one-letter suit or
        ``None``, lists of ints), so nothing needs escaping."""
        # A Suit is a str (its letter): concatenated as one, not through .value.
        trump = "null" if self.trump is None else '"' + self.trump + '"'
        return (
            f'{{"ok": true, "game": "{NAME}", "trump": {trump}, '
            f'"tricks": [{_ints(self.tricks.tricks)}], "points": [{_ints(self._points())}], '
            f'"winners": [{_ints(self.tricks.winners)}]}}'
        )

    def _points(self) -> list[int]:
        """Each seat's points of a finished hand; raises :class:`IllegalMove` before."""
        if not self.is_terminal():
            raise IllegalMove("wrong_number_of_plays", "the hand is not finished")
        bids, tricks = self.bids, self.tricks.tricks
        points: list[int] = []
        for seat in range(len(bids)):
            bid = bids[seat]
            assert bid is not None  # every seat bid before the first card was played
            points.append(hand_points(bid, tricks[seat]))
        return points


def _ints(values: list[int]) -> str:
    """Integers as the items of a JSON array, spaced as ``json.dumps`` spaces
    them. (Not ``str(values)``: a list's repr costs twice as much, compiled.)"""
    texts = _INT_TEXTS
    return ", ".join([texts[value] if 0 <= value < len(texts) else str(value) for value in values])


_INT_TEXTS: Final[list[str]] = [str(value) for value in range(256)]
"""The text of the small ints an answer is made of (seats, tricks, most points),
made once rather than for every answer."""


def _check_deal(game: Bluke, deal: Sequence[Sequence[Card]], turn_up: Card) -> list[int]:
    """The dealt hands as bit masks, after checking the deal's shape and cards."""
    n = game.players
    if len(deal) != n:
        raise InvalidRecord("bad_deal", f"deal has {len(deal)} hands for {n} players")
    size = len(deal[0])
    for seat, dealt in enumerate(deal):
        if len(dealt) != size:
            raise InvalidRecord(
                "bad_deal", f"seat {seat} was dealt {len(dealt)} cards, seat 0 {size}", seat=seat
            )
    if not 1 <= size <= game.largest_hand:
        raise InvalidRecord(
            "bad_deal", f"a hand of {size} cards is outside 1..{game.largest_hand} for {n} players"
        )
    return dealt_hands(deal, turn_up, deck=_DECK_MASK, deck_name="Bluke")


def _make_trick_rules(trump: Suit | None, bluke_lead: str) -> TrickRules:
    suit_of = {c: c.suit for c in ALL_CARDS}
    power = {HI_BLUKE: 101, LO_BLUKE: 100}
    if trump is not None:
        power.update({c: 50 + c.rank for c in ALL_CARDS if c.suit is trump})
    led_bluke_calls_for = trump if bluke_lead == "trump" else None
    follow_after = {c: (c.suit if c.suit is not None else led_bluke_calls_for) for c in ALL_CARDS}
    return TrickRules(trump=trump, suit_of=suit_of, follow_after=follow_after, power=power)


_TRICK_RULES: Final = {
    (trump, lead): _make_trick_rules(trump, lead) for trump in (*Suit, None) for lead in BLUKE_LEADS
}


def _trick_rules(trump: Suit | None, bluke_lead: str) -> TrickRules:
    return _TRICK_RULES[(trump, bluke_lead)]


_DECK_MASK: Final = mask_of(BLUKE_DECK)
