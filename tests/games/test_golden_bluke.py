"""Golden tests for Bluke: every rule of the rule book, with worked hands."""

from __future__ import annotations

import pytest

from games import Bluke, Card, card, check_record
from games.bluke import hand_points, max_hand_size
from tests.games.builders import BLUKE_EXAMPLE_HAND, bluke_hand, bluke_log, deal_of, error_of


def test_the_worked_move_log_answers_exactly_as_documented() -> None:
    assert check_record(BLUKE_EXAMPLE_HAND) == {
        "ok": True,
        "game": "bluke",
        "trump": "S",
        "tricks": [2, 0, 1],
        "points": [11, -10, -20],
        "winners": [0, 2, 0],
    }


def test_the_worked_results_only_hand() -> None:
    record = {
        "game": "bluke",
        "dealer": 2,
        "cards": 5,
        "trump": "H",
        "bids": [2, 1, 1, 3],
        "tricks": [2, 0, 1, 2],
    }
    assert check_record(record) == {
        "ok": True,
        "game": "bluke",
        "trump": "H",
        "tricks": [2, 0, 1, 2],
        "points": [20, -10, 10, -30],
    }


@pytest.mark.parametrize(
    ("bid", "took", "points"), [(6, 8, 62), (3, 5, 32), (5, 3, -50), (4, 0, -40)]
)
def test_the_four_scoring_examples(bid: int, took: int, points: int) -> None:
    assert hand_points(bid, took) == points
    other = 13 - took
    record = {
        "game": "bluke",
        "dealer": 0,
        "cards": 13,
        "trump": "S",
        "bids": [bid, 1],
        "tricks": [took, other],
    }
    assert check_record(record)["points"][0] == points


def test_card_codes_are_case_insensitive_and_accept_10() -> None:
    assert Card.parse("10h") is card("TH")
    assert Card.parse("th") is card("TH")
    assert Card.parse("aS") is card("AS")
    assert Card.parse("bh").code == "BH"
    assert Card.parse("Bl").code == "BL"
    for bad in ("1H", "XS", "", "AH ", "TTH", "BJ", 5, None, ["AS"]):
        assert Card.parse(bad) is None
    record = dict(
        BLUKE_EXAMPLE_HAND, deal=[["as", "7d", "bl"], ["Kh", "2C", "9s"], ["qd", "10S", "4h"]]
    )
    record["plays"] = ["9s", "10s", "AS", "7D", "KH", "QD", "4H", "bl", "2c"]
    assert check_record(record)["winners"] == [0, 2, 0]


@pytest.mark.parametrize(
    ("players", "largest", "hands"),
    [(2, 13, 25), (3, 13, 25), (4, 13, 25), (5, 10, 19), (7, 7, 13), (15, 3, 5)],
)
def test_the_schedule_goes_down_to_one_and_back(players: int, largest: int, hands: int) -> None:
    rules = Bluke(players)
    assert max_hand_size(players) == largest
    assert len(rules.schedule) == hands
    assert rules.schedule[0] == rules.schedule[-1] == largest
    assert min(rules.schedule) == 1
    # at least two cards stay undealt: one is turned up for trump
    assert 54 - players * largest >= 2


def test_max_cards_shortens_the_game() -> None:
    assert Bluke(4, max_cards=3).schedule == (3, 2, 1, 2, 3)
    assert (
        error_of(
            {
                "game": "bluke",
                "players": 4,
                "first_dealer": 0,
                "options": {"max_cards": 14},
                "hands": [],
            }
        )["code"]
        == "invalid"
    )


def test_a_turned_up_bluke_means_no_trump() -> None:
    record = bluke_log(
        deal_of("AS 7D", "KH 2C", "QD TS"), "BH", [1, 1, 1], ["KH", "QD", "AS", "2C", "TS", "7D"]
    )
    answer = check_record(record)
    assert answer["trump"] is None
    assert answer["winners"] == [1, 1]
    assert answer["points"] == [-10, 11, -10]


def test_the_hi_bluke_beats_the_lo_bluke_and_a_bluke_may_be_played_instead_of_following() -> None:
    record = bluke_log(
        deal_of("BH 3H", "5H 9C", "BL 6H"), "2S", [1, 1, 1], ["5H", "BL", "BH", "3H", "9C", "6H"]
    )
    assert check_record(record)["winners"] == [0, 2]


