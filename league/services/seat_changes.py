"""A player taken off a published table before its game starts.

A player who leaves, or does not come, after their round's tables are
published is taken off their table while no hand is entered there
(:func:`table_player_remove`). What becomes of the table, in this order:

- **replaced**: a present player who is not seated in the round (sitting it
  out, checked in after it was drawn, or not drawn) takes the seat, when the
  organiser names one (``replacement``); the preview proposes the first of
  them (those sitting out first, then the others, each by name);
- **smaller**: with nobody named, the table plays without them when its
  game allows that many players (Bluke 3 to 6, as the league's options
  allow; Buck Euchre exactly 4, so never);
- **round re-seated**: otherwise the round's tables without a hand, and its
  sit-outs, are drawn again by the seating generator with the round's method
  (tables with a hand are untouched); a table no longer needed is removed;
  with too few players for any table, a :class:`~league.errors.Conflict`
  (``code`` ``no_seating``), and nothing changes.

The first dealer stays the first dealer; when it is the player taken off,
the next seat deals first (a round re-seated: as the generator deals).

The player taken off **leaves** (``leaves``, the default): their last round
becomes the one before, or, if they had played no round before this one,
they are taken off the night's list (they did not come), so the next rounds
are drawn without them. Or they **stay**: they sit this round out and play
in the next round drawn. A player who leaves and is seated in a later round
already (rounds drawn together) is refused until taken off there first.

The same call is a preview (``commit`` false: nothing is stored, and no lock
is taken) or the change. Committing locks the event row first, then the
round's tables without a hand (by id), as :func:`~league.services.fixtures.round_reseat`
does; it writes one ``table.player_removed`` entry (the round's seats before
and after), a ``table.reseated`` for each table whose seats change (their
version moves), an ``attendance.changed`` for each player whose stretch
changes; it owes the standings of each player whose sit-outs change and the
``round.seated`` webhook of each round whose seating changes.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.db import transaction
from django.utils.translation import gettext, ngettext

from league import audit, seating
from league.errors import Conflict, ServiceError
from league.models import Attendance, Event, Game, League, Player, Round, Seating, SitOut, Table
from league.outbox import standings_owe
from league.selectors import draws as draws_selectors
from league.services.attendance import attendance_start_from, attendance_stop_before
from league.services.fixtures import game_rules, round_reseat, table_create
from league.services.seating import MAX_SEED

# a round drawn again is drawn as a draw is: the league's table policy, the
# ranking of swiss and rating (the draw's own helpers, so the two never differ)
from league.services.seating import _policy as table_policy
from league.services.seating import _ranking as seating_ranking
from league.users import Actor
from league.webhook_events import webhooks_rounds_seated


class Outcome(StrEnum):
    """What becomes of the table."""

    REPLACED = "replaced"
    """Someone not seated in the round takes the seat."""
    SMALLER = "smaller"
    """The table plays without the player, one smaller."""
    ROUND_RESEATED = "round_reseated"
    """The round's tables without a hand, and its sit-outs, are drawn again."""


class Departure(StrEnum):
    """What the night's attendance says of the player taken off."""

    LEFT = "left"
    """Their last round is the one before."""
    NOT_COME = "not_come"
    """Off the night's list: they had played no round before."""
    STAYS = "stays"
    """They sit this round out and play the next one drawn."""
    NOT_LISTED = "not_listed"
    """They were not on the night's list (a table made by hand): nothing to change."""


class Waiting(StrEnum):
    """Why a present player may take the seat: they are not seated in the round."""

    SITTING_OUT = "sitting_out"
    NOT_SEATED = "not_seated"
    """Present for the round, neither seated nor sitting out (tables made by hand)."""
    ARRIVED_LATE = "arrived_late"
    """Checked in after the round was drawn: they would play from the next."""


@dataclass(frozen=True)
class Candidate:
    """A present player who may take the seat, and why they are free."""

    player: Player
    where: Waiting


@dataclass(frozen=True)
class PlannedTable:
    """A table of the round as it would be (or is, once committed)."""

    number: int
    table: Table | None
    """The stored table; ``None`` for one a preview would add."""
    players: tuple[Player, ...]
    first_dealer: int
    changed: bool
    """Its seats or first dealer change."""


