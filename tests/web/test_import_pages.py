"""The organisers' import page: upload, preview (every problem, or what would be
stored), and a confirmation that imports exactly the file previewed; errors by the
field; who may open it."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.csv_format import HAND_COLUMNS
from league.models import Game, Hand, JobOwed, League, Player, ResultsImport, Table
from league.services.clubs import player_create
from league.services.fixtures import event_create, league_create, table_create
from league.web import organise_imports
from league.web.organise_imports import PROBLEMS_SHOWN
from league.web.organise_imports_forms import MAX_UPLOAD_BYTES
from tests.support.imports import BLUKE_OPTIONS, csv_of, download, played_league, rows_of
from tests.support.markup import error_of, field, inputs_of, selected, text
from tests.support.organise import VISITORS, assert_refused, manage_url
from tests.support.records import bluke_results
from tests.support.setups import ClubSetup, club_setup
from tests.support.state import db_state
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def jobs_run(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


def import_url(setup: ClubSetup) -> str:
    return reverse("club-import", kwargs={"club_id": setup.club.pk})


def confirm_url(setup: ClubSetup) -> str:
    return reverse("club-import-confirm", kwargs={"club_id": setup.club.pk})


def upload(data: bytes, name: str = "games.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/csv")


def a_league_to_fill(setup: ClubSetup) -> League:
    """A new league of the setup's club with the played league's rules."""
    return league_create(
        club=setup.club, name="Last season", game=Game.BLUKE, options=BLUKE_OPTIONS
    )


def games_file(jobs_run: Any) -> bytes:
    """One night of another club's Bluke league, as its games CSV (33 rows)."""
    return download(
        Client(), "league-games-csv", played_league(jobs_run, game=Game.BLUKE, nights=1).pk
    )


def preview(
    client: Client,
    setup: ClubSetup,
    into: League | None,
    data: bytes,
    *,
    name: str = "games.csv",
    **post: Any,
) -> Any:
    """Upload ``data`` as the file ``name``: results ``into`` a league, or players;
    ``post`` changes the form's other fields."""
    form = {"what": "results" if into else "players", "league": into.pk if into else ""}
    return client.post(import_url(setup), {**form, **post, "file": upload(data, name)})


def confirm(
    client: Client, setup: ClubSetup, page: Any, data: bytes, name: str = "games.csv"
) -> Any:
    """Confirm the preview ``page`` with ``data`` as the file chosen again."""
    hidden = {key: field(page, key).get("value", "") for key in ("what", "league", "digest")}
    return client.post(confirm_url(setup), {**hidden, "file": upload(data, name)})


# -- who may import --------------------------------------------------------------------------


@pytest.mark.parametrize("visitor", VISITORS)
def test_only_the_clubs_organisers_may_import(visitor: str, jobs_run: Any) -> None:
    setup = club_setup()
    client = VISITORS[visitor](setup)
    data = b"name\nZed\n"
    before = db_state()
    for url in (import_url(setup), confirm_url(setup)):
        response = client.post(url, {"what": "players", "file": upload(data, "players.csv")})
        assert_refused(response, visitor, url)
    assert_refused(client.get(import_url(setup)), visitor, import_url(setup))
    assert db_state() == before


def test_an_organiser_of_another_club_gets_404_and_the_confirmation_takes_posts_only() -> None:
    setup, other = club_setup(), club_setup(name="Other club")
    client = signed_in(other.organiser)
    assert client.get(import_url(setup)).status_code == 404
    assert signed_in(setup.organiser).get(confirm_url(setup)).status_code == 405
    missing = reverse("club-import", kwargs={"club_id": 999_999})
    assert signed_in(setup.organiser).get(missing).status_code == 404


def test_the_hub_links_to_the_import_page_and_each_league_to_its_own() -> None:
    setup = club_setup()
    html = text(signed_in(setup.organiser).get(manage_url(setup.club)))
    assert f'href="{import_url(setup)}"' in html
    assert f'href="{import_url(setup)}?league={setup.league.pk}"' in html


