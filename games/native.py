"""Which engine modules have a compiled build, and which build this process runs.

The engine is pure Python and complete as such. Where a C compiler is
present, ``make`` also compiles the modules of :data:`COMPILED_MODULES`
with mypyc (see ``setup.py``): each becomes an extension module next to its
source, and Python imports the extension in preference to the ``.py``. The
two builds answer every record identically; the compiled one is faster.

This module is never compiled itself (``setup.py`` reads the list from it
without importing the package), so :func:`compiled` can tell the builds apart.
"""

from __future__ import annotations

import importlib
from importlib.machinery import ExtensionFileLoader
from typing import Final

COMPILED_MODULES: Final[tuple[str, ...]] = (
    "cards",
    "errors",
    "limits",
    "tricks",
    "bluke",
    "buck_euchre",
    "rules",
    "fields",
    "hands",
    "tally",
    "records",
    "lines",
)
"""The modules of :mod:`games` that mypyc compiles: those the checking of a
record runs through (profiled with ``benchmarks/check_vs_openspiel.py
--profile``), with the constants they read, and ``lines``, the loop of
``games check``. ``cli`` (argument parsing, worker processes), ``bots``,
``native`` and the package's ``__init__`` stay Python, and so does
``results``: its frozen dataclasses are made more slowly compiled (mypyc
leaves their ``__init__`` to :mod:`dataclasses`, behind a slower call)."""


def module_builds() -> dict[str, bool]:
    """For each module of :data:`COMPILED_MODULES`, whether this process
    loaded it as a compiled extension module (``True``) or from its ``.py``."""
    return {
        name: isinstance(importlib.import_module(f"games.{name}").__loader__, ExtensionFileLoader)
        for name in COMPILED_MODULES
    }


def compiled() -> bool:
    """Whether the engine runs compiled: every module of :data:`COMPILED_MODULES`
    is an extension module. ``False`` for the pure build (and for a mix, which
    only a build interrupted half-way leaves behind: ``make engine-pure`` or
    ``make engine-compiled`` puts it right)."""
    return all(module_builds().values())
