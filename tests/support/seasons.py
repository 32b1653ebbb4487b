"""A Bluke league scored by points for places, played out for the tests of
season formats: the hand-worked example of ``tests/league/test_season_formats.py``
(whose docstring works its standings out by hand), and the helpers that play
its games.

Every game is a Bluke game of three hands (``max_cards`` 2: hands of 2, 1 and 2
cards) in which each hand has one winner, who bids the cards and takes every
trick (+10 a card), the others bidding 1 and taking none (-10). So a game's
totals, and so its places, follow from the three winners alone."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from league.models import Club, Event, Game, League, Player, Table
from league.services.fixtures import event_create, league_create, round_create, table_create
from league.services.results import hand_submit
from tests.support.factories import ClubFactory, PlayerFactory
from tests.support.records import bluke_results

OPTIONS = {"max_cards": 2}
HANDS = (2, 1, 2)
"""The cards of a game's hands."""

POINTS = {"3": [3, 1, 0], "4": [4, 2, 1, 0], "5": [5, 3, 2, 1, 0], "6": [6, 4, 3, 2, 1, 0]}
"""Points for places at each table size a Bluke league seats."""

SEASON: dict[str, Any] = {"points_by_place": POINTS, "best_nights": 2, "min_games": 3}
"""The hand-worked example's format: best 2 nights, 3 games to qualify."""

NAMES = ("Ada", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")

NIGHTS: tuple[tuple[int, tuple[tuple[tuple[str, ...], tuple[int, int, int]], ...]], ...] = (
    # (day of October 2026, ((players in seat order, the seat winning each hand), ...))
    (1, ((("Ada", "Ben", "Cy", "Dee"), (0, 1, 2)), (("Eve", "Fay", "Gus"), (0, 1, 0)))),
    (8, ((("Ada", "Eve", "Fay", "Hal"), (1, 1, 1)), (("Ben", "Cy", "Dee"), (0, 2, 0)))),
    (15, ((("Ben", "Cy", "Dee", "Eve"), (1, 1, 0)),)),
)
"""The example's three game nights, a round each."""


def play(table: Table, winners: Sequence[int]) -> Table:
    """Play the table's three hands, ``winners[n]`` taking every trick of hand n."""
    for cards, winner in zip(HANDS, winners, strict=True):
        table = hand_submit(
            table=table, record=bluke_results(cards, winner=winner, players=table.players)
        ).table
    assert table.complete
    return table


@dataclass
class SeasonLeague:
    """A club, a Bluke league with a season format and its players by name."""

    club: Club
    league: League
    players: dict[str, Player]
    events: list[Event] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)

    def night(self, day: int, tables: Sequence[tuple[Sequence[str], Sequence[int]]]) -> Event:
        """A game night on ``day`` of October 2026, one round, its tables played."""
        event = event_create(
            league=self.league, name=f"Night {day}", date=datetime.date(2026, 10, day)
        )
        round_ = event.rounds.get()
        for number, (names, winners) in enumerate(tables, start=1):
            table = table_create(
                round=round_, number=number, players=[self.players[n] for n in names]
            )
            self.tables.append(play(table, winners))
        self.events.append(event)
        return event

    def extra_round(self, event: Event, names: Sequence[str], winners: Sequence[int]) -> Table:
        """One more round of ``event`` with one table, played."""
        round_ = round_create(event=event, number=event.rounds.count() + 1)
        table = table_create(round=round_, number=1, players=[self.players[n] for n in names])
        self.tables.append(play(table, winners))
        return self.tables[-1]


def season_league(
    *, season: dict[str, Any] | None = SEASON, club: Club | None = None, played: bool = True
) -> SeasonLeague:
    """The hand-worked example's league (its three nights played unless not
    ``played``), in a new club unless ``club`` is given."""
    club = club or ClubFactory()
    league = league_create(
        club=club, name="Autumn Bluke", game=Game.BLUKE, options=OPTIONS, season=season
    )
    players = {name: PlayerFactory(club=club, name=name) for name in NAMES}
    built = SeasonLeague(club=club, league=league, players=players)
    if played:
        for day, tables in NIGHTS:
            built.night(day, tables)
    return built
