"""Golden tests for Buck Euchre: calls, bowers, drops, scoring, the end."""

from __future__ import annotations

import pytest

from games import BuckEuchre, card, check_record
from games.buck_euchre import hand_points
from tests.games.builders import (
    BUCK_DEAL,
    buck_game,
    buck_hand,
    buck_log,
    error_of,
    first_legal_plays,
)


def test_the_worked_results_only_hand() -> None:
    record = {
        "game": "buck_euchre",
        "dealer": 0,
        "trump": "S",
        "maker": 1,
        "drops": [3],
        "tricks": [1, 3, 1, 0],
    }
    assert check_record(record) == {
        "ok": True,
        "game": "buck_euchre",
        "trump": "S",
        "tricks": [1, 3, 1, 0],
        "points": [-1, -3, -1, 0],
        "maker": 1,
        "drops": [3],
        "takes_all": None,
    }


def test_round_two_names_a_suit_and_the_left_bower_is_a_trump() -> None:
    hand = buck_hand(BUCK_DEAL, "AD", dealer=3, calls=("pass",) * 4 + ("H",))
    assert (hand.trump.value, hand.maker, hand.discarded) == ("H", 0, None)
    hand.apply_drops([])
    hand.play(card("TD"))  # seat 0 leads a diamond
    # seat 1 holds JD (the left bower: a heart now) and 9D: only 9D follows
    assert hand.legal_actions() == [card("9D")]


def test_the_left_bower_must_be_played_to_follow_trumps() -> None:
    plays = ["JH", "9D"]
    record = buck_log(calls=["pass"] * 4 + ["H"], plays=plays)
    assert error_of(record) == {
        "code": "must_follow_suit",
        "play": 1,
        "seat": 1,
        "card": "9D",
        "message": "seat 1 must follow trumps (holds JD) but played 9D",
    }


def test_the_right_bower_beats_the_left_bower_and_the_ace() -> None:
    hand = buck_hand(BUCK_DEAL, "AD", dealer=3, calls=("pass",) * 4 + ("H",))
    for code in ("JH", "JD", "KH", "JC"):
        hand.play(card(code))
    assert hand.tricks.winners == [0]
    hand = buck_hand(BUCK_DEAL, "AD", dealer=3, calls=("pass",) * 4 + ("H",))
    for code in ("AH", "JD", "KH", "JC"):
        hand.play(card(code))
    assert hand.tricks.winners == [1]


def test_ordering_up_gives_the_dealer_the_turned_card_and_a_discard() -> None:
    hand = buck_hand(BUCK_DEAL, "AD", dealer=3, calls=("pass", "order"))
    assert hand.phase.value == "discard"
    assert hand.to_act == 3
    assert card("AD") in hand.legal_actions()
    assert len(hand.legal_actions()) == 6
    hand.discard(card("9S"))
    assert (hand.trump.value, hand.maker) == ("D", 1)
    plays = first_legal_plays(
        hand_after_drops := buck_hand(
            BUCK_DEAL, "AD", dealer=3, calls=("pass", "order"), discard="9S", drops=(2,)
        )
    )
    answer = check_record(buck_log(calls=["pass", "order"], discard="9S", drops=[2], plays=plays))
    assert answer["ok"] is True
    assert answer == hand_after_drops.result().to_json()
    assert answer["drops"] == [2]
    assert answer["tricks"][2] == 0 and answer["points"][2] == 0
    assert "AD" in plays


def test_the_discarded_card_cannot_be_played() -> None:
    hand = buck_hand(BUCK_DEAL, "AD", dealer=3, calls=("pass", "order"), discard="JC")
    hand.apply_drops([])
    plays = ["9C", "9D", "AC", "JC"]
    error = error_of(buck_log(calls=["pass", "order"], discard="JC", plays=plays))
    assert (error["code"], error["play"], error["seat"]) == ("not_in_hand", 3, 3)


def test_a_turned_up_club_is_trump_with_no_calls_and_no_drops() -> None:
    hand = BuckEuchre().new_hand(
        dealer=3, deal=[[card(c) for c in h] for h in BUCK_DEAL], turn_up=card("TC")
    )
    assert (hand.phase.value, hand.trump.value, hand.maker) == ("play", "C", None)
    record = buck_log(turn_up="TC", calls=[], plays=first_legal_plays(hand))
    answer = check_record(record)
    assert (answer["trump"], answer["maker"], answer["drops"]) == ("C", None, [])
    # clubs: JC is the right bower, JS the left bower
    assert error_of(dict(record, drops=[2])) == {
        "code": "bad_drop",
        "seat": 2,
        "message": "seat 2 cannot drop: a club was turned up",
    }
    error = error_of(dict(record, calls=["pass"]))
    assert error["code"] == "bad_call"
    assert "club was turned up" in error["message"]
    no_calls = dict(record)
    del no_calls["calls"]
    assert check_record(no_calls)["ok"] is True


