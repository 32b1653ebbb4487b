"""Every figure of a player's page (league/player_stats.py) against a league worked
out by hand, from rows alone: no database.

The Bluke league of player P (places, final totals; tables of four unless said):

=====  =========  ============  ============  ============  ============  ===========
game   night      P             A (7)         B (8)         C (9)         D (10)
=====  =========  ============  ============  ============  ============  ===========
G1     1, 1 Sep   1st, 60       2nd, 40       3rd, 20       4th, 0
G2     1, 1 Sep   3rd, 10       1st, 50       2nd, 30                     4th, -10
G3     2, 8 Sep   2nd, 35       1st, 45                     3rd, 15       4th, 5
G4     2, 8 Sep   1st, 70                     2nd, 20       3rd, 10       (three)
G5     3, 15 Sep  1st, 80       3rd, 30       2nd, 40                     4th, 0
G6     3, 15 Sep  2nd, 55       1st, 60                     3rd, 25       4th, -5
=====  =========  ============  ============  ============  ============  ===========

Head to head (P's place against theirs; P's total less theirs):

- A, 5 games: ahead in G1 and G5, behind in G2, G3 and G6; points 20 - 40 - 10 + 50 - 5
  = 15, 3.0 a game.
- B, 4 games (G1, G2, G4, G5): ahead 3, behind 1 (G2); points 40 - 20 + 50 + 40 = 110.
- C, 4 games (G1, G3, G4, G6): ahead 4; points 60 + 20 + 60 + 30 = 170.
- D, 4 games (G2, G3, G5, G6): ahead 4; points 20 + 30 + 80 + 60 = 190.

Most games first (A), then the latest met: C and D last met in G6, B in G5; C before D
by name. Rival: A. Nemesis: A, ahead of P in 3 of 5 games (more than half, at least 3
games); B is ahead in 1 of 4.

Wins: G1, G4, G5 (T F F T T F): longest 2, now 0. Top half (place x 2 <= players):
T F T T T T (G4's first of three counts): longest 4, now 4. Form: three nights, places
1 3 (70 points), 2 1 (105), 1 2 (135). Best total: G5's 80.

Best win: of the wins G1, G4, G5, the opponents' ratings before the game are
G1: 20, 10, 0 (mean 10); G4: 30, 27 (28.5); G5: 25, 22, 19 (22): G4.

P's Bluke hand lines (cards dealt, bid, tricks; ``M`` made, ``x`` missed), as the
seatings keep them (hands, bids made, overtricks, the bids made as bits; G4 to G6
with none): G1: (2, 1, 1) M, (1, 1, 0) x, (2, 1, 2) M +1: 3, 2, 1, 0b101; G2: (2, 2, 2)
M, (1, 1, 1) M, (2, 1, 1) M: 3, 3, 0, 0b111; G3: (2, 1, 2) M +1, (1, 1, 0) x, (2, 2, 2)
M: 3, 2, 1, 0b101. Bids made 7 of 9; one card 1 of 3, two cards 6 of 6; overtricks 2;
most in a row: G1's third to G3's first, 5; now 1.
"""

from __future__ import annotations

import datetime
import doctest

import pytest

import games
from league import player_stats
from league.player_stats import (
    DroppedHand,
    GamePlayed,
    Streak,
    Tablemate,
    drop_was_right,
    game_stats,
)
from league.web import player_figures
from tests.support.records import (
    BUCK_DEALER_DROPS,
    BUCK_DROP_RIGHT,
    BUCK_DROP_WRONG,
    BUCK_MAKER_ALONE,
)

P, A, B, C, D = 1, 7, 8, 9, 10
NAMES = {A: "A", B: "B", C: "C", D: "D"}
NIGHTS = {1: datetime.date(2026, 9, 1), 2: datetime.date(2026, 9, 8), 3: datetime.date(2026, 9, 15)}

# game: (night, players, P's place and total, {opponent: (place, total)})
LEAGUE = {
    1: (1, 4, (1, 60), {A: (2, 40), B: (3, 20), C: (4, 0)}),
    2: (1, 4, (3, 10), {A: (1, 50), B: (2, 30), D: (4, -10)}),
    3: (2, 4, (2, 35), {A: (1, 45), C: (3, 15), D: (4, 5)}),
    4: (2, 3, (1, 70), {B: (2, 20), C: (3, 10)}),
    5: (3, 4, (1, 80), {A: (3, 30), B: (2, 40), D: (4, 0)}),
    6: (3, 4, (2, 55), {A: (1, 60), C: (3, 25), D: (4, -5)}),
}
COUNTED = {  # game: hands, bids made, overtricks, the bids made as bits (hands of 2, 1, 2)
    1: (3, 2, 1, 0b101),
    2: (3, 3, 0, 0b111),
    3: (3, 2, 1, 0b101),
}
BEFORE = {(1, A): 20.0, (1, B): 10.0, (1, C): 0.0, (4, B): 30.0, (4, C): 27.0}
BEFORE |= {(5, A): 25.0, (5, B): 22.0, (5, D): 19.0}


