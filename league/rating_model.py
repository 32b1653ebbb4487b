"""The rating model: a player's skill learnt from the points they score. Pure
Python, no Django (like ``games/``), so that the benchmarks run it exactly as the
league does.

Each player has a skill, a normal belief ``N(mu, sigma²)``. In a game, each
player's *performance* is their skill plus luck, ``N(0, beta²)``, and what the game
shows depends on the game (:attr:`ScoreModel.against`):

- **against the table** (Buck Euchre, where every point one player makes is a point
  the others do not): how far each player's points are from their table's average,
  in rating units (``beta`` per the game's :attr:`luck <ScoreModel.rate>`: the spread
  of points between equally good players). Only differences are seen (everyone at a
  table scoring 50 more says nothing), so the update conditions on the performances
  *up to a common shift*; that is exact, in closed form, for any table size (see
  :meth:`ScoreModel.rate`).
- **against the league** (Bluke, where a player scores by making their own bid, and
  the others' play changes it little): how far each player's total is from the
  league's running mean total at tables of that size and length
  (:class:`LeagueMeans`, over the games rated before this one), each player's update
  on its own. Comparing with the table's average instead would add the others' luck
  to every player's result.

Before each game a little uncertainty is added (``tau``,
so a rating can follow a player who improves), and more for the days since the
player last played (``idle``, as Glicko does), never beyond a new player's.

The numbers are on openskill's familiar scale (a new player is mu 25, sigma 25/3 in
Buck Euchre, 24 in Bluke: :data:`MODELS`), and the leaderboard orders by
:meth:`ScoreModel.board_value`: mu, held down while a rating is provisional by three
times its sigma above the provisional threshold.

>>> model = ScoreModel()
>>> ann, bob, cy, dee = (model.new(),) * 4
>>> after = model.rate([ann, bob, cy, dee], [120, 80, 80, 40], luck=80.0)
>>> [round(s.mu, 2) for s in after]
[26.67, 25.0, 25.0, 23.33]
>>> after[1] == after[2]  # equal points, equal priors: equal ratings
True
>>> round(after[0].sigma, 2)
5.27
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

import games

LUCK_POINTS: dict[tuple[str, int], float] = {
    ("bluke", 3): 69.0,
    ("bluke", 4): 82.0,
    ("bluke", 5): 67.0,
    ("bluke", 6): 53.0,
    ("buck_euchre", 4): 10.7,
}
"""The spread (standard deviation) of a player's final total about the table's
average when everyone plays alike, by game and table size, with the default
options: measured over 400 games of ``games.bots.SimpleBot`` against itself.
Bluke's spread shrinks at bigger tables (fewer cards each, fewer hands)."""


@functools.cache
def luck_points(game: str, players: int, *, hands: int | None = None) -> float:
    """The :data:`LUCK_POINTS` of a table; a Bluke game of fewer ``hands`` than the
    full schedule (a ``max_cards`` option) is scaled by the share of hands played,
    since points add up hand by hand (luck grows as the square root of the hands).
    Cached: the rating job asks for every game.

    >>> luck_points("bluke", 4), luck_points("buck_euchre", 4)
    (82.0, 10.7)
    >>> round(luck_points("bluke", 4, hands=5), 1)  # max_cards 3: hands 3, 2, 1, 2, 3
    36.7
    """
    size = min(max(players, 3), 6) if game == "bluke" else 4
    luck = LUCK_POINTS[(game, size)]
    rules = games.rules_for(game, size, {})
    if isinstance(rules, games.Bluke) and hands is not None:
        full = len(rules.schedule)
        luck *= math.sqrt(min(hands, full) / full)
    return luck


@dataclass(frozen=True)
class Skill:
    """A belief about a player's skill: ``mu`` the estimate, ``sigma`` how unsure it is."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a cautious figure the skill very likely exceeds (the
        leaderboard's order before issue 32; now :meth:`ScoreModel.board_value`)."""
        return self.mu - 3 * self.sigma


GameToRate = tuple[int, str, int, list[int], list[float], float, bool, int]
"""A complete game to rate: table id, order key (when it was played, sortable),
day (``date.toordinal()``), player ids by seat, their final totals, the table's
luck in points (:func:`luck_points`), whether fewer points are better, the number
of hands played."""


