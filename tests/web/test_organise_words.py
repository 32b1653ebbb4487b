"""The organiser's pages in Ukrainian and Czech (issue 33): each page, asked for
in ``uk`` or ``cs`` (Accept-Language), shows its own words in that language,
counts with the language's plural forms and writes numbers as it writes them
(Czech 1,5 and 20 000); asked for in nothing (or English), it reads as before.
"""

# Ukrainian words are Cyrillic by design: not letters mistaken for Latin ones.
# ruff: noqa: RUF001

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from league.models import League
from tests.support.markup import text
from tests.support.setups import ClubSetup, club_setup
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db

SEASON = {
    "points_by_place": {
        "3": [3, 1.5, 0],
        "4": [4, 2, 1, 0],
        "5": [5, 3, 2, 1, 0],
        "6": [6, 4, 3, 2, 1, 0],
    },
    "best_nights": 8,
    "min_games": 6,
}
"""A season format with a half point, so that the Czech page writes 1,5."""


@dataclass(frozen=True)
class Page:
    """A page, who opens it, and a phrase it shows in each language."""

    url: Callable[[ClubSetup], str]
    en: str
    uk: str
    cs: str
    who: str = "organiser"
    """``organiser``, or ``nobody`` for the pages of the logged out."""


PAGES: dict[str, Page] = {
    "manage": Page(
        lambda s: reverse("club-manage", kwargs={"club_id": s.club.pk}),
        en="Coming game nights",
        uk="Найближчі ігрові вечори",
        cs="Nadcházející herní večery",
    ),
    "club": Page(
        lambda s: reverse("club-create"),
        en="Start the club",
        uk="Створити клуб",
        cs="Založit klub",
    ),
    "new league": Page(
        lambda s: reverse("league-create", kwargs={"club_id": s.club.pk}),
        en="Drawing the tables",
        uk="Розсадка за столи",
        cs="Losování stolů",
    ),
    "league": Page(
        lambda s: reverse("league-edit", kwargs={"league_id": s.league.pk}),
        en="Change the season format",
        uk="Змінити формат сезону",
        cs="Změnit formát sezóny",
    ),
    "season": Page(
        lambda s: reverse("league-season", kwargs={"league_id": s.league.pk}),
        en="Save the season format",
        uk="Зберегти формат сезону",
        cs="Uložit formát sezóny",
    ),
    "event": Page(
        lambda s: reverse("event-edit", kwargs={"event_id": s.event.pk}),
        en="Save the game night",
        uk="Зберегти вечір",
        cs="Uložit večer",
    ),
    "new event": Page(
        lambda s: reverse("event-create", kwargs={"league_id": s.league.pk}),
        en="Number of rounds",
        uk="Кількість турів",
        cs="Počet kol",
    ),
    "players": Page(
        lambda s: reverse("club-players", kwargs={"club_id": s.club.pk}),
        en="Add several players",
        uk="Додати кількох гравців",
        cs="Přidat více hráčů",
    ),
    "player": Page(
        lambda s: reverse("player-edit", kwargs={"player_id": s.players[0].pk}),
        en="Entered twice, or by mistake?",
        uk="Внесено двічі чи помилково?",
        cs="Zapsán dvakrát nebo omylem?",
    ),
    "merge": Page(
        lambda s: reverse("player-merge", kwargs={"player_id": s.players[0].pk}),
        en="See what moves",
        uk="Що буде перенесено",
        cs="Co se přesune",
    ),
    "delete": Page(
        lambda s: reverse("event-delete", kwargs={"event_id": s.event.pk}),
        en="It cannot be undone.",
        uk="Це не можна скасувати.",
        cs="Nejde to vrátit.",
    ),
    "final": Page(
        lambda s: reverse("league-final", kwargs={"league_id": s.league.pk}),
        en="Preview the final",
        uk="Переглянути фінал",
        cs="Náhled finále",
    ),
    "imports": Page(
        lambda s: reverse("club-import", kwargs={"club_id": s.club.pk}),
        en="What the files hold",
        uk="Що містять файли",
        cs="Co soubory obsahují",
    ),
    "webhooks": Page(
        lambda s: reverse("club-webhooks", kwargs={"club_id": s.club.pk}),
        en="Add an endpoint",
        uk="Додати адресу",
        cs="Přidat adresu",
    ),
    "privacy": Page(
        lambda s: reverse("club-privacy", kwargs={"club_id": s.club.pk}),
        en="Who sees ",
        uk="Хто бачить результати клубу",
        cs="Kdo vidí výsledky klubu",
    ),
    "links": Page(
        lambda s: reverse("club-personal-links", kwargs={"club_id": s.club.pk}),
        en="Print cards",
        uk="Друкувати картки",
        cs="Tisknout kartičky",
    ),
    "player link": Page(
        lambda s: reverse("player-personal-link", kwargs={"player_id": s.players[0].pk}),
        en="Mail a new link",
        uk="Надіслати нове посилання",
        cs="Poslat nový odkaz",
    ),
    "account": Page(
        lambda s: reverse("account"),
        en="Your clubs",
        uk="Ваші клуби",
        cs="Vaše kluby",
    ),
    "people": Page(
        lambda s: reverse("club-people", kwargs={"club_id": s.club.pk}),
        en="Invite someone",
        uk="Запросити когось",
        cs="Pozvat někoho",
    ),
    "tokens": Page(
        lambda s: reverse("api-tokens"),
        en="Make a token",
        uk="Створити токен",
        cs="Vytvořit token",
    ),
    "password change": Page(
        lambda s: reverse("password_change"),
        en="Change my password",
        uk="Змінити мій пароль",
        cs="Změnit heslo",
    ),
    "take-off": Page(
        lambda s: reverse(
            "table-take-off", kwargs={"table_id": s.table.pk, "player_id": s.players[0].pk}
        ),
        en="Back to Tonight",
        uk="Назад до «Сьогодні»",
        cs="Zpět na Dnes",
    ),
    "login": Page(
        lambda s: reverse("login"),
        en="Forgot your password?",
        uk="Забули пароль?",
        cs="Zapomněli jste heslo?",
        who="nobody",
    ),
    "password reset": Page(
        lambda s: reverse("password_reset"),
        en="Send me a link",
        uk="Надіслати посилання",
        cs="Poslat odkaz",
        who="nobody",
    ),
    "invitation": Page(
        lambda s: reverse("invitation", kwargs={"secret": "no-such-invitation"}),
        en="This link does not work",
        uk="Це посилання не діє",
        cs="Tento odkaz nefunguje",
        who="nobody",
    ),
}


