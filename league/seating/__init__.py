"""Seating a game night: who sits at which table, in which seat, and who deals first.

A pure module (no Django), like :mod:`games`. The caller passes the players present
(any hashable ids, in a fixed order), the game's :class:`TablePolicy`, the history of
who met whom (:class:`PastRound`, oldest first), the :class:`Method`, options and a
seed; :func:`plan_round` returns one :class:`RoundSeating`, :func:`plan_night` a
:class:`Plan` of several rounds optimised together. The same arguments and seed
always give the same result. Refusals are :class:`SeatingError` with a ``code``.

>>> from league.seating import TablePolicy, plan_night
>>> plan = plan_night(range(9), TablePolicy("bluke", size=3), rounds=4, seed=1)
>>> plan.repeat_count
0

See docs/seating.md for the rules in an organiser's words, and
``python -m league.seating plan --help`` for the command.
"""

from league.seating.errors import ERROR_CODES, SeatingError
from league.seating.model import (
    Cost,
    Method,
    PastRound,
    Plan,
    Repeat,
    RoundSeating,
    Search,
    Table,
    Weights,
)
from league.seating.planner import assess, evaluate, plan_night, plan_round
from league.seating.policy import MAX_SIZE as MAX_TABLE_SIZE
from league.seating.policy import MIN_SIZE as MIN_TABLE_SIZE
from league.seating.policy import TablePolicy

__all__ = [
    "ERROR_CODES",
    "MAX_TABLE_SIZE",
    "MIN_TABLE_SIZE",
    "Cost",
    "Method",
    "PastRound",
    "Plan",
    "Repeat",
    "RoundSeating",
    "Search",
    "SeatingError",
    "Table",
    "TablePolicy",
    "Weights",
    "assess",
    "evaluate",
    "plan_night",
    "plan_round",
]