def test_a_led_bluke_calls_for_trumps_by_default() -> None:
    record = bluke_log(
        deal_of("AS 7D", "BL 2C", "TS 4H"), "5S", [1, 1, 1], ["BL", "4H", "7D", "2C", "TS", "AS"]
    )
    assert error_of(record) == {
        "code": "must_follow_suit",
        "play": 1,
        "seat": 2,
        "card": "4H",
        "message": "seat 2 must follow trumps (holds TS) but played 4H",
    }
    # holding a trump, seat 0 must play it too after a led Bluke
    record["plays"] = ["BL", "TS", "7D", "2C", "4H", "AS"]
    assert error_of(record)["play"] == 2


def test_a_led_bluke_frees_the_others_with_the_free_option() -> None:
    record = bluke_log(
        deal_of("AS 7D", "BL 2C", "TS 4H"),
        "5S",
        [1, 1, 1],
        ["BL", "4H", "7D", "2C", "TS", "AS"],
        options={"bluke_lead": "free"},
    )
    answer = check_record(record)
    assert answer["winners"] == [1, 0]
    assert answer["tricks"] == [1, 1, 0]


def test_a_led_bluke_frees_the_others_in_a_hand_with_no_trump() -> None:
    record = bluke_log(
        deal_of("AS 7D", "BL 2C", "TS 4H"), "BH", [1, 1, 1], ["BL", "4H", "7D", "2C", "TS", "AS"]
    )
    assert check_record(record)["winners"] == [1, 1]


def test_the_player_left_of_the_dealer_bids_and_leads() -> None:
    hand = Bluke(3).new_hand(
        dealer=2, deal=[[card("AS")], [card("KS")], [card("QS")]], turn_up=card("2H")
    )
    assert hand.to_act == 0
    assert hand.legal_actions() == [1]
    for _ in range(3):
        hand.apply_action(1)
    assert hand.phase.value == "play"
    assert hand.to_act == 0
    assert hand.legal_actions() == [card("AS")]


def test_the_winner_of_a_trick_leads_the_next() -> None:
    hand = bluke_hand(deal_of("2S 3C", "AS 4C", "KS 5C"), "9H", [1, 1, 1])
    hand.play(card("AS"))  # seat 1 leads
    hand.play(card("KS"))
    hand.play(card("2S"))
    assert hand.to_act == 1


def test_following_suit_is_enforced_with_the_documented_error() -> None:
    hand = bluke_hand(deal_of("2S 3C", "AS 4C", "KS 5C"), "9H", [1, 1, 1])
    hand.play(card("AS"))
    assert hand.legal_actions() == [card("KS")]
    record = bluke_log(deal_of("2S 3C", "AS 4C", "KS 5C"), "9H", [1, 1, 1], ["AS", "5C"])
    assert error_of(record) == {
        "code": "must_follow_suit",
        "play": 1,
        "seat": 2,
        "card": "5C",
        "message": "seat 2 must follow spades (holds KS) but played 5C",
    }


def test_a_player_unable_to_follow_may_play_any_card_and_trumps_win() -> None:
    record = bluke_log(
        deal_of("2S 3C", "AS 4C", "9H 5C"), "8H", [1, 1, 1], ["AS", "9H", "2S", "5C", "3C", "4C"]
    )
    assert check_record(record)["winners"] == [2, 2]


def test_bids_run_from_one_to_the_cards_dealt() -> None:
    record = dict(BLUKE_EXAMPLE_HAND, bids=[1, 0, 2])
    assert error_of(record) == {
        "code": "bad_bid",
        "seat": 1,
        "message": "seat 1 bid 0: bids run 1..3",
    }
    assert error_of(dict(BLUKE_EXAMPLE_HAND, bids=[1, 4, 2]))["code"] == "bad_bid"
    assert error_of(dict(BLUKE_EXAMPLE_HAND, bids=[1, 1]))["code"] == "bad_bid"
    assert error_of(dict(BLUKE_EXAMPLE_HAND, bids=[1, True, 1]))["code"] == "bad_bid"
    # equal bids are fine, and the total is not limited
    assert check_record(dict(BLUKE_EXAMPLE_HAND, bids=[3, 3, 3]))["ok"] is True


