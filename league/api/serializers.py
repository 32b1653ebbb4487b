"""Input and output serializers of the API (one pair per resource)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from rest_framework import serializers

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
    TableStatus,
)

# -- outputs ------------------------------------------------------------------


class ClubOutput(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]


class MembershipOutput(serializers.ModelSerializer[Membership]):
    username = serializers.CharField(source="user.get_username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "club", "user", "username", "role"]


class PlayerOutput(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "club", "name", "user"]


class LeagueOutput(serializers.ModelSerializer[League]):
    class Meta:
        model = League
        fields = ["id", "club", "name", "slug", "game", "options", "created_at"]


class RoundOutput(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["id", "event", "number"]


class EventOutput(serializers.ModelSerializer[Event]):
    rounds = RoundOutput(many=True, read_only=True)

    class Meta:
        model = Event
        fields = ["id", "league", "name", "date", "rounds"]


class SeatingOutput(serializers.ModelSerializer[Seating]):
    player_name = serializers.CharField(source="player.name", read_only=True)
    total = serializers.SerializerMethodField(help_text="the seat's running total")

    class Meta:
        model = Seating
        fields = ["seat", "player", "player_name", "total", "place"]

    def get_total(self, seating: Seating) -> int:
        return int(seating.table.totals[seating.seat])


class TableOutput(serializers.ModelSerializer[Table]):
    seatings = SeatingOutput(many=True, read_only=True)
    status = serializers.ChoiceField(choices=TableStatus.choices, read_only=True)

    class Meta:
        model = Table
        fields = [
            "id",
            "round",
            "number",
            "game",
            "players",
            "first_dealer",
            "status",
            "version",
            "seatings",
        ]


class StandingOutput(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="1 = first, after the tie-breaks")
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    average_place = serializers.FloatField()
    total_points = serializers.IntegerField(help_text="the sum of final scores")
    average_points = serializers.FloatField()
    hands = serializers.IntegerField()
    bids_made_share = serializers.FloatField(allow_null=True, help_text="Bluke only")
    average_overtricks = serializers.FloatField(
        allow_null=True, help_text="Bluke only: over the bids made"
    )
    bucked_as_maker = serializers.IntegerField(allow_null=True, help_text="Buck Euchre only")
    bucked_as_player = serializers.IntegerField(allow_null=True, help_text="Buck Euchre only")
    drops = serializers.IntegerField(allow_null=True, help_text="Buck Euchre only")
    computed_at = serializers.DateTimeField()


class StandingsQuery(serializers.Serializer[dict[str, Any]]):
    date_after = serializers.DateField(required=False)
    date_before = serializers.DateField(required=False)


class HandSeatOutput(serializers.ModelSerializer[HandSeat]):
    class Meta:
        model = HandSeat
        fields = ["seat", "bid", "tricks", "points", "total"]


class HandOutput(serializers.ModelSerializer[Hand]):
    seats = HandSeatOutput(many=True, read_only=True)
    trump = serializers.SerializerMethodField()

    class Meta:
        model = Hand
        fields = [
            "number",
            "dealer",
            "cards",
            "trump",
            "maker",
            "drops",
            "takes_all",
            "is_move_log",
            "seats",
        ]

    def get_trump(self, hand: Hand) -> str | None:
        return hand.trump or None


class NextHandOutput(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    cards = serializers.IntegerField()


class ScoreSheetOutput(serializers.Serializer[dict[str, Any]]):
    table = TableOutput()
    hands = HandOutput(many=True)
    next_hand = NextHandOutput(allow_null=True, help_text="null once the game is complete")


def score_sheet_data(sheet: dict[str, Any]) -> dict[str, Any]:
    """What :class:`ScoreSheetOutput` renders, built directly: the score sheet
    is answered after every change of results, and DRF's nested serializers
    cost more than all of the change's queries. A test holds the two equal."""
    table: Table = sheet["table"]
    return {
        "table": table_data(table, table.seatings.all()),
        "hands": [hand_data(hand, hand.seats.all()) for hand in sheet["hands"]],
        "next_hand": sheet["next_hand"],
    }


def table_data(table: Table, seatings: Iterable[Seating]) -> dict[str, Any]:
    """What :class:`TableOutput` renders (seatings with their players)."""
    return {
        "id": table.pk,
        "round": table.round_id,
        "number": table.number,
        "game": table.game,
        "players": table.players,
        "first_dealer": table.first_dealer,
        "status": table.status.value,
        "version": table.version,
        "seatings": [
            {
                "seat": seating.seat,
                "player": seating.player_id,
                "player_name": seating.player.name,
                "total": table.totals[seating.seat],
                "place": seating.place,
            }
            for seating in seatings
        ],
    }


def hand_data(hand: Hand, lines: Iterable[HandSeat]) -> dict[str, Any]:
    """What :class:`HandOutput` renders."""
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "cards": hand.cards,
        "trump": hand.trump or None,
        "maker": hand.maker,
        "drops": hand.drops,
        "takes_all": hand.takes_all,
        "is_move_log": hand.is_move_log,
        "seats": [
            {
                "seat": line.seat,
                "bid": line.bid,
                "tricks": line.tricks,
                "points": line.points,
                "total": line.total,
            }
            for line in lines
        ],
    }


