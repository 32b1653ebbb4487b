"""Drawing a round's tables with the seating generator (:mod:`league.seating`).

The generator is pure; this module gathers what it needs from the database
(the players present for the round, who met whom at the league's earlier
rounds, the ranking for ``swiss`` and ``rating``) and, on commit, stores its
answer: the round's tables with their seats and first dealers, who sits
out, and the method and seed, so a draw can be reproduced.

A draw is first a preview (nothing stored); the same call with ``commit``
stores it. A round that already has tables is refused unless the caller
says ``replace``, so that two organisers committing at once do not both
succeed: the second is told the round is drawn (409). Tables at which a hand
is played are never replaced. Committing locks the event row first (as
attendance changes and :func:`~league.services.fixtures.table_create` do),
then creates the tables.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from league import audit, seating
from league.errors import Conflict, ServiceError
from league.models import Event, Game, League, Player, Round, SitOut, Table, TableSpill
from league.outbox import standings_owe
from league.selectors import draws as draws_selectors
from league.services.fixtures import round_reseat, table_create
from league.webhook_events import webhooks_rounds_seated

MAX_SEED = 2**63 - 1
"""Seeds fit a signed 64-bit column."""

_SEATING_ERROR_FIELDS = {
    "too_few_players": "attendance",
    "unranked_player": "method",
    "pin_out_of_range": "pinned",
    "table_overfull": "pinned",
    "unknown_player": "pinned",
    "bad_pair": "keep_apart",
    "bad_table_size": "table_size",
}
"""The request field a refusal of the generator concerns, by its code."""


@dataclass(frozen=True)
class Draw:
    """A round's seating as drawn, with the players it names by id."""

    round: Round
    method: seating.Method
    seed: int | None
    """``None`` for a round whose tables were made by hand."""
    seating: seating.RoundSeating[int]
    players: Mapping[int, Player]
    tables: tuple[Table, ...] = ()
    """The tables stored, once committed (in the order of ``seating.tables``)."""


def round_seating_draw(
    *,
    round: Round,
    method: str = seating.Method.BALANCED,
    seed: int | None = None,
    keep_apart: Sequence[tuple[int, int]] = (),
    pinned: Mapping[int, int] | None = None,
) -> Draw:
    """A preview of the round's seating: nothing is stored.

    ``keep_apart`` pairs and ``pinned`` players (player id → table index,
    largest table first) must be among the players present for the round. A
    ``seed`` of ``None`` draws one; the :class:`Draw` says which.
    """
    schedule = _draw(
        event=round.event,
        rounds=[round],
        method=method,
        seed=seed,
        keep_apart=keep_apart,
        pinned=pinned,
    )
    return schedule.draws[0]


@transaction.atomic
def round_seating_commit(
    *,
    round: Round,
    method: str = seating.Method.BALANCED,
    seed: int | None = None,
    keep_apart: Sequence[tuple[int, int]] = (),
    pinned: Mapping[int, int] | None = None,
    replace: bool = False,
) -> Draw:
    """Draw the round (as :func:`round_seating_draw`) and store it: its
    tables numbered from 1, seats and first dealers as drawn, and its
    sit-outs. A round with tables is a :class:`Conflict` unless ``replace``
    (and then only while no hand is played at them).

    Lock order: the event row, then the tables it creates. The league's
    standings (which count sit-outs) are refreshed once this commits.
    """
    Event.objects.select_for_update(of=("self",)).get(pk=round.event_id)
    round = Round.objects.select_related("event__league").get(pk=round.pk)
    before = audit.rounds_record([round.pk])[round.pk]
    sat_out = _clear_for_draw(
        Q(round=round), what=f"round {round.number}", field="round", replace=replace
    )
    draw = round_seating_draw(
        round=round, method=method, seed=seed, keep_apart=keep_apart, pinned=pinned
    )
    stored = _store(draw, before=before)
    _standings_owed(round.event, sat_out | set(draw.seating.sit_out))
    webhooks_rounds_seated(event=round.event, rounds=[round])
    return stored


