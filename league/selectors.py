"""Reads of the league, shaped for the pages and the API."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet, prefetch_related_objects

import games
from league import ratings
from league.models import Club, Event, Hand, League, RatingScope, Seating, Standing, Table


def clubs_with_leagues() -> QuerySet[Club]:
    return Club.objects.prefetch_related(
        Prefetch("leagues", queryset=League.objects.order_by("name"))
    )


def league_standings(*, league: League, event: Event | None = None) -> QuerySet[Standing]:
    """The stored standings of a league (or of one of its events), best
    first after the tie-breaks of :mod:`league.standings`."""
    return (
        Standing.objects.filter(league=league, event=event)
        .select_related("player")
        .order_by("rank")
    )


def table_with_seatings(table_id: int) -> Table:
    return Table.objects.prefetch_related("seatings__player").get(pk=table_id)


def score_sheet(*, table: Table) -> dict[str, Any]:
    """A table's score sheet in three queries, whatever the number of hands.

    ``table`` must come with its round, event and league (``select_related``)
    and without seatings fetched before (they are fetched here, fresh).
    """
    prefetch_related_objects(
        [table],
        Prefetch("seatings", queryset=Seating.objects.select_related("player").order_by("seat")),
    )
    hands = list(Hand.objects.filter(table=table).prefetch_related("seats").order_by("number"))
    next_hand = None
    if not table.complete:
        league = table.round.event.league
        tally = games.GameTally(
            games.rules_for(league.game, table.players, league.options),
            first_dealer=table.first_dealer,
            hands_played=len(hands),
        )
        next_hand = next_hand_of(tally)
    return {"table": table, "hands": hands, "next_hand": next_hand}


def next_hand_of(tally: games.GameTally) -> dict[str, int] | None:
    """The next hand's number, dealer and cards a seat; ``None`` when the
    game is over."""
    if tally.complete:
        return None
    size = tally.next_hand_size
    if size is None:
        if isinstance(tally.rules, games.Bluke):
            return None  # past the schedule
        size = games.buck_euchre.HAND_SIZE
    return {"number": tally.hands_played, "dealer": tally.next_dealer, "cards": size}


def rating_board(*, scope: RatingScope | None) -> dict[str, Any]:
    """The leaderboard of a scope (``None``: nothing rated yet)."""
    rows = [
        {
            "player_id": rating.player_id,
            "player": rating.player,
            "ordinal": rating.ordinal,
            "mu": rating.mu,
            "sigma": rating.sigma,
            "games": rating.games,
            "provisional": rating.games < ratings.PROVISIONAL_BELOW,
        }
        for rating in (ratings.leaderboard(scope=scope) if scope is not None else [])
    ]
    return {
        "status": "pending" if scope is not None and scope.rerate_from else "up_to_date",
        "rated_at": scope.rated_at if scope is not None else None,
        "provisional_below": ratings.PROVISIONAL_BELOW,
        "ratings": rows,
    }
