"""The hands played at a table: submitted one by one or as a whole game,
corrected, or the last one deleted.

Every change of results goes the same three steps, under the table's row
lock (so changes to one table are serialised):

1. :func:`check_results_change`: the change fits the table as stored (the
   client's version, the hand numbers, a game not over);
2. :func:`replay_results`: the engine replays the new records after the
   hands kept, giving every hand's and seat's result and the new totals;
3. :func:`store_results`: the hands from the first changed one on are
   replaced, the table's totals and counters updated and, when a complete
   game is involved, the final places stored and the league's standings and
   ratings jobs owed.

**The next hand, as read** (PostgreSQL). A hand submitted that does not end
the game is first tried without the lock (:func:`_hand_append_as_read`): the
steps run on the table as the request's access check read it, and one
statement stores the hand, its lines, the table's new totals and the audit
entry only if the table's version is still the one read. Every change of a
table's results or seats moves its version, so a hand stored that way was
checked and scored against the table as it is; when the version has moved,
nothing is stored and the hand goes the locked way. A submission is then
two round trips (the access check's read and that statement) where the
locked way takes five (its BEGIN and COMMIT included).

The statements written by hand (that one, and the places of a complete game)
are in :mod:`league.services.results_sql`, with the ORM code each mirrors.

Nothing is stored when a step raises: the engine's refusal
(:class:`games.RecordError`, with ``hand`` set to the hand's number),
:class:`~league.errors.Conflict` or :class:`~league.errors.PreconditionFailed`.

Locks: the table's row only (``FOR UPDATE OF``, or the as-read statement's
UPDATE), never its round, event or league, so submissions at other tables
of a league go on side by side. A game that completes owes its scopes'
re-rating in rows of its own (:func:`league.ratings.ratings_mark_changed`),
taking no lock that a running job holds. A change the database refuses as a
deadlock's victim is run again (:func:`league.db.retry_on_conflict`); a lock
it waits for longer than the request's lock timeout raises
``OperationalError``, answered 503.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, TypedDict

from django.db import OperationalError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

import games
from league import audit, outputs, ratings
from league.db import Failure, failure_kind, retry_on_conflict
from league.errors import Conflict, NotFound, PreconditionFailed, ServiceError
from league.models import (
    AuditEntry,
    Confirmation,
    Hand,
    HandSeat,
    JobOwed,
    ResultsConfirmation,
    Table,
)
from league.outbox import standings_owe
from league.services import results_sql
from league.services.fixtures import game_rules
from league.statements import JoinedRead
from league.webhook_events import webhooks_table_changed


class ResultsMode(StrEnum):
    """What a change of results does to the hands stored at a table."""

    APPEND = "append"
    """Add hands after the stored ones (the first of them numbered ``number``)."""
    REPLACE = "replace"
    """Replace hand ``number``; every later hand is replayed after it."""
    DELETE_LAST = "delete_last"
    """Delete hand ``number``, which must be the last."""


@dataclass(frozen=True)
class ResultsChange:
    """A table after a change of results, and what the change stored."""

    table: Table
    hands: list[Hand]
    lines: list[list[HandSeat]]
    """Each stored hand's seat lines, in seat order."""
    next_hand: dict[str, int] | None
    """The next hand's number, dealer and cards; ``None`` once complete."""
    places: tuple[int, ...] | None = None
    """Each seat's final place once the game is complete (as the seatings now
    store them); ``None`` before."""


@dataclass(frozen=True)
class Replay:
    """The engine's outcome of records replayed after the hands kept: rows
    ready to store, and the tally after the last of them."""

    tally: games.GameTally
    hands: list[Hand]
    lines: list[list[HandSeat]]


# -- the changes ------------------------------------------------------------------


def hand_submit(
    *,
    table: Table,
    record: dict[str, Any],
    number: int | None = None,
    by_seat: int | None = None,
) -> ResultsChange:
    """Store the next hand of the table's game.

    A client that says which hand it submits (``number``) is told 409 when
    that hand is already stored, so a submission sent twice counts once.
    ``by_seat`` is the seat entering it through the table's link (``None``: a
    signed-in scorekeeper or organiser, an import, a command), which decides
    whether the game awaits confirmation once complete (:func:`confirmation_after`).

    ``table`` is the table as the caller read it (with its round, event and
    league). Most hands are stored by one statement, with no lock held in
    between, if the table is still as read (:func:`_hand_append_as_read`);
    the hand that ends the game, and any hand the table as read cannot take,
    go the locked way of every change (the module's docstring).
    """
    check_seat(table=table, seat=by_seat)
    change = _hand_append_as_read(
        table=copy.copy(table), record=record, number=number, by_seat=by_seat
    )
    return change or _hand_submit_locked(table=table, record=record, number=number, by_seat=by_seat)


