"""The end-to-end tests' helpers: screenshots at both widths, logging in on the
login page, whether a page fits a phone, and a QR code read from a screenshot."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.urls import reverse

from tests.support.factories import PASSWORD

PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


class Shots:
    """Full-page screenshots of a step at both widths."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def take(self, page: Any, step: str) -> None:
        page.screenshot(path=str(self.folder / f"{step}-375.png"), full_page=True)
        page.set_viewport_size(DESKTOP)
        page.screenshot(path=str(self.folder / f"{step}-1280.png"), full_page=True)
        page.set_viewport_size(PHONE)


def fits_the_phone(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def log_in(page: Any, base: str, user: AbstractUser, *, to: str) -> None:
    """Log in from the login page that ``to`` sends to (or that asks for ``to``
    next), and come back to ``to``."""
    page.goto(f"{base}{to}" if to != "/" else f"{base}{reverse('login')}?next=/")
    page.get_by_label("Username").fill(user.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    assert page.url == f"{base}{to}"


def kept_for_offline(page: Any) -> None:
    """Wait until the service worker controls the page and holds its copy
    (the first visit registers it; the page is fetched through it after)."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    for _ in range(50):  # (wait_for_function evaluates a string: the page's CSP refuses it)
        if page.evaluate("navigator.serviceWorker.controller !== null"):
            break
        page.wait_for_timeout(100)
    page.reload()  # fetched through the worker: kept


def decode_qr(png: bytes) -> str:
    """The text of the one QR code in a screenshot."""
    import zxingcpp
    from PIL import Image

    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)).convert("L"))
    assert len(found) == 1, found
    return str(found[0].text)
