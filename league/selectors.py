"""Reads of the league, shaped for the pages and the API."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from django.db.models import (
    Count,
    Exists,
    ExpressionWrapper,
    F,
    FloatField,
    Func,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    Window,
    prefetch_related_objects,
)
from django.db.models.functions import Cast, Coalesce, Greatest, Least, RowNumber, Sqrt
from django.utils import timezone

import games
from league import ratings, standings
from league.models import (
    Attendance,
    Club,
    Event,
    Hand,
    HandSeat,
    League,
    Membership,
    PersonalLink,
    Player,
    Rating,
    RatingHistory,
    RatingScope,
    Reply,
    Round,
    Seating,
    SitOut,
    Standing,
    Table,
    TableStatus,
)
from league.names import is_close
from league.outputs import confirmation_data
from league.rating_model import model_for
from league.seating import PastRound
from league.statements import JoinedRead


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


def score_sheet(*, table: Table, rules: games.Rules | None = None) -> dict[str, Any]:
    """A table's score sheet in three queries, whatever the number of hands.

    ``table`` must come with its round, event and league (``select_related``)
    and without seatings fetched before (they are fetched here, fresh);
    ``rules`` are the table's (:func:`table_rules`), when the caller has them.
    """
    prefetch_related_objects(
        [table],
        Prefetch("seatings", queryset=Seating.objects.select_related("player").order_by("seat")),
    )
    hands = list(Hand.objects.filter(table=table).prefetch_related("seats").order_by("number"))
    next_hand = sheet_next_hand(table=table, rules=rules)
    return {
        "table": table,
        "hands": hands,
        "next_hand": next_hand,
        "confirmation": confirmation_data(table),
    }


def table_rules(table: Table) -> games.Rules:
    """The rules the table's game is played by (no query: the league comes with the table)."""
    league = table.round.event.league
    return games.rules_for(league.game, table.players, league.options)


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


class _DayNumber(Func):
    """The day number of the date an order key begins with (``YYYY-MM-DD``):
    days since 0001-01-01, so two of them differ as Python's
    ``date.toordinal()`` of the two dates do (:func:`league.ratings.as_of`)."""

    output_field = IntegerField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        # julianday() of two midnights differ by a whole number, exactly
        template = (
            "CAST(julianday(SUBSTR(%(expressions)s, 1, 10)) - julianday('0001-01-01') AS INTEGER)"
        )
        return self.as_sql(compiler, connection, template=template, **extra)

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        template = "(CAST(SUBSTRING(%(expressions)s FROM 1 FOR 10) AS date) - DATE '0001-01-01')"
        return self.as_sql(compiler, connection, template=template, **extra)


class _ByCodePoint(Func):
    """A text compared by code point, as Python's sort compares it (the "C"
    collation on PostgreSQL; SQLite's default already)."""

    template = "%(expressions)s"

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
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


def leaderboard_row(rating: Rating, *, game: str) -> dict[str, Any]:
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


def rating_board_about(*, scope: RatingScope | None) -> dict[str, Any]:
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


def player_rating_history(
    *, player: Player, league_id: int | None = None, game: str | None = None
) -> list[RatingHistory]:
    """The player's rating after each game, oldest first: in the league
    ``league_id``, or club-wide in ``game`` (exactly one is given)."""
    scopes = RatingScope.objects.filter(club_id=player.club_id)
    if league_id is not None:
        scope = scopes.filter(league_id=league_id).first()
    else:
        scope = scopes.filter(game=game, league=None).first()
    return ratings.history_of(scope=scope, player=player) if scope is not None else []


def standing_row(row: Standing) -> dict[str, Any]:
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
) -> list[dict[str, Any]]:
    """The standings of the league's games played in a date range, computed
    now (they are not stored), in the rows of :func:`standing_row`."""
    now = timezone.now()
    return [
        {**row, "player_name": row["name"], "computed_at": now}
        for row in standings.standing_rows(
            league=league, date_after=date_after, date_before=date_before
        )
    ]


# -- the members' pages (league.web.pages) -------------------------------------------
# Each read below is one query (or a fixed few), whatever the number of games,
# hands, players or events: the pages' query counts are tested.


