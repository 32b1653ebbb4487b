"""Input and output serializers of the API (one pair per resource)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any, Protocol, TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league import outputs
from league.api import parsers
from league.api.pagination import ID_LIMIT, RankedPage
from league.models import (
    REPLIES_CLOSE_MINUTES_MAX,
    Attendance,
    AuditEntry,
    Club,
    Confirmation,
    Event,
    Game,
    Hand,
    HandSeat,
    League,
    Membership,
    Player,
    RatingHistory,
    Reply,
    ResultsConfirmation,
    Round,
    Seating,
    Table,
    TableSpill,
    TableStatus,
    Visibility,
)
from league.rating_words import GameData
from league.season import season_in_words
from league.seating import Method
from league.selectors import clubs as clubs_selectors
from league.selectors.replies import ReplyLine
from league.selectors.seasons import FinalLine, FinalResult
from league.services.finals import FinalDraw, Finalist
from league.services.results import ResultsChange
from league.services.seat_changes import Candidate, Removal
from league.services.seating import Draw, Schedule
from league.users import SiteUser

# -- fields -------------------------------------------------------------------


@extend_schema_field(
    {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$", "example": "19:30"}
)
class StartTimeField(serializers.TimeField):
    """A game night's start, local time to the minute (``"19:30"``): ISO 8601
    times are read (seconds and any offset are dropped), ``HH:MM`` is written."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%H:%M", **kwargs)

    def to_internal_value(self, value: datetime.time | str) -> datetime.time:
        return super().to_internal_value(value).replace(second=0, microsecond=0, tzinfo=None)


class JSONValueField(serializers.JSONField):
    """DRF's JSONField; JSON sent as text (a form's field) is read within the
    limits of the API's JSON bodies (:func:`league.api.parsers.loads`)."""

    def to_internal_value(self, data: Any) -> Any:
        if self.binary or getattr(data, "is_json_string", False):
            text = data.decode() if isinstance(data, bytes) else str(data)
            try:
                return parsers.loads(text)
            except ValueError as error:
                raise serializers.ValidationError(
                    _("not JSON the API takes: %(error)s") % {"error": error}
                ) from None
        return super().to_internal_value(data)


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": ID_LIMIT})
class LoginField(serializers.Field[AbstractBaseUser, object, int, object]):
    """A login by its id, as a reference (an unsaved user holding the id) that
    the service looks up within the club: whether an id is a login is not
    checked here, so that an answer never tells a caller who has no business
    knowing it (:mod:`league.services.clubs` refuses a login outside the club
    and an id that is none alike)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._id = serializers.IntegerField(min_value=1, max_value=ID_LIMIT)

    def to_internal_value(self, data: object) -> AbstractBaseUser:
        return get_user_model()(pk=self._id.run_validation(data))

    def to_representation(self, value: AbstractBaseUser | int) -> int:
        return int(value.pk if isinstance(value, AbstractBaseUser) else value)


# -- outputs ------------------------------------------------------------------

MEMBERS_OF = "member_club_ids"
"""The serializer context's key for the clubs the caller is a member of."""


def members_context(user: SiteUser) -> dict[str, object]:
    """The serializer context that shows ``user`` the logins behind the
    players and attendance of the clubs they are a member of (one query)."""
    return {MEMBERS_OF: clubs_selectors.member_club_ids(user)}


class WithContext(Protocol):
    """A serializer, as far as :func:`shown_to_member` reads it."""

    @property
    def context(self) -> Mapping[str, Any]: ...


def shown_to_member(serializer: WithContext, club_id: int) -> bool:
    """Whether the caller is a member of the club (no context: not shown)."""
    return club_id in serializer.context.get(MEMBERS_OF, ())


class ClubOutput(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "visibility", "created_at"]


