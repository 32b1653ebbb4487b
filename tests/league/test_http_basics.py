"""The pages, the read API, its schema and docs, errors, login and the health check."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from django.conf import settings as django_settings
from django.contrib.auth.models import AbstractUser
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client
from pytest_django.fixtures import Settings

from league.models import Game, League, Membership
from league.services.accounts import api_token_create
from league.services.results import hand_submit
from league.standings import standings_refresh
from tests.support.api import PROBLEM, assert_problem
from tests.support.factories import (
    PASSWORD,
    ClubFactory,
    EventFactory,
    LeagueFactory,
    PlayerFactory,
    make_table,
)
from tests.support.records import buck_takes_all

pytestmark = pytest.mark.django_db

PAGES = ["/", "/api/", "/api/clubs/", "/api/leagues/", "/api/schema/", "/api/docs/", "/healthz"]


# -- pages answer ----------------------------------------------------------------


@pytest.mark.parametrize("url", PAGES)
def test_pages_answer_on_an_empty_database(client: Client, url: str) -> None:
    assert client.get(url).status_code == 200


def test_pages_answer_with_the_demo_data(client: Client, demo_data: str) -> None:
    for url in PAGES:
        assert client.get(url).status_code == 200, url
    home = client.get("/").content.decode()
    assert "Riverside Card Club" in home
    assert "Thursday Bluke" in home
    assert "Dirty Clubs Cup" in home
    leagues = client.get("/api/leagues/").json()["results"]
    assert {league["game"] for league in leagues} == {"bluke", "buck_euchre"}
    for league in leagues:
        assert client.get(f"/api/leagues/{league['id']}/").status_code == 200
        assert client.get(f"/api/leagues/{league['id']}/standings/").status_code == 200


def test_the_home_page_says_when_there_are_no_clubs(client: Client) -> None:
    assert "No clubs yet" in client.get("/").content.decode()


def test_the_admin_login_page_answers(client: Client) -> None:
    assert client.get("/admin/login/").status_code == 200


def test_an_unknown_page_is_an_html_404(client: Client) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "<h1>Not found</h1>" in page
    assert "/no/such/page" in page


# -- the schema and the docs -----------------------------------------------------


def test_the_schema_is_openapi_3(client: Client) -> None:
    response = client.get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    assert str(schema["openapi"]).startswith("3.")
    assert schema["info"]["title"] == "Card league API"
    assert "/api/leagues/{id}/standings/" in schema["paths"]
    assert "/api/clubs/" in schema["paths"]


def test_the_schema_validates_without_warnings(tmp_path: Path) -> None:
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    assert str(yaml.safe_load(target.read_text())["openapi"]).startswith("3.")


def test_the_docs_page_loads_nothing_from_another_origin(client: Client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page, re.I)
    assert "cdn" not in page.lower()
    assets = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", page)
    assert any(asset.endswith("swagger-ui-bundle.js") for asset in assets), assets
    assert any(asset.endswith("swagger-ui.css") for asset in assets), assets
    static_url = django_settings.STATIC_URL
    # The page's own script comes from the page's URL (no inline script: the CSP).
    script = "/api/docs/?script="
    assert script in assets, assets
    script_answer = client.get(script)
    assert script_answer.status_code == 200
    assert script_answer["Content-Type"].startswith("application/javascript")
    assert "/api/schema/" in script_answer.content.decode()
    for asset in assets:
        if asset == script:
            continue
        assert asset.startswith(static_url), asset
        assert finders.find(asset.removeprefix(static_url)) is not None, asset


# -- the health check ------------------------------------------------------------


def test_healthz_reports_the_database_and_no_broker(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["broker"] == "not configured"
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_healthz_answers_503_when_the_broker_does_not_answer(
    client: Client, settings: Settings
) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["database"] == "ok"
    assert body["broker"].startswith("error")


# -- errors are problem+json -----------------------------------------------------


def test_an_unknown_api_url_is_a_problem_404(client: Client) -> None:
    body = assert_problem(client.get("/api/nothing/"), 404)
    assert body["type"] == "/api/problems/not-found"


@pytest.mark.parametrize("url", ["/api/leagues/999999/", "/api/leagues/999999/standings/"])
def test_an_unknown_league_is_a_problem_404(client: Client, url: str) -> None:
    body = assert_problem(client.get(url), 404)
    assert body["type"] == "/api/problems/not-found"


def test_an_unknown_club_is_a_problem_404(client: Client) -> None:
    assert_problem(client.get("/api/clubs/999999/"), 404)


def test_a_bad_filter_is_a_problem_400_with_the_fields(client: Client) -> None:
    body = assert_problem(client.get("/api/leagues/?game=poker"), 400)
    assert body["type"] == "/api/problems/invalid-input"
    assert "game" in body["errors"]


def test_a_method_a_resource_lacks_is_a_problem_405(client: Client, user: AbstractUser) -> None:
    club = ClubFactory()
    client.force_login(user)
    body = assert_problem(client.delete(f"/api/clubs/{club.pk}/"), 405)
    assert body["type"] == "/api/problems/method-not-allowed"
    assert "DELETE" in body["detail"]


def test_the_title_of_a_405_has_no_template_placeholder(client: Client, user: AbstractUser) -> None:
    club = ClubFactory()
    client.force_login(user)
    body = assert_problem(client.delete(f"/api/clubs/{club.pk}/"), 405)
    assert "{" not in body["title"], body["title"]


def test_an_anonymous_post_is_a_problem_401_or_403(client: Client) -> None:
    response = client.post("/api/clubs/", {"name": "New"})
    assert response.status_code in (401, 403)
    assert_problem(response, response.status_code)


def test_an_api_error_asked_for_as_html_is_still_problem_json(client: Client) -> None:
    """A browser's Accept header must not turn the problem body into an HTML page."""
    response = client.get("/api/leagues/999999/", HTTP_ACCEPT="text/html")
    assert response.status_code == 404
    if response["Content-Type"] == PROBLEM:
        body = json.loads(response.content)
        assert body["status"] == 404
    else:
        assert response["Content-Type"].startswith("text/html")


