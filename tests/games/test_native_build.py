"""Which build of the engine the tests run: CI runs them on both.

``ENGINE_BUILD=pure`` or ``ENGINE_BUILD=compiled`` (as .ci/run sets it) states
which build the run must be on, so that CI cannot test the same build twice;
without it, either build passes but must be whole, not a mix.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import ExtensionFileLoader
from pathlib import Path

import pytest

import games
from games import native
from games.native import COMPILED_MODULES, compiled, module_builds

EXPECTED = os.environ.get("ENGINE_BUILD", "")
GAMES = Path(games.__file__).parent


def test_engine_build_is_known() -> None:
    assert EXPECTED in ("", "pure", "compiled"), f"ENGINE_BUILD={EXPECTED!r}"


def test_every_listed_module_exists_and_the_rest_stay_python() -> None:
    sources = {path.stem for path in GAMES.glob("*.py")}
    assert set(COMPILED_MODULES) <= sources
    # the command line (worker processes), the bots, the package and this module
    # are never compiled: native.compiled() itself must stay Python to tell
    for name in ("cli", "bots", "native", "__main__"):
        assert name not in COMPILED_MODULES
    assert not isinstance(native.__loader__, ExtensionFileLoader)


def test_the_build_is_whole() -> None:
    builds = module_builds()
    assert set(builds) == set(COMPILED_MODULES)
    assert len(set(builds.values())) == 1, f"a mix of builds: {builds}"
    assert compiled() is all(builds.values())
    assert games.compiled is compiled


@pytest.mark.skipif(EXPECTED != "compiled", reason="ENGINE_BUILD is not 'compiled'")
def test_the_compiled_build_is_loaded() -> None:
    builds = module_builds()
    assert compiled(), f"ENGINE_BUILD=compiled but these are Python: {builds}"
    for name in COMPILED_MODULES:
        module = sys.modules[f"games.{name}"]
        assert module.__file__ is not None and module.__file__.endswith(".so"), module.__file__
    # a compiled class is a native type: its methods are not Python functions
    assert type(games.Card.parse).__name__ != "function"


@pytest.mark.skipif(EXPECTED != "pure", reason="ENGINE_BUILD is not 'pure'")
def test_the_pure_build_is_loaded() -> None:
    assert not compiled(), f"ENGINE_BUILD=pure but compiled: {module_builds()}"
    assert not list(GAMES.glob("*.so")), "extension modules left in games/"
    for name in COMPILED_MODULES:
        assert sys.modules[f"games.{name}"].__file__ == str(GAMES / f"{name}.py")


def test_the_command_line_runs_on_the_same_build() -> None:
    """``python -m games`` in a fresh process loads the build the tests see."""
    done = subprocess.run(
        [sys.executable, "-c", "import games; print(games.compiled())"],
        capture_output=True,
        text=True,
        check=True,
        cwd=GAMES.parent,
    )
    assert done.stdout.strip() == str(compiled())
