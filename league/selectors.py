"""Reads of the league, shaped for the pages and the API."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet, prefetch_related_objects

import games
from league import ratings
from league.models import (
    Club,
    Event,
    Game,
    Hand,
    HandSeat,
    League,
    Membership,
    Player,
    Rating,
    RatingHistory,
    RatingScope,
    Round,
    Seating,
    Standing,
    Table,
)


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


# -- the members' pages (league.web.pages) -------------------------------------------
# Each read below is one query (or a fixed few), whatever the number of games,
# hands, players or events: the pages' query counts are tested.


def league_for_page() -> QuerySet[League]:
    """Leagues with what the league page shows beside them: the club and
    the league's rating scope (``rating_scope``, absent before any rating)."""
    return League.objects.select_related("club", "rating_scope")


def league_scope(league: League) -> RatingScope | None:
    """The league's own rating scope, ``None`` before its first complete game.

    ``league`` should come from :func:`league_for_page` (no query then)."""
    try:
        return league.rating_scope
    except RatingScope.DoesNotExist:
        return None


def league_events(*, league: League) -> QuerySet[Event]:
    """The league's events, the latest first, each with ``tables`` and
    ``tables_complete`` counted (one query)."""
    return (
        Event.objects.filter(league=league)
        .annotate(
            tables=Count("rounds__tables"),
            tables_complete=Count("rounds__tables", filter=Q(rounds__tables__complete=True)),
        )
        .order_by("-date", "-id")
    )


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


@dataclass(frozen=True)
class RoundTables:
    """A round of an event with its tables, in table order."""

    round: Round
    tables: list[TableLines]


def event_rounds(*, event: Event) -> list[RoundTables]:
    """The event's rounds, their tables and each table's seats with players
    (three queries: rounds, tables, seatings with their players)."""
    rounds = Round.objects.filter(event=event).prefetch_related(
        Prefetch(
            "tables",
            queryset=Table.objects.order_by("number").prefetch_related(
                Prefetch(
                    "seatings", queryset=Seating.objects.select_related("player").order_by("seat")
                )
            ),
        )
    )
    return [
        RoundTables(
            round=round_,
            tables=[TableLines(table=t, seats=_seat_lines(t)) for t in round_.tables.all()],
        )
        for round_ in rounds.order_by("number")
    ]


