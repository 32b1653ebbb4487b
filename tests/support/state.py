"""Snapshots of the stored rows, to show that a refused write changed nothing."""

from __future__ import annotations

from typing import Any

from league.models import (
    Attendance,
    Club,
    Event,
    Hand,
    HandSeat,
    League,
    Membership,
    Player,
    Round,
    Seating,
    SitOut,
    Table,
)

LEAGUE_MODELS = (
    Club,
    Membership,
    Player,
    League,
    Event,
    Round,
    Attendance,
    Table,
    Seating,
    SitOut,
    Hand,
    HandSeat,
)
"""The league's models, parents before children."""


def db_state() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the league's models."""
    return {
        model.__name__: list(model.objects.order_by("pk").values_list()) for model in LEAGUE_MODELS
    }


def results_snapshot(table: Table) -> dict[str, Any]:
    """Everything a change of results may touch at ``table``."""
    table.refresh_from_db()
    return {
        "hands": list(Hand.objects.order_by("table", "number").values_list()),
        "hand_seats": list(HandSeat.objects.order_by("pk").values_list()),
        "seatings": list(table.seatings.values_list("seat", "player", "total", "place")),
        "version": table.version,
        "complete": table.complete,
    }
