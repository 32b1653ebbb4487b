"""The reading pages in Ukrainian and Czech (issue 33): the clubs, a league,
its standings and game nights, an event, the files page, the search box, the
404, 503 and 403 pages and the calendar feed speak the language the browser
asks for (Accept-Language), count in the language's plural forms and write
figures and dates its way (Czech 2,50 and 3. 12. 2026); a request that asks
for no language still gets the English pages, word for word."""

# Ukrainian is written in Cyrillic: its letters are meant, not Latin look-alikes
# ruff: noqa: RUF001

from __future__ import annotations

import datetime
import html as html_module
import re
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from icalendar import Calendar

from league import standings
from league.rating_words import rating_words
from league.services.finals import final_create
from league.services.fixtures import event_create
from tests.support.seasons import season_league
from tests.support.setups import ClubSetup, club_setup
from tests.web.test_words import played

pytestmark = pytest.mark.django_db


def words_of(response: Any) -> str:
    """What a reader sees of an answer: its text, tags out, spaces made single."""
    body = response.content.decode()
    text = html_module.unescape(re.sub(r"<[^>]+>", " ", body))
    return " ".join(text.split())


def read(client: Client, url: str, language: str | None, status: int = 200) -> str:
    """The page at ``url`` asked for in ``language`` (none: English), as words."""
    headers = {"accept-language": language} if language else {}
    response = client.get(url, headers=headers)
    assert response.status_code == status, (url, language, response.status_code)
    return words_of(response)


@pytest.fixture
def league_played(django_capture_on_commit_callbacks: Any) -> ClubSetup:
    """A Bluke league whose four players have played three games (standings computed)."""
    setup = club_setup(options={"max_cards": 2})
    played(setup, 3, django_capture_on_commit_callbacks)
    return setup


# -- the clubs, a league ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "phrases"),
    [
        ("uk", ["Клуби", "Ігрові вечори у вашому календарі", "Карткова ліга"]),
        ("cs", ["Kluby", "Herní večery ve vašem kalendáři", "Karetní liga"]),
        (None, ["Clubs", "Game nights in your calendar", "(subscribe to this link"]),
    ],
)
def test_the_clubs_page_speaks_the_language_asked_for(
    client: Client, league_played: ClubSetup, language: str | None, phrases: list[str]
) -> None:
    words = read(client, reverse("home"), language)
    for phrase in phrases:
        assert phrase in words
    assert league_played.club.name in words  # names are never translated


@pytest.mark.parametrize(
    ("language", "phrases"),
    [
        (
            "uk",
            [
                "Турнірна таблиця",
                "Середнє місце",
                "Рейтинги",
                "Завантаження",
                "Таблицю обчислено",
                "Прокрутіть таблицю вбік",
                "за перемогами",
            ],
        ),
        (
            "cs",
            [
                "Pořadí",
                "Průměrné umístění",
                "Hodnocení",
                "Ke stažení",
                "Pořadí spočítáno",
                "podle výher",
                "Bluke",  # the game's name stays Latin
            ],
        ),
    ],
)
def test_the_league_page_in_ukrainian_and_czech(
    client: Client, league_played: ClubSetup, language: str, phrases: list[str]
) -> None:
    words = read(client, reverse("league", args=[league_played.league.pk]), language)
    for phrase in phrases:
        assert phrase in words, phrase
    assert "Standings computed" not in words and "Average place" not in words


def test_the_standings_figures_have_a_decimal_comma_in_czech_and_a_point_in_english(
    client: Client, league_played: ClubSetup
) -> None:
    url = reverse("league", args=[league_played.league.pk])
    # the average place, with two decimals, of each player in the standings
    czech = re.findall(
        r"<td>(\d+[.,]\d\d)</td>",
        client.get(url, headers={"accept-language": "cs"}).content.decode(),
    )
    english = re.findall(r"<td>(\d+[.,]\d\d)</td>", client.get(url).content.decode())
    assert czech and all("," in figure for figure in czech)
    assert english and all("." in figure for figure in english)
    assert [figure.replace(",", ".") for figure in czech] == english


def test_the_standings_date_follows_the_language(client: Client, league_played: ClubSetup) -> None:
    url = reverse("league", args=[league_played.league.pk])
    czech = client.get(url, headers={"accept-language": "cs"}).content.decode()
    english = client.get(url).content.decode()
    # "3. 12. 2026, 19:45 UTC" in Czech, "3 Dec 2026, 19:45 UTC" in English
    assert re.search(
        r"Pořadí spočítáno <time datetime=\"[^\"]+\">\d{1,2}\. \d{1,2}\. \d{4}, \d\d:\d\d", czech
    )
    assert re.search(
        r"Standings computed <time datetime=\"[^\"]+\">\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d",
        english,
    )