def league_for_page() -> QuerySet[League]:
    """Leagues with what the league page shows beside them: the club and
    the league's rating scope (``rating_scope``, absent before any rating),
    whether that scope is owed a re-rating, the id of its final night
    (``final_id``, ``None`` before it is made) and how many game nights its
    season has (``season_nights``, the final aside)."""
    nights = Event.objects.filter(league=OuterRef("pk"), is_final=False)
    return League.objects.select_related("club", "rating_scope").annotate(
        rating_scope_owed=ratings.owed_exists("rating_scope"),
        final_id=Subquery(
            Event.objects.filter(league=OuterRef("pk"), is_final=True).values("pk")[:1]
        ),
        season_nights=Coalesce(
            Subquery(nights.order_by().values("league").annotate(n=Count("pk")).values("n")[:1]),
            0,
        ),
    )


def league_scope(league: League) -> RatingScope | None:
    """The league's own rating scope, ``None`` before its first complete game.

    ``league`` must come from :func:`league_for_page` (no query then, and
    whether the scope is owed a re-rating is known)."""
    try:
        scope = league.rating_scope
    except RatingScope.DoesNotExist:
        return None
    scope.ratings_owed = league.rating_scope_owed  # type: ignore[attr-defined]
    return scope


# The league's lists, of any length: the league page shows their tops, the
# full lists (league.web.lists) a page at a time. Each read is one query.


def club_player_id(*, user: Any, club_id: int) -> int | None:
    """The id of ``user``'s player in the club, ``None`` when they have none
    (one query; none for an anonymous user)."""
    if not user.is_authenticated:
        return None
    return Player.objects.filter(club_id=club_id, user=user).values_list("pk", flat=True).first()


def standings_matching(*, league: League, query: str = "") -> QuerySet[Standing]:
    """The league's stored standings, best first, of the players whose name
    contains ``query`` in any case (everyone's for an empty one), with the
    players: slice or paginate it."""
    rows = league_standings(league=league)
    return rows.filter(player__name__icontains=query) if query else rows


def first_rows(rows: QuerySet[Any], *, limit: int) -> tuple[list[Any], int]:
    """The first ``limit`` of ``rows`` and how many there are in all, in one
    query: a window count, which the database takes before the limit."""
    got = list(rows.annotate(rows_in_all=Window(Count("pk")))[:limit])
    return got, (got[0].rows_in_all if got else 0)


def standing_of(*, league: League, player_id: int) -> Standing | None:
    """The player's row in the league's stored standings, with the player;
    ``None`` before they have one."""
    return league_standings(league=league).filter(player_id=player_id).first()


def league_events_latest(*, league: League) -> QuerySet[Event]:
    """The league's events, the latest first: slice or paginate it, then
    count their tables with :func:`event_lines`."""
    return Event.objects.filter(league=league).order_by("-date", "-id")


@dataclass(frozen=True)
class EventLine:
    """An event with how many tables it has, and how many of them are complete."""

    event: Event
    tables: int
    tables_complete: int


def event_lines(events: Sequence[Event]) -> list[EventLine]:
    """``events`` with their tables counted, in their order: one query for
    any number of events (none for none), that counts their tables only."""
    counts = {
        row["round__event_id"]: row
        for row in Table.objects.filter(round__event__in=[event.pk for event in events])
        .order_by()
        .values("round__event_id")
        .annotate(tables=Count("pk"), complete=Count("pk", filter=Q(complete=True)))
    }
    return [
        EventLine(
            event=event,
            tables=counts.get(event.pk, {}).get("tables", 0),
            tables_complete=counts.get(event.pk, {}).get("complete", 0),
        )
        for event in events
    ]


def calendar_events(
    *, club: Club, league: League | None = None, since: datetime.date
) -> QuerySet[Event]:
    """The club's (or one league's) events on or after ``since``, in date order,
    each with its league and rounds (three queries, whatever the count)."""
    events = Event.objects.filter(league__club=club, date__gte=since)
    if league is not None:
        events = events.filter(league=league)
    return (
        events.select_related("league")
        .prefetch_related(Prefetch("rounds", queryset=Round.objects.only("id", "event_id")))
        .order_by("date", "start_time", "id")
    )