def _seat_lines(table: Table) -> list[SeatLine]:
    """Each seat's total: the final one (with the place) once the game is
    complete, else the table's running total for that seat."""
    running = table.totals if isinstance(table.totals, list) else []
    lines = []
    for seating in table.seatings.all():
        if table.complete:
            total, place = seating.total, seating.place
        else:
            total = running[seating.seat] if seating.seat < len(running) else None
            place = None
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
    club-wide per game) with each one's history, in two queries. Ordered by
    game, the leagues by name, then the club-wide scope of that game."""
    rated = list(Rating.objects.filter(player=player).select_related("scope__league"))
    histories: dict[int, list[RatingHistory]] = {rating.scope_id: [] for rating in rated}
    for row in RatingHistory.objects.filter(scope_id__in=list(histories), player=player).order_by(
        "scope_id", "order_key"
    ):
        histories[row.scope_id].append(row)

    def order(rating: Rating) -> tuple[str, bool, str, int]:
        league = rating.scope.league
        return (rating.scope.game, league is None, league.name if league else "", rating.scope_id)

    return [
        ScopeRating(
            scope=rating.scope,
            rating=rating,
            provisional=rating.games < ratings.PROVISIONAL_BELOW,
            pending=bool(rating.scope.rerate_from),
            history=histories[rating.scope_id],
        )
        for rating in sorted(rated, key=order)
    ]


def player_recent_games(*, player: Player, limit: int = 10) -> list[Seating]:
    """The player's latest complete games, the latest first (in the order
    played, as the ratings count them), with table, round, event and league."""
    return list(
        Seating.objects.filter(player=player, table__complete=True)
        .select_related("table__round__event__league")
        .order_by(
            "-table__round__event__date",
            "-table__round__number",
            "-table__number",
            "-table_id",
        )[:limit]
    )


def player_standings(*, player: Player) -> list[Standing]:
    """The player's stored standing rows, one per league they played a
    complete game in, with the league; by game, then league name."""
    return list(
        Standing.objects.filter(player=player, event__isnull=True)
        .select_related("league")
        .order_by("league__game", "league__name", "league_id")
    )


# -- the score sheet page and result entry (league.web.entry) --------------------


def club_role(user: Any, club_id: int) -> str | None:
    """``user``'s role in the club (organiser or scorekeeper), ``None`` for no
    role or an anonymous user. The API's access helpers and the web pages ask
    the same question, so that both answer a user alike."""
    if not user.is_authenticated:
        return None
    return (
        Membership.objects.filter(club_id=club_id, user=user).values_list("role", flat=True).first()
    )


def club_player(user: Any, club_id: int) -> bool:
    """Whether ``user`` is linked to one of the club's players: a member of
    the club, though without a role unless :func:`club_role` says so."""
    return user.is_authenticated and Player.objects.filter(club_id=club_id, user=user).exists()


def sheet_table(table_id: int) -> Table:
    """A table with its round, event, league and club, in one query (the
    score sheet's header and the entry forms' access check need them all).
    Raises ``Table.DoesNotExist``."""
    return Table.objects.select_related("round__event__league__club").get(pk=table_id)


def sheet_seatings(*, table: Table) -> list[Seating]:
    """The table's seatings with their players, in seat order (one query)."""
    return list(Seating.objects.filter(table=table).select_related("player").order_by("seat"))


