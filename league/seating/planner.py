"""Planning rounds: :func:`plan_night`, :func:`plan_round` and :func:`evaluate`."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence

from league.seating.errors import SeatingError
from league.seating.model import (
    Cost,
    Method,
    P,
    PastRound,
    Plan,
    Repeat,
    RoundSeating,
    Search,
    Table,
    Weights,
)
from league.seating.policy import TablePolicy
from league.seating.search import Problem, solve


def plan_night(
    players: Sequence[P],
    policy: TablePolicy,
    *,
    rounds: int,
    history: Sequence[PastRound[P]] = (),
    method: Method | str = Method.BALANCED,
    seed: int = 0,
    absent: Mapping[int, Sequence[P]] | None = None,
    pins: Mapping[P, int] | None = None,
    keep_apart: Sequence[tuple[P, P]] = (),
    ranking: Sequence[P] | None = None,
    weights: Weights = Weights(),  # noqa: B008 - frozen, so one shared default is safe
    search: Search = Search(),  # noqa: B008
) -> Plan[P]:
    """All ``rounds`` of a night, optimised together.

    ``players`` are those expected, in a fixed order (the order breaks no ties by
    itself: the seed does); ``absent`` maps a round (0-based) to the players missing
    from it. Each round seats everyone present, except Buck Euchre's leftovers, who
    sit out by the rule of :func:`choose_sit_outs`. ``history`` is the earlier rounds,
    oldest first. ``pins`` maps a player to a table index (tables are listed largest
    first), in every round the player is present. ``keep_apart`` pairs share a table
    only where no seating avoids it. ``ranking`` (best first) orders the players for
    ``swiss`` and ``rating`` and must hold every player present.

    The plan minimises the :class:`Weights` cost over all rounds at once (a meeting
    in round 1 makes meeting again in round 3 cost ``weights.tonight``) by the tabu
    search of :mod:`league.seating.search`. Its effort is ``search.iterations`` swaps
    per run (default: 1,000 plus 10 per player seated per round, at most 6,000) in
    ``search.restarts + 1`` runs; a run also ends after 4 fruitless shakes, and the
    search stops at zero cost. Seat order and
    first dealers are then drawn. Everything depends only on the arguments:
    the same arguments and seed give the same plan.

    Raises :class:`SeatingError` (see :data:`~league.seating.errors.ERROR_CODES`).
    """
    method = _method(method)
    index = _index(players)
    if rounds < 1:
        raise SeatingError(
            "bad_rounds",
            f"a night has at least one round, not {rounds}",
            round=rounds,
            facts={"reason": "rounds", "rounds": rounds},
        )
    absent = absent or {}
    for r in absent:  # a Mapping's own order; only checks, nothing kept
        if not 0 <= r < rounds:
            raise SeatingError(
                "bad_rounds",
                f"absences in round {r} of {rounds}",
                round=r,
                facts={"reason": "absences", "rounds": rounds},
            )
    unknown = [p for r in sorted(absent) for p in absent[r] if p not in index]
    pins = dict(pins or {})
    unknown += [p for p in pins if p not in index]
    if unknown:
        raise SeatingError(
            "unknown_player", "absent or pinned players who are not players", players=tuple(unknown)
        )
    for first, second in keep_apart:
        if first == second:
            raise SeatingError(
                "bad_pair", "a keep-apart pair is two players", players=(first, second)
            )
    rng = random.Random(seed)
    n = len(players)
    present_by_round: list[list[int]] = []
    for r in range(rounds):
        missing = {index[p] for p in absent.get(r, ())}
        present_by_round.append([i for i in range(n) if i not in missing])
    rank_index = _ranking(players, index, ranking, method, present_by_round)

    # Who sits out, round by round; then the sizes and pins of each round.
    sit_out_counts = _sit_out_counts(history, index, n)
    last_out = _last_out(history, index)
    sizes: list[list[int]] = []
    seated: list[list[int]] = []
    sit_outs: list[list[int]] = []
    round_pins: list[dict[int, int]] = []
    for r, present in enumerate(present_by_round):
        try:
            round_sizes = list(policy.table_sizes(len(present)))
        except SeatingError as error:
            raise SeatingError(
                error.code,
                error.message,
                players=tuple(players[i] for i in present),
                round=r,
                facts=error.facts,
            ) from None
        pinned = {index[p]: t for p, t in pins.items() if index[p] in present}
        _check_pins(pinned, round_sizes, players, r)
        out = choose_sit_outs(
            present, len(present) - sum(round_sizes), sit_out_counts, last_out, pinned, rng
        )
        out_set = set(out)
        sizes.append(round_sizes)
        seated.append([i for i in present if i not in out_set])
        sit_outs.append(out)
        round_pins.append(pinned)
        for i in out:
            tonight, season = sit_out_counts[i]
            sit_out_counts[i] = (tonight + 1, season)
        last_out = out_set

    # base: what every meeting of a pair costs (earlier events, keep-apart);
    # met: how often a pair met earlier tonight (the history's rounds of this event).
    base = [[0] * n for _ in range(n)]
    met = [[0] * n for _ in range(n)]
    for past in history:
        add_to, w = (met, 1) if past.events_ago <= 0 else (base, weights.meeting(past.events_ago))
        for table in past.tables:
            members = [index[p] for p in table if p in index]
            for x, a in enumerate(members):
                for b in members[x + 1 :]:
                    add_to[a][b] += w
                    add_to[b][a] += w
    if method is Method.RANDOM:  # only keep-apart counts
        base = [[0] * n for _ in range(n)]
        met = [[0] * n for _ in range(n)]
    for a_id, b_id in keep_apart:
        if a_id in index and b_id in index:
            a, b = index[a_id], index[b_id]
            base[a][b] += weights.keep_apart
            base[b][a] += weights.keep_apart
    rank = []
    for r in range(rounds):
        place = [0] * n
        order = sorted(seated[r], key=lambda i: rank_index[i])
        for k, i in enumerate(order):
            place[i] = k
        rank.append(place)
    problem = Problem(
        n=n,
        sizes=sizes,
        seated=seated,
        pins=round_pins,
        base=base,
        met=met,
        tonight=0 if method is Method.RANDOM else weights.tonight,
        again=0 if method is Method.RANDOM else weights.again,
        rank=rank,
        step=weights.spread_step(method),
        ordered=method in (Method.SWISS, Method.RATING),
    )
    iterations = search.iterations
    if iterations is None:
        iterations = min(6_000, 1_000 + 10 * sum(len(s) for s in seated))
    tables = solve(problem, rng, iterations, search.restarts)

    plan_tables: list[list[tuple[P, ...]]] = []
    dealers: list[list[int]] = []
    for numbered in tables:
        shown = []
        round_dealers = []
        for seated_table in numbered:
            seats = sorted(seated_table)
            rng.shuffle(seats)
            shown.append(tuple(players[i] for i in seats))
            round_dealers.append(rng.randrange(len(seats)))
        plan_tables.append(shown)
        dealers.append(round_dealers)
    scored = _score(plan_tables, history, keep_apart, ranking, method, weights)
    return Plan(
        rounds=tuple(
            RoundSeating(
                tables=tuple(Table(t, d) for t, d in zip(plan_tables[r], dealers[r], strict=True)),
                sit_out=tuple(players[i] for i in sit_outs[r]),
                repeats=scored[r][0],
                kept_apart_together=scored[r][1],
                cost=scored[r][2],
            )
            for r in range(rounds)
        ),
        method=method,
        seed=seed,
    )


def plan_round(
    players: Sequence[P],
    policy: TablePolicy,
    *,
    history: Sequence[PastRound[P]] = (),
    method: Method | str = Method.BALANCED,
    seed: int = 0,
    pins: Mapping[P, int] | None = None,
    keep_apart: Sequence[tuple[P, P]] = (),
    ranking: Sequence[P] | None = None,
    weights: Weights = Weights(),  # noqa: B008
    search: Search = Search(),  # noqa: B008
) -> RoundSeating[P]:
    """The next round for the ``players`` present: :func:`plan_night` of one round."""
    plan = plan_night(
        players,
        policy,
        rounds=1,
        history=history,
        method=method,
        seed=seed,
        pins=pins,
        keep_apart=keep_apart,
        ranking=ranking,
        weights=weights,
        search=search,
    )
    return plan.rounds[0]


def choose_sit_outs(
    present: Sequence[int],
    count: int,
    sit_outs: Sequence[tuple[int, int]],
    last_out: set[int] | frozenset[int],
    pinned: Mapping[int, int],
    rng: random.Random,
) -> list[int]:
    """The ``count`` players of ``present`` (numbers) who sit out, in ``present`` order.

    The rule, in order: pinned players play; whoever sat out the round before
    (``last_out``: the previous round of the plan, else the last round of the
    history) plays if anyone else can; then the fewest sit-outs tonight, then the
    fewest this season (``sit_outs[i]`` is ``(tonight, season)``), then the seed's
    draw. So nobody sits out twice tonight before everyone present has sat out once,
    and the season evens out across nights."""
    if count <= 0:
        return []
    draw = {i: rng.random() for i in present}
    order = sorted(
        present,
        key=lambda i: (i in pinned, i in last_out, sit_outs[i][0], sit_outs[i][1], draw[i]),
    )
    chosen = set(order[:count])
    return [i for i in present if i in chosen]


def evaluate(
    rounds: Sequence[Sequence[Sequence[P]]],
    *,
    history: Sequence[PastRound[P]] = (),
    keep_apart: Sequence[tuple[P, P]] = (),
    ranking: Sequence[P] | None = None,
    method: Method | str = Method.BALANCED,
    weights: Weights = Weights(),  # noqa: B008
) -> tuple[Cost, ...]:
    """The cost of each round of a seating (rounds, each a list of tables of player
    ids), computed from scratch as :func:`plan_night` reports it. The repeats are
    priced under every method, ``random`` included (which reports them but does not
    try to avoid them); the spread only under ``swiss`` and ``rating``."""
    method = _method(method)
    return tuple(s[2] for s in _score(rounds, history, keep_apart, ranking, method, weights))


def assess(
    tables: Sequence[Table[P]],
    *,
    sit_out: Sequence[P] = (),
    history: Sequence[PastRound[P]] = (),
    keep_apart: Sequence[tuple[P, P]] = (),
    ranking: Sequence[P] | None = None,
    method: Method | str = Method.BALANCED,
    weights: Weights = Weights(),  # noqa: B008
) -> RoundSeating[P]:
    """A round seated by hand (or a draw changed by hand), with its repeats and
    cost as :func:`plan_round` would report them.

    >>> from league.seating import Table, PastRound
    >>> seating = assess([Table((1, 2, 3), 0)], history=[PastRound(((1, 2, 4),))])
    >>> [repeat.players for repeat in seating.repeats], seating.cost.total
    ([(1, 2)], 100)
    """
    chosen = _method(method)
    ((repeats, together, cost),) = _score(
        [[table.players for table in tables]], history, keep_apart, ranking, chosen, weights
    )
    return RoundSeating(
        tables=tuple(tables),
        sit_out=tuple(sit_out),
        repeats=repeats,
        kept_apart_together=together,
        cost=cost,
    )


def _score(
    rounds: Sequence[Sequence[Sequence[P]]],
    history: Sequence[PastRound[P]],
    keep_apart: Sequence[tuple[P, P]],
    ranking: Sequence[P] | None,
    method: Method,
    weights: Weights,
) -> list[tuple[tuple[Repeat[P], ...], tuple[tuple[P, P], ...], Cost]]:
    tonight: dict[frozenset[Hashable], int] = {}
    earlier: dict[frozenset[Hashable], tuple[int, int]] = {}
    for past in history:
        for table in past.tables:
            for x, a in enumerate(table):
                for b in table[x + 1 :]:
                    key = frozenset((a, b))
                    if past.events_ago <= 0:
                        tonight[key] = tonight.get(key, 0) + 1
                    else:
                        times, cost = earlier.get(key, (0, 0))
                        earlier[key] = (times + 1, cost + weights.meeting(past.events_ago))
    apart = {frozenset(pair) for pair in keep_apart}
    place = {p: k for k, p in enumerate(ranking or ())}
    step = weights.spread_step(method)
    out = []
    for round_tables in rounds:
        repeats: list[Repeat[P]] = []
        together: list[tuple[P, P]] = []
        total = Cost()
        seated = sorted((p for t in round_tables for p in t), key=lambda p: place.get(p, 0))
        rank = {p: k for k, p in enumerate(seated)}
        for table_ids in round_tables:
            for x, a in enumerate(table_ids):
                for b in table_ids[x + 1 :]:
                    key = frozenset((a, b))
                    times_tonight = tonight.get(key, 0)
                    times_before, cost_before = earlier.get(key, (0, 0))
                    cost = weights.meeting_tonight(times_tonight) + cost_before
                    if times_tonight or times_before:
                        repeats.append(Repeat((a, b), times_tonight, times_before, cost))
                    if key in apart:
                        together.append((a, b))
                    total = total + Cost(
                        repeats=cost, keep_apart=weights.keep_apart * (key in apart)
                    )
            if step and len(table_ids) > 1:
                places = [rank[p] for p in table_ids]
                spread = max(places) - min(places) - (len(table_ids) - 1)
                total = total + Cost(spread=step * spread)
        for table_ids in round_tables:
            for x, a in enumerate(table_ids):
                for b in table_ids[x + 1 :]:
                    key = frozenset((a, b))
                    tonight[key] = tonight.get(key, 0) + 1
        out.append((tuple(repeats), tuple(together), total))
    return out


def _method(method: Method | str) -> Method:
    try:
        return Method(method)
    except ValueError:
        raise SeatingError(
            "bad_method",
            f"method is one of {[m.value for m in Method]}, not {method!r}",
            facts={"methods": str([m.value for m in Method]), "method": repr(method)},
        ) from None


def _index(players: Sequence[P]) -> dict[P, int]:
    index: dict[P, int] = {}
    duplicates: list[P] = []
    for p in players:
        if p in index:
            if p not in duplicates:
                duplicates.append(p)
        else:
            index[p] = len(index)
    if duplicates:
        raise SeatingError(
            "duplicate_player", "players listed more than once", players=tuple(duplicates)
        )
    return index


def _ranking(
    players: Sequence[P],
    index: dict[P, int],
    ranking: Sequence[P] | None,
    method: Method,
    present_by_round: list[list[int]],
) -> list[int]:
    """Each player's place in ``ranking`` (players after it at the end, for methods
    that do not need it)."""
    n = len(players)
    place = [n] * n
    for k, p in enumerate(ranking or ()):
        if p in index and place[index[p]] == n:
            place[index[p]] = k
    if method in (Method.SWISS, Method.RATING):
        needed = sorted({i for present in present_by_round for i in present})
        missing = tuple(players[i] for i in needed if place[i] == n)
        if missing:
            raise SeatingError(
                "unranked_player",
                f"{method.value} needs a ranking of everyone",
                players=missing,
                facts={"method": method.value},
            )
    return place


def _check_pins(pinned: dict[int, int], sizes: list[int], players: Sequence[P], r: int) -> None:
    by_table: dict[int, list[int]] = {}
    for i in sorted(pinned):
        by_table.setdefault(pinned[i], []).append(i)
    for t in sorted(by_table):
        who = tuple(players[i] for i in by_table[t])
        if not 0 <= t < len(sizes):
            raise SeatingError(
                "pin_out_of_range",
                f"pinned to table {t}; round {r} has tables 0 to {len(sizes) - 1}",
                players=who,
                table=t,
                round=r,
                facts={"last": len(sizes) - 1},
            )
        if len(who) > sizes[t]:
            raise SeatingError(
                "table_overfull",
                f"{len(who)} pinned to table {t}, which seats {sizes[t]}",
                players=who,
                table=t,
                round=r,
                facts={"count": len(who), "seats": sizes[t]},
            )


def _sit_out_counts(
    history: Sequence[PastRound[P]], index: dict[P, int], n: int
) -> list[tuple[int, int]]:
    counts = [(0, 0)] * n
    for past in history:
        for p in past.sit_out:
            if p in index:
                tonight, season = counts[index[p]]
                if past.events_ago <= 0:
                    counts[index[p]] = (tonight + 1, season)
                else:
                    counts[index[p]] = (tonight, season + 1)
    return counts


def _last_out(history: Sequence[PastRound[P]], index: dict[P, int]) -> set[int]:
    if not history:
        return set()
    return {index[p] for p in history[-1].sit_out if p in index}
