"""Every page in Ukrainian and in Czech, failing on a text left in English
(docs/translating.md, "The check"): the pages' half of `make messages-check`,
which sees texts no catalogue has (never marked) where the check sees only
marked ones.

Ukrainian: a visible text (not in ``<code>``, ``<script>``, ``<style>``, nor a
card code, a fixture's name, a proper name) with a Latin word that is English:
one of the most common English words, or a word of the site's English texts
(the msgids). The fixture's club and players have Cyrillic names, so that a name
is never taken for English. Czech: a visible text that is, or holds, an English
msgid whose Czech differs.

Each failure lists the page's untranslated texts, for whoever fixes them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from league.models import Club, Event, League, Player
from tests.support.setups import ClubSetup, club_setup, run_demo_data
from tests.support.web import signed_in
from tools.messages_check import read_po

pytestmark = pytest.mark.django_db

LOCALE = Path(settings.BASE_DIR) / "locale"

SKIPPED_ELEMENTS = {"script", "style", "code", "pre", "kbd", "samp", "svg", "template"}
SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")

# Words that stay as they are in every language: proper names, formats, codes.
KEPT = {
    "bluke",
    "buck",
    "euchre",
    "api",
    "csv",
    "json",
    "jsonl",
    "lines",
    "url",
    "ics",
    "qr",
    "id",
    "https",
    "http",
    "www",
    "utc",
    "ok",
    "hi",
    "lo",
}
CARD_CODE = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b|\bB[HL]\b")

# The most common English words (the function words and everyday verbs and nouns a
# page's sentence is made of), lower case.
_COMMON_WORDS = """
    the be to of and a in that have i it for not on with he as you do at this but his by
    from they we say her she or an will my one all would there their what so up out if about
    who get which go me when make can like time no just him know take people into year your
    good some could them see other than then now look only come its over think also back
    after use two how our work first well way even new want because any these give day most
    us is are was were been has had did does done said made more many much very here where
    why each every both few less least own same such too again once under while since until
    before between through during without within along across behind beyond above below off
    down around near next last long little great old big high different small large early
    young important public bad able name names show shown open close closed start started
    end ended add added remove removed change changed save saved delete deleted edit cancel
    back home page pages yes yet still already never always often sometimes today tomorrow
    yesterday tonight night nights game games hand hands table tables round rounds player
    players club clubs league leagues season seasons event events result results score
    scores points total standings rating ratings rank place places seat seats dealer bid
    bids trick tricks trump trumps won lost win wins lose draw drawn enter entered correct
    confirm confirmed confirmation log login logged password account manage organiser
    scorekeeper member members people invite invitation link links mail email sent send
    download downloads file files import imported export please nothing none something
    everything someone anyone everyone who whom whose must should may might shall new next
    previous first second third one two three four five six seven eight nine ten hundred
    thousand more fewer most least best worst better worse sheet sheets pad pads tonight
    room live coming not comes going went gone play played plays playing count counts
    counted see seen read write written
"""
COMMON_ENGLISH = frozenset(_COMMON_WORDS.split())


@cache
def english_of(language: str) -> dict[str, str]:
    """The English texts of the site (msgids, with their plurals) and their
    translation in ``language`` (the first form), as committed."""
    entries = read_po((LOCALE / language / "LC_MESSAGES" / "django.po").read_text("utf-8"))
    found: dict[str, str] = {}
    for entry in entries:
        translated = entry.translations[0] if entry.translations else ""
        for english in filter(None, (entry.msgid, entry.plural)):
            found[english] = translated
    return found


@cache
def site_words() -> frozenset[str]:
    """The words of the site's English texts, less those its translations keep."""
    words: set[str] = set()
    kept: set[str] = set()
    for english, ukrainian in english_of("uk").items():
        words.update(
            w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"%\(\w+\)s", "", english))
        )
        kept.update(w.lower() for w in re.findall(r"[A-Za-z]{2,}", ukrainian))
    return frozenset((words | COMMON_ENGLISH) - kept - KEPT)