def _store(draw: Draw, *, before: audit.RoundRecord | None) -> Draw:
    """Store a draw of a round that has no tables: its tables numbered from
    1 with their seats and first dealers, its sit-outs, and the method and
    seed on the round; one ``seating.drawn`` entry in the audit trail, with
    the round's seats ``before`` (those a redraw replaced)."""
    round = draw.round
    with audit.audit_covered():  # one entry for the round, not one a table
        tables = tuple(
            table_create(
                round=round,
                number=number,
                players=[draw.players[pk] for pk in drawn.players],
                first_dealer=drawn.first_dealer,
            )
            for number, drawn in enumerate(draw.seating.tables, start=1)
        )
    SitOut.objects.bulk_create(
        SitOut(round=round, player=draw.players[pk]) for pk in draw.seating.sit_out
    )
    round.seating_method, round.seating_seed = draw.method.value, draw.seed
    round.save(update_fields=["seating_method", "seating_seed"])
    _audit_round(audit.Action.SEATING_DRAWN, round, before=before, after=_drawn_record(draw))
    return Draw(
        round=round,
        method=draw.method,
        seed=draw.seed,
        seating=draw.seating,
        players=draw.players,
        tables=tables,
    )


class DrawnRecord(audit.RoundRecord):
    """A draw as the audit trail keeps it (``seating.drawn``): a round's seats, with
    the draw's method and seed."""

    method: str
    seed: int | None


def _drawn_record(draw: Draw) -> DrawnRecord:
    """A draw as the audit trail keeps a round's seats (as
    :func:`league.audit.rounds_record` reads them), with its method and seed."""

    def named(ids: Sequence[int]) -> list[audit.PlayerRecord]:
        return [{"player": pk, "player_name": draw.players[pk].name} for pk in ids]

    return {
        "method": draw.method.value,
        "seed": draw.seed,
        "tables": [
            {"number": number, "players": named(drawn.players), "first_dealer": drawn.first_dealer}
            for number, drawn in enumerate(draw.seating.tables, start=1)
        ],
        "sit_out": named(draw.seating.sit_out),
    }


def _audit_round(
    action: audit.Action,
    round: Round,
    *,
    before: audit.RoundRecord | None,
    after: audit.RoundRecord | None,
) -> None:
    """An entry about a round's seats (its event and league fetched)."""
    audit.audit_entry_write(
        action=action,
        club_id=round.event.league.club_id,
        event_id=round.event_id,
        round_id=round.pk,
        before=before,
        after=after,
    )


def _clear_for_draw(where: Q, *, what: str, field: str, replace: bool) -> set[int]:
    """Delete the tables and sit-outs ``where`` selects (of a round, or of a
    whole event) before they are drawn again: refused while any of those
    tables has a hand played, and unless ``replace`` when there are any.
    Returns the players whose sit-outs it deleted."""
    existing = Table.objects.filter(where)
    if existing.filter(hands_played__gt=0).exists():
        raise Conflict(
            gettext("%(what)s has tables with hands played") % {"what": what}, field=field
        )
    if existing.exists() and not replace:
        raise Conflict(
            gettext("%(what)s is drawn already; send replace to draw it again") % {"what": what},
            field="replace",
        )
    existing.delete()
    sit_outs = SitOut.objects.filter(where)
    sat_out = set(sit_outs.values_list("player_id", flat=True))
    sit_outs.delete()
    return sat_out


def _standings_owed(event: Event, players: set[int]) -> None:
    """The standings count sit-outs: owe the lines of ``players`` (whose
    sit-outs changed) in the event and the league, sent when this commits."""
    standings_owe(league_id=event.league_id, event_id=event.pk, player_ids=players)


def _seed(seed: int | None) -> int:
    """The seed asked for, or a fresh one."""
    if seed is None:
        return secrets.randbelow(MAX_SEED)
    if not 0 <= seed <= MAX_SEED:
        raise ServiceError(
            gettext("seed must be 0 to %(max_seed)s") % {"max_seed": MAX_SEED}, field="seed"
        )
    return seed