def played() -> list[GamePlayed]:
    games = []
    for game, (night, players, (place, total), _) in LEAGUE.items():
        hands, made, overtricks, made_hands = COUNTED.get(game, (0, 0, 0, 0))
        games.append(
            GamePlayed(
                table_id=game,
                event_id=100 + night,
                event_name=f"Night {night}",
                date=NIGHTS[night],
                league_id=1,
                league_name="Thursday",
                round_number=1 + (game + 1) % 2,
                table_number=1,
                players=players,
                seat=0,
                place=place,
                total=total,
                hands=hands,
                bids_made=made,
                overtricks=overtricks,
                bids_made_hands=made_hands,
                sizes=(2, 1, 2),
            )
        )
    return games


def mates() -> list[Tablemate]:
    return [
        Tablemate(table_id=game, player_id=who, name=NAMES[who], place=place, total=total)
        for game, (_, _, _, others) in LEAGUE.items()
        for who, (place, total) in others.items()
    ]


def bluke_stats(**changes: object) -> player_stats.GameStats:
    rows: dict[str, object] = {
        "game": "bluke",
        "played": played(),
        "mates": mates(),
        "rated_before": BEFORE,
    }
    rows.update(changes)
    return game_stats(**rows)  # type: ignore[arg-type]


def test_head_to_head_counts_places_and_points_against_each_opponent() -> None:
    rows = bluke_stats().head_to_head
    assert [(r.name, r.games, r.ahead, r.behind, r.level, r.points) for r in rows] == [
        ("A", 5, 2, 3, 0, 15),
        ("C", 4, 4, 0, 0, 170),
        ("D", 4, 4, 0, 0, 190),
        ("B", 4, 3, 1, 0, 110),
    ]
    assert rows[0].points_a_game == 3.0


def test_the_rival_is_met_most_and_the_nemesis_is_ahead_in_more_than_half() -> None:
    stats = bluke_stats()
    assert stats.rival is not None and stats.rival.name == "A"
    assert stats.nemesis is not None and stats.nemesis.name == "A"
    # without G6, A is ahead in 2 of 4: half, not more; nobody else is ahead at all
    assert bluke_stats(played=played()[:5]).nemesis is None


def test_a_nemesis_needs_the_minimum_of_games_together() -> None:
    # only G2 and G3: A ahead in both, but 2 games are fewer than the minimum
    stats = bluke_stats(played=[g for g in played() if g.table_id in (2, 3)])
    assert player_stats.NEMESIS_MIN_GAMES == 3
    assert stats.head_to_head[0].behind == 2
    assert stats.nemesis is None


def test_streaks_of_wins_and_of_the_top_half() -> None:
    stats = bluke_stats()
    assert stats.wins == Streak(longest=2, current=0)
    assert stats.top_half == Streak(longest=4, current=4)
    assert stats.won == 3 and stats.games == 6


def test_form_is_the_latest_nights_with_their_places_and_points() -> None:
    form = bluke_stats().form
    assert [(n.name, [g.place for g in n.games], n.points) for n in form] == [
        ("Night 1", [1, 3], 70),
        ("Night 2", [2, 1], 105),
        ("Night 3", [1, 2], 135),
    ]
    # of seven nights, the latest five
    many = [g._replace(event_id=g.table_id, event_name=f"N{g.table_id}") for g in played()]
    extra = many[-1]._replace(table_id=7, event_id=7, event_name="N7")
    assert [n.name for n in bluke_stats(played=[*many, extra]).form] == [
        "N3",
        "N4",
        "N5",
        "N6",
        "N7",
    ]


def test_the_best_win_is_against_the_highest_rated_opponents() -> None:
    best = bluke_stats().best_win
    assert best is not None
    assert best.game.table_id == 4
    assert best.strength == 28.5
    assert [(o.name, o.rating) for o in best.opponents] == [("B", 30.0), ("C", 27.0)]
    # a win whose opponents are not all rated yet is passed over
    partial = {key: value for key, value in BEFORE.items() if key != (4, C)}
    later = bluke_stats(rated_before=partial).best_win
    assert later is not None and later.game.table_id == 5 and later.strength == 22.0
    assert bluke_stats(rated_before={}).best_win is None


def test_personal_bests_highest_in_bluke_lowest_in_buck_euchre() -> None:
    best = bluke_stats().best_total
    assert best is not None and (best.table_id, best.total) == (5, 80)
    buck = game_stats(game="buck_euchre", played=played(), mates=mates())
    assert buck.best_total is not None and buck.best_total.total == 10  # counts down


def test_bluke_bids_made_by_hand_size_overtricks_and_in_a_row() -> None:
    figures = bluke_stats().bluke
    assert figures is not None
    assert (figures.hands, figures.bids_made, figures.overtricks) == (9, 7, 2)
    assert [(s.cards, s.hands, s.made) for s in figures.by_size] == [(1, 3, 1), (2, 6, 6)]
    assert figures.bids_in_a_row == Streak(longest=5, current=1)
    assert bluke_stats().buck is None


