"""The database keeps the league's integrity even when the services are bypassed.

Every row here is written with the ORM directly (``save()`` runs no
validation), so only the database's own constraints stand in the way. Each
refusal comes with a control: the same row with the offending value fixed
is accepted.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, models, transaction

from league.models import (
    SEATING_COUNTS,
    Game,
    Hand,
    HandSeat,
    League,
    Membership,
    Round,
    Seating,
    Table,
)
from tests.support.factories import (
    ClubFactory,
    EventFactory,
    LeagueFactory,
    PlayerFactory,
    UserFactory,
    make_table,
)

pytestmark = pytest.mark.django_db


def refused(model: type[models.Model], constraint: str | None = None, **fields: Any) -> None:
    """Creating ``model`` with ``fields`` raises IntegrityError (naming ``constraint``)."""
    with pytest.raises(IntegrityError) as error, transaction.atomic():
        model.objects.create(**fields)
    if constraint is not None:
        assert constraint in str(error.value)


def accepted(model: type[models.Model], **fields: Any) -> None:
    """Creating ``model`` with ``fields`` works (then is undone)."""
    with transaction.atomic():
        model.objects.create(**fields)
        transaction.set_rollback(True)


def new_round(game: str = Game.BLUKE) -> Round:
    return EventFactory(league=LeagueFactory(game=game), rounds=1).rounds.get()


# -- seatings ------------------------------------------------------------------------


def test_one_player_per_seat() -> None:
    table = make_table(players=4)
    club = table.round.event.league.club
    fields = {"table": table, "round": table.round, "total": 0}
    refused(Seating, seat=0, player=PlayerFactory(club=club), **fields)
    accepted(Seating, seat=4, player=PlayerFactory(club=club), **fields)


def test_a_player_sits_at_one_table_per_round() -> None:
    first = make_table(players=4)
    round_ = first.round
    player = first.seatings.get(seat=0).player
    second = Table.objects.create(
        round=round_, number=99, game=Game.BLUKE, players=4, first_dealer=0
    )
    refused(Seating, table=second, round=round_, seat=0, player=player, total=0)
    accepted(
        Seating,
        table=second,
        round=round_,
        seat=0,
        player=PlayerFactory(club=round_.event.league.club),
        total=0,
    )
    # the same player may sit again in another round
    later = Round.objects.create(event=round_.event, number=2)
    elsewhere = Table.objects.create(
        round=later, number=1, game=Game.BLUKE, players=4, first_dealer=0
    )
    accepted(Seating, table=elsewhere, round=later, seat=0, player=player, total=0)


@pytest.mark.parametrize(
    ("fields", "constraint"),
    [
        ({"seat": 15}, "seating_seat_in_range"),
        ({"seat": -1}, None),
        ({"place": 0, **dict.fromkeys(SEATING_COUNTS, 0)}, "seating_place_from_one"),
        ({"place": -1, **dict.fromkeys(SEATING_COUNTS, 0)}, None),
    ],
)
def test_seating_values_out_of_range_are_refused(
    fields: dict[str, Any], constraint: str | None
) -> None:
    table = Table.objects.create(
        round=new_round(), number=1, game=Game.BLUKE, players=15, first_dealer=0
    )
    player = PlayerFactory(club=table.round.event.league.club)
    row = {"table": table, "round": table.round, "seat": 14, "player": player, "total": 0}
    refused(Seating, constraint, **{**row, **fields})
    accepted(Seating, **{**row, "place": 1, **dict.fromkeys(SEATING_COUNTS, 0)})


@pytest.mark.parametrize(
    "fields",
    [
        {"place": 1},  # placed without its hand lines counted
        {"place": 1, **dict.fromkeys(SEATING_COUNTS, 0), "drops": None},
        {"hands": 25},  # hand lines counted in a game with no places
    ],
)
def test_seating_counts_come_and_go_with_the_place(fields: dict[str, Any]) -> None:
    table = make_table(game=Game.BLUKE)
    player = PlayerFactory(club=table.round.event.league.club)
    row = {"table": table, "round": table.round, "seat": 9, "player": player, "total": 0}
    refused(Seating, "seating_counts_with_place", **row, **fields)


# -- tables -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players", "allowed"),
    [
        (Game.BLUKE, 1, False),
        (Game.BLUKE, 2, True),
        (Game.BLUKE, 15, True),
        (Game.BLUKE, 16, False),
        (Game.BUCK_EUCHRE, 3, False),
        (Game.BUCK_EUCHRE, 4, True),
        (Game.BUCK_EUCHRE, 5, False),
        ("poker", 4, False),
    ],
)
def test_a_table_seats_what_its_game_allows(game: str, players: int, allowed: bool) -> None:
    fields = {"round": new_round(), "number": 1, "game": game, "players": players}
    if allowed:
        accepted(Table, first_dealer=0, **fields)
    else:
        refused(Table, "table_seat_count_allowed", first_dealer=0, **fields)


@pytest.mark.parametrize(("game", "players"), [(Game.BLUKE, 6), (Game.BUCK_EUCHRE, 4)])
def test_the_first_dealer_is_a_seat(game: str, players: int) -> None:
    fields = {"round": new_round(game), "number": 1, "game": game, "players": players}
    refused(Table, "table_first_dealer_is_a_seat", first_dealer=players, **fields)
    refused(Table, "table_first_dealer_is_a_seat", first_dealer=players + 5, **fields)
    refused(Table, None, first_dealer=-1, **fields)
    accepted(Table, first_dealer=players - 1, **fields)


def test_one_table_per_number_in_a_round() -> None:
    table = make_table(players=4)
    fields = {"round": table.round, "game": Game.BLUKE, "players": 4, "first_dealer": 0}
    refused(Table, number=table.number, **fields)
    accepted(Table, number=table.number + 1, **fields)


# -- hands ------------------------------------------------------------------------------


def _hand_fields(table: Table) -> dict[str, Any]:
    return {
        "table": table,
        "number": 0,
        "dealer": 0,
        "cards": 5,
        "trump": "S",
        "is_move_log": False,
        "record": {},
    }


def test_one_hand_per_number_at_a_table() -> None:
    table = make_table(game=Game.BUCK_EUCHRE)
    Hand.objects.create(**_hand_fields(table))
    refused(Hand, **_hand_fields(table))
    accepted(Hand, **{**_hand_fields(table), "number": 1})


@pytest.mark.parametrize(
    ("fields", "constraint"),
    [
        ({"trump": "X"}, "hand_trump_is_a_suit"),
        ({"trump": "s"}, "hand_trump_is_a_suit"),
        ({"cards": 0}, "hand_cards_from_one"),
        ({"number": -1}, None),
        ({"dealer": -1}, None),
    ],
)
def test_hand_values_out_of_range_are_refused(
    fields: dict[str, Any], constraint: str | None
) -> None:
    table = make_table(game=Game.BUCK_EUCHRE)
    refused(Hand, constraint, **{**_hand_fields(table), **fields})
    accepted(Hand, **{**_hand_fields(table), "trump": ""})


@pytest.mark.parametrize(
    ("fields", "constraint"),
    [
        ({"bid": 0}, "handseat_bid_from_one"),
        ({"bid": -2}, None),
        ({"tricks": -1}, None),
    ],
)
def test_hand_seat_values_out_of_range_are_refused(
    fields: dict[str, Any], constraint: str | None
) -> None:
    table = make_table(game=Game.BLUKE)
    hand = Hand.objects.create(**_hand_fields(table))
    player = table.seatings.get(seat=0).player
    row = {
        "hand": hand,
        "seat": 0,
        "player": player,
        "bid": 1,
        "tricks": 0,
        "points": -10,
        "total": -10,
    }
    refused(HandSeat, constraint, **{**row, **fields})
    accepted(HandSeat, **row)
    accepted(HandSeat, **{**row, "bid": None})


def test_one_line_per_seat_of_a_hand() -> None:
    table = make_table(game=Game.BUCK_EUCHRE)
    hand = Hand.objects.create(**_hand_fields(table))
    player = table.seatings.get(seat=0).player
    row = {"hand": hand, "seat": 0, "player": player, "tricks": 0, "points": 5, "total": 30}
    HandSeat.objects.create(**row)
    refused(HandSeat, **row)
    accepted(HandSeat, **{**row, "seat": 1})


# -- leagues, rounds, memberships ----------------------------------------------------------


def test_a_league_plays_a_known_game() -> None:
    club = ClubFactory()
    fields = {"club": club, "name": "Cup", "slug": "cup", "options": {}}
    refused(League, "league_known_game", game="poker", **fields)
    refused(League, "league_known_game", game="", **fields)
    accepted(League, game=Game.BUCK_EUCHRE, **fields)


def test_league_slugs_are_unique_in_a_club() -> None:
    league = LeagueFactory()
    refused(League, club=league.club, name="Other", slug=league.slug, game=Game.BLUKE)
    accepted(League, club=ClubFactory(), name="Other", slug=league.slug, game=Game.BLUKE)


def test_rounds_are_numbered_from_one_once() -> None:
    event = EventFactory(rounds=1)
    refused(Round, "round_number_from_one", event=event, number=0)
    refused(Round, event=event, number=1)
    accepted(Round, event=event, number=2)


def test_a_membership_has_a_known_role_once_per_club() -> None:
    club, user = ClubFactory(), UserFactory()
    refused(Membership, "membership_known_role", club=club, user=user, role="boss")
    Membership.objects.create(club=club, user=user, role="organiser")
    refused(Membership, club=club, user=user, role="scorekeeper")
    accepted(Membership, club=ClubFactory(), user=user, role="scorekeeper")


def test_player_names_and_users_are_unique_in_a_club() -> None:
    player = PlayerFactory(user=UserFactory())
    refused(type(player), club=player.club, name=player.name)
    refused(type(player), club=player.club, name="Someone else", user=player.user)
    accepted(type(player), club=player.club, name="Someone else")
    accepted(type(player), club=ClubFactory(), name=player.name, user=player.user)
