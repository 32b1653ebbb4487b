"""An import's file matched against what the club and the league have: the
players of a players file by name key (:func:`club_name_keys`), and a results
file's tables (read by :mod:`league.import_files`) to the league's players by
name key, its game nights by date and name, their rounds, the tables at the
file's places with their stored hands, and who sits where in each round.

Reads only: a fixed number of queries plus one per :data:`CHUNK` ids. What it
finds is the :class:`ImportPlan` the import (:mod:`league.services.imports`)
follows; what does not fit (``conflict``, ``ambiguous_event``, ``two_tables``)
joins the file's own problems."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from league.import_files.problems import Problem, Words, gettext_noop, ngettext_lazy
from league.import_files.results import (
    EventKey,
    FileTable,
    TableAction,
    TableKey,
    table_in_words,
)
from league.models import Club, Event, Game, Hand, HandSeat, League, Player, Seating, Table
from league.names import name_key

CHUNK: Final = 500
"""Ids (or dates) per ``IN (...)`` query when what the league has is read."""


T = TypeVar("T")


@dataclass
class ImportPlan:
    """What an import stores: found by a check, followed by the import."""

    events: dict[EventKey, int] = field(default_factory=dict)
    """The game nights the league has, by key: their ids."""
    new_events: dict[EventKey, int] = field(default_factory=dict)
    """The game nights to create, by key: how many rounds each."""
    missing_rounds: dict[int, list[int]] = field(default_factory=dict)
    """Round numbers to add to stored game nights, by event id."""
    players: dict[str, int] = field(default_factory=dict)
    """The club's players the file names, by name: their ids."""
    new_players: list[str] = field(default_factory=list)
    tables: list[FileTable] = field(default_factory=list)


def club_name_keys(*, club: Club) -> set[str]:
    """The name keys of ``club``'s players (one query, whatever the file's size)."""
    # the club's names, not those of the file: a club's players fit in memory (its
    # pages list them all), and a file's names could pass PostgreSQL's 65,535
    # parameters a statement; names are the same by their key ("ada" is "Ada")
    return set(Player.objects.filter(club=club).values_list("name_key", flat=True))


def import_plan(*, league: League, tables: list[FileTable], problems: list[Problem]) -> ImportPlan:
    """Match the file's players, game nights and tables to what the league has."""
    plan = ImportPlan(tables=tables)
    # a club's players fit in memory (its pages list them all)
    club = Player.objects.filter(club_id=league.club_id).values_list("name_key", "name", "id")
    spelled = {key: name for key, name, _ in club}
    plan.players = {name: pk for _, name, pk in club}
    for table in tables:
        # a name is the club's player of its key, spelled as the club spells it ("ada"
        # is "Ada"), or a new player spelled as the file first does
        for seat, name in enumerate(table.names):
            if not name:
                continue
            known = name_key(name)
            if known not in spelled:
                spelled[known] = name
                plan.new_players.append(name)
            table.names[seat] = spelled[known]

    first_row: dict[EventKey, int] = {}
    most_rounds: dict[EventKey, int] = defaultdict(int)
    for table in tables:
        first_row.setdefault(table.key.event, table.row)
        most_rounds[table.key.event] = max(most_rounds[table.key.event], table.key.round)
    found: dict[EventKey, set[int]] = defaultdict(set)
    rounds: dict[int, set[int]] = defaultdict(set)
    for dates in chunks(sorted({key.date for key in first_row})):
        for event_id, date, name, number in Event.objects.filter(
            league=league, date__in=dates
        ).values_list("id", "date", "name", "rounds__number"):
            key = EventKey(date, name)
            if key in first_row:
                found[key].add(event_id)
                if number is not None:
                    rounds[event_id].add(number)
    for key, row in first_row.items():
        if len(found[key]) > 1:
            words = Words.counted(
                ngettext_lazy(
                    "the league has %(count)d game night named %(name)s on %(date)s: rename one "
                    "before importing",
                    "the league has %(count)d game nights named %(name)s on %(date)s: rename one "
                    "before importing",
                    len(found[key]),
                ),
                {"count": len(found[key]), "name": key.name, "date": key.date.isoformat()},
            )
            problems.append(Problem.said(row, "ambiguous_event", words))
        elif found[key]:
            (event_id,) = found[key]
            plan.events[key] = event_id
            missing = [n for n in range(1, most_rounds[key] + 1) if n not in rounds[event_id]]
            if missing:
                plan.missing_rounds[event_id] = missing
        else:
            plan.new_events[key] = most_rounds[key]

    _match_tables(league=league, plan=plan, problems=problems)
    _check_rounds(plan=plan, problems=problems)
    return plan


def chunks(ids: Sequence[T]) -> Iterator[Sequence[T]]:
    """``ids`` by :data:`CHUNK`: each ``IN (...)`` list well within PostgreSQL's
    65,535 parameters a statement, whatever the file's size."""
    for start in range(0, len(ids), CHUNK):
        yield ids[start : start + CHUNK]


@dataclass(slots=True)
class _StoredTable:
    """A table the league has, at the place of one of the file's."""

    id: int
    first_dealer: int
    players: list[int]
    hands_played: int
    outcomes: list[tuple[object, ...] | None] = field(default_factory=list)
    records: list[Any] = field(default_factory=list)


