"""Reads of the ratings: a scope's leaderboard ranked by the database as
:mod:`league.ratings` ranks it in Python, its rows and what it says beside
them, the rating scopes of a club and a league, a player's ratings and their
history (:mod:`league.ratings` computes and stores them)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import (
    ExpressionWrapper,
    F,
    FloatField,
    Func,
    IntegerField,
    Max,
    QuerySet,
    Subquery,
    Value,
    Window,
)
from django.db.models.functions import Cast, Greatest, Least, RowNumber, Sqrt
from django.db.models.sql.compiler import SQLCompiler

from league import ratings
from league.models import (
    Club,
    Game,
    League,
    Player,
    Rating,
    RatingHistory,
    RatingScope,
    Table,
)
from league.rating_explain import GameExplained, explain
from league.rating_model import Skill, model_for

if TYPE_CHECKING:
    from django.db.models.sql.compiler import _AsSqlType


class _DayNumber(Func):
    """The day number of the date an order key begins with (``YYYY-MM-DD``):
    days since 0001-01-01, so two of them differ as Python's
    ``date.toordinal()`` of the two dates do (:func:`league.ratings.as_of`)."""

    output_field = IntegerField()

    def as_sqlite(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra: Any
    ) -> _AsSqlType:
        # julianday() of two midnights differ by a whole number, exactly
        template = (
            "CAST(julianday(SUBSTR(%(expressions)s, 1, 10)) - julianday('0001-01-01') AS INTEGER)"
        )
        return self.as_sql(compiler, connection, template=template, **extra)

    def as_postgresql(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra: Any
    ) -> _AsSqlType:
        template = "(CAST(SUBSTRING(%(expressions)s FROM 1 FOR 10) AS date) - DATE '0001-01-01')"
        return self.as_sql(compiler, connection, template=template, **extra)


class _ByCodePoint(Func):
    """A text compared by code point, as Python's sort compares it (the "C"
    collation on PostgreSQL; SQLite's default already)."""

    template = "%(expressions)s"

    def as_postgresql(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra: Any
    ) -> _AsSqlType:
        return self.as_sql(compiler, connection, template='%(expressions)s COLLATE "C"', **extra)


def leaderboard_ranked(*, scope: RatingScope) -> QuerySet[Rating]:
    """The scope's leaderboard in the database's hands: its ratings with the
    player, best first, each annotated with ``sigma_now`` and ``ordinal_now``
    (the rating as of the scope's latest game; the ordinal is the board's figure,
    :meth:`~league.rating_model.ScoreModel.board_value`) and ``rank`` (1 = best).

    The order and the figures are those of :func:`league.ratings.leaderboard`,
    which Python computes from the whole board: the same arithmetic on the same
    doubles, the names by code point, then the player's id for a tie it leaves
    open. So a page of the board, or a few players' rows with their ranks, is
    read without reading the rest (one query: the latest game and the ranks are
    computed in it). Slice it, or filter it by ``rank``, by ``board_player_id``
    (a player's id) or ``board_name`` (the player's name): a filter on a column
    would be applied before the ranking, and rank the rows it keeps among
    themselves, where these are windows too, so filters on them are applied
    after it (Django puts them in an outer query)."""
    model = model_for(scope.game)

    def double(value: float) -> Cast:
        # a literal of the text of a float is an exact decimal to PostgreSQL
        # (0.05, not the double nearest it) and would be multiplied as one
        return Cast(Value(value), FloatField())

    latest = Rating.objects.filter(scope_id=scope.pk).order_by("-last_order_key")
    days = Greatest(
        Value(0),
        _DayNumber(Subquery(latest.values("last_order_key")[:1])) - _DayNumber(F("last_order_key")),
        output_field=IntegerField(),
    )
    variance = ExpressionWrapper(
        F("sigma") * F("sigma") + double(model.idle) * days, output_field=FloatField()
    )
    sigma_now = Least(double(model.sigma), Sqrt(variance), output_field=FloatField())
    # ScoreModel.board_value: mu less 3 x the part of sigma above the provisional threshold
    unsettled = Greatest(
        double(0.0), sigma_now - double(model.provisional_sigma), output_field=FloatField()
    )
    ordinal_now = ExpressionWrapper(F("mu") - double(3.0) * unsettled, output_field=FloatField())
    order = [
        F("ordinal_now").desc(),
        F("mu").desc(),
        _ByCodePoint(F("player__name")).asc(),
        F("player_id").asc(),
    ]
    return (
        Rating.objects.filter(scope_id=scope.pk)
        .select_related("player")
        .annotate(sigma_now=sigma_now, ordinal_now=ordinal_now)
        .annotate(rank=Window(RowNumber(), order_by=order))
        .alias(
            # one rating a player in a scope: each window holds one row
            board_player_id=Window(Max("player_id"), partition_by=[F("player_id")]),
            board_name=Window(Max("player__name"), partition_by=[F("player_id")]),
        )
        .order_by("rank")
    )


