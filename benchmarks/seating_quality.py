"""Repeat meetings of league.seating against a Pantheon-style baseline, and its speed.

What runs (all seeded, so the figures repeat):

1. Whole nights: for each player count (``--players``, default 8 16 24 40), round
   count (``--rounds``, default 3 5 8) and game (Buck Euchre; Bluke at 4; Bluke at 5
   with larger tables, which mixes sizes), the repeats of ``plan_night`` (balanced)
   and of the baseline: per round, 1,000 seeded shuffles, each scored +1 per pair that
   met before tonight and +10 per pair that met in the round before, the best kept
   (the way Pantheon seats a round). A repeat is a meeting of a pair who had met
   before that night.
2. The designs, where the optimum is 0: 9 at 3 for 4 rounds, 16 at 4 for 5, 15 at
   3 for 7.
3. A season: ``--nights`` (20) nights of 4 rounds for a club of 24, a third absent
   each night, planned one night at a time with the season so far as history;
   repeats within nights, meetings of pairs who met at any earlier night, and how
   evenly the meetings spread (the most meetings of one pair; the sum over pairs of
   k(k-1)/2 for k meetings). With 16 of 24 present, every pair has met after a few
   nights, so the season's repeat meetings in all are fixed by arithmetic (1,920
   meetings of 276 pairs: 1,644) for any seating; what a seating chooses is where
   they fall (within a night, which players notice, or across nights) and how
   evenly. "Better on the season" means fewer repeats within nights and a more even
   spread, with the same total.
4. Speed: one round for 100 players (12 earlier rounds as history: 3 tonight, the
   rest from 3 earlier events), balanced, swiss and rating; a whole 8-round night for
   40 players; best of 3, wall clock.

Usage: ``python benchmarks/seating_quality.py [--players 8 16 ...] [--rounds 3 8]
[--nights 20] [--shuffles 1000]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.seating import PastRound, TablePolicy, plan_night, plan_round


def night_repeats(rounds: list[list[tuple[int, ...]]]) -> int:
    """Meetings of pairs who had met before that night (a pair at one table in three
    rounds counts 2)."""
    return sum(max(0, k - 1) for k in _meetings(rounds).values())


def night_weighted(rounds: list[list[tuple[int, ...]]]) -> int:
    """Repeats counted once per earlier meeting, as the generator's cost counts them
    (a pair at one table in three rounds counts 1 + 2 = 3)."""
    return sum(k * (k - 1) // 2 for k in _meetings(rounds).values())


def _meetings(rounds: list[list[tuple[int, ...]]]) -> dict[frozenset[int], int]:
    met: dict[frozenset[int], int] = {}
    for tables in rounds:
        for table in tables:
            for pair in combinations(table, 2):
                key = frozenset(pair)
                met[key] = met.get(key, 0) + 1
    return met


def baseline_night(
    players: int | list[int],
    rounds: int,
    policy: TablePolicy,
    seed: int,
    shuffles: int,
    met: set[frozenset[int]] | None = None,
) -> list[list[tuple[int, ...]]]:
    """Pantheon's way, round by round; ``met`` (updated) holds the season's pairs."""
    rng = random.Random(seed)
    people = list(range(players)) if isinstance(players, int) else players
    sizes = policy.table_sizes(len(people))
    met = set() if met is None else met
    last: set[frozenset[int]] = set()
    out = []
    for _ in range(rounds):
        best: list[tuple[int, ...]] = []
        best_score = -1
        for _ in range(shuffles):
            order = list(people)
            rng.shuffle(order)
            tables, k = [], 0
            for size in sizes:
                tables.append(tuple(order[k : k + size]))
                k += size
            score = 0
            for table in tables:
                for pair in combinations(table, 2):
                    key = frozenset(pair)
                    score += (key in met) + 10 * (key in last)
            if best_score < 0 or score < best_score:
                best, best_score = tables, score
        last = {frozenset(p) for t in best for p in combinations(t, 2)}
        met |= last
        out.append(best)
    return out


def ours(players: int, rounds: int, policy: TablePolicy, seed: int) -> list[list[tuple[int, ...]]]:
    plan = plan_night(range(players), policy, rounds=rounds, seed=seed)
    return [[t.players for t in s.tables] for s in plan.rounds]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[8, 16, 24, 40])
    parser.add_argument("--rounds", type=int, nargs="+", default=[3, 5, 8])
    parser.add_argument("--nights", type=int, default=20, choices=range(1, 1000), metavar="N")
    parser.add_argument("--shuffles", type=int, default=1000)
    args = parser.parse_args()
    games = [
        ("buck_euchre", TablePolicy("buck_euchre")),
        ("bluke 4", TablePolicy("bluke")),
        ("bluke 5 larger", TablePolicy("bluke", size=5, spill="larger")),
    ]
    print("1. Whole nights (seed 1): repeats (and repeats weighted per earlier meeting),")
    print("   ours vs baseline; s = our planning time")
    print(f"{'game':16} {'players':>7} {'rounds':>6} {'ours':>9} {'baseline':>9} {'s':>6}")
    for name, policy in games:
        for n in args.players:
            for r in args.rounds:
                start = time.perf_counter()
                mine = ours(n, r, policy, seed=1)
                took = time.perf_counter() - start
                base = baseline_night(n, r, policy, 1, args.shuffles)
                a = f"{night_repeats(mine)} ({night_weighted(mine)})"
                b = f"{night_repeats(base)} ({night_weighted(base)})"
                print(f"{name:16} {n:7} {r:6} {a:>9} {b:>9} {took:6.2f}")
    print("\n2. Designs (optimum 0): ours, baseline")
    for n, size, r in ((9, 3, 4), (16, 4, 5), (15, 3, 7)):
        policy = TablePolicy("bluke", size=size)
        mine = night_repeats(ours(n, r, policy, seed=1))
        base = night_repeats(baseline_night(n, r, policy, 1, args.shuffles))
        print(f"{n} at {size} for {r} rounds: ours {mine}, baseline {base}, optimum 0")
    print(f"\n3. Season: {args.nights} nights of 4 rounds, club of 24, a third absent")
    rng = random.Random(7)
    nights = [sorted(rng.sample(range(24), 16)) for _ in range(args.nights)]
    history: list[PastRound[int]] = []
    season_ours: list[list[list[tuple[int, ...]]]] = []
    start = time.perf_counter()
    for night, present in enumerate(nights):
        plan = plan_night(present, TablePolicy("bluke"), rounds=4, history=history, seed=night)
        tables = [[t.players for t in s.tables] for s in plan.rounds]
        season_ours.append(tables)
        history = [PastRound(p.tables, p.sit_out, p.events_ago + 1) for p in history] + [
            PastRound(tuple(ts), events_ago=1) for ts in tables
        ]
    took = time.perf_counter() - start
    season_met: set[frozenset[int]] = set()
    season_base = [
        baseline_night(present, 4, TablePolicy("bluke"), night, args.shuffles, season_met)
        for night, present in enumerate(nights)
    ]
    for label, season in (("ours", season_ours), ("baseline", season_base)):
        within = sum(night_repeats(tables) for tables in season)
        seen: set[frozenset[int]] = set()
        again = 0
        times: dict[frozenset[int], int] = {}
        for tables in season:
            tonight = {frozenset(p) for ts in tables for t in ts for p in combinations(t, 2)}
            again += len(tonight & seen)
            seen |= tonight
            for ts in tables:
                for t in ts:
                    for pair in combinations(t, 2):
                        key = frozenset(pair)
                        times[key] = times.get(key, 0) + 1
        uneven = sum(k * (k - 1) // 2 for k in times.values())
        print(
            f"{label:8}: repeat meetings {within + again} = {within} within nights + "
            f"{again} of pairs who met on an earlier night; most meetings of one pair "
            f"{max(times.values())}; sum of k(k-1)/2 over pairs {uneven}"
        )
    print(f"(ours: {took:.1f} s for the season; 24 players make 276 pairs, a night 96 meetings)")
    print("\n4. Speed (best of 3)")
    rng = random.Random(5)
    past = []
    for k in range(12):
        order = list(range(100))
        rng.shuffle(order)
        tables = tuple(tuple(order[i : i + 4]) for i in range(0, 100, 4))
        past.append(PastRound(tables, events_ago=max(0, k - 2) // 3))
    ranking = list(range(100))
    rng.shuffle(ranking)
    bluke = TablePolicy("bluke")
    cases = {
        "one round, 100 players (balanced)": lambda: plan_round(
            range(100), bluke, history=past, seed=1
        ),
        "one round, 100 players (swiss)": lambda: plan_round(
            range(100), bluke, history=past, seed=1, method="swiss", ranking=ranking
        ),
        "one round, 100 players (rating)": lambda: plan_round(
            range(100), bluke, history=past, seed=1, method="rating", ranking=ranking
        ),
        "8-round night, 40 players (balanced)": lambda: plan_night(
            range(40), bluke, rounds=8, seed=1
        ),
    }
    for label, call in cases.items():
        times = []
        for _ in range(3):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
        print(f"{label}: {min(times):.3f} s")


if __name__ == "__main__":
    main()
