"""A real headless Chromium for the end-to-end tests, driven by playwright.

The browser is Debian's ``chromium`` (``CHROMIUM`` overrides the path), not
one playwright downloads. Without it the tests are skipped, except under
``CI=true``, where a missing browser is a failure (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import PHONE, Shots

CHROMIUM = shutil.which(os.environ.get("CHROMIUM") or "chromium") or ""


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM:
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is missing: .ci/run installs Debian's chromium")
        pytest.skip("needs Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # playwright's sync API runs an event loop in this thread; the test's
    # own database calls around it are synchronous and safe
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield chromium
        chromium.close()


CSP_VIOLATION = "Content Security Policy"
"""How Chromium's console words a script or style the page's policy refused."""


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    """A fresh browser context (no cookies) the size of a small phone; at
    the end, every request it made must have gone to the server's own
    origin (no CDN, no outside fonts or scripts), and no page may have had
    a script or style refused by its Content-Security-Policy."""
    context = browser.new_context(viewport={"width": 375, "height": 740})
    context.set_default_timeout(10_000)
    requested: list[str] = []
    refused: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    context.on(
        "console",
        lambda message: refused.append(message.text) if CSP_VIOLATION in message.text else None,
    )
    page = context.new_page()
    yield page
    context.close()
    elsewhere = [url for url in requested if not url.startswith(f"{live_server.url}/")]
    assert requested and not elsewhere, elsewhere
    assert not refused, refused


@pytest.fixture
def shots(tmp_path: Path) -> Shots:
    """Screenshots of the test's steps, to ``$E2E_SCREENSHOTS`` when set (to be looked at)."""
    return Shots(Path(os.environ.get("E2E_SCREENSHOTS") or tmp_path / "shots"))


@pytest.fixture
def second_phone(browser: Any, live_server: Any) -> Iterator[Any]:
    """Another phone (its own cookies), for the scorekeeper; like ``page``, it
    must request nothing but the server's own pages and files."""
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(10_000)
    requested: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    yield context.new_page()
    context.close()
    assert all(url.startswith(f"{live_server.url}/") for url in requested), requested
