"""Reads of a league's season and its final: the final night's result, and
the season format as the standings pages show it. Each a fixed number of
queries, whatever the league's size."""

from __future__ import annotations

from dataclasses import dataclass

from league.models import Event, Game, League, Player, Seating, Standing
from league.season import SeasonJson
from league.season_words import season_order_in_language, season_words

FIGURE_COLUMNS = {True: 9, False: 11}
"""The columns of a standings table without the season's, by ``bluke``: rank,
player, games, wins, average place, total and average points, and each
game's own (templates/league/_pages_figure_headers.html)."""


@dataclass(frozen=True)
class SeasonShown:
    """What a standings page shows of the league's season format: whether it
    has one (``points``: the season columns and "not yet qualified"), its
    words, its order in a line (``None``: today's order, said by the page),
    the games to qualify and how many columns a standings row has."""

    points: bool
    words: str
    order: str | None
    min_games: int
    columns: int


def season_shown(league: League, *, count_nights: bool = True) -> SeasonShown:
    """The league's season format as its pages show it, with the nights the
    season has for "best 8 of 12 nights" when ``count_nights`` (no query for a
    league of :func:`league.selectors.leagues.league_for_page`, which counts them;
    one otherwise)."""
    season: SeasonJson | None = league.season
    nights = None
    if season and season.get("best_nights") and count_nights:
        nights = season_night_count(league)
    bluke = league.game == Game.BLUKE
    return SeasonShown(
        points=bool(season),
        words=season_words(season, nights=nights, first=league.table_size),
        order=season_order_in_language(season),
        min_games=int(season.get("min_games") or 0) if season else 0,
        columns=FIGURE_COLUMNS[bluke] + (2 if season else 0),
    )


def season_night_count(league: League) -> int:
    """The game nights of the league's season, finals aside (no query for a league
    of :func:`league.selectors.leagues.league_for_page`, which counts them)."""
    nights = getattr(league, "season_nights", None)
    if nights is None:
        nights = Event.objects.filter(league=league, is_final=False).count()
    return int(nights)


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


def final_shown(league: League) -> FinalResult | None:
    """The league's final and its result (two queries), ``None`` before it is
    made (no query then for a league of :func:`league.selectors.leagues.league_for_page`,
    which has its final's id)."""
    if hasattr(league, "final_id"):
        if league.final_id is None:
            return None
        event: Event | None = Event.objects.get(pk=league.final_id)
    else:
        event = league_final(league=league)
    return final_result(event=event) if event is not None else None


def qualified_count(league: League) -> int:
    """How many players the league's stored season standings have qualified (one query)."""
    return Standing.objects.filter(league=league, event=None, qualified=True).count()
