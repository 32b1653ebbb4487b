"""The reads behind a player's page's figures (head-to-head, rival and nemesis, best
win, streaks, form, personal bests, each game's own figures): the rows of the
player's games that count, in four queries whatever the number of games, handed to
the pure :mod:`league.player_stats`, which works the figures out.

No hand line is read but those of the drops judged: what the figures need of every
hand is counted onto each seating once, when its game is completed
(``Seating.hands`` and the rest, :data:`~league.models.SEATING_FIGURES`), so the
page reads a row a game (at 100,000 games, a player's few hundred rows, not their
thousands of hand lines)."""

from __future__ import annotations

from typing import TypedDict

from django.db.models import OuterRef, QuerySet, Subquery

import games
from league import player_stats, ratings
from league.models import (
    SEATING_COUNTS,
    SEATING_FIGURES,
    Game,
    HandSeat,
    Player,
    RatingHistory,
    RatingScope,
    Seating,
)
from league.player_stats import DROPS_JUDGED, DroppedHand, GamePlayed, GameStats, Tablemate
from league.rating_model import Skill, model_for

_GAME_FIELDS = (
    "table_id",
    "table__round__event_id",
    "table__round__event__name",
    "table__round__event__date",
    "table__round__event__league_id",
    "table__round__event__league__name",
    "table__round__number",
    "table__number",
    "table__players",
    "seat",
    "place",
    "total",
    *SEATING_COUNTS,
    *SEATING_FIGURES,
)
"""A seating's fields in the order of :class:`~league.player_stats.GamePlayed` (the hand
sizes, which follow from the league's options, apart)."""


def player_game_stats(*, player: Player) -> list[GameStats]:
    """The player's figures for each game they have played (Bluke first), over every
    league of their club: one query for a player without games, four otherwise.

    The rows: their seatings that count (a place is set exactly then), in the order
    played, with their counts of their hand lines; the others seated at those games;
    the latest :data:`~league.player_stats.DROPS_JUDGED` hands entered card by card in
    which they dropped; and, for the best win, the club-wide rating before each game
    they won of everyone at its table: each player's rating after their previous game
    in the club's rating of that game (none: a new player's), the leaderboard's
    figure (:meth:`~league.rating_model.ScoreModel.board_value`)."""
    own = Seating.objects.filter(player=player, place__isnull=False)
    by_game: dict[str, list[GamePlayed]] = {}
    schedules: dict[tuple[int, int], tuple[int, ...]] = {}
    for game, options, *row in own.order_by(*ratings.PLAYED_ORDER).values_list(
        "table__game", "table__round__event__league__options", *_GAME_FIELDS
    ):
        played = GamePlayed(*row)
        if game == Game.BLUKE:
            key = (played.league_id, played.players)
            if key not in schedules:
                schedules[key] = _schedule(played.players, options)
            played = played._replace(sizes=schedules[key])
        by_game.setdefault(game, []).append(played)
    if not by_game:
        return []
    mates = [
        Tablemate._make(row)
        for row in Seating.objects.filter(table_id__in=_counted(player))
        .exclude(player=player)
        .order_by()  # any order: not the model's, which joins up to the event
        .values_list("table_id", "player_id", "player__name", "place", "total")
    ]
    dropped = [
        DroppedHand(seat=seat, dealer=dealer, trump=trump, record=record)
        for seat, dealer, trump, record in HandSeat.objects.filter(
            player=player, dropped=True, hand__is_move_log=True, hand__table_id__in=_counted(player)
        )
        .order_by("-hand_id")
        .values_list("seat", "hand__dealer", "hand__trump", "hand__record")[:DROPS_JUDGED]
    ]
    before = _rated_before(player)
    return [
        player_stats.game_stats(
            game=game,
            played=by_game[game],
            mates=mates,
            dropped=dropped if game == Game.BUCK_EUCHRE else (),
            rated_before=before.get(game, {}),
        )
        for game in (Game.BLUKE, Game.BUCK_EUCHRE)
        if game in by_game
    ]


def _schedule(players: int, options: object) -> tuple[int, ...]:
    """The cards dealt in each hand of a Bluke game of ``players`` under a league's
    ``options`` (fixed once the league has a hand: ``league_update``); none for
    options the engine refuses (the game is then left out of the sizes)."""
    try:
        rules = games.rules_for(Game.BLUKE, players, options)
    except games.RecordError:
        return ()
    return rules.schedule if isinstance(rules, games.Bluke) else ()


class _TableId(TypedDict):
    table_id: int


def _counted(player: Player) -> QuerySet[Seating, _TableId]:
    """The tables of the player's games that count, as a subquery."""
    return Seating.objects.filter(player=player, place__isnull=False).values("table_id")


def _rated_before(player: Player) -> dict[str, dict[tuple[int, int], float]]:
    """By game, the rating before each game the player won of everyone else at its
    table, by (table, player), in the club-wide scope of that game: one query.

    The games are found by the player's own rows of the club-wide histories at the
    tables they won (their order keys, which the history's key begins with); the
    rating before is the same player's previous row (an index probe each)."""
    club_scopes = RatingScope.objects.filter(club_id=player.club_id, league__isnull=True)
    won = Seating.objects.filter(player=player, place=1).values("table_id")
    keys = RatingHistory.objects.filter(
        scope__in=club_scopes, player=player, table_id__in=won
    ).values("order_key")
    previous = RatingHistory.objects.filter(
        scope_id=OuterRef("scope_id"),
        player_id=OuterRef("player_id"),
        order_key__lt=OuterRef("order_key"),
    ).order_by("-order_key")
    rows = (
        RatingHistory.objects.filter(scope__in=club_scopes, order_key__in=keys)
        .exclude(player=player)
        .order_by()
        .annotate(
            mu_before=Subquery(previous.values("mu")[:1]),
            sigma_before=Subquery(previous.values("sigma")[:1]),
        )
        .values_list("scope__game", "table_id", "player_id", "mu_before", "sigma_before")
    )
    found: dict[str, dict[tuple[int, int], float]] = {}
    for game, table_id, player_id, mu, sigma in rows:
        model = model_for(game)
        skill = model.new() if mu is None or sigma is None else Skill(mu, sigma)
        found.setdefault(game, {})[table_id, player_id] = model.board_value(skill)
    return found