def _ranking(
    round: Round, method: seating.Method, players: Mapping[int, Player]
) -> list[int] | None:
    """The order ``swiss`` and ``rating`` group ``players`` by (``None`` for
    the other methods)."""
    if method not in (seating.Method.SWISS, seating.Method.RATING):
        return None
    return draws_selectors.seating_ranking(
        round=round, by_rating=method is seating.Method.RATING, players=list(players.values())
    )


def _policy(league: League) -> seating.TablePolicy:
    """The league's table policy, as the generator takes it."""
    spill: Literal["smaller", "larger"] = (
        "larger" if league.table_spill == TableSpill.LARGER else "smaller"
    )
    try:
        return seating.TablePolicy(league.game, size=league.table_size, spill=spill)
    except seating.SeatingError as error:  # the database keeps the league's policy valid
        raise ServiceError(str(error), field="table_size") from None


def _refusal(
    error: seating.SeatingError, policy: seating.TablePolicy, *, round_numbers: Sequence[int]
) -> Exception:
    """The service's error for the generator's refusal: too few present is
    the night's state (409); the rest name the request field at fault."""
    field = _SEATING_ERROR_FIELDS.get(error.code)
    if error.code == "too_few_players":
        number = round_numbers[error.round or 0]
        return Conflict(
            gettext(
                "too few present for round %(number)s: a table needs %(min_players)s; check "
                "players in first"
            )
            % {"number": number, "min_players": policy.min_players},
            field=field,
        )
    return ServiceError(str(error), field=field)


def _check_present(ids: Sequence[int], present: Mapping[int, Player], *, field: str) -> None:
    """Players kept apart or pinned are among those present for the round."""
    missing = sorted({pk for pk in ids if pk not in present})
    if missing:
        raise ServiceError(
            gettext("not present for this round: player %(names)s")
            % {"names": ", ".join(map(str, missing))},
            field=field,
        )


@transaction.atomic
def round_seating_adjust(
    *,
    round: Round,
    swap: tuple[int, int] | None = None,
    move: tuple[int, int] | None = None,
) -> Draw:
    """Change a drawn round by hand before its first hand: ``swap`` two
    players (seated or sitting out), or ``move`` a player (by id) to the
    table numbered so; exactly one of them. Answers the round as it now
    stands, its cost recomputed against the same history (pairs kept apart
    at the draw are not stored, so they are not counted).

    Lock order: the event row, then the round's tables (by id).
    """
    if (swap is None) == (move is None):
        raise ServiceError(gettext("give swap or move, one of them"), field="swap")
    Event.objects.select_for_update(of=("self",)).get(pk=round.event_id)
    round = Round.objects.select_related("event__league").get(pk=round.pk)
    tables = list(
        Table.objects.filter(round=round).prefetch_related("seatings__player").order_by("number")
    )
    if not tables:
        raise Conflict(
            gettext("round %(number)s is not drawn yet") % {"number": round.number}, field="round"
        )
    if any(table.hands_played for table in tables):
        raise Conflict(
            gettext("round %(number)s has tables with hands played") % {"number": round.number},
            field="round",
        )
    before = audit.rounds_record([round.pk])[round.pk]
    seats = {table.pk: [seating.player for seating in table.seatings.all()] for table in tables}
    out = [
        sit_out.player for sit_out in SitOut.objects.filter(round=round).select_related("player")
    ]
    places: list[list[Player]] = [*seats.values(), out]
    if swap is not None:
        first, second = (_place_of(pk, places, field="swap") for pk in swap)
        if first == second:
            raise ServiceError(gettext("swap two different players"), field="swap")
        (a_list, a_at), (b_list, b_at) = first, second
        places[a_list][a_at], places[b_list][b_at] = places[b_list][b_at], places[a_list][a_at]
    else:
        assert move is not None
        player_id, number = move
        if not 1 <= number <= len(tables):
            raise ServiceError(
                gettext("the round has tables 1 to %(len)s") % {"len": len(tables)}, field="move"
            )
        at_list, at = _place_of(player_id, places, field="move")
        if at_list == number - 1:
            raise ServiceError(gettext("the player sits at that table already"), field="move")
        places[number - 1].append(places[at_list].pop(at))
        if round.event.league.game == Game.BLUKE and not all(
            seating.MIN_TABLE_SIZE <= len(players) <= seating.MAX_TABLE_SIZE
            for players in places[:-1]
        ):
            raise ServiceError(
                gettext(
                    "a Bluke table seats %(min_table_size)s to %(max_table_size)s players when "
                    "drawn"
                )
                % {
                    "min_table_size": seating.MIN_TABLE_SIZE,
                    "max_table_size": seating.MAX_TABLE_SIZE,
                },
                field="move",
            )
    changed = {
        table.pk: players
        for table, players in zip(tables, places, strict=False)
        if [p.pk for p in players] != [s.player_id for s in table.seatings.all()]
    }
    with audit.audit_covered():  # one entry for the adjustment, below
        round_reseat(round=round, seats=changed)
    SitOut.objects.filter(round=round).delete()
    SitOut.objects.bulk_create(SitOut(round=round, player=player) for player in places[-1])
    _standings_owed(round.event, {player.pk for player in [*out, *places[-1]]})
    # reseated (round_reseat) and its sit-outs stored: the round as it is now
    webhooks_rounds_seated(event=round.event, rounds=[round])
    after = audit.rounds_record([round.pk])[round.pk]
    _audit_round(audit.Action.SEATING_ADJUSTED, round, before=before, after=after)
    return _stored_draw(round)


