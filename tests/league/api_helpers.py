"""Helpers shared by the API tests (``test_api_*.py``): clients, problem
checks, records and a club with everything in it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.http import HttpResponse
from rest_framework.test import APIClient

import games
from games.bots import bot_game
from league import services
from league.models import (
    Club,
    Event,
    Game,
    Hand,
    HandSeat,
    League,
    Membership,
    Player,
    Round,
    Seating,
    Table,
)
from tests.league.factories import (
    ClubFactory,
    EventFactory,
    LeagueFactory,
    PlayerFactory,
    UserFactory,
    make_table,
)

PROBLEM = "application/problem+json"
TAKES_ALL = 5


def client_for(user: AbstractUser | None = None, *, crash_as_500: bool = False) -> APIClient:
    """An API client signed in as ``user`` (anonymous without one), speaking JSON.

    With ``crash_as_500`` an exception in a view is answered as the server
    would answer it (a 500) instead of being raised into the test.
    """
    client = APIClient(raise_request_exception=not crash_as_500)
    client.default_format = "json"
    if user is not None:
        client.force_authenticate(user)
    return client


def assert_problem(response: HttpResponse, status: int) -> dict[str, Any]:
    """The body of an RFC 9457 problem response with ``status``."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert response["Content-Type"] == PROBLEM
    body = json.loads(response.content)
    assert body["status"] == status
    for field in ("type", "title", "detail"):
        assert isinstance(body[field], str), field
        assert body[field], field
    assert body["type"].startswith("/api/problems/")
    return body


def etag(table: Table) -> str:
    """The ETag the API gives ``table`` as it is stored now."""
    table.refresh_from_db()
    return f'"table-{table.pk}-v{table.version}"'


def engine_error(
    game: str,
    record: Any,
    *,
    before: Sequence[dict[str, Any]] = (),
    players: int = 4,
    first_dealer: int = 0,
    options: dict[str, Any] | None = None,
) -> games.RecordError:
    """The engine's refusal of ``record`` as the hand after ``before`` in a game."""
    tally = games.GameTally(
        games.rules_for(game, players, options or {}), first_dealer=first_dealer
    )
    for hand in before:
        tally.add(hand)
    try:
        tally.add(record)
    except games.RecordError as error:
        error.hand = len(before)
        return error
    raise AssertionError("the engine accepted the record")


# -- records ----------------------------------------------------------------------


def bluke_results(cards: int, winner: int = 0, players: int = 4) -> dict[str, Any]:
    """A Bluke results record: ``winner`` bids and takes every trick, the others bid 1."""
    bids = [1] * players
    bids[winner] = cards
    tricks = [0] * players
    tricks[winner] = cards
    return {"trump": "S", "bids": bids, "tricks": tricks}


def buck_takes_all(seat: int) -> dict[str, Any]:
    """A Buck Euchre results record in which ``seat`` makes spades and takes all five tricks."""
    tricks = [0, 0, 0, 0]
    tricks[seat] = TAKES_ALL
    return {"trump": "S", "maker": seat, "tricks": tricks}


def results_form(
    game: str, options: dict[str, Any], dealer: int, record: dict[str, Any]
) -> dict[str, Any]:
    """The results-only record of the same hand as the move log ``record``."""
    result = games.evaluate_hand({"game": game, "options": options, "dealer": dealer, **record})
    trump = result.trump.value if result.trump is not None else None
    if game == Game.BLUKE:
        return {"trump": trump, "bids": record["bids"], "tricks": list(result.tricks)}
    return {
        "trump": trump,
        "maker": result.maker,
        "drops": list(result.drops),
        "tricks": list(result.tricks),
    }


def bot_logs(
    game: str, *, first_dealer: int, seed: int, options: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The move logs of a whole four-seat game played by the engine's bot."""
    return bot_game(games.rules_for(game, 4, options or {}), first_dealer=first_dealer, seed=seed)


# -- state --------------------------------------------------------------------------


def results_snapshot(table: Table) -> dict[str, Any]:
    """Everything a change of results may touch at ``table``."""
    table.refresh_from_db()
    return {
        "hands": list(Hand.objects.order_by("table", "number").values_list()),
        "hand_seats": list(HandSeat.objects.order_by("pk").values_list()),
        "seatings": list(table.seatings.values_list("seat", "player", "total", "place")),
        "version": table.version,
        "complete": table.complete,
    }


def db_state() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the league's models, to show that a refused write changed nothing."""
    models = (Club, Membership, Player, League, Event, Round, Table, Seating, Hand, HandSeat)
    return {model.__name__: list(model.objects.order_by("pk").values_list()) for model in models}


# -- a club with everything in it -----------------------------------------------------


@dataclass
class ClubSetup:
    """A club with an organiser, a scorekeeper, eight players, a league, a
    two-round event and a table of the first four players in round 1."""

    club: Club
    organiser: AbstractUser
    scorekeeper: AbstractUser
    players: list[Player]
    league: League
    event: Event
    round: Round
    table: Table


def club_setup(
    *, game: str = Game.BLUKE, options: dict[str, Any] | None = None, name: str | None = None
) -> ClubSetup:
    club = ClubFactory(**({"name": name} if name else {}))
    organiser, scorekeeper = UserFactory(), UserFactory()
    services.membership_set(club=club, user=organiser, role=Membership.Role.ORGANISER)
    services.membership_set(club=club, user=scorekeeper, role=Membership.Role.SCOREKEEPER)
    players = [PlayerFactory(club=club) for _ in range(8)]
    league = LeagueFactory(club=club, game=game, options=options or {})
    event = EventFactory(league=league, rounds=2)
    round_ = event.rounds.get(number=1)
    table = make_table(round=round_, players=players[:4], number=1)
    return ClubSetup(
        club=club,
        organiser=organiser,
        scorekeeper=scorekeeper,
        players=players,
        league=league,
        event=event,
        round=round_,
        table=table,
    )
