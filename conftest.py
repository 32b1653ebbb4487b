"""Collecting ``games/`` for doctests when the engine runs compiled.

``--doctest-modules`` imports every ``games/*.py``; for a module that mypyc
compiled, Python imports the extension module instead, and pytest refuses the
mismatch ("import file mismatch"). Those modules hold no doctests (the
package's doctests live in ``games/__init__.py``, ``games/bots.py`` and
docs/*.md, which stay Python), so their sources are left out of collection on
the compiled build; the pure build collects them as always. A compiled module
that gains doctests stops the run instead of having them skipped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parent / "games"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.parent != GAMES or collection_path.suffix != ".py":
        return None
    if not any(GAMES.glob(f"{collection_path.stem}.*.so")):
        return None  # no compiled build of this module: collect it as usual
    if ">>>" in collection_path.read_text(encoding="utf-8"):
        raise pytest.UsageError(
            f"{collection_path.name} has doctests but is compiled, so they cannot run: "
            "move them to a module that stays Python (see games/native.py)"
        )
    return True
