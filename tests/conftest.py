"""Fixtures for every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Every test starts with an empty cache: table links' rate limits count there."""
    cache.clear()
    yield