@pytest.fixture
def setup() -> ClubSetup:
    made = club_setup()
    League.objects.filter(pk=made.league.pk).update(season=SEASON)
    made.league.refresh_from_db()
    return made


def browser(setup: ClubSetup, page: Page) -> Client:
    user: AbstractUser = setup.organiser
    return signed_in(user) if page.who == "organiser" else Client()


def shown(setup: ClubSetup, page: Page, language: str | None) -> str:
    headers = {"accept-language": language} if language else {}
    response = browser(setup, page).get(page.url(setup), headers=headers)
    assert response.status_code in (200, 404), response.status_code
    return text(response)


@pytest.mark.parametrize("name", list(PAGES))
def test_each_page_in_ukrainian_czech_and_english(setup: ClubSetup, name: str) -> None:
    page = PAGES[name]
    english = shown(setup, page, None)
    assert page.en in english
    assert page.uk not in english and page.cs not in english
    ukrainian = shown(setup, page, "uk")
    assert page.uk in ukrainian
    assert page.en not in ukrainian
    czech = shown(setup, page, "cs")
    assert page.cs in czech
    assert page.en not in czech


def test_the_crumbs_and_titles_follow_the_language(setup: ClubSetup) -> None:
    page = PAGES["players"]
    czech = shown(setup, page, "cs")
    assert ">Správa</a>" in czech  # the crumb to the club's hub
    assert "<title>Hráči · " in czech
    ukrainian = shown(setup, page, "uk")
    assert ">Керування</a>" in ukrainian
    assert f"<h1>Гравці клубу {setup.club.name}</h1>" in ukrainian


