"""The games the engine knows, and the type of their rules objects.

A module of its own, below the reading of records (:mod:`games.fields`,
:mod:`games.hands`, :mod:`games.tally`, :mod:`games.records`), so that each
of them and the package can name :data:`Rules` without importing one another.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from games import bluke, buck_euchre
from games.bluke import Bluke
from games.buck_euchre import BuckEuchre

Rules: TypeAlias = Bluke | BuckEuchre
"""The rules of one game for its players and options: a :class:`Bluke` or a
:class:`BuckEuchre`. Code that handles either game takes a ``Rules`` and
tells them apart with ``isinstance``."""

GAME_NAMES: Final[tuple[str, ...]] = (bluke.NAME, buck_euchre.NAME)
"""The ``game`` of every record the engine reads, one per rules class of
:data:`Rules`."""
