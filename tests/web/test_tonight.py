"""The night's pages: the organiser's tonight page (check-in, leavers,
guests, drawing a round through a preview, publishing it, swapping and
moving players, drawing again), with every refusal shown by its form and
nothing stored; who may use it; the room screen; today's tables and the
"Tonight" link; CSRF; labels; constant query counts."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Attendance, Game, Player, SitOut, Table
from league.services.results import hand_submit
from league.services.seating import round_seating_commit, round_seating_draw
from league.web.search import NUL_REFUSED
from tests.support.factories import PlayerFactory, UserFactory
from tests.support.markup import field, inputs_of, text
from tests.support.records import bluke_results, buck_takes_all
from tests.support.setups import ClubSetup, club_setup, member
from tests.support.state import db_state
from tests.support.tonight import (
    draw_post,
    preview_seed,
    preview_tables,
    refusal,
    room_url,
    round_of,
    stored_seats,
    tonight_night,
    tonight_url,
)
from tests.support.web import sheet_url, signed_in

pytestmark = pytest.mark.django_db


def organiser(setup: ClubSetup) -> Client:
    return signed_in(setup.organiser)


# -- who may use the tonight page ------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"),
    [("organiser", 200), ("scorekeeper", 403), ("member", 403), ("outsider", 404),
     ("anonymous", 302)],
)  # fmt: skip
def test_only_organisers_use_the_tonight_page(who: str, status: int) -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=0)
    other = club_setup(name="Elsewhere")
    user = {
        "organiser": setup.organiser,
        "scorekeeper": setup.scorekeeper,
        "member": member(setup),
        "outsider": other.organiser,
        "anonymous": None,
    }[who]
    client = Client() if user is None else signed_in(user)
    url = tonight_url(event)
    before = db_state()

    page = client.get(url)
    posted = client.post(url, {"action": "check_in", "player": setup.players[0].pk})

    assert page.status_code == status
    if status == 200:
        assert posted.status_code == 302
        assert Attendance.objects.filter(event=event, player=setup.players[0]).exists()
        return
    assert posted.status_code == status
    assert db_state() == before
    if status == 302:
        for response in (page, posted):
            assert response["Location"] == f"{reverse('login')}?next={url}"
    if status == 403:
        assert "Only organisers can do this" in text(page)
        assert "Only organisers can do this" in text(posted)


def test_an_event_that_does_not_exist_is_404() -> None:
    setup = club_setup()
    url = reverse("event-tonight", kwargs={"event_id": 999_999})
    assert organiser(setup).get(url).status_code == 404
    assert Client().get(reverse("event-room", kwargs={"event_id": 999_999})).status_code == 404


# -- who is here -----------------------------------------------------------------------------


def test_the_list_shows_everyone_in_the_club_and_who_is_present() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=3)

    page = organiser(setup).get(tonight_url(event))

    html = text(page)
    assert page.status_code == 200
    assert "3 present." in html
    assert "Players checked in now play from round 1." in html
    for player in setup.players:
        assert player.name in html
    assert html.count('class="is-present"') == 3
    assert html.count('value="leave"') == 3
    assert html.count('value="check_in"') == len(setup.players) - 3
    assert f"by {setup.organiser.get_username()}" in html  # who checked them in


def test_the_search_filters_the_list_by_name_without_javascript() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=0)
    wanted = setup.players[3]

    page = organiser(setup).get(tonight_url(event), {"q": wanted.name.upper()})

    html = text(page)
    assert html.count('data-name="') == 1
    assert f'data-name="{wanted.name.lower()}"' in html
    assert field(page, "q")["value"] == wanted.name.upper()
    missing = organiser(setup).get(tonight_url(event), {"q": "nobody-has-this-name"})
    assert "No player's name contains" in text(missing)


def test_a_search_with_a_nul_is_refused_by_its_box() -> None:
    """PostgreSQL refuses a NUL in text (issue 28, item 3): a 400 with the message by
    the box and everyone listed, not a 500."""
    setup = club_setup()
    event, _ = tonight_night(setup, present=0)
    page = organiser(setup).get(tonight_url(event), {"q": "An\x00n"})
    assert page.status_code == 400
    html = text(page)
    assert f'<p class="refusal" id="search-error" role="alert">{NUL_REFUSED}</p>' in html
    box = field(page, "q")
    assert (box["value"], box["aria-invalid"], box["aria-describedby"]) == (
        "",
        "true",
        "search-error",
    )
    assert html.count('data-name="') == len(setup.players)
    assert "<title>Error: " in html


def test_check_in_is_one_tap_and_says_from_which_round() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=0)
    player = setup.players[2]
    client = organiser(setup)

    response = client.post(tonight_url(event), {"action": "check_in", "player": player.pk})

    assert response.status_code == 302
    assert response["Location"] == f"{tonight_url(event)}#attendance"
    row = Attendance.objects.get(event=event, player=player)
    assert (row.from_round, row.until_round, row.changed_by) == (1, None, setup.organiser)
    shown = client.get(response["Location"])
    assert f"{player.name} is checked in: plays from round 1." in text(shown)


def test_a_late_arrival_plays_from_the_next_round_to_draw() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=4)
    round_seating_commit(round=round_of(event, 1), seed=1)
    late = setup.players[6]

    response = organiser(setup).post(tonight_url(event), {"action": "check_in", "player": late.pk})

    assert response.status_code == 302
    assert Attendance.objects.get(event=event, player=late).from_round == 2
    page = organiser(setup).get(tonight_url(event))
    assert "Players checked in now play from round 2." in text(page)


def test_leaving_before_playing_takes_a_player_off_the_list() -> None:
    setup = club_setup()
    event, players = tonight_night(setup, present=4)
    client = organiser(setup)

    response = client.post(tonight_url(event), {"action": "leave", "player": players[0].pk})

    assert response.status_code == 302
    assert not Attendance.objects.filter(event=event, player=players[0]).exists()
    assert "is off the list" in text(client.get(response["Location"]))


def test_leaving_after_a_round_keeps_the_rounds_played() -> None:
    setup = club_setup()
    event, players = tonight_night(setup, present=4)
    round_seating_commit(round=round_of(event, 1), seed=1)
    client = organiser(setup)

    response = client.post(tonight_url(event), {"action": "leave", "player": players[0].pk})

    assert response.status_code == 302
    row = Attendance.objects.get(event=event, player=players[0])
    assert (row.from_round, row.until_round) == (1, 1)
    page = client.get(response["Location"])
    assert f"{players[0].name} leaves: their last round is 1." in text(page)
    assert "Left after round 1" in text(page)


@pytest.mark.parametrize("action", ["check_in", "leave"])
def test_an_unknown_player_is_refused_by_the_list(action: str) -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=2)
    before = db_state()

    response = organiser(setup).post(tonight_url(event), {"action": action, "player": 999_999})

    assert response.status_code == 400
    assert refusal(response, "attendance") == "That player does not exist."
    assert 'aria-describedby="attendance-error"' in text(response)
    assert db_state() == before


def test_another_clubs_player_is_refused() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=0)
    stranger = PlayerFactory()
    before = db_state()

    response = organiser(setup).post(
        tonight_url(event), {"action": "check_in", "player": stranger.pk}
    )

    assert response.status_code == 400
    assert "Not players of the event&#x27;s club" in refusal(response, "attendance")
    assert db_state() == before


def test_leaving_someone_who_is_not_checked_in_is_a_conflict() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=0)

    response = organiser(setup).post(
        tonight_url(event), {"action": "leave", "player": setup.players[0].pk}
    )

    assert response.status_code == 409
    assert "is not checked in" in refusal(response, "attendance")


def test_a_guest_is_added_and_checked_in() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=0)
    client = organiser(setup)

    response = client.post(tonight_url(event), {"action": "guest", "name": "Zelda Visitor"})

    assert response.status_code == 302
    guest = Player.objects.get(club=setup.club, name="Zelda Visitor")
    assert guest.is_guest
    assert Attendance.objects.get(event=event, player=guest).present
    page = client.get(response["Location"])
    assert "Guest Zelda Visitor is added and checked in: plays from round 1." in text(page)
    assert '<span class="tag">guest</span>' in text(page)


@pytest.mark.parametrize(
    ("name", "status", "message"),
    [("", 400, "Enter the guest&#x27;s name."), ("   ", 400, "Enter the guest&#x27;s name."),
     ("taken", 409, "The club already has a player named")],
)  # fmt: skip
def test_a_guest_without_a_name_or_with_a_taken_one_is_refused(
    name: str, status: int, message: str
) -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=0)
    posted = setup.players[0].name if name == "taken" else name
    before = db_state()

    response = organiser(setup).post(tonight_url(event), {"action": "guest", "name": posted})

    assert response.status_code == status
    assert message in refusal(response, "guest")
    attrs = field(response, "name")
    assert attrs["aria-invalid"] == "true"
    assert "guest-error" in attrs["aria-describedby"].split()
    assert db_state() == before


def test_an_unknown_action_changes_nothing() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup)
    before = db_state()
    response = organiser(setup).post(tonight_url(event), {"action": "explode"})
    assert response.status_code == 400
    assert "unknown request" in text(response)
    assert db_state() == before


# -- drawing a round -------------------------------------------------------------------------


def test_a_preview_shows_the_tables_and_stores_nothing() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    event, players = tonight_night(setup, present=10)
    tables_before = Table.objects.count()
    before = db_state()

    response = organiser(setup).post(tonight_url(event), draw_post(1, seed="5"))

    assert response.status_code == 200
    assert Table.objects.count() == tables_before
    assert db_state() == before
    expected = round_seating_draw(round=round_of(event, 1), seed=5)
    names = {player.pk: player.name for player in players}
    assert preview_tables(response) == [
        [names[pk] for pk in table.players] for table in expected.seating.tables
    ]
    html = text(response)
    assert "Preview of round 1: not published yet" in html
    assert html.count("deals first") == 2
    sitting_out = ", ".join(names[pk] for pk in expected.seating.sit_out)
    assert f"Sitting out: {sitting_out}." in html
    assert preview_seed(response) == 5
    assert 'value="publish"' in html
    assert 'value="redraw"' in html


def test_publish_stores_exactly_the_tables_previewed() -> None:
    setup = club_setup()
    event, players = tonight_night(setup, present=11)
    client = organiser(setup)
    shown = client.post(tonight_url(event), draw_post(1))  # a seed drawn by the service
    seed = preview_seed(shown)
    names = {player.pk: player.name for player in players}

    response = client.post(tonight_url(event), draw_post(1, "publish", seed=str(seed), replace=""))

    assert response.status_code == 302
    assert response["Location"] == f"{tonight_url(event)}#round-1"
    stored = stored_seats(event, 1)
    assert [[names[pk] for pk in table] for table in stored] == preview_tables(shown)
    first = round_of(event, 1)
    assert (first.seating_method, first.seating_seed) == ("balanced", seed)
    page = client.get(response["Location"])
    assert "Round 1 is published: 3 tables." in text(page)
    for table in Table.objects.filter(round=first):
        assert sheet_url(table) in text(page)


def test_publish_without_a_previewed_seed_is_refused() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup)
    before = db_state()
    response = organiser(setup).post(tonight_url(event), draw_post(1, "publish", seed=""))
    assert response.status_code == 400
    assert refusal(response, "draw-1") == "Draw a preview first, then publish it."
    assert db_state() == before


def test_draw_again_gives_a_new_seed() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup)
    response = organiser(setup).post(tonight_url(event), draw_post(1, "redraw", seed="5"))
    assert response.status_code == 200
    assert preview_seed(response) != 5  # 1 chance in 2**63 of a false alarm


def test_a_bad_seed_is_refused_by_its_field() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup)
    response = organiser(setup).post(tonight_url(event), draw_post(1, seed="seven"))
    assert response.status_code == 400
    assert refusal(response, "draw-1") == "The seed is a whole number."
    seed = next(i for i in inputs_of(response).inputs if i.get("id") == "draw-1-seed")
    assert seed["aria-invalid"] == "true"
    assert "draw-1-error" in seed["aria-describedby"].split()


def test_a_round_of_another_event_is_refused() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, rounds=2)
    before = db_state()
    response = organiser(setup).post(tonight_url(event), draw_post(9))
    assert response.status_code == 400
    assert "not one of this event" in text(response)
    assert db_state() == before


def test_too_few_players_present_is_said_by_the_draw_form() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=2)
    before = db_state()

    response = organiser(setup).post(tonight_url(event), draw_post(1))

    assert response.status_code == 409
    assert refusal(response, "draw-1").startswith("Too few present for round 1")
    assert db_state() == before


def test_round_two_counts_round_ones_meetings() -> None:
    setup = club_setup()
    event, players = tonight_night(setup, present=4)
    round_seating_commit(round=round_of(event, 1), seed=1)

    response = organiser(setup).post(tonight_url(event), draw_post(2, seed="2"))

    assert response.status_code == 200
    html = text(response)
    names = sorted(player.name for player in players)
    met = [
        line
        for line in html.split('<ul class="repeats">', 1)[1].split("</ul>", 1)[0].split("<li>")
        if "met in round 1" in line
    ]
    assert len(met) == 6  # four players at one table: every pair met in round 1
    assert any(names[0] in line and names[1] in line for line in met)


def test_a_drawn_round_is_not_drawn_over_without_replacing() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup)
    round_seating_commit(round=round_of(event, 1), seed=1)
    before = db_state()

    response = organiser(setup).post(
        tonight_url(event), draw_post(1, "publish", seed="3", replace="")
    )

    assert response.status_code == 409
    assert refusal(response, "draw-1") == (
        "Round 1 has been published meanwhile: these are its tables. Draw it again to replace them."
    )
    assert db_state() == before


def test_drawing_again_replaces_a_round_without_hands() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=8)
    round_seating_commit(round=round_of(event, 1), seed=1)
    old = set(Table.objects.filter(round__event=event).values_list("pk", flat=True))
    client = organiser(setup)

    shown = client.post(tonight_url(event), draw_post(1, seed="77", replace="1"))
    assert "Publishing replaces the round's current tables." in text(shown)
    response = client.post(tonight_url(event), draw_post(1, "publish", seed="77", replace="1"))

    assert response.status_code == 302
    new = set(Table.objects.filter(round__event=event).values_list("pk", flat=True))
    assert new and not new & old
    expected = round_seating_draw(round=round_of(event, 1), seed=77)
    assert stored_seats(event, 1) == [list(t.players) for t in expected.seating.tables]


def test_a_round_with_hands_cannot_be_drawn_again() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=4)
    draw = round_seating_commit(round=round_of(event, 1), seed=1)
    hand_submit(table=draw.tables[0], record=bluke_results(13))
    before = db_state()
    client = organiser(setup)

    page = client.get(tonight_url(event))
    response = client.post(tonight_url(event), draw_post(1, "publish", seed="3", replace="1"))

    assert "its seats are fixed now" in text(page)
    assert "Draw round 1 again" not in text(page)
    assert response.status_code == 409
    assert "has tables with hands played" in refusal(response, "draw-1")
    assert db_state() == before


# -- swapping and moving before the first hand -----------------------------------------------


def test_two_players_are_swapped_between_tables() -> None:
    setup = club_setup()
    event, players = tonight_night(setup, present=8)
    round_seating_commit(round=round_of(event, 1), seed=1)
    (one, two) = stored_seats(event, 1)
    client = organiser(setup)

    response = client.post(
        tonight_url(event), {"action": "swap", "round": "1", "first": one[0], "second": two[0]}
    )

    assert response.status_code == 302
    after = stored_seats(event, 1)
    assert after[0][0] == two[0] and after[1][0] == one[0]
    names = {player.pk: player.name for player in players}
    shown = text(client.get(response["Location"]))
    assert f"{names[one[0]]} and {names[two[0]]} swapped places in round 1." in shown


def test_a_player_is_moved_to_another_table() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=10)  # tables of 4, 3 and 3
    round_seating_commit(round=round_of(event, 1), seed=1)
    moving = stored_seats(event, 1)[0][0]

    response = organiser(setup).post(
        tonight_url(event), {"action": "move", "round": "1", "player": moving, "table": "2"}
    )

    assert response.status_code == 302
    after = stored_seats(event, 1)
    assert moving in after[1]
    assert [len(table) for table in after] == [3, 4, 3]


def test_a_move_the_rules_refuse_is_shown_by_the_move_form() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=9)  # tables of 3, 3 and 3
    round_seating_commit(round=round_of(event, 1), seed=1)
    moving = stored_seats(event, 1)[0][0]
    before = db_state()

    response = organiser(setup).post(
        tonight_url(event), {"action": "move", "round": "1", "player": moving, "table": "2"}
    )

    assert response.status_code == 400
    assert "A Bluke table seats 3 to 6" in refusal(response, "move-1")
    assert 'aria-describedby="move-1-error"' in text(response)
    assert db_state() == before


def test_swapping_a_player_with_themselves_is_refused_by_the_form() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=8)
    round_seating_commit(round=round_of(event, 1), seed=1)
    one = stored_seats(event, 1)[0][0]
    response = organiser(setup).post(
        tonight_url(event), {"action": "swap", "round": "1", "first": one, "second": one}
    )
    assert response.status_code == 400
    assert refusal(response, "swap-1") == "Choose two different players."


@pytest.mark.parametrize("kind", ["swap", "move"])
def test_seats_are_fixed_once_a_hand_is_entered(kind: str) -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=10)
    draw = round_seating_commit(round=round_of(event, 1), seed=1)
    hand_submit(table=draw.tables[0], record=bluke_results(13))
    tables = stored_seats(event, 1)
    before = db_state()
    data = (
        {"first": tables[0][0], "second": tables[1][0]}
        if kind == "swap"
        else {"player": tables[0][0], "table": "2"}
    )

    response = organiser(setup).post(tonight_url(event), {"action": kind, "round": "1", **data})

    assert response.status_code == 409
    assert refusal(response, f"{kind}-1") == "Round 1 has tables with hands played."
    assert db_state() == before


# -- the room screen -------------------------------------------------------------------------


def test_the_room_screen_is_public_and_updates_itself() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    event, _ = tonight_night(setup, present=10)
    draw = round_seating_commit(round=round_of(event, 1), seed=4)
    playing, done = draw.tables
    hand_submit(table=playing, record={"trump": "S", "maker": 0, "tricks": [3, 1, 1, 0]})
    hand_submit(table=done, record=buck_takes_all(1))  # taking all five wins the game

    page = Client().get(room_url(event))

    html = text(page)
    assert page.status_code == 200
    # live.js follows the night; without scripts the page reloads every 30 s
    assert '<noscript><meta http-equiv="refresh" content="30"></noscript>' in html
    assert 'src="/static/league/live.js"' in html
    assert "Night" in html and "round 1" in html
    assert "Entering, hand 2" in html
    assert "Complete" in html
    assert html.count("deals first") == 2
    sitting = SitOut.objects.filter(round__event=event).select_related("player")
    for sit_out in sitting:
        assert sit_out.player.name in html.split("Sitting out this round:", 1)[1]
    assert html.count("includes 1 game still being played") == 4  # the table still playing
    assert "counting games still being played" in html
    assert "fewer points (Buck Euchre counts down" in html


def test_the_room_standings_order_wins_then_points_by_the_games_direction() -> None:
    setup = club_setup()  # Bluke: more points are better
    event, _ = tonight_night(setup, present=4)
    draw = round_seating_commit(round=round_of(event, 1), seed=4)
    table = draw.tables[0]
    hand_submit(table=table, record=bluke_results(13, winner=2))
    table.refresh_from_db()
    seated = list(table.seat_players)

    html = text(Client().get(room_url(event)))

    rows = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    first = Player.objects.get(pk=seated[2]).name
    assert rows.index(first) < min(
        rows.index(Player.objects.get(pk=pk).name) for pk in seated if pk != seated[2]
    )
    assert "then more points" in html


def test_the_room_screen_before_any_draw() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup)
    html = text(Client().get(room_url(event)))
    assert "No tables drawn yet." in html
    assert "No game has started yet." in html


# -- today's tables and the link ---------------------------------------------------------------


def test_today_lists_todays_events_with_one_tap_to_each_table() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=8)
    draw = round_seating_commit(round=round_of(event, 1), seed=1)
    # setup.event (a day of 2026) is not today: not shown.

    html = text(Client().get(reverse("tonight")))

    assert event.name in html
    assert setup.event.name not in html
    for table in draw.tables:
        assert f'href="{sheet_url(table)}"' in html
    assert tonight_url(event) not in html  # the organiser's link, for organisers only
    assert tonight_url(event) in text(organiser(setup).get(reverse("tonight")))


def test_today_without_events_says_so() -> None:
    html = text(Client().get(reverse("tonight")))
    assert "No game night today." in html


def test_the_tonight_link_shows_only_on_an_events_day() -> None:
    setup = club_setup()
    home, league = reverse("home"), reverse("league", kwargs={"league_id": setup.league.pk})
    assert 'class="tonight-link"' not in text(Client().get(home))
    assert 'class="tonight-link"' not in text(Client().get(league))

    event, _ = tonight_night(setup)

    for url in (home, league):
        html = text(Client().get(url))
        assert f'<a href="{reverse("tonight")}"><strong>Tonight</strong>: {event.name}' in html
    other = club_setup(name="Quiet club")
    quiet = reverse("league", kwargs={"league_id": other.league.pk})
    assert 'class="tonight-link"' not in text(Client().get(quiet))


def test_the_tonight_link_follows_the_sites_date(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = club_setup()
    event, _ = tonight_night(setup)
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: tomorrow)
    assert 'class="tonight-link"' not in text(Client().get(reverse("home")))
    assert event.name not in text(Client().get(reverse("tonight")))


def test_the_event_page_links_the_room_and_for_organisers_the_tonight_page() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup)
    url = reverse("event", kwargs={"event_id": event.pk})
    for client, organises in (
        (Client(), False),
        (signed_in(setup.scorekeeper), False),
        (organiser(setup), True),
    ):
        html = text(client.get(url))
        assert room_url(event) in html
        assert (tonight_url(event) in html) is organises


# -- forms: CSRF and labels ---------------------------------------------------------------------


def test_csrf_is_enforced_on_the_tonight_page() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=0)
    client = Client(enforce_csrf_checks=True)
    client.force_login(setup.organiser)
    data = {"action": "check_in", "player": setup.players[0].pk}
    before = db_state()
    assert client.post(tonight_url(event), data).status_code == 403
    assert db_state() == before
    token = field(client.get(tonight_url(event)), "csrfmiddlewaretoken")["value"]
    assert (
        client.post(tonight_url(event), {**data, "csrfmiddlewaretoken": token}).status_code == 302
    )


def test_every_visible_input_of_the_tonight_page_has_a_label() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=8)
    round_seating_commit(round=round_of(event, 1), seed=1)
    client = organiser(setup)
    for page in (client.get(tonight_url(event)), client.post(tonight_url(event), draw_post(2))):
        assert page.status_code == 200
        found = inputs_of(page)
        visible = [i for i in found.inputs if i.get("type") != "hidden"]
        assert len(visible) > 5
        for attrs in visible:
            assert attrs["id"] in found.labels, attrs


# -- queries ------------------------------------------------------------------------------------


def _played_night(setup: ClubSetup, *, present: int) -> Any:
    """A night of today with round 1 drawn and a hand at its first table."""
    event, _ = tonight_night(setup, present=present, rounds=3)
    draw = round_seating_commit(round=round_of(event, 1), seed=1)
    hand_submit(table=draw.tables[0], record=bluke_results(13))
    return event


@pytest.mark.parametrize("present", [4, 15])
def test_the_tonight_page_queries_do_not_grow(django_assert_num_queries: Any, present: int) -> None:
    """Session, user, event (with league and club), role, then the tables'
    links, the rounds, tables, seatings and sit-outs, then the attendance and
    the players, the live updates' tag, and the players' replies."""
    setup = club_setup()
    event = _played_night(setup, present=present)
    client = organiser(setup)
    with django_assert_num_queries(13):
        assert client.get(tonight_url(event)).status_code == 200


@pytest.mark.parametrize("present", [4, 15])
def test_the_room_screen_queries_do_not_grow(django_assert_num_queries: Any, present: int) -> None:
    """The event (with league and club), the rounds, tables, seatings and
    sit-outs, and the live updates' tag."""
    setup = club_setup()
    event = _played_night(setup, present=present)
    with django_assert_num_queries(6):
        assert Client().get(room_url(event)).status_code == 200