def test_the_left_bower_of_clubs_is_the_jack_of_spades() -> None:
    hand = BuckEuchre().new_hand(
        dealer=3, deal=[[card(c) for c in h] for h in BUCK_DEAL], turn_up=card("TC")
    )
    hand.play(card("9C"))  # seat 0 leads a trump
    hand.play(card("AS"))  # seat 1 has no club
    hand.play(card("AC"))
    assert hand.legal_actions() == [card("JC"), card("JS")]


def test_eight_passes_play_with_no_trump_and_no_bowers() -> None:
    hand = buck_hand(BUCK_DEAL, "AD", dealer=3, calls=("pass",) * 8, drops=())
    assert (hand.trump, hand.maker) == (None, None)
    hand.play(card("TD"))
    # JD is a plain diamond now, so seat 1 may follow with either
    assert hand.legal_actions() == [card("9D"), card("JD")]
    record = buck_log(
        calls=["pass"] * 8,
        plays=first_legal_plays(buck_hand(BUCK_DEAL, "AD", dealer=3, calls=("pass",) * 8)),
    )
    assert check_record(record)["trump"] is None


def test_calls_are_checked_in_turn() -> None:
    assert error_of(buck_log(calls=["S"], plays=[])) == {
        "code": "bad_call",
        "seat": 0,
        "message": "seat 0 named spades in round one: order or pass",
    }
    error = error_of(buck_log(calls=["pass"] * 4 + ["order"], plays=[]))
    assert (error["code"], error["seat"]) == ("bad_call", 0)
    error = error_of(buck_log(calls=["pass"] * 5 + ["D"], plays=[]))
    assert (error["code"], error["seat"]) == ("bad_call", 1)
    assert "turned down" in error["message"]
    error = error_of(buck_log(calls=["pass", "pass"], plays=[]))
    assert (error["code"], error["seat"]) == ("bad_call", 2)
    error = error_of(buck_log(calls=["order", "pass"], discard="9S", plays=[]))
    assert error["code"] == "bad_call"
    assert error_of(buck_log(calls=["bid"], plays=[]))["code"] == "bad_call"
    assert error_of(buck_log(calls=[7], plays=[]))["code"] == "bad_call"


def test_the_discard_is_present_exactly_when_someone_ordered() -> None:
    assert error_of(buck_log(calls=["order"], plays=[]))["code"] == "bad_discard"
    assert error_of(buck_log(calls=["order"], discard="KD", plays=[])) == {
        "code": "bad_discard",
        "seat": 3,
        "card": "KD",
        "message": "the dealer (seat 3) does not hold KD to discard",
    }
    assert error_of(buck_log(calls=["pass"] * 4 + ["S"], discard="9S", plays=[]))["code"] == (
        "bad_discard"
    )


def test_the_maker_cannot_drop_and_drops_are_seats() -> None:
    calls = ["pass"] * 4 + ["H"]
    assert error_of(buck_log(calls=calls, drops=[0], plays=[]))["code"] == "bad_drop"
    assert error_of(buck_log(calls=calls, drops=[1, 1], plays=[]))["code"] == "bad_drop"
    assert error_of(buck_log(calls=calls, drops=[4], plays=[]))["code"] == "bad_drop"
    assert error_of(buck_log(calls=calls, drops=["1"], plays=[]))["code"] == "bad_drop"


def test_the_lead_skips_dropped_seats() -> None:
    hand = buck_hand(BUCK_DEAL, "AD", dealer=3, calls=("pass",) * 5 + ("S",), drops=(0,))
    assert hand.to_act == 1
    plays = first_legal_plays(hand)
    answer = check_record(buck_log(calls=["pass"] * 5 + ["S"], drops=[0], plays=plays))
    assert answer["tricks"][0] == 0
    assert sum(answer["tricks"]) == 5


def test_a_lone_remaining_player_takes_all_five_without_playing() -> None:
    record = buck_log(calls=["pass"] * 5 + ["S"], drops=[0, 2, 3], plays=[])
    answer = check_record(record)
    assert answer["tricks"] == [0, 5, 0, 0]
    assert answer["winners"] == [1] * 5
    assert answer["takes_all"] == 1
    assert answer["points"] == [0, -5, 0, 0]
    error = error_of(dict(record, plays=["JD"]))
    assert (error["code"], error["play"]) == ("wrong_number_of_plays", 0)


def test_when_everybody_drops_nobody_scores() -> None:
    answer = check_record(buck_log(calls=["pass"] * 8, drops=[3, 2, 1, 0], plays=[]))
    assert answer["tricks"] == [0, 0, 0, 0]
    assert answer["points"] == [0, 0, 0, 0]
    assert answer["takes_all"] is None
    assert answer["drops"] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("tricks", "maker", "points"),
    [
        ([2, 1, 1, 1], 0, [3, -1, -1, -1]),  # a maker with 2 tricks moves +3
        ([0, 2, 2, 1], 0, [5, -2, -2, -1]),  # ... with none, +5
        ([3, 2, 0, 0], 0, [-3, -2, 5, 5]),  # others with none are bucked
        ([5, 0, 0, 0], 0, [-5, 5, 5, 5]),
    ],
)
def test_scoring_counts_down_with_one_penalty_at_most(
    tricks: list[int], maker: int, points: list[int]
) -> None:
    assert list(hand_points(tricks=tricks, maker=maker, playing=range(4))) == points
    record = {"game": "buck_euchre", "dealer": 0, "trump": "H", "maker": maker, "tricks": tricks}
    assert check_record(record)["points"] == points


