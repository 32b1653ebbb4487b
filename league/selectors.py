"""Reads of the league, shaped for the pages and the API."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from league.models import Club, League, Standing


def clubs_with_leagues() -> QuerySet[Club]:
    return Club.objects.prefetch_related(
        Prefetch("leagues", queryset=League.objects.order_by("name"))
    )


def league_standings(*, league: League) -> QuerySet[Standing]:
    """Best first: most wins, then the better average place, then name."""
    return (
        Standing.objects.filter(league=league)
        .select_related("player")
        .order_by("-wins", "average_place", "player__name")
    )