@retry_on_conflict
@transaction.atomic
def _hand_submit_locked(
    *, table: Table, record: dict[str, Any], number: int | None, by_seat: int | None
) -> ResultsChange:
    return _results_change(
        table=table,
        mode=ResultsMode.APPEND,
        number=number,
        records=[record],
        action=audit.Action.HAND_SUBMITTED,
        by_seat=by_seat,
    )


@retry_on_conflict
@transaction.atomic
def hand_correct(
    *,
    table: Table,
    number: int,
    record: dict[str, Any],
    version: int | None,
    by_seat: int | None = None,
) -> Table:
    """Replace hand ``number`` and replay every later hand after it (the
    later hands as stored once the table is locked). ``by_seat`` as for
    :func:`hand_submit`; through a table link, a confirmed game is refused
    (:class:`Conflict`, ``code`` ``confirmed``): an organiser corrects it."""
    check_seat(table=table, seat=by_seat)
    return _results_change(
        table=table,
        mode=ResultsMode.REPLACE,
        number=number,
        records=[record],
        version=version,
        action=audit.Action.HAND_CORRECTED,
        by_seat=by_seat,
    ).table


def check_seat(*, table: Table, seat: int | None) -> None:
    """A :class:`ServiceError` (``seat``) unless ``seat`` is one of the table's
    seats, or ``None``."""
    if seat is not None and not 0 <= seat < table.players:
        raise ServiceError(
            gettext("seat is one of the table's seats, 0 to %(value)s, not %(seat)s")
            % {"value": table.players - 1, "seat": seat},
            field="seat",
        )


@retry_on_conflict
@transaction.atomic
def hand_delete_last(*, table: Table, number: int, version: int | None) -> Table:
    """Delete the table's last hand (``number`` must be it)."""
    return _results_change(
        table=table,
        mode=ResultsMode.DELETE_LAST,
        number=number,
        records=[],
        version=version,
        action=audit.Action.HAND_DELETED,
    ).table


@retry_on_conflict
@transaction.atomic
def game_submit(*, table: Table, record: object) -> Table:
    """Store a whole game record at a table with no hands yet: all or nothing.

    The record's ``game``, ``players``, ``first_dealer`` and ``options`` may be
    left out; if given they must agree with the table.
    """
    if not isinstance(record, dict):
        raise ServiceError(gettext("a game record is a JSON object"), field="record")
    if table.hands_played:
        raise Conflict(gettext("the table already has hands; submit them one by one"))
    expected = {
        "game": table.game,
        "players": table.players,
        "first_dealer": table.first_dealer,
    }
    for field, value in expected.items():
        if field in record and record[field] != value:
            raise ServiceError(
                gettext("%(field)s is %(value)s at this table, not %(record)s")
                % {"field": field, "value": repr(value), "record": repr(record[field])},
                field=field,
            )
    if "options" in record and record["options"] != table.round.event.league.options:
        raise ServiceError(gettext("options must be the league's options"), field="options")
    unknown = set(record) - {*expected, "options", "hands"}
    if unknown:
        raise ServiceError(
            gettext("unknown field %(min)s") % {"min": repr(min(unknown))}, field=min(unknown)
        )
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise ServiceError(gettext("hands must be an array of hand records"), field="hands")
    if not hands:
        raise ServiceError(
            gettext("hands is empty: a game record has at least one hand"), field="hands"
        )
    return _results_change(
        table=table,
        mode=ResultsMode.APPEND,
        number=0,
        records=hands,
        action=audit.Action.GAME_SUBMITTED,
    ).table