@dataclass(frozen=True)
class Removal:
    """A player taken off a table: what happens to the round and to them."""

    table: Table
    """The table they leave, as it was."""
    player: Player
    replacement: Player | None
    outcome: Outcome
    departure: Departure
    candidates: tuple[Candidate, ...]
    """Who could take the seat, the proposed one first."""
    seed: int | None
    """The generator's seed of a round re-seated (``None`` otherwise): the
    same seed commits the tables the preview showed."""
    before: tuple[PlannedTable, ...]
    """The round's tables as they were, by number."""
    tables: tuple[PlannedTable, ...]
    """The round's tables after, by number (tables with a hand unchanged)."""
    dropped: tuple[Table, ...]
    """Tables a round re-seated no longer needs (removed on commit)."""
    sit_out: tuple[Player, ...]
    """The round's sit-outs after, by name."""
    committed: bool

    @property
    def round(self) -> Round:
        return self.table.round

    @property
    def proposed(self) -> Player | None:
        """The player the preview proposes for the seat (``None``: nobody is free)."""
        return self.candidates[0].player if self.candidates else None

    @property
    def seated_at(self) -> PlannedTable | None:
        """The player's table after (``None`` when a round re-seat removed it)."""
        return next(
            (t for t in self.tables if t.table is not None and t.table.pk == self.table.pk), None
        )


def table_player_remove(
    *,
    table: Table,
    player: Player,
    replacement: Player | None = None,
    leaves: bool = True,
    seed: int | None = None,
    commit: bool = False,
    by: Actor = None,
) -> Removal:
    """Take ``player`` off ``table`` before its first hand: a preview
    (nothing stored), or with ``commit`` the change (see the module).

    ``replacement`` takes the seat (a present player of the club not seated
    in the round); ``leaves`` false keeps the player for the next rounds
    (they sit this one out); ``seed`` draws a round re-seat as a preview did
    (``None``: a new one). ``by`` is who changes the night's attendance.

    Refusals, nothing stored: a player of another club (400, ``player`` or
    ``replacement``), a player not at the table (400, ``player``), the
    player as their own replacement (400, ``replacement``); a table with a
    hand entered (409, ``table``, ``code`` ``table_started``); a replacement
    seated in the round or not present (409, ``replacement``); a leaver
    seated in a later round (409, ``leaves``, ``code`` ``seated_later``); no
    seating the game allows (409, ``replacement``, ``code`` ``no_seating``).
    """
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ServiceError(
            gettext("seed must be 0 to %(max_seed)s") % {"max_seed": MAX_SEED}, field="seed"
        )
    if not commit:
        state = _read(table, locked=False)
        return _plan(state, player, replacement, leaves=leaves, seed=seed)
    return _commit(table, player, replacement, leaves=leaves, seed=seed, by=by)


@dataclass(frozen=True)
class RemovalOptions:
    """Every way to take a player off a table, each previewed (nothing is
    stored): for an organiser's page to offer them side by side."""

    table: Table
    player: Player
    candidates: tuple[Candidate, ...]
    """Who could take the seat, the proposed one first."""
    replaced: dict[int, Removal]
    """Each candidate taking the seat, by player id."""
    nobody: Removal | None
    """Nobody taking the seat: the table smaller or the round drawn again;
    ``None`` when no seating the game allows is left (``nobody_refused``)."""
    nobody_refused: Conflict | None
    leaving: Departure
    """What leaving does to the player's night."""
    leaving_refused: Conflict | None
    """Why they cannot leave (seated in a later round), if so."""

    @property
    def round(self) -> Round:
        return self.table.round