def test_the_form_chooses_the_league_it_was_opened_for() -> None:
    setup = club_setup()
    other = a_league_to_fill(setup)
    page = signed_in(setup.organiser).get(f"{import_url(setup)}?league={other.pk}")
    assert page.status_code == 200
    assert f'<option value="{other.pk}" selected>' in text(page)
    assert 'enctype="multipart/form-data"' in text(page)
    found = inputs_of(page)
    for attrs in found.inputs:
        if attrs.get("type") != "hidden":
            assert attrs["id"] in found.labels, attrs


# -- results: preview and confirm --------------------------------------------------------------


def test_results_are_previewed_then_imported_as_previewed(client: Client, jobs_run: Any) -> None:
    data = games_file(jobs_run)
    setup = club_setup()
    league = a_league_to_fill(setup)
    organiser = signed_in(setup.organiser)
    before = db_state()
    page = preview(organiser, setup, league, data)
    assert page.status_code == 200 and db_state() == before  # a preview stores nothing
    html = text(page)
    assert "<h1>Check the import</h1>" in html
    assert "Game nights: 1, of which 1 new." in html
    assert "Tables: 3 to store." in html and "Hands: 9," in html
    assert "New players: 7: =HYPERLINK(1), Bob, Cy, Dee, Eve, -Fay, Gil." in html
    assert field(page, "digest")["value"] == hashlib.sha256(data).hexdigest()
    assert field(page, "file")["type"] == "file"

    with jobs_run(execute=True):
        done = confirm(organiser, setup, page, data)
    assert done.status_code == 302
    assert done["Location"] == reverse("league", kwargs={"league_id": league.pk})
    assert Hand.objects.filter(table__round__event__league=league).count() == 9
    landed = text(organiser.get(done["Location"]))
    assert "Imported into Last season: 9 hands at 3 tables (7 new players)." in landed
    assert download(client, "league-games-csv", league.pk) == data

    again = preview(organiser, setup, league, data)
    assert "Everything in this file is stored already" in text(again)
    assert 'action="' + confirm_url(setup) not in text(again)


def test_a_file_other_than_the_one_previewed_is_refused(jobs_run: Any) -> None:
    data = games_file(jobs_run)
    setup = club_setup()
    league = a_league_to_fill(setup)
    organiser = signed_in(setup.organiser)
    page = preview(organiser, setup, league, data)
    rows = rows_of(data)
    rows[0]["player"] = "Someone else"  # a file that is fine, but not the one checked
    other = csv_of(rows)
    before = db_state()
    response = confirm(organiser, setup, page, other)
    assert response.status_code == 200 and db_state() == before
    assert "This is not the file that was checked; nothing was imported." in error_of(
        response, "id_file"
    )
    assert "<h1>Import players or results</h1>" in text(response)
    assert selected(response, "league") == [str(league.pk)]  # chosen as it was


def test_a_confirmation_without_its_file_or_with_its_digest_changed_stores_nothing(
    jobs_run: Any,
) -> None:
    data = games_file(jobs_run)
    setup = club_setup()
    league = a_league_to_fill(setup)
    organiser = signed_in(setup.organiser)
    page = preview(organiser, setup, league, data)
    hidden = {key: field(page, key)["value"] for key in ("what", "league", "digest")}
    before = db_state()
    missing = organiser.post(confirm_url(setup), hidden)
    assert missing.status_code == 200
    assert error_of(missing, "id_file") == "Choose the file to import."
    changed = organiser.post(confirm_url(setup), {**hidden, "digest": "x", "file": upload(data)})
    assert "The page was changed" in error_of(changed, "id_file")
    assert db_state() == before