class MembershipOutput(serializers.ModelSerializer[Membership]):
    username = serializers.CharField(source="user.get_username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "club", "user", "username", "role"]


class PlayerOutput(serializers.ModelSerializer[Player]):
    user = serializers.IntegerField(
        source="user_id",
        read_only=True,
        allow_null=True,
        help_text="the login linked to the player; null too unless you are a member of the club",
    )

    class Meta:
        model = Player
        fields = ["id", "club", "name", "user", "is_guest"]

    def to_representation(self, player: Player) -> dict[str, object]:
        shown = super().to_representation(player)
        if not shown_to_member(self, player.club_id):
            shown["user"] = None
        return shown


SEASON_SCHEMA: dict[str, object] = {
    "type": "object",
    "nullable": True,
    "additionalProperties": False,
    "properties": {
        "points_by_place": {
            "type": "object",
            "description": "by table size (a string): one number of points a place, first "
            "place first, never rising; every size the league seats (Bluke 3 to 6, Buck "
            "Euchre 4)",
            "additionalProperties": {"type": "array", "items": {"type": "number", "minimum": 0}},
            "example": {"3": [3, 1, 0], "4": [4, 2, 1, 0], "5": [5, 3, 2, 1, 0],
                        "6": [6, 4, 3, 2, 1, 0]},
        },
        "best_nights": {"type": "integer", "minimum": 1, "nullable": True},
        "min_games": {"type": "integer", "minimum": 0},
    },
    "required": ["points_by_place"],
    "description": "the season format (docs/standings.md); null: ranked by wins, then "
    "average place",
}  # fmt: skip


@extend_schema_field(SEASON_SCHEMA)
class SeasonField(JSONValueField):
    """A league's season format, checked by the service
    (:func:`league.season.season_check`), which names the part at fault."""


class LeagueOutput(serializers.ModelSerializer[League]):
    season = SeasonField(allow_null=True, read_only=True)
    season_words = serializers.SerializerMethodField(
        help_text="the season format in words, as the pages show it"
    )

    class Meta:
        model = League
        fields = [
            "id",
            "club",
            "name",
            "slug",
            "game",
            "options",
            "table_size",
            "table_spill",
            "results_confirmation",
            "season",
            "season_words",
            "replies_close_minutes",
            "created_at",
        ]

    def get_season_words(self, league: League) -> str:
        return season_in_words(league.season, first=league.table_size)


class RoundOutput(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["id", "event", "number"]


class EventOutput(serializers.ModelSerializer[Event]):
    rounds = RoundOutput(many=True, read_only=True)
    start_time = StartTimeField(read_only=True, allow_null=True)

    class Meta:
        model = Event
        fields = ["id", "league", "name", "date", "start_time", "venue", "rounds"]


class AttendanceOutput(serializers.ModelSerializer[Attendance]):
    """A player present at an event: the rounds they play, and who changed that when."""

    name = serializers.CharField(source="player.name", read_only=True)
    is_guest = serializers.BooleanField(source="player.is_guest", read_only=True)
    present = serializers.BooleanField(
        read_only=True, help_text="still at the game night: they have not left"
    )
    changed_by = serializers.SerializerMethodField(
        help_text="the username; null once deleted, and unless you are a member of the club"
    )

    class Meta:
        model = Attendance
        fields = [
            "player",
            "name",
            "is_guest",
            "from_round",
            "until_round",
            "present",
            "changed_by",
            "changed_at",
        ]

    def get_changed_by(self, row: Attendance) -> str | None:
        if row.changed_by is None or not shown_to_member(self, row.player.club_id):
            return None
        return str(row.changed_by.get_username())


class GuestAddedOutput(serializers.Serializer[dict[str, object]]):
    player = PlayerOutput()
    attendance = AttendanceOutput()


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


class StandingOutput(serializers.Serializer[dict[str, object]]):
    """A standings row (:func:`league.selectors.standings.standing_row`)."""

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
    sat_out = serializers.IntegerField(help_text="rounds sat out; never counted as games")
    season_points = serializers.FloatField(
        allow_null=True,
        help_text="points for places, the best nights counted (a season format); null without",
    )
    nights_counted = serializers.IntegerField(
        help_text="the nights whose points count (without a format: the nights played)"
    )
    qualified = serializers.BooleanField(
        help_text="played the games to qualify (always without a format, and in a night's "
        "standings); those not qualified are ranked after those qualified"
    )
    computed_at = serializers.DateTimeField()


class RankedPageOutput(
    serializers.Serializer[RankedPage[Mapping[str, object]] | dict[str, object]]
):
    """The links of a page of a ranked list (:class:`league.api.pagination.RankOrder`)."""

    next = serializers.URLField(
        allow_null=True, help_text="the page after this one; null on the last page"
    )
    previous = serializers.URLField(
        allow_null=True, help_text="the page before this one; null on the first page"
    )


class StandingsPageOutput(RankedPageOutput):
    results = StandingOutput(many=True, source="rows")


class StandingsQuery(serializers.Serializer[dict[str, object]]):
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


class NextHandOutput(serializers.Serializer[dict[str, object]]):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    cards = serializers.IntegerField()


class ConfirmationOutput(serializers.Serializer[dict[str, object]]):
    state = serializers.ChoiceField(
        choices=Confirmation.choices,
        help_text="none: counts without confirmation (or not complete); awaiting, confirmed, "
        "disputed: a game entered through the table link",
    )
    seat = serializers.IntegerField(
        allow_null=True, help_text="the seat that confirmed or disputed; null: an organiser"
    )
    at = serializers.DateTimeField(allow_null=True, help_text="when it reached this state")
    note = serializers.CharField(allow_null=True, help_text="a dispute's note")
    entered_seat = serializers.IntegerField(
        allow_null=True,
        help_text="the seat that last changed the results through the link: it may not confirm",
    )


class ScoreSheetOutput(serializers.Serializer[dict[str, object]]):
    table = TableOutput()
    hands = HandOutput(many=True)
    next_hand = NextHandOutput(allow_null=True, help_text="null once the game is complete")
    confirmation = ConfirmationOutput()


def score_sheet_data(sheet: Mapping[str, Any]) -> dict[str, object]:
    """What :class:`ScoreSheetOutput` renders, built directly: the score sheet
    is answered after every change of results, and DRF's nested serializers
    cost more than all of the change's queries. A test holds the two equal."""
    table: Table = sheet["table"]
    return {
        "table": table_data(table, table.seatings.all()),
        "hands": [outputs.hand_data(hand, hand.seats.all()) for hand in sheet["hands"]],
        "next_hand": sheet["next_hand"],
        "confirmation": sheet["confirmation"],
    }


def table_data(table: Table, seatings: Iterable[Seating]) -> dict[str, object]:
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


class TableTotalsOutput(serializers.Serializer[dict[str, object]]):
    id = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=TableStatus.choices)
    totals = serializers.ListField(child=serializers.IntegerField())
    places = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="null until complete"
    )


