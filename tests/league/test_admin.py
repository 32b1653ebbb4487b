"""The admin, for superusers: its writes go through the services (a refusal
is a message, nothing saved), and what the services guard is read-only."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.db.models import Model
from django.forms import CheckboxInput
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import (
    Club,
    Event,
    Game,
    League,
    Membership,
    Player,
    Rating,
    RatingScope,
    Standing,
    Table,
)
from league.services import clubs, fixtures, results
from league.services.accounts import api_token_create

pytestmark = pytest.mark.django_db

ORGANISER, SCOREKEEPER = Membership.Role.ORGANISER, Membership.Role.SCOREKEEPER
LEAGUE_MODELS = sorted(
    (model for model in admin.site._registry if model._meta.app_label == "league"),
    key=lambda model: model.__name__,
)


@dataclass
class Setup:
    club: Club
    organiser: Membership
    scorekeeper: Membership
    players: list[Player]
    league: League
    event: Event
    table: Table


def make_users(n: int) -> list[Any]:
    start = get_user_model().objects.count()
    return [get_user_model().objects.create_user(username=f"member{start + i}") for i in range(n)]


def setup_club() -> Setup:
    """A club with an organiser and a scorekeeper, five players, a Buck
    Euchre league and event, and a table of four with one hand played."""
    organiser, scorekeeper = make_users(2)
    club = clubs.club_create(name="Northside", organiser=organiser)
    clubs.membership_set(club=club, user=scorekeeper, role=SCOREKEEPER)
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    players = [clubs.player_create(club=club, name=name) for name in names]
    league = fixtures.league_create(club=club, name="Autumn", game=Game.BUCK_EUCHRE)
    event = fixtures.event_create(league=league, name="Night 1", date=datetime.date(2026, 9, 3))
    table = fixtures.table_create(round=event.rounds.get(), number=1, players=players[:4])
    results.hand_submit(table=table, record={"trump": "S", "maker": 1, "tricks": [0, 5, 0, 0]})
    table.refresh_from_db()
    return Setup(
        club=club,
        organiser=club.memberships.get(user=organiser),
        scorekeeper=club.memberships.get(user=scorekeeper),
        players=players,
        league=league,
        event=event,
        table=table,
    )


@pytest.fixture
def setup(db: None) -> Setup:
    return setup_club()


@pytest.fixture
def superuser_client(db: None) -> Client:
    superuser = get_user_model().objects.create_superuser(
        username="root", email="root@example.org", password="a-test-password"
    )
    client = Client()
    client.force_login(superuser)
    return client


def url(model: type[Model], view: str, *args: Any) -> str:
    return reverse(f"admin:league_{model._meta.model_name}_{view}", args=args)


def form_data(response: Any) -> dict[str, Any]:
    """What the browser would post back, unchanged, from an admin change page
    (the main form, and each inline's management form and rows)."""
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]
    data: dict[str, Any] = {}
    for form in forms:
        for name, field in form.fields.items():
            value = form[name].value()
            if isinstance(field.widget, CheckboxInput):
                if value:
                    data[form.add_prefix(name)] = "on"
            elif value is not None:
                data[form.add_prefix(name)] = value
    return data


def messages_of(response: Any) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def memberships(club: Club) -> list[tuple[str, str]]:
    return sorted(club.memberships.values_list("user__username", "role"))


# -- memberships: the club keeps an organiser -----------------------------------------


@pytest.mark.parametrize("change", ["delete", "demote"])
def test_the_membership_inline_cannot_take_away_the_last_organiser(
    setup: Setup, superuser_client: Client, change: str
) -> None:
    page = url(Club, "change", setup.club.pk)
    data = form_data(superuser_client.get(page))
    row = next(k for k, v in data.items() if k.endswith("-id") and v == setup.organiser.pk)
    prefix = row.removesuffix("-id")
    if change == "delete":
        data[f"{prefix}-DELETE"] = "on"
    else:
        data[f"{prefix}-role"] = SCOREKEEPER
    data["name"] = "Renamed in the same save"
    before = memberships(setup.club)

    response = superuser_client.post(page, data, follow=True)

    assert response.status_code == 200
    assert response.redirect_chain == [(page, 302)]
    assert "Nothing was saved: a club keeps at least one organiser" in messages_of(response)
    assert memberships(setup.club) == before
    setup.club.refresh_from_db()
    assert setup.club.name == "Northside"  # the whole save was rolled back


