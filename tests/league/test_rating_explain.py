"""Why a rating moved (issue 32, item 2): the explanation's arithmetic against
games worked by hand, for each game, what the re-rating keeps for it, and the
case that prompted it: after one Bluke game a newcomer in second place rated
below a settled player who came last."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from league import ratings
from league.models import Game, RatingHistory, Table
from league.rating_explain import expected_totals, explain, one_decimal
from league.rating_model import MODELS, Skill, luck_points
from league.rating_words import game_words, held_down_words
from tests.support.setups import club_setup

BLUKE, BUCK = MODELS["bluke"], MODELS["buck_euchre"]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """The words in English, whatever language an earlier test's request left active."""
    with translation.override("en-gb"):
        yield


def test_a_bluke_game_against_the_leagues_average_worked_by_hand() -> None:
    # Ann, settled at mu 31 (sigma 9, below Bluke's 10.17: no holding down), at a
    # table of four whose league mean total is 100, luck 64 points: the model
    # expects (31 - 25) x 64 / 32 = 12 above the mean; she scores 140, 40 above.
    (ann,) = expected_totals(BLUKE, [31.0], [140], luck=64.0, mean=100.0, lower_is_better=False)
    assert ann == pytest.approx(112.0)
    before = BLUKE.before_game(Skill(31.0, 9.0), days_away=7)
    # her update on its own: y = 25 + 40 x 32 / 64 = 45, gain sigma² / (sigma² + 32²)
    gain = before.sigma**2 / (before.sigma**2 + 32.0**2)
    mu = 31.0 + gain * (45.0 - 31.0)
    after = BLUKE.rate([before, BLUKE.new()], [140, 60], luck=64.0, expected=100.0)[0]
    assert after.mu == pytest.approx(mu)
    game = explain(
        BLUKE,
        before=Skill(31.0, 9.0),
        after=after,
        points=140,
        mean=100.0,
        expected=ann,
        against_table=False,
        players=4,
        lower_is_better=False,
    )
    assert (game.before, game.margin, game.expected_margin) == (31.0, 40.0, 12.0)
    assert game.after == one_decimal(mu) == 32.1
    assert game.change == 1.1  # the shown figures' difference: 31.0 + 1.1 = 32.1
    assert game_words(game) == (
        "Scored 40.0 above the league's average at tables of 4; expected 12.0 above: +1.1."
    )
    assert held_down_words(game) == ""


def test_a_buck_euchre_game_against_the_tables_average_worked_by_hand() -> None:
    # mu 28, 24, 24, 24 (average 25), totals 2, 10, 12, 16 (average 10), luck 10.7:
    # the strong player is expected (28 - 25) x 10.7 / 32 = 1.0 below the table's
    # average (Buck Euchre counts down), and made 8 below it.
    skills = [Skill(28.0, 5.0), Skill(24.0, 5.0), Skill(24.0, 5.0), Skill(24.0, 5.0)]
    totals = [2, 10, 12, 16]
    expected = expected_totals(
        BUCK, [s.mu for s in skills], totals, luck=10.7, mean=None, lower_is_better=True
    )
    assert expected[0] == pytest.approx(10 - 3 * 10.7 / 32)
    assert expected[1] == pytest.approx(10 + 10.7 / 32)
    after = BUCK.rate(skills, totals, luck=10.7, lower_is_better=True)
    game = explain(
        BUCK,
        before=skills[0],
        after=after[0],
        points=2,
        mean=10.0,
        expected=expected[0],
        against_table=True,
        players=4,
        lower_is_better=True,
    )
    assert (game.margin, game.expected_margin, game.against) == (-8.0, -1.0, "table")
    assert game.better_than_expected and after[0].mu > 28.0
    assert game.change == one_decimal(one_decimal(after[0].mu) - 28.0) > 0
    assert game_words(game) == (
        f"Scored 8.0 below the table's average; expected 1.0 below: +{game.change:.1f}."
    )