def _hand_append_as_read(
    *, table: Table, record: dict[str, Any], number: int | None, by_seat: int | None
) -> ResultsChange | None:
    """Store the next hand in one statement that writes only if the table's
    version is still the one read
    (:func:`~league.services.results_sql.store_appended`), with no
    transaction and no lock held while the engine replays it: the version
    changes with every change of the table's results or seats, so a table
    still at it is the table the hand was checked and scored against.

    ``None`` when not tried, or when nothing was stored: on SQLite; when the
    hand ends the game (its places, standings and jobs are stored with it, in
    a transaction); when the table as read cannot take it (a wrong number, a
    complete game, a record the engine refuses: the locked way tells which,
    of the table as it is now); when the table had changed; when the database
    chose the statement as a deadlock's victim (the locked way runs again).
    A timeout is raised, as everywhere (answered 503).
    """
    if not results_sql.appends_in_one_statement():
        return None
    try:
        keep = check_results_change(
            table=table, mode=ResultsMode.APPEND, number=number, version=None, records=[record]
        )
        replay = replay_results(table=table, keep=keep, records=[record])
        if replay.tally.complete:
            return None
        change, entry = _results_applied(
            table=table,
            keep=keep,
            replay=replay,
            action=audit.Action.HAND_SUBMITTED,
            before=None,
            by_seat=by_seat,
        )
        # Inside a caller's transaction (an Idempotency-Key's), a savepoint, so
        # that a failure leaves that transaction able to go the locked way.
        with transaction.atomic() if connection.in_atomic_block else nullcontext():
            stored = results_sql.store_appended(
                table=change.table, hands=change.hands, seat_lines=change.lines, entry=entry
            )
    except (Conflict, games.RecordError):  # of the table as read: the locked way decides
        return None
    except OperationalError as error:
        if failure_kind(error) is Failure.CONFLICT:  # nothing stored: the locked way retries
            return None
        raise
    return change if stored else None


def _results_change(
    *,
    table: Table,
    mode: ResultsMode,
    number: int | None,
    records: Sequence[Any],
    version: int | None = None,
    action: audit.Action,
    by_seat: int | None = None,
) -> ResultsChange:
    """Lock the table, then check, replay and store (see the module's docstring),
    with the change's entry in the audit trail as ``action``
    (:func:`_audit_entry`). A correction (``REPLACE``) replays ``records``
    followed by the hands stored after it, read under the lock: read before
    it, a hand appended meanwhile would be deleted and not replayed.

    Queries: a constant number, whatever the number of hands.
    """
    table = lock_table(table)
    keep = check_results_change(
        table=table, mode=mode, number=number, version=version, records=records
    )
    if by_seat is not None and table.confirmation == Confirmation.CONFIRMED:
        raise Conflict(
            gettext("this game is confirmed: an organiser corrects it now"),
            field="number",
            code="confirmed",
        )
    if mode is ResultsMode.REPLACE:
        later = Hand.objects.filter(table=table, number__gt=keep).order_by("number")
        records = [*records, *later.values_list("record", flat=True)]
    replay = replay_results(table=table, keep=keep, records=records)
    before = None if mode is ResultsMode.APPEND else audit.stored_hand(table=table, number=keep)
    return store_results(
        table=table, keep=keep, replay=replay, action=action, before=before, by_seat=by_seat
    )


LOCKED_TABLE: Final = JoinedRead(
    model=Table,
    related=("round__event__league",),
    where="base.id = %s",
    for_update=True,
)
"""A table with its round, event and league (the league's options as they are
now), its row alone locked until the transaction ends."""


def lock_table(table: Table) -> Table:
    """``table`` as stored now (:data:`LOCKED_TABLE`); :class:`NotFound` when
    it is gone since the caller read it (its round drawn again meanwhile)."""
    locked = LOCKED_TABLE.get(table.pk)
    if locked is None:
        raise NotFound(gettext("no such table"))
    return locked


class GameSubmittedRecord(TypedDict):
    """A whole game submitted as the audit trail keeps it (``game.submitted``): its
    count of hands, final totals and status, bounded whatever the game's length."""

    hands: int
    totals: list[int]
    status: str


def _audit_entry(
    change: ResultsChange,
    *,
    action: audit.Action,
    keep: int,
    before: outputs.HandData | None,
    by_seat: int | None,
) -> AuditEntry | None:
    """The change's entry in the audit trail, not yet saved (it is stored with
    the change): a hand submitted, corrected or deleted is that hand before
    and after (as the API shows it; the later hands a correction replays
    follow from it); a whole game is its count of hands and final totals,
    which bounds the entry whatever the game's length."""
    table = change.table
    if action is audit.Action.GAME_SUBMITTED:
        after: GameSubmittedRecord | outputs.HandData | None = {
            "hands": table.hands_played,
            "totals": list(table.totals),
            "status": table.status.value,
        }
        return audit.table_entry(table, action=action, before=None, after=after, seat=by_seat)
    after = None
    if change.hands:  # the hand ``keep``: the one appended or put in place
        after = audit.hand_record(change.hands[0], change.lines[0])
    return audit.table_entry(
        table, action=action, hand_number=keep, before=before, after=after, seat=by_seat
    )


