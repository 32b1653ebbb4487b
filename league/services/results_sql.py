"""The statements of a change of results written by hand, beside the ORM code
of :mod:`league.services.results` that they mirror, and the tests that hold each
to its mirror.

- **Hands appended in one statement** (PostgreSQL: :func:`store_appended`): the
  hands, their seat lines, the table's new totals and counters
  (:data:`TABLE_RESULTS`) and the audit entry, written by one statement of
  data-modifying CTEs, only if the table's version is still the one read. It
  mirrors the ORM's way of :func:`~league.services.results.store_results`
  (``Hand.objects.bulk_create``, ``HandSeat.objects.bulk_create``,
  ``table.save(update_fields=TABLE_RESULTS)``, ``entry.save()``), which SQLite
  and every change but an append take; :func:`appends_in_one_statement` says
  which way runs. ``tests/league/test_results_sql.py`` stores the same games
  both ways and compares every row.
- **The places statement** (:func:`store_places`, PostgreSQL and SQLite): a
  complete game's final totals and places, and the counts of each seat's hand
  lines that the standings add up, in one UPDATE of the seatings; clearing them
  is the ORM's ``update``. No ORM code of the service counts the hand lines:
  ``tests/league/test_seating_counts.py`` counts them line by line from the
  stored rows and compares, and migration 0009 counted the games stored before
  it by the same statement over every table.

The values written are Django's own (:mod:`league.statements`); the texts hold
no input, only table and column names, types and placeholders.
"""

from __future__ import annotations

import functools
from typing import Any, Final, TypeAlias

from django.db import connection
from django.db.models import Field

import games
from league.models import (
    SEATING_COUNTS,
    SEATING_FIGURES,
    AuditEntry,
    Game,
    Hand,
    HandSeat,
    Seating,
    Table,
)
from league.statements import (
    column_list,
    column_values,
    fields_named,
    insert_fields,
    mark_saved,
    row_values,
    typed_row,
    unnest_columns,
)

TABLE_RESULTS: Final = (
    "complete",
    "hands_played",
    "totals",
    "version",
    "confirmation",
    "entered_seat",
    "confirmation_seat",
    "confirmation_at",
    "confirmation_note",
)
"""The table's fields a change of results updates."""


def appends_in_one_statement() -> bool:
    """Whether hands appended are stored in one statement (:func:`store_appended`):
    on PostgreSQL, which has data-modifying CTEs; SQLite has none."""
    return connection.vendor == "postgresql"


def store_appended(
    *,
    table: Table,
    hands: list[Hand],
    seat_lines: list[list[HandSeat]],
    entry: AuditEntry | None,
) -> bool:
    """Store the hands appended, their lines (``seat_lines``: each hand's, in seat
    order), the table's new totals and counters, and the audit entry (if any), in
    one statement, if the table's version is still the one the change was applied
    to, one less than the change's
    (:func:`~league.services.results._results_applied`; its UPDATE finds the row by
    id and that version; the other rows are written only from the row it updated).
    Whether it stored them; the rows' ids are set on the objects, as the ORM's
    writes would set them.

    The ORM's path in :func:`~league.services.results.store_results` writes the same rows in four
    statements, each built afresh by Django's query compiler, which was most
    of a hand submission's time; here the values are still prepared by
    Django's fields (:mod:`league.statements`), and the text, one for each
    number of hands appended (a submission's is one), is prepared by
    PostgreSQL once per connection. The unique hand number refuses a hand
    stored twice here as there (an IntegrityError)."""
    hand_fields, line_fields, table_fields, entry_fields = _append_fields()
    lines = [line for hand_lines in seat_lines for line in hand_lines]
    numbers = [
        hand.number for hand, hand_lines in zip(hands, seat_lines, strict=True) for _ in hand_lines
    ]
    params = [
        *row_values(table, table_fields, add=False),
        table.pk,
        table.version - 1,  # the version read: _results_applied moved it by one
        *(value for hand in hands for value in row_values(hand, hand_fields, add=True)),
        numbers,
        *column_values(lines, line_fields, add=True),
    ]
    if entry is not None:
        params += row_values(entry, entry_fields, add=True)
    with connection.cursor() as cursor:
        cursor.execute(_append_sql(hands=len(hands), with_entry=entry is not None), params)
        stored = cursor.fetchall()
    if not stored:
        return False
    by_number = {hand.number: hand for hand in hands}
    for hand_number, seat, pk in stored:
        if hand_number is None:
            assert entry is not None
            mark_saved(entry, pk)
        elif seat is None:
            mark_saved(by_number[hand_number], pk)
    for hand_number, seat, pk in stored:  # once every hand has its id
        if hand_number is not None and seat is not None:
            line = seat_lines[hand_number - hands[0].number][seat]
            line.hand = by_number[hand_number]
            mark_saved(line, pk)
    return True


_Fields: TypeAlias = "list[Field[Any, Any]]"


