"""Webhook events: what the league owes a club's endpoints when something happens.

The services whose changes make an event (and the standings job) call
:func:`webhooks_emit` (or one of the helpers below that build its payload)
inside the change's transaction: it stores one pending delivery per active
endpoint of the club subscribed to the event, all with the same event id, and
owes each its job (:func:`league.outbox.jobs_owe`), sent once the change
commits. A change rolled back leaves no delivery and sends nothing. How
deliveries are sent, signed and retried is :mod:`league.webhook_delivery`; the
endpoints themselves are made and changed by
:mod:`league.services.webhook_endpoints`.

Locks: an event locks the club's active endpoints (``FOR NO KEY UPDATE``, by
id) until its change commits, after whatever the change locked before (a
table, rating scopes, a league's standings); the endpoint services and the
delivery job lock an endpoint, then its deliveries, and nothing else, so no
cycle can form.

The events and their payloads (``data`` in the body sent):

- ``game.completed``: a table's game became complete (:func:`webhooks_table_changed`);
  in a league whose results a second player confirms, its ``table.confirmation``
  is ``awaiting`` when it was entered through a table link;
- ``game.confirmed``: a game entered through a table link was confirmed by a
  player of another seat or an organiser, and now counts (:func:`webhooks_game_confirmed`);
- ``result.corrected``: a hand of a complete game was corrected or deleted;
- ``round.seated``: a round's tables were drawn, or reseated, or a player taken off one
  (:func:`webhooks_rounds_seated`);
- ``standings.updated``: a league's standings were recomputed
  (:func:`webhooks_standings_updated`, called by the standings job).
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final, TypedDict

from django.urls import reverse
from django.utils import timezone

from league import webhook_delivery
from league.models import (
    Club,
    Event,
    JobOwed,
    League,
    Round,
    Seating,
    SitOut,
    Standing,
    Table,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEvent,
)
from league.outbox import jobs_owe
from league.outputs import confirmation_data
from league.season import season_in_words

SUBSCRIBABLE: Final = (
    WebhookEvent.GAME_COMPLETED,
    WebhookEvent.GAME_CONFIRMED,
    WebhookEvent.RESULT_CORRECTED,
    WebhookEvent.STANDINGS_UPDATED,
    WebhookEvent.ROUND_SEATED,
)
"""The events an endpoint may subscribe to (a ping is sent on request only)."""

Payload = Mapping[str, object] | Callable[[], Mapping[str, object]]


class IdName(TypedDict):
    """A row named in a payload by its id and name: a player."""

    id: int
    name: str


class LeagueData(TypedDict):
    id: int
    name: str
    slug: str
    game: str


class EventData(TypedDict):
    id: int
    name: str
    date: str


class NightData(TypedDict):
    """The league and game night an event's payload begins with."""

    league: LeagueData
    event: EventData


class SeatData(TypedDict):
    seat: int
    player: IdName


class TableSeatsData(TypedDict):
    """A table of ``round.seated``: its players by seat and first dealer."""

    id: int
    number: int
    first_dealer: int
    players: list[SeatData]


class StandingData(TypedDict):
    """A standings line of ``standings.updated``."""

    rank: int
    player: IdName
    games: int
    wins: int
    total_points: int
    average_place: float
    season_points: float | None
    nights_counted: int
    qualified: bool


def webhooks_emit(*, club: Club | int, event: str, payload: Payload) -> list[WebhookDelivery]:
    """Owe ``event`` to every active endpoint of ``club`` subscribed to it:
    one pending delivery each, with one event id, and its job, sent when the
    current transaction commits. Call inside the transaction of the change
    the event tells of, so that a rollback sends nothing.

    ``payload`` is the event's data (JSON: ids, names, numbers, dates), or a
    function making it, called only when some endpoint is subscribed: a club
    without webhooks pays one query. Returns the deliveries made."""
    if event not in SUBSCRIBABLE:
        raise ValueError(f"not an event endpoints subscribe to: {event!r}")
    club_id = club if isinstance(club, int) else club.pk
    # Locked (in id order) until the change commits: an endpoint deleted or
    # turned off meanwhile waits for it, so a delivery never refers to a row
    # gone by then (PostgreSQL checks foreign keys at the commit, which would
    # fail the change itself). NO KEY: the deliveries' own key-share locks pass.
    subscribed = (
        WebhookEndpoint.objects.select_for_update(no_key=True)
        .filter(club_id=club_id, active=True)
        .order_by("pk")
        .only("pk", "events")
    )
    endpoints = [endpoint for endpoint in subscribed if event in endpoint.events]
    if not endpoints:
        return []
    data = payload() if callable(payload) else payload
    return webhook_deliveries_owe(endpoints, WebhookEvent(event), data)


def webhook_deliveries_owe(
    endpoints: Sequence[WebhookEndpoint], event: WebhookEvent, data: Mapping[str, object]
) -> list[WebhookDelivery]:
    """One pending delivery of ``event`` and its ``data`` to each of ``endpoints``
    (locked by the caller), all with one event id, and each delivery's job, sent
    when the current transaction commits (an event's, or an endpoint's ping)."""
    event_id = uuid.uuid4()
    now = timezone.now()
    stored = webhook_delivery.payload_json(data)
    deliveries = WebhookDelivery.objects.bulk_create(
        WebhookDelivery(
            endpoint=endpoint, event_id=event_id, event=event, payload=stored, next_attempt_at=now
        )
        for endpoint in endpoints
    )
    jobs_owe(jobs=[(JobOwed.Kind.WEBHOOK, delivery.pk) for delivery in deliveries])
    return deliveries


