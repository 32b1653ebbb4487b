"""A league's season on the pages: the format in words, the season columns and
the players not yet qualified on the league and standings pages, the season
format's form, the final's page (a preview, then the final made from it), the
final's result on the league page, and the standings download."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from league import standings, tasks
from league.models import AuditEntry, Event, StandingsOwed, Table
from league.services.clubs import membership_set
from league.services.finals import final_create
from tests.support.factories import ClubFactory, PlayerFactory, UserFactory
from tests.support.markup import field, inputs_of, text
from tests.support.seasons import POINTS, SeasonLeague, play, season_league
from tests.support.state import db_state
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db


def organiser(built: SeasonLeague) -> Client:
    user = UserFactory()
    membership_set(club=built.club, user=user, role="organiser")
    return signed_in(user)


def season_url(built: SeasonLeague) -> str:
    return reverse("league-season", kwargs={"league_id": built.league.pk})


def final_url(built: SeasonLeague) -> str:
    return reverse("league-final", kwargs={"league_id": built.league.pk})


def season_post(**changes: str) -> dict[str, str]:
    """The season form as posted, POINTS at every size, best 2 nights, 3 games."""
    data = {"scoring": "points", "best_nights": "2", "min_games": "3"}
    for size, points in POINTS.items():
        for place, value in enumerate(points, start=1):
            data[f"points_{size}_{place}"] = str(value)
    return {**data, **changes}


# -- the league's pages --------------------------------------------------------------------


def test_the_league_page_shows_the_format_the_points_and_who_is_not_yet_qualified(
    client: Client,
) -> None:
    built = season_league()
    standings.standings_refresh(league=built.league)
    page = text(client.get(reverse("league", kwargs={"league_id": built.league.pk})))
    assert (
        "Season: best 2 of 3 nights; 4-2-1-0 at tables of four; 6-4-3-2-1-0 at tables of six; "
        "5-3-2-1-0 at tables of five; 3-1-0 at tables of three; at least 3 games to qualify."
    ) in page
    assert "Ordered by season points, then average place, then wins, then head to head" in page
    heading = page.index("Not yet qualified: fewer than 3 games")
    # the qualified first, with their points; those not yet qualified under the heading
    assert page.index(">Dee<") < heading < page.index(">Ada<") < page.index(">Gus<")
    assert "<td>1.5</td>" in page and "<td>7</td>" in page


def test_the_standings_page_and_a_league_without_a_format(client: Client) -> None:
    built = season_league()
    standings.standings_refresh(league=built.league)
    url = reverse("league-all-standings", kwargs={"league_id": built.league.pk})
    page = text(client.get(url))
    assert "Season points" in page and "Nights counted" in page
    assert "Not yet qualified" in page

    plain = season_league(season=None)
    standings.standings_refresh(league=plain.league)
    page = text(client.get(reverse("league", kwargs={"league_id": plain.league.pk})))
    assert "Season: ranked by wins, then average place." in page
    assert "Season points" not in page and "Not yet qualified" not in page


def test_a_nights_page_shows_its_points_and_nobody_unqualified(client: Client) -> None:
    built = season_league()
    standings.standings_refresh(league=built.league)
    page = text(client.get(reverse("event", kwargs={"event_id": built.events[2].pk})))
    assert "Season points" in page
    assert "Not yet qualified" not in page  # the games to qualify are the season's
    assert "players not yet qualified" not in page


def test_the_standings_download_has_the_season_columns_and_the_format(client: Client) -> None:
    built = season_league()
    standings.standings_refresh(league=built.league)
    response = client.get(reverse("league-standings-csv", args=[built.league.pk]))
    body = b"".join(response.streaming_content).decode()
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [(r["player"], r["season_points"], r["nights_counted"], r["qualified"]) for r in rows][
        :5
    ] == [
        ("Cy", "7.0", "2", "True"),
        ("Eve", "7.0", "2", "True"),
        ("Ben", "5.0", "2", "True"),
        ("Dee", "1.5", "2", "True"),
        ("Ada", "4.0", "2", "False"),
    ]
    assert {r["season_format"] for r in rows} == {
        "best 2 of 3 nights; 4-2-1-0 at tables of four; 6-4-3-2-1-0 at tables of six; "
        "5-3-2-1-0 at tables of five; 3-1-0 at tables of three; at least 3 games to qualify"
    }


# -- the season format's form --------------------------------------------------------------


def test_an_organiser_sets_the_format_on_the_page() -> None:
    built = season_league(season=None)
    client = organiser(built)
    form = client.get(season_url(built))
    radios = [i for i in inputs_of(form).inputs if i.get("name") == "scoring"]
    assert [r["value"] for r in radios if "checked" in r] == ["order"]
    assert field(form, "points_4_1")["value"] == "4"  # the suggestion, 4-2-1-0
    response = client.post(season_url(built), season_post())
    assert response.status_code == 302
    assert response["Location"] == reverse("league", kwargs={"league_id": built.league.pk})
    built.league.refresh_from_db()
    assert built.league.season == {"points_by_place": POINTS, "best_nights": 2, "min_games": 3}
    assert AuditEntry.objects.filter(action="league.season_changed").count() == 1
    assert StandingsOwed.objects.filter(league=built.league, event=None).exists()
    shown = text(client.get(response["Location"]))
    assert "The season format of “Autumn Bluke” is saved" in shown

    # the form shows the format as stored; back to today's order
    again = client.get(season_url(built))
    assert field(again, "points_4_2")["value"] == "2"
    assert field(again, "best_nights")["value"] == "2"
    assert client.post(season_url(built), season_post(scoring="order")).status_code == 302
    built.league.refresh_from_db()
    assert built.league.season is None


@pytest.mark.parametrize(
    ("changes", "shown"),
    [
        ({"points_4_3": "3"}, "place 3 has more than place 2"),
        ({"points_3_2": ""}, "Enter the points for 2nd place at a table of 3 (0 for none)."),
        ({"points_5_1": "five"}, "Enter the points as a number, such as 2 or 2.5."),
        ({"best_nights": "0"}, "Count 1 night at least"),
        ({"min_games": "-1"}, "Enter 0 games or more."),
        ({"scoring": "elo"}, "Choose one of the two ways from the list."),
        ({"points_6_1": "1e400"}, "Enter"),
    ],
)
def test_a_refused_format_is_shown_by_its_field_and_nothing_is_stored(
    changes: dict[str, str], shown: str
) -> None:
    built = season_league(season=None, played=False)
    client = organiser(built)
    before = db_state()
    response = client.post(season_url(built), season_post(**changes))
    assert response.status_code == 400
    page = text(response)
    assert shown in page
    assert 'class="error-summary"' in page
    assert db_state() == before


def test_only_the_clubs_organisers_open_the_season_pages() -> None:
    built = season_league(played=False)
    scorekeeper = UserFactory()
    membership_set(club=built.club, user=scorekeeper, role="scorekeeper")
    member = UserFactory()
    PlayerFactory(club=built.club, user=member)
    outsider = UserFactory()
    PlayerFactory(club=ClubFactory(), user=outsider)
    for url in (season_url(built), final_url(built)):
        assert signed_in(scorekeeper).get(url).status_code == 403
        assert signed_in(member).get(url).status_code == 403
        assert signed_in(outsider).get(url).status_code == 404
        assert Client().get(url).status_code == 302
        assert signed_in(scorekeeper).post(url, {"players": "3"}).status_code == 403
    assert not Event.objects.filter(is_final=True).exists()


def test_the_hub_and_the_league_form_lead_to_the_season_pages() -> None:
    built = season_league(played=False)
    client = organiser(built)
    hub = text(client.get(reverse("club-manage", kwargs={"club_id": built.club.pk})))
    assert season_url(built) in hub and final_url(built) in hub
    edit = text(client.get(reverse("league-edit", kwargs={"league_id": built.league.pk})))
    assert season_url(built) in edit
    assert "Best 2 nights; 4-2-1-0 at tables of four" in edit


# -- the final -------------------------------------------------------------------------------


def test_the_final_is_previewed_then_made_with_the_tables_previewed() -> None:
    built = season_league()
    tasks.league_standings_refresh(built.league.pk)
    client = organiser(built)
    page = text(client.get(final_url(built)))
    assert "4 players are qualified in the standings now." in page

    before = db_state()
    preview = client.post(
        final_url(built), {"players": "4", "name": "", "date": "2026-12-01", "action": "preview"}
    )
    assert preview.status_code == 200
    shown = text(preview)
    assert db_state() == before  # nothing stored
    for name in ("Cy", "Eve", "Ben", "Dee"):
        assert name in shown
    assert "Table 1 (the top table)" in shown
    seed = shown.split('name="seed" value="')[1].split('"')[0]

    # "make" for another number than previewed only previews again
    other = client.post(
        final_url(built),
        {"players": "3", "date": "2026-12-01", "seed": seed, "previewed": "4", "action": "make"},
    )
    assert other.status_code == 200 and db_state() == before

    made = client.post(
        final_url(built),
        {"players": "4", "date": "2026-12-01", "seed": seed, "previewed": "4", "action": "make"},
    )
    assert made.status_code == 302
    final = Event.objects.get(is_final=True)
    assert final.league_id == built.league.pk and final.name == "Final"
    assert Table.objects.filter(round__event=final).count() == 1
    page = text(organiser(built).get(final_url(built)))
    assert "Run it on the Tonight page" in page

    # the league page shows the final above the season's standings
    [table] = Table.objects.filter(round__event=final)
    play(table, (0, 0, 0))
    league_page = text(Client().get(reverse("league", kwargs={"league_id": built.league.pk})))
    assert league_page.index('id="final-heading"') < league_page.index('id="standings-heading"')
    assert "Season standings" in league_page
    assert "Result of Final" in league_page
    winner = table.seatings.get(seat=0).player.name
    assert '<tr class="champion"><td>1</td><th scope="row"><a href="/players/' in league_page
    assert winner in league_page.split('class="champion"')[1][:200]
    night = text(Client().get(reverse("event", kwargs={"event_id": final.pk})))
    assert "Its games count apart from the season" in night


def test_a_refused_final_is_shown_by_the_players_and_nothing_is_stored() -> None:
    built = season_league()
    client = organiser(built)
    before = db_state()
    response = client.post(
        final_url(built), {"players": "9", "date": "2026-12-01", "action": "preview"}
    )
    assert response.status_code == 400
    assert "Only 4 players are qualified for the final; choose at most 4." in text(response)
    response = client.post(final_url(built), {"players": "", "date": "", "action": "preview"})
    assert response.status_code == 400
    page = text(response)
    assert "Enter how many players play the final." in page
    assert "Enter the final&#x27;s date." in page or "Enter the final's date." in page
    assert db_state() == before


def test_a_made_final_is_shown_not_made_again() -> None:
    built = season_league()
    final_create(league=built.league, players=3, seed=1)
    client = organiser(built)
    before = db_state()
    response = client.post(
        final_url(built),
        {"players": "3", "date": "2026-12-01", "seed": "1", "previewed": "3", "action": "make"},
    )
    assert response.status_code == 200
    assert "A league has one final." in text(response)
    assert db_state() == before


def test_the_room_screen_ranks_a_season_night_by_its_points_for_places(client: Client) -> None:
    """Night 1 of the hand-worked season: at the table of four Ada and Cy share
    first (4 + 2) / 2 = 3 each, Ben third 1, Dee last 0; at the table of three
    Eve 3, Fay 1, Gus 0. Ties on points go by the average place, then wins."""
    built = season_league()
    page = text(client.get(reverse("event-room", kwargs={"event_id": built.events[0].pk})))
    standings_part = page[page.index("Tonight's standings so far") :]
    seated = [name for name in built.players if name != "Hal"]  # Hal came on night 2
    order = sorted(seated, key=lambda name: standings_part.index(f">{name}<"))
    assert order == ["Ada", "Cy", "Eve", "Fay", "Ben", "Gus", "Dee"]
    assert "Season points" in standings_part
    assert "Order: more season points, then the better average place" in standings_part

    plain = season_league(season=None)
    page = text(client.get(reverse("event-room", kwargs={"event_id": plain.events[0].pk})))
    assert "Season points" not in page and "Order: more wins" in page


def test_a_players_page_shows_their_season_points_and_whether_they_qualify(
    client: Client,
) -> None:
    built = season_league()
    standings.standings_refresh(league=built.league)
    dee = text(client.get(reverse("player", kwargs={"player_id": built.players["Dee"].pk})))
    assert "Season points" in dee and "not yet qualified" not in dee
    hal = text(client.get(reverse("player", kwargs={"player_id": built.players["Hal"].pk})))
    assert "(not yet qualified)" in hal  # one game of the three to qualify

    plain = season_league(season=None)
    standings.standings_refresh(league=plain.league)
    ada = text(client.get(reverse("player", kwargs={"player_id": plain.players["Ada"].pk})))
    assert "Season points" not in ada
