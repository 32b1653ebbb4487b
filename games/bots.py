"""A simple bot that plays legal hands through the state API.

It is not strong: it is deterministic for a seed, quick, and plays like a
beginner who counts high cards. The demo data, test generators and
benchmarks use it to make games that are legal by construction.

:class:`NoisyBot` is the same strategy with mistakes of known frequency (a
:class:`Noise` per seat): players of known strength, for measuring how well a
rating finds them (``benchmarks/rating_quality.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.bluke import Bluke, BlukeHand
from games.bluke import Phase as BlukePhase
from games.buck_euchre import BuckEuchreHand
from games.buck_euchre import Phase as BuckPhase
from games.cards import Card, Suit
from games.rules import Rules
from games.tally import GameTally
from games.tricks import TrickPlay


def _strength(card: Card, trump: Suit | None) -> int:
    """A rough value: Blukes, then trumps, then plain cards, by rank."""
    if card.suit is None:
        return 100 + card.rank
    if trump is not None and card.suit is trump:
        return 50 + card.rank
    return card.rank


def watchful_card(tricks: TrickPlay, trump: Suit | None, *, wants_trick: bool) -> Card:
    """A card chosen by looking at the trick so far, as a careful beginner would.

    Leading: the strongest card (by the rough value Blukes, trumps, rank) when
    wanting the trick, else the weakest. Following: when wanting the trick, the
    cheapest card that beats the best card played so far, or the weakest card if
    none can; when not, the strongest card that still loses (shedding danger), or
    the strongest if every card wins.
    """
    legal = tricks.legal_cards()

    def rough(card: Card) -> tuple[int, int]:
        return _strength(card, trump), card.index

    played = tricks.current_trick
    if not played:
        return max(legal, key=rough) if wants_trick else min(legal, key=rough)
    power = tricks.rules.strength[played[0].index]
    best = max(power[c.index] for c in played)
    beats = [c for c in legal if power[c.index] > best]
    if wants_trick:
        if beats:
            return min(beats, key=lambda c: (power[c.index], c.index))
        return min(legal, key=rough)
    loses = [c for c in legal if power[c.index] <= best]
    return max(loses or legal, key=rough)


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
            if hand.phase is BuckPhase.CALL:
                call = self.buck_call(hand, seat)
                hand.call(call)
                calls.append(call)
            elif hand.phase is BuckPhase.DISCARD:
                card = self.buck_discard(hand, seat)
                hand.discard(card)
                discard = card.code
            elif hand.phase is BuckPhase.DROP:
                drop = self.buck_drop(hand, seat)
                hand.decide_drop(drop)
                if drop:
                    drops.append(seat)
            else:
                card = self.buck_card(hand, seat)
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

    def buck_call(self, hand: BuckEuchreHand, seat: int) -> str:
        """Order up (round one) or name a suit (round two) with three trumps, else pass."""
        held = hand.deal[seat]
        turned = hand.turn_up.suit
        assert turned is not None
        if len(hand.calls) < 4:
            return "order" if self._trumps_held(held, turned) >= 3 else "pass"
        best = max((s for s in Suit if s is not turned), key=lambda s: self._trumps_held(held, s))
        return best.value if self._trumps_held(held, best) >= 3 else "pass"

    def buck_discard(self, hand: BuckEuchreHand, seat: int) -> Card:
        """The dealer's weakest card."""
        return min(hand.hands[seat], key=lambda c: (_strength(c, hand.trump), c.index))

    def buck_drop(self, hand: BuckEuchreHand, seat: int) -> bool:
        """Drop, seven times in ten, when holding no trump."""
        weak = hand.trump is not None and self._trumps_held(hand.deal[seat], hand.trump) == 0
        return weak and self.rng.random() < 0.7

    def buck_card(self, hand: BuckEuchreHand, seat: int) -> Card:
        """The strongest legal card."""
        assert hand.tricks is not None
        return max(hand.tricks.legal_cards(), key=lambda c: (_strength(c, hand.trump), c.index))


def bot_game(
    rules: Rules, *, first_dealer: int, seed: int, max_hands: int = 200
) -> list[dict[str, Any]]:
    """The hands of a whole game played by :class:`SimpleBot`, as move logs
    (Buck Euchre stops after ``max_hands`` if nobody has won by then)."""
    hands, _ = play_game(SimpleBot(seed), rules, first_dealer=first_dealer, max_hands=max_hands)
    return hands


def play_game(
    bot: SimpleBot, rules: Rules, *, first_dealer: int, max_hands: int = 200
) -> tuple[list[dict[str, Any]], GameTally]:
    """A whole game played by ``bot`` for every seat, dealt from ``bot.rng``: the
    hands as move logs and the :class:`GameTally` that checked and added them (so a
    game the engine refuses raises). Buck Euchre stops after ``max_hands`` if nobody
    has won by then, leaving the tally incomplete."""
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
    return hands, tally


