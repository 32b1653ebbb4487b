"""What the accounts pages read: a club's logins, a user's clubs and tokens.

Each function is one query, whatever the number of rows.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Case, IntegerField, Value, When

from league.models import ApiToken, Membership, Player


def club_memberships(*, club_id: int) -> list[Membership]:
    """The club's logins with their users: organisers first, then by username."""
    organisers_first = Case(
        When(role=Membership.Role.ORGANISER, then=Value(0)),
        default=Value(1),
        output_field=IntegerField(),
    )
    return list(
        Membership.objects.filter(club_id=club_id)
        .select_related("user")
        .order_by(organisers_first, "user__username")
    )


def club_players(*, club_id: int) -> list[Player]:
    """The club's players (guests too), by name: for who is linked to which
    login, and who has no login yet."""
    return list(Player.objects.filter(club_id=club_id).only("id", "name", "user_id", "club_id"))


def user_memberships(*, user: Any) -> list[Membership]:
    """The user's roles, with their clubs, by club name."""
    return list(Membership.objects.filter(user=user).select_related("club").order_by("club__name"))


def user_players(*, user: Any) -> list[Player]:
    """The players the user is linked to, with their clubs."""
    return list(Player.objects.filter(user=user).select_related("club").order_by("club__name"))


def user_api_tokens(*, user: Any) -> list[ApiToken]:
    """The user's API tokens, newest first (never a key: none is stored)."""
    return list(ApiToken.objects.filter(user=user))
