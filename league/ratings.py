"""Ratings from the points players score: one rating per player per league, and
one club-wide per game across the club's leagues.

Every complete game moves its players' ratings by how far each one's final total
was from the table's average (Buck Euchre) or from the league's mean total at such
tables (Bluke); :mod:`league.rating_model`'s docstring has the model. Games
are rated in the order they were played (event date, round, table). A change of
results owes each affected scope a re-rating from the changed game on
(:func:`ratings_mark_changed`: a :class:`~league.models.RatingsOwed` row); the
ratings job (:func:`ratings_refresh`) re-rates from the earliest game owed
forward, so a late submission or a correction of an earlier game gives the
ratings a from-scratch run would give, and one new game at the end touches only
its own players' rows.

Locks: the job takes the scope's ratings lock (:func:`ratings_lock`, an
advisory lock, not the scope's row) first and holds it for the whole job, so
one job per scope runs at a time. A change of results takes no lock of the
scope's: it inserts its rows, so a game completes at once however long a
re-rating of its scope runs (a full one of 100,000 games takes seconds).
"""

from __future__ import annotations

import datetime
import functools
import gc
import struct
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Final

from django.contrib.postgres.aggregates import ArrayAgg
from django.db import connection, transaction
from django.db.backends.utils import CursorWrapper
from django.db.models import Count, Exists, F, Max, OuterRef, Q, Sum, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from league import outbox
from league.models import (
    Game,
    JobOwed,
    League,
    Player,
    Rating,
    RatingHistory,
    RatingScope,
    RatingsOwed,
    Seating,
    Table,
)
from league.rating_explain import expected_totals
from league.rating_model import (
    GameToRate,
    LeagueMeans,
    PlayerState,
    ScoreModel,
    Skill,
    luck_points,
    model_for,
)

if TYPE_CHECKING:
    from psycopg import Copy

PLAYED_ORDER: Final = (
    "table__round__event__date",
    "table__round__number",
    "table__number",
    "table_id",
)
"""The order games were played in, as seatings' fields: the order a scope is rated in."""


def is_provisional(rating: Rating, *, game: str) -> bool:
    """Whether a rating of ``game`` is still too unsure to be more than provisional:
    its sigma (as :func:`as_of` sets it) above the model's
    :attr:`~league.rating_model.ScoreModel.provisional_sigma`."""
    return model_for(game).is_provisional(Skill(rating.mu, rating.sigma))


def is_pending(scope: RatingScope) -> bool:
    """Whether results of the scope are still waiting to be (re-)rated: it
    is owed a re-rating (``ratings_owed``, which the read that found it
    annotates: :func:`owed_exists`) or has a ``rerate_from``."""
    return bool(scope.rerate_from) or bool(scope.ratings_owed)  # type: ignore[attr-defined]


def owed_exists(scope: str = "pk") -> Exists:
    """Whether the scope at ``scope`` (a field of the outer query) has
    :class:`~league.models.RatingsOwed` rows: the annotation ``ratings_owed``
    that :func:`is_pending` reads, in the read itself."""
    return Exists(RatingsOwed.objects.filter(scope_id=OuterRef(scope)))


def order_key(table: Table) -> str:
    """A sortable key for when a table's game was played."""
    return _key(table.round.event.date.isoformat(), table.round.number, table.number, table.pk)


def _key(day: str, round_number: int, number: int, table_id: int) -> str:
    # fixed width (the widest small integer, the widest big one), so keys sort as their parts
    return f"{day}/{round_number:05d}/{number:05d}/{table_id:019d}"


KEY_LENGTH: Final = len(_key("2026-01-01", 1, 1, 1))


def scopes_of(league: League) -> list[RatingScope]:
    """The league's own scope and its club-wide scope for the game."""
    league_scope, _ = RatingScope.objects.get_or_create(
        league=league, defaults={"club_id": league.club_id, "game": league.game}
    )
    club_scope, _ = RatingScope.objects.get_or_create(
        club_id=league.club_id, game=league.game, league=None
    )
    return [league_scope, club_scope]