def _match_tables(*, league: League, plan: ImportPlan, problems: list[Problem]) -> None:
    """Find the stored table at each file table's place: with the same players and
    hands it is skipped, with the same players and no hands it is filled, else it is
    a conflict."""
    stored: dict[tuple[int, int, int], _StoredTable] = {}
    for ids in chunks(sorted(set(plan.events.values()))):
        for row in Table.objects.filter(round__event_id__in=ids).values_list(
            "id", "round__event_id", "round__number", "number", "first_dealer", "seat_players",
            "hands_played",
        ):  # fmt: skip
            table_id, event_id, round_number, number, first_dealer, seats, hands_played = row
            stored[event_id, round_number, number] = _StoredTable(
                id=table_id, first_dealer=first_dealer, players=seats, hands_played=hands_played
            )
    played: list[tuple[FileTable, _StoredTable]] = []
    for table in plan.tables:
        night = plan.events.get(table.key.event)
        found = None if night is None else stored.get((night, *table.key.place))
        if found is None or table.broken:
            continue
        table.stored = found.id
        if [plan.players.get(name) for name in table.names] != found.players:
            words = Words(
                gettext_noop("the league has %(table)s already, with other players"),
                {"table": table_in_words(table.key)},
            )
            problems.append(Problem.said(table.row, "conflict", words))
            table.action = TableAction.CONFLICT
        elif found.hands_played == 0:
            table.action = TableAction.FILL
        else:
            played.append((table, found))
    _read_stored_hands(league=league, tables=[found for _, found in played])
    for table, found in played:
        if table.results_only:
            same_hands = table.outcomes == found.outcomes
        else:
            same_hands = table.records == found.records
        same = table.first_dealer == found.first_dealer and same_hands
        table.action = TableAction.SKIP if same else TableAction.CONFLICT
        if not same:
            words = Words(
                gettext_noop("the league has %(table)s already, with other hands (%(stored)s)"),
                {
                    "table": table_in_words(table.key),
                    "stored": Words.counted(
                        ngettext_lazy("%(count)d stored", "%(count)d stored", found.hands_played),
                        {"count": found.hands_played},
                    ),
                },
            )
            problems.append(Problem.said(table.row, "conflict", words))


def _read_stored_hands(*, league: League, tables: list[_StoredTable]) -> None:
    """Each stored table's hands, as a CSV file gives them (what the export writes of
    each hand) and as a JSON Lines file does (the records as sent)."""
    buck = league.game == Game.BUCK_EUCHRE
    by_id = {table.id: table for table in tables}
    for ids in chunks(sorted(by_id)):
        seats: dict[int, list[tuple[object, ...]]] = defaultdict(list)
        for hand_id, bid, dropped, tricks, points, total in (
            HandSeat.objects.filter(hand__table_id__in=ids)
            .order_by("hand_id", "seat")
            .values_list("hand_id", "bid", "dropped", "tricks", "points", "total")
        ):
            seats[hand_id].append(
                (None if buck else bid, dropped if buck else None, tricks, points, total)
            )
        for hand_id, table_id, dealer, cards, trump, maker, record in (
            Hand.objects.filter(table_id__in=ids)
            .order_by("table_id", "number")
            .values_list("id", "table_id", "dealer", "cards", "trump", "maker", "record")
        ):
            table = by_id[table_id]
            table.records.append(record)
            table.outcomes.append(
                (dealer, cards, trump, maker if buck else None, tuple(seats[hand_id]))
            )


def _check_rounds(*, plan: ImportPlan, problems: list[Problem]) -> None:
    """A player sits at one table a round: among the file's tables, and against the
    tables the league has in that round (other than the one at the file table's place)."""
    event_ids = sorted(set(plan.events.values()))
    seated: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)
    for ids in chunks(event_ids):
        for event_id, round_number, player_id, table_id in Seating.objects.filter(
            round__event_id__in=ids
        ).values_list("round__event_id", "round__number", "player_id", "table_id"):
            seated[event_id, round_number][player_id] = table_id
    at: dict[tuple[EventKey, int], dict[str, TableKey]] = defaultdict(dict)
    for table in plan.tables:
        if table.broken:
            continue
        here = at[table.key.event, table.key.round]
        night = plan.events.get(table.key.event)
        for seat, name in enumerate(table.names):
            other = here.get(name)
            if other is not None and other != table.key:
                words = Words(
                    gettext_noop("%(name)s is at table %(table)d of this round already"),
                    {"name": name, "table": other.number},
                )
                problems.append(
                    Problem.said(table.row_of(seat), "two_tables", words, seat=seat, player=name)
                )
                continue
            here[name] = table.key
            player = plan.players.get(name)
            if night is None or player is None:
                continue
            elsewhere = seated[night, table.key.round].get(player)
            if elsewhere is not None and elsewhere != table.stored:
                words = Words(
                    gettext_noop(
                        "%(name)s sits at another table of round %(round)d of %(event)s already"
                    ),
                    {"name": name, "round": table.key.round, "event": table.key.event.name},
                )
                problems.append(
                    Problem.said(table.row_of(seat), "two_tables", words, seat=seat, player=name)
                )