def test_a_game_not_counted_hand_by_hand_is_left_out_of_the_sizes_and_runs() -> None:
    """G2 without its bits (a seating the results service did not count): its hands
    still count in all, not by size nor in a row (G1's third and G3's first: 2)."""
    games = [g._replace(bids_made_hands=None) if g.table_id == 2 else g for g in played()]
    figures = bluke_stats(played=games).bluke
    assert figures is not None
    assert (figures.hands, figures.bids_made) == (9, 7)
    assert [(s.cards, s.hands, s.made) for s in figures.by_size] == [(1, 2, 0), (2, 4, 4)]
    assert figures.bids_in_a_row == Streak(longest=2, current=1)
    # so is one whose hand sizes are not known (options the engine refuses)
    unsized = [g._replace(sizes=()) if g.table_id == 2 else g for g in played()]
    assert bluke_stats(played=unsized).bluke == figures


@pytest.mark.parametrize(
    ("record", "seat", "right"),
    [
        (BUCK_DROP_RIGHT, 3, True),
        (BUCK_DROP_WRONG, 3, False),
        (BUCK_DEALER_DROPS, 0, False),
        (BUCK_MAKER_ALONE, 3, None),
    ],
)
def test_a_drop_is_judged_against_the_tricks_as_played(
    record: dict[str, object], seat: int, right: bool | None
) -> None:
    games.evaluate_hand({"game": "buck_euchre", "dealer": 0, **record})  # a hand that was legal
    trump = "S" if record is BUCK_DEALER_DROPS else "H"
    hand = DroppedHand(seat=seat, dealer=0, trump=trump, record=record)
    assert drop_was_right(hand) is right


def test_a_record_the_engine_refuses_is_not_judged() -> None:
    broken = {**BUCK_DROP_RIGHT, "plays": ["JH", "JS"]}
    assert drop_was_right(DroppedHand(seat=3, dealer=0, trump="H", record=broken)) is None


def test_buck_euchre_maker_bucks_and_drops() -> None:
    """P's seatings keep: in G1, 8 hands, trump made in 3 (one bucked: fewer than 3
    tricks), bucked once as another player, 3 drops; in G2, 5 hands, 1 drop, bucked once
    as maker, trump made not counted (so G2 is left out of the makes, not of the rest).
    Three drops were entered card by card: BUCK_DROP_RIGHT and BUCK_DROP_WRONG, judged
    right and wrong, and BUCK_MAKER_ALONE, the maker left alone, not judged."""
    first, second = played()[:2]
    games = [
        first._replace(hands=8, made_trump=3, bucked_as_maker=1, bucked_as_player=1, drops=3),
        second._replace(hands=5, made_trump=None, bucked_as_maker=1, drops=1),
    ]
    dropped = [
        DroppedHand(seat=3, dealer=0, trump="H", record=BUCK_DROP_RIGHT),
        DroppedHand(seat=3, dealer=0, trump="H", record=BUCK_DROP_WRONG),
        DroppedHand(seat=3, dealer=0, trump="H", record=BUCK_MAKER_ALONE),
    ]
    stats = game_stats(game="buck_euchre", played=games, mates=[], dropped=dropped)
    buck = stats.buck
    assert buck is not None and stats.bluke is None
    assert (buck.hands, buck.maker, buck.maker_made) == (13, 3, 2)
    assert (buck.bucked_as_maker, buck.bucked_as_player, buck.drops) == (2, 1, 4)
    assert (buck.drops_judged, buck.drops_right) == (2, 1)
    shaped = player_figures.game_figures(stats, all_opponents=False)
    facts = {fact.term: fact.value for fact in shaped.facts}
    assert facts["Made trump"] == "3 of 13 hands; took 3 tricks or more in 2 (67 %)"
    assert facts["Drops that were right"] == "1 of 2 judged (50 %)"


# -- the page's words ------------------------------------------------------------------


def test_the_page_shows_ten_opponents_until_asked_for_all() -> None:
    others = [
        Tablemate(table_id=1, player_id=20 + n, name=f"Player {n:02d}", place=2, total=0)
        for n in range(12)
    ]
    stats = game_stats(game="bluke", played=played()[:1], mates=others)
    first = player_figures.game_figures(stats, all_opponents=False)
    assert len(first.opponents) == 10 and first.more_opponents == 2 and not first.cut_back
    every = player_figures.game_figures(stats, all_opponents=True)
    assert len(every.opponents) == 12 and every.more_opponents == 0 and every.cut_back


def test_points_differences_say_fewer_in_buck_euchre() -> None:
    stats = bluke_stats()
    shown = player_figures.game_figures(stats, all_opponents=False)
    assert [o.points for o in shown.opponents] == ["+3.0", "+42.5", "+47.5", "+27.5"]
    buck = game_stats(game="buck_euchre", played=played(), mates=mates())
    words = player_figures.game_figures(buck, all_opponents=False)
    assert [o.points for o in words.opponents] == [
        "3.0 more",
        "42.5 more",
        "47.5 more",
        "27.5 more",
    ]


def test_the_shaping_doctests() -> None:
    assert doctest.testmod(player_figures).failed == 0
