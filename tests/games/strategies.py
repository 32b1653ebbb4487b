"""Hypothesis strategies for the rules engine: random legal hands and games as JSON records.

Every hand is dealt here (an independent shuffle, not the engine's ``deal_random``) and
played to its end by a random bot through the state API only (``new_hand``,
``to_act``, ``legal_actions``, ``apply_action``), so a record built this way is legal
by construction as far as the state API is concerned. Property tests then check that the
record checker agrees with the state API, and that both agree with the rule book.

Generation draws a single seed from hypothesis and drives a :class:`random.Random`:
that keeps it fast (a few hundred random choices per hand cost nothing) at the price of
weaker shrinking, which matters little because a failing hand is already small.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from games import ALL_CARDS, EUCHRE_DECK, Bluke, BuckEuchre, Card
from games.buck_euchre import Phase as BuckPhase

BLUKE = "bluke"
BUCK_EUCHRE = "buck_euchre"
BUCK_START = 25
"""Every Buck Euchre score starts here and counts down (rules.md)."""

EUCHRE_CARDS: tuple[Card, ...] = tuple(sorted(EUCHRE_DECK, key=lambda c: c.index))
"""The 24 Buck Euchre cards in deck order, so that shuffles are reproducible from a seed."""


def largest_bluke_hand(players: int) -> int:
    """``M`` of rules.md, written out again rather than imported so the tests do not trust
    the engine for the schedule they check it against."""
    return 13 if players <= 4 else 52 // players


def bluke_schedule(players: int, max_cards: int | None = None) -> list[int]:
    """Cards dealt in each hand of a Bluke game: ``M, M-1, ..., 1, 2, ..., M``."""
    top = max_cards if max_cards is not None else largest_bluke_hand(players)
    return list(range(top, 0, -1)) + list(range(2, top + 1))


@dataclass(frozen=True)
class PlayedHand:
    """One hand played to its end through the state API, with its move-log record.

    ``seats[i]`` made play ``i``; ``held[i]`` are the codes that seat held just before it
    (tracked here from the deal, not read from the engine) and ``legal[i]`` the codes
    ``legal_actions()`` offered. ``answer`` is ``result().to_json()`` of the state, which a
    replay of ``record`` must reproduce.
    """

    game: str
    players: int
    dealer: int
    record: dict[str, Any]
    seats: tuple[int, ...]
    held: tuple[frozenset[str], ...]
    legal: tuple[frozenset[str], ...]
    answer: dict[str, Any]
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def plays(self) -> list[str]:
        return list(self.record["plays"])

    @property
    def cards(self) -> int:
        """Cards dealt to each seat."""
        return len(self.record["deal"][0])

    def in_game(self) -> dict[str, Any]:
        """The move log as a hand of a game record: no ``game``, ``dealer`` or ``options``."""
        return {k: v for k, v in self.record.items() if k not in ("game", "dealer", "options")}

    def results_only(self, *, standalone: bool = True) -> dict[str, Any]:
        """The same hand written as results only (records.md), from the state's result."""
        out: dict[str, Any] = {}
        if standalone:
            out = {"game": self.game, "dealer": self.dealer}
            if self.options:
                out["options"] = dict(self.options)
            if self.game == BLUKE:
                out["cards"] = self.cards
        out["trump"] = self.answer["trump"]
        if self.game == BLUKE:
            out["bids"] = list(self.record["bids"])
        else:
            out["maker"] = self.answer["maker"]
            out["drops"] = list(self.answer["drops"])
        out["tricks"] = list(self.answer["tricks"])
        return out


@dataclass(frozen=True)
class GeneratedGame:
    """A game record and the hands it was made from; ``forms[i]`` is ``"log"`` or
    ``"results"`` for the way hand ``i`` is written in ``record``."""

    game: str
    players: int
    first_dealer: int
    options: dict[str, Any]
    record: dict[str, Any]
    hands: tuple[PlayedHand, ...]
    forms: tuple[str, ...]


# -- playing hands -------------------------------------------------------------------


