"""The rules of Buck Euchre (Dirty Clubs): four players, 24 cards, each
counting down from 25.

:class:`BuckEuchre` is the game; :class:`BuckEuchreHand` the state of one
hand: calls for trump, the dealer's discard, drops, then the tricks.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Literal

from games.cards import EUCHRE_DECK, Card, Suit
from games.errors import IllegalMove, InvalidRecord, check_seat, shown, shown_card
from games.results import HandResult
from games.tricks import TrickPlay, TrickRules, check_tricks_taken, clockwise, dealt_hands, mask_of

NAME: Final = "buck_euchre"
PLAYERS: Final = 4
HAND_SIZE: Final = 5
STARTING_SCORE: Final = 25
PENALTY: Final = 5
"""Added to a maker who takes fewer than 3 tricks, or to anyone else still
in who takes none ("bucked")."""

Call = Literal["pass", "order"] | Suit


class Phase(StrEnum):
    CALL = "call"
    DISCARD = "discard"
    DROP = "drop"
    PLAY = "play"
    OVER = "over"


def hand_points(
    *, tricks: Sequence[int], maker: int | None, playing: Iterable[int]
) -> tuple[int, ...]:
    """Each seat's change of score: -1 a trick, +5 when bucked, 0 when out."""
    points = [0] * PLAYERS
    for seat in playing:
        took = tricks[seat]
        bucked = took < 3 if seat == maker else took == 0
        points[seat] = -took + (PENALTY if bucked else 0)
    return tuple(points)


@dataclass(frozen=True, slots=True)
class BuckEuchre:
    """Buck Euchre; it has no rule options."""

    players: int = PLAYERS

    def __post_init__(self) -> None:
        if self.players != PLAYERS:
            raise InvalidRecord(
                "invalid", f"Buck Euchre is for {PLAYERS} players, not {shown(self.players)}"
            )

    @property
    def name(self) -> str:
        """``"buck_euchre"``: the ``game`` of its records (a property, as
        :attr:`games.Bluke.name` is)."""
        return NAME

    @property
    def options(self) -> dict[str, object]:
        return {}

    def trick_rules(self, trump: Suit | None) -> TrickRules:
        return _TRICK_RULES[trump]

    def new_hand(
        self, *, dealer: int, deal: Sequence[Sequence[Card]], turn_up: Card
    ) -> BuckEuchreHand:
        """A hand ready for the calls; raises :class:`InvalidRecord` for a bad deal."""
        return BuckEuchreHand(self, dealer=dealer, deal=deal, turn_up=turn_up)

    def deal_random(self, rng: random.Random) -> tuple[list[list[Card]], Card]:
        """A shuffled deal of five cards a seat, and the turned-up card."""
        pack = sorted(EUCHRE_DECK, key=lambda c: c.index)
        rng.shuffle(pack)
        hands = [pack[s * HAND_SIZE : (s + 1) * HAND_SIZE] for s in range(PLAYERS)]
        return hands, pack[PLAYERS * HAND_SIZE]  # the card after the deal is turned up

    def score_results(
        self,
        *,
        trump: Suit | None,
        maker: int | None,
        drops: Sequence[int],
        tricks: Sequence[int],
    ) -> HandResult:
        """Check a hand given as results only and score it."""
        if maker is not None:
            check_seat(maker, PLAYERS, field="maker")
        if trump is None and maker is not None:
            raise InvalidRecord(
                "bad_call", f"seat {maker} cannot be maker of a hand with no trump", seat=maker
            )
        if trump is not None and trump is not Suit.CLUBS and maker is None:
            raise InvalidRecord(
                "bad_call",
                f"trump is {trump.word} but nobody made it: only a turned-up club "
                "makes trump without a maker",
            )
        dropped = _check_drops(
            drops, club_turned=trump is Suit.CLUBS and maker is None, maker=maker
        )
        check_tricks_taken(tricks, players=PLAYERS, cards=HAND_SIZE, dropped=dropped)
        playing = [s for s in range(PLAYERS) if s not in dropped]
        expected = HAND_SIZE if playing else 0
        if sum(tricks) != expected:
            raise InvalidRecord(
                "bad_tricks", f"tricks add up to {shown(sum(tricks))}, not {expected}"
            )
        return _result(trump, maker, dropped, tuple(tricks), playing, winners=None)


