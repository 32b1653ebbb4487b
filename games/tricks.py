"""Trick-taking mechanics shared by every game: checking a deal, turn order,
following suit, who wins a trick, and checking the tricks a hand given as
results says each seat took.

A game describes how its cards behave once trump is known with a
:class:`TrickRules` (which suit each card counts as, which suit a lead
obliges the others to follow, which cards beat everything of the suit led),
and plays the tricks of a hand with a :class:`TrickPlay`.

Hands are held as bit masks over :data:`~games.cards.ALL_CARDS` (bit ``i``
is the card whose ``index`` is ``i``) and the rules are precomputed into
tables indexed by card, because replaying a record runs this loop for every
card played and it is the engine's hot path.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from typing import Final, cast, final

from games.cards import ALL_CARDS, Card, Suit
from games.errors import IllegalMove, InvalidRecord, shown, shown_card

BIT_OF: Final[dict[Card, int]] = {card: 1 << card.index for card in ALL_CARDS}


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of a set of distinct cards."""
    # A plain loop, not sum(map(...)): compiled, it runs on native ints.
    mask = 0
    for card in cards:
        mask += 1 << card.index
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit mask, in deck order."""
    found = []
    while mask:
        low = mask & -mask
        found.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return found


def clockwise(players: int, first: int) -> tuple[int, ...]:
    """Seats ``0..players-1`` in turn order from ``first``: the order of bids,
    calls, drops and every trick's play."""
    # Cached in a plain dictionary (a few shapes recur), not functools.cache:
    # compiled, a dictionary look-up costs a fraction of a call through its wrapper.
    found = _CLOCKWISE.get((players, first))
    if found is None:
        found = _CLOCKWISE[players, first] = tuple((first + k) % players for k in range(players))
    return found


_CLOCKWISE: Final[dict[tuple[int, int], tuple[int, ...]]] = {}


def dealt_hands(
    deal: Sequence[Sequence[Card]], turn_up: Card, *, deck: int, deck_name: str
) -> list[int]:
    """Each seat's cards as a bit mask, once every card dealt and the turned-up
    card are known to be of the ``deck`` (a mask) and to appear once.

    Raises ``bad_card`` or ``duplicate_card`` for the first fault in dealing
    order; the deal's shape (seats, hand sizes) is the game's to check.
    """
    masks: list[int] = []
    dealt = 0
    for cards in deal:
        # One loop over the cards, run on native ints when compiled: a card
        # already in the mask is dealt twice.
        mask = 0
        twice = False
        for card in cards:
            bit = 1 << card.index
            twice = twice or bool(mask & bit)
            mask |= bit
        if twice or mask & dealt or mask & ~deck:
            _raise_first_bad_card(deal, deck, deck_name)
        dealt |= mask
        masks.append(mask)
    turned = 1 << turn_up.index
    if not turned & deck:
        raise InvalidRecord(
            "bad_card", f"the turned-up {turn_up} is not in the {deck_name} deck", card=turn_up.code
        )
    if turned & dealt:
        raise InvalidRecord(
            "duplicate_card", f"the turned-up {turn_up} is also dealt", card=turn_up.code
        )
    return masks


def check_tricks_taken(
    tricks: Sequence[int], *, players: int, cards: int, dropped: Container[int] = ()
) -> None:
    """Check the tricks each seat took in a hand given as results: one count a
    seat, each from 0 to the ``cards`` dealt a seat, and none for a seat that
    ``dropped`` out (Buck Euchre). The total is the game's to check.

    Raises ``bad_tricks`` for the first fault, seat by seat; the values are
    known to be integers.
    """
    if len(tricks) != players:
        raise InvalidRecord("bad_tricks", f"tricks has {len(tricks)} entries for {players} seats")
    for seat, took in enumerate(tricks):
        if not 0 <= took <= cards:
            raise InvalidRecord(
                "bad_tricks", f"seat {seat} took {shown(took)} tricks of {cards}", seat=seat
            )
        if seat in dropped and took:
            raise InvalidRecord(
                "bad_tricks", f"seat {seat} dropped out but took {shown(took)} tricks", seat=seat
            )


def _raise_first_bad_card(deal: Sequence[Sequence[Card]], deck: int, deck_name: str) -> None:
    seen = 0
    for seat, cards in enumerate(deal):
        for card in cards:
            bit = BIT_OF[card]
            if not bit & deck:
                raise InvalidRecord(
                    "bad_card",
                    f"{card} is not in the {deck_name} deck",
                    seat=seat,
                    card=card.code,
                )
            if bit & seen:
                raise InvalidRecord(
                    "duplicate_card", f"{card} is dealt twice", seat=seat, card=card.code
                )
            seen |= bit


