"""A simple bot that plays legal hands through the state API.

It is not strong: it is deterministic for a seed, quick, and plays like a
beginner who counts high cards. The demo data, test generators and
benchmarks use it to make games that are legal by construction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.bluke import Bluke, BlukeHand
from games.bluke import Phase as BlukePhase
from games.buck_euchre import BuckEuchreHand
from games.buck_euchre import Phase as BuckPhase
from games.cards import Card, Suit
from games.rules import Rules
from games.tally import GameTally


def _strength(card: Card, trump: Suit | None) -> int:
    """A rough value: Blukes, then trumps, then plain cards, by rank."""
    if card.suit is None:
        return 100 + card.rank
    if trump is not None and card.suit is trump:
        return 50 + card.rank
    return card.rank


class SimpleBot:
    """Chooses bids, calls, drops and cards for whichever seat is to act."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    # -- Bluke ----------------------------------------------------------------

    def bluke_bid(self, hand: BlukeHand, seat: int) -> int:
        held = hand.deal[seat]
        sure = sum(1 for c in held if _strength(c, hand.trump) >= 50 + 12 or c.suit is None)
        aces = sum(1 for c in held if c.rank == 14 and c.suit is not hand.trump)
        return max(1, min(hand.cards, sure + aces + self.rng.choice((0, 0, 1))))

    def bluke_card(self, hand: BlukeHand) -> Card:
        seat = hand.to_act
        assert seat is not None
        bid = hand.bids[seat] or 0
        wants_tricks = hand.tricks.tricks[seat] < bid
        ordered = sorted(
            hand.tricks.legal_cards(), key=lambda c: (_strength(c, hand.trump), c.index)
        )
        return ordered[-1] if wants_tricks else ordered[0]

    def play_bluke_hand(self, hand: BlukeHand) -> dict[str, Any]:
        """Play a fresh hand out; the move log as a record's hand fields."""
        plays: list[str] = []
        while not hand.is_terminal():
            if hand.phase is BlukePhase.BID:
                seat = hand.to_act
                assert seat is not None
                hand.bid(self.bluke_bid(hand, seat))
            else:
                card = self.bluke_card(hand)
                hand.play(card)
                plays.append(card.code)
        return {
            "deal": [[c.code for c in dealt] for dealt in hand.deal],
            "turn_up": hand.turn_up.code,
            "bids": list(hand.bids),
            "plays": plays,
        }

    # -- Buck Euchre ------------------------------------------------------------

    def _trumps_held(self, held: Sequence[Card], suit: Suit) -> int:
        return sum(1 for c in held if c.suit is suit or (c.rank == 11 and c.suit is suit.partner))

    def play_buck_euchre_hand(self, hand: BuckEuchreHand) -> dict[str, Any]:
        """Play a fresh hand out; the move log as a record's hand fields."""
        calls: list[str] = []
        discard: str | None = None
        drops: list[int] = []
        plays: list[str] = []
        while not hand.is_terminal():
            seat = hand.to_act
            assert seat is not None
            held = list(hand.deal[seat])
            if hand.phase is BuckPhase.CALL:
                call = self._call(hand, held)
                hand.call(call)
                calls.append(call)
            elif hand.phase is BuckPhase.DISCARD:
                card = min(
                    hand.hands[hand.dealer], key=lambda c: (_strength(c, hand.trump), c.index)
                )
                hand.discard(card)
                discard = card.code
            elif hand.phase is BuckPhase.DROP:
                weak = hand.trump is not None and self._trumps_held(held, hand.trump) == 0
                drop = weak and self.rng.random() < 0.7
                hand.decide_drop(drop)
                if drop:
                    drops.append(seat)
            else:
                assert hand.tricks is not None
                card = max(
                    hand.tricks.legal_cards(), key=lambda c: (_strength(c, hand.trump), c.index)
                )
                hand.play(card)
                plays.append(card.code)
        record: dict[str, Any] = {
            "deal": [[c.code for c in dealt] for dealt in hand.deal],
            "turn_up": hand.turn_up.code,
            "calls": calls,
            "plays": plays,
        }
        if discard is not None:
            record["discard"] = discard
        if drops:
            record["drops"] = drops
        return record

    def _call(self, hand: BuckEuchreHand, held: Sequence[Card]) -> str:
        turned = hand.turn_up.suit
        assert turned is not None
        if len(hand.calls) < 4:
            return "order" if self._trumps_held(held, turned) >= 3 else "pass"
        best = max((s for s in Suit if s is not turned), key=lambda s: self._trumps_held(held, s))
        return best.value if self._trumps_held(held, best) >= 3 else "pass"


def bot_game(
    rules: Rules, *, first_dealer: int, seed: int, max_hands: int = 200
) -> list[dict[str, Any]]:
    """The hands of a whole game played by :class:`SimpleBot`, as move logs
    (Buck Euchre stops after ``max_hands`` if nobody has won by then)."""
    bot = SimpleBot(seed)
    tally = GameTally(rules, first_dealer=first_dealer)
    hands: list[dict[str, Any]] = []
    while not tally.complete and len(hands) < max_hands:
        dealer = tally.next_dealer
        if isinstance(rules, Bluke):
            size = tally.next_hand_size
            if size is None:
                break
            deal, turn_up = rules.deal_random(bot.rng, cards=size)
            record = bot.play_bluke_hand(rules.new_hand(dealer=dealer, deal=deal, turn_up=turn_up))
        else:
            deal, turn_up = rules.deal_random(bot.rng)
            record = bot.play_buck_euchre_hand(
                rules.new_hand(dealer=dealer, deal=deal, turn_up=turn_up)
            )
        tally.add(record)
        hands.append(record)
    return hands
