"""Trick-taking mechanics shared by every game: turn order, following suit,
and who wins a trick.

A game describes how its cards behave once trump is known with a
:class:`TrickRules` (which suit each card belongs to, which suit a lead
obliges the others to follow, which cards beat everything of the suit led),
and plays the tricks of a hand with a :class:`TrickPlay`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.cards import Card, Suit
from games.errors import IllegalMove


@dataclass(frozen=True, slots=True)
class TrickRules:
    """How the cards behave in trick play for one choice of trump.

    - ``suit_of``: the suit a card counts as when following (the left bower
      counts as trump); ``None`` for a card that may be played at any time
      and never follows anything (a Bluke).
    - ``follow_after``: for each card, the suit that the other players must
      follow when it is led, or ``None`` if they may play anything.
    - ``power``: the strength of every card that wins whatever was led
      (trumps and Blukes); all are above 14, the highest plain rank.
    """

    trump: Suit | None
    suit_of: Mapping[Card, Suit | None]
    follow_after: Mapping[Card, Suit | None]
    power: Mapping[Card, int]

    def winning_index(self, trick: Sequence[Card]) -> int:
        """The position in ``trick`` of the card that takes it."""
        power = self.power
        led_suit = self.suit_of[trick[0]]
        best_index, best = 0, -1
        for index, played in enumerate(trick):
            strength = power.get(played)
            if strength is None:
                strength = played.rank if self.suit_of[played] is led_suit else 0
            if strength > best:
                best_index, best = index, strength
        return best_index


class TrickPlay:
    """The trick play of one hand, one card at a time.

    ``hands`` are the cards each seat holds (seats that sit the hand out hold
    nothing); ``seats`` are the seats that play, clockwise; ``leader`` leads
    the first trick. Every method leaves the state unchanged when it raises.
    """

    __slots__ = (
        "_follow",
        "_leader",
        "_next",
        "_order_from",
        "hands",
        "plays_made",
        "rules",
        "seats",
        "to_play",
        "trick",
        "tricks",
        "winners",
    )

    def __init__(
        self,
        rules: TrickRules,
        hands: Sequence[set[Card]],
        seats: Sequence[int],
        leader: int,
    ) -> None:
        self.rules = rules
        self.hands = [set(h) for h in hands]
        self.seats = tuple(seats)
        self.tricks = [0] * len(hands)
        self.winners: list[int] = []
        self.trick: list[Card] = []
        self.plays_made = 0
        self._follow: Suit | None = None
        self._leader = leader
        count = len(self.seats)
        self._next = {s: self.seats[(i + 1) % count] for i, s in enumerate(self.seats)}
        self._order_from = {
            s: tuple(self.seats[(i + k) % count] for k in range(count))
            for i, s in enumerate(self.seats)
        }
        self.to_play: int | None = leader if self.hands[leader] else None

    @property
    def is_over(self) -> bool:
        return self.to_play is None

    @property
    def leader(self) -> int:
        """The seat that led, or is to lead, the current trick."""
        return self._leader

    def legal_cards(self) -> list[Card]:
        """The cards the seat to play may play now, in deck order."""
        if self.to_play is None:
            return []
        hand = self.hands[self.to_play]
        follow = self._follow if self.trick else None
        suit_of = self.rules.suit_of
        if follow is not None and any(suit_of[c] is follow for c in hand):
            legal = [c for c in hand if suit_of[c] is follow or suit_of[c] is None]
        else:
            legal = list(hand)
        return sorted(legal, key=_deck_order)

    def play(self, cards: Iterable[Card]) -> None:
        """Play ``cards`` in order, each by the seat whose turn it is.

        Raises :class:`IllegalMove` (``not_in_hand``, ``must_follow_suit``)
        at the first card the rules forbid, with ``play`` set to its index
        among the plays of the hand; the cards before it stay played. A card
        after the last trick raises ``wrong_number_of_plays``.
        """
        suit_of = self.rules.suit_of
        follow_after = self.rules.follow_after
        hands = self.hands
        next_seat = self._next
        trick = self.trick
        size = len(self.seats)
        seat = self.to_play
        follow = self._follow
        index = self.plays_made
        try:
            for card in cards:
                if seat is None:
                    raise IllegalMove(
                        "wrong_number_of_plays",
                        f"play {index} comes after the last trick",
                        play=index,
                        card=_code(card),
                    )
                hand = hands[seat]
                if card not in hand:
                    raise IllegalMove(
                        "not_in_hand",
                        f"seat {seat} does not hold {_code(card)}",
                        play=index,
                        seat=seat,
                        card=_code(card),
                    )
                if trick:
                    if follow is not None:
                        suit = suit_of[card]
                        if suit is not follow and suit is not None:
                            _check_void(self.rules, hand, follow, seat, card, index)
                else:
                    follow = follow_after[card]
                hand.remove(card)
                trick.append(card)
                index += 1
                if len(trick) < size:
                    seat = next_seat[seat]
                else:
                    winner = self._order_from[self._leader][self.rules.winning_index(trick)]
                    self.tricks[winner] += 1
                    self.winners.append(winner)
                    trick.clear()
                    self._leader = winner
                    seat = winner if hands[winner] else None
        finally:
            self.to_play = seat
            self._follow = follow
            self.plays_made = index


def _check_void(
    rules: TrickRules, hand: set[Card], follow: Suit, seat: int, card: Card, index: int
) -> None:
    """Raise ``must_follow_suit`` unless ``hand`` is void in ``follow``."""
    suit_of = rules.suit_of
    held = sorted((c for c in hand if suit_of[c] is follow), key=_deck_order)
    if not held:
        return
    what = "trumps" if follow is rules.trump else follow.word
    raise IllegalMove(
        "must_follow_suit",
        f"seat {seat} must follow {what} (holds {held[0].code}) but played {card.code}",
        play=index,
        seat=seat,
        card=card.code,
    )


def _deck_order(card: Card) -> int:
    return card.index


def _code(card: object) -> str:
    return card.code if isinstance(card, Card) else str(card)
