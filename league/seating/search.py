"""The search: tabu search over swaps of two players between tables of one round.

Players are numbers ``0..n-1`` here; :mod:`league.seating.planner` maps ids to them.
The cost of a night (what :func:`solve` minimises) is, over every pair ``i, j``
meeting ``k`` times in the planned rounds, ``k * base[i][j]`` (``base`` holds the
earlier events' weights and keep-apart) plus, for each of those meetings, what a
meeting after ``c`` earlier ones tonight costs: nothing if ``c`` is 0, else
``tonight + again * (c - 1)`` (``c`` counts the history's rounds of tonight too); plus
``step`` per place of spread beyond the tightest at each table. A swap changes only
the pairs of the two players moved, so its cost is computed in time proportional to
the two tables.

Each iteration picks a round, a player there who adds to the cost (a "conflict") and
is not tabu, and makes the best swap of that player with one at another table of the
round, even a worsening one; both players are then tabu in that round for a few
iterations (unless a swap beats the best plan so far). After ``min(150, 50 + 2 n)`` iterations
without improvement the search goes back to its best plan and shakes it with random
swaps; after 4 such shakes in a row without a better plan, the run ends.
This is the conflict-directed tabu search of Dotú and Van Hentenryck, "Scheduling
social golfers locally" (CPAIOR 2005), sampled one conflict at a time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass
class Problem:
    """What to seat: for each round the table sizes (largest first), the seated
    players (numbers) and the pins (player → table); the pair weights ``base``
    (n by n, symmetric), the meetings ``met`` earlier tonight (n by n), the cost
    ``tonight`` of a pair's first repeat tonight and ``again`` of each further one, and
    the spread: ``rank[r][p]`` the place of seated player ``p`` in round ``r`` and
    ``step`` its cost (0: no spread term). ``ordered``: start from the ranking."""

    n: int
    sizes: list[list[int]]
    seated: list[list[int]]
    pins: list[dict[int, int]]
    base: list[list[int]]
    met: list[list[int]]
    tonight: int
    again: int
    rank: list[list[int]]
    step: int
    ordered: bool


TENURE = 15
"""A moved player stays put in that round for 1 to 15 iterations (a random draw; at
most half the round's free players, so that small rounds keep moves to make)."""

NEIGHBOURHOOD = 24, 240
"""One iteration weighs the swaps of at most 24 conflicts (a random sample beyond), and
fewer in large rounds: about 240 swaps' worth (240 / players, at least 4)."""

WINDOW = 2
"""Under swiss and rating, a player is swapped only with players at most two tables
away (tables follow the ranking)."""

MAX_SHAKES = 4
"""A run ends after this many shakes in a row that led to no better plan."""

Tables = list[list[list[int]]]
"""A plan: for each round, for each table, its players."""

Spans = tuple[list[int], dict[int, tuple[int, int]]]
"""A round's spread: each table's excess, and for each player the lowest and highest
place of the others at the player's table."""


def initial(problem: Problem, r: int, rng: random.Random) -> list[list[int]]:
    """A first seating of round ``r``: pins first, then the rest in ranking order
    (``ordered``) or a shuffled order."""
    pins = problem.pins[r]
    tables: list[list[int]] = [[] for _ in problem.sizes[r]]
    for p in problem.seated[r]:
        if p in pins:
            tables[pins[p]].append(p)
    rest = [p for p in problem.seated[r] if p not in pins]
    if problem.ordered:
        rest.sort(key=lambda p: problem.rank[r][p])
    else:
        rng.shuffle(rest)
    t = 0
    for p in rest:
        while len(tables[t]) >= problem.sizes[r][t]:
            t += 1
        tables[t].append(p)
    return tables


def marginals(problem: Problem) -> list[int]:
    """``marginals(problem)[c]``: what a meeting after ``c`` earlier ones tonight costs
    (beyond ``base``), for every ``c`` a plan can reach."""
    most = max((max(row) for row in problem.met), default=0) + len(problem.sizes)
    return [0] + [problem.tonight + problem.again * c for c in range(most + 1)]


def cost_of(problem: Problem, plan: Tables) -> int:
    """The cost of ``plan``, computed from scratch."""
    base, marginal = problem.base, marginals(problem)
    count = [list(row) for row in problem.met]
    total = 0
    for r, tables in enumerate(plan):
        for table in tables:
            for x, a in enumerate(table):
                for b in table[x + 1 :]:
                    total += base[a][b] + marginal[count[a][b]]
                    count[a][b] += 1
                    count[b][a] += 1
            total += problem.step * _excess(table, problem.rank[r])
    return total


def _spans(tables: list[list[int]], rank: list[int]) -> Spans:
    """Each table's excess spread, and for each player the lowest and highest place
    of the others at the player's table."""
    without: dict[int, tuple[int, int]] = {}
    excess = [_span_table(table, rank, without) for table in tables]
    return excess, without


def _span_table(table: list[int], rank: list[int], without: dict[int, tuple[int, int]]) -> int:
    """The table's excess spread; fills ``without`` for its players."""
    places = [rank[p] for p in table]
    for k, p in enumerate(table):
        others = places[:k] + places[k + 1 :]
        without[p] = (min(others), max(others)) if others else (rank[p], rank[p])
    return _excess(table, rank)


def _excess(table: list[int], rank: list[int]) -> int:
    if len(table) < 2:
        return 0
    places = [rank[p] for p in table]
    return max(places) - min(places) - (len(table) - 1)


def solve(problem: Problem, rng: random.Random, iterations: int, restarts: int) -> Tables:
    """The best plan found in ``restarts + 1`` runs of at most ``iterations`` swaps."""
    rounds = range(len(problem.sizes))
    best: Tables | None = None
    best_cost = 0
    for _ in range(restarts + 1):
        start = [initial(problem, r, rng) for r in rounds]
        plan, cost = _run(problem, start, rng, iterations)
        if best is None or cost < best_cost:
            best, best_cost = plan, cost
        if best_cost == 0:
            break
    assert best is not None
    return best


def _run(problem: Problem, plan: Tables, rng: random.Random, iterations: int) -> tuple[Tables, int]:
    n, base, step = problem.n, problem.base, problem.step
    marginal = marginals(problem)
    n_rounds = len(plan)
    where = [[-1] * n for _ in plan]
    # count[a][b]: the meetings of a and b tonight (history and plan); weight[a][b]:
    # what one more costs now, base[a][b] + marginal[count[a][b]].
    count = [list(row) for row in problem.met]
    weight = [list(row) for row in base]

    def load(tables: Tables) -> None:
        for a in range(n):
            count[a][:] = problem.met[a]
        for r, round_tables in enumerate(tables):
            for t, table in enumerate(round_tables):
                for a in table:
                    where[r][a] = t
                    row = count[a]
                    for b in table:
                        if a != b:
                            row[b] += 1
        for a in range(n):
            weight[a][:] = [w + marginal[c] for w, c in zip(base[a], count[a], strict=True)]

    def meet(a: int, x: int, change: int) -> None:
        """Add ``change`` (1 or -1) meetings of a and x."""
        c = count[a][x] + change
        count[a][x] = count[x][a] = c
        weight[a][x] = weight[x][a] = base[a][x] + marginal[c]

    load(plan)
    movable = [[p for p in problem.seated[r] if p not in problem.pins[r]] for r in range(n_rounds)]
    cost = cost_of(problem, plan)
    best_cost, best = cost, [[list(t) for t in ts] for ts in plan]
    tabu = [[0] * n for _ in plan]
    stall, stall_limit, shakes = 0, min(150, 50 + 2 * n), 0
    # Small rounds get short tenures, or every move would soon be tabu.
    tenures = [max(1, min(TENURE, len(free) // 2)) for free in movable]
    limit = max(4, min(NEIGHBOURHOOD[0], NEIGHBOURHOOD[1] // max(1, n)))

    def leave(r: int, a: int) -> int:
        """What a's meetings at its table in round r cost (0: no conflict there): for
        each tablemate, base and the marginal cost of their latest meeting."""
        row, meetings = base[a], count[a]
        return sum(row[x] + marginal[meetings[x] - 1] for x in plan[r][where[r][a]] if x != a)

    def refresh() -> tuple[list[dict[int, int]], list[Spans]]:
        return (
            [{a: leave(r, a) for a in movable[r]} for r in range(n_rounds)],
            [_spans(plan[r], problem.rank[r]) if step else ([], {}) for r in range(n_rounds)],
        )

    # leaving[r][a]: leave(r, a), kept up to date; spans[r]: _spans of round r.
    leaving, spans = refresh()
    for it in range(1, iterations + 1):
        if best_cost == 0:
            break
        candidates = [
            (r, a)
            for r in range(n_rounds)
            for a in movable[r]
            if leaving[r][a] > 0 or (step and spans[r][0][where[r][a]] > 0)
        ]
        if not candidates:
            break  # what cost is left lies between pinned players
        if len(candidates) > limit:
            candidates = rng.sample(candidates, limit)
        best_delta, best_a, best_b, best_r, ties = 0, -1, -1, -1, 0
        for r, a in candidates:
            tables, rank, pins, tabu_r = plan[r], problem.rank[r], problem.pins[r], tabu[r]
            costs = leaving[r]
            ta = where[r][a]
            table_a = tables[ta]
            row_a = weight[a]
            leave_a = costs[a]
            excess, without = spans[r]
            excess_a = excess[ta] if step else 0
            if step:  # what a's spread terms need, whichever b it meets
                low_a, high_a = without[a]
                place_a, size_a = rank[a], len(table_a)
            tabu_a = tabu_r[a] >= it
            # With a spread term, tables are in ranking order (as the start fills them)
            # and a swap with a distant table only costs: look at the nearest ones.
            near = range(max(0, ta - WINDOW), min(len(tables), ta + WINDOW + 1))
            for tb in near if step else range(len(tables)):
                table_b = tables[tb]
                if tb == ta:
                    continue
                join_a = sum(map(row_a.__getitem__, table_b)) - leave_a
                excess_b = excess[tb] if step else 0
                for b in table_b:
                    if b in pins:
                        continue
                    row_b = weight[b]
                    join_b = sum(map(row_b.__getitem__, table_a)) - row_b[a]
                    delta = join_a - row_a[b] - costs[b] + join_b
                    if step:  # a's table with b instead, and b's with a instead
                        place_b = rank[b]
                        new_a = (high_a if high_a > place_b else place_b) - (
                            low_a if low_a < place_b else place_b
                        )
                        low_b, high_b = without[b]
                        new_b = (high_b if high_b > place_a else place_a) - (
                            low_b if low_b < place_a else place_a
                        )
                        delta += step * (
                            new_a - size_a + new_b - len(table_b) + 2 - excess_a - excess_b
                        )
                    if (tabu_a or tabu_r[b] >= it) and cost + delta >= best_cost:
                        continue
                    if best_b < 0 or delta < best_delta:
                        best_delta, best_a, best_b, best_r, ties = delta, a, b, r, 1
                    elif delta == best_delta:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            best_a, best_b, best_r = a, b, r
        if best_b < 0:
            stall += 1  # every move is tabu: wait for one to expire
            continue
        a, b, r = best_a, best_b, best_r
        ta, tb = where[r][a], where[r][b]
        table_a, table_b = plan[r][ta], plan[r][tb]
        for x in table_a:
            if x != a:
                meet(a, x, -1)
                meet(b, x, 1)
        for x in table_b:
            if x != b:
                meet(b, x, -1)
                meet(a, x, 1)
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[r][a], where[r][b] = tb, ta
        cost += best_delta
        # A swap changes the weights of a and b with their old and new tablemates:
        # what those players' tables cost them changes in every round.
        touched = sorted(set(table_a) | set(table_b))
        for q in range(n_rounds):
            costs = leaving[q]
            for t in sorted({where[q][p] for p in touched if where[q][p] >= 0}):
                for y in plan[q][t]:
                    if y in costs:
                        costs[y] = leave(q, y)
        if step:
            excess, without = spans[r]
            for t in (ta, tb):
                excess[t] = _span_table(plan[r][t], problem.rank[r], without)
        tenure = tenures[r]
        tabu[r][a] = it + 1 + rng.randrange(tenure)
        tabu[r][b] = it + 1 + rng.randrange(tenure)
        if cost < best_cost:
            best_cost, best = cost, [[list(t) for t in ts] for ts in plan]
            stall = shakes = 0
        else:
            stall += 1
            if stall > stall_limit:
                shakes += 1
                if shakes > MAX_SHAKES:
                    break
                plan = [[list(t) for t in ts] for ts in best]
                _shake(plan, movable, rng)
                load(plan)
                cost = cost_of(problem, plan)
                leaving, spans = refresh()
                stall = 0
    return best, best_cost


def _shake(plan: Tables, movable: list[list[int]], rng: random.Random) -> None:
    """A few random swaps of free players, to leave a local optimum."""
    for _ in range(1 + len(plan)):
        r = rng.randrange(len(plan))
        free = movable[r]
        if len(free) < 2:
            continue
        a, b = free[rng.randrange(len(free))], free[rng.randrange(len(free))]
        ta = next(t for t, table in enumerate(plan[r]) if a in table)
        tb = next(t for t, table in enumerate(plan[r]) if b in table)
        if ta != tb:
            plan[r][ta][plan[r][ta].index(a)] = b
            plan[r][tb][plan[r][tb].index(b)] = a
