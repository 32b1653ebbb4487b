"""What the accounts pages read: a club's logins and invitations, a user's
clubs, invitations and tokens, an invitation by its link.

Each function is one query, whatever the number of rows.
"""

from __future__ import annotations

from django.db.models import Case, IntegerField, Value, When
from django.utils import timezone

from league.models import ApiToken, Invitation, Membership, Player
from league.users import Login


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


def club_invitations(*, club_id: int) -> list[Invitation]:
    """The club's invitations not yet answered, oldest first (expired ones
    too, for the organisers to see and withdraw)."""
    return list(Invitation.objects.filter(club_id=club_id))


def user_invitations(*, user: Login) -> list[Invitation]:
    """The invitations waiting for ``user``'s answer, with their clubs and
    players, oldest first (not the expired ones: they can no longer be accepted)."""
    return list(
        Invitation.objects.filter(user=user, expires_at__gt=timezone.now()).select_related(
            "club", "player"
        )
    )


def invitation_by_secret(*, secret: str) -> Invitation | None:
    """The invitation whose link has ``secret``, with its club, login and
    player, unless it has expired (or there is none)."""
    return (
        Invitation.objects.filter(
            digest=Invitation.digest_of(secret), expires_at__gt=timezone.now()
        )
        .select_related("club", "user", "player")
        .first()
    )


def user_memberships(*, user: Login) -> list[Membership]:
    """The user's roles, with their clubs, by club name."""
    return list(Membership.objects.filter(user=user).select_related("club").order_by("club__name"))


def user_players(*, user: Login) -> list[Player]:
    """The players the user is linked to, with their clubs."""
    return list(Player.objects.filter(user=user).select_related("club").order_by("club__name"))


def user_api_tokens(*, user: Login) -> list[ApiToken]:
    """The user's API tokens, newest first (never a key: none is stored)."""
    return list(ApiToken.objects.filter(user=user))
