"""The engine's optional compiled build (everything else is in pyproject.toml).

With ``ENGINE_COMPILE=1`` or ``auto`` (see ``engine_build.py``) the modules
listed in ``games/native.py`` are compiled with mypyc into extension modules;
otherwise the project installs as pure Python. ``make engine-compiled`` runs
``ENGINE_COMPILE=1 python setup.py build_ext --inplace``, which puts the
extension modules next to their sources in ``games/`` (git ignores them).
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

from setuptools import setup

from engine_build import LISTING_REQUIREMENTS, wanted

HERE = Path(__file__).resolve().parent


def engine_extensions() -> list[object]:
    if os.environ.get(LISTING_REQUIREMENTS) or not wanted():
        return []  # (while requirements are listed, mypy is not installed yet)
    from mypyc.build import mypycify  # only a compiling build needs mypy

    # Read the list without importing the package (which may be a stale build).
    names = runpy.run_path(str(HERE / "games" / "native.py"))["COMPILED_MODULES"]
    return mypycify(
        # No config file: the project's [tool.mypy] loads Django's plugins, which a
        # build of the engine neither needs nor has; the defaults check what mypyc needs.
        ["--config-file=", *(f"games/{name}.py" for name in names)],
        opt_level="3",
        # The library the compiled modules share is games/_native__mypyc*.so, inside
        # the package rather than at the top of the import path.
        group_name="games._native",
    )


setup(ext_modules=engine_extensions())