@dataclass(frozen=True)
class Noise:
    """How one seat's player strays from :class:`SimpleBot`: each is the chance,
    per decision, of a mistake.

    ``bid``: a Bluke bid or a Buck Euchre call replaced by a random legal one.
    ``card``: a card play (and a Buck Euchre dealer's discard) replaced by a random
    legal one. ``drop``: a Buck Euchre drop decision replaced by a coin toss.
    ``stay``: in Buck Euchre, staying in where the strategy would drop (a player who
    with ``stay=1`` never drops). The default is no noise: :class:`SimpleBot`'s play.
    """

    bid: float = 0.0
    card: float = 0.0
    drop: float = 0.0
    stay: float = 0.0

    def __post_init__(self) -> None:
        for name in ("bid", "card", "drop", "stay"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} is a probability, not {value!r}")


class NoisyBot(SimpleBot):
    """:class:`SimpleBot` with mistakes: each seat plays with its own :class:`Noise`.

    The strategy's own choice is always made first (so the deal and the strategy
    draw from ``rng`` exactly as :class:`SimpleBot` does), then the seat's noise may
    replace it; the mistakes draw from a second generator seeded from ``seed``. With
    no noise at any seat, a game is exactly :class:`SimpleBot`'s for the same seed.

    ``watchful``: play cards by :func:`watchful_card` instead of
    :class:`SimpleBot`'s (which plays its highest card whenever it wants a trick,
    even one it cannot win, so that in Bluke a random card does no worse): the
    strategy for measuring card play, where a mistake must cost something.
    """

    def __init__(self, seed: int, noise: Sequence[Noise], *, watchful: bool = False) -> None:
        super().__init__(seed)
        self.noise = tuple(noise)
        self.watchful = watchful
        self.mistakes = random.Random(f"noise {seed}")

    def _strays(self, chance: float) -> bool:
        # No draw at all for a chance of 0: a noiseless seat costs nothing.
        return chance > 0.0 and self.mistakes.random() < chance

    def bluke_bid(self, hand: BlukeHand, seat: int) -> int:
        bid = super().bluke_bid(hand, seat)
        if self._strays(self.noise[seat].bid):
            return self.mistakes.randint(1, hand.cards)
        return bid

    def bluke_card(self, hand: BlukeHand) -> Card:
        seat = hand.to_act
        assert seat is not None
        if self.watchful:
            wants = hand.tricks.tricks[seat] < (hand.bids[seat] or 0)
            card = watchful_card(hand.tricks, hand.trump, wants_trick=wants)
        else:
            card = super().bluke_card(hand)
        if self._strays(self.noise[seat].card):
            return self.mistakes.choice(hand.tricks.legal_cards())
        return card

    def buck_call(self, hand: BuckEuchreHand, seat: int) -> str:
        call = super().buck_call(hand, seat)
        if self._strays(self.noise[seat].bid):
            legal = hand.legal_actions()
            return str(self.mistakes.choice(legal))
        return call

    def buck_discard(self, hand: BuckEuchreHand, seat: int) -> Card:
        card = super().buck_discard(hand, seat)
        if self._strays(self.noise[seat].card):
            return self.mistakes.choice(sorted(hand.hands[seat], key=lambda c: c.index))
        return card

    def buck_drop(self, hand: BuckEuchreHand, seat: int) -> bool:
        drop = super().buck_drop(hand, seat)
        noise = self.noise[seat]
        if drop and self._strays(noise.stay):
            drop = False
        if self._strays(noise.drop):
            drop = self.mistakes.random() < 0.5
        return drop

    def buck_card(self, hand: BuckEuchreHand, seat: int) -> Card:
        assert hand.tricks is not None
        if self.watchful:  # every trick taken is a point off
            card = watchful_card(hand.tricks, hand.trump, wants_trick=True)
        else:
            card = super().buck_card(hand, seat)
        if self._strays(self.noise[seat].card):
            return self.mistakes.choice(hand.tricks.legal_cards())
        return card


def noisy_game(
    rules: Rules,
    *,
    first_dealer: int,
    seed: int,
    noise: Sequence[Noise],
    watchful: bool = False,
    max_hands: int = 200,
) -> list[dict[str, Any]]:
    """The hands of a whole game played by :class:`NoisyBot` with ``noise[seat]``
    for each seat, as move logs; :func:`bot_game`'s game when nobody has noise
    and ``watchful`` is off.

    >>> from games import rules_for
    >>> rules = rules_for("bluke", 4, {"max_cards": 3})
    >>> quiet = [Noise()] * 4
    >>> noisy_game(rules, first_dealer=1, seed=7, noise=quiet) == bot_game(
    ...     rules, first_dealer=1, seed=7)
    True
    """
    if len(noise) != rules.players:
        raise ValueError(f"{len(noise)} noises for {rules.players} seats")
    bot = NoisyBot(seed, noise, watchful=watchful)
    hands, _ = play_game(bot, rules, first_dealer=first_dealer, max_hands=max_hands)
    return hands