# -- the steps ---------------------------------------------------------------------


def check_results_change(
    *,
    table: Table,
    mode: ResultsMode,
    number: int | None,
    version: int | None,
    records: Sequence[object],
) -> int:
    """How many of the stored hands the change keeps, once it is found to
    fit the (locked) table; ``number`` ``None`` appends after the last hand."""
    if version is not None and version != table.version:
        raise PreconditionFailed(
            gettext(
                "the score sheet you hold is not this table's current one (version %(version)s): "
                "reload it"
            )
            % {"version": table.version}
        )
    played = table.hands_played
    if mode is ResultsMode.APPEND:
        keep = played if number is None else number
        if keep < played:
            raise Conflict(
                gettext("hand %(keep)s is already stored; hand %(played)s is next")
                % {"keep": keep, "played": played},
                field="number",
            )
        if keep > played:
            raise Conflict(
                gettext("hands arrive in order: hand %(played)s is next, not %(keep)s")
                % {"played": played, "keep": keep},
                field="number",
            )
        if table.complete and records:
            raise games.InvalidRecord("game_over", "the game at this table is complete", hand=keep)
        return keep
    assert number is not None, "a correction or deletion names its hand"
    if mode is ResultsMode.REPLACE and number >= played:
        raise Conflict(
            gettext("there is no hand %(number)s to correct") % {"number": number}, field="number"
        )
    if mode is ResultsMode.DELETE_LAST and number != played - 1:
        raise Conflict(
            gettext("only the last hand (%(value)s) can be deleted") % {"value": played - 1},
            field="number",
        )
    return number


def replay_results(*, table: Table, keep: int, records: Sequence[Any]) -> Replay:
    """Replay ``records`` through the engine after the table's first ``keep``
    hands, resuming from the totals stored after them (one query at most)."""
    league = table.round.event.league
    totals = None
    if keep == table.hands_played:  # appending: the table holds the totals so far
        totals = table.totals
    elif keep:
        totals = list(
            HandSeat.objects.filter(hand__table=table, hand__number=keep - 1)
            .order_by("seat")
            .values_list("total", flat=True)
        )
    tally = games.GameTally(
        game_rules(game=league.game, players=table.players, options=league.options),
        first_dealer=table.first_dealer,
        hands_played=keep,
        totals=totals,
    )
    hands: list[Hand] = []
    lines: list[list[HandSeat]] = []
    for offset, record in enumerate(records):
        number = keep + offset
        dealer, cards = tally.next_dealer, tally.next_hand_size
        try:
            result = tally.add(record)
        except games.RecordError as error:
            error.hand = number
            raise
        hands.append(
            Hand(
                table=table,
                number=number,
                dealer=dealer,
                cards=cards if cards is not None else games.buck_euchre.HAND_SIZE,
                trump=result.trump.value if result.trump is not None else "",
                maker=result.maker,
                drops=list(result.drops),
                takes_all=result.takes_all,
                is_move_log=result.winners is not None,
                record=record,
            )
        )
        bids = record.get("bids") or [None] * table.players
        lines.append(
            [
                HandSeat(
                    seat=seat,
                    player_id=table.seat_players[seat],
                    dropped=seat in result.drops,
                    bid=bids[seat],
                    tricks=result.tricks[seat],
                    points=result.points[seat],
                    total=tally.totals[seat],
                )
                for seat in range(table.players)
            ]
        )
    return Replay(tally=tally, hands=hands, lines=lines)