class _PlayLog:
    """For each card played: the seat, what it held then, and what it could play."""

    def __init__(self, deal: list[list[Card]]) -> None:
        self.held = [{c.code for c in dealt} for dealt in deal]
        self.seats: list[int] = []
        self.held_then: list[frozenset[str]] = []
        self.legal: list[frozenset[str]] = []
        self.plays: list[str] = []

    def play(self, seat: int, card: Card, legal: list[Any]) -> None:
        self.seats.append(seat)
        self.held_then.append(frozenset(self.held[seat]))
        self.legal.append(frozenset(c.code for c in legal))
        self.held[seat].remove(card.code)
        self.plays.append(card.code)


def play_bluke_hand(
    rng: random.Random,
    *,
    players: int,
    dealer: int,
    cards: int,
    bluke_lead: str = "trump",
    max_cards: int | None = None,
    no_trump_chance: float = 0.15,
) -> PlayedHand:
    """Deal and play one Bluke hand with random bids and random legal cards.

    A Bluke is turned up (a hand without trump) with probability about ``no_trump_chance``
    rather than the natural 2 in 54, so that the no-trump rules get exercised.
    """
    game = Bluke(players, bluke_lead=bluke_lead, max_cards=max_cards)  # type: ignore[arg-type]
    pack = list(ALL_CARDS)
    rng.shuffle(pack)
    top = players * cards
    if rng.random() < no_trump_chance and not pack[top].is_bluke:
        at = next(i for i, c in enumerate(pack) if c.is_bluke)
        pack[at], pack[top] = pack[top], pack[at]
    deal = [pack[s * cards : (s + 1) * cards] for s in range(players)]
    turn_up = pack[top]
    hand = game.new_hand(dealer=dealer, deal=deal, turn_up=turn_up)
    log = _PlayLog(deal)
    bids = [0] * players
    while not hand.is_terminal():
        seat = hand.to_act
        assert seat is not None
        actions = hand.legal_actions()
        action = rng.choice(actions)
        if isinstance(action, Card):
            log.play(seat, action, actions)
        else:
            bids[seat] = action
        hand.apply_action(action)
    options: dict[str, Any] = {}
    if bluke_lead != "trump" or rng.random() < 0.3:
        options["bluke_lead"] = bluke_lead
    if max_cards is not None:
        options["max_cards"] = max_cards
    record: dict[str, Any] = {
        "game": BLUKE,
        "dealer": dealer,
        "deal": [[c.code for c in dealt] for dealt in deal],
        "turn_up": turn_up.code,
        "bids": bids,
        "plays": log.plays,
    }
    if options:
        record["options"] = options
    return PlayedHand(
        game=BLUKE,
        players=players,
        dealer=dealer,
        record=record,
        seats=tuple(log.seats),
        held=tuple(log.held_then),
        legal=tuple(log.legal),
        answer=hand.result().to_json(),
        options=options,
    )


