"""The write services: results checked by the engine, tables, leagues, standings."""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable
from typing import Any

import pytest

import games
from games.bots import bot_game
from league.errors import Conflict, PreconditionFailed, ServiceError
from league.models import Game, Hand, League, Player, Seating, Standing, Table
from league.services.fixtures import (
    RoundsDrawn,
    event_create,
    event_rounds_trim,
    league_create,
    round_create,
    table_create,
)
from league.services.results import ResultsMode, check_results_change, hand_submit
from league.standings import standings_refresh
from tests.support.api import assert_problem, client_for
from tests.support.factories import (
    ClubFactory,
    EventFactory,
    LeagueFactory,
    PlayerFactory,
    make_table,
)
from tests.support.records import bluke_results, buck_takes_all, results_record
from tests.support.setups import club_setup, options_stored
from tests.support.state import db_state, results_snapshot

pytestmark = pytest.mark.django_db

# -- hand_submit: a valid hand -------------------------------------------------


def test_a_valid_hand_is_stored_with_its_seats_and_totals() -> None:
    table = make_table(game=Game.BLUKE, options={"max_cards": 2}, first_dealer=1)
    record = {"trump": "H", "bids": [1, 2, 1, 1], "tricks": [0, 2, 0, 0]}

    hand = hand_submit(table=table, record=record).hands[-1]

    assert (hand.number, hand.dealer, hand.cards, hand.trump) == (0, 1, 2, "H")
    assert (hand.maker, hand.drops, hand.takes_all, hand.is_move_log) == (None, [], None, False)
    assert Hand.objects.get().record == record
    seats = list(hand.seats.values_list("seat", "bid", "tricks", "points", "total"))
    assert seats == [
        (0, 1, 0, -10, -10),
        (1, 2, 2, 20, 20),
        (2, 1, 0, -10, -10),
        (3, 1, 0, -10, -10),
    ]
    # running totals live on the table; seatings get final totals and places
    assert list(table.seatings.values_list("seat", "total", "place")) == [
        (0, None, None),
        (1, None, None),
        (2, None, None),
        (3, None, None),
    ]
    table.refresh_from_db()
    assert table.totals == [-10, 20, -10, -10]
    assert (table.version, table.complete, table.hands_played) == (1, False, 1)

    second = hand_submit(table=table, record=bluke_results(1, winner=0)).hands[-1]

    assert (second.number, second.dealer, second.cards) == (1, 2, 1)
    assert list(second.seats.values_list("total", flat=True)) == [0, 10, -20, -20]
    table.refresh_from_db()
    assert table.totals == [0, 10, -20, -20]
    assert (table.version, table.complete, table.hands_played) == (2, False, 2)


def test_a_buck_euchre_table_starts_at_25_and_counts_down() -> None:
    table = make_table(game=Game.BUCK_EUCHRE, first_dealer=2)
    assert table.totals == [25, 25, 25, 25]
    record = {"trump": "S", "maker": 1, "drops": [3], "tricks": [1, 3, 1, 0]}

    hand = hand_submit(table=table, record=record).hands[-1]

    assert (hand.dealer, hand.cards, hand.trump, hand.maker, hand.drops) == (2, 5, "S", 1, [3])
    assert list(hand.seats.values_list("bid", "tricks", "points", "total")) == [
        (None, 1, -1, 24),
        (None, 3, -3, 22),
        (None, 1, -1, 24),
        (None, 0, 0, 25),
    ]
    table.refresh_from_db()
    assert table.totals == [24, 22, 24, 25]
    assert (table.version, table.complete) == (1, False)