def test_the_season_in_words_counts_and_writes_numbers_as_the_language_does(
    setup: ClubSetup,
) -> None:
    page = PAGES["league"]
    english = shown(setup, page, None)
    assert "3-1.5-0 at tables of three" in english
    assert "at least 6 games to qualify" in english
    czech = shown(setup, page, "cs")
    assert "3-1,5-0 u stolů pro tři" in czech
    assert "aspoň 6 her ke kvalifikaci" in czech
    ukrainian = shown(setup, page, "uk")
    assert "3-1,5-0 за столами на трьох" in ukrainian
    assert "щонайменше 6 ігор для кваліфікації" in ukrainian


def test_the_import_page_groups_digits_as_the_language_does(setup: ClubSetup) -> None:
    page = PAGES["imports"]
    assert "20,000 rows of results" in shown(setup, page, None)
    # a no-break space between the thousands (text() collapses it to a space)
    assert "20 000 řádků výsledků" in shown(setup, page, "cs")


def test_a_form_error_in_czech_is_czech(setup: ClubSetup) -> None:
    url = reverse("club-players", kwargs={"club_id": setup.club.pk})
    client = signed_in(setup.organiser)
    czech = text(
        client.post(url, {"name": "", "kind": "member"}, headers={"accept-language": "cs"})
    )
    assert "Zadejte jméno hráče." in czech
    assert "Je tu problém" in czech or "Chyba" in czech
    english = text(client.post(url, {"name": "", "kind": "member"}))
    assert "Enter the player&#x27;s name." in english or "Enter the player's name." in english


def test_a_page_message_follows_the_language(setup: ClubSetup) -> None:
    url = reverse("club-players", kwargs={"club_id": setup.club.pk})
    client = signed_in(setup.organiser)
    headers = {"accept-language": "uk"}
    response = client.post(url, {"name": "Oksana", "kind": "guest"}, headers=headers)
    assert response.status_code == 302
    assert "Oksana додано як гостя." in text(client.get(response["Location"], headers=headers))


@pytest.mark.parametrize(
    ("count", "uk", "cs"),
    [
        (1, "Додано 1 гравця", "Přidán 1 hráč"),
        (3, "Додано 3 гравці", "Přidáni 3 hráči"),
        (5, "Додано 5 гравців", "Přidáno 5 hráčů"),
    ],
)
def test_counts_take_the_language_s_three_plural_forms(
    setup: ClubSetup, count: int, uk: str, cs: str
) -> None:
    url = reverse("club-players", kwargs={"club_id": setup.club.pk})
    client = signed_in(setup.organiser)
    names = {
        "uk": ["Oksana", "Bohdan", "Taras", "Marichka", "Yurko"],
        "cs": ["Zdeněk", "Lucie", "Vojtěch", "Hana", "Radek"],
    }
    for language, phrase in (("uk", uk), ("cs", cs)):
        headers = {"accept-language": language}
        data = {"paste-names": "\n".join(names[language][:count]), "paste-kind": "member"}
        response = client.post(url, data, headers=headers)
        assert response.status_code == 302, text(response)
        assert phrase in text(client.get(response["Location"], headers=headers))


def test_roles_are_worded_in_the_language(setup: ClubSetup) -> None:
    page = PAGES["people"]
    ukrainian = shown(setup, page, "uk")
    assert "Організатор" in ukrainian
    czech = shown(setup, page, "cs")
    assert "Zapisovatel" in czech


def test_dates_are_written_as_the_language_writes_them(setup: ClubSetup) -> None:
    page = PAGES["manage"]
    day = setup.event.date
    assert f"{day.day} {day:%b} {day.year}" in shown(setup, page, None)  # as before: 3 Dec 2026
    with translation.override("cs"):
        czech_date = date_format(day, "DATE_FORMAT")
    assert czech_date.startswith(f"{day.day}. ")  # Czech: 3. prosince 2026
    assert czech_date in shown(setup, page, "cs")