@pytest.mark.parametrize(
    ("language", "phrases"),
    [
        (
            "cs",
            [
                "Body sezóny",
                "Započtené večery",
                "Zatím bez kvalifikace: méně než 3 hry",
                "nejlepší kvalifikovaní hráči sezóny u 1 stolu",
                "Ještě se nehrálo: stoly jsou rozlosované.",
                "Pořadí sezóny",
            ],
        ),
        (
            "uk",
            [
                "Очки сезону",
                "Зараховані вечори",
                "Ще не пройшли кваліфікацію: менше ніж 3 гри",
                "що пройшли кваліфікацію, за 1 столом",
                "Турнірна таблиця сезону",
            ],
        ),
        (
            None,
            [
                "Season points",
                "Nights counted",
                "Not yet qualified: fewer than 3 games",
                "the season's best qualified players at 1 table, the best at table 1.",
                "Season standings",
            ],
        ),
    ],
)
def test_a_seasons_columns_qualification_and_final_in_the_language_asked_for(
    client: Client, language: str | None, phrases: list[str]
) -> None:
    built = season_league()
    standings.standings_refresh(league=built.league)
    final_create(league=built.league, players=3, seed=1)
    words = read(client, reverse("league", args=[built.league.pk]), language)
    for phrase in phrases:
        assert phrase in words, phrase


# -- the full lists, the search -------------------------------------------------------------


def test_the_full_standings_count_their_matches_in_the_languages_plural_forms(
    client: Client, league_played: ClubSetup
) -> None:
    url = reverse("league-all-standings", args=[league_played.league.pk])
    everyone = f"{url}?q=%20"  # a search of spaces finds everyone: no search at all
    assert "Najít hráče podle jména" in read(client, everyone, "cs")
    name = league_played.players[0].name
    one = f"{url}?q={name}"
    assert "1 hráč v pořadí odpovídá" in read(client, one, "cs")
    assert "1 гравець у турнірній таблиці відповідає" in read(client, one, "uk")
    assert f"1 player in the standings match “{name}”." in read(client, one, None)
    nobody = f"{url}?q=nobody-at-all"
    assert "0 hráčů v pořadí odpovídá" in read(client, nobody, "cs")
    assert "0 гравців у турнірній таблиці відповідають" in read(client, nobody, "uk")


def test_a_refused_search_says_why_in_the_language_asked_for(
    client: Client, league_played: ClubSetup
) -> None:
    url = reverse("league-all-standings", args=[league_played.league.pk]) + "?q=Co%00ra"
    assert "nulový znak (%00)" in read(client, url, "cs", status=400)
    assert "нульовий символ (%00)" in read(client, url, "uk", status=400)
    assert "A search cannot hold a null character (%00)" in read(client, url, None, status=400)


def test_the_game_nights_list_in_czech_and_ukrainian(
    client: Client, league_played: ClubSetup
) -> None:
    night = league_played.event
    url = reverse("league-game-nights", args=[league_played.league.pk])
    czech = read(client, url, "cs")
    assert "Herní večery" in czech and "Nejnovější první" in czech
    assert f"{night.date.day}. {night.date.month}. {night.date.year}" in czech
    assert re.search(r"dohráno \d+ z \d+ (hry|her)", czech)
    ukrainian = read(client, url, "uk")
    assert "Ігрові вечори" in ukrainian and "Спершу найновіші" in ukrainian
    assert night.date.strftime("%d.%m.%Y") in ukrainian
    english = read(client, url, None)
    assert "The latest first" in english and night.date.strftime("%b") in english


# -- an event, its files ----------------------------------------------------------------------


def test_the_event_page_in_czech_and_ukrainian(client: Client, league_played: ClubSetup) -> None:
    night = league_played.event
    url = reverse("event", args=[night.pk])
    czech = read(client, url, "cs")
    assert "Kolo 1" in czech and "Pořadí večera" in czech
    assert "dohráno po 3 rozdáních" in czech  # a Bluke game of 2, 1 and 2 cards: 3 hands
    assert "Místo" in czech and "Součet" in czech and "List skóre" in czech
    assert f"{night.date.day}. " in czech and str(night.date.year) in czech
    ukrainian = read(client, url, "uk")
    assert "Тур 1" in ukrainian and "завершено після 3 роздач" in ukrainian
    english = read(client, url, None)
    assert "Round 1, table 1: complete after 3 hands." in english
    assert night.date.strftime("%A") in english