def webhooks_table_changed(*, table: Table, was_complete: bool) -> list[WebhookDelivery]:
    """``game.completed`` when the (stored, locked) table's game has just
    become complete; ``result.corrected`` when it was complete before the
    change (a hand corrected or deleted); nothing otherwise. The payload:
    the league, event, round and table, and each seat's player, total and
    place (null once the game is no longer complete)."""
    if was_complete:
        event = WebhookEvent.RESULT_CORRECTED
    elif table.complete:
        event = WebhookEvent.GAME_COMPLETED
    else:
        return []
    league = table.round.event.league
    return webhooks_emit(club=league.club_id, event=event, payload=lambda: _table_data(table))


def webhooks_game_confirmed(*, table: Table) -> list[WebhookDelivery]:
    """``game.confirmed``: the (stored, locked) table's game, entered through
    its table link, was just confirmed and now counts; the payload is
    ``game.completed``'s, with who confirmed it."""
    league = table.round.event.league
    return webhooks_emit(
        club=league.club_id,
        event=WebhookEvent.GAME_CONFIRMED,
        payload=lambda: _table_data(table),
    )


def _table_data(table: Table) -> dict[str, object]:
    round_ = table.round
    seatings = Seating.objects.filter(table=table).select_related("player").order_by("seat")
    return {
        **_night(round_.event),
        "round": {"id": round_.pk, "number": round_.number},
        "table": {
            "id": table.pk,
            "number": table.number,
            "game": table.game,
            "complete": table.complete,
            "hands_played": table.hands_played,
            "version": table.version,
            "confirmation": confirmation_data(table),
        },
        "players": [
            {
                "seat": seating.seat,
                "player": {"id": seating.player_id, "name": seating.player.name},
                "total": table.totals[seating.seat] if table.complete else None,
                "place": seating.place,
            }
            for seating in seatings
        ],
    }


def webhooks_rounds_seated(*, event: Event, rounds: Sequence[Round]) -> list[WebhookDelivery]:
    """``round.seated``, once for each of ``rounds`` (of ``event``, its
    league fetched with it), as stored now: its tables with their players
    by seat and first dealer, and who sits out."""
    deliveries: list[WebhookDelivery] = []
    club_id = event.league.club_id
    for round_ in rounds:
        deliveries += webhooks_emit(
            club=club_id,
            event=WebhookEvent.ROUND_SEATED,
            payload=functools.partial(_round_data, event, round_),
        )
    return deliveries


def _round_data(event: Event, round_: Round) -> dict[str, object]:
    tables: dict[int, TableSeatsData] = {}
    for table in Table.objects.filter(round=round_).order_by("number"):
        tables[table.pk] = {
            "id": table.pk,
            "number": table.number,
            "first_dealer": table.first_dealer,
            "players": [],
        }
    seatings = (
        Seating.objects.filter(round=round_).select_related("player").order_by("table_id", "seat")
    )
    for seating in seatings:
        tables[seating.table_id]["players"].append(
            {"seat": seating.seat, "player": {"id": seating.player_id, "name": seating.player.name}}
        )
    sit_outs = SitOut.objects.filter(round=round_).select_related("player").order_by("player__name")
    return {
        **_night(event),
        "round": {"id": round_.pk, "number": round_.number},
        "tables": list(tables.values()),
        "sit_out": [{"id": s.player_id, "name": s.player.name} for s in sit_outs],
    }


STANDINGS_SENT: Final = 50
"""How many of the league's best lines ``standings.updated`` carries."""


def webhooks_standings_updated(
    *,
    league: League,
    event_ids: Iterable[int] = (),
    player_ids: Iterable[int] | None = None,
) -> list[WebhookDelivery]:
    """``standings.updated`` for ``league``, once its standings are stored
    anew (the standings job calls this inside its transaction): the league,
    the events whose standings changed (``event_ids``, when known), the
    league's best :data:`STANDINGS_SENT` lines as stored, the lines of the
    players whose lines changed (``player_ids``; ``None`` when every line was
    rebuilt), how many lines the league has, and where the API lists them
    all. The size stays bounded whatever the league's size (one stored
    message an endpoint for every completed game)."""
    changed_ids = None if player_ids is None else sorted(set(player_ids))

    def data() -> dict[str, object]:
        rows = Standing.objects.filter(league=league, event__isnull=True).select_related("player")
        best = list(rows.order_by("rank", "player__name")[:STANDINGS_SENT])
        changed = None
        if changed_ids is not None:
            changed = list(rows.filter(player_id__in=changed_ids).order_by("rank"))
        return {
            "league": _league(league),
            "season": league.season,
            "season_words": season_in_words(league.season, first=league.table_size),
            "events": sorted(set(event_ids)),
            "players": rows.count(),
            "standings": [_standing(row) for row in best],
            "changed": None if changed is None else [_standing(row) for row in changed],
            "standings_url": reverse("league-standings", kwargs={"pk": league.pk}),
        }

    return webhooks_emit(club=league.club_id, event=WebhookEvent.STANDINGS_UPDATED, payload=data)


def _standing(row: Standing) -> StandingData:
    return {
        "rank": row.rank,
        "player": {"id": row.player_id, "name": row.player.name},
        "games": row.games,
        "wins": row.wins,
        "total_points": row.total_points,
        "average_place": row.average_place,
        "season_points": row.season_points,
        "nights_counted": row.nights_counted,
        "qualified": row.qualified,
    }


def _league(league: League) -> LeagueData:
    return {"id": league.pk, "name": league.name, "slug": league.slug, "game": league.game}


def _night(event: Event) -> NightData:
    return {
        "league": _league(event.league),
        "event": {"id": event.pk, "name": event.name, "date": event.date.isoformat()},
    }
