"""The read API for clubs and leagues (writes come with the league API)."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from league import selectors
from league.api.serializers import ClubOutput, LeagueOutput, StandingOutput
from league.models import Club, League


class ClubViewSet(viewsets.ReadOnlyModelViewSet[Club]):
    serializer_class = ClubOutput
    queryset = Club.objects.order_by("name")


class LeagueViewSet(viewsets.ReadOnlyModelViewSet[League]):
    serializer_class = LeagueOutput
    filterset_fields = ["club", "game"]

    def get_queryset(self) -> QuerySet[League]:
        return League.objects.order_by("club__name", "name")

    @extend_schema(responses=StandingOutput(many=True))
    @action(detail=True)
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The league's standings, best first, with when they were computed."""
        rows = selectors.league_standings(league=self.get_object())
        return Response(StandingOutput(rows, many=True).data)
