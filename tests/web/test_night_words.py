"""The night's pages in Ukrainian and Czech (issue 33): the tonight page, the
room screen (and its live part, kept a language), a round's pads, the score
sheet of Bluke and of Buck Euchre with its penalties and key, the entry form
with an engine refusal in the page's words, and the offline script's words;
each asked with Accept-Language, and English unchanged without it."""

# Ukrainian is written in Cyrillic, some of whose letters look Latin: on purpose here.
# ruff: noqa: RUF001

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import dateformat, translation

from league.models import Event, Game
from league.services.results import hand_submit
from league.services.seating import round_seating_commit
from tests.support.markup import error_of, text
from tests.support.records import BUCK_PENALTY_HANDS
from tests.support.setups import ClubSetup, club_setup, names
from tests.support.tonight import room_url, round_of, tonight_night, tonight_url
from tests.support.web import enter_url, sheet_url, signed_in

pytestmark = pytest.mark.django_db

BLUKE_HANDS = [  # hands of 13 and 12 cards, all bids made
    {"trump": "S", "bids": [3, 2, 4, 2], "tricks": [3, 2, 5, 3]},
    {"trump": None, "bids": [1, 6, 2, 2], "tricks": [1, 5, 4, 2]},
]


def page(client: Client, url: str, language: str | None) -> str:
    """The page at ``url`` in ``language`` (English, the source, without one)."""
    headers = {} if language is None else {"accept-language": language}
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def drawn_night(setup: ClubSetup) -> Event:
    """A night of today whose first round has tables."""
    event, _ = tonight_night(setup, present=8)
    round_seating_commit(round=round_of(event, 1), method="balanced", seed=7)
    return event


# -- the tonight page and the room screen ------------------------------------------------------


def test_the_tonight_page_speaks_ukrainian_and_czech() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=8)
    client = signed_in(setup.organiser)
    uk = page(client, tonight_url(event), "uk")
    assert '<h2 id="attendance-heading">Хто прийшов</h2>' in uk
    assert "Розсадка туру 1" in uk
    assert "Знайти гравця" in uk
    assert "<strong>Збалансований</strong>: найменше повторних зустрічей" in uk
    assert "Присутні 8." in uk  # 8: the "many" form
    cs = page(client, tonight_url(event), "cs")
    assert '<h2 id="attendance-heading">Kdo je tu</h2>' in cs
    assert "Vylosovat kolo 1" in cs
    assert "<strong>Vyvážený</strong>: co nejméně opakovaných setkání" in cs
    assert "Přítomno 8." in cs
    en = page(client, tonight_url(event), None)
    assert '<h2 id="attendance-heading">Who is here</h2>' in en
    assert "<strong>Balanced</strong>: the fewest repeat meetings" in en
    assert "8 present." in en


def test_a_preview_and_a_published_round_speak_the_pages_language() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=8)
    client = signed_in(setup.organiser)
    data = {"action": "draw", "round": "1", "method": "balanced", "seed": "3"}
    preview = client.post(tonight_url(event), data, headers={"accept-language": "cs"})
    assert "Náhled kola 1: zatím nezveřejněno" in text(preview)
    assert "Losováno způsobem „vyvážený“, semínko 3." in text(preview)
    published = client.post(
        tonight_url(event), {**data, "action": "publish"}, headers={"accept-language": "uk"}
    )
    assert published.status_code == 302
    after = page(client, published["Location"], "uk")
    assert "Тур 1 опубліковано: 2 столи." in after


def test_the_room_screen_in_each_language_and_its_live_part_kept_by_language() -> None:
    setup = club_setup()
    event = drawn_night(setup)
    client, room = signed_in(setup.organiser), room_url(event)
    uk = page(client, room, "uk")
    assert "Тур 1: столи" in uk
    assert '<h3 id="room-t' in uk and ">Стіл 1</h3>" in uk
    assert "роздає першим" in uk
    assert "Турнірна таблиця вечора на зараз" in uk
    cs = page(client, room, "cs")
    assert "Kolo 1: stoly" in cs
    assert "Dnešní průběžné pořadí" in cs
    with translation.override("cs"):
        # the date as Czech writes it: the day and month names in Czech
        assert dateformat.format(event.date, "l j. E Y") in cs
    # the live part is drawn once a language: Ukrainian first does not make it Ukrainian for all
    live = reverse("event-live", kwargs={"event_id": event.pk}) + "?view=room"
    first = json.loads(page(client, live, "uk"))["parts"]["room-live"]
    again = json.loads(page(client, live, None))["parts"]["room-live"]
    assert "Тур 1: столи" in first
    assert "Round 1: the tables" in again and "Тур" not in again


# -- the pads ------------------------------------------------------------------------------


def test_a_rounds_pads_in_ukrainian_and_czech() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    event = drawn_night(setup)
    pads = reverse("round-pads", kwargs={"round_id": round_of(event, 1).pk})
    client = signed_in(setup.organiser)
    uk = page(client, pads, "uk")
    assert "<h1>Бланки, тур 1</h1>" in uk
    assert "Стіл 1, тур 1" in uk
    assert "Скануйте, щоб вносити роздачі" in uk
    assert "(«юкер»)" in uk and "(«бак»)" in uk
    cs = page(client, pads, "cs")
    assert "<h1>Zápisníky, kolo 1</h1>" in cs
    assert ">Vyvolávající</th>" in cs
    assert "(„euchre“)" in cs
    en = page(client, pads, None)
    assert "<h1>Score pads, round 1</h1>" in en
    assert "(“euchred”)" in en