class HandSubmittedOutput(serializers.Serializer[dict[str, object]]):
    """The answer to a submitted hand: the hand as scored, the table's totals
    after it, and what comes next (the score sheet has the rest)."""

    hand = HandOutput()
    table = TableTotalsOutput()
    next_hand = NextHandOutput(allow_null=True, help_text="null once the game is complete")


def hand_submitted_data(change: ResultsChange) -> dict[str, object]:
    """What :class:`HandSubmittedOutput` renders, from a results change."""
    table = change.table
    places = list(change.places) if change.places is not None else None
    return {
        "hand": outputs.hand_data(change.hands[-1], change.lines[-1]),
        "table": {
            "id": table.pk,
            "version": table.version,
            "status": table.status.value,
            "totals": list(table.totals),
            "places": places,
        },
        "next_hand": change.next_hand,
    }


class AuditEntryOutput(serializers.ModelSerializer[AuditEntry]):
    """An entry of the audit trail: what changed, who changed it (the login
    it was made by, kept should the user go), when, through what, and the
    record before and after (a hand as :class:`HandOutput` shows it, a
    table's seats, a round's draw)."""

    event = serializers.IntegerField(source="event_id", allow_null=True, read_only=True)
    round = serializers.IntegerField(source="round_id", allow_null=True, read_only=True)
    table = serializers.IntegerField(source="table_id", allow_null=True, read_only=True)
    actor = serializers.IntegerField(
        source="actor_id", allow_null=True, read_only=True, help_text="null for a command or job"
    )
    before = serializers.JSONField(
        allow_null=True, read_only=True, help_text="null: nothing before"
    )
    after = serializers.JSONField(allow_null=True, read_only=True, help_text="null: nothing after")

    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "at",
            "action",
            "via",
            "actor",
            "actor_name",
            "seat",
            "event",
            "round",
            "table",
            "hand_number",
            "before",
            "after",
        ]


class RatingRowOutput(serializers.Serializer[dict[str, object]]):
    """A leaderboard row (:func:`league.selectors.ratings.leaderboard_row`)."""

    rank = serializers.IntegerField(help_text="1 = first on the leaderboard")
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    ordinal = serializers.FloatField(
        help_text="what the board ranks by (as of today): mu, less 3 x (sigma - "
        "provisional_above_sigma) while provisional"
    )
    mu = serializers.FloatField()
    sigma = serializers.FloatField(
        help_text="as of today: it grows with the days since the player's last game"
    )
    games = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="sigma is above provisional_above_sigma")


class LeaderboardOutput(RankedPageOutput):
    status = serializers.ChoiceField(
        choices=["up_to_date", "pending"],
        help_text="pending while a change of results waits for the ratings job",
    )
    rated_at = serializers.DateTimeField(allow_null=True)
    provisional_above_sigma = serializers.FloatField(
        allow_null=True, help_text="ratings whose sigma is above this are provisional"
    )
    results = RatingRowOutput(many=True, source="rows")


class RatingPointOutput(serializers.Serializer[RatingHistory]):
    table = serializers.IntegerField(source="table_id")
    date = serializers.DateField(source="table.round.event.date")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    games = serializers.IntegerField()


class RatingHistoryOutput(serializers.Serializer[dict[str, object]]):
    player = serializers.IntegerField()
    history = RatingPointOutput(many=True, help_text="the rating after each game, oldest first")


