"""The audit trail: who changed results, seatings, attendance and roles,
when, through what, and the record before and after.

The services write it (:func:`audit_entry_write`), inside the transaction of the
change, so an entry exists exactly when the change commits: a refused or
rolled-back change leaves none. Entries are :class:`~league.models.AuditEntry`
rows, append-only (the app offers no way to edit or delete one; the
database refuses an UPDATE).

Who and through what are not passed to every service: the edges of the app
say it once, in a context (:func:`audit_context`) that the services' entries
read:

- :class:`AuditMiddleware` for every request: ``api`` under ``/api/``,
  ``page`` elsewhere, the actor being the request's user as it is when the
  entry is written (so the API's token login, which DRF does in the view,
  counts);
- :func:`audit_via` where a service stores a file's results (``import``),
  keeping the actor of the page or command that runs it;
- nothing for a management command or a background job: an entry made
  outside any context says ``command``, with no actor. A missing context is
  never an error.

A service that records a change as a whole calls the services it builds on
inside :func:`audit_covered`, so that one change is one entry: a round drawn
is one ``seating.drawn``, not one ``table.created`` a table besides.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import ParamSpec, TypeAlias, TypedDict, TypeVar

from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from league import outputs
from league.models import AuditEntry, Hand, HandSeat, Player, Seating, SitOut, Table
from league.outputs import HandData
from league.users import SiteUser

Action = AuditEntry.Action
Via = AuditEntry.Via

P = ParamSpec("P")
R = TypeVar("R")

API_PREFIX = "/api/"
"""Requests under it are the API's; every other request is a page's."""


AskActor: TypeAlias = Callable[[], SiteUser | None]
"""Who is changing things, asked when an entry is written: a request's user (the
anonymous user too: it is recorded as nobody), or ``None``."""


@dataclass(frozen=True)
class _Source:
    via: str
    actor: AskActor
    """The user (or ``None``) when an entry is written: asked late, because
    the API signs a token's user in only once the view runs."""
    covered: bool = False


def _nobody() -> None:
    return None


_source: ContextVar[_Source | None] = ContextVar("league_audit_source", default=None)


@contextmanager
def audit_context(*, via: str, actor: SiteUser | AskActor | None = None) -> Iterator[None]:
    """Entries written inside are made ``via`` (an :class:`AuditEntry.Via`)
    by ``actor``: a user, ``None``, or a callable answering either."""
    resolve = actor if callable(actor) else (lambda: actor)
    token = _source.set(_Source(via=Via(via), actor=resolve))
    try:
        yield
    finally:
        _source.reset(token)


@contextmanager
def audit_via(via: str) -> Iterator[None]:
    """Entries written inside are made ``via``, by the actor of the
    surrounding context (none outside one)."""
    current = _source.get()
    actor = current.actor if current is not None else _nobody
    token = _source.set(
        _Source(via=Via(via), actor=actor, covered=bool(current and current.covered))
    )
    try:
        yield
    finally:
        _source.reset(token)


