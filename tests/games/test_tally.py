"""A game tally resumed from stored totals continues exactly like a whole game."""

from __future__ import annotations

from games import GameTally, check_record, rules_for
from tests.games.builders import buck_game


def test_a_resumed_tally_equals_the_whole_game() -> None:
    a = {"trump": "S", "maker": 0, "drops": [2, 3], "tricks": [3, 2, 0, 0]}
    b = {"trump": "S", "maker": 1, "drops": [2, 3], "tricks": [2, 3, 0, 0]}
    hands = [a, b] * 5 + [a]
    whole = check_record(buck_game(*hands, first_dealer=2))
    rules = rules_for("buck_euchre", 4)
    first = GameTally(rules, first_dealer=2)
    for hand in hands[:6]:
        first.add(hand)
    resumed = GameTally(rules, first_dealer=2, hands_played=6, totals=first.totals)
    assert resumed.next_dealer == (2 + 6) % 4
    assert resumed.next_hand_size is None
    for hand in hands[6:]:
        resumed.add(hand)
    assert resumed.totals == whole["totals"]
    assert resumed.complete is True
    assert list(resumed.ranks() or ()) == whole["ranks"]


def test_the_tally_tells_the_next_dealer_and_hand_size() -> None:
    tally = GameTally(rules_for("bluke", 3, {"max_cards": 2}), first_dealer=1)
    assert (tally.next_dealer, tally.next_hand_size) == (1, 2)
    tally.add({"trump": "S", "bids": [1, 1, 1], "tricks": [1, 1, 0]})
    assert (tally.next_dealer, tally.next_hand_size) == (2, 1)