def test_a_change_between_preview_and_confirmation_is_caught_by_the_second_check(
    jobs_run: Any,
) -> None:
    data = games_file(jobs_run)
    setup = club_setup()
    league = a_league_to_fill(setup)
    organiser = signed_in(setup.organiser)
    page = preview(organiser, setup, league, data)
    # meanwhile, someone draws round 1 of that night with another table 1
    night = event_create(league=league, name="Night 1", date=rows_date(data), rounds=2)
    table_create(round=night.rounds.get(number=1), number=1, players=setup.players[:4])
    before = db_state()
    response = confirm(organiser, setup, page, data)
    assert response.status_code == 200 and db_state() == before
    html = text(response)
    assert "Nothing was imported." in html and "something changed since the check" in html
    assert "with other players" in html


def rows_date(data: bytes) -> Any:
    import datetime

    return datetime.date.fromisoformat(rows_of(data)[0]["date"])


def test_every_problem_is_listed_by_row_hand_and_seat_in_the_pages_words(jobs_run: Any) -> None:
    data = games_file(jobs_run)
    rows = rows_of(data)
    rows[14]["bid"] = "9"  # row 16: Gil's bid in a hand of 2 cards
    rows[23]["points"] = "21"  # row 25: points the rules do not score
    rows[1]["bid"] = ""  # row 3: a bid missing
    setup = club_setup()
    page = preview(signed_in(setup.organiser), setup, a_league_to_fill(setup), csv_of(rows))
    html = text(page)
    assert "The file has 3 problems" in html
    assert "Gil&#x27;s bid of 9 is out of range: bids run from 1 to 2." in html
    # seats as the file counts them, from 1
    assert '<td>16</td> <td>1</td> <td>3<span class="who">Gil</span></td>' in html
    assert "<td>25</td> <td>1</td> <td>3<span" in html
    assert "The points are 21; the rules score 20 for this hand." in html
    assert "<td>3</td> <td>1</td> <td>2<span" in html and "The bid is empty." in html
    assert "hands from 1 and seats from 1, as in the file" in html
    assert 'action="' + confirm_url(setup) not in html  # nothing to confirm
    assert html.index("<td>3</td>") < html.index("<td>16</td>") < html.index("<td>25</td>")


def test_a_long_list_of_problems_is_cut_short(jobs_run: Any) -> None:
    data = games_file(jobs_run)
    rows = rows_of(data) * 20  # every table twice and more: split tables, every row
    for row in rows:
        row["bid"] = "x"
    setup = club_setup()
    page = preview(signed_in(setup.organiser), setup, a_league_to_fill(setup), csv_of(rows))
    html = text(page)
    assert f"The first {PROBLEMS_SHOWN} are listed here." in html
    assert html.count("<tr>") == PROBLEMS_SHOWN + 1


@pytest.mark.parametrize(
    ("post", "data", "field_id", "message"),
    [
        ({"name": "games.xlsx"}, b"PK\x03\x04", "id_file", "Choose a CSV file"),
        ({}, b"\xff\xfee\x00", "id_file", "The file is not UTF-8 text but UTF-16"),
        ({}, "Zoë".encode("latin-1"), "id_file", "The file is not UTF-8 text"),
        ({}, b"PK\x03\x04\x00\x00", "id_file", "The file is not a CSV file"),
        ({}, b"rank,player\n1,Ann\n", "id_file", "The header row must name the columns"),
        ({}, b"", "id_file", "The file is empty."),
        ({"league": ""}, b"x", "id_league", "Choose the league the results are for."),
        ({"what": "players", "name": "p.jsonl"}, b"{}", "id_file", "A players file is a CSV"),
    ],
)
def test_a_file_that_cannot_be_imported_is_an_error_by_its_field(
    post: dict[str, str], data: bytes, field_id: str, message: str
) -> None:
    setup = club_setup()
    league = a_league_to_fill(setup)
    before = db_state()
    page = preview(signed_in(setup.organiser), setup, league, data, **post)
    assert page.status_code == 200 and db_state() == before
    assert message in error_of(page, field_id)
    assert "<h1>Import players or results</h1>" in text(page)


def test_a_file_too_large_for_the_page_is_sent_to_the_command() -> None:
    setup = club_setup()
    data = b"name\n" + b"x" * MAX_UPLOAD_BYTES
    page = preview(signed_in(setup.organiser), setup, None, data, name="players.csv")
    assert "larger than 1 MB" in error_of(page, "id_file")
    assert "import_results command" in error_of(page, "id_file")