class TableTotalsOutput(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=TableStatus.choices)
    totals = serializers.ListField(child=serializers.IntegerField())
    places = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="null until complete"
    )


class HandSubmittedOutput(serializers.Serializer[dict[str, Any]]):
    """The answer to a submitted hand: the hand as scored, the table's totals
    after it, and what comes next (the score sheet has the rest)."""

    hand = HandOutput()
    table = TableTotalsOutput()
    next_hand = NextHandOutput(allow_null=True, help_text="null once the game is complete")


def hand_submitted_data(change: Any) -> dict[str, Any]:
    """What :class:`HandSubmittedOutput` renders, from a results change."""
    table = change.table
    places = None
    if table.complete:
        places = [s.place for s in sorted(table.seatings.all(), key=lambda s: s.seat)]
    return {
        "hand": hand_data(change.hands[-1], change.lines[-1]),
        "table": {
            "id": table.pk,
            "version": table.version,
            "status": table.status.value,
            "totals": list(table.totals),
            "places": places,
        },
        "next_hand": change.next_hand,
    }


class RatingRowOutput(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: what the board ranks by")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


class LeaderboardOutput(serializers.Serializer[dict[str, Any]]):
    status = serializers.ChoiceField(
        choices=["up_to_date", "pending"],
        help_text="pending while a change of results waits for the ratings job",
    )
    rated_at = serializers.DateTimeField(allow_null=True)
    provisional_below = serializers.IntegerField(
        help_text="ratings from fewer games are provisional"
    )
    ratings = RatingRowOutput(many=True)


class RatingPointOutput(serializers.Serializer[Any]):
    table = serializers.IntegerField(source="table_id")
    date = serializers.DateField(source="table.round.event.date")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    games = serializers.IntegerField()


class RatingHistoryOutput(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    history = RatingPointOutput(many=True, help_text="the rating after each game, oldest first")


class GameQuery(serializers.Serializer[dict[str, Any]]):
    game = serializers.ChoiceField(choices=Game.choices)


class ScopeQuery(serializers.Serializer[dict[str, Any]]):
    league = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    game = serializers.ChoiceField(choices=Game.choices, required=False)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if ("league" in data) == ("game" in data):
            raise serializers.ValidationError(
                "give league (a league's ratings) or game (the club-wide ratings of a game)"
            )
        return data


# -- inputs -------------------------------------------------------------------


class ClubInput(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=100)
    slug = serializers.SlugField(max_length=100, required=False, default="")


class ClubUpdateInput(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=100)


class MembershipInput(serializers.Serializer[dict[str, Any]]):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    user = serializers.PrimaryKeyRelatedField(queryset=get_user_model().objects.all())
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class PlayerInput(serializers.Serializer[dict[str, Any]]):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    name = serializers.CharField(max_length=100)
    user = serializers.PrimaryKeyRelatedField(
        queryset=get_user_model().objects.all(), required=False, allow_null=True, default=None
    )


class PlayerUpdateInput(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=100, required=False)
    user = serializers.PrimaryKeyRelatedField(
        queryset=get_user_model().objects.all(), required=False, allow_null=True
    )


class LeagueInput(serializers.Serializer[dict[str, Any]]):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    name = serializers.CharField(max_length=100)
    slug = serializers.SlugField(max_length=100, required=False, default="")
    game = serializers.ChoiceField(choices=Game.choices)
    options = serializers.DictField(required=False, default=dict)


class LeagueUpdateInput(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=100, required=False)
    options = serializers.DictField(required=False)


class EventInput(serializers.Serializer[dict[str, Any]]):
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    name = serializers.CharField(max_length=100)
    date = serializers.DateField()
    rounds = serializers.IntegerField(min_value=1, max_value=50, default=1)


class EventUpdateInput(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=100, required=False)
    date = serializers.DateField(required=False)


class RoundInput(serializers.Serializer[dict[str, Any]]):
    event = serializers.PrimaryKeyRelatedField(queryset=Event.objects.all())
    number = serializers.IntegerField(min_value=1, max_value=1000)


class TableInput(serializers.Serializer[dict[str, Any]]):
    round = serializers.PrimaryKeyRelatedField(queryset=Round.objects.all())
    number = serializers.IntegerField(min_value=0, max_value=1000)
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), many=True, help_text="player ids in seat order, seat 0 first"
    )
    first_dealer = serializers.IntegerField(min_value=0, max_value=14, default=0)


class TableUpdateInput(serializers.Serializer[dict[str, Any]]):
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), many=True, required=False
    )
    first_dealer = serializers.IntegerField(min_value=0, max_value=14, required=False)


class HandInput(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField(
        min_value=0,
        max_value=10_000,
        help_text="the hand submitted, from 0: a hand already stored answers 409",
    )
    record = serializers.JSONField(
        help_text="the hand as a move log or as results only (docs/records.md); game, "
        "dealer and hand size may be left out but must not contradict the table"
    )


class RecordInput(serializers.Serializer[dict[str, Any]]):
    record = serializers.JSONField(
        help_text="a hand record (for a correction) or a whole game record (docs/records.md); "
        "what the table decides may be left out but must agree with it"
    )