def test_hands_follow_the_games_dealer_and_hand_size() -> None:
    table = make_table(game=Game.BLUKE, options={"max_cards": 2}, first_dealer=3)
    # the record may repeat the dealer and hand size, if it does not contradict them
    hand_submit(
        table=table,
        record={
            "dealer": 3,
            "cards": 2,
            "trump": "C",
            "bids": [1, 1, 1, 1],
            "tricks": [1, 1, 0, 0],
        },
    )
    hand_submit(table=table, record={"dealer": 0, **bluke_results(1, winner=1)})
    hand_submit(table=table, record={"trump": None, "bids": [2, 1, 1, 1], "tricks": [2, 0, 0, 0]})
    assert list(Hand.objects.values_list("number", "dealer", "cards")) == [
        (0, 3, 2),
        (1, 0, 1),
        (2, 1, 2),
    ]
    table.refresh_from_db()
    assert table.complete is True


# -- hand_submit: refusals -----------------------------------------------------


def _bluke_move_log() -> dict[str, Any]:
    """The first hand (2 cards, dealer 1) of a bot game of Bluke with max_cards 2."""
    return bot_game(games.rules_for("bluke", 4, {"max_cards": 2}), first_dealer=1, seed=3)[0]


def _not_in_hand() -> dict[str, Any]:
    record = _bluke_move_log()
    leader = 2  # the dealer's left
    return {**record, "plays": [record["deal"][leader + 1][0], *record["plays"][1:]]}


def _short_deal() -> dict[str, Any]:
    record = _bluke_move_log()
    return {**record, "deal": [dealt[:1] for dealt in record["deal"]]}


REFUSED_BLUKE = {
    "tricks_do_not_add_up": (
        {"trump": "S", "bids": [1, 1, 1, 1], "tricks": [1, 0, 0, 0]},
        "bad_tricks",
    ),
    "bid_above_the_hand": ({"trump": "S", "bids": [3, 1, 1, 1], "tricks": [2, 0, 0, 0]}, "bad_bid"),
    "bid_of_zero": ({"trump": "S", "bids": [0, 1, 1, 1], "tricks": [2, 0, 0, 0]}, "bad_bid"),
    "wrong_dealer": ({"dealer": 0, **bluke_results(1, 0)}, "invalid"),
    "wrong_hand_size": ({"cards": 1, **bluke_results(1, 0)}, "bad_deal"),
    "unknown_field": ({"colour": "red", **bluke_results(1, 0)}, "invalid"),
    "other_game": ({"game": "buck_euchre", **bluke_results(1, 0)}, "invalid"),
    "not_an_object": ([], "invalid"),
    "card_not_in_hand": (_not_in_hand(), "not_in_hand"),
    "deal_of_the_wrong_size": (_short_deal(), "bad_deal"),
}


@pytest.mark.parametrize(("record", "code"), list(REFUSED_BLUKE.values()), ids=list(REFUSED_BLUKE))
def test_a_refused_bluke_hand_stores_nothing(record: Any, code: str) -> None:
    table = make_table(game=Game.BLUKE, options={"max_cards": 2}, first_dealer=1)
    before = results_snapshot(table)

    with pytest.raises(games.RecordError) as refused:
        hand_submit(table=table, record=record)

    assert refused.value.code == code
    assert results_snapshot(table) == before


REFUSED_BUCK = {
    "maker_without_trump": ({"trump": None, "maker": 0, "tricks": [5, 0, 0, 0]}, "bad_call"),
    "tricks_do_not_add_up": ({"trump": "S", "maker": 0, "tricks": [3, 1, 0, 0]}, "bad_tricks"),
    "dropped_seat_took_a_trick": (
        {"trump": "S", "maker": 0, "drops": [1], "tricks": [3, 1, 1, 0]},
        "bad_tricks",
    ),
    "bids_in_buck_euchre": ({"bids": [1, 1, 1, 1], **buck_takes_all(0)}, "invalid"),
    "wrong_dealer": ({"dealer": 2, **buck_takes_all(0)}, "invalid"),
}


@pytest.mark.parametrize(("record", "code"), list(REFUSED_BUCK.values()), ids=list(REFUSED_BUCK))
def test_a_refused_buck_euchre_hand_stores_nothing(record: Any, code: str) -> None:
    table = make_table(game=Game.BUCK_EUCHRE, first_dealer=0)
    hand_submit(table=table, record={"trump": "H", "maker": 2, "tricks": [1, 1, 3, 0]})
    before = results_snapshot(table)

    with pytest.raises(games.RecordError) as refused:
        hand_submit(table=table, record=record)

    assert refused.value.code == code
    assert results_snapshot(table) == before


