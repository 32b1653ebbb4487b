"""Hand records for the tests: results-only records, bot move logs, and the
engine's own verdict on a record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import games
from games.bots import bot_game
from league.models import Game

TAKES_ALL = 5
"""The tricks of a Buck Euchre hand: five cards each."""


def bluke_results(cards: int, winner: int = 0, players: int = 4) -> dict[str, Any]:
    """A Bluke results record: ``winner`` bids and takes every trick, the others bid 1."""
    bids = [1] * players
    bids[winner] = cards
    tricks = [0] * players
    tricks[winner] = cards
    return {"trump": "S", "bids": bids, "tricks": tricks}


def buck_takes_all(seat: int) -> dict[str, Any]:
    """A Buck Euchre results record in which ``seat`` makes spades and takes all five tricks."""
    tricks = [0, 0, 0, 0]
    tricks[seat] = TAKES_ALL
    return {"trump": "S", "maker": seat, "tricks": tricks}


def results_record(
    game: str, options: dict[str, Any], dealer: int, move_log: dict[str, Any]
) -> dict[str, Any]:
    """The results-only record of the same hand as ``move_log``."""
    result = games.evaluate_hand({"game": game, "options": options, "dealer": dealer, **move_log})
    trump = result.trump.value if result.trump is not None else None
    if game == Game.BLUKE:
        return {"trump": trump, "bids": move_log["bids"], "tricks": list(result.tricks)}
    return {
        "trump": trump,
        "maker": result.maker,
        "drops": list(result.drops),
        "tricks": list(result.tricks),
    }


def bot_logs(
    game: str, *, first_dealer: int, seed: int, options: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The move logs of a whole four-seat game played by the engine's bot."""
    return bot_game(games.rules_for(game, 4, options or {}), first_dealer=first_dealer, seed=seed)


def engine_error(
    game: str,
    record: Any,
    *,
    before: Sequence[dict[str, Any]] = (),
    players: int = 4,
    first_dealer: int = 0,
    options: dict[str, Any] | None = None,
) -> games.RecordError:
    """The engine's refusal of ``record`` as the hand after ``before`` in a game."""
    tally = games.GameTally(
        games.rules_for(game, players, options or {}), first_dealer=first_dealer
    )
    for hand in before:
        tally.add(hand)
    try:
        tally.add(record)
    except games.RecordError as error:
        error.hand = len(before)
        return error
    raise AssertionError("the engine accepted the record")


BUCK_EUCHRE_REFUSALS: list[tuple[dict[str, str], str, str]] = [
    ({"trump": "none"}, "maker", "{1} cannot be the maker of a hand with no trump."),
    ({"maker": ""}, "maker",
     "Trump is spades but nobody made it: only a turned-up club makes trump without a maker."),
    ({"drop_1": "on"}, "drop_1", "{1} is the maker and cannot drop out."),
    ({"trump": "C", "maker": ""}, "drop_3",
     "{3} cannot drop out: a club was turned up, so everyone plays."),
    ({"tricks_3": "1", "tricks_0": "0"}, "tricks_3",
     "{3} dropped out but took 1 trick: a player who drops out takes none."),
    ({"tricks_0": "2"}, "tricks",
     "The tricks add up to 6, not 5: the players still in take all 5 between them."),
    ({"tricks_1": "6"}, "tricks_1",
     "{1}'s 6 tricks are out of range: a player takes from 0 to 5."),
]  # fmt: skip
"""Buck Euchre hands the engine refuses, as changes to the entry form's
valid hand (trump spades, seat 1 makes, seat 3 drops, tricks 1-3-1-0): the
field the page shows the refusal by, and its words ({n}: seat n's name)."""


