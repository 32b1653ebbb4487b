"""A league's final night (league.services.finals): the top qualified players
seated by standing, a final apart from the season's standings, its result by
table, the refusals, and the API's ``/api/leagues/{id}/final/``."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from league import ratings, standings, tasks
from league.errors import Conflict, ServiceError
from league.models import (
    Attendance,
    AuditEntry,
    Event,
    Game,
    RatingHistory,
    RatingScope,
    Standing,
    Table,
)
from league.selectors import seasons as seasons_selectors
from league.services.clubs import membership_set
from league.services.finals import final_create, final_preview
from league.services.fixtures import round_create
from league.services.webhook_endpoints import webhook_endpoint_create
from tests.support.api import assert_problem, client_for
from tests.support.factories import LeagueFactory, PlayerFactory, UserFactory
from tests.support.seasons import play, season_league

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 1)


def season_order(league: Any) -> list[str]:
    return [
        row.player.name
        for row in Standing.objects.filter(league=league, event=None)
        .select_related("player")
        .order_by("rank")
    ]


def test_the_top_qualified_players_are_seated_by_standing() -> None:
    built = season_league()  # qualified: Cy, Eve, Ben, Dee (tests/league/test_season_formats.py)
    made = final_create(league=built.league, players=4, date=DAY, seed=7)
    assert [(f.seed, f.player.name) for f in made.finalists] == [
        (1, "Cy"),
        (2, "Eve"),
        (3, "Ben"),
        (4, "Dee"),
    ]
    event = made.event
    assert event is not None and event.is_final and event.name == "Final" and event.date == DAY
    [table] = Table.objects.filter(round__event=event)
    seated = {s.player.name for s in table.seatings.select_related("player")}
    assert seated == {"Cy", "Eve", "Ben", "Dee"}
    assert sorted(
        Attendance.objects.filter(event=event).values_list("player__name", flat=True)
    ) == ["Ben", "Cy", "Dee", "Eve"]
    round_ = event.rounds.get()
    assert (round_.seating_method, round_.seating_seed) == ("swiss", 7)


def test_a_final_of_eight_puts_the_best_four_at_the_top_table() -> None:
    built = season_league(season=None)  # today's order, everyone qualified
    standings.standings_refresh(league=built.league)
    order = season_order(built.league)
    made = final_create(league=built.league, players=8, date=DAY, seed=3)
    assert [f.player.name for f in made.finalists] == order
    tables = list(Table.objects.filter(round__event=made.event).order_by("number"))
    assert [t.players for t in tables] == [4, 4]
    top = {s.player.name for s in tables[0].seatings.select_related("player")}
    assert top == set(order[:4])


def test_the_preview_stores_nothing_and_draws_the_tables_the_final_gets() -> None:
    built = season_league(season=None)
    preview = final_preview(league=built.league, players=8, seed=11, name="Grand final")
    assert preview.event is None
    assert not Event.objects.filter(is_final=True).exists()
    made = final_create(league=built.league, players=8, seed=11, name="Grand final")
    assert made.event is not None and made.event.name == "Grand final"

    def seats(final: Any) -> list[tuple[list[int], int]]:
        return [([f.player.pk for f in players], dealer) for players, dealer in final.tables]

    assert seats(preview) == seats(made)
    stored = [
        (t.seat_players, t.first_dealer)
        for t in Table.objects.filter(round__event=made.event).order_by("number")
    ]
    assert stored == seats(made)


def test_the_final_counts_apart_from_the_season_and_has_its_own_result() -> None:
    built = season_league()
    league = built.league
    tasks.league_standings_refresh(league.pk)
    before = [
        (r.player_id, r.games, r.season_points, r.rank)
        for r in Standing.objects.filter(league=league, event=None)
    ]
    made = final_create(league=league, players=4, date=DAY, seed=1)
    [table] = Table.objects.filter(round__event=made.event)
    # the seat 2 player takes two hands (30), the seat 0 one (-10), the others -30
    play(table, (2, 0, 2))
    tasks.league_standings_refresh(league.pk)
    after = [
        (r.player_id, r.games, r.season_points, r.rank)
        for r in Standing.objects.filter(league=league, event=None)
    ]
    assert sorted(after) == sorted(before)  # the season as it was
    assert Standing.objects.filter(event=made.event).count() == 4  # the final's own lines

    result = seasons_selectors.final_result(event=made.event)
    table.refresh_from_db()
    names = {s.seat: s.player.name for s in table.seatings.select_related("player")}
    assert result.complete
    # places, then seats: a shared third place by seat
    assert [(line.place, line.player.name) for line in result.lines] == [
        (1, names[2]),
        (2, names[0]),
        (3, names[1]),
        (3, names[3]),
    ]

    # and it counts for ratings, as every game does
    scope = RatingScope.objects.get(league=league)
    ratings.ratings_refresh(scope_id=scope.pk)
    assert RatingHistory.objects.filter(scope=scope, table=table).count() == 4


def test_the_result_of_a_final_of_two_tables_runs_down_from_the_top_table() -> None:
    built = season_league(season=None)
    made = final_create(league=built.league, players=8, date=DAY, seed=2)
    top, second = Table.objects.filter(round__event=made.event).order_by("number")
    play(second, (0, 0, 0))  # the second table first: seat 0 alone first, the others share 2nd
    result = seasons_selectors.final_result(event=made.event)
    assert not result.complete
    assert [line.place for line in result.lines[:4]] == [None] * 4  # the top table to play
    assert [line.place for line in result.lines[4:]] == [5, 6, 6, 6]
    play(top, (1, 1, 1))
    result = seasons_selectors.final_result(event=made.event)
    assert [line.place for line in result.lines] == [1, 2, 2, 2, 5, 6, 6, 6]
    assert result.lines[0].player.pk == top.seat_players[1]


def test_the_final_is_in_the_audit_trail_and_sends_round_seated(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True
    built = season_league()
    organiser = UserFactory()
    endpoint = webhook_endpoint_create(
        club=built.club, url="http://127.0.0.1:9/", events=["round.seated"], by=organiser
    ).endpoint
    made = final_create(league=built.league, players=3, date=DAY, seed=5)
    entry = AuditEntry.objects.get(action="league.final_made")
    assert entry.event_id == made.event.pk
    assert [f["player_name"] for f in entry.after["finalists"]] == ["Cy", "Eve", "Ben"]
    assert AuditEntry.objects.filter(action="seating.drawn", event_id=made.event.pk).exists()
    assert not AuditEntry.objects.filter(action="attendance.changed", event_id=made.event.pk)
    [seated] = endpoint.deliveries.all()
    assert seated.event == "round.seated"
    assert seated.payload["event"]["id"] == made.event.pk


def test_refusals_store_nothing() -> None:
    built = season_league()  # four qualified
    league = built.league
    with pytest.raises(Conflict) as too_many:
        final_create(league=league, players=5)
    assert too_many.value.field == "players"
    assert "only 4 players are qualified" in too_many.value.message
    with pytest.raises(ServiceError) as too_few:
        final_create(league=league, players=2)
    assert too_few.value.field == "players" and "at least 3" in too_few.value.message
    with pytest.raises(ServiceError) as seed:
        final_create(league=league, players=3, seed=-1)
    assert seed.value.field == "seed"
    assert not Event.objects.filter(is_final=True).exists()

    made = final_create(league=league, players=4)
    with pytest.raises(Conflict) as again:
        final_create(league=league, players=3)
    assert "final already" in again.value.message
    with pytest.raises(Conflict):
        final_preview(league=league, players=3)
    with pytest.raises(ServiceError) as rounds:
        round_create(event=made.event, number=2)
    assert rounds.value.field == "rounds"
    assert Event.objects.filter(is_final=True).count() == 1


def test_buck_euchre_finals_take_four_a_table_and_nobody_sits_out() -> None:
    league = LeagueFactory(game=Game.BUCK_EUCHRE)
    for n in range(6):
        PlayerFactory(club=league.club, name=f"P{n}")
    with pytest.raises(ServiceError) as refused:
        final_create(league=league, players=6)
    assert refused.value.field == "players" and "4, 8, 12" in refused.value.message


# -- the API -----------------------------------------------------------------------------------


def organiser_of(club: Any) -> Any:
    user = UserFactory()
    membership_set(club=club, user=user, role="organiser")
    return user


def test_the_api_previews_makes_and_shows_the_final() -> None:
    built = season_league()
    client = client_for(organiser_of(built.club))
    url = f"/api/leagues/{built.league.pk}/final/"
    assert_problem(client.get(url), 404)

    preview = client.post(url, {"players": 4, "seed": 9, "preview": True})
    assert preview.status_code == 200, preview.content
    body = preview.json()
    assert body["committed"] is False and body["event"] is None
    assert [f["player_name"] for f in body["finalists"]] == ["Cy", "Eve", "Ben", "Dee"]
    assert body["finalists"][0]["season_points"] == 7.0
    assert not Event.objects.filter(is_final=True).exists()

    made = client.post(url, {"players": 4, "seed": 9, "date": "2026-12-01"})
    assert made.status_code == 201, made.content
    assert made.json()["tables"] == body["tables"]
    event = Event.objects.get(is_final=True)
    assert made.json()["event"] == event.pk

    shown = client.get(url)
    assert shown.status_code == 200
    assert shown.json()["event"] == event.pk
    assert shown.json()["complete"] is False
    assert [line["place"] for line in shown.json()["results"]] == [None] * 4

    again = assert_problem(client.post(url, {"players": 3}), 409)
    assert "final already" in again["detail"]


@pytest.mark.parametrize(
    ("data", "status", "field"),
    [
        ({"players": 9}, 409, None),
        ({"players": 2}, 400, "players"),
        ({}, 400, "players"),
        ({"players": "four"}, 400, "players"),
        ({"players": 4, "name": "F\x00"}, 400, "name"),
        ({"players": 4, "date": "soon"}, 400, "date"),
        ({"players": 4, "colour": "red"}, 400, None),
    ],
)
def test_the_api_refuses_a_bad_final_clearly(data: dict[str, Any], status: int, field: str) -> None:
    built = season_league()
    client = client_for(organiser_of(built.club))
    body = assert_problem(client.post(f"/api/leagues/{built.league.pk}/final/", data), status)
    if field is not None:
        assert field in body["errors"]
    assert not Event.objects.filter(is_final=True).exists()


def test_only_the_clubs_organisers_make_a_final() -> None:
    built = season_league()
    url = f"/api/leagues/{built.league.pk}/final/"
    assert client_for(None).post(url, {"players": 3}).status_code in (401, 403)
    assert client_for(UserFactory()).post(url, {"players": 3}).status_code in (403, 404)
    assert not Event.objects.filter(is_final=True).exists()