@pytest.mark.parametrize("nights", [1, 3])
def test_the_today_page_queries_do_not_grow(django_assert_num_queries: Any, nights: int) -> None:
    """Anonymous: the events, rounds, tables, seatings. Signed in: the
    session, the user and the clubs they organise besides."""
    for number in range(nights):
        _played_night(club_setup(name=f"Club {number}"), present=4 + 4 * number)
    with django_assert_num_queries(4):
        assert Client().get(reverse("tonight")).status_code == 200
    client = signed_in(UserFactory())
    with django_assert_num_queries(7):
        assert client.get(reverse("tonight")).status_code == 200


@pytest.mark.parametrize("present", [4, 15])
def test_a_preview_takes_the_same_queries_for_few_players_or_many(
    django_assert_num_queries: Any, present: int
) -> None:
    """The tonight page's reads, then the draw's: who is present and the
    history of who met whom (the league's earlier events, their seatings and
    sit-outs). Nothing is written."""
    setup = club_setup()
    event = _played_night(setup, present=present)
    client = organiser(setup)
    with django_assert_num_queries(17):
        assert client.post(tonight_url(event), draw_post(2, seed="3")).status_code == 200


# -- on a phone (issue 29, item 5) -------------------------------------------------------------


def test_the_next_draw_comes_before_who_is_here() -> None:
    """A phone shows the top of the page first: the round to draw is there."""
    setup = club_setup()
    event, _ = tonight_night(setup, present=8)

    html = text(organiser(setup).get(tonight_url(event)))

    draw_at = html.index('id="round-1"')
    assert html.index('class="first-draw"') < draw_at < html.index('id="attendance"')
    assert html.count('id="round-1"') == 1  # not shown again under "Rounds"
    assert html.index('id="attendance"') < html.index('id="round-2"')