def test_after_one_bluke_game_a_newcomer_in_second_place_below_a_settled_last_is_explained() -> (
    None
):
    settled, newcomer = Skill(30.0, 9.0), BLUKE.new()
    skills = [BLUKE.new(), BLUKE.before_game(newcomer), BLUKE.new(), settled]
    totals = [180, 140, 90, 40]  # the newcomer second, the settled player last
    after = BLUKE.rate(skills, totals, luck=82.0, expected=100.0)
    assert BLUKE.board_value(after[1]) < BLUKE.board_value(after[3])  # the reported case
    expected = expected_totals(
        BLUKE, [s.mu for s in skills], totals, luck=82.0, mean=100.0, lower_is_better=False
    )
    second = explain(
        BLUKE,
        before=newcomer,
        after=after[1],
        points=140,
        mean=100.0,
        expected=expected[1],
        against_table=False,
        players=4,
        lower_is_better=False,
    )
    last = explain(
        BLUKE,
        before=settled,
        after=after[3],
        points=40,
        mean=100.0,
        expected=expected[3],
        against_table=False,
        players=4,
        lower_is_better=False,
    )
    assert second.after < last.after
    # the newcomer rose, and is held down by the uncertainty one game leaves
    assert second.change > 0 and second.settling
    held = after[1].mu - BLUKE.board_value(after[1])
    assert held == pytest.approx(3 * (after[1].sigma - BLUKE.provisional_sigma))
    assert second.held_down == one_decimal(held) > 20
    assert second.eased > 0  # one game made the newcomer surer: held down less than before
    assert held_down_words(second) == (
        f"Skill estimate +{second.estimate_change:.1f}; held down by {second.held_down:.1f} "
        f"until it settles, {second.eased:.1f} less than before."
    )
    # the change is the estimate's own move and what the holding down eased
    assert second.change == pytest.approx(second.estimate_change + second.eased, abs=0.11)
    assert game_words(second).startswith(
        "Scored 40.0 above the league's average at tables of 4; expected 0.0 above: +"
    )
    # the settled player fell: 60 below where (30 - 25) x 82 / 32 = 12.8 above was expected
    assert game_words(last) == (
        "Scored 60.0 below the league's average at tables of 4; expected 12.8 above: "
        f"{last.change:.1f}."
    )
    assert last.change < 0 and not last.settling and held_down_words(last) == ""


def test_the_rounding_is_a_readers_half_up_and_never_minus_zero() -> None:
    assert [one_decimal(v) for v in (0.05, 0.15, -0.05, -0.04, 12.449, 4.45)] == [
        0.1,
        0.2,
        -0.1,
        0.0,
        12.4,
        4.5,
    ]
    assert math.copysign(1.0, one_decimal(-0.04)) == 1.0


# -- what the re-rating keeps ----------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_the_rerating_keeps_what_each_game_was_measured_against(
    game: str, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.web.test_words import played  # a game a night, seat 0 winning each

    setup = club_setup(game=game, options={"max_cards": 2} if game == Game.BLUKE else None)
    tables = played(setup, 2, django_capture_on_commit_callbacks)
    scope = setup.league.rating_scope
    model = MODELS[game]
    lower_is_better = game == Game.BUCK_EUCHRE
    first, second = (
        list(RatingHistory.objects.filter(scope=scope, table=table)) for table in tables
    )
    seatings = {(s.table_id, s.player_id): s.total for t in tables for s in t.seatings.all()}
    first_totals = [seatings[(tables[0].pk, row.player_id)] for row in first]
    assert len(first) == len(second) == 4
    first_average = sum(first_totals) / 4
    # the first game: new players, counted against their table's average
    for row in first:
        assert row.points == seatings[(tables[0].pk, row.player_id)]
        assert row.against_table and row.mean == pytest.approx(first_average)
        assert row.expected == pytest.approx(first_average)  # equal skills: the average
    luck = luck_points(game, 4, hands=Table.objects.get(pk=tables[1].pk).hands_played)
    sign = -1.0 if lower_is_better else 1.0
    second_totals = [seatings[(tables[1].pk, row.player_id)] for row in second]
    mus = {row.player_id: row.mu for row in first}
    skill_average = sum(mus.values()) / 4
    for row in second:
        if game == Game.BLUKE:  # the league's mean at tables of four, of the first game
            assert not row.against_table and row.mean == pytest.approx(first_average)
            hoped = first_average + (mus[row.player_id] - 25.0) * luck / 32.0
        else:
            average = sum(second_totals) / 4
            assert row.against_table and row.mean == pytest.approx(average)
            hoped = average + sign * (mus[row.player_id] - skill_average) * luck / 32.0
        assert row.expected == pytest.approx(hoped)
    assert model.beta == 32.0


@pytest.mark.django_db
def test_a_rebuild_keeps_the_same(django_capture_on_commit_callbacks: Any) -> None:
    from tests.web.test_words import played

    setup = club_setup(game=Game.BUCK_EUCHRE)
    played(setup, 3, django_capture_on_commit_callbacks)
    scope = setup.league.rating_scope

    def kept() -> list[tuple[Any, ...]]:
        rows = RatingHistory.objects.filter(scope=scope).order_by("order_key", "player_id")
        return list(rows.values_list("points", "mean", "expected", "against_table"))

    before = kept()
    assert len(before) == 12 and all(value is not None for row in before for value in row)
    ratings.ratings_rebuild(scope=scope)
    assert kept() == before


@pytest.mark.django_db
def test_the_words_modules_examples_hold() -> None:
    import doctest

    from league import rating_words

    assert doctest.testmod(rating_words).failed == 0
