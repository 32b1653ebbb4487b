"""The page's language (league/web/languages.py; docs/translating.md): a login's own
choice, the switch, the browser's, the club's default, English, in that order; the
switch on every page; mails in the recipient's language; problem details; the
formats of dates and numbers; cards named in the language."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection
from django.template import Context, Template
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import formats, translation

from league import card_names
from league.models import Club, LoginLanguage
from league.services import languages as language_services
from league.web.languages import SESSION_KEY
from tests.support.api import assert_problem, client_for
from tests.support.factories import UserFactory
from tests.support.markup import text
from tests.support.setups import ClubSetup, club_setup, player_linked
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db

HOME = reverse("home")
SWITCH = reverse("language-set")


@pytest.fixture
def setup() -> ClubSetup:
    return club_setup()


def club_url(setup: ClubSetup) -> str:
    """A page of the club's (its league's: the club itself is listed on the home page)."""
    return reverse("league", kwargs={"league_id": setup.league.pk})


def with_club_language(setup: ClubSetup, language: str) -> None:
    Club.objects.filter(pk=setup.club.pk).update(language=language)


def language_of(response: Any) -> str:
    found = re.search(r'<html lang="([^"]+)"', text(response))
    assert found, "no <html lang>"
    language: str = response["Content-Language"]
    assert found[1] == ("en" if language == "en-gb" else language)
    return language


# -- the order ------------------------------------------------------------------------


def test_a_page_is_english_with_no_choice_and_no_accept_language(setup: ClubSetup) -> None:
    page = Client().get(HOME)
    assert language_of(page) == "en-gb"
    assert "Log in" in text(page)
    assert "Accept-Language" in page["Vary"] and "Cookie" in page["Vary"]


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("uk", "uk"),
        ("cs-CZ,cs;q=0.9,en;q=0.5", "cs"),
        ("de-DE,uk;q=0.8", "uk"),  # the first we have
        ("en-US,cs;q=0.5", "en-gb"),  # an English browser reads English
        ("de,fr", "en-gb"),  # none we have
    ],
)
def test_the_browser_s_language_is_taken_when_the_site_has_it(header: str, expected: str) -> None:
    assert language_of(Client().get(HOME, HTTP_ACCEPT_LANGUAGE=header)) == expected


def test_the_uk_frame_is_ukrainian() -> None:
    shown = text(Client().get(HOME, HTTP_ACCEPT_LANGUAGE="uk"))
    assert "Карткова ліга" in shown and "Увійти" in shown


def test_the_club_s_language_is_its_pages_fallback_without_a_query_of_its_own(
    setup: ClubSetup, django_assert_num_queries: Any
) -> None:
    url = club_url(setup)
    client = Client()
    client.get(url)
    with CaptureQueriesContext(connection) as english:
        assert language_of(client.get(url)) == "en-gb"
    with_club_language(setup, "cs")
    with django_assert_num_queries(len(english.captured_queries)):
        assert language_of(client.get(url)) == "cs"
    # a night's page and a player's too
    event = reverse("event", kwargs={"event_id": setup.event.pk})
    assert language_of(client.get(event)) == "cs"
    player = reverse("player", kwargs={"player_id": setup.players[0].pk})
    assert language_of(client.get(player)) == "cs"
    # the browser's language comes before the club's, and the home page is no club's
    assert language_of(client.get(url, HTTP_ACCEPT_LANGUAGE="uk")) == "uk"
    assert language_of(client.get(HOME)) == "en-gb"


def test_the_switch_sets_a_cookie_above_the_browser_and_returns_to_the_page(
    setup: ClubSetup,
) -> None:
    client = Client(enforce_csrf_checks=True)
    page = client.get(club_url(setup), HTTP_ACCEPT_LANGUAGE="uk")
    switch = text(page)
    assert 'lang="cs"' in switch and "Čeština" in switch and "Українська" in switch
    # each language in its own name, not in the page's ("Англійська")
    assert 'lang="en-gb">English</button>' in switch
    assert 'value="uk" lang="uk" aria-current="true"' in switch
    token = client.cookies["csrftoken"].value
    answer = client.post(
        SWITCH, {"language": "cs", "page": club_url(setup), "csrfmiddlewaretoken": token}
    )
    assert answer.status_code == 302 and answer["Location"] == club_url(setup)
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "cs"
    assert language_of(client.get(club_url(setup), HTTP_ACCEPT_LANGUAGE="uk")) == "cs"


def test_the_switch_refuses_another_site_an_unknown_language_and_a_missing_csrf() -> None:
    client = Client()
    away = client.post(SWITCH, {"language": "uk", "page": "https://evil.example/"})
    assert away["Location"] == "/"
    unknown = client.post(SWITCH, {"language": "de", "page": "/"})
    assert settings.LANGUAGE_COOKIE_NAME not in unknown.cookies
    assert Client(enforce_csrf_checks=True).post(SWITCH, {"language": "uk"}).status_code == 403
    assert Client().get(SWITCH).status_code == 405


def test_a_login_s_own_choice_comes_first_and_follows_it_to_a_new_session(
    setup: ClubSetup,
) -> None:
    client = signed_in(setup.organiser)
    account = text(client.get(reverse("account")))
    assert 'name="language"' in account
    saved = client.post(reverse("account-language"), {"language": "uk"}, follow=True)
    assert "Вашу мову збережено." in text(saved)
    assert LoginLanguage.objects.get(user=setup.organiser).language == "uk"
    # above the switch's cookie and the browser
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"
    assert language_of(client.get(HOME, HTTP_ACCEPT_LANGUAGE="cs")) == "uk"
    # a new login's session finds it (copied at login)
    setup.organiser.set_password("a-long-password-1")
    setup.organiser.save()
    fresh = Client()
    fresh.post(
        reverse("login"), {"username": setup.organiser.username, "password": "a-long-password-1"}
    )
    assert fresh.session[SESSION_KEY] == "uk"
    assert language_of(fresh.get(HOME)) == "uk"
    # choosing none hands the page back to the switch, the browser, the club
    fresh.post(reverse("account-language"), {"language": ""})
    assert not LoginLanguage.objects.filter(user=setup.organiser).exists()
    assert language_of(fresh.get(HOME, HTTP_ACCEPT_LANGUAGE="cs")) == "cs"
    fresh.cookies[settings.LANGUAGE_COOKIE_NAME] = "uk"
    assert language_of(fresh.get(HOME, HTTP_ACCEPT_LANGUAGE="cs")) == "uk"  # the switch's


def test_the_switch_used_signed_in_is_the_login_s_own_choice(setup: ClubSetup) -> None:
    client = signed_in(setup.organiser)
    client.post(SWITCH, {"language": "cs", "page": "/"})
    assert language_services.login_language(setup.organiser) == "cs"


# -- mails ----------------------------------------------------------------------------


def test_an_invitation_is_mailed_in_the_club_s_language(setup: ClubSetup) -> None:
    with_club_language(setup, "uk")
    client = signed_in(setup.organiser)
    posted = {
        "invite-username": "novyi",
        "invite-email": "novyi@example.org",
        "invite-role": "scorekeeper",
        "action": "invite",
    }
    people = reverse("club-people", kwargs={"club_id": setup.club.pk})
    assert client.post(people, posted).status_code == 201
    [sent] = mail.outbox
    assert "Запрошення до карткової ліги клубу" in sent.subject
    assert "секретар" in sent.body and "novyi" in sent.body


def test_a_login_s_own_language_beats_the_club_s_in_a_mail(setup: ClubSetup) -> None:
    with_club_language(setup, "uk")
    existing = UserFactory(username="pavel", email="pavel@example.org")
    language_services.login_language_set(existing, "cs")
    client = signed_in(setup.organiser)
    people = reverse("club-people", kwargs={"club_id": setup.club.pk})
    client.post(
        people,
        {
            "invite-username": "pavel",
            "invite-email": "pavel@example.org",
            "invite-role": "organiser",
            "action": "invite",
        },
    )
    [sent] = mail.outbox
    assert "Pozvánka do karetní ligy klubu" in sent.subject
    assert "role: organizátor" in sent.body


def test_a_password_reset_is_mailed_in_the_language_of_the_page_that_asked(
    django_capture_on_commit_callbacks: Any,
) -> None:
    UserFactory(email="zapomnel@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        Client().post(
            reverse("password_reset"), {"email": "zapomnel@example.org"}, HTTP_ACCEPT_LANGUAGE="cs"
        )
    [sent] = mail.outbox
    assert sent.subject == "Zvolte si nové heslo do karetní ligy"
    assert "Pokud jste o to nežádali" in sent.body


def test_a_personal_link_is_mailed_in_the_player_s_club_language(setup: ClubSetup) -> None:
    with_club_language(setup, "cs")
    player = player_linked(setup.players[0], UserFactory(email="eva@example.org"))
    links = reverse("club-personal-links", kwargs={"club_id": setup.club.pk})
    signed_in(setup.organiser).post(links, {"action": "mail", "players": [str(player.pk)]})
    [sent] = mail.outbox
    assert sent.subject.startswith("Váš odkaz na herní večery klubu")
    assert f"Dobrý den, {player.name}," in sent.body


# -- the API --------------------------------------------------------------------------


def test_a_problem_s_detail_follows_accept_language_its_title_and_type_do_not() -> None:
    english = assert_problem(client_for().get("/api/nothing-here/"), 404)
    czech = assert_problem(client_for().get("/api/nothing-here/", HTTP_ACCEPT_LANGUAGE="cs"), 404)
    assert english["detail"] == "There is nothing at /api/nothing-here/."
    assert czech["detail"] == "Na adrese /api/nothing-here/ nic není."
    assert (czech["title"], czech["type"]) == (english["title"], english["type"])


# -- formats --------------------------------------------------------------------------

DAY = datetime.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("language", "short_date", "number", "big"),
    [
        ("en-gb", "01/12/2026", "4.5", "12,500"),
        ("uk", "01.12.2026", "4,5", "12\xa0500"),
        ("cs", "1. 12. 2026", "4,5", "12\xa0500"),
    ],
)
def test_dates_and_numbers_as_each_language_writes_them(
    language: str, short_date: str, number: str, big: str
) -> None:
    with translation.override(language):
        assert formats.date_format(DAY, "SHORT_DATE_FORMAT") == short_date
        assert formats.number_format(Decimal("4.5"), decimal_pos=1) == number
        assert formats.number_format(12500, force_grouping=True) == big
        shown = Template('{{ x|floatformat:1 }} {{ n|floatformat:"0g" }}').render(
            Context({"x": 4.5, "n": 12500})
        )
        assert shown == f"{number} {big}"


def test_english_dates_are_as_the_pages_showed_them_before() -> None:
    with translation.override("en-gb"):
        shown = Template('{{ d|date }} {{ d|date:"j M Y" }}').render(Context({"d": DAY}))
    assert shown == "1 Dec 2026 1 Dec 2026"


# -- cards ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("en-gb", ["10 of hearts", "ace of spades", "king of clubs", "Hi Bluke", "♥10", "♠A"]),
        ("uk", ["десятка чирв", "туз пік", "король треф", "старший джокер", "♥10", "♠\u0422"]),
        ("cs", ["srdcová desítka", "pikové eso", "křížový král", "velký žolík", "♥10", "♠A"]),
    ],
)
def test_cards_are_named_in_the_language_and_their_codes_stay(
    language: str, names: list[str]
) -> None:
    with translation.override(language):
        shown = [
            card_names.card_name("TH"),
            card_names.card_name("as"),
            card_names.card_name("KC"),
            card_names.card_name("BH"),
            card_names.card_short("10H"),
            card_names.card_short("AS"),
        ]
        assert shown == names
        assert card_names.card_name("XX") == "XX"  # not a card: as it is
        rendered = Template('{% load cards_i18n %}{{ c|card_name }} {{ c }} {{ "D"|suit_name }}')
        assert rendered.render(Context({"c": "QD"})).split(" ")[-2] == "QD"


def test_every_card_has_a_name_in_each_language() -> None:
    from games.cards import ALL_CARDS

    for language in ("uk", "cs"):
        with translation.override(language):
            named = {card_names.card_name(card.code) for card in ALL_CARDS}
        with translation.override("en-gb"):
            english = {card_names.card_name(card.code) for card in ALL_CARDS}
        assert len(named) == 54 and not named & english


def test_a_new_club_s_language_is_chosen_on_its_form() -> None:
    client = signed_in(UserFactory())
    form = text(client.get(reverse("club-create")))
    assert 'name="language"' in form and "Čeština" in form
    made = client.post(
        reverse("club-create"),
        {"name": "Karetní klub Brno", "slug": "", "visibility": "public", "language": "cs"},
    )
    assert made.status_code == 302
    assert Club.objects.get(name="Karetní klub Brno").language == "cs"
    refused = client.post(
        reverse("club-create"),
        {"name": "Another", "slug": "", "visibility": "public", "language": "de"},
    )
    assert refused.status_code == 400 or 'name="language"' in text(refused)
    assert not Club.objects.filter(name="Another").exists()


def test_a_club_s_language_is_changed_or_cleared_by_the_service(setup: ClubSetup) -> None:
    from league.errors import ServiceError
    from league.services.clubs import club_update

    club_update(club=setup.club, language="uk")
    assert Club.objects.get(pk=setup.club.pk).language == "uk"
    with pytest.raises(ServiceError) as refused:
        club_update(club=setup.club, language="de")
    assert refused.value.field == "language"
    club_update(club=setup.club, language="")
    assert Club.objects.get(pk=setup.club.pk).language == ""


def test_an_organiser_sets_and_clears_the_club_s_language_on_its_page(setup: ClubSetup) -> None:
    organiser = signed_in(setup.organiser)
    url = reverse("club-language", kwargs={"club_id": setup.club.pk})
    manage = text(organiser.get(reverse("club-manage", kwargs={"club_id": setup.club.pk})))
    assert f'href="{url}"' in manage
    assert organiser.get(url).status_code == 200
    answer = organiser.post(url, {"language": "cs"})
    assert answer.status_code == 302
    assert Club.objects.get(pk=setup.club.pk).language == "cs"
    # a visitor with no choice and a browser that asks for none of ours: the club's
    assert language_of(Client().get(club_url(setup), HTTP_ACCEPT_LANGUAGE="de")) == "cs"
    manage = text(organiser.get(reverse("club-manage", kwargs={"club_id": setup.club.pk})))
    assert "(Čeština)" in manage
    organiser.post(url, {"language": ""})
    assert Club.objects.get(pk=setup.club.pk).language == ""


def test_the_club_s_language_page_refuses_an_unknown_language_and_a_scorekeeper(
    setup: ClubSetup,
) -> None:
    with_club_language(setup, "uk")
    url = reverse("club-language", kwargs={"club_id": setup.club.pk})
    refused = signed_in(setup.organiser).post(url, {"language": "de"})
    assert refused.status_code == 400
    assert 'aria-invalid="true"' in text(refused)  # the message by the field
    assert signed_in(setup.scorekeeper).post(url, {"language": "cs"}).status_code == 403
    assert Client().post(url, {"language": "cs"}).status_code in (302, 403, 404)
    assert Club.objects.get(pk=setup.club.pk).language == "uk"  # nothing changed


def test_an_unknown_language_on_the_account_page_changes_nothing_and_says_so(
    setup: ClubSetup,
) -> None:
    organiser = signed_in(setup.organiser)
    answer = organiser.post(reverse("account-language"), {"language": "de"}, follow=True)
    assert "choose one of the languages listed" in text(answer)
    assert not LoginLanguage.objects.filter(user=setup.organiser).exists()


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en-gb", ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]),
        ("cs", ["1.", "2.", "3.", "4.", "11.", "12.", "13.", "21.", "22."]),
        ("uk", [f"{n}-е" for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]),  # noqa: RUF001
    ],
)
def test_a_place_is_one_ordinal_on_every_page(language: str, expected: list[str]) -> None:
    from league.ordinals import ordinal

    with translation.override(language):
        assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == expected
