"""The night's pages in tests: their URLs, a game night on today with players
checked in, what the tonight page posts, and the tables a page shows."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone

from league.models import Event, Player, Round, Table
from league.services.attendance import attendance_set
from tests.support.factories import EventFactory, PlayerFactory
from tests.support.markup import text
from tests.support.setups import ClubSetup


def tonight_url(event: Event) -> str:
    return reverse("event-tonight", kwargs={"event_id": event.pk})


def room_url(event: Event) -> str:
    return reverse("event-room", kwargs={"event_id": event.pk})


def tonight_night(
    setup: ClubSetup, *, present: int = 8, rounds: int = 3
) -> tuple[Event, list[Player]]:
    """A new event of the setup's league, dated today in the site's time
    zone, with no tables and ``present`` players of the club checked in
    (the setup's eight first, then new ones)."""
    event: Event = EventFactory(league=setup.league, rounds=rounds, date=timezone.localdate())
    extra = [PlayerFactory(club=setup.club) for _ in range(max(0, present - len(setup.players)))]
    players = [*setup.players, *extra][:present]
    if players:
        attendance_set(event=event, players=players, by=setup.organiser)
    return event, players


def round_of(event: Event, number: int) -> Round:
    return Round.objects.get(event=event, number=number)


def draw_post(number: int, action: str = "draw", **fields: Any) -> dict[str, Any]:
    """What the draw form (or the preview's buttons) posts for round ``number``."""
    return {"action": action, "round": str(number), "method": "balanced", **fields}


def stored_seats(event: Event, number: int) -> list[list[int]]:
    """Round ``number``'s stored tables: each table's player ids in seat order."""
    tables = Table.objects.filter(round__event=event, round__number=number).order_by("number")
    return [list(table.seat_players) for table in tables]


def preview_seed(response: HttpResponse) -> int:
    """The seed the preview's publish form carries."""
    section = text(response).split('class="preview"', 1)[1]
    match = re.search(r'name="seed" value="(\d+)"', section)
    assert match, "no preview seed"
    return int(match[1])


def preview_tables(response: HttpResponse) -> list[list[str]]:
    """The preview's tables as shown: each table's names in seat order."""
    section = text(response).split('class="preview"', 1)[1].split("</section>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", item).replace("deals first", "").strip() for item in items]
        for items in (
            re.findall(r"<li>(.*?)</li>", seats)
            for seats in re.findall(r'<ol class="seats">(.*?)</ol>', section)
        )
    ]


def refusal(response: HttpResponse, where: str) -> str:
    """The refusal shown by the form ``where`` (``attendance``, ``guest``,
    ``draw-1``, ``swap-1``, ``move-1``), tags taken out."""
    match = re.search(
        rf'<p class="refusal" id="{where}-error" role="alert">(.*?)</p>', text(response)
    )
    assert match, f"no refusal by {where}"
    return match[1]
