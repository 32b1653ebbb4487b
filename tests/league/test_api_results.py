"""Results through the API: hands, whole games, the score sheet, corrections
and deletions, each checked by the rules engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import games
from league.models import Game, Hand, Table
from league.services.fixtures import table_reseat
from league.services.results import hand_submit
from tests.support.api import assert_problem, client_for, etag
from tests.support.factories import make_table
from tests.support.records import (
    bluke_results,
    bot_logs,
    buck_takes_all,
    engine_error,
    results_record,
)
from tests.support.setups import ClubSetup, club_setup
from tests.support.state import results_snapshot

pytestmark = pytest.mark.django_db

BLUKE_OPTIONS = {"max_cards": 3}  # five hands: 3, 2, 1, 2, 3 cards
FIRST_DEALER = 1
BOT_SEEDS = {Game.BLUKE: 11, Game.BUCK_EUCHRE: 2}  # short games, with discards and drops


def options_of(game: str) -> dict[str, Any]:
    return BLUKE_OPTIONS if game == Game.BLUKE else {}


def logs_of(game: str) -> list[dict[str, Any]]:
    return bot_logs(game, first_dealer=FIRST_DEALER, seed=BOT_SEEDS[game], options=options_of(game))


def post_hand(client: Any, table: Table, number: int, record: Any, **extra: Any) -> Any:
    return client.post(
        f"/api/tables/{table.pk}/hands/", {"number": number, "record": record}, **extra
    )


def totals(body: dict[str, Any]) -> list[list[int]]:
    return [[seat["total"] for seat in hand["seats"]] for hand in body["hands"]]


# -- a hand at a time, both forms, both games -------------------------------------------


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_a_game_submitted_hand_by_hand_as_move_logs_or_results(game: str) -> None:
    logs = logs_of(game)
    assert 1 < len(logs) <= 6
    options = options_of(game)
    setup = club_setup(game=game, options=options)
    as_logs = setup.table
    table_reseat(table=as_logs, first_dealer=FIRST_DEALER)
    as_results = make_table(
        round=setup.round, players=setup.players[4:8], number=2, first_dealer=FIRST_DEALER
    )
    client = client_for(setup.scorekeeper)
    expected = games.check_record(
        {
            "game": game,
            "players": 4,
            "first_dealer": FIRST_DEALER,
            "options": options,
            "hands": logs,
        }
    )
    assert (expected["ok"], expected["complete"]) == (True, True)

    for number, log in enumerate(logs):
        dealer = (FIRST_DEALER + number) % 4
        for table, record in (
            (as_logs, log),
            (as_results, results_record(game, options, dealer, log)),
        ):
            response = post_hand(client, table, number, record)
            assert response.status_code == 201, response.content
            assert response["ETag"] == etag(table)
            answer = response.json()
            assert answer["table"]["version"] == table.version
            body = client.get(f"/api/tables/{table.pk}/sheet/").json()
            assert [hand["number"] for hand in body["hands"]] == list(range(number + 1))
            hand = body["hands"][number]
            assert answer["hand"] == hand
            assert answer["table"]["totals"] == [s["total"] for s in hand["seats"]]
            assert (hand["dealer"], hand["is_move_log"]) == (dealer, record is log)
            assert [s["points"] for s in hand["seats"]] == expected["hands"][number]["points"]

    for table in (as_logs, as_results):
        sheet = client_for().get(f"/api/tables/{table.pk}/sheet/").json()
        assert sheet["table"]["status"] == "complete"
        assert sheet["next_hand"] is None
        assert totals(sheet)[-1] == expected["totals"]
        assert [s["total"] for s in sheet["table"]["seatings"]] == expected["totals"]
        assert [s["place"] for s in sheet["table"]["seatings"]] == expected["ranks"]
        trumps = [hand["trump"] for hand in expected["hands"]]
        assert [hand["trump"] for hand in sheet["hands"]] == trumps


# -- the score sheet --------------------------------------------------------------------


def test_the_score_sheet_of_a_bluke_game() -> None:
    setup = club_setup(options={"max_cards": 2})
    table = setup.table
    table_reseat(table=table, first_dealer=1)
    client = client_for(setup.scorekeeper)
    anonymous = client_for()

    empty = anonymous.get(f"/api/tables/{table.pk}/sheet/")
    assert empty.status_code == 200
    assert empty["ETag"] == f'"table-{table.pk}-v1"'  # the reseat counted
    assert empty.json()["hands"] == []
    assert empty.json()["next_hand"] == {"number": 0, "dealer": 1, "cards": 2}

    first = {"trump": "H", "bids": [1, 2, 1, 1], "tricks": [0, 2, 0, 0]}
    assert post_hand(client, table, 0, first).status_code == 201
    sheet = anonymous.get(f"/api/tables/{table.pk}/sheet/")

    assert sheet["ETag"] == f'"table-{table.pk}-v2"'
    body = sheet.json()
    assert body["hands"] == [
        {
            "number": 0,
            "dealer": 1,
            "cards": 2,
            "trump": "H",
            "maker": None,
            "drops": [],
            "takes_all": None,
            "is_move_log": False,
            "seats": [
                {"seat": 0, "bid": 1, "tricks": 0, "points": -10, "total": -10},
                {"seat": 1, "bid": 2, "tricks": 2, "points": 20, "total": 20},
                {"seat": 2, "bid": 1, "tricks": 0, "points": -10, "total": -10},
                {"seat": 3, "bid": 1, "tricks": 0, "points": -10, "total": -10},
            ],
        }
    ]
    assert body["next_hand"] == {"number": 1, "dealer": 2, "cards": 1}
    assert body["table"]["status"] == "in_progress"
    assert [(s["total"], s["place"]) for s in body["table"]["seatings"]] == [
        (-10, None),
        (20, None),
        (-10, None),
        (-10, None),
    ]

    post_hand(client, table, 1, {"trump": "D", "bids": [1, 1, 1, 1], "tricks": [1, 0, 0, 0]})
    last = post_hand(
        client, table, 2, {"trump": None, "bids": [2, 1, 1, 1], "tricks": [2, 0, 0, 0]}
    )

    assert last.json()["table"]["places"] == [1, 2, 3, 3]
    body = anonymous.get(f"/api/tables/{table.pk}/sheet/").json()
    assert totals(body) == [[-10, 20, -10, -10], [0, 10, -20, -20], [20, 0, -30, -30]]
    assert [(h["dealer"], h["cards"], h["trump"]) for h in body["hands"]] == [
        (1, 2, "H"),
        (2, 1, "D"),
        (3, 2, None),
    ]
    assert body["table"]["status"] == "complete"
    assert [s["place"] for s in body["table"]["seatings"]] == [1, 2, 3, 3]
    assert body["next_hand"] is None
    assert anonymous.get(f"/api/tables/{table.pk}/sheet/").json() == body


def test_the_score_sheet_of_a_buck_euchre_game() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    table = setup.table
    table_reseat(table=table, first_dealer=2)
    client = client_for(setup.organiser)

    response = post_hand(
        client, table, 0, {"trump": "S", "maker": 1, "drops": [3], "tricks": [1, 3, 1, 0]}
    )

    assert response.json()["next_hand"] == {"number": 1, "dealer": 3, "cards": 5}
    body = client.get(f"/api/tables/{table.pk}/sheet/").json()
    assert response.json()["hand"] == body["hands"][0]
    assert body["hands"][0] == {
        "number": 0,
        "dealer": 2,
        "cards": 5,
        "trump": "S",
        "maker": 1,
        "drops": [3],
        "takes_all": None,
        "is_move_log": False,
        "seats": [
            {"seat": 0, "bid": None, "tricks": 1, "points": -1, "total": 24},
            {"seat": 1, "bid": None, "tricks": 3, "points": -3, "total": 22},
            {"seat": 2, "bid": None, "tricks": 1, "points": -1, "total": 24},
            {"seat": 3, "bid": None, "tricks": 0, "points": 0, "total": 25},
        ],
    }
    assert body["next_hand"] == {"number": 1, "dealer": 3, "cards": 5}

    assert post_hand(client, table, 1, buck_takes_all(2)).json()["table"]["status"] == "complete"
    done = client.get(f"/api/tables/{table.pk}/sheet/").json()

    assert done["hands"][1]["takes_all"] == 2
    assert done["table"]["status"] == "complete"
    # the winner first, then the others by score, lowest first
    assert [(s["total"], s["place"]) for s in done["table"]["seatings"]] == [
        (29, 3),
        (27, 2),
        (19, 1),
        (30, 4),
    ]
    assert done["next_hand"] is None


def test_the_sheet_of_an_unknown_table_is_a_problem_404() -> None:
    assert_problem(client_for().get("/api/tables/999999/sheet/"), 404)


# -- hands in order ---------------------------------------------------------------------


def test_hands_arrive_in_order() -> None:
    setup = club_setup()
    table = setup.table
    client = client_for(setup.scorekeeper)
    assert post_hand(client, table, 0, bluke_results(13)).status_code == 201
    before = results_snapshot(table)

    again = post_hand(client, table, 0, bluke_results(12))
    ahead = post_hand(client, table, 2, bluke_results(11))

    assert assert_problem(again, 409)["field"] == "number"
    assert assert_problem(ahead, 409)["field"] == "number"
    assert results_snapshot(table) == before
    assert post_hand(client, table, 1, bluke_results(12)).status_code == 201


@pytest.mark.parametrize(
    ("game", "options", "finishing", "more"),
    [
        (Game.BLUKE, {"max_cards": 1}, bluke_results(1, winner=2), bluke_results(1)),
        (Game.BUCK_EUCHRE, {}, buck_takes_all(3), buck_takes_all(0)),
    ],
    ids=["bluke", "buck_euchre"],
)
def test_a_hand_after_the_game_is_complete_is_game_over(
    game: str, options: dict[str, Any], finishing: dict[str, Any], more: dict[str, Any]
) -> None:
    setup = club_setup(game=game, options=options)
    client = client_for(setup.scorekeeper)
    assert post_hand(client, setup.table, 0, finishing).json()["table"]["status"] == "complete"
    before = results_snapshot(setup.table)

    body = assert_problem(post_hand(client, setup.table, 1, more), 422)

    assert (body["code"], body["hand"]) == ("game_over", 1)
    assert body["type"] == "/api/problems/engine/game-over"
    assert results_snapshot(setup.table) == before


def test_a_hand_without_a_number_or_record_is_a_400() -> None:
    setup = club_setup()
    client = client_for(setup.scorekeeper)
    url = f"/api/tables/{setup.table.pk}/hands/"
    assert (
        "number" in assert_problem(client.post(url, {"record": bluke_results(13)}), 400)["errors"]
    )
    assert "record" in assert_problem(client.post(url, {"number": 0}), 400)["errors"]
    assert (
        "number"
        in assert_problem(client.post(url, {"number": -1, "record": bluke_results(13)}), 400)[
            "errors"
        ]
    )
    assert not Hand.objects.exists()


# -- engine refusals ----------------------------------------------------------------------


def _bluke_second_hand() -> tuple[dict[str, Any], dict[str, Any]]:
    """The first two hands (2 cards, then 1) of a bot game of Bluke with max_cards 2."""
    logs = bot_logs(Game.BLUKE, first_dealer=1, seed=3, options={"max_cards": 2})
    return logs[0], logs[1]


def _must_follow_suit() -> dict[str, Any]:
    """The third hand (2 cards) of that game with two plays swapped so that a
    seat fails to follow suit (searched for among the swaps, deterministically)."""
    logs = bot_logs(Game.BLUKE, first_dealer=1, seed=3, options={"max_cards": 2})
    first, second, third = logs[:3]
    plays = third["plays"]
    for i in range(len(plays)):
        for j in range(i + 1, len(plays)):
            swapped = list(plays)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            record = {**third, "plays": swapped}
            error = engine_error(
                "bluke", record, before=[first, second], first_dealer=1, options={"max_cards": 2}
            )
            if error.code == "must_follow_suit":
                return record
    raise AssertionError("no swap breaks the follow-suit rule")


def _refusals() -> dict[str, tuple[str, Callable[[dict[str, Any]], Any]]]:
    """Mutations of the second hand of the Bluke game above; the code the engine gives."""

    def deal_twice(r: dict[str, Any]) -> dict[str, Any]:
        return {**r, "deal": [r["deal"][0], r["deal"][0], *r["deal"][2:]]}

    def not_in_hand(r: dict[str, Any]) -> dict[str, Any]:
        leader = 3  # the dealer (seat 2)'s left
        return {**r, "plays": [r["deal"][(leader + 1) % 4][0], *r["plays"][1:]]}

    return {
        "not_in_hand": ("not_in_hand", not_in_hand),
        "too_few_plays": ("wrong_number_of_plays", lambda r: {**r, "plays": r["plays"][:-1]}),
        "too_many_plays": (
            "wrong_number_of_plays",
            lambda r: {**r, "plays": [*r["plays"], r["plays"][0]]},
        ),
        "bad_card": ("bad_card", lambda r: {**r, "plays": ["ZZ", *r["plays"][1:]]}),
        "duplicate_card": ("duplicate_card", deal_twice),
        "bid_above_the_hand": ("bad_bid", lambda r: {**r, "bids": [2, 1, 1, 1]}),
        "too_few_bids": ("bad_bid", lambda r: {**r, "bids": [1, 1, 1]}),
        "unknown_field": ("invalid", lambda r: {**r, "colour": "red"}),
        "not_an_object": ("invalid", lambda r: [r]),
        "wrong_dealer": ("invalid", lambda r: {**r, "dealer": 0}),
        "wrong_game": ("invalid", lambda r: {**r, "game": "buck_euchre"}),
        "results_of_the_wrong_size": (
            "bad_deal",
            lambda r: {"cards": 2, "trump": "S", "bids": [1, 1, 1, 1], "tricks": [1, 1, 0, 0]},
        ),
        "results_that_do_not_add_up": (
            "bad_tricks",
            lambda r: {"trump": "S", "bids": [1, 1, 1, 1], "tricks": [1, 1, 0, 0]},
        ),
    }


REFUSALS = _refusals()


@pytest.mark.parametrize("case", list(REFUSALS))
def test_a_hand_the_engine_refuses_is_a_422_problem_and_stores_nothing(case: str) -> None:
    code, mutate = REFUSALS[case]
    first, second = _bluke_second_hand()
    setup = club_setup(options={"max_cards": 2})
    table_reseat(table=setup.table, first_dealer=1)
    client = client_for(setup.scorekeeper)
    assert post_hand(client, setup.table, 0, first).status_code == 201
    record = mutate(second)
    expected = engine_error(
        "bluke", record, before=[first], first_dealer=1, options={"max_cards": 2}
    ).to_json()
    assert expected["code"] == code
    before = results_snapshot(setup.table)

    body = assert_problem(post_hand(client, setup.table, 1, record), 422)

    assert body["type"] == f"/api/problems/engine/{code.replace('_', '-')}"
    assert body["title"] == "The rules engine refused the record"
    assert body["detail"] == expected["message"]
    assert body["hand"] == 1
    for field in ("code", "hand", "play", "seat", "card"):
        assert body.get(field) == expected.get(field), field
    assert results_snapshot(setup.table) == before


def test_a_move_log_that_does_not_follow_suit_names_the_play_seat_and_card() -> None:
    record = _must_follow_suit()
    first, second = _bluke_second_hand()
    setup = club_setup(options={"max_cards": 2})
    table_reseat(table=setup.table, first_dealer=1)
    hand_submit(table=setup.table, record=first)
    hand_submit(table=setup.table, record=second)
    expected = engine_error(
        "bluke", record, before=[first, second], first_dealer=1, options={"max_cards": 2}
    ).to_json()
    before = results_snapshot(setup.table)

    body = assert_problem(post_hand(client_for(setup.scorekeeper), setup.table, 2, record), 422)

    assert {k: body.get(k) for k in ("code", "hand", "play", "seat", "card")} == {
        "code": "must_follow_suit",
        "hand": 2,
        "play": expected["play"],
        "seat": expected["seat"],
        "card": expected["card"],
    }
    assert None not in (body["play"], body["seat"], body["card"])
    assert body["detail"] == expected["message"]
    assert results_snapshot(setup.table) == before


BUCK_REFUSALS = {
    "maker_drops": ({"trump": "S", "maker": 1, "drops": [1], "tricks": [2, 0, 3, 0]}, "bad_drop"),
    "dropped_seat_takes_a_trick": (
        {"trump": "S", "maker": 0, "drops": [1], "tricks": [3, 1, 1, 0]},
        "bad_tricks",
    ),
    "maker_without_trump": ({"trump": None, "maker": 0, "tricks": [5, 0, 0, 0]}, "bad_call"),
    "bids": ({"bids": [1, 1, 1, 1], **buck_takes_all(0)}, "invalid"),
    "wrong_dealer": ({"dealer": 0, **buck_takes_all(0)}, "invalid"),
}


@pytest.mark.parametrize("case", list(BUCK_REFUSALS))
def test_a_buck_euchre_hand_the_engine_refuses(case: str) -> None:
    record, code = BUCK_REFUSALS[case]
    setup = club_setup(game=Game.BUCK_EUCHRE)
    client = client_for(setup.organiser)
    first = {"trump": "H", "maker": 2, "tricks": [1, 1, 3, 0]}
    post_hand(client, setup.table, 0, first)
    expected = engine_error("buck_euchre", record, before=[first]).to_json()
    before = results_snapshot(setup.table)

    body = assert_problem(post_hand(client, setup.table, 1, record), 422)

    assert (body["code"], body["hand"], body["detail"]) == (code, 1, expected["message"])
    assert results_snapshot(setup.table) == before


def test_a_buck_euchre_move_log_without_its_discard_is_refused() -> None:
    logs = logs_of(Game.BUCK_EUCHRE)
    assert "discard" in logs[0]
    setup = club_setup(game=Game.BUCK_EUCHRE)
    table_reseat(table=setup.table, first_dealer=FIRST_DEALER)
    record = {k: v for k, v in logs[0].items() if k != "discard"}

    body = assert_problem(post_hand(client_for(setup.organiser), setup.table, 0, record), 422)

    assert (body["code"], body["hand"]) == ("bad_discard", 0)
    assert not Hand.objects.exists()


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_a_record_may_repeat_what_the_table_decides(game: str) -> None:
    setup = club_setup(game=game)
    table_reseat(table=setup.table, first_dealer=3)
    client = client_for(setup.scorekeeper)
    if game == Game.BLUKE:
        first = {"game": "bluke", "dealer": 3, "cards": 13, **bluke_results(13)}
        second = {"dealer": 0, **bluke_results(12, winner=1)}
    else:
        first = {
            "game": "buck_euchre",
            "dealer": 3,
            "trump": "H",
            "maker": 0,
            "tricks": [3, 1, 1, 0],
        }
        second = {"dealer": 0, "trump": "D", "maker": 1, "tricks": [1, 3, 1, 0]}

    assert post_hand(client, setup.table, 0, first).status_code == 201
    assert post_hand(client, setup.table, 1, second).status_code == 201

    stored = list(setup.table.hands.order_by("number").values_list("dealer", "record"))
    assert stored == [(3, first), (0, second)]


# -- a whole game at once -----------------------------------------------------------------


@pytest.mark.parametrize("form", ["move_logs", "results"])
@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_a_whole_game_is_submitted_at_once(game: str, form: str) -> None:
    logs = logs_of(game)
    options = options_of(game)
    hands = (
        logs
        if form == "move_logs"
        else [
            results_record(game, options, (FIRST_DEALER + n) % 4, log) for n, log in enumerate(logs)
        ]
    )
    setup = club_setup(game=game, options=options)
    table_reseat(table=setup.table, first_dealer=FIRST_DEALER)
    record = {
        "game": game,
        "players": 4,
        "first_dealer": FIRST_DEALER,
        "options": options,
        "hands": hands,
    }
    expected = games.check_record(record)

    response = client_for(setup.scorekeeper).post(
        f"/api/tables/{setup.table.pk}/game/", {"record": record}
    )

    assert response.status_code == 201, response.content
    assert response["ETag"] == etag(setup.table)
    body = response.json()
    assert len(body["hands"]) == len(logs)
    assert totals(body)[-1] == expected["totals"]
    assert [s["place"] for s in body["table"]["seatings"]] == expected["ranks"]
    assert body["table"]["status"] == "complete"
    assert body["next_hand"] is None
    assert [h["dealer"] for h in body["hands"]] == [
        (FIRST_DEALER + n) % 4 for n in range(len(logs))
    ]
    assert client_for().get(f"/api/tables/{setup.table.pk}/sheet/").json() == body


def test_a_game_in_progress_may_be_sent_with_only_its_hands() -> None:
    setup = club_setup()
    hands = [bluke_results(13), bluke_results(12, winner=3)]

    response = client_for(setup.scorekeeper).post(
        f"/api/tables/{setup.table.pk}/game/", {"record": {"hands": hands}}
    )

    assert response.status_code == 201
    body = response.json()
    assert body["table"]["status"] == "in_progress"
    assert body["next_hand"] == {"number": 2, "dealer": 2, "cards": 11}
    assert totals(body) == [[130, -10, -10, -10], [120, -20, -20, 110]]


def test_a_whole_game_with_a_bad_hand_in_the_middle_stores_nothing() -> None:
    setup = club_setup()
    bad = {"trump": "S", "bids": [1, 1, 1, 1], "tricks": [5, 5, 0, 0]}
    hands = [bluke_results(13), bluke_results(12), bad, bluke_results(10)]
    before = results_snapshot(setup.table)

    response = client_for(setup.scorekeeper).post(
        f"/api/tables/{setup.table.pk}/game/", {"record": {"game": "bluke", "hands": hands}}
    )

    body = assert_problem(response, 422)
    expected = engine_error("bluke", bad, before=hands[:2])
    assert (body["code"], body["hand"], body["detail"]) == ("bad_tricks", 2, expected.message)
    assert results_snapshot(setup.table) == before


def test_a_whole_game_with_a_hand_after_the_end_is_game_over() -> None:
    setup = club_setup(options={"max_cards": 1})
    hands = [bluke_results(1), bluke_results(1)]

    response = client_for(setup.scorekeeper).post(
        f"/api/tables/{setup.table.pk}/game/", {"record": {"hands": hands}}
    )

    body = assert_problem(response, 422)
    assert (body["code"], body["hand"]) == ("game_over", 1)
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("game", "buck_euchre"),
        ("players", 5),
        ("first_dealer", 2),
        ("options", {"max_cards": 3}),
        ("colour", "red"),
        ("hands", {"0": {}}),
        ("hands", []),  # no game (PostgreSQL refused the empty statement: a 500)
    ],
)
def test_a_whole_game_that_contradicts_the_table_is_a_400(field: str, value: Any) -> None:
    setup = club_setup()
    record = {
        "game": "bluke",
        "players": 4,
        "first_dealer": 0,
        "options": {},
        "hands": [bluke_results(13)],
        field: value,
    }
    before = results_snapshot(setup.table)

    response = client_for(setup.scorekeeper).post(
        f"/api/tables/{setup.table.pk}/game/", {"record": record}
    )

    body = assert_problem(response, 400)
    assert field in body["errors"]
    assert results_snapshot(setup.table) == before


def test_a_whole_game_record_must_be_an_object() -> None:
    setup = club_setup()
    url = f"/api/tables/{setup.table.pk}/game/"
    client = client_for(setup.scorekeeper)
    assert (
        "record" in assert_problem(client.post(url, {"record": [bluke_results(13)]}), 400)["errors"]
    )
    assert "record" in assert_problem(client.post(url, {}), 400)["errors"]


def test_a_whole_game_at_a_table_with_hands_is_a_conflict() -> None:
    setup = club_setup()
    hand_submit(table=setup.table, record=bluke_results(13))
    before = results_snapshot(setup.table)

    response = client_for(setup.scorekeeper).post(
        f"/api/tables/{setup.table.pk}/game/", {"record": {"hands": [bluke_results(12)]}}
    )

    assert_problem(response, 409)
    assert results_snapshot(setup.table) == before


# -- corrections ---------------------------------------------------------------------------


def played(hands: list[dict[str, Any]], **kwargs: Any) -> ClubSetup:
    setup = club_setup(**kwargs)
    for record in hands:
        hand_submit(table=setup.table, record=record)
    setup.table.refresh_from_db()
    return setup


def put_hand(client: Any, table: Table, number: int, record: Any, tag: str | None) -> Any:
    headers = {} if tag is None else {"HTTP_IF_MATCH": tag}
    return client.put(f"/api/tables/{table.pk}/hands/{number}/", {"record": record}, **headers)


def test_a_correction_recomputes_every_later_total() -> None:
    setup = played(
        [bluke_results(3), bluke_results(2, winner=1), bluke_results(1, winner=2)],
        options=BLUKE_OPTIONS,
    )
    client = client_for(setup.scorekeeper)
    sheet = client.get(f"/api/tables/{setup.table.pk}/sheet/")
    old = sheet.json()
    assert totals(old) == [[30, -10, -10, -10], [20, 10, -20, -20], [10, 0, -10, -30]]
    correction = bluke_results(3, winner=3)  # seat 3 instead of seat 0 took all three

    response = put_hand(client, setup.table, 0, correction, sheet["ETag"])

    assert response.status_code == 200
    assert response["ETag"] == f'"table-{setup.table.pk}-v{old["table"]["version"] + 1}"'
    body = response.json()
    assert [s["points"] for s in body["hands"][0]["seats"]] == [-10, -10, -10, 30]
    delta = [-40, 0, 0, 40]
    for before_hand, after_hand in zip(old["hands"][1:], body["hands"][1:], strict=True):
        assert [s["points"] for s in after_hand["seats"]] == [
            s["points"] for s in before_hand["seats"]
        ]
        assert [s["total"] for s in after_hand["seats"]] == [
            s["total"] + d for s, d in zip(before_hand["seats"], delta, strict=True)
        ]
    assert totals(body)[2] == [-30, 0, -10, 10]
    assert [s["total"] for s in body["table"]["seatings"]] == [-30, 0, -10, 10]
    assert setup.table.hands.get(number=0).record == correction
    assert client.get(f"/api/tables/{setup.table.pk}/sheet/").json() == body


def test_a_correction_of_the_last_hand_moves_the_places() -> None:
    setup = played([bluke_results(1, winner=0)], options={"max_cards": 1})
    client = client_for(setup.organiser)

    response = put_hand(client, setup.table, 0, bluke_results(1, winner=2), etag(setup.table))

    body = response.json()
    assert body["table"]["status"] == "complete"
    assert [s["place"] for s in body["table"]["seatings"]] == [2, 2, 1, 2]


def test_a_correction_needs_if_match() -> None:
    setup = played([bluke_results(13)])
    before = results_snapshot(setup.table)

    body = assert_problem(
        put_hand(client_for(setup.scorekeeper), setup.table, 0, bluke_results(13, 1), None), 428
    )

    assert body["type"] == "/api/problems/precondition-required"
    assert results_snapshot(setup.table) == before


def test_a_stale_if_match_is_a_412() -> None:
    setup = played([bluke_results(13)])
    stale = etag(setup.table)
    hand_submit(table=setup.table, record=bluke_results(12))
    before = results_snapshot(setup.table)

    response = put_hand(client_for(setup.scorekeeper), setup.table, 0, bluke_results(13, 1), stale)

    assert assert_problem(response, 412)["type"] == "/api/problems/stale-version"
    assert results_snapshot(setup.table) == before


@pytest.mark.parametrize("tag", ["nonsense", '"table-1-vX"', '""'])
def test_a_malformed_if_match_is_a_400(tag: str) -> None:
    setup = played([bluke_results(13)])
    before = results_snapshot(setup.table)

    response = put_hand(client_for(setup.scorekeeper), setup.table, 0, bluke_results(13, 1), tag)

    assert "If-Match" in assert_problem(response, 400)["errors"]
    assert results_snapshot(setup.table) == before


def test_the_etag_of_another_table_does_not_match() -> None:
    """If-Match compares the whole entity tag: table 2's version 1 is not table 1's."""
    setup = played([bluke_results(13)])
    other = make_table(round=setup.round, players=setup.players[4:8], number=2)
    hand_submit(table=other, record=bluke_results(13))
    other.refresh_from_db()
    assert (setup.table.version, other.version) == (1, 1)
    before = results_snapshot(setup.table)

    response = put_hand(
        client_for(setup.scorekeeper), setup.table, 0, bluke_results(13, 1), etag(other)
    )

    assert_problem(response, 412)
    assert results_snapshot(setup.table) == before


def test_a_correction_that_makes_a_later_hand_invalid_is_refused() -> None:
    """Taking all five tricks ends a Buck Euchre game at once, so the hand
    after it becomes a hand after the end."""
    first = {"trump": "H", "maker": 1, "tricks": [0, 4, 1, 0]}
    second = {"trump": "S", "maker": 2, "tricks": [1, 1, 3, 0]}
    setup = played([first, second], game=Game.BUCK_EUCHRE)
    before = results_snapshot(setup.table)

    response = put_hand(
        client_for(setup.scorekeeper), setup.table, 0, buck_takes_all(1), etag(setup.table)
    )

    body = assert_problem(response, 422)
    assert (body["code"], body["hand"]) == ("game_over", 1)
    assert body["detail"] == engine_error("buck_euchre", second, before=[buck_takes_all(1)]).message
    assert results_snapshot(setup.table) == before


def test_a_correction_the_engine_refuses_names_the_hand() -> None:
    setup = played([bluke_results(13), bluke_results(12)])
    before = results_snapshot(setup.table)
    bad = {"trump": "S", "bids": [1, 1, 1, 1], "tricks": [1, 0, 0, 0]}

    response = put_hand(client_for(setup.scorekeeper), setup.table, 0, bad, etag(setup.table))

    body = assert_problem(response, 422)
    assert (body["code"], body["hand"]) == ("bad_tricks", 0)
    assert results_snapshot(setup.table) == before


def test_a_correction_of_a_hand_not_played_is_a_conflict() -> None:
    setup = played([bluke_results(13)])
    response = put_hand(
        client_for(setup.scorekeeper), setup.table, 1, bluke_results(12), etag(setup.table)
    )
    assert_problem(response, 409)
    assert setup.table.hands.count() == 1


def test_a_correction_without_a_record_is_a_400() -> None:
    setup = played([bluke_results(13)])
    response = client_for(setup.scorekeeper).put(
        f"/api/tables/{setup.table.pk}/hands/0/", {}, HTTP_IF_MATCH=etag(setup.table)
    )
    assert "record" in assert_problem(response, 400)["errors"]


# -- deleting the last hand -------------------------------------------------------------------


def delete_hand(client: Any, table: Table, number: int, tag: str | None) -> Any:
    headers = {} if tag is None else {"HTTP_IF_MATCH": tag}
    return client.delete(f"/api/tables/{table.pk}/hands/{number}/", **headers)


def test_only_the_last_hand_is_deleted() -> None:
    setup = played([bluke_results(13), bluke_results(12, 1), bluke_results(11, 2)])
    client = client_for(setup.scorekeeper)
    before = results_snapshot(setup.table)

    assert_problem(delete_hand(client, setup.table, 0, etag(setup.table)), 409)
    assert_problem(delete_hand(client, setup.table, 3, etag(setup.table)), 409)
    assert results_snapshot(setup.table) == before

    response = delete_hand(client, setup.table, 2, etag(setup.table))

    assert response.status_code == 200
    body = response.json()
    assert response["ETag"] == f'"table-{setup.table.pk}-v{before["version"] + 1}"'
    assert [h["number"] for h in body["hands"]] == [0, 1]
    assert [s["total"] for s in body["table"]["seatings"]] == [120, 110, -20, -20]
    assert body["next_hand"] == {"number": 2, "dealer": 2, "cards": 11}
    assert setup.table.hands.count() == 2


def test_a_deletion_needs_a_current_if_match() -> None:
    setup = played([bluke_results(13)])
    client = client_for(setup.scorekeeper)
    stale = f'"table-{setup.table.pk}-v0"'
    before = results_snapshot(setup.table)

    assert_problem(delete_hand(client, setup.table, 0, None), 428)
    assert_problem(delete_hand(client, setup.table, 0, stale), 412)
    assert_problem(delete_hand(client, setup.table, 0, "v"), 400)
    assert results_snapshot(setup.table) == before


def test_deleting_the_last_hand_of_a_complete_game_reopens_it() -> None:
    setup = played([buck_takes_all(0)], game=Game.BUCK_EUCHRE)
    assert setup.table.complete

    response = delete_hand(client_for(setup.organiser), setup.table, 0, etag(setup.table))

    body = response.json()
    assert body["hands"] == []
    assert body["table"]["status"] == "not_started"  # no hands left: as before the first
    assert [(s["total"], s["place"]) for s in body["table"]["seatings"]] == [(25, None)] * 4
    assert body["next_hand"] == {"number": 0, "dealer": 0, "cards": 5}
    assert not Hand.objects.exists()


# -- what a complete game leads to -----------------------------------------------------------


def test_a_game_completed_through_the_api_shows_in_the_standings(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    setup = club_setup(options={"max_cards": 1})
    client = client_for(setup.scorekeeper)
    standings = f"/api/leagues/{setup.league.pk}/standings/"
    assert client_for().get(standings).json()["results"] == []

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert post_hand(client, setup.table, 0, bluke_results(1, winner=1)).status_code == 201

    assert len(callbacks) == 1
    rows = client_for().get(standings).json()["results"]
    winner = setup.players[1]
    assert (rows[0]["player"], rows[0]["games"], rows[0]["wins"]) == (winner.pk, 1, 1)
    assert {r["player"] for r in rows} == {p.pk for p in setup.players[:4]}


def test_a_body_that_is_not_json_is_a_problem_400() -> None:
    setup = club_setup()
    response = client_for(setup.scorekeeper).post(
        f"/api/tables/{setup.table.pk}/hands/",
        data='{"number": 0, "record": {',
        content_type="application/json",
    )
    assert assert_problem(response, 400)["type"] == "/api/problems/parse-error"
    assert not Hand.objects.exists()