def store_results(
    *,
    table: Table,
    keep: int,
    replay: Replay,
    action: audit.Action,
    before: outputs.HandData | None,
    by_seat: int | None = None,
) -> ResultsChange:
    """Replace the (locked) table's hands from ``keep`` on by the replay's,
    update the table and write the change's entry in the audit trail
    (``action``, ``before``: :func:`_audit_entry`); a game that counts (complete,
    needing no confirmation or confirmed), or that counted before, stores its
    final totals and places (cleared when it no longer counts) and owes the
    league's standings and ratings.

    Hands appended on PostgreSQL are written in one statement with their
    lines, the table and the entry
    (:func:`~league.services.results_sql.store_appended`); any other change,
    and every change on SQLite, through the ORM, a statement each."""
    was_complete, counted, appending = table.complete, table.counts, keep == table.hands_played
    change, entry = _results_applied(
        table=table, keep=keep, replay=replay, action=action, before=before, by_seat=by_seat
    )
    if appending and results_sql.appends_in_one_statement():
        stored = results_sql.store_appended(
            table=change.table, hands=change.hands, seat_lines=change.lines, entry=entry
        )
        assert stored, "the table is locked: its version cannot have changed"
    else:
        if not appending:
            Hand.objects.filter(table=table, number__gte=keep).delete()
        # The table lock serialises changes; should two ever race past it, the
        # unique hand number refuses the second (an IntegrityError, answered 409).
        Hand.objects.bulk_create(replay.hands)
        for hand, lines in zip(replay.hands, replay.lines, strict=True):
            for line in lines:
                line.hand = hand
        HandSeat.objects.bulk_create(line for lines in replay.lines for line in lines)
        table.save(update_fields=results_sql.TABLE_RESULTS)
        if entry is not None:
            entry.save(force_insert=True)
    if table.counts or counted:
        players = results_sql.store_places(table, replay.tally if table.counts else None)
        results_changed_owe_jobs(table=table, player_ids=players)
    if table.complete or was_complete:
        # game.completed or result.corrected, to the club's webhooks
        webhooks_table_changed(table=table, was_complete=was_complete)
    return change


def _results_applied(
    *,
    table: Table,
    keep: int,
    replay: Replay,
    action: audit.Action,
    before: outputs.HandData | None,
    by_seat: int | None,
) -> tuple[ResultsChange, AuditEntry | None]:
    """The change the replay makes, applied to ``table`` in memory (its totals,
    counters, confirmation, and its version moved by one; no query), and the
    change's entry in the audit trail (:func:`_audit_entry`): both ready to
    store, by either way."""
    tally = replay.tally
    table.complete = tally.complete
    table.hands_played = keep + len(replay.hands)
    table.totals = tally.totals
    table.version += 1
    confirmation_after(table, by_seat=by_seat)
    change = ResultsChange(
        table=table,
        hands=replay.hands,
        lines=replay.lines,
        next_hand=outputs.next_hand_of(tally),
        places=tally.ranks() if table.counts else None,
    )
    entry = _audit_entry(change, action=action, keep=keep, before=before, by_seat=by_seat)
    return change, entry


def confirmation_after(table: Table, *, by_seat: int | None) -> None:
    """Set where the (changed, in memory) table's game stands with the
    players' confirmation, after a change of its results made by ``by_seat``
    through the table's link (``None``: by a signed-in user, an import or a
    command):

    - not complete: nothing to confirm;
    - complete, in a league whose results a second player confirms, and
      changed through the link or already under confirmation (awaiting,
      disputed, or confirmed and now corrected): awaiting confirmation again;
    - otherwise it counts at once.

    ``entered_seat`` becomes ``by_seat``: the seat that may not confirm."""
    league = table.round.event.league
    under_confirmation = by_seat is not None or table.confirmation != Confirmation.NONE
    if (
        table.complete
        and league.results_confirmation == ResultsConfirmation.PLAYER
        and under_confirmation
    ):
        table.confirmation = Confirmation.AWAITING
        table.confirmation_at = timezone.now()
    else:
        table.confirmation = Confirmation.NONE
        table.confirmation_at = None
    table.confirmation_seat = None
    table.confirmation_note = ""
    table.entered_seat = by_seat


def results_changed_owe_jobs(*, table: Table, player_ids: Sequence[int]) -> None:
    """A complete game changed (or stopped being complete): owe the jobs that
    derive from it, in the caller's transaction. What it owes: the ratings of
    the table's rating scopes from this game on (``RatingsOwed`` rows,
    :func:`league.ratings.ratings_mark_changed`); the lines of its players
    (``player_ids``) in the event's and the league's standings
    (``StandingsOwed`` rows); and the league's standings job and each scope's
    ratings job (``JobOwed`` rows), sent when the current transaction commits
    (:func:`~league.outbox.standings_owe`, :func:`~league.outbox.jobs_owe`).
    Rows inserted, and the jobs' rows upserted: no lock a running job holds."""
    scopes = ratings.ratings_mark_changed(table=table)
    standings_owe(
        league_id=table.round.event.league_id,
        event_id=table.round.event_id,
        player_ids=player_ids,
        more_jobs=[(JobOwed.Kind.RATINGS, scope.pk) for scope in scopes],
    )
