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

Nothing is stored when a step raises: the engine's refusal
(:class:`games.RecordError`, with ``hand`` set to the hand's number),
:class:`~league.errors.Conflict` or :class:`~league.errors.PreconditionFailed`.

Locks: the table's row only (``of=("self",)``), never its round, event or
league, so submissions at other tables of a league go on side by side; then,
when a game completes, the league's rating scopes in the order of their ids
(:func:`league.ratings.ratings_mark_changed`). A change the database refuses
as a deadlock's victim is run again (:func:`league.db.retry_on_conflict`); a
lock it waits for longer than the request's ``lock_timeout`` raises
``OperationalError``, answered 503.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db import connection, transaction

import games
from league import audit, ratings, selectors
from league.db import retry_on_conflict
from league.errors import Conflict, PreconditionFailed, ServiceError
from league.models import (
    SEATING_COUNTS,
    Game,
    Hand,
    HandSeat,
    JobOwed,
    Seating,
    Table,
)
from league.services.fixtures import game_rules
from league.services.jobs import standings_owe
from league.services.webhooks import webhooks_table_changed


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


@retry_on_conflict
@transaction.atomic
def hand_submit(
    *, table: Table, record: dict[str, Any], number: int | None = None
) -> ResultsChange:
    """Store the next hand of the table's game.

    A client that says which hand it submits (``number``) is told 409 when
    that hand is already stored, so a submission sent twice counts once.
    """
    return _results_change(
        table=table,
        mode=ResultsMode.APPEND,
        number=number,
        records=[record],
        action=audit.Action.HAND_SUBMITTED,
    )


@retry_on_conflict
@transaction.atomic
def hand_correct(
    *, table: Table, number: int, record: dict[str, Any], version: int | None
) -> Table:
    """Replace hand ``number`` and replay every later hand after it (the
    later hands as stored once the table is locked)."""
    return _results_change(
        table=table,
        mode=ResultsMode.REPLACE,
        number=number,
        records=[record],
        version=version,
        action=audit.Action.HAND_CORRECTED,
    ).table


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
def game_submit(*, table: Table, record: Any) -> Table:
    """Store a whole game record at a table with no hands yet: all or nothing.

    The record's ``game``, ``players``, ``first_dealer`` and ``options`` may be
    left out; if given they must agree with the table.
    """
    if not isinstance(record, dict):
        raise ServiceError("a game record is a JSON object", field="record")
    if table.hands_played:
        raise Conflict("the table already has hands; submit them one by one")
    expected = {
        "game": table.game,
        "players": table.players,
        "first_dealer": table.first_dealer,
    }
    for field, value in expected.items():
        if field in record and record[field] != value:
            raise ServiceError(
                f"{field} is {value!r} at this table, not {record[field]!r}", field=field
            )
    if "options" in record and record["options"] != table.round.event.league.options:
        raise ServiceError("options must be the league's options", field="options")
    unknown = set(record) - {*expected, "options", "hands"}
    if unknown:
        raise ServiceError(f"unknown field {min(unknown)!r}", field=min(unknown))
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise ServiceError("hands must be an array of hand records", field="hands")
    return _results_change(
        table=table,
        mode=ResultsMode.APPEND,
        number=0,
        records=hands,
        action=audit.Action.GAME_SUBMITTED,
    ).table


def _results_change(
    *,
    table: Table,
    mode: ResultsMode,
    number: int | None,
    records: Sequence[Any],
    version: int | None = None,
    action: audit.Action,
) -> ResultsChange:
    """Lock the table, then check, replay and store (see the module's docstring),
    and record the change in the audit trail as ``action``
    (:func:`_audit_results`). A correction (``REPLACE``) replays ``records``
    followed by the hands stored after it, read under the lock: read before
    it, a hand appended meanwhile would be deleted and not replayed.

    Queries: a constant number, whatever the number of hands.
    """
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__event__league")  # the league's options as they are now
        .get(pk=table.pk)
    )
    keep = check_results_change(
        table=table, mode=mode, number=number, version=version, records=records
    )
    if mode is ResultsMode.REPLACE:
        later = Hand.objects.filter(table=table, number__gt=keep).order_by("number")
        records = [*records, *later.values_list("record", flat=True)]
    replay = replay_results(table=table, keep=keep, records=records)
    before = None if mode is ResultsMode.APPEND else audit.stored_hand(table=table, number=keep)
    change = store_results(table=table, keep=keep, replay=replay)
    _audit_results(change, action=action, keep=keep, before=before)
    return change


