"""Who is present at a game night, round by round.

A player's attendance at an event is one row: the first round they play
(``from_round``) and the last (``until_round``, ``None`` while they stay to
the end), with who changed it last and when. What counts is which rounds
already have tables (:func:`league.selectors.draws.event_draw_state`):

- **checking in** makes a player play from the first round after the last
  one with tables: round 1 before the night starts, round 3 for a late
  arrival once round 2 is drawn. When every round has tables there is no
  round to join: a :class:`Conflict`.
- **leaving** makes the last round with tables their last: a game in
  progress is finished, later rounds are drawn without them. Someone who
  leaves before the first round they would play is taken off the list, as
  if never checked in.
- **checking in again** after leaving re-opens their stretch when no round
  was drawn while they were away; otherwise they play from the next round
  to be drawn (the rounds they played before are on the tables).
- **setting the list** (:func:`attendance_set`, what an organiser ticks on a
  sheet) checks in those listed who are not present and makes those present
  but not listed leave; the others are left as they are.

Checking in someone present, or making someone who left leave, changes
nothing. Every change locks the event row first, so that the changes of
one event are serialised. The database keeps a row per player and event
and a stretch that is never empty; that the player is of the event's
club spans three tables, so the checks here keep it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from league import audit
from league.errors import Conflict, ServiceError
from league.models import Attendance, Event, Player
from league.selectors import draws as draws_selectors
from league.selectors import events as events_selectors
from league.selectors.draws import DrawState
from league.services.clubs import player_create
from league.users import Actor


@transaction.atomic
def attendance_set(*, event: Event, players: Sequence[Player], by: Actor) -> list[Attendance]:
    """Make ``players`` the ones present: check in those not present, make
    those present but not listed leave. All or nothing; the event's
    attendance after it."""
    event = _lock(event)
    _check_players(event, players, field="players")
    rows = {row.player_id: row for row in Attendance.objects.filter(event=event)}
    state = draws_selectors.event_draw_state(event=event)
    listed = {player.pk for player in players}
    for player in players:
        _check_in(event, player, rows.get(player.pk), state, by=by, field="players")
    for row in rows.values():
        if row.present and row.player_id not in listed:
            _leave(event, row, state, by=by)
    return events_selectors.event_attendance(event=event)


@transaction.atomic
def attendance_check_in(*, event: Event, player: Player, by: Actor) -> Attendance:
    """Check ``player`` in from the next round to be drawn (their row)."""
    event = _lock(event)
    _check_players(event, [player], field="player")
    row = Attendance.objects.filter(event=event, player=player).first()
    state = draws_selectors.event_draw_state(event=event)
    return _check_in(event, player, row, state, by=by, field="player")


@transaction.atomic
def attendance_leave(*, event: Event, player: Player, by: Actor) -> Attendance | None:
    """``player`` plays no round after the last one with tables; their row,
    or ``None`` when they leave before playing (the row is removed)."""
    event = _lock(event)
    _check_players(event, [player], field="player")
    row = Attendance.objects.filter(event=event, player=player).first()
    if row is None:
        raise Conflict(
            gettext("%(name)s is not checked in") % {"name": player.name}, field="player"
        )
    return _leave(event, row, draws_selectors.event_draw_state(event=event), by=by)


@transaction.atomic
def guest_add(*, event: Event, name: str, by: Actor) -> Attendance:
    """A new player of the event's club, marked as a guest, checked in; a
    name the club has already is a :class:`Conflict` (nothing is stored)."""
    event = _lock(event)
    state = draws_selectors.event_draw_state(event=event)
    _check_round_to_join(state, field="name")
    player = player_create(club=event.league.club, name=name, is_guest=True)
    return _check_in(event, player, None, state, by=by, field="name")


@transaction.atomic
def attendance_stop_before(
    *, event: Event, player: Player, round_number: int, by: Actor
) -> Attendance | None:
    """``player`` plays no round from ``round_number`` on: they were taken
    off a table of that round before its first hand
    (:mod:`league.services.seat_changes`). Their last round becomes the one
    before; when they had played none before it (they did not come), they
    are taken off the list, as if never checked in. Their row, or ``None``
    (taken off the list, or never on it). A row that ends before
    ``round_number`` already is left as it is."""
    event = _lock(event)
    row = Attendance.objects.filter(event=event, player=player).first()
    if row is None or (row.until_round is not None and row.until_round < round_number):
        return row
    before = _rounds(row)
    if row.from_round >= round_number:
        row.delete()
        _audit(event, player.pk, before=before, after=None)
        return None
    row.until_round = round_number - 1
    row.changed_by, row.changed_at = by, timezone.now()
    row.save(update_fields=["until_round", "changed_by", "changed_at"])
    _audit(event, player.pk, before=before, after=row)
    return row


@transaction.atomic
def attendance_start_from(
    *, event: Event, player: Player, round_number: int, by: Actor
) -> Attendance:
    """``player``, present and checked in after round ``round_number`` was
    drawn, takes a seat in it (:mod:`league.services.seat_changes`): they
    play from it. A row that starts at or before it already is left as it
    is; a player not present is a :class:`Conflict` on ``replacement``."""
    event = _lock(event)
    row = Attendance.objects.filter(event=event, player=player).first()
    if row is None or not row.present:
        raise Conflict(
            gettext("%(name)s is not checked in") % {"name": player.name}, field="replacement"
        )
    if row.from_round <= round_number:
        return row
    before = _rounds(row)
    row.from_round = round_number
    row.changed_by, row.changed_at = by, timezone.now()
    row.save(update_fields=["from_round", "changed_by", "changed_at"])
    _audit(event, player.pk, before=before, after=row)
    return row


def _lock(event: Event) -> Event:
    """The event row, locked, with its league (for the club's id)."""
    return Event.objects.select_for_update(of=("self",)).select_related("league").get(pk=event.pk)


def _check_players(event: Event, players: Sequence[Player], *, field: str) -> None:
    """Every player is of the event's league's club, and named once."""
    strangers = sorted(p.name for p in players if p.club_id != event.league.club_id)
    if strangers:
        raise ServiceError(
            gettext("not players of the event's club: %(names)s") % {"names": ", ".join(strangers)},
            field=field,
        )
    counts = Counter(player.pk for player in players)
    twice = sorted({player.name for player in players if counts[player.pk] > 1})
    if twice:
        raise ServiceError(
            gettext("listed more than once: %(names)s") % {"names": ", ".join(twice)}, field=field
        )


def _check_round_to_join(state: DrawState, *, field: str) -> int:
    """The round a player checking in now plays from; a :class:`Conflict`
    when every round already has tables."""
    if state.next_round is None:
        raise Conflict(
            gettext("every round of the event has tables already; add a round to check players in"),
            field=field,
        )
    return state.next_round


def _check_in(
    event: Event,
    player: Player,
    row: Attendance | None,
    state: DrawState,
    *,
    by: Actor,
    field: str,
) -> Attendance:
    if row is not None and row.present:
        return row
    first = _check_round_to_join(state, field=field)
    changed_at = timezone.now()
    if row is None:
        row = Attendance.objects.create(
            event=event,
            player=player,
            from_round=first,
            until_round=None,
            changed_by=by,
            changed_at=changed_at,
        )
        _audit(event, player.pk, before=None, after=row)
        return row
    before = _rounds(row)
    if row.until_round is not None and row.until_round < state.last_drawn:
        row.from_round = first  # rounds were drawn while they were away
    row.until_round = None
    row.changed_by, row.changed_at = by, changed_at
    row.save(update_fields=["from_round", "until_round", "changed_by", "changed_at"])
    _audit(event, player.pk, before=before, after=row)
    return row


def _leave(event: Event, row: Attendance, state: DrawState, *, by: Actor) -> Attendance | None:
    if not row.present:
        return row
    before = _rounds(row)
    if state.last_drawn < row.from_round:
        row.delete()
        _audit(event, row.player_id, before=before, after=None)
        return None
    row.until_round = state.last_drawn
    row.changed_by, row.changed_at = by, timezone.now()
    row.save(update_fields=["until_round", "changed_by", "changed_at"])
    _audit(event, row.player_id, before=before, after=row)
    return row


def _rounds(row: Attendance) -> dict[str, int | None]:
    """The rounds a player plays, as the audit trail keeps them."""
    return {"from_round": row.from_round, "until_round": row.until_round}


def _audit(
    event: Event, player_id: int, *, before: dict[str, int | None] | None, after: Attendance | None
) -> None:
    """One entry a player whose attendance changed: the rounds they played
    before and play after (``None``: not on the list)."""
    audit.audit_entry_write(
        action=audit.Action.ATTENDANCE_CHANGED,
        club_id=event.league.club_id,
        event_id=event.pk,
        before=None if before is None else {"player": player_id, **before},
        after=None if after is None else {"player": player_id, **_rounds(after)},
    )
