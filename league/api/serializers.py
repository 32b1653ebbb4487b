"""Output serializers of the read API."""

from __future__ import annotations

from rest_framework import serializers

from league.models import Club, League, Standing


class ClubOutput(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]


class LeagueOutput(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ["id", "club", "name", "slug", "game", "options", "created_at"]


class StandingOutput(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name")

    class Meta:
        model = Standing
        fields = [
            "player",
            "player_name",
            "games",
            "wins",
            "total_points",
            "average_place",
            "computed_at",
        ]
