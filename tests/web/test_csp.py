"""The Content-Security-Policy and the proxy header, as the server sends them.

Every page, API answer and error carries the policy; the policy allows no
inline script and no inline style but the one style attribute of DRF's
browsable API, by its hash; and no page the site renders has an inline
script or style left (the browser's own verdict is in
``tests/e2e/test_csp.py``). ``X-Forwarded-Proto`` is trusted in the
production settings alone.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from league.models import Table
from tests.support.factories import UserFactory
from tests.support.setups import run_demo_data

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
DRF_STYLE = "float: right; margin-right: 10px"
"""The one inline style the policy allows (by its hash): DRF's browsable API's."""


def directives(header: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *values = part.split()
        found[name] = values
    return found


class Inline(HTMLParser):
    """The inline scripts, style elements and style attributes of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.styles = 0
        self.style_attributes: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script" and "src" not in found:
            self.scripts.append(found)
        if tag == "style":
            self.styles += 1
        if "style" in found:
            self.style_attributes.append(found["style"] or "")
        if any(name.startswith("on") for name in found):
            self.scripts.append(found)


def inline_of(html: str) -> Inline:
    parser = Inline()
    parser.feed(html)
    return parser


def test_the_policy_allows_this_site_only_and_no_inline_code() -> None:
    policy = directives(Client().get("/")["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["style-src-attr"][0] == "'unsafe-hashes'"
    assert len(policy["style-src-attr"]) == 2  # the hash of DRF_STYLE, nothing else
    everything = " ".join(" ".join(values) for values in policy.values())
    assert "'unsafe-inline'" not in everything and "'unsafe-eval'" not in everything


@pytest.fixture
def everything() -> dict[str, Client]:
    """Clients of an anonymous visitor, the demo organiser and a superuser, over the demo data."""
    run_demo_data()
    organiser, admin = Client(), Client()
    organiser.force_login(UserFactory._meta.model.objects.get(username="organiser"))
    admin.force_login(UserFactory(is_staff=True, is_superuser=True))
    return {"anonymous": Client(), "organiser": organiser, "admin": admin}


def pages() -> list[str]:
    table = Table.objects.order_by("pk").first()
    assert table is not None
    event, league, club = table.round.event, table.round.event.league, table.round.event.league.club
    return [
        "/",
        f"/leagues/{league.pk}/",
        f"/events/{event.pk}/",
        f"/tables/{table.pk}/",
        "/accounts/login/",
        "/accounts/",
        "/accounts/tokens/",
        f"/clubs/{club.pk}/manage/",
        f"/clubs/{club.pk}/people/",
        f"/events/{event.pk}/tonight/",
        f"/events/{event.pk}/room/",
        f"/tables/{table.pk}/take-off/{table.seat_players[0]}/",
        "/no/such/page/",
        "/api/",
        "/api/clubs/",
        "/api/memberships/",
        f"/api/tables/{table.pk}/",
        "/api/docs/",
        "/admin/",
        f"/admin/league/club/{club.pk}/change/",
        "/admin/auth/user/",
    ]


def test_every_page_carries_the_policy_and_has_no_inline_code(
    everything: dict[str, Client],
) -> None:
    policy = Client().get("/")["Content-Security-Policy"]
    for who, client in everything.items():
        for url in pages():
            response = client.get(url, HTTP_ACCEPT="text/html", follow=True)
            assert response["Content-Security-Policy"] == policy, (who, url)
            if not response["Content-Type"].startswith("text/html"):
                continue
            found = inline_of(response.content.decode())
            # JSON data blocks are never run (DRF's CSRF settings are one).
            code = [s for s in found.scripts if s.get("type") != "application/json"]
            assert not code, (who, url, code)
            assert found.styles == 0, (who, url)
            assert set(found.style_attributes) <= {DRF_STYLE}, (who, url, found.style_attributes)


def test_api_answers_and_errors_carry_the_policy_too() -> None:
    for url in ("/api/clubs/", "/api/clubs/999999/", "/api/nothing/", "/healthz"):
        assert "script-src 'self'" in Client().get(url)["Content-Security-Policy"], url


def test_no_template_has_an_inline_script_or_style() -> None:
    for template in (ROOT / "templates").rglob("*.html"):
        found = inline_of(template.read_text())
        assert not found.scripts, template
        assert found.styles == 0, template
        assert not found.style_attributes, template
    for template in (ROOT / "league").rglob("*.html"):
        source = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", source), template
        assert "style=" not in source and "<style" not in source, template


# -- X-Forwarded-Proto ------------------------------------------------------------------


def test_the_proxy_header_is_not_trusted_outside_production() -> None:
    assert getattr(settings, "SECURE_PROXY_SSL_HEADER", None) is None
    response = Client().get("/", HTTP_X_FORWARDED_PROTO="https")
    assert not response.wsgi_request.is_secure()


def test_the_production_settings_trust_the_proxys_header() -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "k" * 60,
        "ALLOWED_HOSTS": "league.example.org",
    }
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_PROXY_SSL_HEADER, s.CLIENT_IP_HEADER, s.DEMO_DATA_ALLOWED)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split("\n")[-2] == (
        "('HTTP_X_FORWARDED_PROTO', 'https') HTTP_X_FORWARDED_FOR False"
    )
