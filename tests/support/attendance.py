"""Game nights with attendance: a club's event before its first tables, and
who is present at it, in short."""

from __future__ import annotations

from league.models import Attendance, Event, Round, Table
from tests.support.factories import EventFactory, make_table
from tests.support.setups import ClubSetup


def new_night(setup: ClubSetup, *, rounds: int = 3) -> Event:
    """A new event of the setup's league with ``rounds`` rounds and no tables yet."""
    event: Event = EventFactory(league=setup.league, rounds=rounds)
    return event


def draw(setup: ClubSetup, event: Event, number: int) -> Table:
    """Round ``number`` of ``event`` gets a table of the setup's first four players."""
    return make_table(
        round=Round.objects.get(event=event, number=number), players=setup.players[:4]
    )


def stretches(event: Event) -> dict[str, tuple[int, int | None]]:
    """Each attending player's name, with the first and last round they play."""
    rows = Attendance.objects.filter(event=event).select_related("player")
    return {row.player.name: (row.from_round, row.until_round) for row in rows}
