"""The zero-repeat designs reached by search, the methods, and the command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import combinations

import pytest

from league.seating import (
    Method,
    PastRound,
    TablePolicy,
    Weights,
    evaluate,
    plan_night,
    plan_round,
)


@pytest.mark.parametrize(
    ("players", "size", "rounds", "seed"),
    [(9, 3, 4, 1), (16, 4, 5, 1), (15, 3, 7, 1)],
    ids=["9-at-3-for-4", "16-at-4-for-5", "kirkman-15-at-3-for-7"],
)
def test_designs_have_no_repeats(players: int, size: int, rounds: int, seed: int) -> None:
    plan = plan_night(range(players), TablePolicy("bluke", size=size), rounds=rounds, seed=seed)
    met = [
        frozenset(pair)
        for seating in plan.rounds
        for table in seating.tables
        for pair in combinations(table.players, 2)
    ]
    assert len(met) == len(set(met))
    assert plan.repeat_count == 0
    assert plan.cost.total == 0
    # A complete design: every pair meets exactly once when the counts allow it.
    if players * (players - 1) // 2 == len(met):
        assert len(set(met)) == players * (players - 1) // 2


def test_repeats_reported_with_whom_and_how_often() -> None:
    history = [
        PastRound(((0, 1, 2),), events_ago=0),
        PastRound(((0, 1, 2),), events_ago=2),
    ]
    seating = plan_round([0, 1, 2], TablePolicy("bluke"), history=history, seed=0)
    repeats = {frozenset(r.players): r for r in seating.repeats}
    assert len(repeats) == 3
    r = repeats[frozenset((0, 1))]
    assert (r.tonight, r.earlier_events, r.cost) == (1, 1, 100 + 10)
    assert seating.cost.repeats == 3 * 110
    assert seating.repeat_count == 3


def test_balanced_finds_the_cheapest_split() -> None:
    # Six players, two tables of 3; every split is priced by evaluate() and the
    # plan must cost the least of them: two of tonight's pairs (100 each) and two of
    # last event's (20 each) are unavoidable.
    history = [
        PastRound(((0, 3, 4), (1, 2, 5)), events_ago=1),
        PastRound(((0, 1, 2), (3, 4, 5)), events_ago=0),
    ]
    seating = plan_round(range(6), TablePolicy("bluke", size=3), history=history, seed=5)
    cheapest = min(
        evaluate([[first, tuple(p for p in range(6) if p not in first)]], history=history)[0].total
        for first in combinations(range(6), 3)
    )
    assert seating.cost.total == cheapest == 240


def test_swiss_groups_neighbours_in_the_ranking() -> None:
    ranking = [7, 3, 5, 1, 0, 2, 6, 4]
    seating = plan_round(range(8), TablePolicy("bluke"), method=Method.SWISS, ranking=ranking)
    assert [sorted(t.players) for t in seating.tables] == [[1, 3, 5, 7], [0, 2, 4, 6]]
    assert seating.cost.spread == 0


def test_swiss_moves_a_neighbour_rather_than_repeat_tonight() -> None:
    ranking = list(range(8))
    history = [PastRound(((0, 1, 2, 3), (4, 5, 6, 7)), events_ago=0)]
    seating = plan_round(
        range(8), TablePolicy("bluke"), method="swiss", ranking=ranking, history=history, seed=2
    )
    # Regrouping costs spread (30 a place), far less than 6 repeats tonight (600).
    assert seating.cost.repeats + seating.cost.spread < 600
    rating = plan_round(
        range(8), TablePolicy("bluke"), method="rating", ranking=ranking, history=history
    )
    assert [sorted(t.players) for t in rating.tables] == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_evaluate_matches_the_plan() -> None:
    history = [PastRound(((0, 1, 2, 3), (4, 5, 6, 7)), events_ago=1)]
    plan = plan_night(range(8), TablePolicy("bluke"), rounds=3, history=history, seed=9)
    tables = [[t.players for t in s.tables] for s in plan.rounds]
    assert evaluate(tables, history=history) == tuple(s.cost for s in plan.rounds)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "league.seating", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_cli_plans_a_night() -> None:
    done = _run(
        "plan", "--players", "16", "--rounds", "5", "--table-size", "4", "--game", "bluke",
        "--method", "balanced", "--seed", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {"rounds", "repeats", "seed"}
    assert (answer["repeats"], answer["seed"], len(answer["rounds"])) == (0, 1, 5)
    for seating in answer["rounds"]:
        assert set(seating) == {"tables", "first_dealers", "sit_out"}
        assert sorted(p for t in seating["tables"] for p in t) == list(range(16))
        assert all(0 <= d < 4 for d in seating["first_dealers"])
    assert (
        _run("plan", "--players", "16", "--rounds", "5", "--seed", "1").stdout
        == _run("plan", "--players", "16", "--rounds", "5", "--seed", "1").stdout
    )


def test_cli_absent_and_sit_outs() -> None:
    done = _run(
        "plan", "--players", "10", "--rounds", "3", "--game", "buck_euchre", "--absent", "2:3,7",
        "--absent", "9",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rounds = json.loads(done.stdout)["rounds"]
    second = [p for t in rounds[1]["tables"] for p in t] + rounds[1]["sit_out"]
    assert sorted(second) == [0, 1, 2, 4, 5, 6, 8]
    assert all(9 not in [p for t in r["tables"] for p in t] + r["sit_out"] for r in rounds)


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["plan"],
        ["plan", "--players", "x"],
        ["plan", "--players", "2"],
        ["plan", "--players", "8", "--absent", "5:1"],
        ["plan", "--players", "8", "--absent", "a:b"],
        ["plan", "--players", "8", "--table-size", "9"],
        ["plan", "--players", "8", "--method", "best"],
        ["plan", "--players", "8", "--rounds", "0"],
    ],
)
def test_cli_bad_arguments_exit_2_with_one_line(args: list[str]) -> None:
    done = _run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith("python -m league.seating: ")


def test_meeting_weights_fall_with_time() -> None:
    weights = Weights()
    assert [weights.meeting(ago) for ago in range(1, 8)] == [20, 10, 5, 2, 1, 1, 1]
    assert [weights.meeting_tonight(times) for times in range(4)] == [0, 100, 110, 120]


def test_fewest_repeat_meetings_come_before_spreading_them() -> None:
    # Eight players at two tables of four for three rounds: 36 meetings of 28 pairs,
    # so at least 8 repeats. Only four pairs meeting three times reach 8; spreading
    # the repeats over twelve pairs (each meeting twice) would make 12.
    plan = plan_night(range(8), TablePolicy("bluke"), rounds=3, seed=1)
    assert plan.repeat_count == 8
    met: dict[frozenset[int], int] = {}
    for seating in plan.rounds:
        for table in seating.tables:
            for pair in combinations(table.players, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    assert sorted(met.values()).count(3) == 4
    assert plan.cost.repeats == 4 * 100 + 4 * 110  # round 2's four, round 3's four


def test_random_reports_repeats_and_keeps_pairs_apart() -> None:
    history = [PastRound(((0, 1, 2, 3),), events_ago=0)]
    seating = plan_round(range(4), TablePolicy("bluke"), history=history, method="random")
    assert seating.repeat_count == 6
    assert seating.cost.repeats == 600
    keep = [(0, 1), (2, 3), (4, 5)]
    for seed in range(5):
        drawn = plan_round(
            range(8), TablePolicy("bluke"), method="random", keep_apart=keep, seed=seed
        )
        assert drawn.kept_apart_together == ()
        assert drawn.cost.keep_apart == 0


def test_keep_apart_reported_when_unavoidable() -> None:
    seating = plan_round(range(4), TablePolicy("bluke"), keep_apart=[(2, 0)])
    assert [frozenset(p) for p in seating.kept_apart_together] == [frozenset((0, 2))]
    assert seating.cost.keep_apart == Weights().keep_apart


def test_plan_does_not_depend_on_string_hashing() -> None:
    script = (
        "from league.seating import PastRound, TablePolicy, plan_night\n"
        "names = ['ann', 'bob', 'cy', 'dee', 'eve', 'fay', 'gus', 'hal', 'ivy', 'jo', 'kit']\n"
        "history = [PastRound((tuple(names[:4]), tuple(names[4:8])), sit_out=tuple(names[8:]))]\n"
        "plan = plan_night(names, TablePolicy('buck_euchre'), rounds=3, history=history,\n"
        "                  seed=4, keep_apart=[('ann', 'bob')])\n"
        "print(repr(plan))\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1