def ratings_mark_changed(*, table: Table) -> list[RatingScope]:
    """Owe the table's scopes a re-rating from its game on: a
    :class:`~league.models.RatingsOwed` row each, inserted without a lock on
    the scopes, so that a running ratings job (which holds its own lock) is
    not waited for. Two queries once the scopes exist.

    Call inside the transaction that changed the results; returns the scopes
    (the league's own first) whose job should run after commit."""
    key = order_key(table)
    league = table.round.event.league
    mine = Q(league=league) | Q(club_id=league.club_id, game=league.game, league=None)
    scopes = list(RatingScope.objects.filter(mine))
    if len(scopes) < 2:  # the league's first game: make them
        scopes = scopes_of(league)
    now = timezone.now()
    RatingsOwed.objects.bulk_create(
        RatingsOwed(scope=scope, rerate_from=key, owed_at=now) for scope in scopes
    )
    return sorted(scopes, key=lambda scope: scope.league_id is None)  # the league's own first


def ratings_lock(*, scope_id: int) -> None:
    """Take the scope's ratings lock until the current transaction ends: the
    ratings job's advisory lock (:func:`league.outbox.job_lock`). Whoever
    writes the scope's ``rerate_from`` holds it, as the job does."""
    outbox.job_lock(JobOwed.Kind.RATINGS, scope_id)


def _scope_games(scope: RatingScope, since: str) -> Q:
    """Seatings of the scope's games that count on or after the date ``since``:
    a seating's place is set exactly while its game counts (complete, and
    confirmed or needing no confirmation)."""
    games = Q(
        place__isnull=False,
        table__round__event__league__club_id=scope.club_id,
        table__round__event__date__gte=since,
    )
    if scope.league_id is not None:
        return games & Q(table__round__event__league_id=scope.league_id)
    return games & Q(table__game=scope.game)


@transaction.atomic
def ratings_refresh(*, scope_id: int) -> int:
    """Re-rate a scope from the earliest game owed forward (its
    :class:`~league.models.RatingsOwed` rows and ``rerate_from``); idempotent.

    Returns the number of games rated (0 when the scope was up to date).

    Takes the scope's ratings lock (:func:`ratings_lock`) first, then reads
    what is owed, then the games: a row owed by a change that commits after
    that read stays, for the next run, and the rows read are deleted at the
    end. Safe to run twice at once: the second waits for the lock, then
    finds nothing owed.

    Reads every game to re-rate first, then rates them in order while the
    new history streams to the database (on PostgreSQL, the database stores
    each batch while the next is rated); ``make bench-ratings`` measures it
    against the model's bare loop."""
    ratings_lock(scope_id=scope_id)
    scope = RatingScope.objects.get(pk=scope_id)
    owed = list(RatingsOwed.objects.filter(scope_id=scope_id).values_list("pk", "rerate_from"))
    keys = [key for _, key in owed]
    if scope.rerate_from:
        keys.append(scope.rerate_from)
    if not keys:
        return 0
    start = min(keys)
    # a player's history reaches ``start`` exactly when their latest game does
    touched = set(
        Rating.objects.filter(scope=scope, last_order_key__gte=start).values_list(
            "player_id", flat=True
        )
    )
    with _collector_paused():
        games = _games_replacing_history(scope, start)
    playing = {player for game in games for player in game[3]}
    state = _state_before(scope, start, touched=touched, playing=playing)
    model = model_for(scope.game)
    means = _means_before(scope, start) if model.against == "league" else None
    seen: list[_Seen] = []
    with _HistoryWriter(scope.pk) as history, _collector_skipping_what_exists():
        add = history.add
        for (table_id, key, _, players, totals, *_), skills, counts in model.rate_games(
            _noting_what_was_expected(games, state, means, model, seen), state, means
        ):
            mean, expected, against_table = seen.pop()
            add(table_id, key, players, skills, counts, totals, mean, expected, against_table)
    _store(scope, state, touched | playing)
    scope.rerate_from = None
    scope.rated_at = timezone.now()
    # the means now count every game rated, through the last one (none rated: the
    # games before ``start`` may end anywhere, so keep nothing and add up next time)
    kept = means is not None and bool(games)
    scope.means = _means_stored(means) if means is not None and kept else {}
    scope.means_through = games[-1][1] if kept else ""
    scope.save(update_fields=["rerate_from", "rated_at", "means", "means_through"])
    _delete_owed([pk for pk, _ in owed])
    return len(games)


