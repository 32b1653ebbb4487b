"""Import problems, a background import's refusal and a league's season in the
reader's language (issue 33): Ukrainian and Czech on the pages, while the
problems' ``message`` (the management commands' English) stays as it was."""

# ruff: noqa: RUF001
# (Ukrainian is written in Cyrillic: its letters that look Latin are meant)

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league import standings
from league.import_files.players import read_players
from league.import_files.problems import Problem, problems_text
from league.models import Game, League, ResultsImport
from league.services import imports
from league.services.fixtures import league_create
from league.services.import_words import problem_words
from league.web import organise_imports
from tests.support.imports import BLUKE_OPTIONS, csv_of, download, played_league, rows_of
from tests.support.markup import text
from tests.support.seasons import season_league
from tests.support.setups import ClubSetup, club_setup
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def jobs_run(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


def a_league_to_fill(setup: ClubSetup) -> League:
    return league_create(
        club=setup.club, name="Last season", game=Game.BLUKE, options=BLUKE_OPTIONS
    )


def broken_rows(jobs_run: Any) -> list[dict[str, str]]:
    """One night of a played Bluke league as its games CSV, with row 25's points
    other than the rules score and row 3's bid empty."""
    data = download(
        Client(), "league-games-csv", played_league(jobs_run, game=Game.BLUKE, nights=1).pk
    )
    rows = rows_of(data)
    rows[23]["points"] = "21"
    rows[1]["bid"] = ""
    return rows


def preview_in(language: str, setup: ClubSetup, league: League | None, data: bytes) -> str:
    form = {"what": "results" if league else "players", "league": league.pk if league else ""}
    url = reverse("club-import", kwargs={"club_id": setup.club.pk})
    page = signed_in(setup.organiser).post(
        url, {**form, "file": _upload(data)}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert page.status_code == 200
    return text(page)


def _upload(data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("games.csv", data, content_type="text/csv")


@pytest.mark.parametrize(
    ("language", "points", "bid"),
    [
        ("cs", "Bodů je 21, podle pravidel je za toto rozdání 20.", "Sloupec „bid“ je prázdný."),
        ("uk", "Очок 21, а за правилами за цю роздачу — 20.", "Стовпець «bid» порожній."),
    ],
)
def test_the_preview_words_the_files_problems_in_the_readers_language(
    jobs_run: Any, language: str, points: str, bid: str
) -> None:
    rows = broken_rows(jobs_run)
    setup = club_setup()
    html = preview_in(language, setup, a_league_to_fill(setup), csv_of(rows))
    assert points in html and bid in html
    assert "the rules score" not in html and "is empty" not in html


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("cs", "Sloupec „name“ má 101 znaků; nejvýš 100."),
        ("uk", "У стовпці «name» 101 символ; щонайбільше 100."),
        ("en", "The name is 101 characters; at most 100."),
    ],
)
def test_a_count_in_a_problem_takes_the_languages_plural(language: str, words: str) -> None:
    setup = club_setup()
    data = f"name\n{'x' * 101}\n".encode()
    assert words in preview_in(language, setup, None, data)


def test_a_players_files_problems_share_the_services_words_for_a_name() -> None:
    problems: list[Problem] = []
    read_players(b"name\nZed\n\x01Ann\nzed\n", problems)
    assert [problem.message for problem in problems] == [
        "the name: a name cannot hold a control character (U+0001)",
        "zed is named on row 2 already",
    ]
    with translation.override("cs"):
        worded = [problem_words(problem) for problem in problems]
    assert worded == [
        "sloupec „name“: jméno nesmí obsahovat řídicí znak (U+0001)",
        "zed už je na řádku 2",
    ]


def test_the_problems_english_message_and_the_commands_lines_are_unchanged(
    jobs_run: Any,
) -> None:
    rows = broken_rows(jobs_run)
    setup = club_setup()
    league = a_league_to_fill(setup)
    with translation.override("cs"):
        check = imports.check_results_import(league=league, data=csv_of(rows))
    by_code = {problem.code: problem for problem in check.problems}
    assert by_code["points"].message == "the points are 21; the rules score 20 for this hand"
    assert by_code["missing"].message == "the bid is empty"
    lines = list(problems_text(check.problems, seats_from=check.seats_from))
    assert any(line.endswith(": the bid is empty (missing)") for line in lines)
    with translation.override("uk"):
        assert problem_words(by_code["points"]) == "очок 21, а за правилами за цю роздачу — 20"


def test_a_background_import_words_its_refusal_in_the_language_it_was_asked_for_in(
    jobs_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = rows_of(
        download(
            Client(), "league-games-csv", played_league(jobs_run, game=Game.BLUKE, nights=1).pk
        )
    )
    data = csv_of(rows)
    setup = club_setup()
    league = a_league_to_fill(setup)
    monkeypatch.setattr(organise_imports, "INLINE_TABLES", 0)
    organiser = signed_in(setup.organiser)
    url = reverse("club-import", kwargs={"club_id": setup.club.pk})
    page = organiser.post(
        url,
        {"what": "results", "league": league.pk, "file": _upload(data)},
        HTTP_ACCEPT_LANGUAGE="cs",
    )
    digest = imports.file_digest(data)
    assert digest in page.content.decode()
    confirmed = organiser.post(
        reverse("club-import-confirm", kwargs={"club_id": setup.club.pk}),
        {"what": "results", "league": league.pk, "digest": digest, "file": _upload(data)},
        HTTP_ACCEPT_LANGUAGE="cs",
    )
    assert confirmed.status_code == 302
    item = ResultsImport.objects.get(league=league)
    assert item.language == "cs"

    def clash(**kwargs: Any) -> Any:
        raise IntegrityError("a player of that name, added at the same moment")

    monkeypatch.setattr(imports, "results_import", clash)
    with translation.override("en-gb"):  # the job's process speaks English
        assert imports.results_import_run(import_id=item.pk) == "refused"
        assert translation.get_language() == "en-gb"  # given back after the job
    item.refresh_from_db()
    assert item.refusal == "během importu souboru se v lize něco změnilo"


@pytest.mark.parametrize(
    ("language", "words", "points"),
    [
        (
            "cs",
            "Sezóna: nejlepších 2 ze 3 večerů; 4-2-1-0 u stolů pro čtyři; "
            "6-4-3-2-1-0 u stolů pro šest; 5-3-2-1-0 u stolů pro pět; 3-1-0 u stolů pro tři; "
            "aspoň 3 hry ke kvalifikaci.",
            "<td>1,5</td>",
        ),
        (
            "uk",
            "Сезон: найкращі 2 з 3 вечорів; 4-2-1-0 за столами на чотирьох;",
            "<td>1,5</td>",
        ),
        (
            "en",
            "Season: best 2 of 3 nights; 4-2-1-0 at tables of four; 6-4-3-2-1-0 at tables of "
            "six; 5-3-2-1-0 at tables of five; 3-1-0 at tables of three; at least 3 games to "
            "qualify.",
            "<td>1.5</td>",
        ),
    ],
)
def test_the_season_its_order_and_its_points_in_the_readers_language(
    client: Client, language: str, words: str, points: str
) -> None:
    built = season_league()
    standings.standings_refresh(league=built.league)
    url = reverse("league", kwargs={"league_id": built.league.pk})
    page = text(client.get(url, HTTP_ACCEPT_LANGUAGE=language))
    assert words in page
    assert points in page
    order = {
        "cs": "Pořadí: body sezóny, pak průměrné umístění",
        "uk": "Порядок: очки сезону, потім середнє місце",
        "en": "Ordered by season points, then average place",
    }[language]
    assert order in page
