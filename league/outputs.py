"""Records shaped as the API, the webhooks and the audit trail show them,
from models alone (no query, no other module of the league; the engine's
tally for the next hand), so that every reader imports them without a cycle:
a hand with its lines (:func:`hand_data`), a game's confirmation, the next
hand to enter."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

import games
from league.models import Hand, HandSeat, Table


class ConfirmationData(TypedDict):
    """Where a game stands with the players' confirmation (:func:`confirmation_data`)."""

    state: str
    seat: int | None
    at: str | None
    note: str | None
    entered_seat: int | None


class HandSeatData(TypedDict):
    """A seat's line of a hand (:func:`hand_data`)."""

    seat: int
    bid: int | None
    tricks: int
    points: int
    total: int


class HandData(TypedDict):
    """A hand and its lines (:func:`hand_data`)."""

    number: int
    dealer: int
    cards: int
    trump: str | None
    maker: int | None
    drops: list[int]
    takes_all: int | None
    is_move_log: bool
    seats: list[HandSeatData]


def confirmation_data(table: Table) -> ConfirmationData:
    """Where the table's game stands with the players' confirmation, as the
    API's score sheet and the webhooks show it: ``state``, the ``seat`` that
    confirmed or disputed (``None``: an organiser, or nobody yet), ``at``,
    the dispute's ``note``, and ``entered_seat``, the seat that last changed
    the results through the table link (which may not confirm them)."""
    return {
        "state": table.confirmation,
        "seat": table.confirmation_seat,
        "at": table.confirmation_at.isoformat() if table.confirmation_at else None,
        "note": table.confirmation_note or None,
        "entered_seat": table.entered_seat,
    }


def hand_data(hand: Hand, lines: Iterable[HandSeat]) -> HandData:
    """A hand and its lines as the API renders them
    (:class:`league.api.serializers.HandOutput`) and the audit trail records
    them (:mod:`league.audit`), so the two always agree."""
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "cards": hand.cards,
        "trump": hand.trump or None,
        "maker": hand.maker,
        "drops": hand.drops,
        "takes_all": hand.takes_all,
        "is_move_log": hand.is_move_log,
        "seats": [
            {
                "seat": line.seat,
                "bid": line.bid,
                "tricks": line.tricks,
                "points": line.points,
                "total": line.total,
            }
            for line in lines
        ],
    }


def next_hand_of(tally: games.GameTally) -> dict[str, int] | None:
    """The next hand's number, dealer and cards a seat; ``None`` when the
    game is over."""
    if tally.complete:
        return None
    size = tally.next_hand_size
    if size is None:
        if isinstance(tally.rules, games.Bluke):
            return None  # past the schedule
        size = games.buck_euchre.HAND_SIZE
    return {"number": tally.hands_played, "dealer": tally.next_dealer, "cards": size}
