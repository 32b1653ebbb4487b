"""The rating model (league.rating_model): its update against a worked example,
and the properties a club expects of it."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.rating_model import MODELS, LeagueMeans, ScoreModel, Skill, luck_points

MODEL = ScoreModel()
"""The model with openskill's constants: the worked examples below use them."""
PROPERTY = settings(max_examples=150, deadline=None)

skills = st.builds(
    Skill,
    mu=st.floats(min_value=5, max_value=45, allow_nan=False),
    sigma=st.floats(min_value=0.5, max_value=25 / 3, allow_nan=False),
)
tables = st.integers(min_value=2, max_value=6).flatmap(
    lambda n: st.tuples(
        st.lists(skills, min_size=n, max_size=n),
        st.lists(st.integers(min_value=-300, max_value=400), min_size=n, max_size=n),
    )
)


def test_a_game_of_three_worked_by_hand() -> None:
    # Ann (mu 30, sigma 4), Bob and Cy new (25, 25/3); Bluke at a table of 3, luck 69
    # points. Totals 150, 60, 30: margins over the average (80) are +70, -20, -50
    # points, times beta / luck = (25/6) / 69 rating units.
    ann, new = Skill(30.0, 4.0), MODEL.new()
    after = MODEL.rate([ann, new, new], [150, 60, 30], luck=69.0)

    beta2 = (25 / 6) ** 2
    y = [m * (25 / 6) / 69 for m in (70, -20, -50)]
    d = [16 + beta2, (25 / 3) ** 2 + beta2, (25 / 3) ** 2 + beta2]
    w = [1 / x for x in d]
    shift = sum(wi * (mu - yi) for wi, mu, yi in zip(w, (30, 25, 25), y, strict=True)) / sum(w)
    # the common level the performances imply: Ann's strong prior pulls it up
    assert shift == pytest.approx(26.3556, abs=1e-4)
    expected_mu = [
        30 + 16 / d[0] * (y[0] + shift - 30),
        25 + (25 / 3) ** 2 / d[1] * (y[1] + shift - 25),
        25 + (25 / 3) ** 2 / d[2] * (y[2] + shift - 25),
    ]
    assert [s.mu for s in after] == pytest.approx(expected_mu)
    assert [round(s.mu, 3) for s in after] == [30.279, 25.118, 23.669]
    ann_variance = 16 * beta2 / d[0] + (16 / d[0]) ** 2 / sum(w)
    assert after[0].sigma == pytest.approx(math.sqrt(ann_variance))
    assert round(after[0].sigma, 3) == 3.559


def test_buck_euchre_counts_down_fewer_points_are_better() -> None:
    new = MODEL.new()
    winner, *_ = MODEL.rate([new] * 4, [-2, 10, 14, 20], luck=10.7, lower_is_better=True)
    assert winner.mu > 25
    mirrored = MODEL.rate([new] * 4, [2, -10, -14, -20], luck=10.7)
    assert winner == mirrored[0]


@PROPERTY
@given(tables)
def test_a_better_score_never_ends_lower_than_a_worse_one_from_the_same_prior(
    table: tuple[list[Skill], list[int]],
) -> None:
    players, points = table
    players = [players[0]] * len(players)  # the same prior for everyone
    after = MODEL.rate(players, points, luck=80.0)
    for a in range(len(points)):
        for b in range(len(points)):
            if points[a] > points[b]:
                assert after[a].mu > after[b].mu
            if points[a] == points[b]:
                assert after[a] == after[b]  # ties equal


@PROPERTY
@given(tables, st.integers(min_value=1, max_value=50))
def test_scoring_more_never_lowers_ones_own_rating(
    table: tuple[list[Skill], list[int]], more: int
) -> None:
    players, points = table
    better = [points[0] + more, *points[1:]]
    before = MODEL.rate(players, points, luck=80.0)[0].mu
    assert MODEL.rate(players, better, luck=80.0)[0].mu > before


@PROPERTY
@given(tables, st.randoms(use_true_random=False))
def test_the_order_of_the_players_does_not_matter(
    table: tuple[list[Skill], list[int]], rng: object
) -> None:
    players, points = table
    order = list(range(len(players)))
    rng.shuffle(order)  # type: ignore[attr-defined]
    after = MODEL.rate(players, points, luck=80.0)
    shuffled = MODEL.rate([players[i] for i in order], [points[i] for i in order], luck=80.0)
    for k, i in enumerate(order):
        assert shuffled[k].mu == pytest.approx(after[i].mu)
        assert shuffled[k].sigma == pytest.approx(after[i].sigma)


@PROPERTY
@given(tables)
def test_a_game_never_makes_anyone_less_certain(table: tuple[list[Skill], list[int]]) -> None:
    players, points = table
    for before, after in zip(players, MODEL.rate(players, points, luck=80.0), strict=True):
        assert after.sigma <= before.sigma


@PROPERTY
@given(tables)
def test_win_chances_add_up_to_one(table: tuple[list[Skill], list[int]]) -> None:
    players, _ = table
    chances = MODEL.win_chances(players)
    assert sum(chances) == pytest.approx(1.0)
    evened = [Skill(p.mu, 2.0) for p in players]  # equally sure: the higher mu, the likelier
    even_chances = MODEL.win_chances(evened)
    for a in range(len(players)):
        for b in range(len(players)):
            if evened[a].mu > evened[b].mu + 1e-9:
                assert even_chances[a] > even_chances[b]


