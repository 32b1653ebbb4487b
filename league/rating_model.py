"""The rating model: a player's skill learnt from the points they score against
the others at their table. Pure Python, no Django (like ``games/``), so that the
benchmarks run it exactly as the league does.

Each player has a skill, a normal belief ``N(mu, sigma²)``. In a game, each
player's *performance* is their skill plus luck, ``N(0, beta²)``, and what the game
shows is how far each player's points are from their table's average, in rating
units (``beta`` per the game's :attr:`luck <ScoreModel.rate>`: the spread of points
between equally good players). Only differences are seen (everyone at a table
scoring 50 more says nothing), so the update conditions on the performances *up to
a common shift*; that is exact, in closed form, for any table size (see
:meth:`ScoreModel.rate`). Before each game a little uncertainty is added (``tau``,
so a rating can follow a player who improves), and more for the days since the
player last played (``idle``, as Glicko does), never beyond a new player's.

The numbers are on openskill's familiar scale (a new player is mu 25, sigma 25/3)
and the leaderboard orders by the cautious ``mu - 3 sigma``.

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
from dataclasses import dataclass

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
        """``mu - 3 sigma``: a cautious figure the skill very likely exceeds; the
        leaderboard's order."""
        return self.mu - 3 * self.sigma


GameToRate = tuple[int, str, int, list[int], list[float], float, bool]
"""A complete game to rate: table id, order key (when it was played, sortable),
day (``date.toordinal()``), player ids by seat, their final totals, the table's
luck in points (:func:`luck_points`), whether fewer points are better."""

PlayerState = tuple[Skill, int, int, str]
"""A rated player: skill, games rated, day and order key of the latest."""


@dataclass(frozen=True)
class ScoreModel:
    """The model's constants (immutable; a :class:`Skill` is the changing state).

    ``mu``, ``sigma``: a new player's belief. ``beta``: the luck in one game's
    performance, in rating units (the table's ``luck`` in points maps onto it).
    ``tau``: uncertainty added before each game. ``idle``: variance added per day
    since a player's last game (30 days away add ``sqrt(30 * idle)`` in quadrature).
    """

    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300
    idle: float = 0.05
    settled_after: int = 10

    @functools.cached_property
    def provisional_sigma(self) -> float:
        """A rating is provisional while its sigma is above this: the sigma a new
        player reaches after ``settled_after`` weekly games against other new
        players at tables of four. Playing against players already rated settles a
        rating sooner; time away unsettles it again.

        >>> round(ScoreModel().provisional_sigma, 2), round(MODELS["bluke"].provisional_sigma, 2)
        (1.87, 4.59)
        """
        skills = [self.new()] * 4
        for _ in range(self.settled_after):
            skills = [self.before_game(s, days_away=7) for s in skills]
            skills = self.rate(skills, [3.0, 1.0, -1.0, -3.0], luck=1.0)
        return skills[0].sigma

    def is_provisional(self, skill: Skill) -> bool:
        """Whether ``skill`` is still too unsure to be more than provisional."""
        return skill.sigma > self.provisional_sigma

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
    ) -> list[Skill]:
        """The skills after one game in which the players scored ``points`` (final
        totals; ``lower_is_better`` for games that count down, as Buck Euchre).

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

    def after_idle(self, skill: Skill, *, days: float) -> Skill:
        """``skill`` after ``days`` without a game (no game's ``tau``): what the
        leaderboard shows for a player who has not played since.

        >>> round(ScoreModel().after_idle(Skill(30.0, 2.0), days=90).sigma, 2)  # √(4 + 4.5)
        2.92
        """
        variance = skill.sigma**2 + self.idle * max(0.0, days)
        return Skill(skill.mu, min(self.sigma, math.sqrt(variance)))

    def rate_games(
        self, games: Iterable[GameToRate], state: dict[int, PlayerState]
    ) -> Iterator[tuple[GameToRate, list[Skill], list[int]]]:
        """Rate ``games`` in the order given, from and into ``state`` (player id →
        skill, games, day and order key of their latest game; a player not in it is
        new). Yields each game with its players' new skills and game counts, for a
        caller that keeps the history. This loop is all the rating there is: the
        league's job and the benchmarks run it alike.
        """
        fresh = (self.new(), 0, 0, "")
        before_game, rate = self.before_game, self.rate
        for game in games:
            _, key, day, players, totals, luck, lower_is_better = game
            known = [state.get(p, fresh) for p in players]
            skills = [
                before_game(skill, days_away=day - last if played else 0.0)
                for skill, played, last, _ in known
            ]
            rated = rate(skills, totals, luck=luck, lower_is_better=lower_is_better)
            counts = []
            for player, skill, (_, played, _, _) in zip(players, rated, known, strict=True):
                state[player] = (skill, played + 1, day, key)
                counts.append(played + 1)
            yield game, rated, counts

    def win_chances(self, skills: Sequence[Skill], *, steps: int = 240) -> list[float]:
        """Each player's chance of the best performance (the win) in a game
        between ``skills``: ``∫ f_i(x) Π_j≠i F_j(x) dx`` for performances
        ``N(mu, sigma² + beta²)``, by the midpoint rule over ±7 spreads.

        >>> model = ScoreModel()
        >>> [round(p, 3) for p in model.win_chances([model.new()] * 4)]
        [0.25, 0.25, 0.25, 0.25]
        >>> strong, weak = model.win_chances([Skill(35, 2), Skill(20, 2)])
        >>> round(strong, 3), round(strong + weak, 6)
        (0.989, 1.0)
        """
        means = [s.mu for s in skills]
        spreads = [math.sqrt(s.sigma**2 + self.beta**2) for s in skills]
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
    "bluke": ScoreModel(beta=14.0),
    "buck_euchre": ScoreModel(beta=32.0),
}
"""The model of each game, its constants chosen with ``benchmarks/rating_quality.py``
(docs/ratings.md has the figures). ``beta`` says how much of a game's margin is luck
against the spread of skills a club has: Buck Euchre's results are far noisier than
Bluke's, so each game moves a Buck Euchre rating less and its uncertainty shrinks
more slowly. ``idle`` (0.05 a day) adds 18 to the variance in a year away: enough
to make a settled player provisional again."""


def model_for(game: str) -> ScoreModel:
    """The model that rates ``game`` (``"bluke"`` or ``"buck_euchre"``)."""
    return MODELS[game]
