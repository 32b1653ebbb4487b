"""The JSON API: thin view sets over :mod:`league.services` and :mod:`league.selectors`.

Reads are open to everyone; writes check the caller's role in the club that
owns the object (:mod:`league.access`). POSTs accept an
``Idempotency-Key``; corrections of results need ``If-Match`` with the
table's ETag from its score sheet (:mod:`league.api.etags`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from django.db.models import Model, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from league import access, audit, mails, ratelimits, rating_words
from league.api import filters
from league.api import serializers as s
from league.api.etags import etag, if_match_version
from league.api.idempotency import idempotent
from league.api.pagination import (
    ID_LIMIT,
    PLAYER_LOOKUP_LIMIT,
    IdOrder,
    NewestFirst,
    NewestGameFirst,
    RankedPage,
    RankOrder,
)
from league.api.permissions import TableLinkOrAuthenticatedOrReadOnly
from league.api.problems import InvalidField
from league.models import (
    Club,
    Event,
    Game,
    League,
    Membership,
    Player,
    RatingHistory,
    RatingScope,
    Round,
    Standing,
    Table,
    TableLink,
)
from league.selectors import clubs as clubs_selectors
from league.selectors import events as events_selectors
from league.selectors import players as players_selectors
from league.selectors import ratings as ratings_selectors
from league.selectors import replies as replies_selectors
from league.selectors import seasons as seasons_selectors
from league.selectors import standings as standings_selectors
from league.selectors import tables as tables_selectors
from league.services import (
    attendance,
    clubs,
    confirmations,
    finals,
    fixtures,
    links,
    replies,
    results,
    seat_changes,
)
from league.services import seating as seating_service
from league.users import login_of

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
IF_MATCH_OPTIONAL_HEADER = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="the table's ETag from the score sheet looked at; 412 when it has changed since",
)
GAME_PARAMETER = OpenApiParameter("game", OpenApiTypes.STR, enum=Game.values)


RANKED_PARAMETERS = [
    OpenApiParameter(
        "cursor", OpenApiTypes.STR, description="the position of a page: follow next and previous"
    ),
    OpenApiParameter(
        "page_size",
        OpenApiTypes.INT,
        description=f"rows a page (at most {RankOrder.max_page_size})",
    ),
    OpenApiParameter(
        "player",
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": ID_LIMIT},
            "maxItems": PLAYER_LOOKUP_LIMIT,
        },
        style="form",
        explode=True,
        description=(
            "only these players' rows, with their ranks in the whole list (repeated, or ids "
            f"joined by commas; at most {PLAYER_LOOKUP_LIMIT}); no pages then"
        ),
    ),
]


def standings_page(request: Request, rows: QuerySet[Standing]) -> Response:
    """A page of stored standings (``rows``: ranked, with their players)."""
    page = RankOrder().paginate(rows, request)
    shown = RankedPage(
        [standings_selectors.standing_row(row) for row in page.rows],
        next=page.next,
        previous=page.previous,
    )
    return Response(s.StandingsPageOutput(shown).data)


def leaderboard_page(request: Request, scope: RatingScope | None) -> Response:
    """A page of the scope's rating leaderboard (``None``: nothing rated yet),
    with what the board says beside its rows (one query for the rows)."""
    about = ratings_selectors.rating_board_about(scope=scope)
    page: RankedPage[Mapping[str, object]]
    if scope is None:
        page = RankOrder().paginate([], request)
    else:
        ranked = RankOrder().paginate(
            ratings_selectors.leaderboard_ranked(scope=scope),
            request,
            ranks_unique=True,
            player_field="board_player_id",
        )
        page = RankedPage(
            [ratings_selectors.leaderboard_row(row, game=scope.game) for row in ranked.rows],
            next=ranked.next,
            previous=ranked.previous,
        )
    return Response(s.LeaderboardOutput({**about, **vars(page)}).data)


def club_id_along(start: object, path: str) -> int:
    """The id of the club reached from ``start`` along ``path``.

    ``path`` is the dotted chain of foreign keys that ends at the club
    (``"round.event.league.club"``); ``start`` is a model instance, or a
    create input whose keys are the model's field names (its first hop is
    then a key)::

        >>> from types import SimpleNamespace as Obj
        >>> league = Obj(club_id=7)
        >>> club_id_along(Obj(league=league), "league.club")
        7
        >>> club_id_along({"league": league}, "league.club")
        7
        >>> club_id_along({"club": Obj(pk=3)}, "club")
        3
    """
    *hops, last = path.split(".")
    node = start
    for hop in hops:
        node = node[hop] if isinstance(node, dict) else getattr(node, hop)
    if isinstance(node, dict):
        return int(node[last].pk)
    return int(getattr(node, f"{last}_id"))


ModelT = TypeVar("ModelT", bound=Model)
RowT = TypeVar("RowT")


class ReadWriteViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[ModelT]
):
    """List and retrieve with the output serializer; create and partial
    update through the declared services, after the access check on the
    club that owns the object (``club_path``). A write is answered with the
    object as a read of it would be."""

    pagination_class = IdOrder
    lookup_value_regex = "[0-9]{1,18}"  # ids fit a 64-bit column on every database
    http_method_names = ["get", "post", "patch", "head", "options"]
    club_path: str
    """The foreign keys from the object to the club that owns it (see :func:`club_id_along`)."""
    write_roles: tuple[str, ...] = access.ORGANISER
    input_serializer: type[s.Input]
    update_serializer: type[s.Input]
    create_service: Callable[..., ModelT]
    """Called with the validated input as keyword arguments."""
    update_service: Callable[..., ModelT]
    """Called with the object (by its model's name) and the validated input."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Document each view set's create and partial update in the schema
        from the serializers it declares, so the two cannot disagree."""
        super().__init_subclass__(**kwargs)
        views: dict[str, object] = {}
        if hasattr(cls, "input_serializer"):
            views["create"] = extend_schema(
                request=cls.input_serializer,
                responses={201: cls.serializer_class},
                parameters=[IDEMPOTENCY_HEADER],
            )
        if hasattr(cls, "update_serializer"):
            views["partial_update"] = extend_schema(
                request=cls.update_serializer, responses=cls.serializer_class
            )
        extend_schema_view(**views)(cls)

    def get_queryset(self) -> QuerySet[ModelT]:
        """The objects of the clubs the caller may read: a members-only club's
        are its members' alone (:func:`league.access.visible_clubs`); to anyone
        else they are missing, listed nowhere and found by no id (404)."""
        return super().get_queryset().filter(self.visible())

    def visible(self) -> Q:
        return access.visible_clubs(self.request.user, self.club_path.replace(".", "__"))

    def filter_queryset(self, queryset: QuerySet[ModelT, RowT]) -> QuerySet[ModelT, RowT]:
        # Filters narrow lists; an object is found by its id alone.
        return super().filter_queryset(queryset) if self.action == "list" else queryset

    def check_write(self, request: Request, start: ModelT | Mapping[str, object]) -> None:
        access.check_club_role(
            request.user, club_id_along(start, self.club_path), roles=self.write_roles
        )

    def checked_create_input(self, request: Request) -> dict[str, object]:
        """The create input, validated, once the caller may write to the
        club it names. When the input is invalid but names a club, the
        access check still comes first: a caller with nothing to do with the
        club gets its 404 whatever else is wrong, so the errors tell no
        outsider whether, say, a user id exists."""
        inp = self.input_serializer(data=request.data)
        if not inp.is_valid():
            self._check_write_to_named_club(request, inp)
            inp.is_valid(raise_exception=True)  # the input's own refusal, naming its faults
        self.check_write(request, inp.validated_data)
        return dict(inp.validated_data)

    def _check_write_to_named_club(self, request: Request, inp: s.Input) -> None:
        """The access check on the club an invalid create input names, when
        the field naming it (the first hop of ``club_path``) is valid."""
        hop = self.club_path.split(".")[0]
        data = request.data
        if hop in inp.errors or not isinstance(data, Mapping) or hop not in data:
            return
        try:
            owner = inp.fields[hop].run_validation(data[hop])
        except exceptions.ValidationError:
            return
        self.check_write(request, {hop: owner})

    def check_replay_access(
        self, request: Request, pk: str | None = None, **kwargs: object
    ) -> None:
        """The access check of an idempotent POST, before its stored answer
        is replayed (:mod:`league.api.idempotency`): the object's club for an
        action on one, the club named by the input for a create."""
        if pk is None:
            self.checked_create_input(request)
        else:
            self.check_write(request, self.get_object())

    def output(self, obj: ModelT, code: int = status.HTTP_200_OK) -> Response:
        shown = self.get_queryset().get(pk=obj.pk)
        return Response(self.get_serializer(shown).data, status=code)

    @idempotent
    def create(self, request: Request) -> Response:
        obj = type(self).create_service(**self.checked_create_input(request))
        return self.output(obj, status.HTTP_201_CREATED)

    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        obj = self.get_object()
        self.check_write(request, obj)
        inp = self.update_serializer(data=request.data, partial=True)
        inp.is_valid(raise_exception=True)
        name = str(obj._meta.model_name)
        return self.output(type(self).update_service(**{name: obj}, **inp.validated_data))


class ClubViewSet(ReadWriteViewSet[Club]):
    """Clubs. Any signed-in user may create one and becomes its organiser,
    unless the site keeps that to its staff (``CLUB_CREATION``: 403 for others)."""

    serializer_class = s.ClubOutput
    input_serializer = s.ClubInput
    update_serializer = s.ClubUpdateInput
    queryset = Club.objects.all()
    update_service = clubs.club_update

    def visible(self) -> Q:
        return access.visible_clubs(self.request.user)

    def check_write(self, request: Request, start: Club | Mapping[str, object]) -> None:
        # A club owns itself; a new club has no owner to ask (see create), so no input comes.
        assert isinstance(start, Club)
        access.check_club_role(request.user, start.pk, roles=self.write_roles)

    def check_replay_access(
        self, request: Request, pk: str | None = None, **kwargs: object
    ) -> None:
        # Any signed-in user may found a club; a replay is only ever a signed-in user's.
        if pk is not None:
            super().check_replay_access(request, pk, **kwargs)

    @idempotent
    def create(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        access.check_club_creation(request.user)
        inp = self.input_serializer(data=request.data)
        inp.is_valid(raise_exception=True)
        club = clubs.club_create(organiser=request.user, **inp.validated_data)
        return self.output(club, status.HTTP_201_CREATED)

    @extend_schema(parameters=[GAME_PARAMETER, *RANKED_PARAMETERS], responses=s.LeaderboardOutput)
    @action(detail=True, pagination_class=None, filter_backends=[])
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        """The club-wide rating leaderboard of one game, across its leagues,
        a page at a time (or ``player=`` rows alone)."""
        club = self.get_object()
        query = s.GameQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        scope = ratings_selectors.club_game_scope(club=club, game=query.validated_data["game"])
        return leaderboard_page(request, scope)


class MembershipViewSet(mixins.DestroyModelMixin, ReadWriteViewSet[Membership]):
    """Who holds which role in a club (organisers manage them). A club's
    memberships are shown to its members alone (its organisers, its
    scorekeepers and the logins of its players): to anyone else the list is
    empty and a membership is not found, whatever the filter. A POST changes
    the role of a login that holds one in the club; anyone else is given a
    role only by accepting an invitation (the people page), and is refused
    here alike whether or not the id is a login."""

    serializer_class = s.MembershipOutput
    input_serializer = s.MembershipInput
    queryset = Membership.objects.select_related("user")
    filterset_class = filters.MembershipFilter
    http_method_names = ["get", "post", "delete", "head", "options"]
    club_path = "club"
    create_service = clubs.membership_change

    def get_queryset(self) -> QuerySet[Membership]:
        return self.queryset.filter(club_id__in=clubs_selectors.member_club_ids(self.request.user))

    def visible(self) -> Q:
        return Q()  # the memberships of the caller's clubs alone, whatever their clubs' visibility

    def destroy(self, request: Request, pk: str | None = None) -> Response:
        membership = self.get_object()
        self.check_write(request, membership)
        clubs.membership_remove(membership=membership)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerViewSet(ReadWriteViewSet[Player]):
    """A club's players, for anyone to read; which login a player is linked
    to (``user``) is shown to the club's members alone."""

    serializer_class = s.PlayerOutput
    input_serializer = s.PlayerInput
    update_serializer = s.PlayerUpdateInput
    queryset = Player.objects.all()
    filterset_class = filters.PlayerFilter
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    club_path = "club"
    create_service = clubs.player_create
    update_service = clubs.player_update

    @extend_schema(responses={204: None})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Delete a player with no games (organisers): 409 once they have one
        (merge them into another player, or anonymise them)."""
        player = self.get_object()
        self.check_write(request, player)
        clubs.player_delete(player=player)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=s.PlayerMergeInput, responses=s.PlayerOutput)
    @action(detail=True, methods=["post"])
    def merge(self, request: Request, pk: str | None = None) -> Response:
        """Merge the player (the same person entered twice) into ``into``, who is
        kept: games, attendance, sit-outs, invitations and the login move, this
        player is deleted, and the standings and ratings are recomputed by their
        jobs. Answers the player kept."""
        player = self.get_object()
        self.check_write(request, player)
        inp = s.PlayerMergeInput(data=request.data)
        inp.is_valid(raise_exception=True)
        into = Player.objects.filter(club_id=player.club_id, pk=inp.validated_data["into"]).first()
        if into is None:
            raise InvalidField("into", _("no player of the club has this id"))
        return self.output(clubs.player_merge(player=player, into=into))

    def get_serializer_context(self) -> dict[str, object]:
        return {**super().get_serializer_context(), **s.members_context(self.request.user)}

    @extend_schema(request=None, responses=s.PlayerOutput)
    @action(detail=True, methods=["post"])
    def anonymise(self, request: Request, pk: str | None = None) -> Response:
        """Erase the player's identity, keeping their games (organisers): the
        name becomes "Former player <id>", the login is unlinked."""
        player = self.get_object()
        self.check_write(request, player)
        return self.output(clubs.player_anonymise(player=player))

    @extend_schema(responses=OpenApiTypes.OBJECT)
    @action(detail=True, pagination_class=None, filter_backends=[])
    def data(self, request: Request, pk: str | None = None) -> Response:
        """Everything the league keeps about the player (organisers), to hand
        over on request: their game nights, games, standings and ratings."""
        player = self.get_object()
        self.check_write(request, player)
        return Response(players_selectors.player_data(player=player))

    @extend_schema(
        methods=["POST"],
        request=s.PersonalLinkInput,
        responses={201: s.PersonalLinkOutput},
    )
    @extend_schema(methods=["DELETE"], request=None, responses={204: None})
    @action(detail=True, methods=["post", "delete"])
    def link(self, request: Request, pk: str | None = None) -> Response:
        """Make the player's personal link (``POST``, 201: its page's URL and
        its secret, shown this once; a new link replaces the old), mailing it
        to ``email`` when given; or revoke it (``DELETE``, 204). Organisers."""
        player = self.get_object()
        self.check_write(request, player)
        if request.method == "DELETE":
            replies.personal_link_revoke(player=player)
            return Response(status=status.HTTP_204_NO_CONTENT)
        inp = s.PersonalLinkInput(data=request.data)
        inp.is_valid(raise_exception=True)
        email = inp.validated_data.get("email")
        if email and ratelimits.personal_link_mails_over_limit(request, mails=1):
            raise exceptions.Throttled(detail=_("You have mailed many links in the last hour."))
        made = replies.personal_link_create(player=player, by=request.user)
        url = request.build_absolute_uri(reverse("personal-link", kwargs={"token": made.token}))
        emailed = None
        if email:
            mail = mails.PersonalLinkMail(
                player_id=player.pk,
                player_name=player.name,
                club_name=player.club.name,
                email=email,
                url=url,
            )
            emailed = bool(mails.personal_links_mail([mail]))
        body = {
            "url": url,
            "token": made.token,
            "created_at": made.link.created_at,
            "emailed": emailed,
        }
        return Response(s.PersonalLinkOutput(body).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[OpenApiParameter("league", OpenApiTypes.INT), GAME_PARAMETER],
        responses=s.RatingHistoryOutput,
    )
    @action(detail=True, pagination_class=None, filter_backends=[], url_path="rating-history")
    def rating_history(self, request: Request, pk: str | None = None) -> Response:
        """The player's rating after every game: in a league (``league``), or
        club-wide in a game (``game``)."""
        player = self.get_object()
        query = s.ScopeQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        points = ratings_selectors.player_rating_history(
            player=player,
            league_id=query.validated_data.get("league"),
            game=query.validated_data.get("game"),
        )
        return Response(s.RatingHistoryOutput({"player": player.pk, "history": points}).data)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "scope",
                OpenApiTypes.STR,
                required=True,
                description="a league's id, or a game (bluke, buck_euchre) for the club-wide "
                "rating of that game",
            )
        ],
        responses=s.RatingGameOutput(many=True),
    )
    @action(
        detail=True,
        pagination_class=NewestGameFirst,
        filter_backends=[],
        url_path="rating-games",
    )
    def rating_games(self, request: Request, pk: str | None = None) -> Response:
        """The player's rating game by game, newest first: the rating before and
        after each game, what the model expected of the player at that table and
        what they scored, and why the rating moved in words. In a league
        (``scope`` its id) or club-wide in a game (``scope`` the game)."""
        player = self.get_object()
        query = s.RatingGamesQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        scope = ratings_selectors.player_scope(player=player, **query.validated_data["scope"])
        rows = ratings_selectors.rating_games(scope=scope, player=player)
        # the stub ties a view set's pages to its own model; these are history rows
        page: list[RatingHistory] = list(self.paginate_queryset(rows) or [])  # type: ignore[arg-type]
        oldest_first = page[::-1]
        if scope is None or not oldest_first:
            return self.get_paginated_response([])
        before = ratings_selectors.rating_before(
            scope=scope, player=player, order_key=oldest_first[0].order_key
        )
        games = ratings_selectors.explain_games(oldest_first, scope=scope, before=before)
        data = [rating_words.game_data(game) for game in reversed(games)]
        # many=True takes a list, whatever the stub's one-instance type says
        output = s.RatingGameOutput(data, many=True)  # type: ignore[arg-type]
        return self.get_paginated_response(output.data)


class LeagueViewSet(ReadWriteViewSet[League]):
    serializer_class = s.LeagueOutput
    input_serializer = s.LeagueInput
    update_serializer = s.LeagueUpdateInput
    queryset = League.objects.all()
    filterset_class = filters.LeagueFilter
    club_path = "club"
    create_service = fixtures.league_create
    update_service = fixtures.league_update

    @extend_schema(parameters=RANKED_PARAMETERS, responses=s.LeaderboardOutput)
    @action(detail=True, pagination_class=None, filter_backends=[])
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        """The league's rating leaderboard, a page at a time (or ``player=``
        rows alone), and whether it is up to date."""
        scope = ratings_selectors.league_scope_of(league=self.get_object())
        return leaderboard_page(request, scope)

    @extend_schema(
        parameters=[
            OpenApiParameter("date_after", OpenApiTypes.DATE),
            OpenApiParameter("date_before", OpenApiTypes.DATE),
            *RANKED_PARAMETERS,
        ],
        responses=s.StandingsPageOutput,
    )
    @action(detail=True, pagination_class=None, filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The league's standings, best first, a page at a time (or
        ``player=`` rows alone), each row with when it was computed; with
        ``date_after``/``date_before``, those of the games in that range
        (computed now, whole, then cut into pages)."""
        league = self.get_object()
        query = s.StandingsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        if query.validated_data:
            rows = standings_selectors.standing_rows_between(league=league, **query.validated_data)
            return Response(s.StandingsPageOutput(RankOrder().paginate(rows, request)).data)
        return standings_page(request, standings_selectors.league_standings(league=league))

    @extend_schema(methods=["GET"], responses=s.FinalResultOutput)
    @action(detail=True, pagination_class=None, filter_backends=[])
    def final(self, request: Request, pk: str | None = None) -> Response:
        """The league's final night and its result (404 before it is made)."""
        event = seasons_selectors.league_final(league=self.get_object())
        if event is None:
            raise exceptions.NotFound(_("the league has no final yet"))
        result = seasons_selectors.final_result(event=event)
        return Response(s.FinalResultOutput(result).data)

    @extend_schema(
        methods=["POST"],
        request=s.FinalInput,
        responses={200: s.FinalMadeOutput, 201: s.FinalMadeOutput},
        parameters=[IDEMPOTENCY_HEADER],
    )
    @final.mapping.post
    @idempotent
    def final_make(self, request: Request, pk: str | None = None) -> Response:
        """Make the league's final (organisers): the top ``players`` qualified
        players seated at its tables by standing (201); ``preview`` answers the
        final that would be made, storing nothing (200)."""
        league = self.get_object()
        self.check_write(request, league)
        inp = s.FinalInput(data=request.data)
        inp.is_valid(raise_exception=True)
        data = dict(inp.validated_data)
        if data.pop("preview"):
            return Response(
                s.FinalMadeOutput(
                    s.final_made_data(finals.final_preview(league=league, **data))
                ).data
            )
        made = finals.final_create(league=league, by=login_of(request.user), **data)
        body = s.FinalMadeOutput(s.final_made_data(made)).data
        return Response(body, status=status.HTTP_201_CREATED)