class RatingGameOutput(serializers.Serializer[GameData]):
    """One game of a player's rating (``GET /api/players/{id}/rating-games/``)."""

    event = serializers.IntegerField()
    event_name = serializers.CharField()
    date = serializers.DateField()
    table = serializers.IntegerField()
    round = serializers.IntegerField(help_text="the round's number in its event")
    table_number = serializers.IntegerField(help_text="the table's number in its round")
    before = serializers.FloatField(
        allow_null=True,
        help_text="the rating (the board's figure, the ordinal) before the game, one decimal",
    )
    after = serializers.FloatField(help_text="the rating after the game, one decimal")
    change = serializers.FloatField(allow_null=True, help_text="after less before, one decimal")
    against = serializers.ChoiceField(
        choices=["league", "club", "table"],
        allow_null=True,
        help_text="what the total was measured against: the league's mean total at tables "
        "of that size (Bluke; the club's, all its leagues of the game, for the club-wide "
        "rating) or the table's average",
    )
    mean = serializers.FloatField(allow_null=True, help_text="that mean, in points")
    expected = serializers.FloatField(
        allow_null=True,
        help_text="the margin over the mean the model expected of the player at that table",
    )
    actual = serializers.FloatField(
        allow_null=True, help_text="the player's margin over the mean: their total less it"
    )
    points = serializers.FloatField(allow_null=True, help_text="the player's total")
    held_down = serializers.FloatField(
        allow_null=True,
        help_text="how far the rating is held down below the estimate (mu) while provisional",
    )
    estimate_change = serializers.FloatField(
        allow_null=True,
        help_text="how far the game moved the estimate (mu) itself; the rest of the change "
        "is what the holding down eased",
    )
    words = serializers.CharField(
        help_text="why the rating moved, in English words (the pages give them in the "
        "reader's language)"
    )


class RatingGamesQuery(serializers.Serializer[dict[str, object]]):
    scope = serializers.CharField(
        help_text="a league's id (its own rating) or a game, bluke or buck_euchre (the "
        "club-wide rating of that game)"
    )

    def validate_scope(self, value: str) -> dict[str, object]:
        if value in Game.values:
            return {"game": value}
        if value.isdigit() and 1 <= int(value) <= 2**63 - 1:
            return {"league_id": int(value)}
        raise serializers.ValidationError(
            "give a league's id, or a game (bluke, buck_euchre) for the club-wide rating"
        )


class GameQuery(serializers.Serializer[dict[str, object]]):
    game = serializers.ChoiceField(choices=Game.choices)


class ScopeQuery(serializers.Serializer[dict[str, object]]):
    league = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    game = serializers.ChoiceField(choices=Game.choices, required=False)

    def validate(self, data: dict[str, object]) -> dict[str, object]:
        if ("league" in data) == ("game" in data):
            raise serializers.ValidationError(
                _("give league (a league's ratings) or game (the club-wide ratings of a game)")
            )
        return data


# -- inputs -------------------------------------------------------------------


class Input(serializers.Serializer[dict[str, object]]):
    """A write's body. A field it does not have is refused (400, named in
    ``errors`` with the other faults, and in the problem's ``detail``) rather
    than ignored: a client that misspells a field, or sends one this write
    does not take, is told."""

    unknown_fields: list[str] = []

    def to_internal_value(self, data: object) -> dict[str, object]:
        if isinstance(data, Mapping):
            self.unknown_fields = [str(name) for name in data if name not in self.fields]
        takes = ", ".join(self.fields)
        unknown = {
            name: [_("unknown field: this takes %(fields)s") % {"fields": takes}]
            for name in self.unknown_fields
        }
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as error:
            if unknown and isinstance(error.detail, dict):
                raise serializers.ValidationError({**error.detail, **unknown}) from None
            raise
        if unknown:
            raise serializers.ValidationError(unknown)
        return dict(value)

    def is_valid(self, *, raise_exception: bool = False) -> bool:
        valid = super().is_valid()
        if not valid and raise_exception:
            raise InvalidInput(self.errors, self.unknown_fields)
        return valid


class InvalidInput(serializers.ValidationError):
    """Invalid input; when it has fields the write does not take, the
    problem's ``detail`` names them."""

    def __init__(self, errors: Any, unknown: list[str]) -> None:
        super().__init__(errors)
        if unknown:
            self.problem_detail = _("unknown fields: %(fields)s") % {"fields": ", ".join(unknown)}


class ClubInput(Input):
    name = serializers.CharField(max_length=100)
    slug = serializers.SlugField(max_length=100, required=False, default="")
    visibility = serializers.ChoiceField(
        choices=Visibility.choices,
        required=False,
        default=Visibility.PUBLIC,
        help_text="public (the default): anyone reads the club's players, results and "
        "ratings; members: its members alone",
    )


class ClubUpdateInput(Input):
    name = serializers.CharField(max_length=100)
    visibility = serializers.ChoiceField(
        choices=Visibility.choices,
        required=False,
        help_text="public: anyone reads the club's players, results and ratings; members: its "
        "members alone (a role in it, or a login linked to one of its players)",
    )


class MembershipInput(Input):
    """A new role for a login that holds one in the club (a login outside it is
    invited, on the club's people page, and accepts)."""

    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    user = LoginField(help_text="a login with a role in the club")
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class PlayerInput(Input):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    name = serializers.CharField(max_length=100)
    user = LoginField(
        required=False, allow_null=True, default=None, help_text="a login with a role in the club"
    )


class PlayerUpdateInput(Input):
    name = serializers.CharField(max_length=100, required=False)
    user = LoginField(
        required=False,
        allow_null=True,
        help_text="a login with a role in the club (or the player's own); null unlinks",
    )
    is_guest = serializers.BooleanField(
        required=False, help_text="false keeps a guest as a player of the club (one way)"
    )