@dataclass
class LeagueMeans:
    """The running mean of a player's final total in a scope's games, kept apart for
    each table size and number of hands (a Bluke table of three scores far more than
    one of five, and a shorter game less): exact integer sums, so a re-rating that
    starts in the middle of a season, from sums read out of the database, gets the
    same means as a run from the start.

    >>> means = LeagueMeans()
    >>> means.expected(players=4, hands=25) is None  # no game of that kind yet
    True
    >>> means.add([120, 80, 80, 40], hands=25)
    >>> means.add([10, 30, 50, 70], hands=25)
    >>> means.expected(players=4, hands=25), means.expected(players=3, hands=25)
    (60.0, None)
    """

    sums: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    """(players, hands) → (sum of the final totals, number of totals)."""

    def expected(self, *, players: int, hands: int) -> float | None:
        """The mean final total at a table of ``players`` that played ``hands``, over
        the games added so far; ``None`` before the first such game."""
        total, count = self.sums.get((players, hands), (0, 0))
        return total / count if count else None

    def add(self, totals: Sequence[float], *, hands: int) -> None:
        """Count one more game's final totals."""
        key = (len(totals), hands)
        total, count = self.sums.get(key, (0, 0))
        self.sums[key] = (total + int(sum(totals)), count + len(totals))


PlayerState = tuple[Skill, int, int, str]
"""A rated player: skill, games rated, day and order key of the latest."""


