"""Which openskill model rates our games best: an evaluation on synthetic leagues of known skill.

Why: the league rates players with openskill after every complete game, one free-for-all match
of 3 to 5 players ranked by final places, ties sharing a place. openskill offers several models;
this script measures three of them (PlackettLuce, BradleyTerryFull, ThurstoneMostellerFull, all
with default parameters) on leagues whose players' skill we know, next to two baselines, and
checks how each model treats a tie. docs/ratings.md gives the figures and the choice.

What runs:

1. ``--leagues`` synthetic leagues (seeded), ``--games`` games in all, split evenly. A league has
   60 to 120 players with a hidden skill drawn from a standard normal distribution, each with an
   attendance rate (15 to 60 % of game nights) and a first night (most from the start, some
   joining later). Each game night the attending players are shuffled into tables of 4 (one of
   5, or one or two of 3, when the count does not divide by 4), three rounds a night; games are
   listed in the order played (night, round, table).
2. A game's result: each player's performance is skill plus noise of standard deviation
   ``--noise`` (1.5 by default), then rounded to a grid of ``--tie-grid`` (0.05) as card totals
   are whole points, so that equal totals, hence shared places, happen in a few % of games.
   The noise differs by league, in turn: Gumbel (under which the order of finish is exactly a
   Plackett-Luce draw), normal (Thurstone-Mosteller's assumption) and logistic (the
   Bradley-Terry curve between two players), so that no model plays only on its home ground.
3. Every rater rates each league's games in order, and BEFORE rating a game predicts it:

   - winner probabilities: openskill's ``predict_win`` for the models; a Plackett-Luce draw on
     the strengths 10^(R/400) for Elo, i.e. p_i = 10^(R_i/400) / sum_j 10^(R_j/400);
   - an order: by mu for the models, by rating for Elo.

   Figures over all games: log-loss, the mean of -ln p(winner) (players tied for first share
   it: the mean of -ln p over them); top-1 accuracy, the share of games the favourite won
   (favourites tied in the prediction share the credit, so a coin toss counts as such; a
   favourite tied for first counts as a win); Kendall's tau-b between the predicted order and
   the places (ties on either side counted as ties; 0 when the prediction ties everyone); the
   seconds spent in the raters' update calls alone; and "board tau", Kendall's tau-b between
   the final leaderboard (ordinal mu - 3 sigma for the models, the rating for Elo) and the
   hidden skill, over the players with at least 10 games, averaged over the leagues.
4. The raters:

   - uniform: p = 1/n, no order (tau 0, accuracy by chance);
   - Elo, 1500 to start, 400 scale, the game decomposed into all its pairs (a tie is half a
     win), expected score 1 / (1 + 10^((R_j - R_i)/400)). Two variants: K = 32 on every pair
     (a player's change is 32 times the sum over the n - 1 opponents of actual minus expected),
     and K = 32 per game (the same divided by n - 1);
   - the three openskill models, default parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300),
     ``rate(teams, ranks=places)`` with one-player teams;
   - oracle: the true winner probabilities from the hidden skill and the league's noise (exact
     for Gumbel, numerical integration otherwise, the rounding to the grid ignored) and the
     order by hidden skill. No rater can expect to beat it: it is the ceiling.

5. The tie check, for each model (no data; direct calls to ``rate``):

   a. equal priors, places 1, 2, 2, 4: do the two tied players get identical mu and sigma?
   b. input order: tied players with different priors (mu 30 sigma 5, and mu 20 sigma 7; the
      others 25 and 25/3), listed in both orders: is every player's update the same?
   c. where the tie lands: for each tied player, its mu change under the tie compared with its
      change when it finishes just ahead of the other and just behind. Position 0 means the tie
      counted as losing the tie-break, 1 as winning it; a tie, half a win and half a loss,
      should land in [0, 1] (0.5 exactly for a symmetric treatment of equal priors). Ties for
      first, for second and for last, with equal and with different priors.
   d. places are monotone: from equal priors, for several patterns of places with ties, 4 and 5
      players, a better place never gains less mu than a worse one.

   A model handles ties correctly when it passes a, b, c and d. Also reported: whether
   ``rate(tau=0)`` really rates without the dynamics term (it does not: openskill reads
   ``tau if tau else self.tau``, so 0 silently becomes the model's tau; to turn it off, build the
   model with ``tau=0``: its own value is taken as given).

6. The RECOMMENDATION: the model with the best log-loss among those that handle ties correctly.

Everything but the timings is deterministic for a given ``--seed``. Needs only openskill (the
project's virtualenv has it). The defaults take a few seconds on one core.

Usage: ``python benchmarks/rating_models.py [--games N] [--seed S] [--leagues L] [--noise SD]
[--tie-grid G]``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import version
from itertools import combinations
from statistics import NormalDist
from typing import Any

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

MODELS: dict[str, Callable[[], Any]] = {
    "PlackettLuce": PlackettLuce,
    "BradleyTerryFull": BradleyTerryFull,
    "ThurstoneMostellerFull": ThurstoneMostellerFull,
}
NOISES = ("gumbel", "normal", "logistic")
ROUNDS_PER_NIGHT = 3
PROVISIONAL_BELOW = 10
"""Players with fewer games are left out of the board tau, as the leaderboard flags them."""
ELO_START, ELO_K = 1500.0, 32.0
EULER_GAMMA = 0.5772156649015329
_STD_NORMAL = NormalDist()


# -- the synthetic leagues ----------------------------------------------------------------------


@dataclass
class Game:
    players: list[int]
    places: list[int]
    """1 for the winner; tied players share a place, the next place skips (1, 2, 2, 4)."""


@dataclass
class League:
    noise: str
    skill: list[float]
    games: list[Game] = field(default_factory=list)


def table_sizes(n: int) -> list[int]:
    """Tables of 4, with one of 5 or one or two of 3 to seat everybody (none below 3)."""
    if n < 3:
        return []
    fours, rest = divmod(n, 4)
    if rest == 0:
        return [4] * fours
    if rest == 1:
        return [4] * (fours - 1) + [5]
    if rest == 2:
        return [4] * (fours - 1) + [3, 3]
    return [4] * fours + [3]


def noise_draw(rng: random.Random, kind: str, sd: float) -> float:
    """One draw of zero-mean noise of standard deviation ``sd``."""
    if kind == "normal":
        return rng.gauss(0.0, sd)
    u = rng.random()
    while not 0.0 < u < 1.0:
        u = rng.random()
    if kind == "gumbel":
        scale = sd * math.sqrt(6) / math.pi
        return scale * (-math.log(-math.log(u)) - EULER_GAMMA)
    scale = sd * math.sqrt(3) / math.pi  # logistic
    return scale * math.log(u / (1 - u))


def places_of(scores: Sequence[int]) -> list[int]:
    """Competition ranking, higher score better: 1 + how many scored strictly more."""
    return [1 + sum(other > mine for other in scores) for mine in scores]


def make_league(
    rng: random.Random, noise: str, games: int, noise_sd: float, tie_grid: float
) -> League:
    players = rng.randint(60, 120)
    league = League(noise=noise, skill=[rng.gauss(0.0, 1.0) for _ in range(players)])
    attendance = [rng.uniform(0.15, 0.6) for _ in range(players)]
    first_night = [0 if rng.random() < 0.7 else rng.randint(1, 30) for _ in range(players)]
    night = 0
    while len(league.games) < games:
        present = [
            p for p in range(players) if first_night[p] <= night and rng.random() < attendance[p]
        ]
        for _ in range(ROUNDS_PER_NIGHT):
            rng.shuffle(present)
            start = 0
            for size in table_sizes(len(present)):
                seated = present[start : start + size]
                start += size
                scores = [
                    round((league.skill[p] + noise_draw(rng, noise, noise_sd)) / tie_grid)
                    for p in seated
                ]
                league.games.append(Game(players=seated, places=places_of(scores)))
                if len(league.games) == games:
                    return league
        night += 1
    return league


def make_leagues(
    count: int, games: int, seed: int, noise_sd: float, tie_grid: float
) -> list[League]:
    return [
        make_league(
            random.Random(seed * 1_000 + k),
            NOISES[k % len(NOISES)],
            games // count + (k < games % count),
            noise_sd,
            tie_grid,
        )
        for k in range(count)
    ]


# -- the raters ---------------------------------------------------------------------------------


class Rater:
    """Predicts a game (winner probabilities, strengths to order by), then learns from it."""

    name = ""

    def start(self, league: League) -> None: ...

    def predict(self, players: list[int]) -> tuple[list[float], list[float]]:
        raise NotImplementedError

    def update(self, game: Game) -> None: ...

    def board(self) -> dict[int, float] | None:
        """Leaderboard value of each player with enough games, or None for no leaderboard."""
        return None


class Uniform(Rater):
    name = "uniform guess"

    def predict(self, players: list[int]) -> tuple[list[float], list[float]]:
        n = len(players)
        return [1.0 / n] * n, [0.0] * n


class Oracle(Rater):
    name = "oracle (hidden skill)"

    def __init__(self, noise_sd: float) -> None:
        self.noise_sd = noise_sd

    def start(self, league: League) -> None:
        self.league = league

    def predict(self, players: list[int]) -> tuple[list[float], list[float]]:
        skills = [self.league.skill[p] for p in players]
        return true_win_probabilities(skills, self.league.noise, self.noise_sd), skills


class Elo(Rater):
    def __init__(self, per_game: bool) -> None:
        self.per_game = per_game
        self.name = f"Elo K={ELO_K:.0f} per {'game' if per_game else 'pair'}"

    def start(self, league: League) -> None:
        self.rating: dict[int, float] = {}
        self.games: dict[int, int] = {}

    def predict(self, players: list[int]) -> tuple[list[float], list[float]]:
        ratings = [self.rating.get(p, ELO_START) for p in players]
        top = max(ratings)
        strengths = [10 ** ((r - top) / 400) for r in ratings]
        total = sum(strengths)
        return [s / total for s in strengths], ratings

    def update(self, game: Game) -> None:
        players, places = game.players, game.places
        ratings = [self.rating.get(p, ELO_START) for p in players]
        k = ELO_K / (len(players) - 1) if self.per_game else ELO_K
        for i, player in enumerate(players):
            change = 0.0
            for j in range(len(players)):
                if j != i:
                    actual = 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0
                    expected = 1 / (1 + 10 ** ((ratings[j] - ratings[i]) / 400))
                    change += actual - expected
            self.rating[player] = ratings[i] + k * change
            self.games[player] = self.games.get(player, 0) + 1

    def board(self) -> dict[int, float]:
        return {p: r for p, r in self.rating.items() if self.games[p] >= PROVISIONAL_BELOW}


class OpenSkill(Rater):
    def __init__(self, name: str) -> None:
        self.name = name
        self.model = MODELS[name]()

    def start(self, league: League) -> None:
        self.rating: dict[int, Any] = {}
        self.games: dict[int, int] = {}

    def _of(self, player: int) -> Any:
        if player not in self.rating:
            self.rating[player] = self.model.rating()
        return self.rating[player]

    def predict(self, players: list[int]) -> tuple[list[float], list[float]]:
        teams = [[self._of(p)] for p in players]
        return self.model.predict_win(teams), [team[0].mu for team in teams]

    def update(self, game: Game) -> None:
        teams = [[self._of(p)] for p in game.players]
        rated = self.model.rate(teams, ranks=list(game.places))
        for player, (rating,) in zip(game.players, rated, strict=True):
            self.rating[player] = rating
            self.games[player] = self.games.get(player, 0) + 1

    def board(self) -> dict[int, float]:
        return {
            p: r.ordinal()
            for p, r in self.rating.items()
            if self.games.get(p, 0) >= PROVISIONAL_BELOW
        }


def true_win_probabilities(skills: list[float], noise: str, sd: float) -> list[float]:
    """P(each player has the highest performance), performance = skill + noise."""
    if noise == "gumbel":  # the maximum of Gumbel draws: a softmax on skill / scale
        scale = sd * math.sqrt(6) / math.pi
        top = max(skills)
        weights = [math.exp((s - top) / scale) for s in skills]
        return [w / sum(weights) for w in weights]
    logistic_scale = sd * math.sqrt(3) / math.pi

    def cdf(z: float) -> float:
        if noise == "normal":
            return _STD_NORMAL.cdf(z / sd)
        return 1 / (1 + math.exp(-z / logistic_scale)) if z > -700 * logistic_scale else 0.0

    def pdf(z: float) -> float:
        if noise == "normal":
            return _STD_NORMAL.pdf(z / sd) / sd
        f = cdf(z)
        return f * (1 - f) / logistic_scale

    # P(i best) = integral of pdf(x - s_i) * prod_{j != i} cdf(x - s_j) dx, on a fine grid.
    step = sd / 10
    low, high = min(skills) - 8 * sd, max(skills) + 8 * sd
    probabilities = [0.0] * len(skills)
    x = low
    while x <= high:
        cdfs = [cdf(x - s) for s in skills]
        for i, s in enumerate(skills):
            density = pdf(x - s)
            if density > 0:
                others = 1.0
                for j, c in enumerate(cdfs):
                    if j != i:
                        others *= c
                probabilities[i] += density * others
        x += step
    total = sum(probabilities)
    return [p / total for p in probabilities]


# -- the measurements ---------------------------------------------------------------------------


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b; 0 when either side ties everything."""
    concordant = discordant = ties_x = ties_y = pairs = 0
    for i, j in combinations(range(len(x)), 2):
        pairs += 1
        dx, dy = x[i] - x[j], y[i] - y[j]
        if dx == 0:
            ties_x += 1
        if dy == 0:
            ties_y += 1
        if dx and dy:
            if (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((pairs - ties_x) * (pairs - ties_y))
    return (concordant - discordant) / denominator if denominator else 0.0


@dataclass
class Score:
    games: int = 0
    log_loss: float = 0.0
    top1: float = 0.0
    tau: float = 0.0
    seconds: float = 0.0
    board_taus: list[float] = field(default_factory=list)
    league_log_loss: list[float] = field(default_factory=list)


def evaluate(rater: Rater, leagues: list[League]) -> Score:
    score = Score()
    for league in leagues:
        rater.start(league)
        league_loss = 0.0
        for game in league.games:
            probabilities, strengths = rater.predict(game.players)
            winners = [i for i, place in enumerate(game.places) if place == 1]
            loss = sum(-math.log(max(probabilities[i], 1e-15)) for i in winners) / len(winners)
            league_loss += loss
            score.log_loss += loss
            best = max(probabilities)
            favourites = [i for i, p in enumerate(probabilities) if p >= best - 1e-12]
            score.top1 += sum(i in winners for i in favourites) / len(favourites)
            score.tau += kendall_tau_b(strengths, [-place for place in game.places])
            score.games += 1
            started = time.perf_counter()
            rater.update(game)
            score.seconds += time.perf_counter() - started
        score.league_log_loss.append(league_loss / len(league.games))
        board = rater.board()
        if board is not None and len(board) >= 2:  # players with 10 games or more
            rated = sorted(board)
            score.board_taus.append(
                kendall_tau_b([board[p] for p in rated], [league.skill[p] for p in rated])
            )
    return score


# -- the tie check ------------------------------------------------------------------------------

EQUAL = [(25.0, 25 / 3)] * 4
UNEQUAL = [(25.0, 25 / 3), (30.0, 5.0), (20.0, 7.0), (25.0, 25 / 3)]
"""Players 1 and 2 (30/5 and 20/7) are the tied pair when the tie is for second place."""
TIE_CASES = {  # name: (places with the tie, the two tied players)
    "1st": ([1, 1, 3, 4], (0, 1)),
    "2nd": ([1, 2, 2, 4], (1, 2)),
    "last": ([1, 2, 3, 3], (2, 3)),
}
MONOTONE_PATTERNS = (
    [1, 1, 3, 4],
    [1, 2, 2, 4],
    [1, 2, 3, 3],
    [1, 1, 1, 4],
    [1, 2, 2, 2],
    [1, 1, 3, 4, 5],
    [1, 2, 2, 4, 5],
    [1, 2, 3, 3, 5],
    [1, 1, 3, 3, 5],
)
CLOSE = 1e-9


def rate_once(model: Any, priors: Sequence[tuple[float, float]], places: list[int]) -> list[Any]:
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
    return [team[0] for team in model.rate(teams, ranks=list(places))]


def mu_changes(model: Any, priors: Sequence[tuple[float, float]], places: list[int]) -> list[float]:
    rated = rate_once(model, priors, places)
    return [r.mu - mu for r, (mu, _) in zip(rated, priors, strict=True)]


def tie_positions(
    model: Any, priors: Sequence[tuple[float, float]], places: list[int], pair: tuple[int, int]
) -> tuple[float, float]:
    """Where each tied player's mu change lies between losing (0) and winning (1) the tie-break."""
    a, b = pair
    tied = mu_changes(model, priors, places)
    a_ahead, b_ahead = list(places), list(places)
    a_ahead[b] += 1
    b_ahead[a] += 1
    when_a_ahead = mu_changes(model, priors, a_ahead)
    when_b_ahead = mu_changes(model, priors, b_ahead)
    return (
        (tied[a] - when_b_ahead[a]) / (when_a_ahead[a] - when_b_ahead[a]),
        (tied[b] - when_a_ahead[b]) / (when_b_ahead[b] - when_a_ahead[b]),
    )


@dataclass
class TieReport:
    name: str
    equal_update: bool = False
    equal_detail: str = ""
    order_free: bool = False
    positions: dict[str, tuple[tuple[float, float], tuple[float, float]]] = field(
        default_factory=dict
    )
    positions_ok: bool = False
    monotone_failures: list[str] = field(default_factory=list)
    tau_zero_ignored: bool = False
    tau_zero_model: bool = False

    @property
    def correct(self) -> bool:
        return (
            self.equal_update
            and self.order_free
            and self.positions_ok
            and not self.monotone_failures
        )


def tie_check(name: str) -> TieReport:
    model = MODELS[name]()
    report = TieReport(name=name)

    # a. equal priors: identical updates for the tied pair
    rated = rate_once(model, EQUAL, [1, 2, 2, 4])
    report.equal_update = (
        abs(rated[1].mu - rated[2].mu) < CLOSE and abs(rated[1].sigma - rated[2].sigma) < CLOSE
    )
    report.equal_detail = (
        f"mu {rated[1].mu:.4f}/{rated[2].mu:.4f}, sigma {rated[1].sigma:.4f}/{rated[2].sigma:.4f}"
    )

    # b. the tied pair listed in both orders
    forward = rate_once(model, UNEQUAL, [1, 2, 2, 4])
    swapped = rate_once(model, [UNEQUAL[0], UNEQUAL[2], UNEQUAL[1], UNEQUAL[3]], [1, 2, 2, 4])
    swapped[1], swapped[2] = swapped[2], swapped[1]
    report.order_free = all(
        abs(f.mu - s.mu) < CLOSE and abs(f.sigma - s.sigma) < CLOSE
        for f, s in zip(forward, swapped, strict=True)
    )

    # c. where the tie lands between the two strict orders
    report.positions_ok = True
    for case, (places, pair) in TIE_CASES.items():
        unequal = list(EQUAL)
        unequal[pair[0]], unequal[pair[1]] = UNEQUAL[1], UNEQUAL[2]
        equal_pos = tie_positions(model, EQUAL, places, pair)
        unequal_pos = tie_positions(model, unequal, places, pair)
        report.positions[case] = (equal_pos, unequal_pos)
        if not all(-1e-6 <= p <= 1 + 1e-6 for p in (*equal_pos, *unequal_pos)):
            report.positions_ok = False

    # d. a better place never gains less mu than a worse one
    for places in MONOTONE_PATTERNS:
        changes = mu_changes(model, [(25.0, 25 / 3)] * len(places), places)
        seats = range(len(places))
        if any(
            changes[i] < changes[j] - CLOSE for i in seats for j in seats if places[i] < places[j]
        ):
            report.monotone_failures.append(
                "places "
                + ",".join(map(str, places))
                + ": mu change "
                + ", ".join(f"{c:+.2f}" for c in changes)
            )

    # rate(tau=0) against the model's own tau and a model built with a tiny tau
    plain = rate_once(model, EQUAL, [1, 2, 3, 4])[0].sigma
    teams = [[model.rating()] for _ in range(4)]
    zero = model.rate(teams, ranks=[1, 2, 3, 4], tau=0)[0][0].sigma
    report.tau_zero_ignored = abs(zero - plain) < CLOSE
    untaued = rate_once(MODELS[name](tau=0), EQUAL, [1, 2, 3, 4])[0].sigma
    report.tau_zero_model = untaued < plain - CLOSE
    return report


# -- the report ---------------------------------------------------------------------------------


def describe(leagues: list[League]) -> None:
    games = [g for league in leagues for g in league.games]
    sizes = {n: sum(len(g.players) == n for g in games) for n in (3, 4, 5)}
    tied = sum(len(set(g.places)) < len(g.places) for g in games)
    tied_first = sum(g.places.count(1) > 1 for g in games)
    print(f"{len(leagues)} leagues, {len(games)} games:")
    for k, league in enumerate(leagues):
        played = {p for g in league.games for p in g.players}
        print(
            f"  league {k + 1}: {league.noise:8} noise, {len(league.skill)} players "
            f"({len(played)} played), {len(league.games)} games"
        )
    print(
        "  table sizes: "
        + ", ".join(f"{n} players {100 * c / len(games):.1f} %" for n, c in sizes.items())
        + f"; games with a shared place {100 * tied / len(games):.1f} %,"
        f" with a shared first place {100 * tied_first / len(games):.1f} %"
    )


def run(games: int, seed: int, count: int, noise_sd: float, tie_grid: float) -> None:
    print(f"openskill {version('openskill')}, Python {sys.version.split()[0]}, seed {seed}")
    print(f"noise sd {noise_sd} (skill sd 1), totals rounded to a grid of {tie_grid}")
    leagues = make_leagues(count, games, seed, noise_sd, tie_grid)
    describe(leagues)

    raters: list[Rater] = [Uniform(), Elo(per_game=False), Elo(per_game=True)]
    raters += [OpenSkill(name) for name in MODELS]
    raters.append(Oracle(noise_sd))
    scores = {rater.name: evaluate(rater, leagues) for rater in raters}

    print("\nPredicting each game before rating it (means over all games):")
    print(
        f"  {'rater':24} {'log-loss':>8} {'top-1':>7} {'tau-b':>7} {'board tau':>9}"
        f" {'rate s':>7}   log-loss by league"
    )
    for name, s in scores.items():
        board = sum(s.board_taus) / len(s.board_taus) if s.board_taus else None
        timed = name not in ("uniform guess", "oracle (hidden skill)")
        print(
            f"  {name:24} {s.log_loss / s.games:8.4f} {s.top1 / s.games:7.3f}"
            f" {s.tau / s.games:7.3f} {f'{board:.3f}' if board is not None else '-':>9}"
            f" {f'{s.seconds:.2f}' if timed else '-':>7}   "
            + " ".join(
                f"{league.noise[:4]} {loss:.4f}"
                for league, loss in zip(leagues, s.league_log_loss, strict=True)
            )
        )

    print("\nTie check (rate with places, ties sharing a place; default parameters):")
    reports = [tie_check(name) for name in MODELS]
    for r in reports:
        print(f"  {r.name}: {'handles ties correctly' if r.correct else 'MISHANDLES TIES'}")
        print(
            f"    a. equal priors, places 1,2,2,4, tied pair: "
            f"{'equal' if r.equal_update else 'DIFFERENT'} ({r.equal_detail})"
        )
        print(
            "    b. tied pair (30/5 and 20/7) listed in both orders: "
            + ("same updates" if r.order_free else "UPDATES DEPEND ON THE ORDER")
        )
        print(
            "    c. tie between losing (0) and winning (1) the tie-break, each tied player:"
            + ("" if r.positions_ok else " OUTSIDE [0, 1]")
        )
        for case, (equal_pos, unequal_pos) in r.positions.items():
            print(
                f"       tie for {case:4}: equal priors {equal_pos[0]:+.2f} {equal_pos[1]:+.2f};"
                f" 30/5 and 20/7 {unequal_pos[0]:+.2f} {unequal_pos[1]:+.2f}"
            )
        if r.monotone_failures:
            print("    d. a better place gained less mu than a worse one (equal priors):")
            for failure in r.monotone_failures:
                print(f"       {failure}")
        else:
            print(f"    d. better places never gain less mu ({len(MONOTONE_PATTERNS)} patterns)")
        print(
            "    rate(tau=0): "
            + (
                "falls back to the model's tau (not 0)"
                if r.tau_zero_ignored
                else "rates without tau"
            )
            + f"; {r.name}(tau=0): "
            + ("rates without tau" if r.tau_zero_model else "still adds a tau")
        )

    correct = [r.name for r in reports if r.correct]
    wrong = [r.name for r in reports if not r.correct]
    print()
    if correct:
        best = min(correct, key=lambda name: scores[name].log_loss)
        print(
            f"RECOMMENDATION: {best}: best log-loss "
            f"({scores[best].log_loss / scores[best].games:.4f}) among the models that handle "
            f"ties correctly ({', '.join(correct)})"
            + (f"; {', '.join(wrong)} mishandles ties" if wrong else "")
        )
    else:
        print("RECOMMENDATION: none; every model failed the tie check")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6_000, help="games in all (6,000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the leagues (1)")
    parser.add_argument("--leagues", type=int, default=3, help="leagues (3)")
    parser.add_argument("--noise", type=float, default=1.5, help="noise sd, skill sd 1 (1.5)")
    parser.add_argument("--tie-grid", type=float, default=0.05, help="rounding of totals (0.05)")
    args = parser.parse_args(argv)
    if args.leagues < 1 or args.games < args.leagues or args.noise <= 0 or args.tie_grid <= 0:
        parser.error("needs --leagues >= 1, --games >= --leagues, --noise and --tie-grid > 0")
    run(args.games, args.seed, args.leagues, args.noise, args.tie_grid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