class BuckEuchreHand:
    """One hand of Buck Euchre, from the calls to the last trick."""

    def __init__(
        self, game: BuckEuchre, *, dealer: int, deal: Sequence[Sequence[Card]], turn_up: Card
    ) -> None:
        check_seat(dealer, PLAYERS, field="dealer")
        self.hands = _check_deal(deal, turn_up)
        self.game = game
        self.dealer = dealer
        self.deal: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in deal)
        self.turn_up = turn_up
        self.calls: list[Call] = []
        self.trump: Suit | None = None
        self.maker: int | None = None
        self.discarded: Card | None = None
        self.dropped: set[int] = set()
        self.tricks: TrickPlay | None = None
        self._lone: int | None = None
        self._phase = Phase.CALL
        self._turn: int | None = self.left_of_dealer
        self._drop_queue: list[int] = []
        if turn_up.suit is Suit.CLUBS:
            self.trump = Suit.CLUBS
            self._start_play()

    @property
    def left_of_dealer(self) -> int:
        return (self.dealer + 1) % PLAYERS

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def club_turned(self) -> bool:
        return self.turn_up.suit is Suit.CLUBS

    @property
    def ordered(self) -> bool:
        """Whether trump was ordered up in round one (the dealer then discards)."""
        return "order" in self.calls

    @property
    def to_act(self) -> int | None:
        if self._phase is Phase.PLAY:
            return self.tricks.to_play  # type: ignore[union-attr]
        return self._turn

    def is_terminal(self) -> bool:
        return self._phase is Phase.OVER

    def legal_actions(self) -> list[str] | list[Card]:
        """Calls (``"pass"``, ``"order"``, suit letters), the dealer's
        discards, ``"drop"``/``"stay"``, or the cards the seat may play."""
        phase = self._phase
        if phase is Phase.CALL:
            if len(self.calls) < PLAYERS:
                return ["pass", "order"]
            turned = self.turn_up.suit
            return ["pass"] + [s.value for s in Suit if s is not turned]
        if phase is Phase.DISCARD:
            return sorted(self.hands[self.dealer], key=lambda c: c.index)
        if phase is Phase.DROP:
            return ["stay", "drop"]
        if phase is Phase.PLAY:
            return self.tricks.legal_cards()  # type: ignore[union-attr]
        return []

    def apply_action(self, action: str | Suit | Card) -> None:
        """Apply the next action of whichever phase the hand is in."""
        phase = self._phase
        if phase is Phase.CALL:
            self.call(action)
        elif phase is Phase.DISCARD:
            self.discard(action)
        elif phase is Phase.DROP:
            if action not in ("drop", "stay"):
                raise IllegalMove(
                    "bad_drop", f"expected 'drop' or 'stay', not {shown(action)}", seat=self._turn
                )
            self.decide_drop(action == "drop")
        elif phase is Phase.PLAY:
            self.play(action)
        else:
            raise IllegalMove("wrong_number_of_plays", "the hand is over")

    # -- calls --------------------------------------------------------------

    def call(self, call: object) -> None:
        """``"pass"``, ``"order"`` in round one, or a suit in round two; any
        other value (a record's ``calls`` may hold anything) is ``bad_call``."""
        seat = self._turn
        if self._phase is not Phase.CALL or seat is None:
            raise IllegalMove("bad_call", "trump is already settled")
        round_one = len(self.calls) < PLAYERS
        normal = _normal_call(call)
        if normal is None:
            raise IllegalMove(
                "bad_call", f"seat {seat} made an unknown call {shown(call)}", seat=seat
            )
        if normal == "pass":
            self.calls.append("pass")
            if len(self.calls) == 2 * PLAYERS:
                self._settle(trump=None, maker=None)
            else:
                self._turn = (seat + 1) % PLAYERS
            return
        if normal == "order":
            if not round_one:
                raise IllegalMove(
                    "bad_call", f"seat {seat} cannot order up in round two: name a suit", seat=seat
                )
            self.calls.append("order")
            self.maker = seat
            self.trump = self.turn_up.suit
            self.hands[self.dealer].add(self.turn_up)
            self._phase = Phase.DISCARD
            self._turn = self.dealer
            return
        assert isinstance(normal, Suit)  # neither a pass nor an order: a suit named
        if round_one:
            raise IllegalMove(
                "bad_call",
                f"seat {seat} named {normal.word} in round one: order or pass",
                seat=seat,
            )
        if normal is self.turn_up.suit:
            raise IllegalMove(
                "bad_call", f"seat {seat} cannot name {normal.word}: it was turned down", seat=seat
            )
        self.calls.append(normal)
        self._settle(trump=normal, maker=seat)

    def discard(self, card: object) -> None:
        """The dealer's discard after an order; any of their six cards (any
        other value is ``bad_discard``)."""
        if self._phase is not Phase.DISCARD:
            raise IllegalMove("bad_discard", "nobody ordered up, so the dealer does not discard")
        held = self.hands[self.dealer]
        if not isinstance(card, Card) or card not in held:
            raise IllegalMove(
                "bad_discard",
                f"the dealer (seat {self.dealer}) does not hold {_shown_card(card)} to discard",
                seat=self.dealer,
                card=_card_field(card),
            )
        held.remove(card)
        self.discarded = card
        self._settle(trump=self.trump, maker=self.maker)

    def _settle(self, *, trump: Suit | None, maker: int | None) -> None:
        self.trump, self.maker = trump, maker
        self._drop_queue = [s for s in clockwise(PLAYERS, self.left_of_dealer) if s != maker]
        self._phase = Phase.DROP
        self._turn = self._drop_queue[0]

    # -- drops --------------------------------------------------------------

    def decide_drop(self, drop: bool) -> None:
        """The seat to decide drops out (``True``) or stays in."""
        if self._phase is not Phase.DROP:
            raise IllegalMove("bad_drop", "nobody may drop now")
        seat = self._drop_queue.pop(0)
        if drop:
            self.dropped.add(seat)
        if self._drop_queue:
            self._turn = self._drop_queue[0]
        else:
            self._start_play()

    def apply_drops(self, seats: Sequence[int]) -> None:
        """Every remaining drop decision at once: ``seats`` drop, the rest stay."""
        dropped = _check_drops(seats, club_turned=self.club_turned, maker=self.maker)
        for seat in seats:
            if self._phase is not Phase.DROP or seat not in self._drop_queue:
                raise IllegalMove("bad_drop", f"seat {seat} cannot drop now", seat=seat)
        while self._phase is Phase.DROP:
            self.decide_drop(self._drop_queue[0] in dropped)

    # -- play ---------------------------------------------------------------

    def _start_play(self) -> None:
        playing = [s for s in clockwise(PLAYERS, self.left_of_dealer) if s not in self.dropped]
        self._turn = None
        if len(playing) <= 1:
            self._lone = playing[0] if playing else None
            self._phase = Phase.OVER
            return
        hands = [mask_of(h) if s in playing else 0 for s, h in enumerate(self.hands)]
        self.tricks = TrickPlay(self.game.trick_rules(self.trump), hands, playing, playing[0])
        self._phase = Phase.PLAY

    def play(self, card: object) -> None:
        """Play one card; a value that is not a :class:`Card` is ``bad_card``."""
        self.play_many((card,))

    def play_many(self, cards: Sequence[object]) -> None:
        """Play cards in order; raises :class:`IllegalMove` at the first illegal one."""
        if self._phase is Phase.PLAY:
            try:
                self.tricks.play(cards)  # type: ignore[union-attr]
            finally:
                if self.tricks.is_over:  # type: ignore[union-attr]
                    self._phase = Phase.OVER
        elif cards:
            if self._phase is Phase.OVER:
                raise IllegalMove(
                    "wrong_number_of_plays",
                    "nobody plays a card: fewer than two players are still in",
                    play=0,
                    card=_card_field(cards[0]),
                )
            raise IllegalMove(
                "wrong_number_of_plays",
                f"the hand is still in the {self._phase.value} phase",
                play=0,
            )

    def result(self) -> HandResult:
        if self._phase is not Phase.OVER:
            raise IllegalMove("wrong_number_of_plays", "the hand is not finished")
        playing = [s for s in range(PLAYERS) if s not in self.dropped]
        if self.tricks is not None:
            tricks = tuple(self.tricks.tricks)
            winners = tuple(self.tricks.winners)
        else:
            tricks = tuple(HAND_SIZE if s == self._lone else 0 for s in range(PLAYERS))
            winners = (self._lone,) * HAND_SIZE if self._lone is not None else ()
        return _result(self.trump, self.maker, self.dropped, tricks, playing, winners=winners)