def leaderboard_of_players(ranked: QuerySet[Rating], player_ids: list[int]) -> QuerySet[Rating]:
    """The rows of ``ranked`` (:func:`leaderboard_ranked`) of those players,
    with their ranks on the whole board."""
    # by keyword: the alias is a window, which the type stubs do not see as a field
    return ranked.filter(**{"board_player_id__in": player_ids})


def leaderboard_matching(ranked: QuerySet[Rating], query: str) -> QuerySet[Rating]:
    """The rows of ``ranked`` (:func:`leaderboard_ranked`) of the players whose
    name holds ``query`` in any case, with their ranks on the whole board."""
    return ranked.filter(**{"board_name__icontains": query})


class LeaderboardRow(TypedDict):
    """A leaderboard row (:func:`leaderboard_row`)."""

    rank: int
    player_id: int
    player: Player
    ordinal: float
    mu: float
    sigma: float
    games: int
    provisional: bool


def leaderboard_row(rating: Rating, *, game: str) -> LeaderboardRow:
    """A rating of :func:`leaderboard_ranked` as a leaderboard row (no query)."""
    rating.sigma, rating.ordinal = rating.sigma_now, rating.ordinal_now  # type: ignore[attr-defined]
    return {
        "rank": rating.rank,  # type: ignore[attr-defined]
        "player_id": rating.player_id,
        "player": rating.player,
        "ordinal": rating.ordinal,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "games": rating.games,
        "provisional": ratings.is_provisional(rating, game=game),
    }


class BoardAbout(TypedDict):
    """What a leaderboard says beside its rows (:func:`rating_board_about`)."""

    status: str
    rated_at: datetime.datetime | None
    provisional_above_sigma: float | None


def rating_board_about(*, scope: RatingScope | None) -> BoardAbout:
    """What a leaderboard says beside its rows: whether it is up to date
    (``status``), when it was rated and the provisional threshold (no query)."""
    if scope is None:
        return {"status": "up_to_date", "rated_at": None, "provisional_above_sigma": None}
    return {
        "status": "pending" if ratings.is_pending(scope) else "up_to_date",
        "rated_at": scope.rated_at,
        "provisional_above_sigma": model_for(scope.game).provisional_sigma,
    }


def club_game_scope(*, club: Club, game: str) -> RatingScope | None:
    """The club-wide rating scope of ``game``, ``None`` before its first rated game
    (whether it is owed a re-rating annotated: :func:`league.ratings.is_pending`)."""
    scopes = RatingScope.objects.annotate(ratings_owed=ratings.owed_exists())
    return scopes.filter(club=club, game=game, league=None).first()


def league_scope_of(*, league: League) -> RatingScope | None:
    """The league's own rating scope, ``None`` before its first rated game (one
    query, whether it is owed a re-rating annotated: :func:`league.ratings.is_pending`)."""
    scopes = RatingScope.objects.annotate(ratings_owed=ratings.owed_exists())
    return scopes.filter(league=league).first()


def league_scope(league: League) -> RatingScope | None:
    """The league's own rating scope, ``None`` before its first complete game.

    ``league`` must come from :func:`league.selectors.leagues.league_for_page` (no query then, and
    whether the scope is owed a re-rating is known)."""
    try:
        scope = league.rating_scope
    except RatingScope.DoesNotExist:
        return None
    scope.ratings_owed = league.rating_scope_owed  # type: ignore[attr-defined]
    return scope


def scope_rating_count(*, scope_id: int) -> int:
    """How many players the rating scope rates (one query)."""
    return Rating.objects.filter(scope_id=scope_id).count()


def player_rating_history(
    *, player: Player, league_id: int | None = None, game: str | None = None
) -> list[RatingHistory]:
    """The player's rating after each game, oldest first: in the league
    ``league_id``, or club-wide in ``game`` (exactly one is given)."""
    scope = player_scope(player=player, league_id=league_id, game=game)
    return ratings.history_of(scope=scope, player=player) if scope is not None else []


def player_scope(
    *, player: Player, league_id: int | None = None, game: str | None = None
) -> RatingScope | None:
    """The rating scope of the player's club: the league ``league_id``'s, or the
    club-wide one of ``game`` (exactly one is given); ``None`` when there is none
    (one query)."""
    scopes = RatingScope.objects.filter(club_id=player.club_id)
    if league_id is not None:
        return scopes.filter(league_id=league_id).first()
    return scopes.filter(game=game, league=None).first()


