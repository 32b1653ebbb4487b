"""Fixtures for every test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import translation


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Every test starts with an empty cache: table links' rate limits count there."""
    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Every test starts in the site's language: a request in Ukrainian leaves its
    language active in the thread (the middleware activates, nothing deactivates),
    and a service called next would answer in it."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def archives_dir(settings: Any, tmp_path: Path) -> Path:
    """The downloads prepared as files (league/archives.py) kept in a folder of the
    test's own, which the test may list."""
    folder = tmp_path / "archives"
    folder.mkdir()
    settings.STORAGES = {
        **settings.STORAGES,
        "archives": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": folder},
        },
    }
    return folder