def sheet_next_hand(*, table: Table) -> dict[str, int] | None:
    """The next hand's number, dealer and cards, from the table row alone (no
    query); ``None`` once the game is complete."""
    if table.complete:
        return None
    league = table.round.event.league
    tally = games.GameTally(
        games.rules_for(league.game, table.players, league.options),
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


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


@dataclass(frozen=True)
class CardLabel:
    """A card as the sheet shows it: ``A♠``, ``10♥``, ``Hi Bluke``; ``words``
    spells it out for screen readers (``ace of spades``)."""

    text: str
    words: str
    red: bool


_RANK_WORDS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def card_label(card: games.Card) -> CardLabel:
    if card.suit is None:
        name = "Hi Bluke" if card.code == "BH" else "Lo Bluke"
        return CardLabel(text=name, words=name, red=False)
    rank, suit = card.code[0], card.code[1]
    shown = "10" if rank == "T" else rank
    return CardLabel(
        text=f"{shown}{SUIT_SYMBOLS[suit]}",
        words=f"{_RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[suit]}",
        red=suit in "DH",
    )


@dataclass(frozen=True)
class SheetLine:
    """One seat's cells in one hand's row."""

    seat: int
    bid: int | None
    tricks: int
    points: int
    total: int
    dropped: bool
    maker: bool
    made: bool | None
    """Bluke: whether the bid was made; ``None`` in Buck Euchre."""


@dataclass(frozen=True)
class SheetPlay:
    player: str
    card: CardLabel


@dataclass(frozen=True)
class SheetTrick:
    number: int
    """From 1, as players count tricks."""
    leader: str
    plays: list[SheetPlay]
    winner: str


@dataclass(frozen=True)
class SheetHand:
    """One row of the score sheet, with the hand card by card when it was
    submitted as a move log."""

    number: int
    """As stored (from 0): the hand's URLs and anchor use it."""
    cards: int
    dealer: str
    trump: str | None
    maker: str | None
    drops: list[str]
    takes_all: str | None
    is_move_log: bool
    lines: list[SheetLine]
    turn_up: CardLabel | None
    tricks: list[SheetTrick] | None
    """``None`` for results only, or a stored move log the engine no longer replays."""

    @property
    def shown_number(self) -> int:
        """From 1, as a paper score sheet counts hands."""
        return self.number + 1


@dataclass(frozen=True)
class SheetPlayer:
    """A column group of the sheet: the seat's player and where they stand."""

    seat: int
    player_id: int
    name: str
    total: int
    place: int | None
    winner: bool

    @property
    def place_text(self) -> str:
        """``1st``, ``2nd``, ``11th``: the place as the foot of the sheet writes it."""
        if self.place is None:
            return ""
        place = self.place
        suffix = (
            "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
        )
        return f"{place}{suffix}"


def sheet_page(*, table: Table) -> dict[str, Any]:
    """The score sheet shaped for the page: players by seat, one row per hand
    (move logs replayed into tricks by the engine), places once complete.

    Queries: those of :func:`score_sheet` (three), whatever the number of
    hands; ``table`` comes from :func:`sheet_table`.
    """
    sheet = score_sheet(table=table)
    league = table.round.event.league
    rules = games.rules_for(league.game, table.players, league.options)
    seatings = list(table.seatings.all())
    names = [seating.player.name for seating in seatings]
    players = [
        SheetPlayer(
            seat=seating.seat,
            player_id=seating.player_id,
            name=seating.player.name,
            total=table.totals[seating.seat],
            place=seating.place if table.complete else None,
            winner=table.complete and seating.place == 1,
        )
        for seating in seatings
    ]
    hands = [_sheet_hand(hand, names, rules) for hand in sheet["hands"]]
    next_hand = sheet["next_hand"]
    if next_hand is not None:
        next_hand = {**next_hand, "dealer_name": names[next_hand["dealer"]]}
    return {
        "table": table,
        "league": league,
        "event": table.round.event,
        "bluke": league.game == Game.BLUKE,
        "players": players,
        "winners": [player.name for player in players if player.winner],
        "hands": hands,
        "next_hand": next_hand,
        "schedule": len(rules.schedule) if isinstance(rules, games.Bluke) else None,
        "start": games.GameTally(rules, first_dealer=table.first_dealer).totals,
    }


def _sheet_hand(hand: Hand, names: list[str], rules: games.Bluke | games.BuckEuchre) -> SheetHand:
    lines = [
        SheetLine(
            seat=line.seat,
            bid=line.bid,
            tricks=line.tricks,
            points=line.points,
            total=line.total,
            dropped=line.dropped,
            maker=hand.maker == line.seat,
            made=line.tricks >= line.bid if line.bid is not None else None,
        )
        for line in hand.seats.all()
    ]
    turn_up = tricks = None
    if hand.is_move_log:
        turn_up = card_label(games.card(hand.record["turn_up"]))
        tricks = _played_tricks(hand, names, rules)
    return SheetHand(
        number=hand.number,
        cards=hand.cards,
        dealer=names[hand.dealer],
        trump=hand.trump or None,
        maker=names[hand.maker] if hand.maker is not None else None,
        drops=[names[seat] for seat in hand.drops],
        takes_all=names[hand.takes_all] if hand.takes_all is not None else None,
        is_move_log=hand.is_move_log,
        lines=lines,
        turn_up=turn_up,
        tricks=tricks,
    )


def _played_tricks(
    hand: Hand, names: list[str], rules: games.Bluke | games.BuckEuchre
) -> list[SheetTrick] | None:
    try:
        replayed = games.replay_tricks(rules, hand.record, dealer=hand.dealer)
    except games.RecordError:
        return None  # stored before a rules change; the scores stand as stored
    return [
        SheetTrick(
            number=number,
            leader=names[trick.leader],
            plays=[
                SheetPlay(player=names[seat], card=card_label(card)) for seat, card in trick.plays
            ],
            winner=names[trick.winner],
        )
        for number, trick in enumerate(replayed, start=1)
    ]