def _result(
    trump: Suit | None,
    maker: int | None,
    dropped: set[int],
    tricks: tuple[int, ...],
    playing: list[int],
    *,
    winners: tuple[int, ...] | None,
) -> HandResult:
    takes_all = next((s for s in playing if tricks[s] == HAND_SIZE), None)
    return HandResult(
        game=NAME,
        trump=trump,
        tricks=tricks,
        points=hand_points(tricks=tricks, maker=maker, playing=playing),
        winners=winners,
        maker=maker,
        drops=tuple(sorted(dropped)),
        takes_all=takes_all,
    )


def _check_drops(seats: Sequence[object], *, club_turned: bool, maker: int | None) -> set[int]:
    """The seats that drop, once known to be distinct seats allowed to drop.

    ``seats`` is typed ``object`` a seat because a record's ``drops`` may hold
    anything: compiled code would refuse a non-int before ``check_seat`` could."""
    dropped: set[int] = set()
    for value in seats:
        seat = check_seat(value, PLAYERS, field="drops", code="bad_drop", listed=True)
        if seat in dropped:
            raise InvalidRecord("bad_drop", f"seat {seat} drops twice", seat=seat)
        if club_turned:
            raise IllegalMove(
                "bad_drop", f"seat {seat} cannot drop: a club was turned up", seat=seat
            )
        if seat == maker:
            raise IllegalMove("bad_drop", f"seat {seat} is the maker and cannot drop", seat=seat)
        dropped.add(seat)
    return dropped