def test_once_drawn_the_rounds_keep_their_order_below_who_is_here() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=8)
    round_seating_commit(round=round_of(event, 1), seed=1)

    html = text(organiser(setup).get(tonight_url(event)))

    # round 2 is the next to draw and comes first; round 1 stays in its place
    assert html.index('id="round-2"') < html.index('id="attendance"') < html.index('id="round-1"')


def test_the_list_is_collapsed_to_tonights_people_until_asked_for_all() -> None:
    """On a phone the club's whole list hides behind the search (CSS hides the
    ``not-here`` rows of a ``collapsed`` list); ``?all=1`` or a search shows them."""
    setup = club_setup()
    event, _ = tonight_night(setup, present=3)
    client = organiser(setup)

    collapsed = text(client.get(tonight_url(event)))
    shown_all = text(client.get(tonight_url(event), {"all": "1"}))
    searched = text(client.get(tonight_url(event), {"q": setup.players[5].name}))

    assert 'class="checkin collapsed"' in collapsed
    assert collapsed.count('class="not-here"') == len(setup.players) - 3
    assert f"Show all {len(setup.players)} players of the club" in collapsed
    assert f'href="{tonight_url(event)}?all=1#attendance"' in collapsed
    for html in (shown_all, searched):
        assert 'class="checkin"' in html
        assert "Show all" not in html