_Seen = tuple[float, list[float], bool]
"""What a game was measured against (the mean), the total expected of each of its
players, and whether the mean is the table's average."""


def _noting_what_was_expected(
    games: Iterable[GameToRate],
    state: dict[int, PlayerState],
    means: LeagueMeans | None,
    model: ScoreModel,
    seen: list[_Seen],
) -> Iterator[GameToRate]:
    """``games``, each one's :data:`_Seen` put in ``seen`` as the model's loop
    takes it, before it is rated: the skills in ``state`` and the ``means`` are
    then still those the game is rated from, so the history keeps what the model
    expected (:mod:`league.rating_explain`) with no change to the model's loop."""
    new_mu = model.mu
    for game in games:
        _, _, _, players, totals, luck, lower_is_better, hands = game
        mean = None if means is None else means.expected(players=len(players), hands=hands)
        mus = [state[p][0].mu if p in state else new_mu for p in players]
        expected = expected_totals(
            model, mus, totals, luck=luck, mean=mean, lower_is_better=lower_is_better
        )
        against_table = mean is None
        seen.append((sum(totals) / len(totals) if mean is None else mean, expected, against_table))
        yield game


OWED_DELETE_BATCH: Final = 10_000
"""Rows of :class:`~league.models.RatingsOwed` deleted a statement: an import
of many games owes a row a game, and PostgreSQL takes at most 65,535
parameters in a statement."""