@dataclass(frozen=True)
class RatedGame:
    """One game of a player's rating history with why the rating moved
    (``explained`` is ``None`` for a row written before the history kept what
    the game was measured against, until the scope is next re-rated)."""

    row: RatingHistory
    explained: GameExplained | None


def rating_games(*, scope: RatingScope | None, player: Player) -> QuerySet[RatingHistory]:
    """The player's games in the scope, newest first, each with its table, round
    and event (for :func:`explain_games`); none without a scope."""
    if scope is None:
        return RatingHistory.objects.none()
    return (
        RatingHistory.objects.filter(scope=scope, player=player)
        .select_related("table__round__event")
        .order_by("-order_key")
    )


def rating_before(*, scope: RatingScope, player: Player, order_key: str) -> RatingHistory | None:
    """The player's history row just before the game at ``order_key`` (one query):
    the rating a page of :func:`rating_games` starts from."""
    return (
        RatingHistory.objects.filter(scope=scope, player=player, order_key__lt=order_key)
        .order_by("-order_key")
        .first()
    )


def with_tables(rows: Sequence[RatingHistory]) -> list[RatingHistory]:
    """``rows`` with their tables, rounds and events loaded, in one query (a page
    explains a player's latest games, not the whole history the chart draws);
    a row whose table is gone is left out."""
    tables = Table.objects.select_related("round__event").in_bulk({row.table_id for row in rows})
    kept = []
    for row in rows:
        if (table := tables.get(row.table_id)) is not None:
            row.table = table
            kept.append(row)
    return kept


def explain_games(
    rows: Sequence[RatingHistory], *, scope: RatingScope, before: RatingHistory | None
) -> list[RatedGame]:
    """``rows`` (one player's, oldest first), each explained from the row before it
    (``before`` for the first: ``None`` when it is the player's first game), no
    query. A row whose ``table`` is not loaded (:func:`with_tables`) is not
    explained."""
    model = model_for(scope.game)
    lower_is_better = scope.game == Game.BUCK_EUCHRE
    previous = Skill(before.mu, before.sigma) if before is not None else model.new()
    table_loaded = RatingHistory._meta.get_field("table").is_cached
    explained = []
    for row in rows:
        after = Skill(row.mu, row.sigma)
        words = None
        points, mean, expected = row.points, row.mean, row.expected
        if points is not None and mean is not None and expected is not None and table_loaded(row):
            words = explain(
                model,
                before=previous,
                after=after,
                points=points,
                mean=mean,
                expected=expected,
                against_table=bool(row.against_table),
                players=row.table.players,
                lower_is_better=lower_is_better,
                club_wide=scope.league_id is None,
            )
        row.scope = scope  # its ordinal reads the scope's game: no query
        explained.append(RatedGame(row=row, explained=words))
        previous = after
    return explained


@dataclass(frozen=True)
class ScopeRating:
    """A player's current rating in one scope, with the history behind it."""

    scope: RatingScope
    rating: Rating
    provisional: bool
    pending: bool
    history: list[RatingHistory]


def player_ratings(*, player: Player) -> list[ScopeRating]:
    """The player's rating in each scope they are rated in (per league, and
    club-wide per game), as of each scope's latest game, with each one's history,
    in three queries. Ordered by
    game, the leagues by name, then the club-wide scope of that game."""
    rated = list(
        Rating.objects.filter(player=player)
        .select_related("scope__league")
        .annotate(scope_owed=ratings.owed_exists("scope_id"))
    )
    latest = ratings.latest_keys(rating.scope_id for rating in rated) if rated else {}
    for rating in rated:
        ratings.as_of(rating, latest[rating.scope_id], game=rating.scope.game)
        rating.scope.ratings_owed = rating.scope_owed  # type: ignore[attr-defined]
    histories: dict[int, list[RatingHistory]] = {rating.scope_id: [] for rating in rated}
    scopes = {rating.scope_id: rating.scope for rating in rated}
    rows = RatingHistory.objects.filter(scope_id__in=list(histories), player=player).order_by(
        "scope_id", "order_key"
    )
    for row in rows:
        row.scope = scopes[row.scope_id]  # its ordinal reads the scope's game: no query
        histories[row.scope_id].append(row)

    def order(rating: Rating) -> tuple[str, bool, str, int]:
        league = rating.scope.league
        return (rating.scope.game, league is None, league.name if league else "", rating.scope_id)

    return [
        ScopeRating(
            scope=rating.scope,
            rating=rating,
            provisional=ratings.is_provisional(rating, game=rating.scope.game),
            pending=ratings.is_pending(rating.scope),
            history=histories[rating.scope_id],
        )
        for rating in sorted(rated, key=order)
    ]