@functools.cache
def _append_fields() -> tuple[_Fields, _Fields, _Fields, _Fields]:
    """What :func:`store_appended` writes: a hand's fields, a line's (but its
    hand), the table's results (:data:`TABLE_RESULTS`) and an audit entry's."""
    return (
        insert_fields(Hand),
        insert_fields(HandSeat, exclude=("hand",)),
        fields_named(Table, *TABLE_RESULTS),
        insert_fields(AuditEntry),
    )


@functools.lru_cache(maxsize=64)
def _append_sql(*, hands: int, with_entry: bool) -> str:
    """The text of :func:`store_appended`'s statement for ``hands`` hands (made
    once). Its parameters: the table's new values, its id and the version
    expected; the hands' values row by row; the lines' as one array a column
    (their hand's number first, so that the text does not grow with the
    table's size); the entry's. It answers each hand's number and id, each
    line's hand number, seat and id, and the entry's id (its number and seat
    null): no row when the version was not the one expected.

    JSON goes in rows, not arrays: psycopg quotes each JSON text of an array
    with a regular expression, which costs more than the parameters it saves.
    Rows joined to another CTE's, not inserted straight, carry their columns'
    types (:func:`~league.statements.typed_row`)."""
    hand_fields, line_fields, table_fields, entry_fields = _append_fields()
    [number] = fields_named(Hand, "number")
    [hand_link] = fields_named(HandSeat, "hand")
    [version] = fields_named(Table, "version")
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in table_fields)
    sql = f"""
        WITH changed_table AS (
            UPDATE {quote(Table._meta.db_table)} SET {assignments}
            WHERE id = %s AND {quote(version.column)} = %s
            RETURNING id
        ), new_hand AS (
            INSERT INTO {quote(Hand._meta.db_table)} ({column_list(hand_fields)})
            SELECT hand.* FROM changed_table,
                (VALUES {", ".join([typed_row(hand_fields)] * hands)}) AS hand
            RETURNING id, {quote(number.column)} AS number
        ), new_line AS (
            INSERT INTO {quote(HandSeat._meta.db_table)}
                ({quote(hand_link.column)}, {column_list(line_fields)})
            SELECT new_hand.id, {column_list(line_fields, prefix="line.")}
            FROM new_hand JOIN {unnest_columns([number, *line_fields])}
                AS line (hand_number, {column_list(line_fields)})
                ON line.hand_number = new_hand.number
            RETURNING id, {quote(hand_link.column)} AS hand_id, seat
        )"""  # the text holds no input: table and column names, types and placeholders
    answer = """
        SELECT new_hand.number, NULL, new_hand.id FROM new_hand
        UNION ALL
        SELECT new_hand.number, new_line.seat, new_line.id
        FROM new_line JOIN new_hand ON new_hand.id = new_line.hand_id"""
    if with_entry:
        sql += f""", new_entry AS (
            INSERT INTO {quote(AuditEntry._meta.db_table)} ({column_list(entry_fields)})
            SELECT entry.* FROM changed_table, (VALUES {typed_row(entry_fields)}) AS entry
            RETURNING id
        )"""
        answer += " UNION ALL SELECT NULL, NULL, id FROM new_entry"
    return sql + answer


def store_places(table: Table, tally: games.GameTally | None) -> list[int]:
    """The seatings' final totals and places, which standings and ratings
    count, and the counts of each seat's hand lines, which standings add up
    (:data:`~league.models.SEATING_COUNTS`), and the figures a player's page
    reads (:data:`~league.models.SEATING_FIGURES`), all in one statement, from the
    complete game's ``tally``; all cleared for ``None`` (the game no longer
    counts). Returns the players seated."""
    ranks = tally.ranks() if tally is not None else None
    if tally is None or ranks is None:
        cleared = dict.fromkeys(("total", "place", *SEATING_COUNTS, *SEATING_FIGURES))
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
            drops = c.drops, made_trump = c.made_trump, bids_made_hands = c.bids_made_hands
        FROM (VALUES {results}) AS v, (
            SELECT hs.seat, COUNT(*) AS hands,
                SUM(CASE WHEN {made} THEN 1 ELSE 0 END) AS bids_made,
                SUM(CASE WHEN {made} THEN hs.tricks - hs.bid ELSE 0 END) AS overtricks,
                SUM(CASE WHEN {bucked} AND h.maker = hs.seat THEN 1 ELSE 0 END)
                    AS bucked_as_maker,
                SUM(CASE WHEN {bucked} AND (h.maker IS NULL OR h.maker <> hs.seat)
                    THEN 1 ELSE 0 END) AS bucked_as_player,
                SUM(CASE WHEN hs.dropped THEN 1 ELSE 0 END) AS drops,
                SUM(CASE WHEN h.maker = hs.seat THEN 1 ELSE 0 END) AS made_trump,
                SUM(CASE WHEN {made} THEN 1 << h.number ELSE 0 END) AS bids_made_hands
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