# -- players ---------------------------------------------------------------------------------


def test_players_are_previewed_then_added(jobs_run: Any) -> None:
    setup = club_setup()
    organiser = signed_in(setup.organiser)
    known = setup.players[0].name
    data = f"name\n{known}\nZed\nYan\n".encode()
    page = preview(organiser, setup, None, data, name="players.csv")
    html = text(page)
    assert "New players: 2: Zed, Yan." in html and "left as they are: 1." in html
    assert "the players of " + setup.club.name in html
    done = confirm(organiser, setup, page, data, name="players.csv")
    assert done["Location"] == reverse("club-players", kwargs={"club_id": setup.club.pk})
    assert Player.objects.filter(club=setup.club, name__in=["Zed", "Yan"]).count() == 2
    assert "2 players imported." in text(organiser.get(done["Location"]))


def test_a_players_file_with_a_name_twice_lists_it() -> None:
    setup = club_setup()
    player_create(club=setup.club, name="Ann")
    page = preview(signed_in(setup.organiser), setup, None, b"name\nZed\nZed\n", name="p.csv")
    html = text(page)
    assert "The file has a problem" in html and "Zed is named on row 2 already." in html
    assert (
        not Table.objects.filter(round__event__league__club=setup.club)
        .exclude(pk=setup.table.pk)
        .exists()
    )


# -- the page's limits, said before any work -------------------------------------------------
#
# Issue 28: a 60,000-row players file ran past gunicorn's 30 s and was killed (a 500,
# nothing stored); a players file of 65,535 names passed PostgreSQL's parameters a
# statement and was answered "database busy". The page says its limits, before any work.


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any check of a file's contents fails the test: the form refuses it first."""

    def fail(**kwargs: Any) -> Any:
        raise AssertionError("the file was checked")

    for name in ("check_players_import", "check_results_import"):
        monkeypatch.setattr(organise_imports.imports, name, fail)


@pytest.mark.parametrize(
    ("what", "name", "data", "says"),
    [
        (
            "players",
            "players.csv",
            "name\n" + "".join(f"P{n}\n" for n in range(60_000)),
            "The file has 60,000 rows of players; this page adds at most 5,000 players (a "
            "row each) at a time: split the file, or ask whoever runs the site to import it "
            "with the import_players command.",
        ),
        (
            "players",
            "players.csv",
            "name\n" + "\n".join(f"P{n}" for n in range(65_535)),
            "The file has 65,535 rows of players;",
        ),
        (
            "results",
            "games.csv",
            ",".join(HAND_COLUMNS) + "\n" + "x\n" * 20_001,
            "The file has 20,001 rows after the header; this page imports at most 20,000 rows",
        ),
        (
            "results",
            "games.jsonl",
            "{}\n" * 501,
            "The file has 501 lines; this page imports at most 500 games (a line each)",
        ),
    ],
)
def test_a_file_past_the_pages_rows_is_refused_before_any_work(
    no_work: None, what: str, name: str, data: str, says: str
) -> None:
    setup = club_setup()
    into = setup.league if what == "results" else None
    organiser = signed_in(setup.organiser)
    before = db_state()
    page = preview(organiser, setup, into, data.encode(), name=name)
    assert page.status_code == 200 and db_state() == before
    assert error_of(page, "id_file").startswith(says)
    hidden = {"what": what, "league": into.pk if into else "", "digest": "0" * 64}
    confirmed = organiser.post(confirm_url(setup), {**hidden, "file": upload(data.encode(), name)})
    assert error_of(confirmed, "id_file").startswith(says)
    assert db_state() == before


def test_the_form_says_the_pages_limits() -> None:
    setup = club_setup()
    html = text(signed_in(setup.organiser).get(import_url(setup)))
    assert "At most 1 MB, and 20,000 rows of results (500 games; JSON Lines: 500 lines)" in html
    assert "or 5,000 players." in html


