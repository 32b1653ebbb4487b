"""The standings job catches up line by line (league.standings.standings_catch_up):
after any mix of completed, corrected and un-completed games and draws, the
lines it recomputes leave the stored standings exactly as a full rebuild
would; a completed game costs the same few queries in a small league and a
big one; the ranking statement orders as Python's rank key does, names by
code point included."""

from __future__ import annotations

import datetime
import io
import random
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from league import standings, tasks
from league.models import Game, Standing, StandingsOwed, Table
from league.outbox import standings_owe
from league.services.attendance import attendance_set
from league.services.fixtures import event_create, league_create, round_create, table_create
from league.services.results import hand_delete_last, hand_submit
from league.services.seating import round_seating_commit
from tests.support.factories import ClubFactory, PlayerFactory, UserFactory
from tests.support.records import bluke_results, buck_takes_all

pytestmark = pytest.mark.django_db

BLUKE_OPTIONS = {"max_cards": 2}  # hands of 2, 1 and 2 cards: three hands a game


class Season:
    """A league of ``players`` players whose games the test plays one call at a time."""

    def __init__(
        self, game: str, *, players: int = 7, seed: int = 0, season: dict[str, Any] | None = None
    ) -> None:
        self.game = game
        self.random = random.Random(seed)
        self.club = ClubFactory()
        self.players = [PlayerFactory(club=self.club, name=f"P{n}") for n in range(players)]
        options = BLUKE_OPTIONS if game == Game.BLUKE else {}
        self.league = league_create(
            club=self.club, name="L", game=game, options=options, season=season
        )
        self.tables: list[Table] = []

    def table(self, day: int) -> Table:
        """A new table on game night ``day`` (made if new), four players drawn at random."""
        event = self.league.events.filter(date=datetime.date(2026, 10, day)).first()
        if event is None:
            event = event_create(
                league=self.league, name=f"N{day}", date=datetime.date(2026, 10, day)
            )
        # a round of its own, so that any four may play
        round_ = round_create(event=event, number=event.rounds.count() + 1)
        chosen = self.random.sample(self.players, 4)
        table = table_create(round=round_, number=1, players=chosen)
        self.tables.append(table)
        return table

    def play(self, table: Table) -> None:
        """Play the table's game to its end: random winners, hand after hand."""
        table.refresh_from_db()
        while not table.complete:
            winner = self.random.randrange(4)
            if self.game == Game.BLUKE:
                cards = (2, 1, 2)[table.hands_played]
                record = bluke_results(cards, winner=winner)
            else:
                record = buck_takes_all(winner)
            table = hand_submit(table=table, record=record).table

    def undo(self, table: Table) -> None:
        """Delete the last hand of a complete game: it is complete no more."""
        table.refresh_from_db()
        hand_delete_last(table=table, number=table.hands_played - 1, version=table.version)

    def stored(self) -> list[tuple[Any, ...]]:
        """Every stored line of the league, all but when it was computed."""
        return sorted(
            (row.event_id or 0, row.player_id, *(getattr(row, f) for f in standings.STORED_FIELDS))
            for row in Standing.objects.filter(league=self.league)
        )

    def catch_up(self) -> int:
        return tasks.league_standings_refresh(self.league.pk)


def rebuilt(season: Season) -> list[tuple[Any, ...]]:
    standings.standings_refresh(league=season.league)
    return season.stored()


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_catching_up_leaves_what_a_full_rebuild_would(game: str, seed: int) -> None:
    season = Season(game, seed=seed)
    for day in (1, 1, 2, 3, 3, 3):
        season.play(season.table(day))
        if season.random.random() < 0.5:
            assert season.catch_up() > 0
    # corrections of old games: one un-completed, one un-completed and played again
    first, second = season.random.sample(season.tables, 2)
    season.undo(first)
    season.undo(second)
    season.play(second)
    assert season.catch_up() > 0
    caught_up = season.stored()
    assert caught_up == rebuilt(season)
    assert not StandingsOwed.objects.exists()
    assert season.catch_up() == 0  # nothing owed: a second run changes nothing
    assert season.stored() == caught_up


SEASONS = {
    Game.BLUKE: {
        "points_by_place": {
            "3": [3, 1, 0],
            "4": [4, 2, 1, 0],
            "5": [5, 3, 2, 1, 0],
            "6": [6, 4, 3, 2, 1, 0],
        },
        "best_nights": 2,
        "min_games": 2,
    },
    Game.BUCK_EUCHRE: {
        "points_by_place": {"4": [3, 1.5, 0.5, 0]},
        "best_nights": 2,
        "min_games": 5,
    },
}
"""Season formats to catch up: best 2 nights, a few games to qualify."""


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_catching_up_a_season_format_leaves_what_a_full_rebuild_would(game: str, seed: int) -> None:
    """As above, in a league scored by points for places (ties shared, the best
    2 nights, a minimum of games): the ranks the catch-up numbers in Python,
    head to head included, are the full rebuild's."""
    season = Season(game, seed=seed, season=SEASONS[game])
    for day in (1, 1, 2, 3, 3, 3, 4, 4):
        season.play(season.table(day))
        if season.random.random() < 0.5:
            assert season.catch_up() > 0
    first, second = season.random.sample(season.tables, 2)
    season.undo(first)
    season.undo(second)
    season.play(second)
    assert season.catch_up() > 0
    caught_up = season.stored()
    assert caught_up == rebuilt(season)
    lines = Standing.objects.filter(league=season.league, event=None)
    minimum = SEASONS[game]["min_games"]
    assert all(line.qualified == (line.games >= minimum) for line in lines)
    assert all(line.nights_counted <= 2 for line in lines)
    assert season.catch_up() == 0
    assert season.stored() == caught_up


