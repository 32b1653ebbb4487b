"""Whether to compile the engine with mypyc, and the build backend that asks for mypy only then.

The engine (``games/``) is pure Python and complete without a C compiler;
compiling its hot modules (``games.native.COMPILED_MODULES``) only makes it
faster. ``ENGINE_COMPILE`` chooses:

- ``0`` (the default of a plain ``pip install``): pure Python, no compiler,
  no mypy needed to build;
- ``1``: compile, and fail if that is impossible (CI, to test the compiled build);
- ``auto`` (the Makefile's default): compile when a C compiler and Python's
  headers are present, else stay pure.

This module is the project's build backend (``[build-system]`` in
pyproject.toml): it is setuptools' own, except that a wheel built with
compiling on also requires mypy, whose mypyc does the compiling. ``setup.py``
asks :func:`wanted` whether to add the extension modules.
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the backend's other hooks, unchanged)

MYPY_REQUIREMENT = "mypy==1.19.1"
"""The mypy (and so mypyc) that compiles the engine: the one the project
type-checks with (pyproject.toml's dev extras)."""

CHOICES = ("0", "1", "auto")


def choice() -> str:
    """``ENGINE_COMPILE`` (``0`` when unset); raises ``SystemExit`` for another value."""
    value = os.environ.get("ENGINE_COMPILE", "0").strip().lower() or "0"
    if value not in CHOICES:
        raise SystemExit(f"ENGINE_COMPILE must be 0, 1 or auto, not {value!r}")
    return value


def compiler_present() -> bool:
    """Whether a C compiler for extension modules and Python's headers are here."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return bool(compiler) and shutil.which(compiler[0]) is not None and headers.is_file()


def wanted() -> bool:
    """Whether this build compiles the engine (see the module's docstring);
    ``ENGINE_COMPILE=1`` without a compiler raises ``SystemExit``."""
    value = choice()
    if value == "0":
        return False
    present = compiler_present()
    if value == "1" and not present:
        raise SystemExit("ENGINE_COMPILE=1, but there is no C compiler or no Python.h here")
    return present


LISTING_REQUIREMENTS = "ENGINE_BUILD_LISTING_REQUIREMENTS"
"""Set while setuptools runs ``setup.py`` only to list what the build requires:
mypy is not installed yet then, so ``setup.py`` must not reach for mypyc."""


def _requires(hook: Callable[[dict[str, Any] | None], list[str]], config: Any) -> list[str]:
    os.environ[LISTING_REQUIREMENTS] = "1"
    try:
        requires = hook(config)
    finally:
        del os.environ[LISTING_REQUIREMENTS]
    return [*requires, MYPY_REQUIREMENT] if wanted() else requires


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_editable, config_settings)
