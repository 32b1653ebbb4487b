"""Why a rating moved: one game of a player's rating history, explained. Pure
Python, no Django (like :mod:`league.rating_model`), and no wording either: it
returns figures and which sentence fits them, and the web layer
(:mod:`league.web.rating_words`) words them in the reader's language.

A game moves a rating by how the player's total compared with what the model
expected of them at that table (:mod:`league.rating_model`):

- **Bluke** counts each total against the league's mean total at tables of that
  size (:class:`~league.rating_model.LeagueMeans`); the model expects a player of
  skill ``mu`` to score ``(mu - 25) * luck / beta`` above it (a new player: the
  mean itself). A league's first game at a table size counts against its table.
- **Buck Euchre** counts each total against the table's average; the model
  expects ``(mu - the table's average mu) * luck / beta`` from it, below it for a
  strong player, as the game counts down.

Scoring more (Buck Euchre: fewer) than expected raises the rating, less lowers
it. What the pages call the rating is the board's figure
(:meth:`~league.rating_model.ScoreModel.board_value`): mu, held down while the
rating is still settling. Before, after and the change are all that figure at one
decimal, as the chart draws it, so the words and the chart never disagree.

A Bluke player, settled at mu 31, at a table of four whose league mean is 100,
scores 140 where 12 above the mean was expected (``(31 - 25) * 64 / 32``):

>>> from league.rating_model import MODELS, Skill
>>> bluke = MODELS["bluke"]
>>> expected = expected_totals(bluke, [31.0, 25.0, 25.0, 25.0], [140, 90, 90, 80],
...                            luck=64.0, mean=100.0, lower_is_better=False)
>>> expected
[112.0, 100.0, 100.0, 100.0]
>>> settled = Skill(31.0, 9.0)
>>> after = bluke.rate([bluke.before_game(settled, days_away=7), bluke.new()], [140, 60],
...                    luck=64.0, expected=100.0)[0]
>>> game = explain(bluke, before=settled, after=after, points=140, mean=100.0,
...                expected=112.0, against_table=False, players=4, lower_is_better=False)
>>> game.margin, game.expected_margin, game.before, game.after, game.change
(40.0, 12.0, 31.0, 32.1, 1.1)
>>> game.against, game.held_down
('league', 0.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from league.rating_model import ScoreModel, Skill

Against = Literal["league", "club", "table"]
"""What a total was measured against: the league's mean at such tables, the club's
(a club-wide Bluke rating, over all the club's leagues of the game), or the table's
average."""


def expected_totals(
    model: ScoreModel,
    mus: Sequence[float],
    points: Sequence[float],
    *,
    luck: float,
    mean: float | None,
    lower_is_better: bool,
) -> list[float]:
    """The total the model expected of each player at a table, from their skills
    (``mus``, before the game) and what the game was measured against: ``mean``,
    the league's mean total at such tables for a model against the league, or
    ``None``, the table's average (of ``points``), each player then expected to
    be as far from it as their skill is from the table's average skill. A margin
    of ``luck`` points is ``beta`` rating units.

    Buck Euchre counts down, so the stronger player is expected below the table:

    >>> from league.rating_model import MODELS
    >>> [round(t, 2) for t in expected_totals(MODELS["buck_euchre"], [28.0, 24.0, 24.0, 24.0],
    ...                                       [2, 10, 12, 16], luck=10.7, mean=None,
    ...                                       lower_is_better=True)]
    [9.0, 10.33, 10.33, 10.33]
    """
    sign = -1.0 if lower_is_better else 1.0
    scale = luck / model.beta
    if mean is not None:
        return [mean + sign * (mu - model.mu) * scale for mu in mus]
    average = sum(points) / len(points)
    skill = sum(mus) / len(mus)
    return [average + sign * (mu - skill) * scale for mu in mus]


@dataclass(frozen=True)
class GameExplained:
    """One game of a player's rating history, as figures to word.

    ``before`` and ``after`` are the board's figure at one decimal, ``change``
    their difference (so the words add up: 31.0 + 1.1 = 32.1). ``margin`` and
    ``expected_margin`` are the player's total and the model's expectation, less
    ``mean`` (the league's, or for a club-wide rating the club's, mean at tables of
    ``players``, or the table's average: ``against``), in points, at one decimal.
    ``held_down`` is how far the board's figure is below the estimate (mu) after
    the game, while the rating is still ``settling``; 0 once settled."""

    before: float
    after: float
    change: float
    points: float
    mean: float
    expected_margin: float
    margin: float
    against: Against
    players: int
    lower_is_better: bool
    held_down: float
    settling: bool
    estimate_change: float = 0.0
    """How far the game moved the estimate itself (mu), one decimal: the change
    less what the holding down eased (a settling rating can rise after a game
    below expectations, as one more game makes it surer)."""
    eased: float = 0.0
    """How much less the rating is held down than before the game, one decimal."""

    @property
    def better_than_expected(self) -> bool:
        """Whether the player did better than the model expected (the rating's
        direction, before the settling is counted)."""
        if self.lower_is_better:
            return self.margin < self.expected_margin
        return self.margin > self.expected_margin


def one_decimal(value: float) -> float:
    """``value`` at one decimal, as the pages and the chart show it, never -0.0.

    >>> one_decimal(4.449), one_decimal(-0.04), one_decimal(2.25)
    (4.4, 0.0, 2.3)
    """
    # half away from zero, as a reader rounds (Python's round() halves to even)
    shown = math.floor(abs(value) * 10 + 0.5 + 1e-9) / 10
    return math.copysign(shown, value) + 0.0 if shown else 0.0


def explain(
    model: ScoreModel,
    *,
    before: Skill,
    after: Skill,
    points: float,
    mean: float,
    expected: float,
    against_table: bool,
    players: int,
    lower_is_better: bool,
    club_wide: bool = False,
) -> GameExplained:
    """One game explained from what the re-rating keeps (the rating history's row
    and the one before it: ``before`` is the rating after the player's previous
    game, a new player's for the first); ``club_wide`` for a club-wide rating,
    whose mean is the club's.

    Four new Bluke players at a league's first table: the runner-up rises, but
    stays held down by how unsure one game leaves the rating:

    >>> from league.rating_model import MODELS
    >>> bluke = MODELS["bluke"]
    >>> runner_up = explain(bluke, before=bluke.new(), after=Skill(29.6, 19.2), points=120,
    ...                     mean=95.0, expected=95.0, against_table=True, players=4,
    ...                     lower_is_better=False)
    >>> runner_up.before, runner_up.after, runner_up.change, runner_up.held_down
    (-16.5, 2.5, 19.0, 27.1)
    >>> runner_up.against, runner_up.settling, runner_up.better_than_expected
    ('table', True, True)
    >>> runner_up.estimate_change, runner_up.eased  # 4.6 + 14.4 = 19.0
    (4.6, 14.4)
    """
    shown_before = one_decimal(model.board_value(before))
    shown_after = one_decimal(model.board_value(after))
    return GameExplained(
        before=shown_before,
        after=shown_after,
        change=one_decimal(shown_after - shown_before),
        points=points,
        mean=one_decimal(mean),
        expected_margin=one_decimal(expected - mean),
        margin=one_decimal(points - mean),
        against="table" if against_table else "club" if club_wide else "league",
        players=players,
        lower_is_better=lower_is_better,
        held_down=one_decimal(after.mu - model.board_value(after)),
        settling=model.is_provisional(after),
        estimate_change=one_decimal(after.mu - before.mu),
        eased=one_decimal(
            (before.mu - model.board_value(before)) - (after.mu - model.board_value(after))
        ),
    )
