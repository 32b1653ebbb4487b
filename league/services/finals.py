"""A league's final night: the best qualified players of the season, seated
at final tables by their standing.

The organiser asks for the top ``players`` qualified players (the season's
standings as they are now, :func:`league.standings.standing_rows`, finals
aside). They are seated by the seating generator's ``swiss`` method with that
order as the ranking and no history of earlier meetings (a final seats by
standing; who met whom in the season does not matter), so neighbours in the
standings share a table; the table holding the best player is table 1, the
top table, and so on down. The final is a new game night of the league,
marked as its final (``Event.is_final``: one a league, which the database
keeps), with one round: those players checked in and their tables stored, as
a draw stores them (:func:`league.services.seating.round_seating_store`), so
the Tonight page, table links and score pads serve it as any night.

Its games have their own result (:func:`league.selectors.seasons.final_result`): the
top table's players first, by their places there, then the next table's, and
so on. They count in no season standings of the league (:mod:`league.standings`
leaves a final night out) and do count for ratings, like every game.

A preview (:func:`final_preview`) draws the same tables without storing
anything; the same seed makes the same tables when the final is made.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from league import audit, seating, standings
from league.errors import Conflict, ServiceError
from league.models import Event, Game, League, Player, Round, TableSpill
from league.services import attendance
from league.services import seating as seating_service
from league.users import Actor

FINAL_NAME = "Final"
"""The final night's name when the organiser gives none."""
MAX_SEED = seating_service.MAX_SEED


@dataclass(frozen=True)
class Finalist:
    """A player of the final: their seed (1 = the season's best qualified
    player) and their season standings row (:func:`league.standings.standing_rows`)."""

    seed: int
    player: Player
    standing: Mapping[str, object]


@dataclass(frozen=True)
class FinalDraw:
    """A final, previewed or made: who plays, seeded, and the tables (the top
    table first), each a list of finalists in seat order with its first dealer."""

    league: League
    name: str
    date: datetime.date
    seed: int
    finalists: tuple[Finalist, ...]
    tables: tuple[tuple[tuple[Finalist, ...], int], ...]
    event: Event | None = None
    """The final night once made; ``None`` in a preview."""
    draw: seating_service.Draw | None = None


def final_preview(
    *,
    league: League,
    players: int,
    name: str = "",
    date: datetime.date | None = None,
    seed: int | None = None,
) -> FinalDraw:
    """The final that :func:`final_create` would make with the same
    arguments: the top ``players`` qualified players and their tables. Nothing
    is stored. The refusals are :func:`final_create`'s."""
    _check_no_final(league)
    return _drawn(league, players=players, name=name, date=date, seed=seed)


@transaction.atomic
def final_create(
    *,
    league: League,
    players: int,
    name: str = "",
    date: datetime.date | None = None,
    seed: int | None = None,
    by: Actor = None,
) -> FinalDraw:
    """Make the league's final night (``name``: "Final" by default; ``date``:
    today by default) with the top ``players`` qualified players seated at
    its tables by standing (``seed`` draws the seats and first dealers; a new
    one when ``None``). One ``league.final_made`` entry in the audit trail
    (the finalists with their seeds and standings), and the round's
    ``seating.drawn``; the ``round.seated`` webhook.

    Refused, storing nothing: ``players`` fewer than a table seats or more than
    the qualified players (:class:`Conflict`, ``players``), a number the game
    cannot seat without someone sitting out (Buck Euchre: a multiple of 4), a
    league with a final already (:class:`Conflict`).

    Lock order: the league row (so that two finals asked at once are made one
    after the other, and the second is refused), then the new night's row,
    then its tables.
    """
    league = League.objects.select_for_update(of=("self",)).get(pk=league.pk)
    _check_no_final(league)
    planned = _drawn(league, players=players, name=name, date=date, seed=seed)
    with audit.audit_covered():  # one entry for the final, below; the draw has its own
        event = Event.objects.create(
            league=league, name=planned.name, date=planned.date, is_final=True
        )
        Round.objects.create(event=event, number=1)
        attendance.attendance_set(event=event, players=[f.player for f in planned.finalists], by=by)
    round_ = Round.objects.select_related("event__league").get(event=event, number=1)
    tables = tuple(
        seating.Table(tuple(f.player.pk for f in seated), first_dealer)
        for seated, first_dealer in planned.tables
    )
    plan = seating.assess(
        tables,
        ranking=[f.player.pk for f in planned.finalists],
        method=seating.Method.SWISS,
    )
    stored = seating_service.round_seating_store(
        draw=seating_service.Draw(
            round=round_,
            method=seating.Method.SWISS,
            seed=planned.seed,
            seating=plan,
            players={f.player.pk: f.player for f in planned.finalists},
        )
    )
    audit.audit_entry_write(
        action=audit.Action.FINAL_MADE,
        club_id=league.club_id,
        event_id=event.pk,
        round_id=round_.pk,
        before=None,
        after={
            "league": league.pk,
            "event": event.pk,
            "name": event.name,
            "date": event.date.isoformat(),
            "seed": planned.seed,
            "finalists": [
                {
                    "seed": f.seed,
                    "player": f.player.pk,
                    "player_name": f.player.name,
                    "rank": f.standing["rank"],
                    "season_points": f.standing["season_points"],
                    "games": f.standing["games"],
                }
                for f in planned.finalists
            ],
        },
    )
    return FinalDraw(
        league=league,
        name=event.name,
        date=event.date,
        seed=planned.seed,
        finalists=planned.finalists,
        tables=planned.tables,
        event=event,
        draw=stored,
    )