class Texts(HTMLParser):
    """The visible texts of a page, and the attributes people read."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skipping = 0
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED_ELEMENTS:
            self.skipping += 1
        if not self.skipping:
            self.found += [value for name, value in attrs if name in SHOWN_ATTRIBUTES and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED_ELEMENTS and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.found.append(" ".join(data.split()))


def visible_texts(html: str, names: set[str]) -> list[str]:
    parser = Texts()
    parser.feed(html)
    shown = []
    for found in parser.found:
        for name in sorted(names, key=len, reverse=True):
            found = found.replace(name, " ")
        found = CARD_CODE.sub(" ", found)
        if found.strip():
            shown.append(found.strip())
    return shown


def untranslated(language: str, html: str, names: set[str]) -> list[str]:
    """The texts of ``html`` left in English, for ``language``."""
    texts = visible_texts(html, names)
    if language == "uk":
        english = site_words()
        return [
            text
            for text in texts
            if any(word.lower() in english for word in re.findall(r"[A-Za-z]{2,}", text))
        ]
    differing = [
        msgid
        for msgid, czech in english_of(language).items()
        if czech and czech != msgid and len(re.sub(r"%\(\w+\)s", "", msgid)) >= 4
    ]
    patterns = [
        re.compile(
            r"(?<![\w])"
            + re.escape(re.sub(r"%\(\w+\)s", "\x00", m)).replace("\x00", ".+?")
            + r"(?![\w])"
        )
        for m in differing
    ]
    return [text for text in texts if any(pattern.search(text) for pattern in patterns)]


@dataclass
class Site:
    setup: ClubSetup
    names: set[str]


@pytest.fixture
def site() -> Site:
    setup = club_setup()
    Club.objects.filter(pk=setup.club.pk).update(name="Клуб Вишня")
    cyrillic = ["Олена", "Богдан", "Ярина", "Тарас", "Мирослава", "Остап", "Зоряна", "Влас"]  # noqa: RUF001
    for player, name in zip(setup.players, cyrillic, strict=False):
        Player.objects.filter(pk=player.pk).update(name=name)
    setup.club.refresh_from_db()
    names = {
        "Клуб Вишня",
        *cyrillic,
        *Player.objects.filter(club=setup.club).values_list("name", flat=True),
        setup.league.name,
        setup.event.name if hasattr(setup.event, "name") else "",
        setup.organiser.get_username(),
        setup.scorekeeper.get_username(),
    }
    return Site(setup=setup, names={name for name in names if name})


def _organiser(site: Site) -> Client:
    return signed_in(site.setup.organiser)


Page = tuple[str, Callable[[ClubSetup], str], Callable[[Site], Client], int]

PAGES: list[Page] = [
    ("home", lambda s: reverse("home"), lambda site: Client(), 200),
    ("league", lambda s: reverse("league", args=[s.league.pk]), _organiser, 200),
    ("standings", lambda s: reverse("league-all-standings", args=[s.league.pk]), _organiser, 200),
    ("ratings", lambda s: reverse("league-leaderboard", args=[s.league.pk]), _organiser, 200),
    ("game nights", lambda s: reverse("league-game-nights", args=[s.league.pk]), _organiser, 200),
    ("event", lambda s: reverse("event", args=[s.event.pk]), _organiser, 200),
    ("player", lambda s: reverse("player", args=[s.players[0].pk]), _organiser, 200),
    ("tonight", lambda s: reverse("event-tonight", args=[s.event.pk]), _organiser, 200),
    ("room", lambda s: reverse("event-room", args=[s.event.pk]), _organiser, 200),
    ("pads", lambda s: reverse("round-pads", args=[s.round.pk]), _organiser, 200),
    ("pad", lambda s: reverse("table-pad", args=[s.table.pk]), _organiser, 200),
    ("sheet", lambda s: reverse("score-sheet", args=[s.table.pk]), _organiser, 200),
    ("entry", lambda s: reverse("hand-enter", args=[s.table.pk]), _organiser, 200),
    ("ratings explained", lambda s: reverse("ratings-explained"), lambda site: Client(), 200),
    ("account", lambda s: reverse("account"), _organiser, 200),
    ("tokens", lambda s: reverse("api-tokens"), _organiser, 200),
    ("manage", lambda s: reverse("club-manage", args=[s.club.pk]), _organiser, 200),
    ("people", lambda s: reverse("club-people", args=[s.club.pk]), _organiser, 200),
    ("players", lambda s: reverse("club-players", args=[s.club.pk]), _organiser, 200),
    ("new league", lambda s: reverse("league-create", args=[s.club.pk]), _organiser, 200),
    ("league form", lambda s: reverse("league-edit", args=[s.league.pk]), _organiser, 200),
    ("new night", lambda s: reverse("event-create", args=[s.league.pk]), _organiser, 200),
    ("night form", lambda s: reverse("event-edit", args=[s.event.pk]), _organiser, 200),
    ("season", lambda s: reverse("league-season", args=[s.league.pk]), _organiser, 200),
    ("import", lambda s: reverse("club-import", args=[s.club.pk]), _organiser, 200),
    ("webhooks", lambda s: reverse("club-webhooks", args=[s.club.pk]), _organiser, 200),
    ("personal links", lambda s: reverse("club-personal-links", args=[s.club.pk]), _organiser, 200),
    ("privacy", lambda s: reverse("club-privacy", args=[s.club.pk]), _organiser, 200),
    ("club language", lambda s: reverse("club-language", args=[s.club.pk]), _organiser, 200),
    ("files", lambda s: reverse("league-files", args=[s.league.pk]), _organiser, 200),
    ("new club", lambda s: reverse("club-create"), _organiser, 200),
    ("login", lambda s: reverse("login"), lambda site: Client(), 200),
    ("password reset", lambda s: reverse("password_reset"), lambda site: Client(), 200),
    ("404", lambda s: "/no-such-page/", lambda site: Client(), 404),
    (
        "403",
        lambda s: reverse("club-manage", args=[s.club.pk]),
        lambda site: signed_in(site.setup.scorekeeper),
        403,
    ),
]


def _pages() -> Iterator[Any]:
    for language in ("uk", "cs"):
        for name, url, client, status in PAGES:
            yield pytest.param(language, url, client, status, id=f"{language}-{name}")


@pytest.mark.parametrize(("language", "url", "client", "status"), list(_pages()))
def test_a_page_has_no_english_left(
    site: Site,
    language: str,
    url: Callable[[ClubSetup], str],
    client: Callable[[Site], Client],
    status: int,
) -> None:
    response = client(site).get(url(site.setup), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == status
    assert response["Content-Language"] == language
    left = untranslated(language, response.content.decode(), site.names)
    assert not left, (
        f"{len(left)} texts in English on {url(site.setup)} ({language}):\n"
        + "\n".join(f"  {text}" for text in left)
    )


# Where a crawl of the demo club does not go: the API and its schema pages (English
# by contract), files (downloads are data), logging out, the admin (Django's own).
NOT_CRAWLED = re.compile(
    r"^/(api|static|admin|accounts/logout)|\.(csv|jsonl|json|ics|zip|png|svg)$"
)
SAME_KIND_AT_MOST = 5
"""Pages of one kind (the same address but for its numbers) crawled: a score
sheet's twenty-five hand forms say the same words."""