# Drops judged, each a Buck Euchre move log dealt by seat 0 with hearts ordered up by
# seat 1 (right bower JH, left JD), the dealer taking the turned 9H and discarding TC.
# In both, seat 3 drops and seat 1 leads trumps four times and takes all five tricks.
BUCK_DEALER_TAKES = {"turn_up": "9H", "calls": ["order"], "discard": "TC", "drops": [3]}
BUCK_DROP_RIGHT = {
    # Seat 3 holds 9S TS 9D TD 9C: no trump for the four tricks led in trumps, nothing
    # above the AS and AD of the last (led QH, a trump, too): they would take no trick,
    # so staying in they would have been bucked, and the drop was right.
    "deal": [
        ["AD", "KD", "QD", "TC", "JC"],
        ["JH", "JD", "AH", "KH", "QH"],
        ["AS", "KS", "QS", "JS", "AC"],
        ["9S", "TS", "9D", "TD", "9C"],
    ],
    **BUCK_DEALER_TAKES,
    "plays": [
        *("JH", "JS", "9H", "JD", "QS", "QD", "AH", "KS", "KD", "KH", "AC", "JC"),
        *("QH", "AS", "AD"),
    ],
}
BUCK_DROP_WRONG = {
    # Seat 3 holds 9S TS 9D TD AC: through the four tricks led in trumps they throw the
    # nines and tens (the weakest), keep AC, follow the last trick's KC with it and take
    # it: staying in would have scored a trick, so the drop was wrong.
    "deal": [
        ["AD", "KD", "QD", "TC", "JC"],
        ["JH", "JD", "AH", "KH", "KC"],
        ["AS", "KS", "QS", "JS", "9C"],
        ["9S", "TS", "9D", "TD", "AC"],
    ],
    **BUCK_DEALER_TAKES,
    "plays": [
        *("JH", "JS", "9H", "JD", "QS", "QD", "AH", "KS", "KD", "KH", "AS", "JC"),
        *("KC", "9C", "AD"),
    ],
}
BUCK_DEALER_DROPS = {
    # The dealer (seat 0) takes the turned JS (the right bower: seat 2 ordered spades),
    # discards 9D and drops. Seat 1 leads AS, a trump: the dealer would follow with JS
    # and take the trick, so the drop was wrong; as dealt, without the turned card,
    # they would have had no trump at all.
    "deal": [
        ["9D", "TD", "9H", "TH", "9C"],
        ["AS", "KS", "QS", "TS", "9S"],
        ["JC", "AH", "KH", "QH", "JH"],
        ["AD", "KD", "QD", "JD", "AC"],
    ],
    "turn_up": "JS",
    "calls": ["pass", "order"],
    "discard": "9D",
    "drops": [0],
    "plays": [
        *("AS", "JC", "AD", "AH", "KD", "9S", "KS", "KH", "QD", "QS", "QH", "JD"),
        *("TS", "JH", "AC"),
    ],
}
BUCK_MAKER_ALONE = {
    # Everyone but the maker drops: the maker takes five without playing; no trick to
    # set the drop against, so it is not judged.
    **BUCK_DROP_RIGHT,
    "drops": [0, 2, 3],
    "plays": [],
}


BUCK_PENALTY_HANDS: list[dict[str, Any]] = [  # dealt by seats 0, 1, 2, 3; all start at 25
    # Bob makes spades and takes 2: euchred, -2 + 5 = +3. Dan drops.
    {"trump": "S", "maker": 1, "drops": [3], "tricks": [2, 2, 1, 0]},
    # A club turned up: nobody made it, nobody may drop; Bob takes none: bucked, +5.
    {"trump": "C", "maker": None, "drops": [], "tricks": [3, 0, 1, 1]},
    # Ann makes hearts and takes none: euchred, +5. Bob drops.
    {"trump": "H", "maker": 0, "drops": [1], "tricks": [0, 0, 3, 2]},
    # Cleo makes diamonds with 3: no penalty; Dan stays in and takes none: bucked.
    {"trump": "D", "maker": 2, "drops": [], "tricks": [1, 1, 3, 0]},
]
"""A Buck Euchre game with every penalty, worked by hand (docs/rules.md), seats 0
to 3 called Ann, Bob, Cleo and Dan: the totals after each hand are Ann 23, 20, 25,
24; Bob 28, 33, 33, 32; Cleo 24, 23, 20, 17; Dan 25, 24, 22, 27."""