def test_the_membership_inline_can_hand_the_organiser_role_over(
    setup: Setup, superuser_client: Client
) -> None:
    page = url(Club, "change", setup.club.pk)
    data = form_data(superuser_client.get(page))
    rows = {v: k.removesuffix("-id") for k, v in data.items() if k.endswith("-id")}
    data[f"{rows[setup.organiser.pk]}-DELETE"] = "on"
    data[f"{rows[setup.scorekeeper.pk]}-role"] = ORGANISER

    response = superuser_client.post(page, data)

    assert response.status_code == 302
    assert memberships(setup.club) == [(setup.scorekeeper.user.username, ORGANISER)]


def test_deleting_the_last_organisers_membership_is_refused(
    setup: Setup, superuser_client: Client
) -> None:
    response = superuser_client.post(
        url(Membership, "delete", setup.organiser.pk), {"post": "yes"}, follow=True
    )

    assert response.status_code == 200
    assert response.redirect_chain == [(url(Membership, "change", setup.organiser.pk), 302)]
    assert "Nothing was saved: a club keeps at least one organiser" in messages_of(response)
    assert Membership.objects.filter(pk=setup.organiser.pk).exists()


def test_the_bulk_delete_action_cannot_remove_the_last_organiser(
    setup: Setup, superuser_client: Client
) -> None:
    logged = LogEntry.objects.count()
    selected = [setup.organiser.pk, setup.scorekeeper.pk]

    response = superuser_client.post(
        url(Membership, "changelist"),
        {"action": "delete_selected", "_selected_action": selected, "post": "yes"},
        follow=True,
    )

    assert response.status_code == 200
    assert "Nothing was saved: a club keeps at least one organiser" in messages_of(response)
    assert not any(m.startswith("Successfully deleted") for m in messages_of(response))
    assert Membership.objects.filter(pk__in=selected).count() == 2
    assert LogEntry.objects.count() == logged


def test_a_scorekeepers_membership_can_be_deleted(setup: Setup, superuser_client: Client) -> None:
    response = superuser_client.post(
        url(Membership, "delete", setup.scorekeeper.pk), {"post": "yes"}
    )

    assert response.status_code == 302
    assert memberships(setup.club) == [(setup.organiser.user.username, ORGANISER)]


# -- tables: read-only, no raw JSON ---------------------------------------------------


def test_a_table_with_hands_cannot_be_reseated_in_the_admin(
    setup: Setup, superuser_client: Client
) -> None:
    table = setup.table
    before = Table.objects.filter(pk=table.pk).values().get()
    seatings = list(table.seatings.values_list("seat", "player"))

    response = superuser_client.post(
        url(Table, "change", table.pk),
        {
            "round": table.round_id,
            "number": table.number,
            "game": table.game,
            "players": 4,
            "first_dealer": 2,
            "seatings-TOTAL_FORMS": 1,
            "seatings-INITIAL_FORMS": 1,
            "seatings-0-id": table.seatings.get(seat=0).pk,
            "seatings-0-player": setup.players[4].pk,
        },
    )

    assert response.status_code == 403
    assert Table.objects.filter(pk=table.pk).values().get() == before
    assert list(table.seatings.values_list("seat", "player")) == seatings


def test_the_table_page_shows_seats_and_totals_as_text_not_json(
    setup: Setup, superuser_client: Client
) -> None:
    table = setup.table

    response = superuser_client.get(url(Table, "change", table.pk))

    assert response.status_code == 200
    content = response.content.decode()
    assert "field-totals" not in content
    assert "field-seat_players" not in content
    assert json.dumps(table.totals) not in content
    assert json.dumps(table.seat_players) not in content
    for seat, player in enumerate(setup.players[:4]):
        assert f"seat {seat}: {player.name} ({table.totals[seat]})" in content
    assert response.context["has_change_permission"] is False  # a view, not a form


@pytest.mark.parametrize("model", [Club, Player, League, Event, Table])
def test_deleting_what_the_services_do_not_delete_is_not_offered(
    setup: Setup, superuser_client: Client, model: type[Model]
) -> None:
    obj = model._default_manager.first()
    assert obj is not None

    response = superuser_client.post(url(model, "delete", obj.pk), {"post": "yes"})

    assert response.status_code == 403
    assert model._default_manager.filter(pk=obj.pk).exists()


@pytest.mark.parametrize("model", [League, Event, Table])
def test_adding_what_the_api_creates_is_not_offered(
    superuser_client: Client, model: type[Model]
) -> None:
    assert superuser_client.get(url(model, "add")).status_code == 403