def test_a_file_that_stores_more_games_than_the_page_takes_is_refused(
    jobs_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = games_file(jobs_run)
    setup = club_setup()
    league = a_league_to_fill(setup)
    monkeypatch.setattr(organise_imports, "MAX_GAMES", 2)
    page = preview(signed_in(setup.organiser), setup, league, data)
    assert error_of(page, "id_file").startswith(
        "The file has 3 games to store; this page imports at most 2 at a time"
    )


def test_many_players_are_added_in_a_few_statements(
    django_assert_max_num_queries: Any,
) -> None:
    setup = club_setup()
    organiser = signed_in(setup.organiser)
    data = ("name\n" + "\n".join(f"Imported {n}" for n in range(5_000))).encode()
    page = preview(organiser, setup, None, data, name="players.csv")
    with django_assert_max_num_queries(50):  # a statement a player was 10,000
        done = confirm(organiser, setup, page, data, name="players.csv")
    assert "5,000 players imported." in text(organiser.get(done["Location"]))
    assert Player.objects.filter(club=setup.club).count() == 5_000 + len(setup.players)


# -- a large results file: imported by a background job, its progress on a page -------------


@pytest.fixture
def large_from_one_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every results file stores "more than a few tables": the page's background way."""
    monkeypatch.setattr(organise_imports, "INLINE_TABLES", 0)


def progress_url(setup: ClubSetup, item: ResultsImport) -> str:
    return reverse("club-import-progress", kwargs={"club_id": setup.club.pk, "import_id": item.pk})


def test_a_large_file_is_imported_by_a_background_job_and_its_page_follows_it(
    jobs_run: Any, large_from_one_table: None
) -> None:
    data = games_file(jobs_run)
    setup = club_setup()
    league = a_league_to_fill(setup)
    organiser = signed_in(setup.organiser)
    page = preview(organiser, setup, league, data)
    with jobs_run() as owed:  # the confirmation answers before its job runs
        done = confirm(organiser, setup, page, data)
    item = ResultsImport.objects.get()
    assert done.status_code == 302 and done["Location"] == progress_url(setup, item)
    assert not Hand.objects.filter(table__round__event__league=league).exists()

    waiting = text(organiser.get(done["Location"]))
    assert "<h1>Importing into Last season</h1>" in waiting
    assert '<meta http-equiv="refresh" content="2">' in waiting
    assert 'class="step-now" aria-current="step"' in waiting
    assert '<span class="step-text">Waiting to start</span>' in waiting
    assert "Checking the file again and storing 3 tables (9 hands)" in waiting
    listed = text(organiser.get(import_url(setup)))
    assert f'href="{progress_url(setup, item)}">games.csv</a> into Last season: waiting' in listed

    ResultsImport.objects.filter(pk=item.pk).update(state="running", started_at=timezone.now())
    JobOwed.objects.filter(kind="import").update(attempts=1)
    running = text(organiser.get(done["Location"]))
    assert 'storing 3 tables (9 hands) <span class="meta">(since <time' in running
    assert "The import was interrupted 1 time" in running

    for callback in owed:  # the job, run after the confirmation's commit
        callback()
    finished = text(organiser.get(done["Location"]))
    assert "<h1>Imported into Last season</h1>" in finished
    assert "http-equiv" not in finished
    assert "Tables: 3 stored." in finished and "Hands: 9," in finished
    assert "New players: 7: =HYPERLINK(1), Bob, Cy, Dee, Eve, -Fay, Gil." in finished
    assert f'href="{reverse("league", kwargs={"league_id": league.pk})}"' in finished
    assert Hand.objects.filter(table__round__event__league=league).count() == 9
    assert download(Client(), "league-games-csv", league.pk) == data


def test_a_background_import_that_no_longer_fits_says_nothing_was_imported(
    jobs_run: Any, large_from_one_table: None
) -> None:
    data = games_file(jobs_run)
    setup = club_setup()
    league = a_league_to_fill(setup)
    organiser = signed_in(setup.organiser)
    page = preview(organiser, setup, league, data)
    with jobs_run() as owed:
        done = confirm(organiser, setup, page, data)
    night = event_create(league=league, name="Night 1", date=rows_date(data), rounds=2)
    table_create(round=night.rounds.get(number=1), number=1, players=setup.players[:4])
    before = db_state()
    for callback in owed:
        callback()
    assert db_state() == before
    html = text(organiser.get(done["Location"]))
    assert "<h1>Nothing was imported into Last season</h1>" in html
    assert "the file had 1 problem; something changed in the league since it was checked" in html
    assert 'class="step-refused"' in html and "http-equiv" not in html
    assert f'href="{import_url(setup)}?league={league.pk}">Check the file again</a>' in html


@pytest.mark.parametrize("visitor", VISITORS)
def test_only_the_clubs_organisers_may_follow_an_import(
    visitor: str, jobs_run: Any, large_from_one_table: None
) -> None:
    setup = club_setup()
    item = queued(setup, games_file(jobs_run))
    url = progress_url(setup, item)
    assert_refused(VISITORS[visitor](setup).get(url), visitor, url)


def test_an_import_is_followed_on_its_own_clubs_page_only(
    jobs_run: Any, large_from_one_table: None
) -> None:
    setup, other = club_setup(), club_setup(name="Other club")
    item = queued(setup, games_file(jobs_run))
    elsewhere = reverse(
        "club-import-progress", kwargs={"club_id": other.club.pk, "import_id": item.pk}
    )
    assert signed_in(other.organiser).get(elsewhere).status_code == 404
    assert signed_in(other.organiser).get(progress_url(setup, item)).status_code == 404
    missing = reverse(
        "club-import-progress", kwargs={"club_id": setup.club.pk, "import_id": 999_999}
    )
    assert signed_in(setup.organiser).get(missing).status_code == 404
    assert "Latest large imports" not in text(signed_in(other.organiser).get(import_url(other)))


def test_a_hostile_file_name_is_shown_as_text(jobs_run: Any, large_from_one_table: None) -> None:
    setup = club_setup()
    item = queued(setup, games_file(jobs_run), filename='<img src=x onerror="alert(1)">.csv')
    organiser = signed_in(setup.organiser)
    for page in (organiser.get(progress_url(setup, item)), organiser.get(import_url(setup))):
        html = text(page)
        assert "<img" not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;.csv" in html


def queued(setup: ClubSetup, data: bytes, *, filename: str = "games.csv") -> ResultsImport:
    """``data`` confirmed on the page for a new league of the setup's club."""
    league = a_league_to_fill(setup)
    organiser = signed_in(setup.organiser)
    page = preview(organiser, setup, league, data, name=filename)
    assert confirm(organiser, setup, page, data, name=filename).status_code == 302
    return ResultsImport.objects.get(league=league)


# -- text that is no text ----------------------------------------------------------------------


def test_a_json_lines_name_that_is_no_text_is_a_problem_on_the_page(jobs_run: Any) -> None:
    """Issue 28: a lone surrogate crashed the preview and the confirmation (a 500)."""
    setup = club_setup()
    league = a_league_to_fill(setup)
    line = json.dumps(
        {
            "event": "Night \ud800",
            "date": "2026-10-01",
            "round": 1,
            "table": 1,
            "players": ["Ann", "Bob", "Cy", "Dee"],
            "record": {"game": "bluke", "first_dealer": 0, "hands": [bluke_results(2)]},
        }
    ).encode()
    organiser = signed_in(setup.organiser)
    before = db_state()
    page = preview(organiser, setup, league, line, name="games.jsonl")
    assert page.status_code == 200
    assert "Event holds half of a surrogate pair (\\ud800 to \\udfff)" in text(page)
    hidden = {"what": "results", "league": league.pk, "digest": hashlib.sha256(line).hexdigest()}
    refused = organiser.post(confirm_url(setup), {**hidden, "file": upload(line, "games.jsonl")})
    assert refused.status_code == 200 and "Nothing was imported." in text(refused)
    assert db_state() == before