def test_the_files_page_in_czech_and_ukrainian(client: Client, league_played: ClubSetup) -> None:
    url = reverse("league-files", args=[league_played.league.pk])
    czech = read(client, url, "cs")
    assert "Soubory všech her" in czech and "Připravit soubor" in czech
    assert "Každé rozdání každé hry (CSV)" in czech  # the files' names too
    ukrainian = read(client, url, "uk")
    assert "Файли всіх ігор" in ukrainian and "Підготувати файл" in ukrainian
    english = read(client, url, None)
    assert "Files of every game" in english and "Every hand of every game (CSV)" in english


# -- refusals, errors ---------------------------------------------------------------------


def test_the_404_page_in_czech_and_ukrainian(client: Client) -> None:
    assert "Nenalezeno" in read(client, "/no/such/page/", "cs", status=404)
    assert "Не знайдено" in read(client, "/no/such/page/", "uk", status=404)
    english = read(client, "/no/such/page/", None, status=404)
    assert "There is no page at /no/such/page/" in english and "Back to the clubs" in english


def test_the_403_page_names_the_role_in_czech_and_ukrainian(
    client: Client, league_played: ClubSetup
) -> None:
    client.force_login(league_played.scorekeeper)  # a member, not an organiser
    url = reverse("league-edit", kwargs={"league_id": league_played.league.pk})
    czech = read(client, url, "cs", status=403)
    assert "Tohle smí jen organizátoři" in czech and "roli organizátora" in czech
    ukrainian = read(client, url, "uk", status=403)
    assert "Це можуть робити лише організатори" in ukrainian
    assert "Only organisers can do this" in read(client, url, None, status=403)


@pytest.mark.parametrize(
    ("language", "seconds", "phrase"),
    [
        ("cs", 3, "Počkejte 3 sekundy"),
        ("cs", 5, "Počkejte 5 sekund"),
        ("uk", 1, "Зачекайте 1 секунду"),
        ("uk", 22, "Зачекайте 22 секунди"),
        ("en-gb", 1, "Wait 1 second and try again"),
        ("en-gb", 5, "Wait 5 seconds and try again"),
    ],
)
def test_the_busy_page_counts_the_seconds_in_the_language(
    language: str, seconds: int, phrase: str
) -> None:
    with translation.override(language):
        page = render_to_string("503.html", {"problem": {"retry_after": seconds}})
    assert phrase in page


# -- the calendar, a rating in words --------------------------------------------------------


def test_the_calendar_feed_describes_a_night_in_the_language_asked_for(
    client: Client, league_played: ClubSetup
) -> None:
    event_create(
        league=league_played.league,
        name="Next week",
        date=timezone.localdate() + datetime.timedelta(days=7),
        rounds=2,
    )
    url = reverse("league-calendar", args=[league_played.league.pk])

    def described(language: str | None) -> tuple[str, str]:
        headers = {"accept-language": language} if language else {}
        calendar = Calendar.from_ical(client.get(url, headers=headers).content)
        night = next(e for e in calendar.walk("VEVENT") if "Next week" in str(e["summary"]))
        return str(calendar["x-wr-calname"]), str(night["description"])

    title, czech = described("cs")
    assert "Bluke, 2 kola. Stoly a výsledky:" in czech
    assert league_played.league.name in title  # the feed's title is names alone: untranslated
    assert "Bluke, 2 тури. Столи й результати:" in described("uk")[1]
    assert "Bluke, 2 rounds. Tables and results:" in described(None)[1]


@pytest.mark.parametrize(
    ("language", "games", "words"),
    [
        ("uk", 1, "близько 12,4, ± 5,6 — ще встановлюється після 1 гри"),
        ("uk", 4, "близько 12,4, ± 5,6 — ще встановлюється після 4 ігор"),
        ("cs", 1, "asi 12,4, ± 5,6 — ještě se ustaluje po 1 hře"),
        ("cs", 12, "asi 12,4, ± 5,6 — ještě se ustaluje po 12 hrách"),
    ],
)
def test_a_rating_in_words_in_ukrainian_and_czech(language: str, games: int, words: str) -> None:
    with translation.override(language):
        assert rating_words(ordinal=12.4, sigma=5.6, games=games, settling=True) == words


@pytest.mark.parametrize(
    ("language", "title"),
    [("cs", "API karetní ligy"), ("uk", "API карткової ліги"), (None, "Card league API")],
)
def test_the_api_documentation_is_titled_in_the_language_its_contents_stay_english(
    client: Client, language: str | None, title: str
) -> None:
    headers = {"accept-language": language} if language else {}
    page = client.get("/api/docs/", headers=headers).content.decode()
    assert f"<title>{title}</title>" in page
