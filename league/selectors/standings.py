"""Reads of the standings: a league's stored standings (of the season, or
of one night), searched, a player's rows; the API's rows, and standings of a
date range computed now (:mod:`league.standings` computes and stores them)."""

from __future__ import annotations

import datetime

from django.db.models import QuerySet
from django.utils import timezone

from league import standings
from league.models import Event, League, Player, Standing


def league_standings(*, league: League, event: Event | None = None) -> QuerySet[Standing]:
    """The stored standings of a league (or of one of its events), best
    first after the tie-breaks of :mod:`league.standings`."""
    return (
        Standing.objects.filter(league=league, event=event)
        .select_related("player")
        .order_by("rank")
    )


def standings_matching(*, league: League, query: str = "") -> QuerySet[Standing]:
    """The league's stored standings, best first, of the players whose name
    contains ``query`` in any case (everyone's for an empty one), with the
    players: slice or paginate it."""
    rows = league_standings(league=league)
    return rows.filter(player__name__icontains=query) if query else rows


def standing_of(*, league: League, player_id: int) -> Standing | None:
    """The player's row in the league's stored standings, with the player;
    ``None`` before they have one."""
    return league_standings(league=league).filter(player_id=player_id).first()


def standing_row(row: Standing) -> dict[str, object]:
    """A stored standings row (with its player) as the API's row: its
    figures, the player's name and when it was computed (no query)."""
    return {
        **{field: getattr(row, field) for field in standings.STORED_FIELDS},
        "player_id": row.player_id,
        "player_name": row.player.name,
        "computed_at": row.computed_at,
    }


def standing_rows_between(
    *,
    league: League,
    date_after: datetime.date | None = None,
    date_before: datetime.date | None = None,
) -> list[dict[str, object]]:
    """The standings of the league's games played in a date range, computed
    now (they are not stored), in the rows of :func:`standing_row`."""
    now = timezone.now()
    return [
        {**row, "player_name": row["name"], "computed_at": now}
        for row in standings.standing_rows(
            league=league, date_after=date_after, date_before=date_before
        )
    ]


def player_standings(*, player: Player) -> list[Standing]:
    """The player's stored standing rows, one per league they played a
    complete game in, with the league; by game, then league name."""
    return list(
        Standing.objects.filter(player=player, event__isnull=True)
        .select_related("league")
        .order_by("league__game", "league__name", "league_id")
    )