@pytest.mark.parametrize(
    ("game", "options", "finishing", "next_hand"),
    [
        (Game.BLUKE, {"max_cards": 1}, bluke_results(1, 2), bluke_results(1, 0)),
        (Game.BUCK_EUCHRE, {}, buck_takes_all(3), buck_takes_all(0)),
    ],
    ids=["bluke", "buck_euchre"],
)
def test_no_hand_is_accepted_after_the_game_is_complete(
    game: str, options: dict[str, Any], finishing: dict[str, Any], next_hand: dict[str, Any]
) -> None:
    table = make_table(game=game, options=options)
    hand_submit(table=table, record=finishing)
    before = results_snapshot(table)
    assert before["complete"] is True

    with pytest.raises(games.RecordError) as refused:
        hand_submit(table=table, record=next_hand)

    assert refused.value.code == "game_over"
    assert results_snapshot(table) == before


# -- hand_submit: both record forms ----------------------------------------------


@pytest.mark.parametrize(
    ("game", "options"),
    [(Game.BLUKE, {"max_cards": 3}), (Game.BUCK_EUCHRE, {})],
    ids=["bluke", "buck_euchre"],
)
def test_move_logs_and_results_give_the_same_game(game: str, options: dict[str, Any]) -> None:
    logs = bot_game(games.rules_for(game, 4, options), first_dealer=1, seed=11)
    assert len(logs) > 1
    as_logs = make_table(game=game, options=options, first_dealer=1)
    as_results = make_table(round=as_logs.round, first_dealer=1)

    for number, log in enumerate(logs):
        hand_submit(table=as_logs, record=log)
        results = results_record(game, options, (1 + number) % 4, log)
        hand_submit(table=as_results, record=results)

    expected = games.check_record(
        {"game": game, "players": 4, "first_dealer": 1, "options": options, "hands": logs}
    )
    assert expected["ok"] is True
    assert expected["complete"] is True
    for table, move_logs in ((as_logs, True), (as_results, False)):
        table.refresh_from_db()
        assert table.complete is True
        assert table.version == len(logs)
        assert set(table.hands.values_list("is_move_log", flat=True)) == {move_logs}
        assert list(table.seatings.values_list("total", flat=True)) == expected["totals"]
        assert list(table.seatings.values_list("place", flat=True)) == expected["ranks"]
        points = [
            list(hand.seats.values_list("points", flat=True))
            for hand in table.hands.order_by("number")
        ]
        assert points == [hand["points"] for hand in expected["hands"]]


# -- a complete game -------------------------------------------------------------