def _delete_owed(ids: Sequence[int]) -> None:
    """Delete the owed rows the job read (by id: rows owed since stay)."""
    for first in range(0, len(ids), OWED_DELETE_BATCH):
        RatingsOwed.objects.filter(pk__in=ids[first : first + OWED_DELETE_BATCH]).delete()


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No garbage collection while the games are read: reading makes a list
    or two per game and a tuple per seat, none of them in a cycle, and the
    collections their numbers set off cost a third of the reading."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def _collector_skipping_what_exists() -> Iterator[None]:
    """Keep the garbage collector off the objects that exist now (the games
    just read, hundreds of thousands of them, live through the whole loop):
    its full collections would scan them again and again, which cost a
    re-rating of 100,000 games more than half a second."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _means_before(scope: RatingScope, start: str) -> LeagueMeans:
    """The league's running means (:class:`~league.rating_model.LeagueMeans`) over
    the scope's complete games played before order key ``start``: one aggregate
    query, by table size and hands played; none for a rating from the start.
    When the scope kept its means through a game before ``start`` (every game
    after that one is then at or after ``start``), those, with no query."""
    if start <= EARLIEST:
        return LeagueMeans()
    if scope.means_through and scope.means_through < start:
        return LeagueMeans(
            {
                (int(players), int(hands)): (int(total), int(count))
                for size, (total, count) in scope.means.items()
                for players, hands in [size.split("/")]
            }
        )
    day, round_number, number, table_id = start.split("/")
    same_day = Q(table__round__event__date=day)
    same_round = same_day & Q(table__round__number=int(round_number))
    same_table = same_round & Q(table__number=int(number))
    before = (
        Q(table__round__event__date__lt=day)
        | (same_day & Q(table__round__number__lt=int(round_number)))
        | (same_round & Q(table__number__lt=int(number)))
        | (same_table & Q(table_id__lt=int(table_id)))
    )
    sums = (
        Seating.objects.filter(_scope_games(scope, EARLIEST), before)
        .values("table__players", "table__hands_played")
        .annotate(total=Sum("total"), seats=Count("id"))
        .order_by()
    )
    return LeagueMeans(
        {
            (row["table__players"], row["table__hands_played"]): (row["total"], row["seats"])
            for row in sums
        }
    )


def _means_stored(means: LeagueMeans) -> dict[str, list[int]]:
    """``means`` as :attr:`RatingScope.means` keeps them (JSON keys are text)."""
    return {
        f"{players}/{hands}": [total, count]
        for (players, hands), (total, count) in means.sums.items()
    }


def _games_replacing_history(scope: RatingScope, start: str) -> list[GameToRate]:
    """Delete the scope's rating history from ``start`` on, and return its
    complete games from ``start`` on, in the order played (:func:`scope_games`)."""
    RatingHistory.objects.filter(scope=scope, order_key__gte=start).delete()
    return scope_games(scope, start)


def scope_games(scope: RatingScope, start: str = "") -> list[GameToRate]:
    """The scope's complete games from order key ``start`` on, in the order played.

    One query of plain tuples on a raw cursor: a re-rating may read a hundred
    thousand games, and model rows would cost more than the rating. On PostgreSQL
    each game is one row (its players and totals aggregated in seat order), a
    quarter of the rows to fetch and group; elsewhere one row a seat."""
    where = Seating.objects.filter(_scope_games(scope, start[:10] or EARLIEST))
    table = (
        "table_id",
        "table__round__event__date",
        "table__round__number",
        "table__number",
        "table__game",
        "table__hands_played",
    )
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            grouped = (
                where.values(*table)
                .annotate(
                    seated=ArrayAgg("player_id", order_by="seat"),
                    scores=ArrayAgg("total", order_by="seat"),
                )
                .order_by(*PLAYED_ORDER)
                .values_list(*table, "seated", "scores")
            )
            # sort the whole scope in memory (the default spills to disk)
            cursor.execute("SET LOCAL work_mem = '64MB'")
            cursor.execute(*grouped.query.sql_with_params())
            return _grouped_games(cursor, start)
        seatings = where.order_by(*PLAYED_ORDER, "seat").values_list(*table, "player_id", "total")
        cursor.execute(*seatings.query.sql_with_params())
        return _games_of(cursor, start)


def _grouped_games(cursor: CursorWrapper, start: str) -> list[GameToRate]:
    """The games of :func:`scope_games`' PostgreSQL query, one row a game."""
    games: list[GameToRate] = []
    while rows := cursor.fetchmany(20_000):
        for table_id, date, round_number, number, game, hands, players, totals in rows:
            day = date.isoformat()
            key = _key(day, round_number, number, table_id)
            if key >= start:  # not an earlier round or table of the same date
                games.append(_game((table_id, key, _day(day), game, hands), players, totals))
    return games


def _games_of(cursor: CursorWrapper, start: str) -> list[GameToRate]:
    """The games of :func:`scope_games`' query of one row a seat, grouped."""
    games: list[GameToRate] = []
    current = None
    players: list[int] = []
    totals: list[float] = []
    pending: tuple[int, str, int, str, int] | None = None
    while rows := cursor.fetchmany(20_000):
        for table_id, date, round_number, number, game, hands, player, total in rows:
            if table_id != current:
                if pending is not None:
                    games.append(_game(pending, players, totals))
                current = table_id
                # SQLite hands dates back as text
                day = date if isinstance(date, str) else date.isoformat()
                key = _key(day, round_number, number, table_id)
                players, totals = [], []
                # not an earlier round or table of the same date
                pending = (table_id, key, _day(day), game, hands) if key >= start else None
            players.append(player)
            totals.append(total)
    if pending is not None:
        games.append(_game(pending, players, totals))
    return games


def _game(
    table: tuple[int, str, int, str, int], players: list[int], totals: list[float]
) -> GameToRate:
    table_id, key, day, game, hands = table
    luck = luck_points(game, len(players), hands=hands)
    return (table_id, key, day, players, totals, luck, game == Game.BUCK_EUCHRE, hands)


@functools.cache
def _day(iso_date: str) -> int:
    """A date (``YYYY-MM-DD``, as order keys begin) as its day number."""
    return datetime.date.fromisoformat(iso_date[:10]).toordinal()