@pytest.mark.parametrize("language", ["uk", "cs"])
def test_every_page_of_the_demo_club_is_in_the_language(language: str) -> None:
    """The demo club's every page an organiser reaches by following links from the
    home page (played leagues: standings, ratings and their explanations, players'
    figures, score sheets with penalties, a season with a final, the night's
    pages), with the names the demo data gave left out."""
    run_demo_data()
    names = {
        *Player.objects.values_list("name", flat=True),
        *Club.objects.values_list("name", flat=True),
        *League.objects.values_list("name", flat=True),
        *Event.objects.values_list("name", flat=True),
        *get_user_model().objects.values_list("username", flat=True),
    }
    names = {name for name in names if name}
    client = signed_in(get_user_model().objects.get(username="organiser"))
    seen: set[str] = set()
    kinds: Counter[str] = Counter()
    queue = ["/"]
    left: dict[str, list[str]] = {}
    while queue:
        url = queue.pop(0)
        kind = re.sub(r"\d+", "N", url)
        if url in seen or kinds[kind] >= SAME_KIND_AT_MOST:
            continue
        seen.add(url)
        kinds[kind] += 1
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code in (200, 302, 403, 404), (url, response.status_code)
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        html = response.content.decode()
        found = untranslated(language, html, names)
        if found:
            left[url] = found
        for link in re.findall(r'href="(/[^"#?]*)', html):
            if link not in seen and not NOT_CRAWLED.search(link):
                queue.append(link)
    assert len(seen) > 50, sorted(seen)  # the crawl reached the club's pages
    assert not left, "\n".join(
        f"{url}:\n" + "\n".join(f"  {text}" for text in texts) for url, texts in left.items()
    )


def test_the_check_itself_finds_english_and_passes_a_translated_page() -> None:
    """The detector itself, held now (unlike the pages, it does not wait for the merge)."""
    english = '<p>Log in</p><code>Log in</code><p>Олена</p><p title="Your account">x</p>'
    assert untranslated("uk", english, {"Олена"}) == ["Log in", "Your account"]
    assert untranslated("uk", "<p>Увійти</p><p>AS 10H Bluke</p>", set()) == []
    assert untranslated("cs", "<p>Log in now</p><p>Přihlásit se</p>", set()) == ["Log in now"]