# -- authentication -------------------------------------------------------------


def test_a_token_authenticates_a_request(client: Client, user: AbstractUser) -> None:
    key = api_token_create(user=user, name="script").key
    response = client.post("/api/clubs/", {"name": "New"}, HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 201  # any signed-in user may found a club
    assert Membership.objects.get(club_id=response.json()["id"]).user == user


def test_a_wrong_token_is_refused(client: Client, user: AbstractUser) -> None:
    api_token_create(user=user, name="script")
    response = client.post("/api/clubs/", {"name": "New"}, HTTP_AUTHORIZATION="Token wrong")
    assert response.status_code in (401, 403)
    assert_problem(response, response.status_code)


def test_a_session_login_authenticates_pages_and_the_api(user: AbstractUser) -> None:
    client = Client(enforce_csrf_checks=True)
    login_page = client.get("/accounts/login/")
    assert login_page.status_code == 200
    response = client.post(
        "/accounts/login/",
        {
            "username": user.username,
            "password": PASSWORD,
            "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert f"Log out {user.username}" in client.get("/").content.decode()
    api = client.post(
        "/api/clubs/", {"name": "New"}, HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value
    )
    assert api.status_code == 201


def test_a_wrong_password_does_not_log_in(client: Client, user: AbstractUser) -> None:
    response = client.post("/accounts/login/", {"username": user.username, "password": "nope"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "Log in" in client.get("/").content.decode()


# -- standings ---------------------------------------------------------------------


def test_the_standings_list_the_best_first(client: Client) -> None:
    league = LeagueFactory(game=Game.BUCK_EUCHRE)
    # the two players without wins tie on average place: the name decides
    names = ["Mia", "Ola", "Zed", "Yan"]
    players = [PlayerFactory(club=league.club, name=name) for name in names]
    event = EventFactory(league=league, rounds=3)
    for round_, winner in zip(event.rounds.order_by("number"), (0, 0, 1), strict=True):
        table = make_table(round=round_, players=players)
        hand_submit(table=table, record=buck_takes_all(winner))
    standings_refresh(league=league)

    response = client.get(f"/api/leagues/{league.pk}/standings/")

    assert response.status_code == 200
    rows = response.json()["results"]
    assert [row["player_name"] for row in rows] == ["Mia", "Ola", "Yan", "Zed"]
    assert [(row["games"], row["wins"]) for row in rows] == [(3, 2), (3, 1), (3, 0), (3, 0)]
    assert [row["average_place"] for row in rows] == pytest.approx([4 / 3, 5 / 3, 2.0, 2.0])
    assert rows[0]["total_points"] == 20 + 20 + 30
    assert {row["player"] for row in rows} == {p.pk for p in players}


def test_the_leagues_filter_by_game(client: Client) -> None:
    bluke = LeagueFactory(game=Game.BLUKE)
    LeagueFactory(game=Game.BUCK_EUCHRE, club=bluke.club)
    rows = client.get("/api/leagues/", {"game": "bluke"}).json()["results"]
    assert [row["id"] for row in rows] == [bluke.pk]
    assert League.objects.count() == 2