def audited_via(via: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a service: its entries are made ``via`` (as :func:`audit_via`)."""

    def decorate(service: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(service)
        def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
            with audit_via(via):
                return service(*args, **kwargs)

        return wrapped

    return decorate


@contextmanager
def audit_covered() -> Iterator[None]:
    """The caller records the change as a whole: entries of the services it
    calls inside are left out."""
    current = _source.get() or _Source(via=Via.COMMAND, actor=_nobody)
    token = _source.set(_Source(via=current.via, actor=current.actor, covered=True))
    try:
        yield
    finally:
        _source.reset(token)


class AuditMiddleware:
    """Every request's changes are recorded as the API's or a page's, by
    the request's user."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        via = Via.API if request.path.startswith(API_PREFIX) else Via.PAGE
        with audit_context(via=via, actor=lambda: getattr(request, "user", None)):
            return self.get_response(request)


def audit_entry(
    *,
    action: str,
    club_id: int,
    event_id: int | None = None,
    round_id: int | None = None,
    table_id: int | None = None,
    hand_number: int | None = None,
    before: object = None,
    after: object = None,
    seat: int | None = None,
) -> AuditEntry | None:
    """One entry, not yet saved (no query): :func:`audit_entry_write` writes it, a
    caller that writes it in a statement of its own saves it there; ``None``
    when inside :func:`audit_covered` (the caller records the change).
    ``seat`` is the seat that said it made a change through a table link:
    such a change is recorded ``via`` ``link`` whatever the context says.

    ``before`` and ``after`` are JSON: small, bounded records of what
    changed (a hand as the API shows it, a table's seats), ``None`` for
    nothing (before a creation, after a removal)."""
    source = _source.get()
    if source is not None and source.covered:
        return None
    via, user = (source.via, source.actor()) if source is not None else (Via.COMMAND, None)
    # an anonymous user changes nothing; a request's user may be one
    actor = user if user is not None and user.is_authenticated else None
    if seat is not None:
        via, actor = Via.LINK, None  # whoever holds the table's link, by their word
    return AuditEntry(
        action=Action(action),
        club_id=club_id,
        event_id=event_id,
        round_id=round_id,
        table_id=table_id,
        hand_number=hand_number,
        actor=actor,
        actor_name=actor.get_username() if actor is not None else "",
        via=via,
        seat=seat,
        at=timezone.now(),
        before=before,
        after=after,
    )


# -- what the entries hold ---------------------------------------------------------------


class PlayerRecord(TypedDict):
    """A player as an entry names them: id and name."""

    player: int
    player_name: str


class SeatsRecord(TypedDict):
    """A table's seats (:func:`seats_record`)."""

    players: list[PlayerRecord]
    first_dealer: int


class TableRecord(SeatsRecord):
    """A table of a round's seats (:func:`rounds_record`): its number too."""

    number: int


class RoundRecord(TypedDict):
    """A round's seats (:func:`rounds_record`): its tables and who sits out."""

    tables: list[TableRecord]
    sit_out: list[PlayerRecord]


def hand_record(hand: Hand, lines: Iterable[HandSeat]) -> HandData:
    """A hand as the API's hand output shows it (:func:`league.outputs.hand_data`),
    so that the trail reads like the API."""
    return outputs.hand_data(hand, lines)


def stored_hand(*, table: Table, number: int) -> HandData | None:
    """Hand ``number`` of the table as stored (one query), before a change
    replaces or deletes it, as the API's hand output shows it
    (:func:`league.outputs.hand_data`); ``None`` when there is none."""
    lines = list(
        HandSeat.objects.filter(hand__table=table, hand__number=number)
        .select_related("hand")
        .order_by("seat")
    )
    return hand_record(lines[0].hand, lines) if lines else None


def seats_record(players: Sequence[Player], first_dealer: int) -> SeatsRecord:
    """A table's seats: each seat's player (id and name) and the first dealer."""
    return {
        "players": [{"player": p.pk, "player_name": p.name} for p in players],
        "first_dealer": first_dealer,
    }


def club_of(table: Table) -> int:
    """The club id of a table whose round, event and league are fetched."""
    return int(table.round.event.league.club_id)


def table_entry(
    table: Table,
    *,
    action: str,
    hand_number: int | None = None,
    before: object,
    after: object,
    seat: int | None = None,
) -> AuditEntry | None:
    """An entry about one table (its round, event and league fetched), not
    yet saved (:func:`audit_entry`)."""
    return audit_entry(
        action=action,
        club_id=club_of(table),
        event_id=table.round.event_id,
        round_id=table.round_id,
        table_id=table.pk,
        hand_number=hand_number,
        before=before,
        after=after,
        seat=seat,
    )


def audit_entry_write(
    *,
    action: str,
    club_id: int,
    event_id: int | None = None,
    round_id: int | None = None,
    table_id: int | None = None,
    hand_number: int | None = None,
    before: object = None,
    after: object = None,
    seat: int | None = None,
) -> AuditEntry | None:
    """Write one entry (:func:`audit_entry`: one INSERT, in the current
    transaction); ``None``, and nothing written, inside :func:`audit_covered`."""
    return _written(
        audit_entry(
            action=action,
            club_id=club_id,
            event_id=event_id,
            round_id=round_id,
            table_id=table_id,
            hand_number=hand_number,
            before=before,
            after=after,
            seat=seat,
        )
    )


def table_entry_write(
    table: Table,
    *,
    action: str,
    hand_number: int | None = None,
    before: object,
    after: object,
    seat: int | None = None,
) -> AuditEntry | None:
    """Write an entry about one table (:func:`table_entry`), as
    :func:`audit_entry_write` writes one."""
    return _written(
        table_entry(
            table, action=action, hand_number=hand_number, before=before, after=after, seat=seat
        )
    )


def _written(entry: AuditEntry | None) -> AuditEntry | None:
    """``entry`` saved (one INSERT, in the current transaction), when there is one."""
    if entry is not None:
        entry.save(force_insert=True)
    return entry


def rounds_record(round_ids: Iterable[int]) -> dict[int, RoundRecord | None]:
    """Each round's seats as stored, by round id (two queries): its tables
    by number with their players in seat order and first dealer, and who
    sits out; ``None`` for a round with neither (not drawn)."""
    ids = list(round_ids)
    tables: dict[int, dict[int, TableRecord]] = {pk: {} for pk in ids}
    seatings = (
        Seating.objects.filter(round_id__in=ids)
        .select_related("table", "player")
        .order_by("table__number", "seat")
    )
    for seating in seatings:
        table = tables[seating.round_id].setdefault(
            seating.table.number,
            {
                "number": seating.table.number,
                "players": [],
                "first_dealer": seating.table.first_dealer,
            },
        )
        table["players"].append({"player": seating.player_id, "player_name": seating.player.name})
    out: dict[int, list[PlayerRecord]] = {pk: [] for pk in ids}
    for sit_out in SitOut.objects.filter(round_id__in=ids).select_related("player"):
        out[sit_out.round_id].append(
            {"player": sit_out.player_id, "player_name": sit_out.player.name}
        )
    return {
        pk: {"tables": list(tables[pk].values()), "sit_out": out[pk]}
        if tables[pk] or out[pk]
        else None
        for pk in ids
    }


# -- reading the trail ------------------------------------------------------------------


def table_history(*, table: Table) -> QuerySet[AuditEntry]:
    """The entries about a table: its results and its seats, and the draws
    and adjustments of its round (which seated it), newest first."""
    return AuditEntry.objects.filter(
        Q(table_id=table.pk) | Q(round_id=table.round_id, table_id__isnull=True)
    ).order_by("-id")