def _audit_results(
    change: ResultsChange, *, action: audit.Action, keep: int, before: dict[str, Any] | None
) -> None:
    """One entry a change: a hand submitted, corrected or deleted is that
    hand before and after (as the API shows it; the later hands a
    correction replays follow from it); a whole game is its count of hands
    and final totals, which bounds the entry whatever the game's length."""
    table = change.table
    if action is audit.Action.GAME_SUBMITTED:
        after: dict[str, Any] | None = {
            "hands": table.hands_played,
            "totals": list(table.totals),
            "status": table.status.value,
        }
        audit.table_record(table, action=action, before=None, after=after)
        return
    after = None
    if change.hands:  # the hand ``keep``: the one appended or put in place
        after = audit.hand_record(change.hands[0], change.lines[0])
    audit.table_record(table, action=action, hand_number=keep, before=before, after=after)


# -- the steps ---------------------------------------------------------------------


def check_results_change(
    *,
    table: Table,
    mode: ResultsMode,
    number: int | None,
    version: int | None,
    records: Sequence[Any],
) -> int:
    """How many of the stored hands the change keeps, once it is found to
    fit the (locked) table; ``number`` ``None`` appends after the last hand."""
    if version is not None and version != table.version:
        raise PreconditionFailed(
            f"the score sheet you hold is not this table's current one (version "
            f"{table.version}): reload it"
        )
    played = table.hands_played
    if mode is ResultsMode.APPEND:
        keep = played if number is None else number
        if keep < played:
            raise Conflict(f"hand {keep} is already stored; hand {played} is next", field="number")
        if keep > played:
            raise Conflict(
                f"hands arrive in order: hand {played} is next, not {keep}", field="number"
            )
        if table.complete and records:
            raise games.InvalidRecord("game_over", "the game at this table is complete", hand=keep)
        return keep
    assert number is not None, "a correction or deletion names its hand"
    if mode is ResultsMode.REPLACE and number >= played:
        raise Conflict(f"there is no hand {number} to correct", field="number")
    if mode is ResultsMode.DELETE_LAST and number != played - 1:
        raise Conflict(f"only the last hand ({played - 1}) can be deleted", field="number")
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


def store_results(*, table: Table, keep: int, replay: Replay) -> ResultsChange:
    """Replace the (locked) table's hands from ``keep`` on by the replay's,
    and update the table; a complete game, or one that was complete, stores
    its final totals and places and owes the league's standings and ratings."""
    was_complete = table.complete
    if keep < table.hands_played:
        Hand.objects.filter(table=table, number__gte=keep).delete()
    # The table lock serialises changes; should two ever race past it, the
    # unique hand number refuses the second (an IntegrityError, answered 409).
    Hand.objects.bulk_create(replay.hands)
    for hand, lines in zip(replay.hands, replay.lines, strict=True):
        for line in lines:
            line.hand = hand
    HandSeat.objects.bulk_create(line for lines in replay.lines for line in lines)

    tally = replay.tally
    table.complete = tally.complete
    table.hands_played = keep + len(replay.hands)
    table.totals = tally.totals
    table.version += 1
    table.save(update_fields=["complete", "hands_played", "totals", "version"])
    if table.complete or was_complete:
        players = _store_places(table, tally)
        results_changed(table=table, player_ids=players)
        # game.completed or result.corrected, to the club's webhooks
        webhooks_table_changed(table=table, was_complete=was_complete)
    return ResultsChange(
        table=table,
        hands=replay.hands,
        lines=replay.lines,
        next_hand=selectors.next_hand_of(tally),
        places=tally.ranks() if table.complete else None,
    )