class PlayerMergeInput(Input):
    into = serializers.IntegerField(
        min_value=1,
        max_value=ID_LIMIT,
        help_text="the player kept, of the same club: the merged player's games, "
        "attendance, sit-outs, invitations and login move to them",
    )


class LeagueInput(Input):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    name = serializers.CharField(max_length=100)
    slug = serializers.SlugField(max_length=100, required=False, default="")
    game = serializers.ChoiceField(choices=Game.choices)
    options = serializers.DictField(required=False, default=dict)
    table_size = serializers.IntegerField(
        min_value=3, max_value=6, default=4, help_text="preferred seats a table (Buck Euchre: 4)"
    )
    table_spill = serializers.ChoiceField(choices=TableSpill.choices, default=TableSpill.SMALLER)
    results_confirmation = serializers.ChoiceField(
        choices=ResultsConfirmation.choices,
        default=ResultsConfirmation.NONE,
        help_text="player: a game entered through a table link counts once a player of "
        "another seat, or an organiser, confirms it",
    )
    season = SeasonField(required=False, allow_null=True, default=None)
    replies_close_minutes = serializers.IntegerField(
        min_value=0,
        max_value=REPLIES_CLOSE_MINUTES_MAX,
        default=60,
        help_text="players' replies to a night close this many minutes before its start "
        "time (and at its first draw in any case)",
    )


class LeagueUpdateInput(Input):
    name = serializers.CharField(max_length=100, required=False)
    options = serializers.DictField(required=False)
    table_size = serializers.IntegerField(min_value=3, max_value=6, required=False)
    table_spill = serializers.ChoiceField(choices=TableSpill.choices, required=False)
    results_confirmation = serializers.ChoiceField(
        choices=ResultsConfirmation.choices, required=False
    )
    season = SeasonField(
        required=False,
        allow_null=True,
        help_text="a new format recomputes the standings (a job); null: wins, then average place",
    )
    replies_close_minutes = serializers.IntegerField(
        min_value=0, max_value=REPLIES_CLOSE_MINUTES_MAX, required=False
    )


class FinalInput(Input):
    players = serializers.IntegerField(
        min_value=1, max_value=1000, help_text="the top qualified players who play the final"
    )
    name = serializers.CharField(
        max_length=100, required=False, allow_blank=True, default="", help_text="default Final"
    )
    date = serializers.DateField(required=False, allow_null=True, default=None)
    seed = serializers.IntegerField(
        min_value=0,
        max_value=2**63 - 1,
        required=False,
        allow_null=True,
        default=None,
        help_text="draws the seats and first dealers; a preview's seed makes the same tables",
    )
    preview = serializers.BooleanField(
        default=False, help_text="true: answer the final that would be made, storing nothing"
    )


class FinalistOutput(serializers.Serializer[Finalist]):
    seed = serializers.IntegerField(help_text="1: the season's best qualified player")
    player = serializers.IntegerField(source="player.pk")
    player_name = serializers.CharField(source="player.name")
    rank = serializers.IntegerField(source="standing.rank")
    season_points = serializers.FloatField(source="standing.season_points", allow_null=True)
    games = serializers.IntegerField(source="standing.games")


class FinalTableOutput(serializers.Serializer[dict[str, object]]):
    number = serializers.IntegerField(help_text="1: the top table")
    players = FinalistOutput(many=True, help_text="in seat order, seat 0 first")
    first_dealer = serializers.IntegerField()


class FinalMadeOutput(serializers.Serializer[dict[str, object]]):
    """A final made (201) or previewed (200, ``event`` null)."""

    league = serializers.IntegerField()
    event = serializers.IntegerField(allow_null=True, help_text="the final night; null: a preview")
    name = serializers.CharField()
    date = serializers.DateField()
    seed = serializers.IntegerField()
    committed = serializers.BooleanField()
    finalists = FinalistOutput(many=True)
    tables = FinalTableOutput(many=True)


def final_made_data(final: FinalDraw) -> dict[str, object]:
    """What :class:`FinalMadeOutput` renders, from a :class:`league.services.finals.FinalDraw`."""
    return {
        "league": final.league.pk,
        "event": final.event.pk if final.event is not None else None,
        "name": final.name,
        "date": final.date,
        "seed": final.seed,
        "committed": final.event is not None,
        "finalists": final.finalists,
        "tables": [
            {"number": number, "players": players, "first_dealer": first_dealer}
            for number, (players, first_dealer) in enumerate(final.tables, start=1)
        ],
    }


class FinalLineOutput(serializers.Serializer[FinalLine]):
    place = serializers.IntegerField(
        allow_null=True,
        help_text="in the final: the top table's places first; null until its table's game counts",
    )
    player = serializers.IntegerField(source="player.pk")
    player_name = serializers.CharField(source="player.name")
    table = serializers.IntegerField(help_text="1: the top table")
    seat = serializers.IntegerField()
    table_place = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField(allow_null=True, help_text="null before the first hand")