def _place_of(player_id: int, places: Sequence[Sequence[Player]], *, field: str) -> tuple[int, int]:
    """Where the player is: which list of ``places`` (tables, then the
    sit-outs) and which seat in it."""
    for number, players in enumerate(places):
        for seat, player in enumerate(players):
            if player.pk == player_id:
                return number, seat
    raise ServiceError(
        gettext("player %(player_id)s is not in this round") % {"player_id": player_id}, field=field
    )


def _stored_draw(round: Round) -> Draw:
    """The round as stored, with its cost against its history."""
    tables = tuple(
        Table.objects.filter(round=round).prefetch_related("seatings__player").order_by("number")
    )
    out = [
        sit_out.player for sit_out in SitOut.objects.filter(round=round).select_related("player")
    ]
    players = {s.player.pk: s.player for t in tables for s in t.seatings.all()}
    players.update({player.pk: player for player in out})
    method = seating.Method(round.seating_method or seating.Method.BALANCED)
    ranking = _ranking(round, method, players)
    assessed = seating.assess(
        [seating.Table(tuple(t.seat_players), t.first_dealer) for t in tables],
        sit_out=[player.pk for player in out],
        history=draws_selectors.seating_history(round=round),
        ranking=ranking,
        method=method,
    )
    return Draw(
        round=round,
        method=method,
        seed=round.seating_seed,
        seating=assessed,
        players=players,
        tables=tables,
    )


@dataclass(frozen=True)
class Schedule:
    """Every round of an event drawn at once: one :class:`Draw` a round."""

    event: Event
    method: seating.Method
    seed: int
    draws: tuple[Draw, ...]


def event_schedule_draw(
    *,
    event: Event,
    method: str = seating.Method.BALANCED,
    seed: int | None = None,
    keep_apart: Sequence[tuple[int, int]] = (),
    pinned: Mapping[int, int] | None = None,
) -> Schedule:
    """A preview of all the event's rounds, optimised together (as a
    round-robin is: everyone meets everyone as evenly as the sizes allow).
    Who plays each round is who is checked in for it; the history is the
    league's earlier events. Nothing is stored."""
    rounds = list(event.rounds.select_related("event__league").order_by("number"))
    return _draw(
        event=event,
        rounds=rounds,
        method=method,
        seed=seed,
        keep_apart=keep_apart,
        pinned=pinned,
    )