def test_time_away_makes_a_rating_less_certain_up_to_a_new_players() -> None:
    settled = Skill(30.0, 2.0)
    assert MODEL.after_idle(settled, days=0) == settled
    assert MODEL.after_idle(settled, days=90).sigma == pytest.approx(math.sqrt(4 + 0.05 * 90))
    assert MODEL.after_idle(settled, days=100_000).sigma == MODEL.sigma
    assert MODEL.before_game(settled, days_away=90).sigma > MODEL.after_idle(settled, days=90).sigma


def test_rating_games_in_order_keeps_each_players_state() -> None:
    state: dict[int, tuple[Skill, int, int, str]] = {}
    games = [
        (1, "a", 700_000, [1, 2, 3, 4], [100.0, 50.0, 30.0, 20.0], 82.0, False, 25),
        (2, "b", 700_007, [1, 2, 5, 6], [10.0, 90.0, 40.0, 60.0], 82.0, False, 25),
    ]
    rated = list(MODEL.rate_games(games, state))
    assert [counts for _, _, counts in rated] == [[1, 1, 1, 1], [2, 2, 1, 1]]
    assert state[1][1:] == (2, 700_007, "b")
    first = MODEL.rate([MODEL.new()] * 4, [100.0, 50.0, 30.0, 20.0], luck=82.0)
    ann = MODEL.before_game(first[0], days_away=7)
    bob = MODEL.before_game(first[1], days_away=7)
    second = MODEL.rate([ann, bob, MODEL.new(), MODEL.new()], [10.0, 90.0, 40.0, 60.0], luck=82.0)
    assert state[1][0] == second[0] and state[2][0] == second[1]


def test_bad_games_are_refused() -> None:
    with pytest.raises(ValueError, match="2 skills but 3"):
        MODEL.rate([MODEL.new()] * 2, [1, 2, 3], luck=10.0)
    with pytest.raises(ValueError, match="two or more"):
        MODEL.rate([MODEL.new()], [1], luck=10.0)


def test_luck_follows_the_game_and_the_table() -> None:
    assert luck_points("buck_euchre", 4) == 10.7
    assert luck_points("bluke", 5) < luck_points("bluke", 4)
    assert luck_points("bluke", 4, hands=25) == luck_points("bluke", 4)
    assert luck_points("bluke", 4, hands=7) < luck_points("bluke", 4)


def test_chances_with_more_luck_are_less_sure_and_still_add_up() -> None:
    """``chance_beta`` widens the performances only where a winner is predicted: 0 is
    ``beta`` itself; more luck, chances nearer a guess, the favourite still favoured."""
    skills = [Skill(35.0, 3.0), Skill(25.0, 5.0), Skill(20.0, 8.0)]
    plain = MODEL.win_chances(skills)
    assert ScoreModel(chance_beta=MODEL.beta).win_chances(skills) == plain
    wider = ScoreModel(chance_beta=4 * MODEL.beta).win_chances(skills)
    assert sum(wider) == pytest.approx(1.0)
    assert plain[0] > wider[0] > wider[1] > wider[2] > plain[2]
    assert max(abs(c - 1 / 3) for c in wider) < max(abs(c - 1 / 3) for c in plain)
    # the ratings themselves do not move
    after = ScoreModel(chance_beta=100.0).rate(skills, [120, 80, 40], luck=69.0)
    assert after == MODEL.rate(skills, [120, 80, 40], luck=69.0)


def _season(model: ScoreModel, offsets: list[float], games: int) -> list[Skill]:
    """``offsets`` (in luck units over the league's mean) scored in every one of ``games``
    weekly Bluke games at tables of four against the league: each player's skill after."""
    luck = 82.0
    means = LeagueMeans({(4, 25): (0, 400)})  # an established league whose mean total is 0
    skills = [model.new()] * len(offsets)
    for _ in range(games):
        for first in range(0, len(offsets), 4):
            table = slice(first, first + 4)
            before = [model.before_game(s, days_away=7) for s in skills[table]]
            totals = [round(o * luck) for o in offsets[table]]
            skills[table] = model.rate_game(before, totals, luck=luck, hands=25, means=means)
    return skills


def test_a_newcomer_with_one_lucky_game_does_not_top_the_board() -> None:
    """The board orders a settled rating by mu and holds a provisional one down by three
    times its sigma above the provisional threshold: a newcomer whose first game is three
    luck spreads above the league's mean (the best of hundreds of games between equals)
    stays below a settled player who averages half a spread above it, and is marked
    provisional; the settled player stands at their mu."""
    model = MODELS["bluke"]
    settled = _season(model, [0.5, 0.25, 0.0, -0.25, 0.1, -0.1, -0.5, 0.0], games=30)
    best = settled[0]
    assert not model.is_provisional(best)
    assert model.board_value(best) == best.mu
    means = LeagueMeans({(4, 25): (0, 400)})
    newcomer, *_ = model.rate_game([model.new()] * 4, [3 * 82, 0, 0, 0], luck=82.0, hands=25,
                                   means=means)  # fmt: skip
    assert model.is_provisional(newcomer)
    assert newcomer.mu > best.mu  # the lucky game alone says more than half a spread...
    assert model.board_value(newcomer) < model.board_value(best)  # ...but not on the board
    assert sorted(settled, key=model.board_value, reverse=True)[0] == best


def test_the_board_ranks_settled_players_by_what_they_showed() -> None:
    """Two settled players, one of whom has played far more: ordered by mu, whatever
    their sigmas (``mu - 3 sigma`` put the regular first)."""
    model = MODELS["bluke"]
    regular = Skill(30.0, model.sigma_after(40))
    missed_nights = Skill(31.0, model.provisional_sigma - 0.01)
    assert regular.ordinal > missed_nights.ordinal
    assert model.board_value(missed_nights) > model.board_value(regular)