def _check_deal(deal: Sequence[Sequence[Card]], turn_up: Card) -> list[set[Card]]:
    if len(deal) != PLAYERS:
        raise InvalidRecord("bad_deal", f"deal has {len(deal)} hands for {PLAYERS} players")
    for seat, dealt in enumerate(deal):
        if len(dealt) != HAND_SIZE:
            raise InvalidRecord(
                "bad_deal", f"seat {seat} was dealt {len(dealt)} cards, not {HAND_SIZE}", seat=seat
            )
    dealt_hands(deal, turn_up, deck=_DECK_MASK, deck_name="Buck Euchre")
    return [set(dealt) for dealt in deal]


def _normal_call(call: object) -> Literal["pass", "order"] | Suit | None:
    if isinstance(call, Suit):
        return call
    if not isinstance(call, str):
        return None
    lowered = call.lower()
    if lowered in ("pass", "order"):
        return lowered  # type: ignore[return-value]
    return Suit.parse(call)


def _make_trick_rules(trump: Suit | None) -> TrickRules:
    suit_of: dict[Card, Suit | None] = {c: c.suit for c in EUCHRE_DECK}
    power: dict[Card, int] = {}
    if trump is not None:
        right = next(c for c in EUCHRE_DECK if c.suit is trump and c.rank == 11)
        left = next(c for c in EUCHRE_DECK if c.suit is trump.partner and c.rank == 11)
        suit_of[left] = trump
        power = {c: 50 + c.rank for c in EUCHRE_DECK if c.suit is trump}
        power[right], power[left] = 101, 100
    return TrickRules(trump=trump, suit_of=suit_of, follow_after=dict(suit_of), power=power)


_TRICK_RULES: Final = {trump: _make_trick_rules(trump) for trump in (*Suit, None)}
_DECK_MASK: Final = mask_of(EUCHRE_DECK)


def _card_field(card: object) -> str | None:
    """The ``card`` of an error: the code of a card, the clipped text of a
    string, nothing for any other value."""
    return card.code if isinstance(card, Card) else shown_card(card)


def _shown_card(card: object) -> str:
    return card.code if isinstance(card, Card) else shown(card)
