"""Small helpers and shared records to write golden tests as readable records.

Test modules share records and builders through this module and never
import one another, so that each test module can be run, changed or deleted
on its own.
"""

from __future__ import annotations

from typing import Any

from games import Bluke, BlukeHand, BuckEuchre, BuckEuchreHand, Card, card, cards, check_record


def deal_of(*hands: str) -> list[list[str]]:
    """A deal from one space-separated string of codes per seat."""
    return [hand.split() for hand in hands]


BLUKE_EXAMPLE_HAND: dict[str, Any] = {
    "game": "bluke",
    "dealer": 0,
    "deal": [["AS", "7D", "BL"], ["KH", "2C", "9S"], ["QD", "TS", "4H"]],
    "turn_up": "5S",
    "bids": [1, 1, 2],
    "plays": ["9S", "TS", "AS", "7D", "KH", "QD", "4H", "BL", "2C"],
}
"""The worked Bluke move log of docs/records.md: three seats, dealer 0."""

BUCK_DEAL = deal_of("JH AH 9C KS TD", "JD QH 9H AS 9D", "TH KH AC KC QD", "9S TS JS QS JC")
"""The Buck Euchre deal of :func:`buck_log`: dealer 3, so seat 0 calls and
leads first; the kitty under the turned-up AD is KD TC QC."""


def buck_log(**fields: Any) -> dict[str, Any]:
    """A Buck Euchre move log of :data:`BUCK_DEAL`, dealt by seat 3 with AD
    turned up, with the given fields (``calls``, ``plays``, ...) added."""
    return {"game": "buck_euchre", "dealer": 3, "deal": BUCK_DEAL, "turn_up": "AD", **fields}


def buck_game(*hands: dict[str, Any], first_dealer: int = 0) -> dict[str, Any]:
    """A Buck Euchre game record holding ``hands`` (of either form) in order."""
    return {"game": "buck_euchre", "players": 4, "first_dealer": first_dealer, "hands": list(hands)}


def bluke_log(
    deal: list[list[str]], turn_up: str, bids: list[int], plays: list[str], **fields: Any
) -> dict[str, Any]:
    """A Bluke move-log record dealt by seat 0 unless ``fields`` say otherwise."""
    return {"game": "bluke", "dealer": 0, "deal": deal, "turn_up": turn_up, "bids": bids,
            "plays": plays, **fields}  # fmt: skip


def first_legal_plays(hand: BlukeHand | BuckEuchreHand) -> list[str]:
    """Play the hand out choosing the first legal card every time; the codes played."""
    played: list[str] = []
    while not hand.is_terminal():
        choice = hand.legal_actions()[0]
        assert isinstance(choice, Card)
        hand.apply_action(choice)
        played.append(choice.code)
    return played


def bluke_hand(
    deal: list[list[str]], turn_up: str, bids: list[int], *, dealer: int = 0, **options: Any
) -> BlukeHand:
    """A Bluke hand after its bids (given by seat)."""
    hand = Bluke(len(deal), **options).new_hand(
        dealer=dealer, deal=[cards(" ".join(h)) for h in deal], turn_up=card(turn_up)
    )
    for k in range(len(deal)):
        hand.bid(bids[(dealer + 1 + k) % len(deal)])
    return hand


def buck_hand(
    deal: list[list[str]],
    turn_up: str,
    *,
    dealer: int = 0,
    calls: tuple[str, ...] = (),
    discard: str | None = None,
    drops: tuple[int, ...] = (),
) -> BuckEuchreHand:
    """A Buck Euchre hand after calls, discard and drops."""
    hand = BuckEuchre().new_hand(
        dealer=dealer, deal=[cards(" ".join(h)) for h in deal], turn_up=card(turn_up)
    )
    for call in calls:
        hand.call(call)
    if discard is not None:
        hand.discard(card(discard))
    if hand.phase.value == "drop":
        hand.apply_drops(list(drops))
    return hand


def error_of(record: dict[str, Any]) -> dict[str, Any]:
    """The error object of an answer that must be invalid."""
    answer = check_record(record)
    assert answer["ok"] is False, answer
    return answer["error"]