def test_a_complete_game_sets_places_and_refreshes_the_standings_on_commit(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    table = make_table(game=Game.BLUKE, options={"max_cards": 2})
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        hand_submit(
            table=table, record={"trump": "S", "bids": [1, 1, 2, 1], "tricks": [1, 0, 1, 0]}
        )
        hand_submit(table=table, record=bluke_results(1, winner=1))
    assert callbacks == []  # an unfinished game changes no standings
    assert not Standing.objects.exists()
    assert set(table.seatings.values_list("place", flat=True)) == {None}

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        hand_submit(
            table=table, record={"trump": "D", "bids": [1, 2, 1, 1], "tricks": [0, 2, 0, 0]}
        )

    assert len(callbacks) == 1
    # totals: seat 0 10-10-10, seat 1 -10+10+20, seat 2 -20-10-10, seat 3 -10-10-10
    rows = list(table.seatings.values_list("player__name", "total", "place"))
    assert [(total, place) for _, total, place in rows] == [(-10, 2), (20, 1), (-40, 4), (-30, 3)]
    standings = {
        s.player.name: (s.games, s.wins, s.total_points, s.average_place)
        for s in Standing.objects.filter(league=table.round.event.league)
    }
    assert standings == {
        rows[0][0]: (1, 0, -10, 2.0),
        rows[1][0]: (1, 1, 20, 1.0),
        rows[2][0]: (1, 0, -40, 4.0),
        rows[3][0]: (1, 0, -30, 3.0),
    }


def test_a_buck_euchre_winner_places_first_and_the_others_by_score() -> None:
    table = make_table(game=Game.BUCK_EUCHRE)
    hand_submit(table=table, record={"trump": "H", "maker": 1, "tricks": [0, 4, 1, 0]})
    # totals 30 21 24 30; then seat 2 takes all and wins: 35 26 19 35
    hand_submit(table=table, record=buck_takes_all(2))
    assert list(table.seatings.values_list("total", "place")) == [
        (35, 3),
        (26, 2),
        (19, 1),
        (35, 3),
    ]


def _standings(league: League) -> list[tuple[str, int, int, int, float]]:
    return sorted(
        Standing.objects.filter(league=league, event=None).values_list(
            "player__name", "games", "wins", "total_points", "average_place"
        )
    )


def test_standings_count_the_complete_games_of_the_league_only() -> None:
    club = ClubFactory()
    p = [PlayerFactory(club=club, name=f"P{n}") for n in range(6)]
    league = LeagueFactory(club=club, game=Game.BLUKE, options={"max_cards": 1})
    event = EventFactory(league=league, rounds=3)
    r1, r2, r3 = event.rounds.order_by("number")
    first = make_table(round=r1, players=p[0:4])
    hand_submit(table=first, record=bluke_results(1, winner=0))
    second = make_table(round=r2, players=p[1:5])
    hand_submit(table=second, record=bluke_results(1, winner=2))  # seat 2 is P3
    make_table(round=r3, players=[p[0], p[5]])  # not played: counts for nobody
    # a complete game of another league of the same club counts only there
    other = LeagueFactory(club=club, game=Game.BUCK_EUCHRE)
    other_table = make_table(round=EventFactory(league=other).rounds.get(), players=p[0:4])
    hand_submit(table=other_table, record=buck_takes_all(0))
    Standing.objects.create(
        league=league,
        player=p[5],
        games=9,
        wins=9,
        total_points=99,
        average_points=11.0,
        hands=9,
        rank=1,
        average_place=1.0,
        computed_at=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC),
    )

    assert standings_refresh(league=league) == 5

    expected = [
        ("P0", 1, 1, 10, 1.0),
        ("P1", 2, 0, -20, 2.0),
        ("P2", 2, 0, -20, 2.0),
        ("P3", 2, 1, 0, 1.5),
        ("P4", 1, 0, -10, 2.0),
    ]
    assert _standings(league) == expected
    assert standings_refresh(league=league) == 5
    assert _standings(league) == expected
    assert Standing.objects.filter(league=league, event=None).count() == 5
    assert _standings(other) == []


def test_standings_of_a_league_without_complete_games_are_empty() -> None:
    table = make_table(game=Game.BUCK_EUCHRE)
    league = table.round.event.league
    hand_submit(table=table, record={"trump": "H", "maker": 1, "tricks": [0, 4, 1, 0]})
    assert standings_refresh(league=league) == 0
    assert not Standing.objects.exists()


# -- league_create ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options", "field"),
    [
        (Game.BLUKE, {"max_cards": 99}, "options"),
        (Game.BLUKE, {"max_cards": 0}, "options"),
        (Game.BLUKE, {"max_cards": "5"}, "options"),
        (Game.BLUKE, {"max_cards": True}, "options"),
        (Game.BLUKE, {"bluke_lead": "wild"}, "options"),
        (Game.BLUKE, {"colour": "red"}, "options"),
        (Game.BUCK_EUCHRE, {"max_cards": 3}, "options"),
        ("poker", {}, "game"),
    ],
)
def test_league_create_refuses_bad_games_and_options(
    game: str, options: dict[str, Any], field: str
) -> None:
    club = ClubFactory()
    with pytest.raises(ServiceError) as refused:
        league_create(club=club, name="Cup", game=game, options=options)
    assert refused.value.field == field
    assert not League.objects.exists()


