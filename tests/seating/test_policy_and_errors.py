"""Table sizes, every SeatingError code, pins and sit-out rotation."""

from __future__ import annotations

import pytest

from league.seating import (
    ERROR_CODES,
    PastRound,
    SeatingError,
    Table,
    TablePolicy,
    assess,
    plan_night,
    plan_round,
)


@pytest.mark.parametrize(
    ("present", "spill", "size", "sizes"),
    [
        (11, "smaller", 4, (4, 4, 3)),
        (13, "smaller", 4, (4, 3, 3, 3)),
        (13, "larger", 4, (5, 4, 4)),
        (6, "smaller", 4, (3, 3)),
        (3, "smaller", 4, (3,)),
        (5, "smaller", 4, (5,)),
        (12, "smaller", 4, (4, 4, 4)),
        (7, "smaller", 6, (4, 3)),
        (13, "smaller", 6, (5, 4, 4)),
        (4, "smaller", 3, (4,)),
        (10, "larger", 3, (4, 3, 3)),
    ],
)
def test_bluke_table_sizes(present: int, spill: str, size: int, sizes: tuple[int, ...]) -> None:
    policy = TablePolicy("bluke", size=size, spill=spill)  # type: ignore[arg-type]
    assert policy.table_sizes(present) == sizes


POLICIES = [
    TablePolicy(game, size=size, spill=spill)
    for game, sizes in (("bluke", range(3, 7)), ("buck_euchre", (4,)))
    for size in sizes
    for spill in ("smaller", "larger")
]


@pytest.mark.parametrize("policy", POLICIES, ids=repr)
def test_the_sizes_a_policy_draws_are_every_size_of_every_count(policy: TablePolicy) -> None:
    """``sizes_drawn`` looks at counts up to SIZES_SEEN_BY; every count to 600
    draws no other size, and each size first at the count it names."""
    first: dict[int, int] = {}
    for present in range(policy.min_players, 601):
        for size in policy.table_sizes(present):
            first.setdefault(size, present)
    assert policy.sizes_drawn() == dict(sorted(first.items()))


def test_buck_euchre_tables_of_four() -> None:
    assert TablePolicy("buck_euchre").table_sizes(11) == (4, 4)
    assert TablePolicy("buck_euchre").table_sizes(4) == (4,)


def _code(call: object) -> SeatingError:
    assert callable(call)
    with pytest.raises(SeatingError) as caught:
        call()
    return caught.value


def test_every_error_code() -> None:
    bluke = TablePolicy("bluke")
    seen = {
        _code(lambda: plan_round([1, 2], bluke)).code,
        _code(lambda: plan_round([1, 2, 3], TablePolicy("buck_euchre"))).code,
        _code(lambda: TablePolicy("bluke", size=7)).code,
        _code(lambda: TablePolicy("buck_euchre", size=3)).code,
        _code(lambda: plan_night(range(6), bluke, rounds=0)).code,
        _code(lambda: plan_round(range(6), bluke, method="best")).code,
        _code(lambda: plan_round(range(6), bluke, keep_apart=[(1, 1)])).code,
        _code(lambda: plan_round(range(6), bluke, method="swiss", ranking=[0, 1])).code,
        _code(lambda: plan_round(range(6), bluke, pins={0: 2})).code,
        _code(lambda: plan_round(range(6), bluke, pins={0: 0, 1: 0, 2: 0, 3: 0})).code,
        _code(lambda: plan_round([1, 2, 2, 3], bluke)).code,
        _code(lambda: plan_round(range(6), bluke, pins={9: 0})).code,
    }
    assert seen == set(ERROR_CODES)


def test_error_fields_are_data() -> None:
    error = _code(lambda: plan_round(["a", "b", "a", "c", "b"], TablePolicy("bluke")))
    assert (error.code, error.players) == ("duplicate_player", ("a", "b"))
    error = _code(lambda: plan_round(range(6), TablePolicy("bluke"), pins={4: 5, 3: 5}))
    assert (error.code, error.players, error.table, error.round) == (
        "pin_out_of_range",
        (3, 4),
        5,
        0,
    )
    error = _code(
        lambda: plan_night(range(8), TablePolicy("bluke"), rounds=2, absent={1: range(6)})
    )
    assert (error.code, error.round, error.players) == ("too_few_players", 1, (6, 7))
    assert error.to_json()["code"] == "too_few_players"
    error = _code(lambda: plan_round(range(6), TablePolicy("bluke"), method="rating", ranking=[5]))
    assert error.players == (0, 1, 2, 3, 4)


def test_pinned_players_sit_at_their_table() -> None:
    pins = {0: 2, 7: 2, 5: 0}
    plan = plan_night(range(13), TablePolicy("bluke"), rounds=3, pins=pins, seed=4)
    for seating in plan.rounds:
        for player, table in pins.items():
            assert player in seating.tables[table].players


def test_pinned_players_never_sit_out() -> None:
    plan = plan_night(range(7), TablePolicy("buck_euchre"), rounds=4, pins={3: 0}, seed=2)
    for seating in plan.rounds:
        assert 3 not in seating.sit_out
        assert 3 in seating.tables[0].players


def test_sit_outs_rotate_through_everyone_before_anyone_twice() -> None:
    # 9 players, 1 sits out each round: 9 rounds seat each out exactly once.
    plan = plan_night(range(9), TablePolicy("buck_euchre"), rounds=9, seed=3)
    outs = [p for seating in plan.rounds for p in seating.sit_out]
    assert sorted(outs) == list(range(9))


def test_sit_out_follows_history_then_season() -> None:
    history = [
        PastRound(((0, 1, 2, 3),), sit_out=(4,), events_ago=1),
        PastRound(((0, 1, 2, 4),), sit_out=(3,), events_ago=0),
        PastRound(((0, 1, 3, 4),), sit_out=(2,), events_ago=0),
    ]
    # 2 sat out the round before, 3 tonight: 0, 1 and 4 have not sat out tonight,
    # and 4 sat out last event: 0 or 1 sits out.
    for seed in range(10):
        seating = plan_round(range(5), TablePolicy("buck_euchre"), history=history, seed=seed)
        assert seating.sit_out in ((0,), (1,))


def test_never_out_twice_in_a_row_when_avoidable() -> None:
    history = [PastRound(((0, 1, 2, 3),), sit_out=(4, 5, 6), events_ago=0)]
    seating = plan_round(range(7), TablePolicy("buck_euchre"), history=history, seed=1)
    assert set(seating.sit_out) <= {0, 1, 2, 3}


def test_a_seating_made_by_hand_is_assessed_as_a_draw_would_be() -> None:
    """``assess`` reports the repeats and cost of given tables exactly as
    ``plan_round`` reports its own draw."""
    history = [PastRound(((0, 1, 2, 3), (4, 5, 6, 7)), events_ago=0)]
    drawn = plan_round(range(8), TablePolicy("bluke"), history=history, seed=4)
    again = assess(drawn.tables, sit_out=drawn.sit_out, history=history)
    assert (again.repeats, again.cost) == (drawn.repeats, drawn.cost)
    by_hand = assess([Table((0, 1, 4, 5), 0), Table((2, 3, 6, 7), 1)], history=history)
    assert by_hand.repeat_count == 4
    assert by_hand.cost.repeats == 400