class FinalResultOutput(serializers.Serializer[FinalResult]):
    """The league's final night and its result."""

    event = serializers.IntegerField(source="event.pk")
    name = serializers.CharField(source="event.name")
    date = serializers.DateField(source="event.date")
    complete = serializers.BooleanField(help_text="every table's game counts")
    results = FinalLineOutput(many=True, source="lines")


class EventInput(Input):
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    name = serializers.CharField(max_length=100)
    date = serializers.DateField()
    rounds = serializers.IntegerField(min_value=1, max_value=50, default=1)
    start_time = StartTimeField(required=False, allow_null=True, default=None)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class EventUpdateInput(Input):
    name = serializers.CharField(max_length=100, required=False)
    date = serializers.DateField(required=False)
    start_time = StartTimeField(required=False, allow_null=True, help_text="null clears it")
    venue = serializers.CharField(
        max_length=200, required=False, allow_blank=True, help_text="empty clears it"
    )


class AttendanceInput(Input):
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        many=True,
        allow_empty=True,
        help_text="the players present: those not listed leave, those listed not yet "
        "present check in",
    )


class AttendancePlayerInput(Input):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


class GuestInput(Input):
    name = serializers.CharField(max_length=100, help_text="a name the club has no player of")


class RoundInput(Input):
    event = serializers.PrimaryKeyRelatedField(queryset=Event.objects.all())
    number = serializers.IntegerField(min_value=1, max_value=1000)


class TableInput(Input):
    round = serializers.PrimaryKeyRelatedField(queryset=Round.objects.all())
    number = serializers.IntegerField(min_value=0, max_value=1000)
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), many=True, help_text="player ids in seat order, seat 0 first"
    )
    first_dealer = serializers.IntegerField(min_value=0, max_value=14, default=0)


class TableUpdateInput(Input):
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), many=True, required=False
    )
    first_dealer = serializers.IntegerField(min_value=0, max_value=14, required=False)


SEAT_HELP = (
    "through a table link: the seat entering (from 0), as the person says; "
    "a signed-in user's request sends none"
)


class HandInput(Input):
    number = serializers.IntegerField(
        min_value=0,
        max_value=10_000,
        help_text="the hand submitted, from 0: a hand already stored answers 409",
    )
    record = JSONValueField(
        help_text="the hand as a move log or as results only (docs/records.md); game, "
        "dealer and hand size may be left out but must not contradict the table"
    )
    seat = serializers.IntegerField(min_value=0, max_value=14, required=False, help_text=SEAT_HELP)


class RecordInput(Input):
    record = JSONValueField(
        help_text="a hand record (for a correction) or a whole game record (docs/records.md); "
        "what the table decides may be left out but must agree with it"
    )


class CorrectionInput(RecordInput):
    seat = serializers.IntegerField(min_value=0, max_value=14, required=False, help_text=SEAT_HELP)


class ConfirmationInput(Input):
    seat = serializers.IntegerField(
        min_value=0,
        max_value=14,
        required=False,
        allow_null=True,
        help_text="through a table link: the seat confirming or disputing (from 0); an "
        "organiser's request sends none",
    )
    agree = serializers.BooleanField(help_text="true confirms the game; false disputes it")
    note = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="what is wrong: a dispute needs one",
    )


class TableLinkOutput(serializers.Serializer[dict[str, object]]):
    url = serializers.URLField(help_text="the table's page: its score sheet and entry, no login")
    token = serializers.CharField(
        help_text="the link's secret, shown this once: Authorization: Table <token>"
    )
    expires_at = serializers.DateTimeField()


# -- players' personal links and replies ------------------------------------------------


class PersonalLinkInput(Input):
    email = serializers.EmailField(
        required=False,
        max_length=254,
        help_text="mail the new link to this address too (an address the organiser knows)",
    )


class PersonalLinkOutput(serializers.Serializer[dict[str, object]]):
    url = serializers.URLField(
        help_text="the player's page: their coming nights to answer, and checking in, no login"
    )
    token = serializers.CharField(help_text="the link's secret, shown this once")
    created_at = serializers.DateTimeField()
    emailed = serializers.BooleanField(
        allow_null=True, help_text="whether the mail went out; null when none was asked for"
    )


class ReplyLineOutput(serializers.Serializer[ReplyLine]):
    player = serializers.IntegerField(source="player.pk")
    player_name = serializers.CharField(source="player.name")
    answer = serializers.ChoiceField(
        choices=Reply.Answer.choices, allow_null=True, help_text="null: no answer yet"
    )
    answered_at = serializers.DateTimeField(allow_null=True)
    has_link = serializers.BooleanField(help_text="the player holds a personal link")
    checked_in = serializers.BooleanField(help_text="present at the night now")


class RepliesOutput(serializers.Serializer[dict[str, object]]):
    open = serializers.BooleanField(help_text="whether players may still change their answer")
    closed = serializers.CharField(
        help_text="why replies are closed: drawn, time or past; empty while open"
    )
    closes_at = serializers.DateTimeField(
        allow_null=True,
        help_text="the league's minutes before the start time; null without a start time "
        "(replies close at the first draw)",
    )
    replies = ReplyLineOutput(many=True)


