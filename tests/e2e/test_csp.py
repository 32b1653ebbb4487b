"""The pages under their Content-Security-Policy in a real Chromium: every
page, the browsable API (its filters too), the API docs (Swagger UI draws
itself) and the admin run with nothing refused. The ``page`` fixture fails
a test whose pages logged a refusal; here the browser also reports, page by
page, every ``securitypolicyviolation`` event it fired.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from league.management.commands.demo_data import DEMO_PASSWORD
from league.models import Table
from tests.support.setups import run_demo_data

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__refused = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__refused.push(`${event.violatedDirective} ${event.blockedURI} line ${event.lineNumber}`);
});
"""


def visit(page: Any, url: str) -> list[str]:
    """Open ``url`` and wait for it to settle; the refusals it reported."""
    response = page.goto(url, wait_until="networkidle")
    assert response is not None and response.status < 500, url
    assert "script-src 'self'" in (response.headers.get("content-security-policy") or ""), url
    return list(page.evaluate("window.__refused"))


def log_in(page: Any, base: str, username: str, password: str, path: str) -> None:
    page.goto(f"{base}{path}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state("networkidle")


def test_the_pages_run_under_their_policy(live_server: Any, page: Any) -> None:
    run_demo_data()
    get_user_model().objects.create_superuser("root", "root@example.org", "root-password-1")
    table = Table.objects.order_by("pk").first()
    assert table is not None
    event, league = table.round.event, table.round.event.league
    club = league.club
    page.add_init_script(WATCH)
    base = live_server.url
    refused: dict[str, list[str]] = {}

    anonymous = [
        "/",
        f"/leagues/{league.pk}/",
        f"/leagues/{league.pk}/files/",
        f"/tables/{table.pk}/",
        "/api/",
        "/api/clubs/",
    ]
    for url in anonymous:
        refused[url] = visit(page, base + url)

    # The API docs: Swagger UI draws the operations from the schema.
    refused["/api/docs/"] = visit(page, f"{base}/api/docs/")
    page.locator(".opblock-summary").first.click()
    page.locator(".opblock-body").first.wait_for(state="visible")
    refused["/api/docs/ (an operation open)"] = list(page.evaluate("window.__refused"))

    # The browsable API's filters, in their dialog.
    refused["/api/tables/"] = visit(page, f"{base}/api/tables/")
    page.get_by_role("button", name=re.compile("Filters")).click()
    page.locator("#filtersModal input[name=player][type=number]").wait_for(state="visible")

    log_in(page, base, "organiser", DEMO_PASSWORD, "/accounts/login/")
    organiser = [
        "/accounts/",
        "/accounts/tokens/",
        f"/clubs/{club.pk}/manage/",
        f"/clubs/{club.pk}/people/",
        f"/clubs/{club.pk}/players/",
        f"/events/{event.pk}/",
        f"/events/{event.pk}/tonight/",
        f"/events/{event.pk}/room/",
        f"/tables/{table.pk}/",
        "/api/memberships/",
    ]
    for url in organiser:
        refused[url] = visit(page, base + url)
    page.context.clear_cookies()

    log_in(page, base, "root", "root-password-1", "/admin/login/")
    for url in ["/admin/", f"/admin/league/club/{club.pk}/change/", "/admin/auth/user/"]:
        refused[url] = visit(page, base + url)

    assert not {url: found for url, found in refused.items() if found}


def test_the_lockout_page_runs_under_its_policy(live_server: Any, page: Any) -> None:
    user = get_user_model().objects.create_user("locked", password="the-right-one-1")
    page.add_init_script(WATCH)
    for attempt in range(6):
        log_in(page, live_server.url, user.username, f"wrong {attempt}", "/accounts/login/")
    assert page.get_by_role("heading", name="Too many wrong passwords").is_visible()
    assert page.get_by_role("link", name="set a new one").is_visible()
    assert page.evaluate("window.__refused") == []
