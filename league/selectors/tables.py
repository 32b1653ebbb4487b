"""Reads of a table: its score sheet (three queries, whatever the number of
hands), what result entry reads (the table with its club and the caller's
role in one statement, the seats, a stored hand, the next hand), the history
of its hands corrected, and the score pads of a round."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TypedDict

from django.db.models import Prefetch, QuerySet, prefetch_related_objects

import games
from league.models import AuditEntry, Hand, HandSeat, Membership, Round, Seating, Table
from league.outputs import ConfirmationData, confirmation_data, next_hand_of
from league.selectors import events as events_selectors
from league.statements import JoinedRead
from league.users import SiteUser

SHEET_TABLE: Final = "round__event__league__club"
"""What a score sheet's table is read with."""


def sheet_table(table_id: int) -> Table:
    """A table with its round, event, league and club, in one query (the
    score sheet's header and the entry forms' access check need them all).
    Raises ``Table.DoesNotExist``."""
    return Table.objects.select_related(SHEET_TABLE).get(pk=table_id)


SHEET_TABLE_AND_ROLE: Final = JoinedRead(
    model=Table,
    related=(SHEET_TABLE,),
    extra=(
        (
            "caller_role",
            f"SELECT role FROM {Membership._meta.db_table} m"
            " WHERE m.club_id = round__event__league.club_id AND m.user_id = %s LIMIT 1",
        ),
    ),
    where="base.id = %s",
)
"""A table read as :func:`sheet_table` reads it, with the role in its club of
the user given (``caller_role``, ``None`` for none): the API's and the entry
pages' access check, before every submission, in one statement made once."""


def sheet_table_and_role(table_id: int, user: SiteUser) -> tuple[Table, str | None]:
    """:func:`sheet_table`, and ``user``'s role in the table's club (what
    :func:`league.selectors.clubs.club_role` says) read by the same query.
    Raises ``Table.DoesNotExist``."""
    if not user.is_authenticated:
        return sheet_table(table_id), None
    table = SHEET_TABLE_AND_ROLE.get(user.pk, table_id)
    if table is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    return table, getattr(table, "caller_role")  # noqa: B009 (set by the read)


def table_rules(table: Table) -> games.Rules:
    """The rules the table's game is played by (no query: the league comes with the table)."""
    league = table.round.event.league
    return games.rules_for(league.game, table.players, league.options)


class ScoreSheet(TypedDict):
    """A table's score sheet (:func:`score_sheet`): the table, its hands with their
    lines, the next hand to enter and where its confirmation stands."""

    table: Table
    hands: list[Hand]
    next_hand: dict[str, int] | None
    confirmation: ConfirmationData


def score_sheet(*, table: Table, rules: games.Rules | None = None) -> ScoreSheet:
    """A table's score sheet in three queries, whatever the number of hands.

    ``table`` must come with its round, event and league (``select_related``)
    and without seatings fetched before (they are fetched here, fresh);
    ``rules`` are the table's (:func:`table_rules`), when the caller has them.
    """
    prefetch_related_objects(
        [table],
        Prefetch("seatings", queryset=Seating.objects.select_related("player").order_by("seat")),
    )
    hands = list(Hand.objects.filter(table=table).prefetch_related("seats").order_by("number"))
    next_hand = sheet_next_hand(table=table, rules=rules)
    return {
        "table": table,
        "hands": hands,
        "next_hand": next_hand,
        "confirmation": confirmation_data(table),
    }


def sheet_seatings(*, table: Table) -> list[Seating]:
    """The table's seatings with their players, in seat order (one query)."""
    return list(Seating.objects.filter(table=table).select_related("player").order_by("seat"))


def sheet_next_hand(*, table: Table, rules: games.Rules | None = None) -> dict[str, int] | None:
    """The next hand's number, dealer and cards, from the table row alone (no
    query); ``None`` once the game is complete."""
    if table.complete:
        return None
    tally = games.GameTally(
        rules if rules is not None else table_rules(table),
        first_dealer=table.first_dealer,
        hands_played=table.hands_played,
        totals=table.totals,
    )
    return next_hand_of(tally)


def sheet_hand(*, table: Table, number: int) -> tuple[Hand, list[HandSeat]] | None:
    """A stored hand with its seat lines in seat order, in one query; ``None``
    when the table has no hand ``number``."""
    lines = list(
        HandSeat.objects.filter(hand__table=table, hand__number=number)
        .select_related("hand")
        .order_by("seat")
    )
    if not lines:
        return None
    return lines[0].hand, lines


def hand_changes(*, table: Table, actions: Iterable[str]) -> QuerySet[AuditEntry]:
    """The table's audit entries of ``actions`` (its hands corrected or
    deleted, for the sheet's history), by hand, oldest change first (one query)."""
    entries = AuditEntry.objects.filter(table_id=table.pk, action__in=list(actions))
    return entries.order_by("hand_number", "id")


# -- printable score pads (league.web.pads) -----------------------------------------------


def pads_round(round_id: int) -> Round:
    """A round with its event, league and club, in one query (the page's
    title and the access check need them all). Raises ``Round.DoesNotExist``."""
    return Round.objects.select_related("event__league__club").get(pk=round_id)


def pads_tables(*, round: Round) -> list[Table]:
    """The round's tables by number, each with its seatings in seat order and
    their players: two queries, one when the round has no tables. Each table
    comes with ``round`` (and so its event and league) already set, so the
    table's rules are known without a query."""
    prefetch_related_objects([round], events_selectors.round_tables_prefetch())
    return list(round.tables.all())