# -- writes the admin keeps, through the services -------------------------------------


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """The calls of the clubs services that the admin makes, recorded."""
    recorded: list[tuple[str, dict[str, Any]]] = []
    for name in ("player_create", "player_update", "club_update"):
        service = getattr(clubs, name)

        def spy(*, _service: Any = service, _name: str = name, **kwargs: Any) -> Any:
            recorded.append((_name, kwargs))
            return _service(**kwargs)

        monkeypatch.setattr(clubs, name, spy)
    return recorded


def test_renaming_a_player_goes_through_the_service(
    setup: Setup, superuser_client: Client, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    player = setup.players[0]
    page = url(Player, "change", player.pk)
    data = form_data(superuser_client.get(page))

    response = superuser_client.post(page, {**data, "name": "Annie"})

    assert response.status_code == 302
    player.refresh_from_db()
    assert player.name == "Annie"
    assert [(name, kwargs["name"]) for name, kwargs in calls] == [("player_update", "Annie")]


def test_a_players_duplicate_name_is_refused_with_a_message(
    setup: Setup, superuser_client: Client, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    player = setup.players[0]
    page = url(Player, "change", player.pk)
    data = form_data(superuser_client.get(page))

    response = superuser_client.post(page, {**data, "name": "Bo"}, follow=True)

    assert response.status_code == 200
    assert response.redirect_chain == [(page, 302)]
    assert "Nothing was saved: the club already has a player named 'Bo'" in messages_of(response)
    player.refresh_from_db()
    assert player.name == "Ann"
    assert [name for name, _ in calls] == ["player_update"]


def test_adding_a_player_goes_through_the_service(
    setup: Setup, superuser_client: Client, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    response = superuser_client.post(
        url(Player, "add"), {"club": setup.club.pk, "name": "Flo", "user": ""}
    )

    assert response.status_code == 302
    assert setup.club.players.filter(name="Flo").exists()
    assert [name for name, _ in calls] == ["player_create"]


def test_adding_a_club_with_its_organiser(superuser_client: Client) -> None:
    (user,) = make_users(1)
    page = url(Club, "add")
    data = form_data(superuser_client.get(page))
    data.update(
        {
            "name": "Southside",
            "slug": "southside",
            "memberships-TOTAL_FORMS": 1,
            "memberships-0-user": user.pk,
            "memberships-0-role": ORGANISER,
        }
    )

    response = superuser_client.post(page, data)

    assert response.status_code == 302
    club = Club.objects.get(slug="southside")
    assert memberships(club) == [(user.username, ORGANISER)]


def test_renaming_a_league_and_moving_an_event(setup: Setup, superuser_client: Client) -> None:
    for obj, changes in (
        (setup.league, {"name": "Winter"}),
        (setup.event, {"name": "Night one", "date": "2026-09-10"}),
    ):
        page = url(type(obj), "change", obj.pk)
        data = form_data(superuser_client.get(page))
        assert superuser_client.post(page, {**data, **changes}).status_code == 302
    setup.league.refresh_from_db()
    setup.event.refresh_from_db()
    assert setup.league.name == "Winter"
    assert (setup.event.name, setup.event.date) == ("Night one", datetime.date(2026, 9, 10))
    assert setup.league.options == {}


# -- every page renders ------------------------------------------------------------


def test_the_admin_shows_the_expected_league_models() -> None:
    names = {model.__name__ for model in LEAGUE_MODELS}
    assert {"Club", "Membership", "Player", "League", "Event", "Table", "Hand"} <= names
    assert "RatingHistory" not in names and "IdempotencyKey" not in names


def derived_rows(setup: Setup) -> None:
    """A standing, a rating scope and a rating, as the jobs would store them."""
    now = timezone.now()
    player = setup.players[0]
    Standing.objects.create(
        league=setup.league,
        player=player,
        games=1,
        wins=1,
        average_place=1.0,
        total_points=0,
        average_points=0.0,
        hands=1,
        rank=1,
        computed_at=now,
    )
    scope = RatingScope.objects.get_or_create(
        club=setup.club, game=setup.league.game, league=setup.league
    )[0]
    Rating.objects.create(
        scope=scope, player=player, mu=25.0, sigma=8.3, ordinal=0.1, games=1, last_order_key="k"
    )
    api_token_create(user=setup.organiser.user, name="club laptop")


@pytest.mark.parametrize("model", LEAGUE_MODELS, ids=lambda model: model.__name__)
def test_every_changelist_and_change_page_renders(
    setup: Setup, superuser_client: Client, model: type[Model]
) -> None:
    derived_rows(setup)
    obj = model._default_manager.first()
    assert obj is not None, f"no {model.__name__} to show"

    assert superuser_client.get(url(model, "changelist")).status_code == 200
    assert superuser_client.get(url(model, "change", obj.pk)).status_code == 200


def test_deleting_the_last_organisers_user_is_refused(
    setup: Setup, superuser_client: Client
) -> None:
    """Deleting a user would delete their roles with them: the last
    organiser's is refused, as taking the role away is."""
    organiser = setup.organiser.user
    response = superuser_client.post(
        reverse("admin:auth_user_delete", args=[organiser.pk]), {"post": "yes"}, follow=True
    )

    assert response.status_code == 200
    assert "Nothing was saved: a club keeps at least one organiser" in messages_of(response)
    assert get_user_model().objects.filter(pk=organiser.pk).exists()
    assert Membership.objects.filter(pk=setup.organiser.pk).exists()


def test_a_scorekeepers_user_can_be_deleted(setup: Setup, superuser_client: Client) -> None:
    scorekeeper = setup.scorekeeper.user
    response = superuser_client.post(
        reverse("admin:auth_user_delete", args=[scorekeeper.pk]), {"post": "yes"}, follow=True
    )

    assert response.status_code == 200
    assert not get_user_model().objects.filter(pk=scorekeeper.pk).exists()
    assert memberships(setup.club) == [(setup.organiser.user.get_username(), "organiser")]


# -- guests and game nights ------------------------------------------------------------


def test_keeping_a_guest_goes_through_the_service(
    setup: Setup, superuser_client: Client, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    guest = clubs.player_create(club=setup.club, name="Visiting Vera", is_guest=True)
    page = url(Player, "change", guest.pk)
    data = form_data(superuser_client.get(page))
    assert data.pop("is_guest") == "on"

    assert superuser_client.post(page, data).status_code == 302

    guest.refresh_from_db()
    assert guest.is_guest is False
    assert calls[-1] == ("player_update", {"player": guest, "is_guest": False})


def test_a_player_of_the_club_is_not_made_a_guest_in_the_admin(
    setup: Setup, superuser_client: Client
) -> None:
    player = setup.players[0]
    page = url(Player, "change", player.pk)
    data = form_data(superuser_client.get(page))

    response = superuser_client.post(page, {**data, "is_guest": "on"}, follow=True)

    assert messages_of(response) == [
        "Nothing was saved: Ann is a player of the club already, not a guest"
    ]
    player.refresh_from_db()
    assert player.is_guest is False


def test_an_events_start_time_and_venue_change_through_the_service(
    setup: Setup, superuser_client: Client
) -> None:
    page = url(Event, "change", setup.event.pk)
    data = form_data(superuser_client.get(page))

    response = superuser_client.post(page, {**data, "start_time": "19:30", "venue": "The Crown"})

    assert response.status_code == 302
    setup.event.refresh_from_db()
    assert (setup.event.start_time, setup.event.venue) == (datetime.time(19, 30), "The Crown")


def test_an_event_is_made_the_final_by_its_service_alone(
    setup: Setup, superuser_client: Client
) -> None:
    page = url(Event, "change", setup.event.pk)
    shown = superuser_client.get(page)
    data = form_data(shown)
    assert "is_final" not in data  # shown read-only

    response = superuser_client.post(page, {**data, "is_final": "on"})

    assert response.status_code == 302
    setup.event.refresh_from_db()
    assert setup.event.is_final is False
    league_page = superuser_client.get(
        url(type(setup.event.league), "change", setup.event.league_id)
    )
    assert "ranked by wins, then average place" in league_page.content.decode()


def test_a_player_s_name_in_other_letters_is_refused_and_found_by_its_key(
    setup: Setup, superuser_client: Client
) -> None:
    player = setup.players[0]
    page = url(Player, "change", player.pk)
    data = form_data(superuser_client.get(page))
    response = superuser_client.post(page, {**data, "name": "BO"}, follow=True)
    assert "Nothing was saved: the club already has a player named 'Bo'" in " ".join(
        messages_of(response)
    )
    listed = superuser_client.get(url(Player, "changelist"), {"q": "b\u200bo"})
    assert listed.status_code == 200
    assert [p.pk for p in listed.context["cl"].result_list] == [setup.players[1].pk]