@dataclass(frozen=True)
class DrawState:
    """How far an event's rounds are drawn: ``last_drawn``, the highest round
    number that has tables (0 before the first), and ``next_round``, the
    first round after it (``None`` when every round is drawn)."""

    last_drawn: int
    next_round: int | None


def event_draw_state(*, event: Event) -> DrawState:
    """Which rounds of the event have tables (one query)."""
    rounds = Round.objects.filter(event=event).annotate(
        drawn=Exists(Table.objects.filter(round=OuterRef("pk")))
    )
    return draw_state_of(rounds.values_list("number", "drawn"))


def draw_state_of(rounds: Iterable[tuple[int, bool]]) -> DrawState:
    """The :class:`DrawState` of rounds given as (number, has tables), for a
    caller that has read them already.

    >>> draw_state_of([(1, True), (2, False), (3, False)])
    DrawState(last_drawn=1, next_round=2)
    """
    numbers = list(rounds)
    last_drawn = max((number for number, drawn in numbers if drawn), default=0)
    later = [number for number, _ in numbers if number > last_drawn]
    return DrawState(last_drawn=last_drawn, next_round=min(later, default=None))


def event_attendance(*, event: Event) -> list[Attendance]:
    """The event's attendance by player name, with the players and who
    changed each row (one query)."""
    return list(
        Attendance.objects.filter(event=event)
        .select_related("player", "changed_by")
        .order_by("player__name", "player_id")
    )


def players_present(*, event: Event, round_number: int) -> QuerySet[Player]:
    """The players present for round ``round_number`` of the event: those
    whose attendance runs from that round or before to that round or after."""
    return Player.objects.filter(
        Q(attendance__event=event)
        & Q(attendance__from_round__lte=round_number)
        & (Q(attendance__until_round__isnull=True) | Q(attendance__until_round__gte=round_number))
    ).order_by("name")


SEATING_HISTORY_EVENTS = 20
"""How many of the league's earlier events a draw looks back on: a meeting
further back weighs the least there is, and reading a whole season of a big
league for one round would cost more than it tells."""


def seating_history(*, round: Round) -> list[PastRound[int]]:
    """Who met whom, and who sat out, at the league's rounds before ``round``:
    this event's earlier rounds (``events_ago`` 0) and the last
    :data:`SEATING_HISTORY_EVENTS` events (1 for the last), oldest first.
    Two queries."""
    event = round.event
    earlier = list(
        Event.objects.filter(league_id=event.league_id)
        .filter(Q(date__lt=event.date) | Q(date=event.date, pk__lt=event.pk))
        .order_by("-date", "-pk")
        .values_list("pk", flat=True)[:SEATING_HISTORY_EVENTS]
    )
    events_ago = {event.pk: 0, **{pk: n for n, pk in enumerate(earlier, start=1)}}
    before = Q(round__event_id__in=events_ago) & ~Q(
        round__event_id=event.pk, round__number__gte=round.number
    )
    tables: dict[tuple[int, int], dict[int, list[int]]] = {}
    for event_id, number, table_id, player_id in (
        Seating.objects.filter(before)
        .order_by("table_id", "seat")
        .values_list("round__event_id", "round__number", "table_id", "player_id")
    ):
        tables.setdefault((event_id, number), {}).setdefault(table_id, []).append(player_id)
    sat_out: dict[tuple[int, int], list[int]] = {}
    for event_id, number, player_id in (
        SitOut.objects.filter(before)
        .order_by("player_id")
        .values_list("round__event_id", "round__number", "player_id")
    ):
        sat_out.setdefault((event_id, number), []).append(player_id)
    rounds = sorted(set(tables) | set(sat_out), key=lambda key: (-events_ago[key[0]], key[1]))
    return [
        PastRound(
            tables=tuple(tuple(players) for players in tables.get(key, {}).values()),
            sit_out=tuple(sat_out.get(key, ())),
            events_ago=events_ago[key[0]],
        )
        for key in rounds
    ]