class _HistoryWriter:
    """Inserts rating history rows for one scope in batches.

    On PostgreSQL the rows stream through one binary ``COPY``, packed here
    with :mod:`struct` (psycopg's per-value ``write_row`` costs a third of
    the rating itself): the database stores each batch on its own core
    while the caller rates the next. Elsewhere, batched inserts."""

    BATCH: Final = 4_000
    SIGNATURE: Final = b"PGCOPY\n\xff\r\n\0" + bytes(8)
    """Binary COPY's header: the signature, no flags, no extension."""
    TRAILER: Final = b"\xff\xff"
    ROW: Final = struct.Struct(f"!hiqiqiqi{KEY_LENGTH}sididiiidididi?")
    """One row: its 11 fields, each its length then its value (three bigint
    ids, the order key, two float8, an int4, three float8 and a bool: the points,
    mean and expected total :mod:`league.rating_explain` words)."""
    PACK: Final = ROW.pack
    ROW_BYTES: Final = ROW.size

    def __init__(self, scope_id: int) -> None:
        self.scope_id = scope_id
        self.stack = ExitStack()
        self.copy: Copy | None = None
        self.rows: list[RatingHistory] = []
        self.packed = bytearray()

    def __enter__(self) -> _HistoryWriter:
        if connection.vendor == "postgresql":
            cursor = self.stack.enter_context(connection.cursor())
            table = RatingHistory._meta.db_table
            columns = (
                "scope_id, player_id, table_id, order_key, mu, sigma, games,"
                " points, mean, expected, against_table"
            )
            self.copy = self.stack.enter_context(
                cursor.copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)")
            )
            self.copy.write(self.SIGNATURE)
        return self

    def add(
        self,
        table_id: int,
        key: str,
        players: Sequence[int],
        skills: Sequence[Skill],
        counts: Sequence[int],
        totals: Sequence[float],
        mean: float,
        expected: Sequence[float],
        against_table: bool,
    ) -> None:
        """The history rows of one game: its players' new skills and game counts,
        their totals, what the game was measured against (``mean``, the table's
        average when ``against_table``) and the total expected of each."""
        if self.copy is None:
            self.rows.extend(
                RatingHistory(
                    scope_id=self.scope_id,
                    player_id=player,
                    table_id=table_id,
                    order_key=key,
                    mu=skill.mu,
                    sigma=skill.sigma,
                    games=n,
                    points=points,
                    mean=mean,
                    expected=hoped,
                    against_table=against_table,
                )
                for player, skill, n, points, hoped in zip(
                    players, skills, counts, totals, expected, strict=True
                )
            )
            if len(self.rows) >= self.BATCH:
                self.flush()
            return
        scope, pack, size, packed = self.scope_id, self.PACK, KEY_LENGTH, self.packed
        encoded = key.encode()
        for player, skill, n, points, hoped in zip(
            players, skills, counts, totals, expected, strict=True
        ):
            packed += pack(
                11, 8, scope, 8, player, 8, table_id, size, encoded,
                8, skill.mu, 8, skill.sigma, 4, n,
                8, float(points), 8, mean, 8, hoped, 1, against_table,
            )  # fmt: skip
        if len(packed) >= self.BATCH * self.ROW_BYTES:
            self.flush()

    def flush(self) -> None:
        """Send what is waiting to the database."""
        if self.copy is None:
            RatingHistory.objects.bulk_create(self.rows)
            self.rows = []
        elif self.packed:
            self.copy.write(self.packed)
            self.packed = bytearray()

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        with self.stack:
            if kind is None:
                self.flush()
                if self.copy is not None:
                    self.copy.write(self.TRAILER)