# -- drawing a round's tables ---------------------------------------------------------


METHODS = [method.value for method in Method]


class PinInput(Input):
    player = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    table = serializers.IntegerField(
        min_value=0, max_value=1000, help_text="the table's index, largest table first, from 0"
    )


class DrawInput(Input):
    method = serializers.ChoiceField(choices=METHODS, default=Method.BALANCED)
    seed = serializers.IntegerField(
        min_value=0,
        max_value=2**63 - 1,
        required=False,
        allow_null=True,
        default=None,
        help_text="the same seed, players and history give the same draw; drawn if left out",
    )
    keep_apart = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
            min_length=2,
            max_length=2,
        ),
        required=False,
        default=list,
        max_length=500,
        help_text="pairs of player ids never seated together if any seating avoids it",
    )
    pinned = PinInput(many=True, required=False, default=list, help_text="players held to a table")
    commit = serializers.BooleanField(
        default=False, help_text="store the draw; without it the answer is a preview"
    )
    replace = serializers.BooleanField(
        default=False, help_text="with commit: replace the round's tables (none may have hands)"
    )

    def validate_pinned(self, pins: list[dict[str, int]]) -> dict[int, int]:
        players = [pin["player"] for pin in pins]
        if len(set(players)) != len(players):
            raise serializers.ValidationError(_("a player is pinned to one table only"))
        return {pin["player"]: pin["table"] for pin in pins}


class MoveInput(Input):
    player = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    table = serializers.IntegerField(min_value=1, max_value=1000, help_text="the table's number")


class AdjustData(TypedDict, total=False):
    """:class:`AdjustInput`'s fields as validated, one of the two given."""

    swap: list[int]
    move: dict[str, int]


class AdjustInput(Input):
    """One change by hand: ``swap`` two players, or ``move`` one to a table."""

    swap = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        min_length=2,
        max_length=2,
        required=False,
        help_text="two player ids, seated or sitting out, who change places",
    )
    move = MoveInput(required=False)

    def validate(self, data: AdjustData) -> dict[str, tuple[int, ...] | None]:
        if ("swap" in data) == ("move" in data):
            raise serializers.ValidationError(_("give swap or move, one of them"))
        return {
            "swap": tuple(data["swap"]) if "swap" in data else None,
            "move": (data["move"]["player"], data["move"]["table"]) if "move" in data else None,
        }


class SeatedPlayerOutput(serializers.Serializer[Player]):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()


class DrawnTableOutput(serializers.Serializer[dict[str, object]]):
    number = serializers.IntegerField()
    id = serializers.IntegerField(allow_null=True, help_text="the stored table; null in a preview")
    players = SeatedPlayerOutput(many=True, help_text="in seat order")
    first_dealer = serializers.IntegerField(help_text="the seat that deals the first hand")


class RepeatOutput(serializers.Serializer[dict[str, object]]):
    players = SeatedPlayerOutput(many=True)
    tonight = serializers.IntegerField(help_text="times they met earlier in this event")
    earlier_events = serializers.IntegerField(help_text="times they met at earlier events")
    cost = serializers.IntegerField()


class SeatingCostOutput(serializers.Serializer[dict[str, object]]):
    total = serializers.IntegerField()
    repeats = serializers.IntegerField(help_text="pairs meeting again, weighted by how recently")
    keep_apart = serializers.IntegerField(help_text="kept-apart pairs seated together anyway")
    spread = serializers.IntegerField(help_text="swiss and rating: tables of unlike players")


class DrawOutput(serializers.Serializer[dict[str, object]]):
    round = serializers.IntegerField()
    method = serializers.ChoiceField(choices=METHODS)
    seed = serializers.IntegerField(allow_null=True, help_text="null: tables made by hand")
    committed = serializers.BooleanField()
    tables = DrawnTableOutput(many=True)
    sit_out = SeatedPlayerOutput(many=True)
    cost = SeatingCostOutput()
    repeats = RepeatOutput(many=True)


def draw_data(draw: Draw) -> dict[str, object]:
    """What :class:`DrawOutput` renders, from a :class:`league.services.seating.Draw`."""
    players = draw.players
    cost = draw.seating.cost
    stored: list[Table | None] = list(draw.tables) or [None] * len(draw.seating.tables)
    return {
        "round": draw.round.pk,
        "method": draw.method.value,
        "seed": draw.seed,
        "committed": bool(draw.tables),
        "tables": [
            {
                "number": number,
                "id": table.pk if table is not None else None,
                "players": [players[pk] for pk in drawn.players],
                "first_dealer": drawn.first_dealer,
            }
            for number, (drawn, table) in enumerate(
                zip(draw.seating.tables, stored, strict=True), start=1
            )
        ],
        "sit_out": [players[pk] for pk in draw.seating.sit_out],
        "cost": {
            "total": cost.total,
            "repeats": cost.repeats,
            "keep_apart": cost.keep_apart,
            "spread": cost.spread,
        },
        "repeats": [
            {
                "players": [players[pk] for pk in repeat.players],
                "tonight": repeat.tonight,
                "earlier_events": repeat.earlier_events,
                "cost": repeat.cost,
            }
            for repeat in draw.seating.repeats
        ],
    }


