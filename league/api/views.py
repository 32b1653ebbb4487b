"""The JSON API: thin views over :mod:`league.services` and :mod:`league.selectors`.

Reads are open to everyone; writes check the caller's role in the club that
owns the object (:mod:`league.api.access`). POSTs accept an
``Idempotency-Key``; corrections of results need ``If-Match`` with the
table's ETag from its score sheet.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

from league import ratings, selectors, services, standings
from league.api import filters
from league.api import serializers as s
from league.api.access import ORGANISER, RESULTS, access_club_for_write
from league.api.idempotency import idempotent
from league.models import Club, Event, League, Membership, Player, RatingScope, Round, Table

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="retrying a POST with the same key returns the first response",
)
IF_MATCH_HEADER = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="the table's ETag from its score sheet; 412 when stale",
)


class IdOrder(CursorPagination):
    ordering = "id"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class ReadWriteViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Any]
):
    """List and retrieve with the output serializer; create and partial
    update through ``create_object``/``update_object``, after the access
    check on the club that owns the object."""

    pagination_class = IdOrder
    lookup_value_regex = "[0-9]{1,18}"  # ids fit a 64-bit column on every database
    input_serializer: type[s.serializers.Serializer[Any]]
    update_serializer: type[s.serializers.Serializer[Any]]
    write_roles: tuple[str, ...] = (ORGANISER,)
    http_method_names = ["get", "post", "patch", "head", "options"]

    def filter_queryset(self, queryset: Any) -> Any:
        # Filters narrow lists; an object is found by its id alone.
        return super().filter_queryset(queryset) if self.action == "list" else queryset

    def club_of_input(self, data: dict[str, Any]) -> Club | int:
        raise NotImplementedError

    def club_of(self, obj: Any) -> Club | int:
        raise NotImplementedError

    def create_object(self, data: dict[str, Any]) -> Any:
        raise NotImplementedError

    def update_object(self, obj: Any, data: dict[str, Any]) -> Any:
        raise NotImplementedError

    def output(self, obj: Any, code: int = status.HTTP_200_OK) -> Response:
        return Response(self.get_serializer(obj).data, status=code)

    @idempotent
    def create(self, request: Request) -> Response:
        inp = self.input_serializer(data=request.data)
        inp.is_valid(raise_exception=True)
        access_club_for_write(
            request.user, self.club_of_input(inp.validated_data), roles=self.write_roles
        )
        return self.output(self.create_object(inp.validated_data), status.HTTP_201_CREATED)

    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        obj = self.get_object()
        access_club_for_write(request.user, self.club_of(obj), roles=self.write_roles)
        inp = self.update_serializer(data=request.data, partial=True)
        inp.is_valid(raise_exception=True)
        return self.output(self.update_object(obj, inp.validated_data))


@extend_schema_view(
    partial_update=extend_schema(request=s.ClubUpdateInput, responses=s.ClubOutput),
)
class ClubViewSet(ReadWriteViewSet):
    """Clubs. Any signed-in user may create one and becomes its organiser."""

    serializer_class = s.ClubOutput
    input_serializer = s.ClubInput
    update_serializer = s.ClubUpdateInput
    queryset = Club.objects.all()

    @extend_schema(
        request=s.ClubInput, responses={201: s.ClubOutput}, parameters=[IDEMPOTENCY_HEADER]
    )
    @idempotent
    def create(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        inp = self.input_serializer(data=request.data)
        inp.is_valid(raise_exception=True)
        club = services.club_create_by(user=request.user, **inp.validated_data)
        return self.output(club, status.HTTP_201_CREATED)

    def club_of(self, obj: Club) -> Club:
        return obj

    @extend_schema(
        parameters=[OpenApiParameter("game", OpenApiTypes.STR, enum=["bluke", "buck_euchre"])],
        responses=s.LeaderboardOutput,
    )
    @action(detail=True, pagination_class=None, filter_backends=[])
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        """The club-wide rating leaderboard of one game, across its leagues."""
        club = self.get_object()
        game = request.query_params.get("game")
        if game not in ("bluke", "buck_euchre"):
            raise exceptions.ValidationError({"game": ["bluke or buck_euchre"]})
        scope = RatingScope.objects.filter(club=club, game=game, league=None).first()
        return Response(s.LeaderboardOutput(selectors.rating_board(scope=scope)).data)

    def update_object(self, obj: Club, data: dict[str, Any]) -> Club:
        return services.club_update(club=obj, **data)


@extend_schema_view(
    create=extend_schema(
        request=s.MembershipInput,
        responses={201: s.MembershipOutput},
        parameters=[IDEMPOTENCY_HEADER],
    ),
)
class MembershipViewSet(mixins.DestroyModelMixin, ReadWriteViewSet):
    """Who holds which role in a club (organisers manage them)."""

    serializer_class = s.MembershipOutput
    input_serializer = s.MembershipInput
    queryset = Membership.objects.select_related("user")
    filterset_fields = ["club", "user", "role"]
    http_method_names = ["get", "post", "delete", "head", "options"]

    def club_of_input(self, data: dict[str, Any]) -> Club:
        return data["club"]

    def club_of(self, obj: Membership) -> int:
        return obj.club_id

    def create_object(self, data: dict[str, Any]) -> Membership:
        return services.membership_set(**data)

    def destroy(self, request: Request, pk: str | None = None) -> Response:
        membership = self.get_object()
        access_club_for_write(request.user, membership.club_id, roles=(ORGANISER,))
        services.membership_remove(membership=membership)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    create=extend_schema(
        request=s.PlayerInput, responses={201: s.PlayerOutput}, parameters=[IDEMPOTENCY_HEADER]
    ),
    partial_update=extend_schema(request=s.PlayerUpdateInput, responses=s.PlayerOutput),
)
class PlayerViewSet(ReadWriteViewSet):
    serializer_class = s.PlayerOutput
    input_serializer = s.PlayerInput
    update_serializer = s.PlayerUpdateInput
    queryset = Player.objects.all()
    filterset_class = filters.PlayerFilter

    def club_of_input(self, data: dict[str, Any]) -> Club:
        return data["club"]

    def club_of(self, obj: Player) -> int:
        return obj.club_id

    def create_object(self, data: dict[str, Any]) -> Player:
        return services.player_create(**data)

    @extend_schema(
        parameters=[
            OpenApiParameter("league", OpenApiTypes.INT),
            OpenApiParameter("game", OpenApiTypes.STR, enum=["bluke", "buck_euchre"]),
        ],
        responses=s.RatingHistoryOutput,
    )
    @action(detail=True, pagination_class=None, filter_backends=[], url_path="rating-history")
    def rating_history(self, request: Request, pk: str | None = None) -> Response:
        """The player's rating after every game: in a league (``league``), or
        club-wide in a game (``game``)."""
        player = self.get_object()
        query = s.ScopeQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        scopes = RatingScope.objects.filter(club_id=player.club_id)
        if "league" in query.validated_data:
            scope = scopes.filter(league_id=query.validated_data["league"]).first()
        else:
            scope = scopes.filter(game=query.validated_data["game"], league=None).first()
        points = ratings.history_of(scope=scope, player=player) if scope is not None else []
        return Response(s.RatingHistoryOutput({"player": player.pk, "history": points}).data)

    def update_object(self, obj: Player, data: dict[str, Any]) -> Player:
        return services.player_update(player=obj, **data)


@extend_schema_view(
    create=extend_schema(
        request=s.LeagueInput, responses={201: s.LeagueOutput}, parameters=[IDEMPOTENCY_HEADER]
    ),
    partial_update=extend_schema(request=s.LeagueUpdateInput, responses=s.LeagueOutput),
)
class LeagueViewSet(ReadWriteViewSet):
    serializer_class = s.LeagueOutput
    input_serializer = s.LeagueInput
    update_serializer = s.LeagueUpdateInput
    queryset = League.objects.all()
    filterset_class = filters.LeagueFilter

    def club_of_input(self, data: dict[str, Any]) -> Club:
        return data["club"]

    def club_of(self, obj: League) -> int:
        return obj.club_id

    def create_object(self, data: dict[str, Any]) -> League:
        return services.league_create(**data)

    def update_object(self, obj: League, data: dict[str, Any]) -> League:
        return services.league_update(league=obj, **data)

    @extend_schema(responses=s.LeaderboardOutput)
    @action(detail=True, pagination_class=None, filter_backends=[])
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        """The league's rating leaderboard, and whether it is up to date."""
        scope = RatingScope.objects.filter(league=self.get_object()).first()
        return Response(s.LeaderboardOutput(selectors.rating_board(scope=scope)).data)

    @extend_schema(
        parameters=[
            OpenApiParameter("date_after", OpenApiTypes.DATE),
            OpenApiParameter("date_before", OpenApiTypes.DATE),
        ],
        responses=s.StandingOutput(many=True),
    )
    @action(detail=True, pagination_class=None, filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The league's standings, best first, with when they were computed;
        with ``date_after``/``date_before``, those of the games in that range
        (computed now)."""
        league = self.get_object()
        query = s.StandingsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        if query.validated_data:
            rows = standings.standing_rows(league=league, **query.validated_data)
            now = timezone.now()
            return Response(
                s.StandingOutput(
                    [{**row, "player_name": row["name"], "computed_at": now} for row in rows],
                    many=True,
                ).data
            )
        return Response(s.StandingOutput(stored_rows(league=league), many=True).data)


@extend_schema_view(
    create=extend_schema(
        request=s.EventInput, responses={201: s.EventOutput}, parameters=[IDEMPOTENCY_HEADER]
    ),
    partial_update=extend_schema(request=s.EventUpdateInput, responses=s.EventOutput),
)
class EventViewSet(ReadWriteViewSet):
    serializer_class = s.EventOutput
    input_serializer = s.EventInput
    update_serializer = s.EventUpdateInput
    queryset = Event.objects.select_related("league").prefetch_related("rounds")
    filterset_class = filters.EventFilter

    def club_of_input(self, data: dict[str, Any]) -> int:
        return data["league"].club_id

    def club_of(self, obj: Event) -> int:
        return obj.league.club_id

    def create_object(self, data: dict[str, Any]) -> Event:
        return services.event_create(**data)

    def update_object(self, obj: Event, data: dict[str, Any]) -> Event:
        return services.event_update(event=obj, **data)

    @extend_schema(responses=s.StandingOutput(many=True))
    @action(detail=True, pagination_class=None, filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The standings of the event's complete games, best first."""
        event = self.get_object()
        rows = stored_rows(league=event.league, event=event)
        return Response(s.StandingOutput(rows, many=True).data)


@extend_schema_view(
    create=extend_schema(
        request=s.RoundInput, responses={201: s.RoundOutput}, parameters=[IDEMPOTENCY_HEADER]
    ),
)
class RoundViewSet(ReadWriteViewSet):
    serializer_class = s.RoundOutput
    input_serializer = s.RoundInput
    queryset = Round.objects.select_related("event__league")
    filterset_class = filters.RoundFilter
    http_method_names = ["get", "post", "head", "options"]

    def club_of_input(self, data: dict[str, Any]) -> int:
        return data["event"].league.club_id

    def create_object(self, data: dict[str, Any]) -> Round:
        return services.round_create(**data)


@extend_schema_view(
    create=extend_schema(
        request=s.TableInput, responses={201: s.TableOutput}, parameters=[IDEMPOTENCY_HEADER]
    ),
    partial_update=extend_schema(request=s.TableUpdateInput, responses=s.TableOutput),
)
class TableViewSet(ReadWriteViewSet):
    """Tables with their seatings, and their games: hands, corrections, the
    whole game at once, and the score sheet."""

    serializer_class = s.TableOutput
    input_serializer = s.TableInput
    update_serializer = s.TableUpdateInput
    queryset = Table.objects.select_related("round__event__league").prefetch_related(
        "seatings__player"
    )
    filterset_class = filters.TableFilter
    http_method_names = ["get", "post", "patch", "put", "delete", "head", "options"]

    def club_of_input(self, data: dict[str, Any]) -> int:
        return data["round"].event.league.club_id

    def club_of(self, obj: Table) -> int:
        return obj.round.event.league.club_id

    def create_object(self, data: dict[str, Any]) -> Table:
        return services.table_create(**data)

    def update_object(self, obj: Table, data: dict[str, Any]) -> Table:
        return selectors.table_with_seatings(services.table_reseat(table=obj, **data).pk)

    def _table_for_results(self, request: Request) -> Table:
        table = self.get_object()
        access_club_for_write(request.user, self.club_of(table), roles=RESULTS)
        return table

    RESULTS_ACTIONS = ("hands", "hand", "game", "sheet")

    def get_queryset(self) -> Any:
        if self.action in self.RESULTS_ACTIONS:  # the score sheet fetches seatings itself
            return Table.objects.select_related("round__event__league")
        return super().get_queryset()

    def _sheet(self, table: Table, code: int = status.HTTP_200_OK) -> Response:
        sheet = selectors.score_sheet(table=table)
        response = Response(s.score_sheet_data(sheet), status=code)
        response["ETag"] = etag(sheet["table"])
        return response

    @extend_schema(
        request=s.HandInput, responses={201: s.HandSubmittedOutput}, parameters=[IDEMPOTENCY_HEADER]
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def hands(self, request: Request, pk: str | None = None) -> Response:
        """Submit the next hand; answers it as scored with the table's new totals."""
        table = self._table_for_results(request)
        inp = s.HandInput(data=request.data)
        inp.is_valid(raise_exception=True)
        change = services.hand_submit(table=table, **inp.validated_data)
        response = Response(s.hand_submitted_data(change), status=status.HTTP_201_CREATED)
        response["ETag"] = etag(change.table)
        return response

    @extend_schema(
        methods=["PUT"],
        request=s.RecordInput,
        responses=s.ScoreSheetOutput,
        parameters=[IF_MATCH_HEADER],
    )
    @extend_schema(
        methods=["DELETE"],
        request=None,
        responses={200: s.ScoreSheetOutput},
        parameters=[IF_MATCH_HEADER],
    )
    @action(detail=True, methods=["put", "delete"], url_path=r"hands/(?P<number>[0-9]{1,5})")
    def hand(self, request: Request, pk: str | None = None, number: str = "0") -> Response:
        """Correct a hand (every later total is recomputed) or delete the last hand."""
        table = self._table_for_results(request)
        version = if_match_version(request, table)
        if request.method == "DELETE":
            table = services.hand_delete_last(table=table, number=int(number), version=version)
        else:
            inp = s.RecordInput(data=request.data)
            inp.is_valid(raise_exception=True)
            record = inp.validated_data["record"]
            table = services.hand_correct(
                table=table, number=int(number), record=record, version=version
            )
        return self._sheet(table)

    @extend_schema(
        request=s.RecordInput, responses={201: s.ScoreSheetOutput}, parameters=[IDEMPOTENCY_HEADER]
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def game(self, request: Request, pk: str | None = None) -> Response:
        """Submit a whole game record at a table with no hands: all or nothing."""
        table = self._table_for_results(request)
        inp = s.RecordInput(data=request.data)
        inp.is_valid(raise_exception=True)
        record = inp.validated_data["record"]
        if not isinstance(record, dict):
            raise exceptions.ValidationError({"record": ["a game record is a JSON object"]})
        if table.hands_played:
            raise services.Conflict("the table already has hands; submit them one by one")
        table = services.game_submit(table=table, record=record)
        return self._sheet(table, status.HTTP_201_CREATED)

    @extend_schema(responses=s.ScoreSheetOutput)
    @action(detail=True)
    def sheet(self, request: Request, pk: str | None = None) -> Response:
        """The score sheet: every hand with its bids, tricks, points and totals."""
        return self._sheet(self.get_object())


def etag(table: Table) -> str:
    return f'"table-{table.pk}-v{table.version}"'


class PreconditionRequired(exceptions.APIException):
    status_code = 428
    default_detail = "Send If-Match with the table's ETag from its score sheet."
    default_code = "precondition_required"


def if_match_version(request: Request, table: Table) -> int:
    """The table version named by ``If-Match``: 428 without one, 400 if it is
    not an ETag of ours, and -1 (always stale: 412) for another table's."""
    header = request.headers.get("If-Match")
    if not header:
        raise PreconditionRequired()
    match = ETAG_PATTERN.fullmatch(header.strip())
    if match is None:
        raise exceptions.ValidationError(
            {"If-Match": ['expected the ETag of the score sheet, like "table-3-v12"']}
        )
    if int(match["table"]) != table.pk:
        return -1
    return int(match["version"])


ETAG_PATTERN = re.compile(r'(?:W/)?"table-(?P<table>[0-9]+)-v(?P<version>[0-9]+)"')


def stored_rows(*, league: League, event: Event | None = None) -> list[dict[str, Any]]:
    return [
        {
            **{field: getattr(row, field) for field in standings.STORED_FIELDS},
            "player_id": row.player_id,
            "player_name": row.player.name,
            "computed_at": row.computed_at,
        }
        for row in selectors.league_standings(league=league, event=event)
    ]