def _state_before(
    scope: RatingScope, start: str, *, touched: set[int], playing: set[int]
) -> dict[int, PlayerState]:
    """(mu, sigma, games, latest order key) before the game at ``start`` for
    the players whose ratings the re-rating reads or rewrites: the stored
    rating of those the re-rated games did not touch before, the last history
    row before ``start`` of those they did (one query each)."""
    state = {
        r.player_id: (Skill(r.mu, r.sigma), r.games, _day(r.last_order_key), r.last_order_key)
        for r in Rating.objects.filter(scope=scope, player_id__in=playing - touched)
    }
    if touched:
        latest = (
            RatingHistory.objects.filter(scope=scope, player_id__in=touched, order_key__lt=start)
            .annotate(
                newest=Window(
                    RowNumber(), partition_by=[F("player_id")], order_by=F("order_key").desc()
                )
            )
            .filter(newest=1)
        )
        for row in latest:
            state[row.player_id] = (
                Skill(row.mu, row.sigma),
                row.games,
                _day(row.order_key),
                row.order_key,
            )
    return state


def _store(scope: RatingScope, state: dict[int, PlayerState], players: Iterable[int]) -> None:
    """Write the current ratings of ``players`` in one upsert, and delete
    those left with no game."""
    players = set(players)
    board_value = model_for(scope.game).board_value
    rows = [
        Rating(
            scope=scope,
            player_id=player,
            mu=skill.mu,
            sigma=skill.sigma,
            ordinal=board_value(skill),
            games=n,
            last_order_key=key,
        )
        for player, (skill, n, _, key) in state.items()
        if player in players
    ]
    Rating.objects.bulk_create(
        rows,
        batch_size=5_000,
        update_conflicts=True,
        unique_fields=["scope", "player"],
        update_fields=["mu", "sigma", "ordinal", "games", "last_order_key"],
    )
    gone = players - {row.player_id for row in rows}
    if gone:
        Rating.objects.filter(scope=scope, player_id__in=gone).delete()


def leaderboard(*, scope: RatingScope) -> list[Rating]:
    """Best first: by ordinal (the board's figure,
    :meth:`~league.rating_model.ScoreModel.board_value`), then mu, then name, each
    rating as of the scope's latest game (:func:`as_of`)."""
    board = list(Rating.objects.filter(scope=scope).select_related("player"))
    latest = max((rating.last_order_key for rating in board), default=EARLIEST)
    for rating in board:
        as_of(rating, latest, game=scope.game)
    board.sort(key=lambda r: (-r.ordinal, -r.mu, r.player.name))
    return board


def as_of(rating: Rating, latest_key: str, *, game: str) -> Rating:
    """``rating`` with its ``sigma`` and ``ordinal`` (the board's figure) set, in
    memory, to what they are at the scope's latest game (order key
    ``latest_key``): uncertainty grows with the days the scope played on without
    the player
    (:meth:`ScoreModel.after_idle`), so someone away for months shows as less
    certain, and lower, until they play again. Measured against the scope's games,
    not the calendar, so a board does not change while nobody plays. The stored row
    keeps the values after the player's last game, as the history does."""
    away = _day(latest_key) - _day(rating.last_order_key)
    model = model_for(game)
    now = model.after_idle(Skill(rating.mu, rating.sigma), days=away)
    rating.sigma, rating.ordinal = now.sigma, model.board_value(now)
    return rating


def latest_keys(scope_ids: Iterable[int]) -> dict[int, str]:
    """Each scope's latest rated game (its order key), in one query."""
    rows = (
        Rating.objects.filter(scope_id__in=list(scope_ids))
        .values("scope_id")
        .annotate(latest=Max("last_order_key"))
    )
    return {row["scope_id"]: row["latest"] for row in rows}


def history_of(*, scope: RatingScope, player: Player) -> list[RatingHistory]:
    rows = list(
        RatingHistory.objects.filter(scope=scope, player=player)
        .select_related("table__round__event")
        .order_by("order_key")
    )
    for row in rows:
        row.scope = scope  # its ordinal reads the scope's game: no query a row
    return rows


@transaction.atomic
def ratings_rebuild(*, scope: RatingScope) -> int:
    """Re-rate a scope from its first game (after a change of model, say),
    under its ratings lock (so after any job of the scope that runs)."""
    ratings_lock(scope_id=scope.pk)
    RatingScope.objects.filter(pk=scope.pk).update(rerate_from=EARLIEST)
    return ratings_refresh(scope_id=scope.pk)


EARLIEST: Final = "0001-01-01"
"""An order key before every game."""