def seating_ranking(*, round: Round, by_rating: bool, players: Sequence[Player]) -> list[int]:
    """The ids of ``players`` best first, for drawing ``swiss`` (tonight's
    standings, then the league's) or ``rating`` (the league's rating
    leaderboard) tables; players in neither come last, by name. One query."""
    league = round.event.league
    if by_rating:
        ranked = list(
            Rating.objects.filter(scope__league=league)
            .order_by("-ordinal", "-mu", "player__name")
            .values_list("player_id", flat=True)
        )
    else:
        rows = Standing.objects.filter(league=league).filter(
            Q(event=round.event) | Q(event__isnull=True)
        )
        ranked = [
            player_id
            for _, _, player_id in sorted(
                rows.values_list("event_id", "rank", "player_id"),
                key=lambda row: (row[0] is None, row[1]),
            )
        ]
    wanted = {player.pk for player in players}
    first = [pk for pk in dict.fromkeys(ranked) if pk in wanted]
    placed = set(first)
    rest = sorted((p for p in players if p.pk not in placed), key=lambda p: (p.name, p.pk))
    return [*first, *(player.pk for player in rest)]


def event_for_page() -> QuerySet[Event]:
    """Events with their league and club, which the event page names and links."""
    return Event.objects.select_related("league__club")


@dataclass(frozen=True)
class SeatLine:
    """A seat at a table as the event page shows it: the final total and
    place once the game is complete, the running total before."""

    seat: int
    player: Player
    total: int | None
    place: int | None


@dataclass(frozen=True)
class TableLines:
    """A table of an event with its seats, in seat order."""

    table: Table
    seats: list[SeatLine]

    @property
    def status(self) -> TableStatus:
        return self.table.status


@dataclass(frozen=True)
class RoundTables:
    """A round of an event with its tables, in table order."""

    round: Round
    tables: list[TableLines]
    sat_out: list[Player]
    """Who was drawn to no table (Buck Euchre), by name."""


def round_tables_prefetch() -> Prefetch:
    """A round's tables by number, each with its seatings in seat order and their
    players (two queries, for any number of rounds)."""
    return Prefetch(
        "tables",
        queryset=Table.objects.order_by("number").prefetch_related(
            Prefetch("seatings", queryset=Seating.objects.select_related("player").order_by("seat"))
        ),
    )


def event_rounds(*, event: Event) -> list[RoundTables]:
    """The event's rounds, their tables and each table's seats with players,
    and who sat out (four queries: rounds, tables, seatings with their
    players, sit-outs with theirs)."""
    rounds = Round.objects.filter(event=event).prefetch_related(
        round_tables_prefetch(),
        Prefetch("sit_outs", queryset=SitOut.objects.select_related("player")),
    )
    return [
        RoundTables(
            round=round_,
            tables=[TableLines(table=t, seats=seat_lines(t)) for t in round_.tables.all()],
            sat_out=[sit_out.player for sit_out in round_.sit_outs.all()],
        )
        for round_ in rounds.order_by("number")
    ]


def seat_lines(table: Table) -> list[SeatLine]:
    """Each seat's running total (the final one once the game is complete),
    with its place once the game counts."""
    running = table.totals
    lines = []
    for seating in table.seatings.all():
        total = running[seating.seat] if seating.seat < len(running) else None
        place = seating.place if table.counts else None
        lines.append(SeatLine(seat=seating.seat, player=seating.player, total=total, place=place))
    return lines


def player_for_page() -> QuerySet[Player]:
    """Players with their club, which the profile names."""
    return Player.objects.select_related("club")


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
    for row in RatingHistory.objects.filter(scope_id__in=list(histories), player=player).order_by(
        "scope_id", "order_key"
    ):
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


def player_recent_games(*, player: Player, limit: int = 10) -> list[Seating]:
    """The player's latest games that count, the latest first (in the order
    played, as the ratings count them), with table, round, event and league."""
    return list(
        Seating.objects.filter(player=player, place__isnull=False)
        .select_related("table__round__event__league")
        .order_by(*(f"-{field}" for field in ratings.PLAYED_ORDER))[:limit]
    )


def player_standings(*, player: Player) -> list[Standing]:
    """The player's stored standing rows, one per league they played a
    complete game in, with the league; by game, then league name."""
    return list(
        Standing.objects.filter(player=player, event__isnull=True)
        .select_related("league")
        .order_by("league__game", "league__name", "league_id")
    )