@dataclass(frozen=True)
class ScoreModel:
    """The model's constants (immutable; a :class:`Skill` is the changing state).

    ``mu``, ``sigma``: a new player's belief. ``beta``: the luck in one game's
    performance, in rating units (the table's ``luck`` in points maps onto it).
    ``tau``: uncertainty added before each game. ``idle``: variance added per day
    since a player's last game (30 days away add ``sqrt(30 * idle)`` in quadrature).
    ``against``: what a player's points are measured against, ``"table"`` (the
    table's average) or ``"league"`` (the league's running mean, :class:`LeagueMeans`);
    see the module's docstring.
    """

    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300
    idle: float = 0.05
    settled_after: int = 10
    against: Literal["table", "league"] = "table"
    chance_beta: float = 0.0
    """The luck in a performance when predicting who wins (:meth:`win_chances`); 0:
    ``beta``. A winner is decided by the extremes of the totals, which spread more
    between players who differ (a weak Bluke player's misses are large) than the
    margins a rating learns from, so predictions can be calibrated apart."""

    @functools.cached_property
    def provisional_sigma(self) -> float:
        """A rating is provisional while its sigma is above this: the sigma a new
        player reaches after ``settled_after`` weekly games against other new
        players at tables of four. Playing against players already rated settles a
        rating sooner; time away unsettles it again.

        >>> round(ScoreModel().provisional_sigma, 2), round(MODELS["bluke"].provisional_sigma, 2)
        (1.87, 10.17)
        """
        return self.sigma_after(self.settled_after)

    @functools.cache  # noqa: B019 - models are few and live as long as the process
    def sigma_after(self, games: int) -> float:
        """The sigma of a new player after ``games`` weekly games against other
        new players at tables of four (worked out once per model and count: the
        ratings page shows two of them).

        >>> [round(MODELS["bluke"].sigma_after(games), 1) for games in (0, 4, 40)]
        [24.0, 13.6, 8.4]
        """
        skills = [self.new()] * 4
        means = LeagueMeans({(4, 1): (0, 4)})  # a league whose mean total is 0
        for _ in range(games):
            skills = [self.before_game(s, days_away=7) for s in skills]
            skills = self.rate_game(skills, [3.0, 1.0, -1.0, -3.0], luck=1.0, hands=1, means=means)
        return skills[0].sigma

    def is_provisional(self, skill: Skill) -> bool:
        """Whether ``skill`` is still too unsure to be more than provisional."""
        return skill.sigma > self.provisional_sigma

    def board_value(self, skill: Skill) -> float:
        """What the leaderboard orders by and the pages call the rating (the API's
        ``ordinal``): ``mu``, less three times the part of sigma above
        :attr:`provisional_sigma`. A settled rating is its estimate, so players who
        have played different numbers of games are ranked by what they showed;
        a provisional one is held down by how unsettled it still is, so a newcomer
        with one lucky game does not top the board (``mu - 3 sigma`` held everyone
        down by all of their uncertainty, and ranked a player who had missed nights
        below one no better who had not: ``benchmarks/rating_quality.py``).

        >>> model = MODELS["buck_euchre"]
        >>> model.board_value(Skill(30.0, 5.0))  # settled: its mu
        30.0
        >>> round(model.board_value(Skill(30.0, 8.0)), 2)  # 3 x (8 - 6.96) below it
        26.89
        """
        return skill.mu - 3 * max(0.0, skill.sigma - self.provisional_sigma)

    def new(self) -> Skill:
        """A new player's skill."""
        return Skill(self.mu, self.sigma)

    def before_game(self, skill: Skill, *, days_away: float = 0.0) -> Skill:
        """``skill`` as it stands at the start of a game played ``days_away`` days
        after the player's previous one: ``tau`` and the idle time added in
        quadrature, sigma never above a new player's.

        >>> model = ScoreModel()
        >>> round(model.before_game(Skill(30.0, 2.0)).sigma, 4)
        2.0017
        >>> round(model.before_game(Skill(30.0, 2.0), days_away=180).sigma, 3)
        3.607
        >>> model.before_game(Skill(30.0, 8.0), days_away=10_000).sigma == model.sigma
        True
        """
        variance = skill.sigma**2 + self.tau**2 + self.idle * max(0.0, days_away)
        return Skill(skill.mu, min(self.sigma, math.sqrt(variance)))

    def rate(
        self,
        skills: Sequence[Skill],
        points: Sequence[float],
        *,
        luck: float,
        lower_is_better: bool = False,
        expected: float | None = None,
    ) -> list[Skill]:
        """The skills after one game in which the players scored ``points`` (final
        totals; ``lower_is_better`` for games that count down, as Buck Euchre).
        With ``expected`` (the league's mean total, for a model :attr:`against` the
        league), each total counts against it instead: see :meth:`rate_against`.

        ``luck`` is the spread (a standard deviation) of a player's points about
        the table's average between equally good players, for this game and table
        size; a margin of ``luck`` points counts as ``beta`` rating units. Call
        :meth:`before_game` on each skill first.

        The update: with ``y`` each player's margin over the table's average in
        rating units, performances ``p = y + c`` for an unknown common shift ``c``.
        With ``d_i = sigma_i² + beta²`` and ``w_i = 1 / d_i``, ``c`` is normal with
        mean ``ĉ = Σ w_i (mu_i - y_i) / Σ w_i`` and variance ``1 / Σ w_i``; each
        player's skill given its performance moves by ``sigma_i² / d_i`` of the
        surprise, so::

            mu_i'     = mu_i + (sigma_i² / d_i) (y_i + ĉ - mu_i)
            sigma_i'² = sigma_i² beta² / d_i + (sigma_i² / d_i)² / Σ w_i

        A better score never gives a lower rating than a worse one, players with
        the same prior and points end equal, and the order of the players does not
        matter.
        """
        n = len(skills)
        if n != len(points):
            raise ValueError(f"{n} skills but {len(points)} scores")
        if n < 2 or luck <= 0:
            raise ValueError("a game has two or more players and luck above 0")
        if expected is not None:
            return self.rate_against(
                skills, points, luck=luck, lower_is_better=lower_is_better, expected=expected
            )
        sign = -1.0 if lower_is_better else 1.0
        average = sum(points) / n
        margins = [sign * (p - average) * self.beta / luck for p in points]
        beta2 = self.beta**2
        spread = [s.sigma**2 + beta2 for s in skills]
        weight = [1.0 / d for d in spread]
        total_weight = sum(weight)
        shift = sum(w * (s.mu - y) for w, s, y in zip(weight, skills, margins, strict=True))
        shift /= total_weight
        rated = []
        for skill, y, d in zip(skills, margins, spread, strict=True):
            gain = skill.sigma**2 / d
            mu = skill.mu + gain * (y + shift - skill.mu)
            variance = skill.sigma**2 * beta2 / d + gain**2 / total_weight
            rated.append(Skill(mu, math.sqrt(variance)))
        return rated

    def rate_against(
        self,
        skills: Sequence[Skill],
        points: Sequence[float],
        *,
        luck: float,
        expected: float,
        lower_is_better: bool = False,
    ) -> list[Skill]:
        """The skills after one game, each player's total counted against
        ``expected``, the league's mean total at such a table: a player who scores
        the mean performed as a new player is expected to (``mu``), and ``luck``
        points more count ``beta`` more. Each player's update is on its own (a
        Kalman filter of one skill), with ``y`` the performance so measured and
        ``d = sigma² + beta²``::

            mu'     = mu + (sigma² / d) (y - mu)
            sigma'² = sigma² beta² / d

        Ann (25 ± 5) scores 40 over the mean: y = 25 + 40 * 14 / 80 = 32, d = 221,
        mu' = 25 + 7 * 25 / 221; Bob (30 ± 2) scores the mean: y = 25, d = 200,
        mu' = 30 - 5 * 4 / 200:

        >>> model = ScoreModel(beta=14.0)
        >>> after = model.rate_against([Skill(25.0, 5.0), Skill(30.0, 2.0)], [140, 100],
        ...                            luck=80.0, expected=100.0)
        >>> [(round(s.mu, 2), round(s.sigma, 2)) for s in after]
        [(25.79, 4.71), (29.9, 1.98)]
        """
        sign = -1.0 if lower_is_better else 1.0
        scale = self.beta / luck
        beta2 = self.beta**2
        rated = []
        for skill, scored in zip(skills, points, strict=True):
            performance = self.mu + sign * (scored - expected) * scale
            spread = skill.sigma**2 + beta2
            gain = skill.sigma**2 / spread
            rated.append(
                Skill(
                    skill.mu + gain * (performance - skill.mu),
                    math.sqrt(skill.sigma**2 * beta2 / spread),
                )
            )
        return rated

    def after_idle(self, skill: Skill, *, days: float) -> Skill:
        """``skill`` after ``days`` without a game (no game's ``tau``): what the
        leaderboard shows for a player who has not played since.

        >>> round(ScoreModel().after_idle(Skill(30.0, 2.0), days=90).sigma, 2)  # √(4 + 4.5)
        2.92
        """
        variance = skill.sigma**2 + self.idle * max(0.0, days)
        return Skill(skill.mu, min(self.sigma, math.sqrt(variance)))

    def rate_game(
        self,
        skills: Sequence[Skill],
        points: Sequence[float],
        *,
        luck: float,
        hands: int,
        lower_is_better: bool = False,
        means: LeagueMeans | None = None,
    ) -> list[Skill]:
        """One game rated as this model rates it: against the table, or, for a model
        :attr:`against` the league, against ``means`` (then counting the game into
        them). The first game of its kind in a league has no mean to count against
        yet and counts against its table."""
        if self.against == "table" or means is None:
            return self.rate(skills, points, luck=luck, lower_is_better=lower_is_better)
        expected = means.expected(players=len(points), hands=hands)
        rated = self.rate(
            skills, points, luck=luck, lower_is_better=lower_is_better, expected=expected
        )
        means.add(points, hands=hands)
        return rated

    def rate_games(
        self,
        games: Iterable[GameToRate],
        state: dict[int, PlayerState],
        means: LeagueMeans | None = None,
    ) -> Iterator[tuple[GameToRate, list[Skill], list[int]]]:
        """Rate ``games`` in the order given, from and into ``state`` (player id →
        skill, games, day and order key of their latest game; a player not in it is
        new) and ``means`` (the league's means before the first game; a model
        :attr:`against` the league starts from none without it). Yields each game
        with its players' new skills and game counts, for a caller that keeps the
        history. This loop is all the rating there is: the league's job and the
        benchmarks run it alike.
        """
        fresh = (self.new(), 0, 0, "")
        before_game, rate, rate_game = self.before_game, self.rate, self.rate_game
        against_table = self.against == "table"
        if means is None:
            means = LeagueMeans()
        for game in games:
            _, key, day, players, totals, luck, lower_is_better, hands = game
            known = [state.get(p, fresh) for p in players]
            skills = [
                before_game(skill, days_away=day - last if played else 0.0)
                for skill, played, last, _ in known
            ]
            if against_table:  # the hot path of a big re-rating: no means to keep
                rated = rate(skills, totals, luck=luck, lower_is_better=lower_is_better)
            else:
                rated = rate_game(
                    skills,
                    totals,
                    luck=luck,
                    hands=hands,
                    lower_is_better=lower_is_better,
                    means=means,
                )
            counts = []
            for player, skill, (_, played, _, _) in zip(players, rated, known, strict=True):
                state[player] = (skill, played + 1, day, key)
                counts.append(played + 1)
            yield game, rated, counts

    def win_chances(self, skills: Sequence[Skill], *, steps: int = 240) -> list[float]:
        """Each player's chance of the best performance (the win) in a game
        between ``skills``: ``∫ f_i(x) Π_j≠i F_j(x) dx`` for performances
        ``N(mu, sigma² + beta²)`` (:attr:`chance_beta` for beta where set), by the
        midpoint rule over ±7 spreads.

        >>> model = ScoreModel()
        >>> [round(p, 3) for p in model.win_chances([model.new()] * 4)]
        [0.25, 0.25, 0.25, 0.25]
        >>> strong, weak = model.win_chances([Skill(35, 2), Skill(20, 2)])
        >>> round(strong, 3), round(strong + weak, 6)
        (0.989, 1.0)
        """
        means = [s.mu for s in skills]
        luck = self.chance_beta or self.beta
        spreads = [math.sqrt(s.sigma**2 + luck**2) for s in skills]
        low = min(m - 7 * sd for m, sd in zip(means, spreads, strict=True))
        high = max(m + 7 * sd for m, sd in zip(means, spreads, strict=True))
        step = (high - low) / steps
        chances = [0.0] * len(skills)
        for k in range(steps):
            x = low + (k + 0.5) * step
            below = [
                0.5 * (1 + math.erf((x - m) / (sd * math.sqrt(2))))
                for m, sd in zip(means, spreads, strict=True)
            ]
            everyone = math.prod(below)
            for i, (m, sd) in enumerate(zip(means, spreads, strict=True)):
                density = math.exp(-0.5 * ((x - m) / sd) ** 2) / (sd * math.sqrt(2 * math.pi))
                others = everyone / below[i] if below[i] > 0 else 0.0
                chances[i] += density * others * step
        total = sum(chances)
        return [c / total for c in chances]