def test_no_show_all_link_when_everyone_is_here() -> None:
    setup = club_setup()
    event, _ = tonight_night(setup, present=len(setup.players))
    html = text(organiser(setup).get(tonight_url(event)))
    assert "Show all" not in html


def test_check_in_is_not_offered_when_no_round_can_take_a_player() -> None:
    """Every round drawn: a check-in would be refused, so no button or guest
    form is offered; those present may still leave."""
    setup = club_setup()
    event, _ = tonight_night(setup, present=8, rounds=2)
    for number in (1, 2):
        round_seating_commit(round=round_of(event, number), seed=number)

    html = text(organiser(setup).get(tonight_url(event)))

    assert 'value="check_in"' not in html
    assert 'value="guest"' not in html and 'id="guest-name"' not in html
    assert html.count('value="leave"') == 8


def test_a_refused_form_answers_at_its_own_place_on_the_page() -> None:
    """The forms post to their own anchor, and every page loads site.js, which
    brings the first refusal into view and focuses it."""
    setup = club_setup()
    event, _ = tonight_night(setup, present=0)
    client = organiser(setup)

    page = text(client.get(tonight_url(event)))
    refused = client.post(f"{tonight_url(event)}", {"action": "guest", "name": ""})

    assert f'action="{tonight_url(event)}#attendance"' in page
    assert f'action="{tonight_url(event)}#guest-name"' in page
    assert 'src="/static/league/site.js"' in page
    assert refused.status_code == 400
    assert 'id="guest-error" role="alert"' in text(refused)