def test_sit_outs_are_caught_up_too() -> None:
    season = Season(Game.BUCK_EUCHRE, players=7)
    season.play(season.table(1))
    assert season.catch_up() == 4
    event = season.league.events.get()
    round_two = round_create(event=event, number=event.rounds.count() + 1)
    attendance_set(event=event, players=season.players, by=UserFactory())
    round_seating_commit(round=round_two, seed=5)  # four play, three sit out
    assert season.catch_up() == 3
    caught_up = season.stored()
    assert sum(line[-2] for line in caught_up) > 0  # sat_out, counted for those with games
    assert caught_up == rebuilt(season)


def test_a_full_rebuild_owed_rebuilds_everything() -> None:
    season = Season(Game.BUCK_EUCHRE)
    season.play(season.table(1))
    season.catch_up()
    Standing.objects.filter(league=season.league).update(wins=99)  # damaged: repair it
    standings_owe(league_id=season.league.pk)
    assert season.catch_up() == 1
    assert {line[3] for line in season.stored()} != {99}
    assert season.stored() == rebuilt(season)


def test_many_events_owed_at_once_rebuild_the_league(monkeypatch: pytest.MonkeyPatch) -> None:
    season = Season(Game.BUCK_EUCHRE)
    for day in range(1, standings.CATCH_UP_EVENTS + 2):
        season.play(season.table(day))
    rebuilds: list[int] = []
    full = standings.standings_refresh

    def counted(*, league: Any) -> int:
        rebuilds.append(league.pk)
        return full(league=league)

    monkeypatch.setattr(standings, "standings_refresh", counted)
    season.catch_up()
    assert rebuilds == [season.league.pk]
    monkeypatch.setattr(standings, "standings_refresh", full)
    assert season.stored() == rebuilt(season)


def catch_up_queries(season: Season) -> int:
    season.play(season.table(28))
    with CaptureQueriesContext(connection) as queries:
        assert season.catch_up() == 4
    return len(queries)


def test_a_completed_game_costs_the_same_queries_in_a_small_league_and_a_big_one() -> None:
    small = Season(Game.BUCK_EUCHRE, players=5)
    small.play(small.table(1))
    small.catch_up()
    big = Season(Game.BUCK_EUCHRE, players=12)
    for day in range(1, 9):
        for _ in range(3):
            big.play(big.table(day))
    big.catch_up()
    assert catch_up_queries(small) == catch_up_queries(big)


# a club's names are unique without regard to case: "zoé" and "anna" stand for the
# names that start with a lower-case letter
NAMES = ["Zoë", "Zoe", "zoé", "Émile", "Emile", "Øyvind", "Oscar", "Ana", "Åsa", "anna", "Ωmega"]


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_the_ranking_statement_orders_as_the_rank_key(game: str) -> None:
    """Ties all the way down to the name, in every accent and case: the
    database ranks as Python's sort (code points), on both backends."""
    draw = random.Random(11)
    club = ClubFactory()
    league = league_create(club=club, name="L", game=game, options={})
    lines = []
    for name in NAMES:
        player = PlayerFactory(club=club, name=name)
        games = draw.choice([2, 4])
        total = draw.choice([10, 20])
        lines.append(
            Standing(
                league=league,
                player=player,
                games=games,
                wins=draw.choice([0, 1]),
                average_place=draw.choice([1.5, 2.0]),
                total_points=total,
                average_points=total / games,
                hands=games * 3,
                rank=0,
                computed_at=timezone.now(),
            )
        )
    Standing.objects.bulk_create(lines)
    now = timezone.now()
    standings._rank(league=league, event_id=None, now=now)
    ranked = Standing.objects.filter(league=league).select_related("player").order_by("rank")
    expected = sorted(
        lines,
        key=lambda line: standings.rank_key(
            wins=line.wins,
            average_place=line.average_place,
            points=line.average_points,
            games=line.games,
            name=line.player.name,
            player_id=line.player_id,
            bluke=game == Game.BLUKE,
        ),
    )
    assert [line.player.name for line in ranked] == [line.player.name for line in expected]
    assert [line.rank for line in ranked] == list(range(1, len(NAMES) + 1))
    assert {line.computed_at for line in ranked} == {now}  # every rank changed from 0

    # the fifth falls to the bottom: only it and those it passed get new ranks, and are written
    later = timezone.now()
    fallen = ranked[4]
    Standing.objects.filter(pk=fallen.pk).update(wins=0, average_place=9.0)
    standings._rank(league=league, event_id=None, now=later)
    after = {
        line.player.name: (line.rank, line.computed_at)
        for line in Standing.objects.filter(league=league).select_related("player")
    }
    names = [line.player.name for line in ranked]
    assert after[fallen.player.name] == (len(NAMES), later)
    assert [after[name] for name in names[:4]] == [(n, now) for n in range(1, 5)]
    assert [after[name] for name in names[5:]] == [(n, later) for n in range(5, len(NAMES))]


def test_the_command_owes_a_rebuild_of_the_leagues_named_and_refuses_unknown_ones() -> None:
    season = Season(Game.BUCK_EUCHRE)
    season.play(season.table(1))
    other = Season(Game.BUCK_EUCHRE)
    out = io.StringIO()
    call_command("standings_rebuild", str(season.league.pk), stdout=out)
    assert out.getvalue() == f"standings rebuild owed: league {season.league.pk} (L)\n"
    owed = StandingsOwed.objects.filter(event=None)
    assert list(owed.values_list("league_id", flat=True)) == [season.league.pk]
    with pytest.raises(CommandError, match=r"no league 0: nothing owed"):
        call_command("standings_rebuild", "0", str(other.league.pk))
    assert owed.count() == 1
