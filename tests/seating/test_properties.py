"""Hypothesis properties of plan_night: everyone placed once, sizes by the policy,
keep-apart honoured, reproducible, and the reported cost recomputed independently."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from league.seating import Method, PastRound, Plan, Search, TablePolicy, Weights, plan_night

PROPERTY = settings(max_examples=30, deadline=None)


@st.composite
def requests(draw: st.DrawFn) -> dict[str, object]:
    game = draw(st.sampled_from(["bluke", "buck_euchre"]))
    n = draw(st.integers(4, 22))
    size = 4 if game == "buck_euchre" else draw(st.integers(3, 6))
    spill = draw(st.sampled_from(["smaller", "larger"]))
    rounds = draw(st.integers(1, 4))
    players = draw(st.permutations(list(range(100, 100 + n))))
    absent = {
        r: draw(st.lists(st.sampled_from(players), max_size=n - 4, unique=True))
        for r in range(rounds)
    }
    history = [
        PastRound(
            tuple(tuple(players[i : i + 3]) for i in range(0, n - 2, 3)),
            sit_out=tuple(players[:1]),
            events_ago=draw(st.integers(0, 5)),
        )
        for _ in range(draw(st.integers(0, 3)))
    ]
    method = draw(st.sampled_from(list(Method)))
    return {
        "players": players,
        "policy": TablePolicy(game, size=size, spill=spill),
        "rounds": rounds,
        "absent": absent,
        "history": history,
        "method": method,
        "ranking": sorted(players),
        "seed": draw(st.integers(0, 2**32)),
    }


def _plan(request: dict[str, object], **extra: object) -> Plan[int]:
    # A small search budget: these properties hold for any plan, not only the best.
    return plan_night(**request, search=Search(iterations=200, restarts=0), **extra)  # type: ignore[arg-type]


@PROPERTY
@given(requests())
def test_everyone_present_is_placed_once_at_tables_the_policy_allows(request: dict) -> None:
    plan = _plan(request)
    policy = request["policy"]
    for r, seating in enumerate(plan.rounds):
        present = [p for p in request["players"] if p not in request["absent"][r]]
        placed = [p for t in seating.tables for p in t.players] + list(seating.sit_out)
        assert sorted(placed) == sorted(present)
        sizes = tuple(len(t.players) for t in seating.tables)
        assert sizes == policy.table_sizes(len(present))
        if policy.game == "bluke":
            assert seating.sit_out == ()
        assert all(0 <= t.first_dealer < len(t.players) for t in seating.tables)


@PROPERTY
@given(requests(), st.data())
def test_keep_apart_pairs_are_apart(request: dict, data: st.DataObject) -> None:
    # Disjoint pairs can always be split when a round has two tables or more.
    players = request["players"]
    count = data.draw(st.integers(1, len(players) // 4))
    pairs = [(players[2 * k], players[2 * k + 1]) for k in range(count)]
    plan = _plan(request, keep_apart=pairs)
    for seating in plan.rounds:
        if len(seating.tables) >= 2:
            assert seating.kept_apart_together == ()
            for table in seating.tables:
                for a, b in pairs:
                    assert not (a in table.players and b in table.players)


@PROPERTY
@given(requests())
def test_same_inputs_and_seed_give_the_same_plan(request: dict) -> None:
    assert _plan(request) == _plan(request)


@PROPERTY
@given(requests())
def test_reported_cost_is_the_cost_of_the_seating(request: dict) -> None:
    plan = _plan(request)
    weights = Weights()
    method = request["method"]
    met: dict[frozenset[int], list[int]] = {}
    for past in request["history"]:
        for table in past.tables:
            for pair in combinations(table, 2):
                met.setdefault(frozenset(pair), []).append(past.events_ago)
    step = {Method.SWISS: 30, Method.RATING: 1000}.get(method, 0)
    for seating in plan.rounds:
        seated = sorted(p for t in seating.tables for p in t.players)  # ranking = sorted ids
        repeats = spread = 0
        for table in seating.tables:
            for pair in combinations(table.players, 2):
                earlier = met.get(frozenset(pair), [])
                tonight = earlier.count(0)  # the first repeat tonight 100, then 10 more each
                repeats += 100 + 10 * (tonight - 1) if tonight else 0
                repeats += sum(max(1, 20 >> (ago - 1)) for ago in earlier if ago > 0)
            places = [seated.index(p) for p in table.players]
            spread += step * (max(places) - min(places) - (len(places) - 1))
        assert seating.cost.repeats == repeats
        assert seating.cost.spread == spread
        assert seating.cost.keep_apart == 0
        assert seating.cost.total == repeats + spread
        assert weights.meeting_tonight(1) == 100
        for table in seating.tables:
            for pair in combinations(table.players, 2):
                met.setdefault(frozenset(pair), []).append(0)