def play_buck_euchre_hand(
    rng: random.Random,
    *,
    dealer: int,
    pass_bias: float | None = None,
    drop_bias: float | None = None,
    club_chance: float = 0.15,
) -> PlayedHand:
    """Deal and play one Buck Euchre hand: random calls, discard, drops and cards.

    ``pass_bias`` is the chance of each pass (1.0 gives eight passes: no trump) and
    ``drop_bias`` the chance that each seat allowed to drop does (1.0 leaves the maker alone,
    or nobody in a hand without maker); by default both are drawn from a few levels so
    that every way a hand can go turns up often. A club is turned up about a quarter of the
    time naturally, plus ``club_chance``.
    """
    if pass_bias is None:
        pass_bias = rng.choice((0.4, 0.8, 0.9, 1.0))
    if drop_bias is None:
        drop_bias = rng.choice((0.0, 0.2, 0.5, 0.9, 1.0))
    pack = list(EUCHRE_CARDS)
    rng.shuffle(pack)
    if rng.random() < club_chance and pack[20].suit is not None and pack[20].suit.value != "C":
        at = next(i for i, c in enumerate(pack) if c.suit is not None and c.suit.value == "C")
        pack[at], pack[20] = pack[20], pack[at]
    deal = [pack[s * 5 : (s + 1) * 5] for s in range(4)]
    turn_up = pack[20]
    hand = BuckEuchre().new_hand(dealer=dealer, deal=deal, turn_up=turn_up)
    log = _PlayLog(deal)
    held = log.held
    calls: list[str] = []
    discard: str | None = None
    drops: list[int] = []
    while not hand.is_terminal():
        seat = hand.to_act
        assert seat is not None
        actions: list[Any] = list(hand.legal_actions())
        phase = hand.phase
        if phase is BuckPhase.CALL:
            others = [a for a in actions if a != "pass"]
            action = "pass" if rng.random() < pass_bias else rng.choice(others)
            calls.append(action)
            if action == "order":
                held[dealer].add(turn_up.code)
        elif phase is BuckPhase.DISCARD:
            action = rng.choice(actions)
            discard = action.code
            held[dealer].remove(action.code)
        elif phase is BuckPhase.DROP:
            action = "drop" if rng.random() < drop_bias else "stay"
            if action == "drop":
                drops.append(seat)
        else:
            action = rng.choice(actions)
            log.play(seat, action, actions)
        hand.apply_action(action)
    record: dict[str, Any] = {
        "game": BUCK_EUCHRE,
        "dealer": dealer,
        "deal": [[c.code for c in dealt] for dealt in deal],
        "turn_up": turn_up.code,
        "calls": calls,
    }
    if discard is not None:
        record["discard"] = discard
    if drops or rng.random() < 0.5:  # "drops" is optional when empty
        record["drops"] = drops
    record["plays"] = log.plays
    return PlayedHand(
        game=BUCK_EUCHRE,
        players=4,
        dealer=dealer,
        record=record,
        seats=tuple(log.seats),
        held=tuple(log.held_then),
        legal=tuple(log.legal),
        answer=hand.result().to_json(),
    )


# -- strategies -------------------------------------------------------------------------

seeds = st.integers(min_value=0, max_value=2**64 - 1)
"""One seed a hand or game: see the module docstring."""


@st.composite
def bluke_hands(
    draw: st.DrawFn,
    *,
    players: st.SearchStrategy[int] | None = None,
    min_cards: int = 1,
) -> PlayedHand:
    """A random legal Bluke hand standing alone: 2..15 players, any dealer, any hand size
    of the schedule (at least ``min_cards`` where the table allows), either ``bluke_lead``.
    """
    n = draw(players if players is not None else st.integers(2, 15))
    top = largest_bluke_hand(n)
    cards = draw(st.integers(min(min_cards, top), top))
    dealer = draw(st.integers(0, n - 1))
    lead = draw(st.sampled_from(("trump", "free")))
    rng = random.Random(draw(seeds))
    return play_bluke_hand(rng, players=n, dealer=dealer, cards=cards, bluke_lead=lead)


@st.composite
def buck_euchre_hands(draw: st.DrawFn) -> PlayedHand:
    """A random legal Buck Euchre hand standing alone (see :func:`play_buck_euchre_hand`)."""
    dealer = draw(st.integers(0, 3))
    rng = random.Random(draw(seeds))
    return play_buck_euchre_hand(rng, dealer=dealer)


def any_hands(*, min_cards: int = 1) -> st.SearchStrategy[PlayedHand]:
    """A random legal hand of either game."""
    return st.one_of(bluke_hands(min_cards=min_cards), buck_euchre_hands())


