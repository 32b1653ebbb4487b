"""The webhooks API: a club's endpoints and their deliveries, for its organisers.

``/api/webhooks/`` lists the endpoints of the clubs the caller organises
(``?club=`` narrows it to one); creating one names its ``club`` and answers
its ``secret``, the only time it is shown. An endpoint, its deliveries
(``/api/webhooks/{id}/deliveries/``, newest first, by cursor) and its test
ping are the club's organisers' alone: anyone else signed in is answered as
for a missing endpoint (404), a member of the club without the role 403
(:mod:`league.access`); an anonymous caller 401. The services are
:mod:`league.services.webhook_endpoints`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.filters import BaseFilterBackend
from rest_framework.request import Request
from rest_framework.response import Response

from league import access
from league.api.pagination import IdOrder
from league.api.problems import InvalidField
from league.api.serializers import Input
from league.models import Club, Membership, WebhookDelivery, WebhookEndpoint
from league.services import webhook_endpoints
from league.webhook_events import SUBSCRIBABLE

RowT = TypeVar("RowT")

EVENT_CHOICES = [(event.value, event.label) for event in SUBSCRIBABLE]


class WebhookEndpointOutput(serializers.ModelSerializer[WebhookEndpoint]):
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_CHOICES))
    disabled_reason = serializers.CharField(
        help_text="why the league disabled the endpoint (empty unless it did)"
    )

    class Meta:
        model = WebhookEndpoint
        fields = [
            "id",
            "club",
            "url",
            "events",
            "active",
            "disabled_at",
            "disabled_reason",
            "consecutive_failures",
            "created_at",
        ]


class WebhookEndpointCreatedOutput(WebhookEndpointOutput):
    secret = serializers.CharField(
        help_text="signs every delivery (docs/webhooks.md); shown this once, never again"
    )

    class Meta(WebhookEndpointOutput.Meta):
        fields = [*WebhookEndpointOutput.Meta.fields, "secret"]


class WebhookDeliveryOutput(serializers.ModelSerializer[WebhookDelivery]):
    class Meta:
        model = WebhookDelivery
        fields = [
            "id",
            "endpoint",
            "event_id",
            "event",
            "payload",
            "status",
            "attempts",
            "next_attempt_at",
            "last_status_code",
            "last_error",
            "delivered_at",
            "created_at",
        ]


class WebhookEndpointInput(Input):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    # untrimmed: a line break around the URL is refused by the service, not dropped
    url = serializers.CharField(
        max_length=500,
        trim_whitespace=False,
        help_text="http or https; public addresses only",
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENT_CHOICES),
        min_length=1,
        max_length=len(EVENT_CHOICES),
    )


class WebhookEndpointUpdateInput(Input):
    url = serializers.CharField(max_length=500, required=False, trim_whitespace=False)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENT_CHOICES),
        min_length=1,
        max_length=len(EVENT_CHOICES),
        required=False,
    )
    active = serializers.BooleanField(
        required=False,
        help_text="false turns the endpoint off (its pending deliveries fail); true turns it "
        "on again and clears its failures",
    )


class NewestFirst(IdOrder):
    """Deliveries by cursor, the newest first."""

    ordering = "-id"


class WebhookEndpointViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[WebhookEndpoint],
):
    """A club's webhook endpoints (organisers only; see the module's docstring)."""

    serializer_class = WebhookEndpointOutput
    permission_classes = [permissions.IsAuthenticated]
    pagination_class = IdOrder
    filter_backends: list[type[BaseFilterBackend]] = []
    lookup_value_regex = "[0-9]{1,18}"
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self) -> QuerySet[WebhookEndpoint]:
        if self.action == "list":
            organised = Membership.objects.filter(
                user_id=int(self.request.user.pk or 0), role=Membership.Role.ORGANISER
            ).values("club_id")
            return WebhookEndpoint.objects.filter(club_id__in=organised)
        return WebhookEndpoint.objects.all()

    def filter_queryset(
        self, queryset: QuerySet[WebhookEndpoint, RowT]
    ) -> QuerySet[WebhookEndpoint, RowT]:
        if self.action != "list" or "club" not in self.request.query_params:
            return queryset
        club = self.request.query_params["club"]
        if not club.isdigit() or len(club) > 18:
            raise InvalidField("club", _("a club's id"))
        return queryset.filter(club_id=int(club))

    def get_object(self) -> WebhookEndpoint:
        endpoint: WebhookEndpoint = super().get_object()
        access.check_club_role(self.request.user, endpoint.club_id, roles=access.ORGANISER)
        return endpoint

    @extend_schema(
        parameters=[OpenApiParameter("club", OpenApiTypes.INT, description="one club's endpoints")]
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The endpoints of the clubs you organise."""
        return super().list(request, *args, **kwargs)

    @extend_schema(request=WebhookEndpointInput, responses={201: WebhookEndpointCreatedOutput})
    def create(self, request: Request) -> Response:
        """Register a URL for a club's events; answers the endpoint with its
        secret, shown this once."""
        inp = WebhookEndpointInput(data=request.data)
        if not inp.is_valid():
            # a stranger to a club named validly learns nothing else (404 first)
            club = _valid_club(inp, request.data)
            if club is not None:
                access.check_club_role(request.user, club.pk, roles=access.ORGANISER)
            inp.is_valid(raise_exception=True)
        data = inp.validated_data
        access.check_club_role(request.user, data["club"].pk, roles=access.ORGANISER)
        new = webhook_endpoints.webhook_endpoint_create(
            club=data["club"], url=data["url"], events=data["events"], by=request.user
        )
        body = WebhookEndpointCreatedOutput(new.endpoint).data
        body["secret"] = new.secret
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(request=WebhookEndpointUpdateInput, responses=WebhookEndpointOutput)
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Change the URL or the events, or turn the endpoint off or on."""
        endpoint = self.get_object()
        inp = WebhookEndpointUpdateInput(data=request.data, partial=True)
        inp.is_valid(raise_exception=True)
        endpoint = webhook_endpoints.webhook_endpoint_update(
            endpoint=endpoint, **inp.validated_data
        )
        return Response(WebhookEndpointOutput(endpoint).data)

    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Delete the endpoint and its deliveries."""
        webhook_endpoints.webhook_endpoint_delete(endpoint=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses=WebhookDeliveryOutput(many=True))
    @action(detail=True, pagination_class=NewestFirst)
    def deliveries(self, request: Request, pk: str | None = None) -> Response:
        """The endpoint's deliveries, the newest first: each event sent, or
        to be sent, its status, attempts and last answer."""
        endpoint = self.get_object()
        # the stub ties a view set's pages to its own model; these are its deliveries
        deliveries = WebhookDelivery.objects.filter(endpoint=endpoint)
        page = self.paginate_queryset(deliveries)  # type: ignore[arg-type]
        assert page is not None  # the action paginates
        return self.get_paginated_response(WebhookDeliveryOutput(page, many=True).data)

    @extend_schema(request=None, responses={202: WebhookDeliveryOutput})
    @action(detail=True, methods=["post"])
    def ping(self, request: Request, pk: str | None = None) -> Response:
        """Send the endpoint a test ``ping``; answers its delivery (accepted:
        sent after this answer, or already, without a broker)."""
        delivery = webhook_endpoints.webhook_ping(endpoint=self.get_object())
        delivery.refresh_from_db()
        return Response(WebhookDeliveryOutput(delivery).data, status=status.HTTP_202_ACCEPTED)


def _valid_club(inp: WebhookEndpointInput, data: Any) -> Club | None:
    """The club an invalid input names, if that field is valid."""
    if "club" in inp.errors or not hasattr(data, "get") or data.get("club") is None:
        return None
    try:
        club: Club = inp.fields["club"].run_validation(data["club"])
    except serializers.ValidationError:
        return None
    return club