def test_results_only_hands_are_checked_for_consistency() -> None:
    base = {"game": "buck_euchre", "dealer": 0, "trump": "S", "maker": 1, "tricks": [1, 3, 1, 0]}
    assert error_of(dict(base, tricks=[1, 3, 1, 1]))["code"] == "bad_tricks"
    assert error_of(dict(base, drops=[2]))["code"] == "bad_tricks"  # a dropped seat took 1
    assert error_of(dict(base, drops=[1], tricks=[1, 0, 1, 3]))["code"] == "bad_drop"
    assert error_of(dict(base, maker=None))["code"] == "bad_call"
    assert error_of(dict(base, trump=None))["code"] == "bad_call"
    assert error_of(dict(base, trump="X"))["code"] == "invalid"
    club_turned = dict(base, trump="C", maker=None)
    assert check_record(club_turned)["maker"] is None
    assert error_of(dict(club_turned, drops=[3], tricks=[1, 3, 1, 0]))["code"] == "bad_drop"
    nobody_in = dict(base, trump=None, maker=None, drops=[0, 1, 2, 3], tricks=[0, 0, 0, 0])
    assert check_record(nobody_in)["points"] == [0, 0, 0, 0]
    lone = dict(base, drops=[0, 2, 3], tricks=[0, 5, 0, 0])
    assert check_record(lone)["takes_all"] == 1


def test_taking_all_five_tricks_wins_at_once() -> None:
    sweep = {"trump": "S", "maker": 1, "tricks": [0, 5, 0, 0]}
    answer = check_record(buck_game(sweep))
    assert answer["totals"] == [30, 20, 30, 30]
    assert answer["complete"] is True
    assert answer["ranks"] == [2, 1, 2, 2]
    error = error_of(buck_game(sweep, sweep))
    assert (error["code"], error["hand"]) == ("game_over", 1)


def test_reaching_zero_with_the_lowest_score_wins() -> None:
    hand = {"trump": "S", "maker": 0, "drops": [2, 3], "tricks": [4, 1, 0, 0]}
    answer = check_record(buck_game(*[hand] * 6))
    assert (answer["totals"], answer["complete"]) == ([1, 19, 25, 25], False)
    answer = check_record(buck_game(*[hand] * 7))
    assert answer["totals"] == [-3, 18, 25, 25]
    assert answer["complete"] is True
    assert answer["ranks"] == [1, 2, 3, 3]


def test_a_shared_lowest_score_plays_on() -> None:
    a = {"trump": "S", "maker": 0, "drops": [2, 3], "tricks": [3, 2, 0, 0]}
    b = {"trump": "S", "maker": 1, "drops": [2, 3], "tricks": [2, 3, 0, 0]}
    ten = [a, b] * 5
    answer = check_record(buck_game(*ten))
    assert (answer["totals"], answer["complete"], answer["ranks"]) == ([0, 0, 25, 25], False, None)
    answer = check_record(buck_game(*ten, a))
    assert answer["totals"] == [-3, -2, 25, 25]
    assert (answer["complete"], answer["ranks"]) == (True, [1, 2, 3, 3])


def test_a_game_of_move_logs_uses_the_dealer_rotation() -> None:
    first = {"deal": BUCK_DEAL, "turn_up": "AD", "calls": ["pass"] * 4 + ["H"], "plays": []}
    hand = buck_hand(BUCK_DEAL, "AD", dealer=3, calls=("pass",) * 4 + ("H",))
    first["plays"] = first_legal_plays(hand)
    answer = check_record(buck_game(first, first_dealer=3))
    assert answer["hands"][0] == hand.result().to_json()
    assert answer["totals"] == [25 + p for p in hand.result().points]
    error = error_of(buck_game(first, first_dealer=0))
    assert error["hand"] == 0
    with pytest.raises(Exception, match="4 players"):
        BuckEuchre(3)
    assert error_of({**buck_game(first), "players": 5})["code"] == "invalid"


def test_the_buck_euchre_deck_is_nine_to_ace() -> None:
    bad = [list(h) for h in BUCK_DEAL]
    bad[2][0] = "8H"
    assert error_of(buck_log(deal=bad, calls=["order"], plays=[])) == {
        "code": "bad_card",
        "seat": 2,
        "card": "8H",
        "message": "8H is not in the Buck Euchre deck",
    }
    assert error_of(buck_log(turn_up="BH", calls=[], plays=[]))["code"] == "bad_card"
    assert error_of(buck_log(turn_up="JH", calls=[], plays=[]))["code"] == "duplicate_card"