@st.composite
def bluke_games(
    draw: st.DrawFn,
    *,
    players: st.SearchStrategy[int] | None = None,
    max_cards_cap: int = 3,
    complete: bool | None = None,
    results_chance: float = 0.3,
) -> GeneratedGame:
    """A Bluke game record, complete or in progress (``complete`` forces one or the other).

    ``max_cards`` is at most ``max_cards_cap`` to keep games short; each hand is a move log,
    or results only with probability ``results_chance``.
    """
    n = draw(players if players is not None else st.integers(2, 15))
    max_cards = draw(st.integers(1, min(max_cards_cap, largest_bluke_hand(n))))
    lead = draw(st.sampled_from(("trump", "free")))
    first_dealer = draw(st.integers(0, n - 1))
    schedule = bluke_schedule(n, max_cards)
    if complete is None:
        count = draw(st.one_of(st.just(len(schedule)), st.integers(0, len(schedule))))
    elif complete:
        count = len(schedule)
    else:
        count = draw(st.integers(0, len(schedule) - 1))
    rng = random.Random(draw(seeds))
    options: dict[str, Any] = {"max_cards": max_cards}
    if lead != "trump" or rng.random() < 0.5:
        options["bluke_lead"] = lead
    hands: list[PlayedHand] = []
    forms: list[str] = []
    written: list[dict[str, Any]] = []
    for index in range(count):
        played = play_bluke_hand(
            rng,
            players=n,
            dealer=(first_dealer + index) % n,
            cards=schedule[index],
            bluke_lead=lead,
            max_cards=max_cards,
        )
        form = "results" if rng.random() < results_chance else "log"
        hands.append(played)
        forms.append(form)
        written.append(played.in_game() if form == "log" else played.results_only(standalone=False))
    record = {
        "game": BLUKE,
        "players": n,
        "first_dealer": first_dealer,
        "options": options,
        "hands": written,
    }
    return GeneratedGame(BLUKE, n, first_dealer, options, record, tuple(hands), tuple(forms))


def buck_euchre_decided(totals: Sequence[int], takes_all: int | None) -> int | None:
    """The winner a hand decides (rules.md, End), or ``None`` if play goes on."""
    if takes_all is not None:
        return takes_all
    lowest = min(totals)
    if lowest <= 0 and list(totals).count(lowest) == 1:
        return list(totals).index(lowest)
    return None


@st.composite
def buck_euchre_games(
    draw: st.DrawFn, *, max_hands: int = 40, results_chance: float = 0.3
) -> GeneratedGame:
    """A Buck Euchre game record: hands until one decides the game, or until a bound
    drawn up to ``max_hands`` (then the game is in progress)."""
    first_dealer = draw(st.integers(0, 3))
    bound = draw(st.integers(0, max_hands))
    rng = random.Random(draw(seeds))
    totals = [BUCK_START] * 4
    hands: list[PlayedHand] = []
    forms: list[str] = []
    written: list[dict[str, Any]] = []
    while len(hands) < bound:
        played = play_buck_euchre_hand(rng, dealer=(first_dealer + len(hands)) % 4)
        form = "results" if rng.random() < results_chance else "log"
        hands.append(played)
        forms.append(form)
        written.append(played.in_game() if form == "log" else played.results_only(standalone=False))
        totals = [t + p for t, p in zip(totals, played.answer["points"], strict=True)]
        if buck_euchre_decided(totals, played.answer["takes_all"]) is not None:
            break
    record: dict[str, Any] = {"game": BUCK_EUCHRE, "first_dealer": first_dealer}
    if rng.random() < 0.5:
        record["players"] = 4
    if rng.random() < 0.5:
        record["options"] = {}
    record["hands"] = written
    return GeneratedGame(BUCK_EUCHRE, 4, first_dealer, {}, record, tuple(hands), tuple(forms))


def any_games() -> st.SearchStrategy[GeneratedGame]:
    """A random game record of either game, complete or in progress."""
    return st.one_of(bluke_games(), buck_euchre_games())


# -- rewriting records -----------------------------------------------------------------


def respell(code: str, rng: random.Random) -> str:
    """Another spelling the rule book accepts for a card code: any case, ``10`` for ``T``."""
    choices = [code, code.lower(), code[0].lower() + code[1:], code[0] + code[1:].lower()]
    if code[0] == "T":
        choices += ["10" + code[1], "10" + code[1].lower()]
    return rng.choice(choices)


def map_cards(record: dict[str, Any], change: Callable[[str], str]) -> dict[str, Any]:
    """A copy of a hand record (either game, move log) with every card code passed
    through ``change``."""
    out = dict(record)
    out["deal"] = [[change(c) for c in dealt] for dealt in record["deal"]]
    out["turn_up"] = change(record["turn_up"])
    out["plays"] = [change(c) for c in record["plays"]]
    if "discard" in record:
        out["discard"] = change(record["discard"])
    return out