def table_player_remove_options(
    *, table: Table, player: Player, seed: int | None = None
) -> RemovalOptions:
    """The previews of :func:`table_player_remove` for every replacement
    and for nobody, with the player staying (the tables are the same either
    way) and what leaving would do; read once, nothing stored. The
    refusals that concern the player or the table are raised as there."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ServiceError(
            gettext("seed must be 0 to %(max_seed)s") % {"max_seed": MAX_SEED}, field="seed"
        )
    state = _read(table, locked=False)
    nobody: Removal | None = None
    nobody_refused: Conflict | None = None
    try:
        nobody = _plan(state, player, None, leaves=False, seed=seed)
    except Conflict as refusal:
        if refusal.code != "no_seating":
            raise
        nobody_refused = refusal
    candidates = _candidates(state, player)
    leaving_refused: Conflict | None = None
    try:
        _check_leaving(state, player)
    except Conflict as refusal:
        leaving_refused = refusal
    return RemovalOptions(
        table=state.table,
        player=player,
        candidates=candidates,
        replaced={
            c.player.pk: _plan(state, player, c.player, leaves=False, seed=None) for c in candidates
        },
        nobody=nobody,
        nobody_refused=nobody_refused,
        leaving=_departure(state, player, leaves=True),
        leaving_refused=leaving_refused,
    )


@transaction.atomic
def _commit(
    table: Table,
    player: Player,
    replacement: Player | None,
    *,
    leaves: bool,
    seed: int | None,
    by: Actor,
) -> Removal:
    state = _read(table, locked=True)
    plan = _plan(state, player, replacement, leaves=leaves, seed=seed)
    before_ids = {each.pk for each in state.tables}
    before = audit.rounds_record([state.round.pk])[state.round.pk]
    sit_out_changed = _store_seats(state, plan)
    departure = _store_departure(state, plan, by=by)
    later = _clear_later_sit_outs(state, plan)
    players = sit_out_changed | ({player.pk} if later else set())
    if players:
        standings_owe(league_id=state.league.pk, event_id=state.event.pk, player_ids=players)
    rounds = [state.round, *later]
    webhooks_rounds_seated(event=state.event, rounds=rounds)
    after = audit.rounds_record([state.round.pk])[state.round.pk]
    audit.table_entry_write(
        plan.table,
        action=audit.Action.TABLE_PLAYER_REMOVED,
        before={
            "player": player.pk,
            "player_name": player.name,
            "table": plan.table.number,
            **(before or {}),
        },
        after={
            "outcome": plan.outcome.value,
            "replacement": None
            if plan.replacement is None
            else {"player": plan.replacement.pk, "player_name": plan.replacement.name},
            "departure": departure.value,
            "seed": plan.seed,
            **(after or {"tables": [], "sit_out": []}),
        },
    )
    tables, seats, sit_out = _round_seats(state.round)
    changed = {t.table.pk for t in plan.tables if t.changed and t.table is not None}
    return Removal(
        table=plan.table,
        player=player,
        replacement=plan.replacement,
        outcome=plan.outcome,
        departure=departure,
        candidates=plan.candidates,
        seed=plan.seed,
        before=plan.before,
        tables=tuple(
            _as_planned(seats, t, changed=t.pk in changed or t.pk not in before_ids) for t in tables
        ),
        dropped=plan.dropped,
        sit_out=tuple(sit_out),
        committed=True,
    )


# -- the round as it stands ---------------------------------------------------------


@dataclass
class _State:
    """What the change reads of the round (a fixed number of queries)."""

    table: Table
    round: Round
    event: Event
    league: League
    tables: list[Table]
    """Every table of the round, by number."""
    seats: dict[int, list[Player]]
    """Each table's players in seat order, by table id."""
    sit_out: list[Player]
    attendance: dict[int, Attendance]
    """The night's attendance rows, by player id, with their players."""
    last_drawn: int
    """The last round of the event with tables."""
    seated_later: dict[int, list[int]]
    """The rounds after this one each player is seated in, by player id."""
    sat_out_later: dict[int, list[Round]]
    """The rounds after this one each player sits out, by player id."""