def _store_places(table: Table, tally: games.GameTally) -> list[int]:
    """The seatings' final totals and places, which standings and ratings
    count, and the counts of each seat's hand lines, which standings add up
    (:data:`~league.models.SEATING_COUNTS`), all in one statement; all
    cleared when the game is no longer complete. Returns the players seated."""
    ranks = tally.ranks()
    if ranks is None:
        cleared = dict.fromkeys(("total", "place", *SEATING_COUNTS))
        Seating.objects.filter(table=table).update(**cleared)
        return list(table.seat_players)
    # a bucked hand scores above 0 in Buck Euchre; in Bluke that is a bid made
    bucked = "hs.points > 0" if table.game == Game.BUCK_EUCHRE else "1 = 0"
    made = "hs.tricks >= hs.bid"
    seating, line, hand = (model._meta.db_table for model in (Seating, HandSeat, Hand))
    # each seat, total and place: VALUES names them column1, column2, column3 (PostgreSQL
    # and SQLite alike)
    results = ", ".join(
        ["(CAST(%s AS integer), CAST(%s AS integer), CAST(%s AS integer))"] * len(ranks)
    )
    sql = f"""
        UPDATE {seating} SET
            total = v.column2, place = v.column3,
            hands = c.hands, bids_made = c.bids_made, overtricks = c.overtricks,
            bucked_as_maker = c.bucked_as_maker, bucked_as_player = c.bucked_as_player,
            drops = c.drops
        FROM (VALUES {results}) AS v, (
            SELECT hs.seat, COUNT(*) AS hands,
                SUM(CASE WHEN {made} THEN 1 ELSE 0 END) AS bids_made,
                SUM(CASE WHEN {made} THEN hs.tricks - hs.bid ELSE 0 END) AS overtricks,
                SUM(CASE WHEN {bucked} AND h.maker = hs.seat THEN 1 ELSE 0 END)
                    AS bucked_as_maker,
                SUM(CASE WHEN {bucked} AND (h.maker IS NULL OR h.maker <> hs.seat)
                    THEN 1 ELSE 0 END) AS bucked_as_player,
                SUM(CASE WHEN hs.dropped THEN 1 ELSE 0 END) AS drops
            FROM {line} hs JOIN {hand} h ON h.id = hs.hand_id
            WHERE h.table_id = %s
            GROUP BY hs.seat
        ) AS c
        WHERE {seating}.table_id = %s AND {seating}.seat = v.column1 AND c.seat = v.column1
        RETURNING {seating}.player_id
    """  # the text holds no input: table names and fixed words only
    params: list[int] = []
    for seat, place in enumerate(ranks):
        params += [seat, tally.totals[seat], place]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, table.pk, table.pk])
        return [player_id for (player_id,) in cursor.fetchall()]


def results_changed(*, table: Table, player_ids: Sequence[int]) -> None:
    """A complete game changed (or stopped being complete): mark the ratings
    from it on, owe the lines of its players (``player_ids``) in the event's
    and the league's standings, and owe the standings and ratings jobs, sent
    when the current transaction commits (:func:`~league.services.jobs.jobs_owe`).

    Lock order: the scopes (marked first) before the work owed on them."""
    scopes = ratings.ratings_mark_changed(table=table)
    standings_owe(
        league_id=table.round.event.league_id,
        event_id=table.round.event_id,
        player_ids=player_ids,
        more_jobs=[(JobOwed.Kind.RATINGS, scope.pk) for scope in scopes],
    )