class RemovePlayerInput(Input):
    """A player taken off a table before its first hand (:mod:`league.services.seat_changes`)."""

    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), help_text="the player taken off, seated at this table"
    )
    replacement = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        allow_null=True,
        required=False,
        default=None,
        help_text="a present player not seated in the round who takes the seat; null: nobody "
        "(the table plays smaller, or the round's tables without a hand are drawn again)",
    )
    leaves = serializers.BooleanField(
        default=True,
        help_text="the player leaves the night (or did not come); false: they sit this round "
        "out and play the next",
    )
    seed = serializers.IntegerField(
        min_value=0,
        max_value=2**63 - 1,
        required=False,
        allow_null=True,
        default=None,
        help_text="a round drawn again: the preview's seed commits the tables it showed",
    )
    commit = serializers.BooleanField(
        default=False, help_text="make the change; without it the answer is a preview"
    )


class CandidateOutput(serializers.Serializer[Candidate]):
    id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    where = serializers.ChoiceField(
        choices=["sitting_out", "not_seated", "arrived_late"],
        help_text="sitting the round out; present for it but not drawn; checked in after it "
        "was drawn",
    )


class PlannedTableOutput(serializers.Serializer[dict[str, object]]):
    id = serializers.IntegerField(allow_null=True, help_text="null: a table a preview would add")
    number = serializers.IntegerField()
    players = SeatedPlayerOutput(many=True, help_text="in seat order")
    first_dealer = serializers.IntegerField(help_text="the seat that deals the first hand")
    changed = serializers.BooleanField(help_text="its seats or first dealer change")


class DroppedTableOutput(serializers.Serializer[dict[str, object]]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()


class RemovalOutput(serializers.Serializer[dict[str, object]]):
    table = serializers.IntegerField(help_text="the table the player leaves")
    round = serializers.IntegerField()
    player = SeatedPlayerOutput()
    replacement = SeatedPlayerOutput(allow_null=True)
    proposed_replacement = SeatedPlayerOutput(
        allow_null=True, help_text="who the preview proposes for the seat: the first candidate"
    )
    candidates = CandidateOutput(many=True, help_text="present players who may take the seat")
    outcome = serializers.ChoiceField(
        choices=["replaced", "smaller", "round_reseated"],
        help_text="someone takes the seat; the table plays smaller; the round's tables without "
        "a hand, and its sit-outs, are drawn again",
    )
    departure = serializers.ChoiceField(
        choices=["left", "not_come", "stays", "not_listed"],
        help_text="the player's night: their last round is the one before; off the list (no "
        "round played before); sitting this round out; not on the list",
    )
    seed = serializers.IntegerField(allow_null=True, help_text="a round drawn again: its seed")
    committed = serializers.BooleanField()
    tables = PlannedTableOutput(many=True, help_text="the round's tables after, by number")
    removed_tables = DroppedTableOutput(
        many=True, help_text="tables a round drawn again no longer needs"
    )
    sit_out = SeatedPlayerOutput(many=True, help_text="the round's sit-outs after")


def removal_data(removal: Removal) -> dict[str, object]:
    """What :class:`RemovalOutput` renders, from a :class:`league.services.seat_changes.Removal`."""
    return {
        "table": removal.table.pk,
        "round": removal.table.round_id,
        "player": removal.player,
        "replacement": removal.replacement,
        "proposed_replacement": removal.proposed,
        "candidates": removal.candidates,
        "outcome": removal.outcome.value,
        "departure": removal.departure.value,
        "seed": removal.seed,
        "committed": removal.committed,
        "tables": [
            {
                "id": planned.table.pk if planned.table is not None else None,
                "number": planned.number,
                "players": planned.players,
                "first_dealer": planned.first_dealer,
                "changed": planned.changed,
            }
            for planned in removal.tables
        ],
        "removed_tables": [{"id": table.pk, "number": table.number} for table in removal.dropped],
        "sit_out": removal.sit_out,
    }


class ScheduleOutput(serializers.Serializer[dict[str, object]]):
    event = serializers.IntegerField()
    method = serializers.ChoiceField(choices=METHODS)
    seed = serializers.IntegerField()
    committed = serializers.BooleanField()
    rounds = DrawOutput(many=True, help_text="each round's draw, in round order")


def schedule_data(schedule: Schedule) -> dict[str, object]:
    """What :class:`ScheduleOutput` renders, from a :class:`league.services.seating.Schedule`."""
    rounds = [draw_data(draw) for draw in schedule.draws]
    return {
        "event": schedule.event.pk,
        "method": schedule.method.value,
        "seed": schedule.seed,
        "committed": all(round_["committed"] for round_ in rounds),
        "rounds": rounds,
    }
