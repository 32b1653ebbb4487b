"""Properties of ratings and standings over random leagues (hypothesis):
the order results arrive in, corrections and repeated jobs change nothing
that a rating from scratch would not give."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league import ratings
from league.models import Game, Rating, RatingHistory, RatingScope, Standing, Table
from league.services.fixtures import event_create, league_create, table_create
from league.services.results import hand_correct, hand_submit
from tests.support.factories import ClubFactory, PlayerFactory
from tests.support.records import bluke_results, buck_takes_all

pytestmark = pytest.mark.django_db

PLAYERS = 6
# (day of the game, the four seats' players, the seat that takes all five tricks)
games_strategy = st.lists(
    st.tuples(
        st.integers(1, 28),
        st.permutations(range(PLAYERS)).map(lambda p: tuple(p[:4])),
        st.integers(0, 3),
    ),
    min_size=1,
    max_size=7,
)
SETTINGS = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def build(
    games: list[tuple[int, tuple[int, ...], int]],
    *,
    game: str = Game.BUCK_EUCHRE,
    options: dict[str, Any] | None = None,
) -> tuple[Any, list[Table]]:
    club = ClubFactory()
    players = [PlayerFactory(club=club, name=f"P{n}") for n in range(PLAYERS)]
    league = league_create(club=club, name="L", game=game, options=options)
    tables = []
    for number, (day, seats, _) in enumerate(games, start=1):
        event = event_create(league=league, name=f"N{number}", date=datetime.date(2026, 10, day))
        tables.append(
            table_create(round=event.rounds.get(), number=1, players=[players[s] for s in seats])
        )
    return league, tables


def ratings_of(league: Any) -> list[tuple[Any, ...]]:
    scope = RatingScope.objects.get(league=league)
    return sorted(
        (r.player.name, round(r.mu, 9), round(r.sigma, 9), r.games)
        for r in Rating.objects.filter(scope=scope).select_related("player")
    ) + sorted(
        (h.player.name, h.table.round.event.name, round(h.mu, 9), h.games)
        for h in RatingHistory.objects.filter(scope=scope).select_related(
            "player", "table__round__event"
        )
    )


def standings_of(league: Any) -> list[tuple[Any, ...]]:
    return [
        (s.player.name, s.rank, s.games, s.wins, s.total_points, s.average_place)
        for s in Standing.objects.filter(league=league, event=None)
        .select_related("player")
        .order_by("rank")
    ]


@SETTINGS
@given(games=games_strategy, data=st.data())
def test_any_submission_order_gives_the_ratings_and_standings_of_a_rating_from_scratch(
    games: list[tuple[int, tuple[int, ...], int]],
    data: st.DataObject,
    django_capture_on_commit_callbacks: Any,
) -> None:
    league, tables = build(games)
    order = data.draw(st.permutations(range(len(games))))
    for index in order:
        with django_capture_on_commit_callbacks(execute=True):
            hand_submit(table=tables[index], record=buck_takes_all(games[index][2]))
    incremental, standings_now = ratings_of(league), standings_of(league)

    scope = RatingScope.objects.get(league=league)
    ratings.ratings_rebuild(scope=scope)
    assert ratings_of(league) == incremental  # the same as from scratch
    ratings.ratings_rebuild(scope=scope)
    assert ratings_of(league) == incremental  # and the same again

    in_order, tables_in_order = build(games)
    for table, (_, _, seat) in zip(tables_in_order, games, strict=True):
        with django_capture_on_commit_callbacks(execute=True):
            hand_submit(table=table, record=buck_takes_all(seat))
    assert standings_of(in_order) == standings_now


@SETTINGS
@given(games=games_strategy, data=st.data())
def test_a_correction_re_rates_to_what_a_rating_from_scratch_gives(
    games: list[tuple[int, tuple[int, ...], int]],
    data: st.DataObject,
    django_capture_on_commit_callbacks: Any,
) -> None:
    league, tables = build(games)
    for table, (_, _, seat) in zip(tables, games, strict=True):
        with django_capture_on_commit_callbacks(execute=True):
            hand_submit(table=table, record=buck_takes_all(seat))
    index = data.draw(st.integers(0, len(games) - 1))
    new_winner = data.draw(st.integers(0, 3))
    table = Table.objects.get(pk=tables[index].pk)
    with django_capture_on_commit_callbacks(execute=True):
        hand_correct(
            table=table, number=0, record=buck_takes_all(new_winner), version=table.version
        )
    corrected = ratings_of(league)
    ratings.ratings_rebuild(scope=RatingScope.objects.get(league=league))
    assert ratings_of(league) == corrected


# Bluke games of one hand (max_cards 1) at tables of three or four: (day, the seats'
# players, the seat that makes its bid). A Bluke league rates each total against the
# league's running mean at that table size, so these also check that a re-rating from
# the middle of a season starts from the same means as a run from the start.
bluke_games_strategy = st.lists(
    st.tuples(
        st.integers(1, 28),
        st.permutations(range(PLAYERS)).flatmap(
            lambda p: st.sampled_from([tuple(p[:3]), tuple(p[:4])])
        ),
        st.integers(0, 2),
    ),
    min_size=2,
    max_size=7,
)


@SETTINGS
@given(games=bluke_games_strategy, data=st.data())
def test_bluke_ratings_against_the_league_mean_equal_a_rating_from_scratch(
    games: list[tuple[int, tuple[int, ...], int]],
    data: st.DataObject,
    django_capture_on_commit_callbacks: Any,
) -> None:
    league, tables = build(games, game=Game.BLUKE, options={"max_cards": 1})
    for index in data.draw(st.permutations(range(len(games)))):
        _, seats, maker = games[index]
        with django_capture_on_commit_callbacks(execute=True):
            hand_submit(
                table=tables[index],
                record=bluke_results(cards=1, winner=maker, players=len(seats)),
            )
    incremental = ratings_of(league)
    scope = RatingScope.objects.get(league=league)
    ratings.ratings_rebuild(scope=scope)
    assert ratings_of(league) == incremental

    index = data.draw(st.integers(0, len(games) - 1))
    table = Table.objects.get(pk=tables[index].pk)
    new_maker = (games[index][2] + 1) % table.players
    with django_capture_on_commit_callbacks(execute=True):
        hand_correct(
            table=table,
            number=0,
            record=bluke_results(cards=1, winner=new_maker, players=table.players),
            version=table.version,
        )
    corrected = ratings_of(league)
    ratings.ratings_rebuild(scope=scope)
    assert ratings_of(league) == corrected