def _draw(
    *,
    event: Event,
    rounds: Sequence[Round],
    method: str,
    seed: int | None,
    keep_apart: Sequence[tuple[int, int]],
    pinned: Mapping[int, int] | None,
) -> Schedule:
    """``rounds`` of ``event`` planned together (one round: that round's
    draw), each seating who is checked in for it, against the history
    before the first of them."""
    seed = _seed(seed)
    present = [
        {
            player.pk: player
            for player in draws_selectors.players_present(event=event, round_number=r.number)
        }
        for r in rounds
    ]
    everyone: dict[int, Player] = {}
    for players in present:
        everyone.update(players)
    ordered = sorted(everyone, key=lambda pk: (everyone[pk].name, pk))
    _check_present([pk for pair in keep_apart for pk in pair], everyone, field="keep_apart")
    _check_present(list(pinned or {}), everyone, field="pinned")
    chosen = seating.Method(method)
    ranking = _ranking(rounds[0], chosen, everyone)
    policy = _policy(event.league)
    try:
        plan = seating.plan_night(
            ordered,
            policy,
            rounds=len(rounds),
            history=draws_selectors.seating_history(round=rounds[0]),
            method=chosen,
            seed=seed,
            absent={n: [pk for pk in ordered if pk not in present[n]] for n in range(len(rounds))},
            pins=dict(pinned or {}),
            keep_apart=list(keep_apart),
            ranking=ranking,
        )
    except seating.SeatingError as error:
        raise _refusal(error, policy, round_numbers=[r.number for r in rounds]) from None
    draws = tuple(
        Draw(round=r, method=chosen, seed=seed, seating=drawn, players=everyone)
        for r, drawn in zip(rounds, plan.rounds, strict=True)
    )
    return Schedule(event=event, method=chosen, seed=seed, draws=draws)


@transaction.atomic
def event_schedule_commit(
    *,
    event: Event,
    method: str = seating.Method.BALANCED,
    seed: int | None = None,
    keep_apart: Sequence[tuple[int, int]] = (),
    pinned: Mapping[int, int] | None = None,
    replace: bool = False,
) -> Schedule:
    """Draw all the event's rounds (as :func:`event_schedule_draw`) and store
    them; rounds with tables are a :class:`Conflict` unless ``replace``
    (and then only while no hand is played at any of them).

    Lock order: the event row, then the tables it creates."""
    event = Event.objects.select_for_update(of=("self",)).select_related("league").get(pk=event.pk)
    before = audit.rounds_record(event.rounds.values_list("pk", flat=True))
    sat_out = _clear_for_draw(
        Q(round__event=event), what="the event", field="event", replace=replace
    )
    schedule = event_schedule_draw(
        event=event, method=method, seed=seed, keep_apart=keep_apart, pinned=pinned
    )
    draws = tuple(_store(draw, before=before[draw.round.pk]) for draw in schedule.draws)
    _standings_owed(event, sat_out.union(*(draw.seating.sit_out for draw in draws)))
    webhooks_rounds_seated(event=event, rounds=[draw.round for draw in draws])
    return Schedule(event=event, method=schedule.method, seed=schedule.seed, draws=draws)


@transaction.atomic
def round_seating_store(*, draw: Draw) -> Draw:
    """Store a draw the caller made (a league's final, seated from the season's
    standings: :mod:`league.services.finals`) on a round with no tables, as
    :func:`round_seating_commit` stores its own: the tables numbered from 1 in
    the draw's order, sit-outs, method and seed, one ``seating.drawn`` entry,
    the standings owed for the sit-outs and the ``round.seated`` webhook. A
    round drawn already is a :class:`Conflict`.

    Lock order: the event row, then the tables it creates."""
    Event.objects.select_for_update(of=("self",)).get(pk=draw.round.event_id)
    round = Round.objects.select_related("event__league").get(pk=draw.round.pk)
    if Table.objects.filter(round=round).exists() or SitOut.objects.filter(round=round).exists():
        raise Conflict(
            gettext("round %(number)s is drawn already") % {"number": round.number}, field="round"
        )
    stored = _store(dataclasses.replace(draw, round=round), before=None)
    _standings_owed(round.event, set(draw.seating.sit_out))
    webhooks_rounds_seated(event=round.event, rounds=[round])
    return stored