class EventViewSet(ReadWriteViewSet[Event]):
    serializer_class = s.EventOutput
    input_serializer = s.EventInput
    update_serializer = s.EventUpdateInput
    queryset = Event.objects.select_related("league").prefetch_related("rounds")
    filterset_class = filters.EventFilter
    http_method_names = ["get", "post", "patch", "put", "delete", "head", "options"]
    club_path = "league.club"
    create_service = fixtures.event_create
    update_service = fixtures.event_update

    @extend_schema(responses={204: None})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Delete a game night made by mistake, with its rounds and tables
        (organisers): 409 once a hand is entered at one of its tables."""
        event = self.get_object()
        self.check_write(request, event)
        fixtures.event_delete(event=event)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=s.DrawInput,
        responses={200: s.ScheduleOutput, 201: s.ScheduleOutput},
        parameters=[IDEMPOTENCY_HEADER],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def schedule(self, request: Request, pk: str | None = None) -> Response:
        """Draw all the event's rounds at once, optimised together: a preview
        (200), or with ``commit`` every round's tables stored (201)."""
        event = self.get_object()
        self.check_write(request, event)
        inp = s.DrawInput(data=request.data)
        inp.is_valid(raise_exception=True)
        data = dict(inp.validated_data)
        commit, replace = data.pop("commit"), data.pop("replace")
        data["keep_apart"] = [tuple(pair) for pair in data["keep_apart"]]
        if commit:
            schedule = seating_service.event_schedule_commit(event=event, replace=replace, **data)
        else:
            schedule = seating_service.event_schedule_draw(event=event, **data)
        body = s.ScheduleOutput(s.schedule_data(schedule)).data
        return Response(body, status=status.HTTP_201_CREATED if commit else status.HTTP_200_OK)

    def _change_attendance(self, request: Request, change: Callable[..., object]) -> Response:
        """Check one player in, or out, by ``change``; answers the attendance."""
        event = self._organisers_event(request)
        inp = s.AttendancePlayerInput(data=request.data)
        inp.is_valid(raise_exception=True)
        change(event=event, player=inp.validated_data["player"], by=request.user)
        return self._attendance(event)

    def _attendance(self, event: Event) -> Response:
        rows = events_selectors.event_attendance(event=event)
        context = s.members_context(self.request.user)
        return Response(s.AttendanceOutput(rows, many=True, context=context).data)

    def _replies(self, event: Event) -> Response:
        window = replies.reply_window(
            event=event,
            league=event.league,
            drawn=replies.event_has_tables(event=event),
            now=timezone.now(),
        )
        body = {
            "open": window.open,
            "closed": window.closed,
            "closes_at": window.closes_at,
            "replies": replies_selectors.event_replies(event=event),
        }
        return Response(s.RepliesOutput(body).data)

    @extend_schema(responses=s.RepliesOutput)
    @action(detail=True, pagination_class=None, filter_backends=[])
    def replies(self, request: Request, pk: str | None = None) -> Response:
        """The players' replies to the night (organisers): every player who
        replied or holds a personal link, with their answer and whether they
        are checked in; whether replies are open and when they close."""
        return self._replies(self._organisers_event(request))

    @extend_schema(request=None, responses=s.RepliesOutput, parameters=[IDEMPOTENCY_HEADER])
    @action(
        detail=True,
        methods=["post"],
        url_path="replies/check-in",
        pagination_class=None,
        filter_backends=[],
    )
    @idempotent
    def replies_check_in(self, request: Request, pk: str | None = None) -> Response:
        """Check in everyone who replied they are coming and is not on the
        night's list yet (organisers); answers the replies."""
        event = self._organisers_event(request)
        replies.replies_check_in_coming(event=event, by=login_of(request.user))
        return self._replies(event)

    def _organisers_event(self, request: Request) -> Event:
        event: Event = self.get_object()
        self.check_write(request, event)
        return event

    @extend_schema(methods=["GET"], responses=s.AttendanceOutput(many=True))
    @extend_schema(
        methods=["PUT"], request=s.AttendanceInput, responses=s.AttendanceOutput(many=True)
    )
    @action(detail=True, methods=["get", "put"], pagination_class=None, filter_backends=[])
    def attendance(self, request: Request, pk: str | None = None) -> Response:
        """Who is present at the event, the rounds they play, who changed that
        and when; ``PUT`` sets who is present (organisers)."""
        if request.method != "PUT":
            return self._attendance(self.get_object())
        event = self._organisers_event(request)
        inp = s.AttendanceInput(data=request.data)
        inp.is_valid(raise_exception=True)
        attendance.attendance_set(
            event=event, players=inp.validated_data["players"], by=login_of(request.user)
        )
        return self._attendance(event)

    @extend_schema(
        request=s.AttendancePlayerInput,
        responses={200: s.AttendanceOutput(many=True)},
        parameters=[IDEMPOTENCY_HEADER],
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="attendance/check-in",
        pagination_class=None,
        filter_backends=[],
    )
    @idempotent
    def attendance_check_in(self, request: Request, pk: str | None = None) -> Response:
        """Check a player in from the next round to be drawn; answers the attendance."""
        return self._change_attendance(request, attendance.attendance_check_in)

    @extend_schema(
        request=s.AttendancePlayerInput,
        responses={200: s.AttendanceOutput(many=True)},
        parameters=[IDEMPOTENCY_HEADER],
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="attendance/leave",
        pagination_class=None,
        filter_backends=[],
    )
    @idempotent
    def attendance_leave(self, request: Request, pk: str | None = None) -> Response:
        """A player leaves: they play no round after the last one with tables;
        answers the attendance."""
        return self._change_attendance(request, attendance.attendance_leave)

    @extend_schema(
        request=s.GuestInput,
        responses={201: s.GuestAddedOutput},
        parameters=[IDEMPOTENCY_HEADER],
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="attendance/guests",
        pagination_class=None,
        filter_backends=[],
    )
    @idempotent
    def attendance_guests(self, request: Request, pk: str | None = None) -> Response:
        """Add a guest: a new player of the club, marked as a guest, checked in."""
        event = self._organisers_event(request)
        inp = s.GuestInput(data=request.data)
        inp.is_valid(raise_exception=True)
        row = attendance.guest_add(
            event=event, name=inp.validated_data["name"], by=login_of(request.user)
        )
        context = s.members_context(request.user)
        body = {
            "player": s.PlayerOutput(row.player, context=context).data,
            "attendance": s.AttendanceOutput(row, context=context).data,
        }
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(parameters=RANKED_PARAMETERS, responses=s.StandingsPageOutput)
    @action(detail=True, pagination_class=None, filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The standings of the event's complete games, best first, a page at
        a time (or ``player=`` rows alone)."""
        event = self.get_object()
        return standings_page(
            request, standings_selectors.league_standings(league=event.league, event=event)
        )


class RoundViewSet(ReadWriteViewSet[Round]):
    serializer_class = s.RoundOutput
    input_serializer = s.RoundInput
    queryset = Round.objects.select_related("event__league")
    filterset_class = filters.RoundFilter
    http_method_names = ["get", "post", "delete", "head", "options"]
    club_path = "event.league.club"
    create_service = fixtures.round_create

    @extend_schema(responses={204: None})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Delete a round made or drawn by mistake, with its tables (organisers):
        409 once a hand is entered at one of them, for a night's only round, and
        while a later round is drawn. The later rounds move down a number."""
        round_ = self.get_object()
        self.check_write(request, round_)
        fixtures.round_delete(round=round_)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=s.DrawInput,
        responses={200: s.DrawOutput, 201: s.DrawOutput},
        parameters=[IDEMPOTENCY_HEADER],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def seating(self, request: Request, pk: str | None = None) -> Response:
        """Draw the round's tables from the players present: a preview (200),
        or with ``commit`` the round's tables stored (201)."""
        round_ = self.get_object()
        self.check_write(request, round_)
        inp = s.DrawInput(data=request.data)
        inp.is_valid(raise_exception=True)
        data = dict(inp.validated_data)
        commit, replace = data.pop("commit"), data.pop("replace")
        data["keep_apart"] = [tuple(pair) for pair in data["keep_apart"]]
        if commit:
            draw = seating_service.round_seating_commit(round=round_, replace=replace, **data)
            return Response(s.DrawOutput(s.draw_data(draw)).data, status=status.HTTP_201_CREATED)
        draw = seating_service.round_seating_draw(round=round_, **data)
        return Response(s.DrawOutput(s.draw_data(draw)).data)

    @extend_schema(request=s.AdjustInput, responses=s.DrawOutput, parameters=[IDEMPOTENCY_HEADER])
    @action(detail=True, methods=["post"], url_path="seating/adjust")
    @idempotent
    def seating_adjust(self, request: Request, pk: str | None = None) -> Response:
        """Swap two players, or move one to another table, before the
        round's first hand; answers the round with its cost recomputed."""
        round_ = self.get_object()
        self.check_write(request, round_)
        inp = s.AdjustInput(data=request.data)
        inp.is_valid(raise_exception=True)
        draw = seating_service.round_seating_adjust(round=round_, **inp.validated_data)
        return Response(s.DrawOutput(s.draw_data(draw)).data)


class TableViewSet(ReadWriteViewSet[Table]):
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
    club_path = "round.event.league.club"
    create_service = fixtures.table_create
    update_service = fixtures.table_reseat

    def get_queryset(self) -> QuerySet[Table]:
        if self.action == "sheet":  # the score sheet fetches seatings itself
            return Table.objects.select_related("round__event__league").filter(self.visible())
        return super().get_queryset()

    def visible(self) -> Q:
        # a table's link reads its own table, whatever its club's visibility
        link = self._link(self.request)
        seen = super().visible()
        return seen | Q(pk=link.table_id) if link is not None else seen

    # Reads for anyone; a table link's request its few writes (hands, a correction, the
    # confirmation) on its own table; every other write a signed-in user's.
    permission_classes = [TableLinkOrAuthenticatedOrReadOnly]

    @staticmethod
    def _link(request: Request) -> TableLink | None:
        """The table link the request came with (``Authorization: Table``), if any."""
        return request.auth if isinstance(request.auth, TableLink) else None

    def _table_for_results(self, request: Request, pk: str | None) -> Table:
        """The table whose results the request may enter: the link's own table
        for a table link's request, else as a scorekeeper's or organiser's."""
        link = self._link(request)
        if link is not None:
            return access.access_table_by_link(link, int(pk or 0))
        return access.access_table_for_results(request.user, int(pk or 0))

    def _seat_of(self, request: Request, seat: int | None) -> int | None:
        """The seat a table link's request enters for (it must say one); a
        signed-in user's request says none (what it changes is theirs)."""
        if self._link(request) is not None:
            if seat is None:
                raise InvalidField("seat", _("say which seat is entering (from 0)"))
            return seat
        if seat is not None:
            raise InvalidField("seat", _("only a table link's request says its seat"))
        return None

    def check_replay_access(
        self, request: Request, pk: str | None = None, **kwargs: object
    ) -> None:
        # Results are the scorekeepers' too (and a link's): they check as they do.
        if self.action in ("hands", "game"):
            self._table_for_results(request, pk)
        elif self.action == "confirmation":
            self._table_for_confirmation(request, pk)
        else:
            super().check_replay_access(request, pk, **kwargs)

    @extend_schema(responses={204: None})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Delete a table made or drawn by mistake (organisers): 409 once a hand
        is entered at it. Its players are seated nowhere in the round."""
        table = self.get_object()
        self.check_write(request, table)
        fixtures.table_delete(table=table)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _sheet(self, table: Table, code: int = status.HTTP_200_OK) -> Response:
        sheet = tables_selectors.score_sheet(table=table)
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
        table = self._table_for_results(request, pk)
        inp = s.HandInput(data=request.data)
        inp.is_valid(raise_exception=True)
        data = dict(inp.validated_data)
        seat = self._seat_of(request, data.pop("seat", None))
        change = results.hand_submit(table=table, by_seat=seat, **data)
        response = Response(s.hand_submitted_data(change), status=status.HTTP_201_CREATED)
        response["ETag"] = etag(change.table)
        return response

    @extend_schema(
        methods=["PUT"],
        request=s.CorrectionInput,
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
        table = self._table_for_results(request, pk)
        version = if_match_version(request, table)
        if request.method == "DELETE":
            table = results.hand_delete_last(table=table, number=int(number), version=version)
        else:
            inp = s.CorrectionInput(data=request.data)
            inp.is_valid(raise_exception=True)
            table = results.hand_correct(
                table=table,
                number=int(number),
                record=inp.validated_data["record"],
                version=version,
                by_seat=self._seat_of(request, inp.validated_data.get("seat")),
            )
        return self._sheet(table)

    @extend_schema(
        request=s.RecordInput, responses={201: s.ScoreSheetOutput}, parameters=[IDEMPOTENCY_HEADER]
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def game(self, request: Request, pk: str | None = None) -> Response:
        """Submit a whole game record at a table with no hands: all or nothing."""
        table = self._table_for_results(request, pk)
        inp = s.RecordInput(data=request.data)
        inp.is_valid(raise_exception=True)
        table = results.game_submit(table=table, record=inp.validated_data["record"])
        return self._sheet(table, status.HTTP_201_CREATED)

    @extend_schema(
        request=s.RemovePlayerInput, responses=s.RemovalOutput, parameters=[IDEMPOTENCY_HEADER]
    )
    @action(detail=True, methods=["post"], url_path="remove-player")
    @idempotent
    def remove_player(self, request: Request, pk: str | None = None) -> Response:
        """Take a player off the table before its first hand: a preview (the
        round's tables as they would be), or with ``commit`` the change (the
        tables stored). Someone present takes the seat (``replacement``), or
        the table plays smaller, or the round's tables without a hand are
        drawn again; the player leaves the night unless ``leaves`` is false.
        For the club's organisers."""
        table = self.get_object()
        self.check_write(request, table)
        inp = s.RemovePlayerInput(data=request.data)
        inp.is_valid(raise_exception=True)
        removal = seat_changes.table_player_remove(
            table=table, by=login_of(request.user), **inp.validated_data
        )
        return Response(s.RemovalOutput(s.removal_data(removal)).data)

    @extend_schema(responses=s.AuditEntryOutput(many=True))
    @action(detail=True, pagination_class=NewestFirst, filter_backends=[])
    def history(self, request: Request, pk: str | None = None) -> Response:
        """The table's audit trail, newest first: every change of its hands
        and seats, and the draws of its round, with who made it, when,
        through what, and the record before and after. For the club's
        members; 404 for anyone else, as for a missing table."""
        table = access.access_table_history(request.user, int(pk or 0))
        # the stub ties a view set's pages to its own model; the history's are audit entries
        page = self.paginate_queryset(audit.table_history(table=table))  # type: ignore[arg-type]
        return self.get_paginated_response(s.AuditEntryOutput(page, many=True).data)

    @extend_schema(methods=["POST"], request=None, responses={201: s.TableLinkOutput})
    @extend_schema(methods=["DELETE"], request=None, responses={204: None})
    @action(detail=True, methods=["post", "delete"])
    def link(self, request: Request, pk: str | None = None) -> Response:
        """Make the table's link (``POST``, 201: its page's URL and its secret,
        shown this once; a new link replaces the old), or revoke it
        (``DELETE``, 204). For the club's organisers and scorekeepers."""
        table = access.access_table_for_results(request.user, int(pk or 0))
        if request.method == "DELETE":
            links.table_link_revoke(table=table)
            return Response(status=status.HTTP_204_NO_CONTENT)
        made = links.table_link_create(table=table, by=request.user)
        body = {
            "url": request.build_absolute_uri(reverse("table-link", kwargs={"token": made.token})),
            "token": made.token,
            "expires_at": made.link.expires_at,
        }
        return Response(s.TableLinkOutput(body).data, status=status.HTTP_201_CREATED)

    def _table_for_confirmation(self, request: Request, pk: str | None) -> Table:
        """The link's own table for a table link's request, else the table of
        a club the user organises (scorekeepers' results count at once: an
        organiser settles the players')."""
        link = self._link(request)
        if link is not None:
            return access.access_table_by_link(link, int(pk or 0))
        return access.access_table_for_confirmation(request.user, int(pk or 0))

    @extend_schema(
        request=s.ConfirmationInput,
        responses=s.ScoreSheetOutput,
        parameters=[IDEMPOTENCY_HEADER, IF_MATCH_OPTIONAL_HEADER],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def confirmation(self, request: Request, pk: str | None = None) -> Response:
        """Confirm (``agree``) or dispute (with a ``note``) the table's game:
        a player through the table link, saying their seat, or an organiser
        (no seat). Answers the score sheet."""
        table = self._table_for_confirmation(request, pk)
        inp = s.ConfirmationInput(data=request.data)
        inp.is_valid(raise_exception=True)
        seat = self._seat_of(request, inp.validated_data.get("seat"))
        version = if_match_version(request, table, required=False)
        table = confirmations.game_confirm(
            table=table,
            agree=inp.validated_data["agree"],
            seat=seat,
            note=inp.validated_data["note"],
            version=version,
        )
        return self._sheet(table)

    @extend_schema(responses=s.ScoreSheetOutput)
    @action(detail=True)
    def sheet(self, request: Request, pk: str | None = None) -> Response:
        """The score sheet: every hand with its bids, tricks, points and totals."""
        return self._sheet(self.get_object())