def _check_no_final(league: League) -> None:
    if Event.objects.filter(league=league, is_final=True).exists():
        raise Conflict(
            gettext("the league has its final already: one final a league"), field="players"
        )


def final_table_sizes(league: League, players: int) -> tuple[int, ...]:
    """The table sizes ``players`` finalists sit at, the league's policy's
    (preferred size, spill); a :class:`ServiceError` by ``players`` when the
    game cannot seat them all (a final has nobody sitting out)."""
    if league.game == Game.BUCK_EUCHRE and (players < 4 or players % 4):
        raise ServiceError(
            gettext(
                "Buck Euchre is played four to a table and nobody sits out a final: choose 4, 8, "
                "12... players, not %(players)s"
            )
            % {"players": players},
            field="players",
        )
    spill: Literal["smaller", "larger"] = (
        "larger" if league.table_spill == TableSpill.LARGER else "smaller"
    )
    policy = seating.TablePolicy(league.game, size=league.table_size, spill=spill)
    if players < policy.min_players:
        raise ServiceError(
            gettext("a final needs a table: at least %(min_players)s players")
            % {"min_players": policy.min_players},
            field="players",
        )
    return policy.table_sizes(players)


def finalists_of(league: League, players: int) -> tuple[Finalist, ...]:
    """The top ``players`` qualified players of the season's standings as they
    are now (computed, not read from the stored lines, which a standings job
    may owe a change still); a :class:`Conflict` by ``players`` when fewer are
    qualified."""
    rows = standings.standing_rows(league=league)
    qualified = [row for row in rows if row["qualified"]]
    if players > len(qualified):
        raise Conflict(
            ngettext(
                "only %(count)s player is qualified for the final; choose at most %(count)s",
                "only %(count)s players are qualified for the final; choose at most %(count)s",
                len(qualified),
            )
            % {"count": len(qualified)},
            field="players",
        )
    chosen = qualified[:players]
    by_id = Player.objects.in_bulk([row["player_id"] for row in chosen])
    return tuple(
        Finalist(seed=n, player=by_id[row["player_id"]], standing=row)
        for n, row in enumerate(chosen, start=1)
    )


def _drawn(
    league: League,
    *,
    players: int,
    name: str,
    date: datetime.date | None,
    seed: int | None,
) -> FinalDraw:
    """The final's finalists and tables, drawn and not stored."""
    name = name.strip() or FINAL_NAME
    if seed is None:
        seed = secrets.randbelow(MAX_SEED)
    elif not 0 <= seed <= MAX_SEED:
        raise ServiceError(
            gettext("seed must be 0 to %(max_seed)s") % {"max_seed": MAX_SEED}, field="seed"
        )
    sizes = final_table_sizes(league, players)
    finalists = finalists_of(league, players)
    ranking = [f.player.pk for f in finalists]
    spill: Literal["smaller", "larger"] = (
        "larger" if league.table_spill == TableSpill.LARGER else "smaller"
    )
    policy = seating.TablePolicy(league.game, size=league.table_size, spill=spill)
    drawn = seating.plan_round(
        ranking, policy, method=seating.Method.SWISS, seed=seed, ranking=ranking
    )
    assert sum(len(t.players) for t in drawn.tables) == sum(sizes)  # nobody sits out
    by_id = {f.player.pk: f for f in finalists}
    # the top table first: the table of the best seed, then the next best's...
    ordered = sorted(drawn.tables, key=lambda t: min(by_id[pk].seed for pk in t.players))
    return FinalDraw(
        league=league,
        name=name,
        date=date or timezone.localdate(),
        seed=seed,
        finalists=finalists,
        tables=tuple(
            (tuple(by_id[pk] for pk in table.players), table.first_dealer) for table in ordered
        ),
    )