def player_data(*, player: Player) -> dict[str, Any]:
    """Everything the league keeps about a player, for them to take away
    (the player's own data, on request): who they are, their login's username,
    the game nights they attended, every game they sat at with its seat,
    total, place and confirmation, their standing lines and their ratings
    with each one's history, their replies to game nights and when their
    personal link was made. Nine queries, whatever the number of games."""
    seatings = (
        Seating.objects.filter(player=player)
        .select_related("table__round__event__league")
        .order_by("table__round__event__date", "table__round__number", "table__number")
    )
    games = []
    for seating in seatings:
        table = seating.table
        event = table.round.event
        games.append(
            {
                "league": event.league.name,
                "event": event.name,
                "date": event.date.isoformat(),
                "round": table.round.number,
                "table": table.number,
                "seat": seating.seat,
                "hands": table.hands_played,
                "complete": table.complete,
                "total": table.totals[seating.seat] if seating.seat < len(table.totals) else None,
                "place": seating.place,
                "confirmation": table.confirmation,
            }
        )
    attended = (
        Attendance.objects.filter(player=player)
        .select_related("event__league")
        .order_by("event__date", "event_id")
    )
    lines = Standing.objects.filter(player=player).select_related("league", "event")
    answered = (
        Reply.objects.filter(player=player)
        .select_related("event__league")
        .order_by("event__date", "event_id")
    )
    link = PersonalLink.objects.filter(player=player).first()
    return {
        "player": {
            "id": player.pk,
            "name": player.name,
            "club": player.club.name,
            "is_guest": player.is_guest,
            "login": player.user.get_username() if player.user is not None else None,
        },
        "attendance": [
            {
                "league": row.event.league.name,
                "event": row.event.name,
                "date": row.event.date.isoformat(),
                "from_round": row.from_round,
                "until_round": row.until_round,
            }
            for row in attended
        ],
        "games": games,
        "standings": [
            {
                "league": line.league.name,
                "event": line.event.name if line.event is not None else None,
                "rank": line.rank,
                "games": line.games,
                "wins": line.wins,
                "average_place": line.average_place,
                "total_points": line.total_points,
            }
            for line in lines.order_by("league__name", "event__date", "event_id")
        ],
        "ratings": [
            {
                "scope": rated.scope.league.name
                if rated.scope.league
                else f"club-wide {rated.scope.game}",
                "mu": rated.rating.mu,
                "sigma": rated.rating.sigma,
                "ordinal": rated.rating.ordinal,
                "games": rated.rating.games,
                "history": [
                    {"mu": row.mu, "sigma": row.sigma, "games": row.games} for row in rated.history
                ],
            }
            for rated in player_ratings(player=player)
        ],
        "replies": [
            {
                "league": reply.event.league.name,
                "event": reply.event.name,
                "date": reply.event.date.isoformat(),
                "answer": reply.answer,
                "answered_at": reply.answered_at.isoformat(),
            }
            for reply in answered
        ],
        "personal_link": None if link is None else {"created_at": link.created_at.isoformat()},
    }


# -- the score sheet page and result entry (league.web.entry) --------------------


def club_role(user: Any, club_id: int) -> str | None:
    """``user``'s role in the club (organiser or scorekeeper), ``None`` for no
    role or an anonymous user (the question :mod:`league.access` asks)."""
    if not user.is_authenticated:
        return None
    return (
        Membership.objects.filter(club_id=club_id, user=user).values_list("role", flat=True).first()
    )


def is_club_player(user: Any, club_id: int) -> bool:
    """Whether ``user`` is linked to one of the club's players: a member of
    the club, though without a role unless :func:`club_role` says so."""
    return user.is_authenticated and Player.objects.filter(club_id=club_id, user=user).exists()


def organised_club_ids(user: Any) -> set[int]:
    """The clubs ``user`` organises (one query; none, and no query, for an
    anonymous user): where a page listing clubs shows them a "Manage" link."""
    if not user.is_authenticated:
        return set()
    return set(
        Membership.objects.filter(user=user, role=Membership.Role.ORGANISER).values_list(
            "club_id", flat=True
        )
    )


def member_club_ids(user: Any) -> set[int]:
    """The clubs ``user`` is a member of: holds a role in, or is linked to a
    player of (one query; none, and no query, for an anonymous user). A
    club's memberships and its players' logins are shown to them alone."""
    if not user.is_authenticated:
        return set()
    roles = Membership.objects.filter(user=user).order_by().values_list("club_id", flat=True)
    players = Player.objects.filter(user=user).order_by().values_list("club_id", flat=True)
    return set(roles.union(players))


