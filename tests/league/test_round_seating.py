"""Drawing a round's tables through the API: previews, commits, sit-outs,
repeats avoided, and every refusal with nothing stored."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from league import ratings
from league.models import Game, Player, Round, SitOut, Table
from league.selectors import draws as draws_selectors
from league.services.attendance import attendance_leave, attendance_set
from league.services.results import hand_submit
from league.standings import standings_refresh
from tests.support.api import assert_problem, client_for
from tests.support.attendance import new_night
from tests.support.factories import PlayerFactory, UserFactory
from tests.support.markup import text
from tests.support.records import bluke_results, buck_takes_all
from tests.support.setups import ClubSetup, club_setup
from tests.support.state import db_state

pytestmark = pytest.mark.django_db


def night(
    *, game: str = Game.BLUKE, present: int = 10, rounds: int = 3
) -> tuple[ClubSetup, list[Round], list[Player]]:
    """A club whose new game night has ``present`` players checked in."""
    setup = club_setup(game=game)
    players = [*setup.players, *(PlayerFactory(club=setup.club) for _ in range(present - 8))]
    players = players[:present]
    event = new_night(setup, rounds=rounds)
    attendance_set(event=event, players=players, by=setup.organiser)
    return setup, list(event.rounds.order_by("number")), players


def draw(setup: ClubSetup, round_: Round, **body: Any) -> Any:
    return client_for(setup.organiser).post(f"/api/rounds/{round_.pk}/seating/", body)


def seated(body: dict[str, Any]) -> list[list[int]]:
    return [[player["id"] for player in table["players"]] for table in body["tables"]]


def test_a_preview_seats_everyone_present_in_the_leagues_sizes_and_stores_nothing() -> None:
    setup, rounds, players = night(present=10)
    before = db_state()

    response = draw(setup, rounds[0], seed=7)

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["seed"], body["method"], body["committed"]) == (7, "balanced", False)
    assert [len(table) for table in seated(body)] == [4, 3, 3]
    assert sorted(pk for table in seated(body) for pk in table) == sorted(p.pk for p in players)
    assert body["sit_out"] == []
    assert all(table["id"] is None for table in body["tables"])
    assert db_state() == before
    assert draw(setup, rounds[0], seed=7).json() == body  # the same seed, the same draw


def test_a_draw_without_a_seed_says_which_it_used() -> None:
    setup, rounds, _ = night(present=8)
    first = draw(setup, rounds[0]).json()
    assert draw(setup, rounds[0], seed=first["seed"]).json() == first


def test_a_commit_stores_the_tables_as_drawn_and_the_seed() -> None:
    setup, rounds, _ = night(present=11)

    response = draw(setup, rounds[0], seed=3, commit=True)

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["committed"]
    for drawn in body["tables"]:
        table = Table.objects.get(pk=drawn["id"])
        assert table.round_id == rounds[0].pk
        assert table.first_dealer == drawn["first_dealer"]
        assert table.seat_players == [player["id"] for player in drawn["players"]]
    rounds[0].refresh_from_db()
    assert (rounds[0].seating_method, rounds[0].seating_seed) == ("balanced", 3)
    assert body == {**draw(setup, rounds[0], seed=3).json(), "committed": True,
                    "tables": body["tables"]}  # fmt: skip


def test_a_drawn_round_is_drawn_again_only_when_asked_and_never_once_played() -> None:
    setup, rounds, _ = night(present=8)
    assert draw(setup, rounds[0], seed=1, commit=True).status_code == 201
    before = db_state()

    again = draw(setup, rounds[0], seed=2, commit=True)
    assert assert_problem(again, 409)["field"] == "replace"
    assert db_state() == before

    replaced = draw(setup, rounds[0], seed=2, commit=True, replace=True)
    assert replaced.status_code == 201
    assert sorted(Table.objects.filter(round=rounds[0]).values_list("pk", flat=True)) == sorted(
        table["id"] for table in replaced.json()["tables"]
    )

    played = Table.objects.filter(round=rounds[0]).first()
    assert played is not None
    hand_submit(table=played, record=bluke_results(13))
    before = db_state()
    refused = draw(setup, rounds[0], seed=3, commit=True, replace=True)
    assert assert_problem(refused, 409)["field"] == "round"
    assert db_state() == before


def test_buck_euchre_leftovers_sit_out_and_take_turns() -> None:
    setup, rounds, _ = night(game=Game.BUCK_EUCHRE, present=10)

    first = draw(setup, rounds[0], seed=5, commit=True).json()
    out_first = {player["id"] for player in first["sit_out"]}
    assert len(out_first) == 2
    assert set(SitOut.objects.filter(round=rounds[0]).values_list("player_id", flat=True)) == (
        out_first
    )

    second = draw(setup, rounds[1], seed=5, commit=True).json()
    out_second = {player["id"] for player in second["sit_out"]}
    assert len(out_second) == 2
    assert not out_first & out_second  # nobody sits out twice while others have not
    assert len(seated(second)) == 2


def test_the_second_round_meets_as_few_again_as_can_be() -> None:
    """Eight players at two tables of four: round two cannot avoid two pairs
    meeting again at each table (four in all), and the draw finds that."""
    setup, rounds, _ = night(present=8)
    draw(setup, rounds[0], seed=11, commit=True)

    body = draw(setup, rounds[1], seed=11).json()

    tonight = [repeat for repeat in body["repeats"] if repeat["tonight"]]
    assert len(tonight) == 4
    assert all(repeat["tonight"] == 1 for repeat in tonight)
    assert body["cost"]["repeats"] == sum(repeat["cost"] for repeat in body["repeats"])
    assert body["cost"]["total"] == body["cost"]["repeats"]


def test_pairs_kept_apart_and_players_pinned_are_honoured() -> None:
    setup, rounds, players = night(present=8)
    a, b, c = players[0].pk, players[1].pk, players[2].pk

    body = draw(
        setup, rounds[0], seed=4, keep_apart=[[a, b]], pinned=[{"player": c, "table": 1}]
    ).json()

    assert not any({a, b} <= set(table) for table in seated(body))
    assert c in seated(body)[1]


@pytest.mark.parametrize("method", ["swiss", "rating", "random"])
def test_every_method_draws_before_any_standings_or_ratings_exist(method: str) -> None:
    setup, rounds, players = night(present=9)
    body = draw(setup, rounds[0], seed=2, method=method).json()
    assert body["method"] == method
    assert sorted(pk for table in seated(body) for pk in table) == sorted(p.pk for p in players)


def test_rating_seats_the_best_rated_together() -> None:
    """After a complete game only its four players are rated: a ``rating``
    draw of round two seats them at the first table, though they met in
    round one (grouping by rating outweighs repeats; ``swiss`` would not)."""
    setup, rounds, present = night(game=Game.BUCK_EUCHRE, present=8)
    first = draw(setup, rounds[0], seed=9, commit=True).json()
    table = Table.objects.get(pk=first["tables"][0]["id"])
    hand_submit(table=table, record=buck_takes_all(0))
    for scope in ratings.scopes_of(setup.league):  # the jobs the commit would run
        ratings.ratings_refresh(scope_id=scope.pk)
    standings_refresh(league=setup.league)
    leaders = set(
        draws_selectors.seating_ranking(round=rounds[1], by_rating=True, players=present)[:4]
    )
    assert leaders == set(table.seat_players)
    assert (
        set(draws_selectors.seating_ranking(round=rounds[1], by_rating=False, players=present)[:4])
        == leaders
    )

    body = draw(setup, rounds[1], seed=9, method="rating").json()

    assert set(seated(body)[0]) == leaders
    swiss = draw(setup, rounds[1], seed=9, method="swiss").json()
    assert len(swiss["repeats"]) < len(body["repeats"])


BAD_DRAWS: dict[str, tuple[dict[str, Any], int, str]] = {
    "kept apart, not present": ({"keep_apart": [[10**12, 10**12 + 1]]}, 400, "keep_apart"),
    "kept apart, not a pair": ({"keep_apart": [[1]]}, 400, "keep_apart"),
    "pinned twice": (
        {"pinned": [{"player": 0, "table": 0}, {"player": 0, "table": 1}]},
        400,
        "pinned",
    ),
    "pinned to no table": ({"pinned": [{"player": 0, "table": 5}]}, 400, "pinned"),
    "unknown method": ({"method": "alphabetical"}, 400, "method"),
    "negative seed": ({"seed": -1}, 400, "seed"),
}


@pytest.mark.parametrize("case", BAD_DRAWS)
def test_a_bad_draw_is_refused_by_its_field_with_nothing_stored(case: str) -> None:
    setup, rounds, players = night(present=8)
    body, status, field = BAD_DRAWS[case]
    for pin in body.get("pinned", []):
        pin["player"] = players[pin["player"]].pk
    before = db_state()

    problem = assert_problem(draw(setup, rounds[0], commit=True, **body), status)

    assert field in (problem.get("errors") or {}) or problem.get("field") == field, problem
    assert db_state() == before


def test_too_few_present_is_a_conflict_naming_the_attendance() -> None:
    setup, rounds, _ = night(game=Game.BUCK_EUCHRE, present=3)
    problem = assert_problem(draw(setup, rounds[0], commit=True), 409)
    assert problem["field"] == "attendance"


@pytest.mark.parametrize(("who", "status"), [("scorekeeper", 403), ("stranger", 404)])
def test_only_the_clubs_organisers_draw(who: str, status: int) -> None:
    setup, rounds, _ = night(present=8)
    user = setup.scorekeeper if who == "scorekeeper" else UserFactory()
    before = db_state()
    response = client_for(user).post(f"/api/rounds/{rounds[0].pk}/seating/", {"commit": True})
    assert_problem(response, status)
    assert db_state() == before
    assert_problem(client_for().post(f"/api/rounds/{rounds[0].pk}/seating/", {}), 401)


def test_a_commit_sent_twice_with_one_key_is_stored_once() -> None:
    setup, rounds, _ = night(present=8)
    client = client_for(setup.organiser)
    url = f"/api/rounds/{rounds[0].pk}/seating/"
    first = client.post(url, {"commit": True}, headers={"Idempotency-Key": "draw-1"})
    again = client.post(url, {"commit": True}, headers={"Idempotency-Key": "draw-1"})
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert Table.objects.filter(round=rounds[0]).count() == 2


def test_the_history_counts_earlier_events_back_from_the_last() -> None:
    setup, rounds, _ = night(present=8)
    draw(setup, rounds[0], seed=1, commit=True)
    later_event = new_night(setup, rounds=2)
    history = draws_selectors.seating_history(round=later_event.rounds.get(number=1))
    assert [past.events_ago for past in history] == [2, 1]  # the setup's night, then this one
    assert sorted(len(table) for past in history for table in past.tables) == [4, 4, 4]


def test_sit_outs_show_on_the_event_and_count_in_the_standings_never_as_games(
    django_capture_on_commit_callbacks: Any,
) -> None:
    setup, rounds, _ = night(game=Game.BUCK_EUCHRE, present=10)
    first = draw(setup, rounds[0], seed=5, commit=True).json()
    for drawn in first["tables"]:
        hand_submit(table=Table.objects.get(pk=drawn["id"]), record=buck_takes_all(0))
    with django_capture_on_commit_callbacks(execute=True):  # the standings job it owes
        second = draw(setup, rounds[1], seed=5, commit=True).json()

    out = {player["id"]: player["name"] for player in second["sit_out"]}
    rows = client_for().get(f"/api/events/{rounds[1].event_id}/standings/").json()["results"]
    counted = {row["player"]: (row["games"], row["sat_out"]) for row in rows}
    assert {pk: counted[pk] for pk in out} == dict.fromkeys(out, (1, 1))
    assert sum(sat for _, sat in counted.values()) == len(out)

    page = re.sub(r"<[^>]+>", "", text(Client().get(f"/events/{rounds[1].event_id}/")))
    assert "Sitting out this round: " + ", ".join(sorted(out.values())) + "." in page


def adjust(setup: ClubSetup, round_: Round, body: dict[str, Any]) -> Any:
    return client_for(setup.organiser).post(f"/api/rounds/{round_.pk}/seating/adjust/", body)


def test_a_swap_changes_two_seats_and_recomputes_the_cost() -> None:
    setup, rounds, _ = night(present=8)
    draw(setup, rounds[0], seed=1, commit=True)
    drawn = draw(setup, rounds[1], seed=1, commit=True).json()
    a, b = drawn["tables"][0]["players"][0]["id"], drawn["tables"][1]["players"][0]["id"]

    response = adjust(setup, rounds[1], {"swap": [a, b]})

    assert response.status_code == 200, response.content
    body = response.json()
    assert seated(body)[0][0] == b and seated(body)[1][0] == a
    stored = [list(t.seat_players) for t in Table.objects.filter(round=rounds[1])]
    assert stored == seated(body)
    assert (body["seed"], body["method"], body["committed"]) == (1, "balanced", True)
    # the cost is what a fresh assessment of the stored tables says
    tonight = [r for r in body["repeats"] if r["tonight"]]
    assert body["cost"]["repeats"] == sum(r["cost"] for r in body["repeats"])
    assert len(tonight) >= len([r for r in drawn["repeats"] if r["tonight"]])


def test_a_move_takes_a_player_to_another_table() -> None:
    setup, rounds, _ = night(present=10)  # Bluke: 4 + 3 + 3
    drawn = draw(setup, rounds[0], seed=2, commit=True).json()
    mover = drawn["tables"][0]["players"][0]["id"]

    body = adjust(setup, rounds[0], {"move": {"player": mover, "table": 2}}).json()

    assert [len(table) for table in seated(body)] == [3, 4, 3]
    assert seated(body)[1][-1] == mover


def test_a_sitting_out_player_swaps_into_a_table() -> None:
    setup, rounds, _ = night(game=Game.BUCK_EUCHRE, present=9)
    drawn = draw(setup, rounds[0], seed=3, commit=True).json()
    out = drawn["sit_out"][0]["id"]
    seated_player = drawn["tables"][1]["players"][2]["id"]

    body = adjust(setup, rounds[0], {"swap": [out, seated_player]}).json()

    assert seated(body)[1][2] == out
    assert [p["id"] for p in body["sit_out"]] == [seated_player]
    assert list(SitOut.objects.filter(round=rounds[0]).values_list("player_id", flat=True)) == [
        seated_player
    ]


BAD_ADJUSTS: dict[str, tuple[Any, int, str]] = {
    "neither": ({}, 400, "non_field_errors"),
    "both": (
        {"swap": "players", "move": {"player": "first", "table": 2}},
        400,
        "non_field_errors",
    ),
    "a stranger": ({"swap": [10**12, "first"]}, 400, "swap"),
    "one player twice": ({"swap": ["first", "first"]}, 400, "swap"),
    "to no table": ({"move": {"player": "first", "table": 9}}, 400, "move"),
    "to the same table": ({"move": {"player": "first", "table": 1}}, 400, "move"),
    "leaving a Bluke table of two": ({"move": {"player": "small", "table": 1}}, 400, "move"),
}


@pytest.mark.parametrize("case", BAD_ADJUSTS)
def test_a_bad_adjustment_is_refused_with_nothing_stored(case: str) -> None:
    setup, rounds, _ = night(present=10)
    drawn = draw(setup, rounds[0], seed=2, commit=True).json()
    ids = {
        "first": drawn["tables"][0]["players"][0]["id"],
        "second": drawn["tables"][1]["players"][0]["id"],
        "small": drawn["tables"][2]["players"][0]["id"],
    }

    def fill(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: fill(item) for key, item in value.items()}
        if isinstance(value, list):
            return [fill(item) for item in value]
        if value == "players":
            return [ids["first"], ids["second"]]
        return ids.get(value, value) if isinstance(value, str) else value

    body, status, field = BAD_ADJUSTS[case]
    before = db_state()
    problem = assert_problem(adjust(setup, rounds[0], fill(body)), status)
    assert field in (problem.get("errors") or {}) or problem.get("field") == field, problem
    assert db_state() == before


def test_a_round_is_adjusted_only_once_drawn_and_before_its_first_hand() -> None:
    setup, rounds, _ = night(present=8)
    assert assert_problem(adjust(setup, rounds[0], {"swap": [1, 2]}), 409)["field"] == "round"
    drawn = draw(setup, rounds[0], seed=2, commit=True).json()
    hand_submit(table=Table.objects.get(pk=drawn["tables"][0]["id"]), record=bluke_results(13))
    a, b = seated(drawn)[0][0], seated(drawn)[1][0]
    before = db_state()
    assert assert_problem(adjust(setup, rounds[0], {"swap": [a, b]}), 409)["field"] == "round"
    assert db_state() == before
    assert_problem(
        client_for(setup.scorekeeper).post(
            f"/api/rounds/{rounds[0].pk}/seating/adjust/", {"swap": [a, b]}
        ),
        403,
    )


def schedule(setup: ClubSetup, event_id: int, **body: Any) -> Any:
    return client_for(setup.organiser).post(f"/api/events/{event_id}/schedule/", body)


def test_a_whole_night_is_drawn_at_once_like_a_round_robin() -> None:
    """Nine players at tables of three over four rounds: everyone meets
    everyone exactly once (an affine plane), found by the generator."""
    setup, rounds, _ = night(present=9, rounds=4)
    setup.league.table_size = 3
    setup.league.save()
    event_id = rounds[0].event_id
    before = db_state()

    preview = schedule(setup, event_id, seed=1)

    assert preview.status_code == 200, preview.content
    body = preview.json()
    assert db_state() == before
    assert len(body["rounds"]) == 4
    met = [frozenset(p) for r in body["rounds"] for t in seated(r) for p in pairs_of(t)]
    assert len(met) == len(set(met)) == 36  # all 9 * 8 / 2 pairs, none twice

    stored = schedule(setup, event_id, seed=1, commit=True)
    assert stored.status_code == 201
    assert [seated(r) for r in stored.json()["rounds"]] == [seated(r) for r in body["rounds"]]
    assert Table.objects.filter(round__event_id=event_id).count() == 12
    again = schedule(setup, event_id, seed=2, commit=True)
    assert assert_problem(again, 409)["field"] == "replace"


def test_a_schedule_leaves_out_who_is_absent_from_a_round() -> None:
    setup, rounds, players = night(game=Game.BUCK_EUCHRE, present=8, rounds=2)
    event = rounds[0].event
    draw(setup, rounds[0], seed=1, commit=True)  # round 1 drawn: a leaver plays it
    attendance_leave(event=event, player=players[0], by=setup.organiser)
    Table.objects.filter(round=rounds[0]).delete()  # undrawn again, the leaving stays

    body = schedule(setup, event.pk, seed=1).json()

    assert players[0].pk in {pk for t in seated(body["rounds"][0]) for pk in t}
    second = {pk for t in seated(body["rounds"][1]) for pk in t}
    assert players[0].pk not in second
    assert len(second) == 4  # seven present: one table of four, three sit out
    assert len(body["rounds"][1]["sit_out"]) == 3


def pairs_of(players: list[int]) -> list[tuple[int, int]]:
    return [(a, b) for n, a in enumerate(players) for b in players[n + 1 :]]