@final
class TrickRules:
    """How the cards of one deck behave in trick play for one choice of trump.

    - ``suit_of``: for every card of the deck, the suit it counts as when
      following (the left bower counts as trump), or ``None`` for a card that
      may be played at any time and follows nothing (a Bluke).
    - ``follow_after``: for each card, the suit the other players must follow
      when it is led, or ``None`` if they may play anything.
    - ``power``: the strength of every card that wins whatever was led
      (trumps and Blukes); all are above 14, the highest plain rank.
    """

    __slots__ = ("allowed_mask", "follow_mask", "strength", "suit_of", "trump")

    def __init__(
        self,
        *,
        trump: Suit | None,
        suit_of: Mapping[Card, Suit | None],
        follow_after: Mapping[Card, Suit | None],
        power: Mapping[Card, int],
    ) -> None:
        self.trump = trump
        self.suit_of = dict(suit_of)
        deck = list(suit_of)
        suit_masks = {s: mask_of(c for c in deck if suit_of[c] is s) for s in Suit}
        always_allowed = mask_of(c for c in deck if suit_of[c] is None)
        by_led_suit: dict[Suit | None, tuple[int, ...]] = {}
        for led in (*Suit, None):
            by_led_suit[led] = tuple(
                power[c] if c in power else (c.rank if c in suit_of and suit_of[c] is led else 0)
                for c in ALL_CARDS
            )
        size = len(ALL_CARDS)
        self.follow_mask = [0] * size
        """For a card led, the cards that follow it (0: anything may be played)."""
        self.allowed_mask = [0] * size
        """For a card led, the cards a player may play even holding a follower."""
        self.strength: list[tuple[int, ...]] = [by_led_suit[None]] * size
        """For a card led, every card's strength in that trick."""
        for c in deck:
            follow = follow_after[c]
            self.follow_mask[c.index] = suit_masks[follow] if follow is not None else 0
            self.allowed_mask[c.index] = self.follow_mask[c.index] | always_allowed
            self.strength[c.index] = by_led_suit[suit_of[c]]