MODELS: dict[str, ScoreModel] = {
    "bluke": ScoreModel(
        sigma=24.0, beta=32.0, tau=1.0, idle=0.58, against="league", chance_beta=64.0
    ),
    "buck_euchre": ScoreModel(beta=32.0, chance_beta=64.0),
}
"""The model of each game, its constants chosen with ``benchmarks/rating_quality.py``
(docs/ratings.md has the figures). ``beta`` says how much of a game's margin is luck
against the spread of skills a club has (a margin is first scaled by the game's own
luck, :data:`LUCK_POINTS`); larger, each game moves a rating less. A Bluke total
shows skill far more plainly than a Buck Euchre one (a missed bid costs ten points a
trick bid), so Bluke's new player is less sure of where they stand (sigma 24, against
25/3): a player who missed nights is no longer pulled to the middle more than one who
came every week; its ``tau`` (1, against 25/300) lets a rating follow a player who
improves over a season, and its ``idle`` scales with its sigma (0.58 a day, 212 to
the variance in a year, which makes a player settled by weekly games provisional
again, as 0.05 a day does in Buck Euchre in about 15 months). ``chance_beta`` (64 in
both) makes the chances of winning predicted less sure than the ratings' beta would:
winners are decided by the extremes of the totals."""


def model_for(game: str) -> ScoreModel:
    """The model that rates ``game`` (``"bluke"`` or ``"buck_euchre"``)."""
    return MODELS[game]
