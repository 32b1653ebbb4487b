# ruff: noqa: RUF001 - Ukrainian phrases: their Cyrillic letters are meant
"""A rating that explains itself on the player's page and in the API (issue 32,
item 2): one chart per distinct scope with a legend, the latest games each with
why the rating moved, the text and the chart at the same one decimal, and
``GET /api/players/{id}/rating-games/``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

from league.models import Game, Rating, RatingHistory
from league.rating_explain import one_decimal
from league.rating_model import MODELS
from league.services.clubs import club_update
from tests.support.api import assert_problem, client_for
from tests.support.factories import EventFactory, LeagueFactory, make_table
from tests.support.setups import ClubSetup, club_setup
from tests.support.tree import page
from tests.web.test_words import played, visible_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def bluke(django_capture_on_commit_callbacks: Any) -> ClubSetup:
    """A Bluke league whose four players have played three games."""
    setup = club_setup(options={"max_cards": 2})
    played(setup, 3, django_capture_on_commit_callbacks)
    return setup


def text_of(html: str) -> str:
    return " ".join(visible_text(html).split())


def test_one_league_of_a_game_draws_one_chart_that_serves_the_club_wide_rating(
    client: Client, bluke: ClubSetup
) -> None:
    player = bluke.players[0]
    html, tree = page(client, reverse("player", args=[player.pk]))
    assert Rating.objects.filter(player=player).count() == 2  # the league's and the club's
    (svg,) = list(tree.iter("svg"))
    legend = next(e for e in svg.iter("g") if e.attrs.get("class") == "chart-legend")
    assert "Rating on the board" in legend.text() and "± uncertainty" in legend.text()
    text = text_of(html)
    assert "This chart serves the club-wide rating too" in text
    assert f"The same games and the same figures as {bluke.league.name}" in text


def test_two_leagues_of_a_game_draw_three_charts(
    client: Client, bluke: ClubSetup, django_capture_on_commit_callbacks: Any
) -> None:
    other = LeagueFactory(club=bluke.club, game=Game.BLUKE, options={"max_cards": 2})
    night = EventFactory(league=other, rounds=1)
    table = make_table(round=night.rounds.get(), players=bluke.players[:4], number=1)
    from league.services.results import game_submit
    from tests.support.records import bluke_results

    with django_capture_on_commit_callbacks(execute=True):
        game_submit(table=table, record={"hands": [bluke_results(c) for c in (2, 1, 2)]})
    html, tree = page(client, reverse("player", args=[bluke.players[0].pk]))
    svgs = list(tree.iter("svg"))
    assert len(svgs) == 3  # each league's, and the club-wide one that counts both
    for svg in svgs:
        assert any(e.attrs.get("class") == "chart-legend" for e in svg.iter("g"))
    assert "serves the club-wide rating too" not in html
    # the club-wide rating counts Bluke totals against the club's mean, all leagues together
    assert "the club's average at tables of 4" in text_of(html)
    assert "the league's average at tables of 4" in text_of(html)


def test_the_latest_games_say_why_the_rating_moved_and_round_as_the_chart(
    client: Client, bluke: ClubSetup
) -> None:
    player = bluke.players[1]  # never wins here
    html, tree = page(client, reverse("player", args=[player.pk]))
    text = text_of(html)
    scope = bluke.league.rating_scope
    history = list(RatingHistory.objects.filter(scope=scope, player=player).order_by("order_key"))
    for row in history:
        row.scope = scope
    shown = [f"{one_decimal(row.ordinal):.1f}" for row in history]
    # the words, the chart's last point and the latest game's "after" are one figure
    assert f"Rating: about {shown[-1]}, ± " in text
    assert f"{shown[-1]} after 3 games" in next(tree.iter("desc")).text()
    table = next(t for t in tree.iter("table") if "rating-games" in t.attrs.get("class", ""))
    rows = [" ".join(r.text().split()) for r in table.iter("tr")][1:]
    assert len(rows) == 3
    # the latest first: before is the previous game's after
    assert rows[0].split()[1:3] == [shown[1], shown[2]]
    new = MODELS["bluke"].board_value(MODELS["bluke"].new())  # the first game's before
    assert rows[2].split()[1:3] == [f"{one_decimal(new):.1f}", shown[0]]
    # the first game counted against its table, the later ones against the league's average
    assert "the table's average" in rows[2]
    assert "the league's average at tables of 4" in rows[0]
    assert re.search(r"Scored [0-9.]+ below the league's average at tables of 4; expected", rows[0])
    assert "until it settles" in rows[0]  # three games: still settling, and why it is held down
    # a game below expectations, and yet a rise: one more game made the rating surer
    assert re.search(
        r"Skill estimate -[0-9.]+; held down by [0-9.]+ until it settles, [0-9.]+ less", rows[0]
    )
    link = reverse("player-rating-games", kwargs={"pk": player.pk})
    assert f'href="{link}?scope={bluke.league.pk}"' in html


# -- the API -------------------------------------------------------------------------------------


def test_the_api_lists_each_game_with_its_explanation(bluke: ClubSetup) -> None:
    player = bluke.players[0]
    client = client_for()
    url = f"/api/players/{player.pk}/rating-games/"
    body = client.get(url, {"scope": bluke.league.pk}).json()
    games = body["results"]
    assert len(games) == 3
    latest = games[0]
    assert set(latest) >= {
        "event",
        "date",
        "table",
        "before",
        "after",
        "expected",
        "actual",
        "change",
        "words",
    }
    assert latest["change"] == pytest.approx(latest["after"] - latest["before"], abs=0.051)
    assert games[1]["after"] == latest["before"]  # newest first, each from the one before
    assert games[-1]["against"] == "table" and latest["against"] == "league"
    assert latest["words"].startswith("Scored ")
    assert latest["held_down"] > 0 and isinstance(latest["estimate_change"], float)
    # the club-wide rating of the game: the same games here
    club_wide = client.get(url, {"scope": "bluke"}).json()["results"]
    assert [g["after"] for g in club_wide] == [g["after"] for g in games]
    # no Buck Euchre games: an empty list
    assert client.get(url, {"scope": "buck_euchre"}).json()["results"] == []


def test_the_api_pages_by_cursor(bluke: ClubSetup) -> None:
    player = bluke.players[0]
    client = client_for()
    url = f"/api/players/{player.pk}/rating-games/"
    every = client.get(url, {"scope": bluke.league.pk}).json()["results"]
    first = client.get(url, {"scope": bluke.league.pk, "page_size": 2}).json()
    assert [g["table"] for g in first["results"]] == [g["table"] for g in every[:2]]
    second = client.get(first["next"]).json()
    assert [g["table"] for g in second["results"]] == [every[2]["table"]]
    assert second["results"][0] == every[2]  # its "before" read across the page's edge
    assert_problem(client.get(url, {"scope": bluke.league.pk, "cursor": "cD1hYmM="}), 400)


def test_the_api_refuses_a_bad_scope_and_hides_a_members_only_clubs_player(
    bluke: ClubSetup,
) -> None:
    player = bluke.players[0]
    url = f"/api/players/{player.pk}/rating-games/"
    client = client_for()
    for scope in ("", "chess", "-3", "12abc"):
        body = assert_problem(client.get(url, {"scope": scope}), 400)
        assert "scope" in str(body)
    assert_problem(client.get(url), 400)
    club_update(club=bluke.club, visibility="members")
    assert_problem(client.get(url, {"scope": bluke.league.pk}), 404)
    assert client_for(bluke.organiser).get(url, {"scope": bluke.league.pk}).status_code == 200


def test_the_api_schema_documents_the_endpoint(client: Client) -> None:
    schema = client.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/players/{id}/rating-games/"]["get"]
    assert any(p["name"] == "scope" and p["required"] for p in operation["parameters"])
    assert any(p["name"] == "cursor" for p in operation["parameters"])


# -- in Ukrainian and Czech ----------------------------------------------------------------------


def test_the_player_page_in_ukrainian_and_czech(client: Client, bluke: ClubSetup) -> None:
    player = bluke.players[1]
    url = reverse("player", args=[player.pk])
    english = text_of(client.get(url).content.decode())
    uk = text_of(client.get(url, HTTP_ACCEPT_LANGUAGE="uk").content.decode())
    cs = text_of(client.get(url, HTTP_ACCEPT_LANGUAGE="cs").content.decode())
    scope = bluke.league.rating_scope
    rating = Rating.objects.get(scope=scope, player=player)
    shown = f"{one_decimal(rating.ordinal):.1f}"
    assert f"Rating: about {shown}, ± " in english
    # the same figure with the locale's decimal comma, the words in the language
    assert f"Рейтинг: близько {shown.replace('.', ',')}, ± " in uk
    assert "ще встановлюється після 3 ігор" in uk
    assert f"Hodnocení: asi {shown.replace('.', ',')}, ± " in cs
    assert "ještě se ustaluje po 3 hrách" in cs
    # why it moved, in words, and the chart's legend
    assert "вище середнього ліги за столами з 4 гравцями" in uk or (
        "нижче середнього ліги за столами з 4 гравцями" in uk
    )
    assert "průměrem ligy u stolů pro 4 hráče" in cs
    assert "доки рейтинг не встановиться" in uk and "dokud se hodnocení neustálí" in cs
    assert "Рейтинг у таблиці" in uk and "± nejistota" in cs
    assert "Цей графік стосується й рейтингу на весь клуб" in uk
    assert "Останні ігри" in uk and "Poslední hry" in cs
    # dates in the locale's short format: Czech day. month. year, English day/month/year
    night = bluke.event.date
    with translation.override("cs"):
        czech_date = formats.date_format(night, "SHORT_DATE_FORMAT")
    assert czech_date.startswith(f"{night.day}") or czech_date.startswith(f"{night:%d}")
    assert czech_date in cs and f"{night:%d/%m/%Y}" in english
    assert "Bluke" in uk and "Bluke" in cs  # the game's name stays Latin
    assert player.name in uk and player.name in cs


def test_the_leaderboard_and_how_ratings_work_in_czech_and_ukrainian(
    client: Client, bluke: ClubSetup
) -> None:
    league_url = reverse("league", args=[bluke.league.pk])
    cs = text_of(client.get(league_url, HTTP_ACCEPT_LANGUAGE="cs").content.decode())
    assert "Žebříček hodnocení" in cs and "ještě se ustaluje po 3 hrách" in cs
    assert re.search(r"asi -?\d+,\d, ± \d+,\d", cs)  # a decimal comma
    explained = reverse("ratings-explained")
    uk = text_of(client.get(explained, HTTP_ACCEPT_LANGUAGE="uk").content.decode())
    assert "Як працюють рейтинги" in uk and "Чому змінився мій рейтинг?" in uk
    assert "близько 12,4, ± 13,6 — ще встановлюється після 4 ігор" in uk
    cs = text_of(client.get(explained, HTTP_ACCEPT_LANGUAGE="cs").content.decode())
    assert "Proč se moje hodnocení změnilo?" in cs and "10,2 v Bluke" in cs
    english = text_of(client.get(explained).content.decode())
    assert "Why did my rating change?" in english and "10.2 in Bluke" in english


def test_the_api_words_stay_english_whatever_the_language(bluke: ClubSetup) -> None:
    url = f"/api/players/{bluke.players[0].pk}/rating-games/"
    games = client_for().get(url, {"scope": bluke.league.pk}, HTTP_ACCEPT_LANGUAGE="cs").json()
    assert games["results"][0]["words"].startswith("Scored ")
    assert isinstance(games["results"][0]["after"], float)
