"""Reads of clubs and who belongs to them: the clubs with their leagues, a
user's role in a club and the clubs they organise or belong to (none, and no
query, for an anonymous user), a club's players, their names and logins."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, Q, QuerySet

from league.models import Club, League, Membership, Player
from league.names import is_close
from league.users import SiteUser


def clubs_with_leagues() -> QuerySet[Club]:
    return Club.objects.prefetch_related(
        Prefetch("leagues", queryset=League.objects.order_by("name"))
    )


def club_role(user: SiteUser, club_id: int) -> str | None:
    """``user``'s role in the club (organiser or scorekeeper), ``None`` for no
    role or an anonymous user (the question :mod:`league.access` asks)."""
    if not user.is_authenticated:
        return None
    return (
        Membership.objects.filter(club_id=club_id, user=user).values_list("role", flat=True).first()
    )


def is_club_player(user: SiteUser, club_id: int) -> bool:
    """Whether ``user`` is linked to one of the club's players: a member of
    the club, though without a role unless :func:`club_role` says so."""
    return user.is_authenticated and Player.objects.filter(club_id=club_id, user=user).exists()


def organised_club_ids(user: SiteUser) -> set[int]:
    """The clubs ``user`` organises (one query; none, and no query, for an
    anonymous user): where a page listing clubs shows them a "Manage" link."""
    if not user.is_authenticated:
        return set()
    return set(
        Membership.objects.filter(user=user, role=Membership.Role.ORGANISER).values_list(
            "club_id", flat=True
        )
    )


def member_club_ids(user: SiteUser) -> set[int]:
    """The clubs ``user`` is a member of: holds a role in, or is linked to a
    player of (one query; none, and no query, for an anonymous user). A
    club's memberships and its players' logins are shown to them alone."""
    if not user.is_authenticated:
        return set()
    roles = Membership.objects.filter(user=user).order_by().values_list("club_id", flat=True)
    players = Player.objects.filter(user=user).order_by().values_list("club_id", flat=True)
    return set(roles.union(players))


def club_player_id(*, user: SiteUser, club_id: int) -> int | None:
    """The id of ``user``'s player in the club, ``None`` when they have none
    (one query; none for an anonymous user)."""
    if not user.is_authenticated:
        return None
    return Player.objects.filter(club_id=club_id, user=user).values_list("pk", flat=True).first()


def club_names(*, club: Club) -> list[tuple[int, str, str]]:
    """Every player of the club as (id, name, key), by name (one query): what a
    name typed is checked against (a club's players fit in memory: its pages
    list them all)."""
    return list(
        Player.objects.filter(club=club)
        .order_by("name", "pk")
        .values_list("pk", "name", "name_key")
    )


def close_players(
    *, names: Sequence[tuple[int, str, str]], name: str, exclude: int | None = None
) -> list[tuple[int, str]]:
    """The players of ``names`` (:func:`club_names`) whose name is close to
    ``name`` (:func:`league.names.is_close`: "do you mean Ada?"), as (id, name);
    ``exclude`` is a player left out (the one renamed)."""
    return [(pk, other) for pk, other, _ in names if pk != exclude and is_close(name, other)]


def club_player_count(*, club: Club) -> int:
    """How many players the club has, guests included (one query)."""
    return Player.objects.filter(club=club).count()


def club_players(*, club: Club, query: str = "") -> list[Player]:
    """The club's players by name, with their linked logins; ``query``, if
    given, keeps those whose name contains it, in any case (one query)."""
    players = Player.objects.filter(club=club).select_related("user").order_by("name", "id")
    if query:
        players = players.filter(name__icontains=query)
    return list(players)


def club_logins(*, club: Club, also: AbstractBaseUser | None = None) -> list[AbstractBaseUser]:
    """The users who hold a role in the club, by username, and ``also`` (the
    login a player is linked to now, role or not), for a player's login
    choice (one query)."""
    has_role = Q(memberships__club=club)
    if also is not None:
        has_role |= Q(pk=also.pk)
    users = get_user_model().objects.filter(has_role).distinct().order_by("username")
    return list(users)