SHEET_TABLE: Final = "round__event__league__club"
"""What a score sheet's table is read with."""


def sheet_table(table_id: int) -> Table:
    """A table with its round, event, league and club, in one query (the
    score sheet's header and the entry forms' access check need them all).
    Raises ``Table.DoesNotExist``."""
    return Table.objects.select_related(SHEET_TABLE).get(pk=table_id)


SHEET_TABLE_AND_ROLE: Final = JoinedRead(
    model=Table,
    related=(SHEET_TABLE,),
    extra=(
        (
            "caller_role",
            f"SELECT role FROM {Membership._meta.db_table} m"
            " WHERE m.club_id = round__event__league.club_id AND m.user_id = %s LIMIT 1",
        ),
    ),
    where="base.id = %s",
)
"""A table read as :func:`sheet_table` reads it, with the role in its club of
the user given (``caller_role``, ``None`` for none): the API's and the entry
pages' access check, before every submission, in one statement made once."""


def sheet_table_and_role(table_id: int, user: Any) -> tuple[Table, str | None]:
    """:func:`sheet_table`, and ``user``'s role in the table's club (what
    :func:`club_role` says) read by the same query. Raises ``Table.DoesNotExist``."""
    if not user.is_authenticated:
        return sheet_table(table_id), None
    table = SHEET_TABLE_AND_ROLE.get(user.pk, table_id)
    if table is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    return table, getattr(table, "caller_role")  # noqa: B009 (set by the read)


def hand_data(hand: Hand, lines: Iterable[HandSeat]) -> dict[str, Any]:
    """A hand and its lines as the API renders them
    (:class:`league.api.serializers.HandOutput`) and the audit trail records
    them (:mod:`league.audit`), so the two always agree."""
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "cards": hand.cards,
        "trump": hand.trump or None,
        "maker": hand.maker,
        "drops": hand.drops,
        "takes_all": hand.takes_all,
        "is_move_log": hand.is_move_log,
        "seats": [
            {
                "seat": line.seat,
                "bid": line.bid,
                "tricks": line.tricks,
                "points": line.points,
                "total": line.total,
            }
            for line in lines
        ],
    }


def sheet_seatings(*, table: Table) -> list[Seating]:
    """The table's seatings with their players, in seat order (one query)."""
    return list(Seating.objects.filter(table=table).select_related("player").order_by("seat"))


def sheet_next_hand(*, table: Table, rules: games.Rules | None = None) -> dict[str, int] | None:
    """The next hand's number, dealer and cards, from the table row alone (no
    query); ``None`` once the game is complete."""
    if table.complete:
        return None
    tally = games.GameTally(
        rules if rules is not None else table_rules(table),
        first_dealer=table.first_dealer,
        hands_played=table.hands_played,
        totals=table.totals,
    )
    return next_hand_of(tally)


def sheet_hand(*, table: Table, number: int) -> tuple[Hand, list[HandSeat]] | None:
    """A stored hand with its seat lines in seat order, in one query; ``None``
    when the table has no hand ``number``."""
    lines = list(
        HandSeat.objects.filter(hand__table=table, hand__number=number)
        .select_related("hand")
        .order_by("seat")
    )
    if not lines:
        return None
    return lines[0].hand, lines


# -- a league's final night (league.services.finals) ---------------------------------------


def league_final(*, league: League) -> Event | None:
    """The league's final night, ``None`` before it is made (one query)."""
    return Event.objects.filter(league=league, is_final=True).first()


@dataclass(frozen=True)
class FinalLine:
    """A finalist's line in the final's result: the top table's players come
    first, by their place there, then the next table's. ``place`` (overall)
    and ``table_place`` are set once the table's game counts."""

    player: Player
    table: int
    seat: int
    table_place: int | None
    place: int | None
    total: int | None


@dataclass(frozen=True)
class FinalResult:
    """The final's lines and whether every table's game counts (``complete``)."""

    event: Event
    lines: list[FinalLine]
    tables: int

    @property
    def complete(self) -> bool:
        return bool(self.lines) and all(line.place is not None for line in self.lines)

    @property
    def started(self) -> bool:
        return any(line.total is not None for line in self.lines)