# -- the score sheet -------------------------------------------------------------------------


def test_a_bluke_sheet_in_ukrainian_and_czech() -> None:
    setup = club_setup()
    for record in BLUKE_HANDS:
        hand_submit(table=setup.table, record=record)
    client = signed_in(setup.scorekeeper)
    uk = page(client, sheet_url(setup.table), "uk")
    assert '<th scope="col" class="hand">Роздача</th>' in uk
    assert "замовлення 3, взяток 3, виконано; рахунок" in uk
    assert '<span class="visually-hidden">піки</span>' in uk  # the suit for screen readers
    assert "Триває: зіграно 2 роздачі з 25." in uk  # 2: the "few" form
    cs = page(client, sheet_url(setup.table), "cs")
    assert "závazek 3, štychů 3, splněn; skóre" in cs
    assert '<span class="visually-hidden">piky</span>' in cs
    assert "Probíhá: odehrána 2 rozdání z 25." in cs
    assert "Trumf</legend>" in cs  # the next hand's form, in Czech too
    en = page(client, sheet_url(setup.table), None)
    assert "bid 3, took 3, made; score" in en
    assert "In progress: 2 hands played of 25." in en


def test_a_buck_euchre_sheet_with_its_penalties_and_key_in_ukrainian_and_czech() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    for record in BUCK_PENALTY_HANDS:
        hand_submit(table=setup.table, record=record)
    client = signed_in(setup.scorekeeper)
    uk = page(client, sheet_url(setup.table), "uk")
    assert '2&thinsp;З<span class="penalty">юкер +5</span>' in uk
    assert '0<span class="penalty">бак +5</span>' in uk
    assert "2 взятки, замовив козир, юкер +5; рахунок </span>" in uk
    assert '<h2 id="sheet-legend-heading">Пояснення до аркуша</h2>' in uk
    assert "козир замовив " + names(setup)[1] in uk
    cs = page(client, sheet_url(setup.table), "cs")
    assert '2&thinsp;V<span class="penalty">euchre +5</span>' in cs
    assert '0<span class="penalty">buck +5</span>' in cs
    assert '<span class="bid" aria-hidden="true">složil</span>' in cs
    assert '<h2 id="sheet-legend-heading">Vysvětlivky k listu</h2>' in cs
    en = page(client, sheet_url(setup.table), None)
    assert '2&thinsp;M<span class="penalty">euchred +5</span>' in en
    assert '<h2 id="sheet-legend-heading">Key to the sheet</h2>' in en


def test_the_offline_script_gets_its_words_from_the_page() -> None:
    setup = club_setup()
    hand_submit(table=setup.table, record=BLUKE_HANDS[0])
    client = signed_in(setup.scorekeeper)
    html = page(client, sheet_url(setup.table), "uk")
    found = re.search(r'<script id="offline-config" type="application/json">(.*?)</script>', html)
    assert found is not None
    words = json.loads(found[1])["words"]
    assert words["waiting"]["1"] == "1 роздача чекає на надсилання"
    assert words["waiting"]["3"] == "3 роздачі чекають на надсилання"
    assert words["waiting"]["5"] == "5 роздач чекають на надсилання"
    assert words["cards_each"]["12"] == "по 12 карт, роздає %(dealer)s"
    assert words["suits"]["S"] == "піки"
    assert len(words["waiting"]) == 24  # no more hands can wait than the game has left (25 - 1)


# -- the entry form and an engine refusal ------------------------------------------------------


def test_the_entry_form_and_a_refusal_in_ukrainian_and_czech() -> None:
    setup = club_setup()
    client = signed_in(setup.scorekeeper)
    uk = page(client, enter_url(setup.table), "uk")
    assert "<legend>Крок 1 з 2: козир і замовлення</legend>" in uk
    assert "по 13 карт, роздає " + names(setup)[0] + "." in uk
    assert "(замовляє першим)" in uk
    assert '<option value="S">♠ Піки</option>' in uk
    bids = {"number": "0", "step": "bids", "trump": "S"}
    bids |= {"bid_0": "3", "bid_1": "99", "bid_2": "4", "bid_3": "2"}
    refused = client.post(enter_url(setup.table), bids, headers={"accept-language": "uk"})
    assert error_of(refused, "id_bid_1") == (
        f"Замовлення 99 гравця {names(setup)[1]} поза межами: замовляють від 1 до 13."
    )
    refused = client.post(enter_url(setup.table), bids, headers={"accept-language": "cs"})
    assert error_of(refused, "id_bid_1") == (
        f"Závazek 99 hráče {names(setup)[1]} je mimo rozsah: hlásí se od 1 do 13."
    )
    assert "<title>Chyba: " in text(refused)
    refused = client.post(enter_url(setup.table), bids)
    assert error_of(refused, "id_bid_1") == (
        f"{names(setup)[1]}'s bid of 99 is out of range: bids run from 1 to 13."
    )
