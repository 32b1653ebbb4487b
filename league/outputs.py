"""Records shaped as the API and the webhooks show them, from models alone
(no query, no other module of the league), so that every reader imports
them without a cycle."""

from __future__ import annotations

from typing import Any

from league.models import Table


def confirmation_data(table: Table) -> dict[str, Any]:
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