def test_league_create_keeps_good_options() -> None:
    league = league_create(
        club=ClubFactory(),
        name="Short Bluke",
        game=Game.BLUKE,
        options={"max_cards": 5, "bluke_lead": "free"},
    )
    league.refresh_from_db()
    assert (league.slug, league.options) == ("short-bluke", {"max_cards": 5, "bluke_lead": "free"})


# -- table_create -------------------------------------------------------------------------


def test_table_create_seats_the_players_in_order() -> None:
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(5)]
    league = LeagueFactory(club=club, game=Game.BLUKE)
    round_ = EventFactory(league=league).rounds.get()
    table = table_create(round=round_, number=1, players=players, first_dealer=4)
    assert (table.game, table.players, table.first_dealer) == (Game.BLUKE, 5, 4)
    assert list(table.seatings.values_list("seat", "player", "round", "total", "place")) == [
        (seat, player.pk, round_.pk, None, None) for seat, player in enumerate(players)
    ]
    assert table.totals == [0] * 5


def _refused_table(
    game: str, players: Callable[[League], list[Player]], first_dealer: int = 0
) -> ServiceError:
    league = LeagueFactory(game=game)
    round_ = EventFactory(league=league).rounds.get()
    seated = players(league)
    tables, seatings = Table.objects.count(), Seating.objects.count()
    with pytest.raises(ServiceError) as refused:
        table_create(round=round_, number=1, players=seated, first_dealer=first_dealer)
    assert (Table.objects.count(), Seating.objects.count()) == (tables, seatings)
    return refused.value


def _four(league: League) -> list[Player]:
    return PlayerFactory.create_batch(4, club=league.club)


def test_table_create_refuses_a_player_of_another_club() -> None:
    def players(league: League) -> list[Player]:
        return [*PlayerFactory.create_batch(3, club=league.club), PlayerFactory()]

    assert _refused_table(Game.BLUKE, players).field == "players"


def test_table_create_refuses_a_player_in_two_seats() -> None:
    def players(league: League) -> list[Player]:
        three = PlayerFactory.create_batch(3, club=league.club)
        return [*three, three[0]]

    assert _refused_table(Game.BUCK_EUCHRE, players).field == "players"


@pytest.mark.parametrize("first_dealer", [4, -1, 99])
def test_table_create_refuses_a_first_dealer_who_is_not_a_seat(first_dealer: int) -> None:
    assert _refused_table(Game.BLUKE, _four, first_dealer).field == "first_dealer"


@pytest.mark.parametrize(
    ("game", "count"),
    [(Game.BUCK_EUCHRE, 3), (Game.BUCK_EUCHRE, 5), (Game.BLUKE, 1), (Game.BLUKE, 16)],
)
def test_table_create_refuses_a_seat_count_the_game_does_not_allow(game: str, count: int) -> None:
    _refused_table(game, lambda league: PlayerFactory.create_batch(count, club=league.club))


def test_a_wrong_seat_count_is_reported_against_the_players() -> None:
    """ServiceError.field names the input at fault: the players, not the options."""
    refused = _refused_table(
        Game.BUCK_EUCHRE, lambda league: PlayerFactory.create_batch(3, club=league.club)
    )
    assert refused.field == "players"


def test_a_table_checks_the_league_options_for_its_own_size() -> None:
    """max_cards 13 is fine for four players, too many cards for five (a league made
    before its options were checked at every table size may hold it)."""
    league = options_stored(LeagueFactory(game=Game.BLUKE), {"max_cards": 13})
    round_ = EventFactory(league=league).rounds.get()
    with pytest.raises(ServiceError) as refused:
        table_create(
            round=round_, number=1, players=PlayerFactory.create_batch(5, club=league.club)
        )
    assert refused.value.field == "options"
    assert not Table.objects.exists()
    table = table_create(
        round=round_, number=1, players=PlayerFactory.create_batch(4, club=league.club)
    )
    assert table.players == 4


# -- event_create -----------------------------------------------------------------------------