@final
class TrickPlay:
    """The trick play of one hand, one card at a time.

    ``hands`` are the bit masks of the cards each seat holds (seats that sit
    the hand out hold nothing); ``seats`` are the seats that play, clockwise;
    ``leader`` leads the first trick. A method that raises leaves the state
    as it was before the card it refused.
    """

    __slots__ = (
        "_allowed",
        "_best",
        "_best_seat",
        "_first_leader",
        "_follow",
        "_hands",
        "_history",
        "_leader",
        "_next",
        "_pos",
        "_strength",
        "plays_made",
        "rules",
        "seats",
        "to_play",
        "tricks",
        "winners",
    )

    def __init__(
        self, rules: TrickRules, hands: Sequence[int], seats: Sequence[int], leader: int
    ) -> None:
        self.rules = rules
        self.seats = tuple(seats)
        self._hands = list(hands)
        self.tricks = [0] * len(hands)
        self.winners: list[int] = []
        self.plays_made = 0
        self._history: list[Card] = []
        self._pos = 0
        self._leader = self._first_leader = leader
        self._next = _next_seats(self.seats)
        self._follow = self._allowed = self._best = self._best_seat = 0
        self._strength: tuple[int, ...] = ()
        self.to_play: int | None = leader if self._hands[leader] else None

    @property
    def is_over(self) -> bool:
        return self.to_play is None

    @property
    def leader(self) -> int:
        """The seat that led, or is to lead, the current trick."""
        return self._leader

    @property
    def hands(self) -> list[frozenset[Card]]:
        """The cards each seat still holds."""
        return [frozenset(cards_of(mask)) for mask in self._hands]

    @property
    def current_trick(self) -> list[Card]:
        """The cards played to the trick in progress, in order."""
        return self._history[len(self._history) - self._pos :]

    def completed_tricks(self) -> list[tuple[int, list[tuple[int, Card]], int]]:
        """Each finished trick: the seat that led it, the cards in the order
        played with the seat that played each, and the seat that won it."""
        size, done = len(self.seats), []
        leaders = [self._first_leader, *self.winners]
        for number, winner in enumerate(self.winners):
            seat, plays = leaders[number], []
            for played in self._history[number * size : (number + 1) * size]:
                plays.append((seat, played))
                seat = self._next[seat]
            done.append((leaders[number], plays, winner))
        return done

    def legal_cards(self) -> list[Card]:
        """The cards the seat to play may play now, in deck order."""
        if self.to_play is None:
            return []
        hand = self._hands[self.to_play]
        if self._pos and self._follow and hand & self._follow:
            hand &= self._allowed
        return cards_of(hand)

    def play(self, cards: Iterable[Card | object]) -> None:
        """Play ``cards`` in order, each by the seat whose turn it is.

        Raises :class:`IllegalMove` (``not_in_hand``, ``must_follow_suit``,
        ``wrong_number_of_plays`` after the last trick) at the first card the
        rules forbid, with ``play`` set to its index among the hand's plays;
        the cards before it stay played.
        """
        values: list[object] = cards if isinstance(cards, list) else list(cards)
        for number, value in enumerate(values):
            if not isinstance(value, Card):
                self._play_cards(cast(list[Card], values[:number]))
                raise InvalidRecord(
                    "bad_card",
                    f"play {self.plays_made} is not a card: {shown(value)}",
                    play=self.plays_made,
                    card=shown_card(value),
                )
        self._play_cards(cast(list[Card], values))

    def _play_cards(self, cards: list[Card]) -> None:
        rules = self.rules
        follow_masks, allowed_masks, strengths = (
            rules.follow_mask,
            rules.allowed_mask,
            rules.strength,
        )
        hands, next_seat, tricks, winners = self._hands, self._next, self.tricks, self.winners
        size = len(self.seats)
        # Locals of plain int types (the seat to play is -1 once the hand is
        # over, not None) so that, compiled, the loop runs on native ints.
        to_play = self.to_play
        seat: int = -1 if to_play is None else to_play
        index: int = self.plays_made
        leader: int = self._leader
        pos: int = self._pos
        start = index
        follow: int = self._follow
        allowed: int = self._allowed
        strength = self._strength
        best: int = self._best
        best_seat: int = self._best_seat
        # The cards played by this call, taken out of ``hands`` only at the end:
        # compiled, a local int costs nothing to update, a list item (a Python
        # int object for a mask this large) an allocation each time.
        played: int = 0
        try:
            for card in cards:
                card_index = card.index
                bit: int = 1 << card_index
                if seat < 0:
                    raise IllegalMove(
                        "wrong_number_of_plays",
                        f"play {index} comes after the last trick",
                        play=index,
                        card=card.code,
                    )
                hand: int = hands[seat] & ~played
                if not hand & bit:
                    code = card.code
                    raise IllegalMove(
                        "not_in_hand",
                        f"seat {seat} does not hold {code}",
                        play=index,
                        seat=seat,
                        card=code,
                    )
                if pos:
                    if follow and not bit & allowed and hand & follow:
                        raise self._must_follow(hand & follow, seat, card_index, index)
                    if strength[card_index] > best:
                        best, best_seat = strength[card_index], seat
                else:
                    leader = seat
                    follow = follow_masks[card_index]
                    allowed = allowed_masks[card_index]
                    strength = strengths[card_index]
                    best, best_seat = strength[card_index], seat
                played |= bit
                index += 1
                pos += 1
                if pos < size:
                    seat = next_seat[seat]
                else:
                    tricks[best_seat] += 1
                    winners.append(best_seat)
                    pos = 0
                    leader = best_seat
                    seat = best_seat if hands[best_seat] & ~played else -1
        finally:
            if played:
                for held in range(len(hands)):
                    hands[held] = hands[held] & ~played
            self._history.extend(cards[: index - start])
            self.to_play = None if seat < 0 else seat
            self.plays_made, self._pos = index, pos
            self._leader = leader
            self._follow, self._allowed, self._strength = follow, allowed, strength
            self._best, self._best_seat = best, best_seat

    def _must_follow(self, held: int, seat: int, card_index: int, index: int) -> IllegalMove:
        lowest = ALL_CARDS[(held & -held).bit_length() - 1]
        follow_suit = self.rules.suit_of[lowest]
        what = "trumps" if follow_suit is self.rules.trump else follow_suit.word  # type: ignore[union-attr]
        code = ALL_CARDS[card_index].code
        return IllegalMove(
            "must_follow_suit",
            f"seat {seat} must follow {what} (holds {lowest.code}) but played {code}",
            play=index,
            seat=seat,
            card=code,
        )


_NEXT_SEATS: Final[dict[tuple[int, ...], list[int]]] = {}


def _next_seats(seats: tuple[int, ...]) -> list[int]:
    """Each seat's successor clockwise among the playing ``seats``, indexed by
    seat (-1 for a seat that sits out); cached: a few shapes recur."""
    found = _NEXT_SEATS.get(seats)
    if found is None:
        found = [-1] * (max(seats) + 1)
        for i, s in enumerate(seats):
            found[s] = seats[(i + 1) % len(seats)]
        _NEXT_SEATS[seats] = found
    return found