def test_the_documented_error_example_in_a_game() -> None:
    """records.md's example: hand 3, play 17, seat 2 plays 9C holding 4H."""
    plays = [
        "9S",
        "6S",
        "TS",
        "JC",
        "KC",
        "BL",
        "5C",
        "4C",
        "QC",
        "8S",
        "QS",
        "4S",
        "6H",
        "AH",
        "3H",
        "KH",
        "9H",
        "4H",
        "2D",
        "AC",
        "5D",
        "3C",
        "4D",
        "2S",
        "7D",
        "3S",
        "9C",
        "QH",
        "7S",
        "8H",
    ]
    hand_3 = {
        "deal": [
            ["4S", "2D", "TS", "QH", "JC", "AH", "7D", "4D", "KH", "4C"],
            ["9S", "3S", "9H", "QC", "2S", "8S", "3H", "7S", "KC", "AC"],
            ["5C", "8H", "9C", "5D", "6S", "3C", "QS", "4H", "6H", "BL"],
        ],
        "turn_up": "3D",
        "bids": [1, 2, 2],
        "plays": plays,
    }
    game = {
        "game": "bluke",
        "players": 3,
        "first_dealer": 0,
        "options": {},
        "hands": [
            {"trump": "S", "bids": [4, 4, 5], "tricks": [4, 4, 5]},
            {"trump": "H", "bids": [4, 4, 4], "tricks": [4, 4, 4]},
            {"trump": None, "bids": [3, 4, 4], "tricks": [3, 4, 4]},
            hand_3,
        ],
    }
    assert check_record(game)["ok"] is True
    hand_3["plays"] = [*plays[:17], "9C", *plays[18:]]
    assert check_record(game) == {
        "ok": False,
        "error": {
            "code": "must_follow_suit",
            "hand": 3,
            "play": 17,
            "seat": 2,
            "card": "9C",
            "message": "seat 2 must follow hearts (holds 4H) but played 9C",
        },
    }


def test_a_whole_game_totals_ranks_and_game_over() -> None:
    game = {
        "game": "bluke",
        "players": 3,
        "first_dealer": 1,
        "options": {"max_cards": 2},
        "hands": [
            {"trump": "S", "bids": [1, 1, 1], "tricks": [1, 1, 0]},
            {"trump": "D", "bids": [1, 1, 1], "tricks": [0, 0, 1]},
            {"trump": None, "bids": [2, 1, 1], "tricks": [0, 1, 1], "cards": 2, "dealer": 0},
        ],
    }
    answer = check_record(game)
    assert answer["totals"] == [-20, 10, 10]
    assert answer["complete"] is True
    assert answer["ranks"] == [3, 1, 1]
    assert [h["points"] for h in answer["hands"]] == [[10, 10, -10], [-10, -10, 10], [-20, 10, 10]]

    in_progress = dict(game, hands=game["hands"][:2])
    answer = check_record(in_progress)
    assert (answer["complete"], answer["ranks"], answer["totals"]) == (False, None, [0, 0, 0])

    after_the_end = dict(game, hands=[*game["hands"], game["hands"][0]])
    error = error_of(after_the_end)
    assert (error["code"], error["hand"]) == ("game_over", 3)


def test_a_hand_in_a_game_follows_the_schedule_and_dealer_rotation() -> None:
    game = {
        "game": "bluke",
        "players": 3,
        "first_dealer": 1,
        "options": {"max_cards": 2},
        "hands": [{"trump": "S", "bids": [1, 1, 1], "tricks": [1, 1, 0], "dealer": 2}],
    }
    error = error_of(game)
    assert (error["code"], error["hand"]) == ("invalid", 0)
    assert "dealer of this hand is seat 1" in error["message"]
    game["hands"] = [{"trump": "S", "bids": [1, 1, 1], "tricks": [1, 0, 0], "cards": 1}]
    assert error_of(game)["code"] == "bad_deal"
    # a move log of the wrong size for the schedule
    game["hands"] = [
        {
            "deal": deal_of("AS", "KS", "QS"),
            "turn_up": "2H",
            "bids": [1, 1, 1],
            "plays": ["AS", "QS", "KS"],
        }
    ]
    assert error_of(game)["code"] == "bad_deal"
    # seat 2 (left of the first dealer, 1) leads the first hand
    game["hands"][0]["deal"] = deal_of("AS 3S", "KS 4S", "QS 5S")
    game["hands"][0]["plays"] = ["QS", "AS", "KS", "3S", "4S", "5S"]
    assert check_record(game)["hands"][0]["winners"] == [0, 2]


def test_the_state_refuses_a_code_where_a_card_belongs() -> None:
    from games import InvalidRecord

    hand = bluke_hand(deal_of("2S 3C", "AS 4C", "KS 5C"), "9H", [1, 1, 1])
    # a str has an .index method: it must not pass for a Card
    with pytest.raises(InvalidRecord) as refused:
        hand.play("AS")  # type: ignore[arg-type]
    assert (refused.value.code, refused.value.play) == ("bad_card", 0)
    assert hand.legal_actions() == [card("4C"), card("AS")]