def test_event_create_numbers_the_rounds_from_one() -> None:
    event = event_create(
        league=LeagueFactory(), name="Night", date=datetime.date(2026, 9, 3), rounds=3
    )
    assert list(event.rounds.values_list("number", flat=True)) == [1, 2, 3]


def test_event_create_refuses_an_event_without_rounds() -> None:
    league = LeagueFactory()
    with pytest.raises(ServiceError) as refused:
        event_create(league=league, name="Night", date=datetime.date(2026, 9, 3), rounds=0)
    assert refused.value.field == "rounds"
    assert not league.events.exists()


@pytest.mark.parametrize("kind", ["league", "player"])
def test_a_name_the_club_already_has_is_the_same_conflict_everywhere(kind: str) -> None:
    """A duplicate league slug and a duplicate player name are one kind of
    clash, answered alike: 409 with the field at fault."""
    setup = club_setup()
    url, data, field = {
        "league": ("/api/leagues/", {"name": setup.league.name, "game": "bluke"}, "slug"),
        "player": ("/api/players/", {"name": setup.players[0].name}, "name"),
    }[kind]
    before = db_state()
    response = client_for(setup.organiser).post(url, {"club": setup.club.pk, **data})
    body = assert_problem(response, 409)
    assert body["field"] == field
    assert db_state() == before


@pytest.mark.parametrize(
    ("mode", "number", "version", "kept_or_refused"),
    [
        (ResultsMode.APPEND, None, None, 3),
        (ResultsMode.APPEND, 3, None, 3),
        (ResultsMode.APPEND, 2, None, Conflict),  # sent twice: counted once
        (ResultsMode.APPEND, 4, None, Conflict),  # a hand skipped
        (ResultsMode.REPLACE, 0, 7, 0),
        (ResultsMode.REPLACE, 3, 7, Conflict),  # not stored yet
        (ResultsMode.REPLACE, 0, 6, PreconditionFailed),  # a stale sheet
        (ResultsMode.DELETE_LAST, 2, 7, 2),
        (ResultsMode.DELETE_LAST, 1, 7, Conflict),  # only the last
    ],
)
def test_a_change_of_results_is_checked_against_the_table_as_stored(
    mode: ResultsMode, number: int | None, version: int | None, kept_or_refused: Any
) -> None:
    """``check_results_change`` answers how many stored hands a change keeps,
    or refuses it, from the table row alone (no query)."""
    table = Table(hands_played=3, version=7, complete=False)
    check = functools.partial(
        check_results_change, table=table, mode=mode, number=number, version=version, records=[{}]
    )
    if isinstance(kept_or_refused, int):
        assert check() == kept_or_refused
    else:
        with pytest.raises(kept_or_refused):
            check()


def test_nothing_is_appended_to_a_complete_game() -> None:
    table = Table(hands_played=25, version=30, complete=True)
    with pytest.raises(games.InvalidRecord) as refused:
        check_results_change(
            table=table, mode=ResultsMode.APPEND, number=None, version=None, records=[{}]
        )
    assert (refused.value.code, refused.value.hand) == ("game_over", 25)


def test_trimming_an_events_rounds_removes_only_empty_rounds_after_the_kept_ones() -> None:
    setup = club_setup()  # round 1 has a table; the event has two rounds
    round_create(event=setup.event, number=3)
    event_rounds_trim(event=setup.event, keep=1)
    assert sorted(setup.event.rounds.values_list("number", flat=True)) == [1]


def test_trimming_refuses_rounds_with_tables_and_removes_nothing() -> None:
    setup = club_setup()
    third = round_create(event=setup.event, number=3)
    table_create(round=third, number=1, players=setup.players[:4])
    before = db_state()
    with pytest.raises(RoundsDrawn) as refused:
        event_rounds_trim(event=setup.event, keep=1)
    assert refused.value.rounds == (3,)
    assert refused.value.field == "rounds"
    with pytest.raises(ServiceError):
        event_rounds_trim(event=setup.event, keep=0)
    assert db_state() == before