def final_result(*, event: Event) -> FinalResult:
    """The final night's result (one query: its seatings with their tables and
    players): table 1, the top table, holds places 1 to its size, table 2 the
    next places, and so on; within a table the game's places (a tie shares
    one). A table whose game does not count yet has its players without a
    place, by seat, with their running totals once hands are played."""
    seatings = (
        Seating.objects.filter(round__event=event)
        .select_related("table", "player")
        .order_by("table__number", "seat")
    )
    by_table: dict[int, list[Seating]] = {}
    for seated in seatings:
        by_table.setdefault(seated.table.number, []).append(seated)
    lines: list[FinalLine] = []
    before = 0  # the places the tables above this one hold
    for number in sorted(by_table):
        seats = by_table[number]
        table = seats[0].table
        counted = table.counts
        if counted:
            seats = sorted(seats, key=lambda s: (s.place or 0, s.seat))
        for seated in seats:
            total = table.totals[seated.seat] if table.hands_played else None
            place = seated.place if counted else None
            lines.append(
                FinalLine(
                    player=seated.player,
                    table=number,
                    seat=seated.seat,
                    table_place=place,
                    place=before + place if place is not None else None,
                    total=total,
                )
            )
        before += len(seats)
    return FinalResult(event=event, lines=lines, tables=len(by_table))


# -- players' replies to a game night -------------------------------------------------


@dataclass(frozen=True)
class ReplyLine:
    """A player asked about a night (one with a personal link) or who replied
    to it: their answer (``coming``, ``not_coming``, or ``None``: no answer
    yet), when they gave it, whether they hold a personal link, and whether
    they are checked in now (present, not left)."""

    player: Player
    answer: str | None
    answered_at: datetime.datetime | None
    has_link: bool
    checked_in: bool
    on_list: bool
    """On the night's attendance list: checked in, and maybe left since."""


def event_replies(*, event: Event) -> list[ReplyLine]:
    """The event's replies, by player name: every player of its club who
    replied to it or holds a personal link (so may reply), with their answer
    and whether they are checked in. One query."""
    replies = Reply.objects.filter(event=event, player=OuterRef("pk"))
    players = (
        Player.objects.filter(club_id=event.league.club_id)
        .annotate(
            reply_answer=Subquery(replies.values("answer")[:1]),
            reply_at=Subquery(replies.values("answered_at")[:1]),
            has_link=Exists(PersonalLink.objects.filter(player=OuterRef("pk"))),
            checked_in=Exists(
                Attendance.objects.filter(
                    event=event, player=OuterRef("pk"), until_round__isnull=True
                )
            ),
            on_list=Exists(Attendance.objects.filter(event=event, player=OuterRef("pk"))),
        )
        .filter(Q(has_link=True) | Q(reply_answer__isnull=False))
        .order_by("name", "pk")
    )
    return [
        ReplyLine(
            player=player,
            answer=getattr(player, "reply_answer"),  # noqa: B009 (set by the read)
            answered_at=getattr(player, "reply_at"),  # noqa: B009
            has_link=getattr(player, "has_link"),  # noqa: B009
            checked_in=getattr(player, "checked_in"),  # noqa: B009
            on_list=getattr(player, "on_list"),  # noqa: B009
        )
        for player in players
    ]


def club_names(*, club: Club) -> list[tuple[int, str, str]]:
    """Every player of the club as (id, name, key), by name (one query): what a
    name typed is checked against (a club's players fit in memory: its pages
    list them all)."""
    return list(
        Player.objects.filter(club=club)
        .order_by("name", "pk")
        .values_list("pk", "name", "name_key")
    )


def close_players(
    *, names: Sequence[tuple[int, str, str]], name: str, exclude: int | None = None
) -> list[tuple[int, str]]:
    """The players of ``names`` (:func:`club_names`) whose name is close to
    ``name`` (:func:`league.names.is_close`: "do you mean Ada?"), as (id, name);
    ``exclude`` is a player left out (the one renamed)."""
    return [(pk, other) for pk, other, _ in names if pk != exclude and is_close(name, other)]
