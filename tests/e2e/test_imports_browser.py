"""End to end, in a real headless Chromium the width of a phone (375 px): an organiser
imports last season's games from a CSV file.

From the club's hub, "Import results" for a league; the file first holds a mistake, so
the preview lists it by row, hand and seat and offers nothing to import; the file put
right, the preview says what will be stored; the organiser chooses the same file again
and imports it, landing on the league's page. Every page fits the phone.

Screenshots of the upload form, the preview with a problem and the preview to confirm,
at 375 and 1280 px, go to ``$E2E_SCREENSHOTS`` when set (else to the test's temporary
directory), to be looked at.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import expect

from league import outbox
from league.models import Game, Hand
from league.services.clubs import club_create
from league.services.fixtures import league_create
from league.web import organise_imports
from tests.support.factories import PASSWORD, UserFactory
from tests.support.imports import BLUKE_OPTIONS, csv_of, download, played_league, rows_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def shoot(page: Any, folder: Path, step: str) -> None:
    """Full-page screenshots of the page at both widths."""
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{step}-375.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(folder / f"{step}-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)


def fits_the_phone(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_an_organiser_imports_last_season_from_a_phone(
    live_server: Any, page: Any, tmp_path: Path
) -> None:
    shots = Path(os.environ.get("E2E_SCREENSHOTS") or tmp_path / "shots")
    # last season, kept by another club's site: its games CSV, as the export writes it
    old = played_league(lambda **_: contextlib.nullcontext(), game=Game.BLUKE)
    good = download(Client(), "league-games-csv", old.pk)
    rows = rows_of(good)
    rows[14]["bid"] = "9"  # row 16: a bid out of range
    bad = csv_of(rows)
    (tmp_path / "mistake").mkdir()
    (tmp_path / "mistake" / "last-season.csv").write_bytes(bad)
    (tmp_path / "last-season.csv").write_bytes(good)

    organiser = UserFactory(username="olga")
    club = club_create(name="Riverside", organiser=organiser)
    league = league_create(club=club, name="Bluke 2025", game=Game.BLUKE, options=BLUKE_OPTIONS)

    base = live_server.url
    page.goto(f"{base}/accounts/login/?next=/clubs/{club.pk}/manage/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Import results into Bluke 2025").click()
    expect(page.get_by_role("heading", name="Import players or results")).to_be_visible()
    expect(page.get_by_label("League", exact=True)).to_have_value(str(league.pk))
    page.get_by_label("File", exact=True).set_input_files(
        str(tmp_path / "mistake" / "last-season.csv")
    )
    assert fits_the_phone(page)
    shoot(page, shots, "import-upload")

    page.get_by_role("button", name="Check the file").click()
    expect(page.get_by_role("heading", name="The file has a problem")).to_be_visible()
    expect(
        page.get_by_text("Gil's bid of 9 is out of range: bids run from 1 to 2.")
    ).to_be_visible()
    expect(page.get_by_role("button", name="Import")).to_have_count(0)
    assert fits_the_phone(page)
    wrap = "document.querySelector('.table-wrap')"
    assert page.evaluate(f"{wrap}.scrollWidth <= {wrap}.clientWidth")  # words wrap, not hide
    shoot(page, shots, "import-preview-problem")

    page.get_by_role("link", name="Check another file").click()
    page.get_by_label("File", exact=True).set_input_files(str(tmp_path / "last-season.csv"))
    page.get_by_role("button", name="Check the file").click()
    expect(page.get_by_role("heading", name="What the import stores")).to_be_visible()
    expect(page.get_by_text("Hands: 18, every one checked by the rules.")).to_be_visible()
    assert fits_the_phone(page)
    shoot(page, shots, "import-preview")
    assert not Hand.objects.filter(table__round__event__league=league).exists()

    page.get_by_label("The same file again").set_input_files(str(tmp_path / "last-season.csv"))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("Imported into Bluke 2025: 18 hands at 6 tables")).to_be_visible()
    assert page.url == f"{base}/leagues/{league.pk}/"
    assert Hand.objects.filter(table__round__event__league=league).count() == 18


def test_a_large_import_is_followed_on_its_page_until_it_is_done(
    live_server: Any, page: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28: a file that stores more than a few tables is imported by a background
    job; its page shows the steps and loads itself again until the job is done."""
    shots = Path(os.environ.get("E2E_SCREENSHOTS") or tmp_path / "shots")
    old = played_league(lambda **_: contextlib.nullcontext(), game=Game.BLUKE)
    (tmp_path / "last-season.csv").write_bytes(download(Client(), "league-games-csv", old.pk))
    organiser = UserFactory(username="olga")
    club = club_create(name="Riverside", organiser=organiser)
    league = league_create(club=club, name="Bluke 2025", game=Game.BLUKE, options=BLUKE_OPTIONS)
    monkeypatch.setattr(organise_imports, "INLINE_TABLES", 2)  # "large": more than two tables
    owed: list[tuple[Any, int]] = []
    monkeypatch.setattr(
        outbox, "send", lambda task, *, target_id, **_: owed.append((task, target_id)) or True
    )

    base = live_server.url
    page.goto(f"{base}/accounts/login/?next=/clubs/{club.pk}/import/?league={league.pk}")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_label("File", exact=True).set_input_files(str(tmp_path / "last-season.csv"))
    page.get_by_role("button", name="Check the file").click()
    page.get_by_label("The same file again").set_input_files(str(tmp_path / "last-season.csv"))
    page.get_by_role("button", name="Import").click()

    expect(page.get_by_role("heading", name="Importing into Bluke 2025")).to_be_visible()
    expect(page.locator("[aria-current=step]")).to_have_text("1 Waiting to start")
    expect(
        page.get_by_text("Checking the file again and storing 6 tables (18 hands)")
    ).to_be_visible()
    assert not Hand.objects.filter(table__round__event__league=league).exists()
    assert fits_the_phone(page)
    shoot(page, shots, "import-progress-waiting")

    monkeypatch.undo()  # the job, sent as it would be after the confirmation's commit
    ((task, target_id),) = owed
    task.apply(args=[target_id])
    # the page loads itself again every 2 s: it finds the job done
    expect(page.get_by_role("heading", name="Imported into Bluke 2025")).to_be_visible()
    expect(page.get_by_text("Hands: 18, every one checked by the rules.")).to_be_visible()
    assert fits_the_phone(page)
    shoot(page, shots, "import-progress-done")
    page.get_by_role("link", name="Go to Bluke 2025").click()
    assert page.url == f"{base}/leagues/{league.pk}/"
    assert Hand.objects.filter(table__round__event__league=league).count() == 18