def _read(table: Table, *, locked: bool) -> _State:
    """The round of ``table`` as stored. ``locked``: the event row first,
    then the round's tables without a hand (by id), held to the end of the
    transaction. Eight queries (two more locked)."""
    found = Table.objects.select_related("round__event__league").filter(pk=table.pk).first()
    if found is None:
        raise Conflict(gettext("the table is no longer there"), field="table")
    round_ = found.round
    event, league = round_.event, round_.event.league
    if locked:
        Event.objects.select_for_update(of=("self",)).get(pk=event.pk)
        list(
            Table.objects.select_for_update(of=("self",))
            .filter(round=round_, hands_played=0)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
    tables, seats, sit_out = _round_seats(round_)
    attendance = {
        row.player_id: row
        for row in Attendance.objects.filter(event=event).select_related("player")
    }
    last_drawn = draws_selectors.event_draw_state(event=event).last_drawn
    seated_later: dict[int, list[int]] = {}
    for player_id, number in (
        Seating.objects.filter(round__event=event, round__number__gt=round_.number)
        .order_by("round__number")
        .values_list("player_id", "round__number")
    ):
        seated_later.setdefault(player_id, []).append(number)
    sat_out_later: dict[int, list[Round]] = {}
    for row in SitOut.objects.filter(
        round__event=event, round__number__gt=round_.number
    ).select_related("round"):
        row.round.event = event
        sat_out_later.setdefault(row.player_id, []).append(row.round)
    this = next((each for each in tables if each.pk == table.pk), None)
    if this is None:  # removed between the two reads
        raise Conflict(gettext("the table is no longer there"), field="table")
    return _State(
        table=this,
        round=round_,
        event=event,
        league=league,
        tables=tables,
        seats=seats,
        sit_out=sit_out,
        attendance=attendance,
        last_drawn=last_drawn,
        seated_later=seated_later,
        sat_out_later=sat_out_later,
    )


def _round_seats(round_: Round) -> tuple[list[Table], dict[int, list[Player]], list[Player]]:
    """The round's tables by number (each given ``round_``), their players in
    seat order by table id, and its sit-outs by name. Three queries."""
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    for each in tables:
        each.round = round_
    seats: dict[int, list[Player]] = {each.pk: [] for each in tables}
    for seating_ in (
        Seating.objects.filter(round=round_).select_related("player").order_by("table_id", "seat")
    ):
        seats[seating_.table_id].append(seating_.player)
    sit_out = [
        row.player
        for row in SitOut.objects.filter(round=round_)
        .select_related("player")
        .order_by("player__name", "player_id")
    ]
    return tables, seats, sit_out


def _as_planned(
    seats: dict[int, list[Player]], table: Table, *, changed: bool = False
) -> PlannedTable:
    return PlannedTable(
        number=table.number,
        table=table,
        players=tuple(seats[table.pk]),
        first_dealer=table.first_dealer,
        changed=changed,
    )


# -- the plan ------------------------------------------------------------------------


def _plan(
    state: _State,
    player: Player,
    replacement: Player | None,
    *,
    leaves: bool,
    seed: int | None,
) -> Removal:
    """The change, checked and planned on what ``state`` read (no query but
    the generator's history and ranking for a round re-seated)."""
    table, league = state.table, state.league
    number = table.number
    _check_player(state, player)
    if table.hands_played:
        raise Conflict(
            gettext("table %(number)s has a hand entered: its seats are fixed")
            % {"number": number},
            field="table",
            code="table_started",
        )
    seats = state.seats[table.pk]
    if player.pk not in {p.pk for p in seats}:
        raise ServiceError(
            gettext("%(name)s is not at table %(number)s")
            % {"name": player.name, "number": number},
            field="player",
        )
    if leaves:
        _check_leaving(state, player)
    candidates = _candidates(state, player)
    if replacement is not None:
        _check_replacement(state, player, replacement, candidates)
    before = tuple(_as_planned(state.seats, each) for each in state.tables)
    sit_out = [p for p in state.sit_out if p.pk != player.pk]
    dropped: tuple[Table, ...] = ()
    drawn_seed: int | None = None
    at = [p.pk for p in seats].index(player.pk)
    if replacement is not None:
        outcome = Outcome.REPLACED
        changed = {table.pk: ([*seats[:at], replacement, *seats[at + 1 :]], table.first_dealer)}
        sit_out = [p for p in sit_out if p.pk != replacement.pk]
        planned = _with_changes(state, changed)
    elif _size_allowed(league, len(seats) - 1):
        outcome = Outcome.SMALLER
        rest = [*seats[:at], *seats[at + 1 :]]
        changed = {table.pk: (rest, _first_dealer_without(table.first_dealer, at, len(rest)))}
        planned = _with_changes(state, changed)
    else:
        outcome = Outcome.ROUND_RESEATED
        drawn_seed = _fresh_seed(seed)
        planned, dropped, sit_out = _reseat_round(state, player, drawn_seed)
    if not leaves:
        sit_out = [*sit_out, player]
    return Removal(
        table=table,
        player=player,
        replacement=replacement,
        outcome=outcome,
        departure=_departure(state, player, leaves=leaves),
        candidates=candidates,
        seed=drawn_seed,
        before=before,
        tables=planned,
        dropped=dropped,
        sit_out=tuple(sorted(sit_out, key=lambda p: (p.name, p.pk))),
        committed=False,
    )


def _check_leaving(state: _State, player: Player) -> None:
    """A player who leaves is seated in no later round (drawn already)."""
    later = state.seated_later.get(player.pk, [])
    if later:
        raise Conflict(
            gettext(
                "%(name)s is seated in round %(later)s too: take them off there first, or let them"
                " stay for the next rounds"
            )
            % {"name": player.name, "later": later[0]},
            field="leaves",
            code="seated_later",
        )


def _check_player(state: _State, player: Player) -> None:
    if player.club_id != state.league.club_id:
        raise ServiceError(
            gettext("%(name)s is not a player of the league's club") % {"name": player.name},
            field="player",
        )


def _check_replacement(
    state: _State, player: Player, replacement: Player, candidates: Sequence[Candidate]
) -> None:
    """The replacement is of the club, not the player, not seated in the round, and present."""
    if replacement.club_id != state.league.club_id:
        raise ServiceError(
            gettext("%(name)s is not a player of the league's club") % {"name": replacement.name},
            field="replacement",
        )
    if replacement.pk == player.pk:
        raise ServiceError(
            gettext("%(name)s cannot take their own seat; name someone else, or nobody")
            % {"name": player.name},
            field="replacement",
        )
    seated = next(
        (t for t in state.tables if replacement.pk in {p.pk for p in state.seats[t.pk]}), None
    )
    if seated is not None:
        raise Conflict(
            gettext("%(name)s is already at table %(number)s in this round")
            % {"name": replacement.name, "number": seated.number},
            field="replacement",
        )
    if replacement.pk not in {c.player.pk for c in candidates}:
        raise Conflict(
            gettext("%(name)s is not present for round %(number)s: check them in first")
            % {"name": replacement.name, "number": state.round.number},
            field="replacement",
        )


def _candidates(state: _State, player: Player) -> tuple[Candidate, ...]:
    """Present players not seated in the round, who may take the seat:
    those sitting it out, then those present for it but not drawn, then
    those who checked in after it was drawn (while it is the night's last
    round with tables: they play from the next), each by name."""
    number = state.round.number
    seated = {p.pk for players in state.seats.values() for p in players}
    out = {p.pk for p in state.sit_out}
    found = [Candidate(p, Waiting.SITTING_OUT) for p in state.sit_out if p.pk != player.pk]
    rows = sorted(state.attendance.values(), key=lambda row: (row.player.name, row.player_id))
    for row in rows:
        if row.player_id in seated or row.player_id in out or row.player_id == player.pk:
            continue
        if row.present and row.from_round <= number:
            found.append(Candidate(row.player, Waiting.NOT_SEATED))
    for row in rows:
        if row.player_id in seated or row.player_id in out or row.player_id == player.pk:
            continue
        if row.present and row.from_round > number and state.last_drawn == number:
            found.append(Candidate(row.player, Waiting.ARRIVED_LATE))
    return tuple(found)


def _size_allowed(league: League, players: int) -> bool:
    """Whether a table of ``players`` is one the league's game allows:
    Buck Euchre's four; Bluke's 3 to 6 that the league's options allow."""
    if league.game == Game.BUCK_EUCHRE:
        return players == 4
    if not seating.MIN_TABLE_SIZE <= players <= seating.MAX_TABLE_SIZE:
        return False
    try:
        game_rules(game=league.game, players=players, options=league.options)
    except ServiceError:
        return False
    return True


def _first_dealer_without(first_dealer: int, at: int, players: int) -> int:
    """The first dealer's seat once seat ``at`` is gone from a table now of
    ``players``: the same player, or when they are the one gone, the next seat.

    >>> [_first_dealer_without(dealer, at, 3) for dealer, at in [(2, 0), (2, 2), (3, 3)]]
    [1, 2, 0]
    """
    if at < first_dealer:
        return first_dealer - 1
    if at == first_dealer:
        return at % players
    return first_dealer


def _with_changes(
    state: _State, changed: dict[int, tuple[list[Player], int]]
) -> tuple[PlannedTable, ...]:
    """The round's tables with ``changed`` (table id → players, first dealer)."""
    planned = []
    for each in state.tables:
        if each.pk in changed:
            players, first_dealer = changed[each.pk]
            planned.append(
                PlannedTable(
                    number=each.number,
                    table=each,
                    players=tuple(players),
                    first_dealer=first_dealer,
                    changed=True,
                )
            )
        else:
            planned.append(_as_planned(state.seats, each))
    return tuple(planned)


def _fresh_seed(seed: int | None) -> int:
    return secrets.randbelow(MAX_SEED) if seed is None else seed


def _reseat_round(
    state: _State, player: Player, seed: int
) -> tuple[tuple[PlannedTable, ...], tuple[Table, ...], list[Player]]:
    """The round's tables without a hand, and its sit-outs, drawn again
    without ``player`` by the generator (the round's method, its history),
    each drawn table given the number of the old table it keeps most of
    (tables to spare are dropped; new ones, if ever, numbered after the
    round's last). The tables, the dropped ones, the sit-outs."""
    round_, league = state.round, state.league
    open_tables = [each for each in state.tables if not each.hands_played]
    pool = {p.pk: p for each in open_tables for p in state.seats[each.pk] if p.pk != player.pk}
    pool.update({p.pk: p for p in state.sit_out if p.pk != player.pk})
    ordered = sorted(pool, key=lambda pk: (pool[pk].name, pk))
    method = seating.Method(round_.seating_method or seating.Method.BALANCED)
    policy = table_policy(league)
    try:
        drawn = seating.plan_round(
            ordered,
            policy,
            history=draws_selectors.seating_history(round=round_),
            method=method,
            seed=seed,
            ranking=seating_ranking(round_, method, pool),
        )
    except seating.SeatingError as error:
        if error.code != "too_few_players":
            raise ServiceError(str(error), field="replacement") from None
        raise _no_seating(state, player, len(ordered), policy) from None
    for size in {len(drawn_table.players) for drawn_table in drawn.tables}:
        # the league's options hold at every size drawn
        game_rules(game=league.game, players=size, options=league.options)
    free = list(open_tables)
    numbered: dict[int, PlannedTable] = {}
    extra = max((each.number for each in state.tables), default=0)
    for drawn_table in drawn.tables:
        players = tuple(pool[pk] for pk in drawn_table.players)
        keeps = max(
            free,
            key=lambda t: (
                len({p.pk for p in state.seats[t.pk]} & set(drawn_table.players)),
                -t.number,
            ),
            default=None,
        )
        if keeps is None:
            extra += 1
            numbered[extra] = PlannedTable(
                extra, None, players, drawn_table.first_dealer, changed=True
            )
            continue
        free.remove(keeps)
        same = [p.pk for p in players] == [p.pk for p in state.seats[keeps.pk]]
        numbered[keeps.number] = PlannedTable(
            number=keeps.number,
            table=keeps,
            players=players,
            first_dealer=drawn_table.first_dealer,
            changed=not (same and drawn_table.first_dealer == keeps.first_dealer),
        )
    for each in state.tables:
        if each.hands_played:
            numbered[each.number] = _as_planned(state.seats, each)
    tables = tuple(numbered[n] for n in sorted(numbered))
    return tables, tuple(free), [pool[pk] for pk in drawn.sit_out]


def _no_seating(state: _State, player: Player, left: int, policy: seating.TablePolicy) -> Conflict:
    """The refusal when no seating the game allows is left."""
    number, seats = state.table.number, len(state.seats[state.table.pk]) - 1
    sizes = (
        gettext("a Buck Euchre table seats four")
        if state.league.game == Game.BUCK_EUCHRE
        else gettext("a Bluke table seats %(least)s to %(most)s")
        % {"least": seating.MIN_TABLE_SIZE, "most": seating.MAX_TABLE_SIZE}
    )
    return Conflict(
        # Translators: %(sizes)s is "a Bluke table seats 3 to 6" or "a Buck Euchre table seats four"
        ngettext(
            "%(name)s cannot be taken off table %(number)s: it would have %(seats)s "
            "player and %(sizes)s; nobody present is free to take the seat, and the "
            "round's tables without a hand have %(left)s players left, too few to seat again (a "
            "table needs %(min_players)s). Check a player in to take the seat",
            "%(name)s cannot be taken off table %(number)s: it would have %(seats)s "
            "players and %(sizes)s; nobody present is free to take the seat, and the "
            "round's tables without a hand have %(left)s players left, too few to seat again (a "
            "table needs %(min_players)s). Check a player in to take the seat",
            seats,
        )
        % {
            "name": player.name,
            "number": number,
            "seats": seats,
            "sizes": sizes,
            "left": left,
            "min_players": policy.min_players,
        },
        field="replacement",
        code="no_seating",
    )


def _departure(state: _State, player: Player, *, leaves: bool) -> Departure:
    """What the night's attendance will say of the player taken off."""
    if not leaves:
        return Departure.STAYS
    row = state.attendance.get(player.pk)
    if row is None:
        return Departure.NOT_LISTED
    if row.from_round >= state.round.number and (
        row.until_round is None or row.until_round >= state.round.number
    ):
        return Departure.NOT_COME
    return Departure.LEFT


# -- storing it ------------------------------------------------------------------------


def _store_seats(state: _State, plan: Removal) -> set[int]:
    """The planned tables and sit-outs stored: tables to spare removed first
    (their players are seated elsewhere), changed tables reseated (each a
    ``table.reseated`` entry, its version moved), new ones made. The players
    whose sit-outs changed."""
    round_ = state.round
    if plan.dropped:
        Table.objects.filter(pk__in=[each.pk for each in plan.dropped]).delete()
    changed = [t for t in plan.tables if t.changed and t.table is not None]
    if changed:
        round_reseat(
            round=round_,
            seats={t.table.pk: list(t.players) for t in changed if t.table is not None},
            first_dealers={t.table.pk: t.first_dealer for t in changed if t.table is not None},
        )
    for new in (t for t in plan.tables if t.table is None):
        table_create(
            round=round_,
            number=new.number,
            players=list(new.players),
            first_dealer=new.first_dealer,
        )
    was = {p.pk for p in state.sit_out}
    now = {p.pk for p in plan.sit_out}
    SitOut.objects.filter(round=round_, player_id__in=was - now).delete()
    SitOut.objects.bulk_create(
        SitOut(round=round_, player=p) for p in plan.sit_out if p.pk not in was
    )
    return was ^ now


def _store_departure(state: _State, plan: Removal, *, by: Actor) -> Departure:
    """The night's attendance of the player taken off (and of a late
    arrival taking the seat), each change an ``attendance.changed`` entry."""
    number = state.round.number
    if plan.replacement is not None:
        row = state.attendance.get(plan.replacement.pk)
        if row is not None and row.from_round > number:
            attendance_start_from(
                event=state.event, player=plan.replacement, round_number=number, by=by
            )
    if plan.departure in (Departure.LEFT, Departure.NOT_COME):
        attendance_stop_before(event=state.event, player=plan.player, round_number=number, by=by)
    return plan.departure


def _clear_later_sit_outs(state: _State, plan: Removal) -> list[Round]:
    """A player who leaves sits out no later round: those rounds' sit-outs
    of theirs are removed. The rounds whose sit-outs changed."""
    if plan.departure not in (Departure.LEFT, Departure.NOT_COME):
        return []
    rounds = state.sat_out_later.get(plan.player.pk, [])
    if rounds:
        SitOut.objects.filter(round__in=rounds, player=plan.player).delete()
    return rounds
