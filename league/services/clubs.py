"""Clubs, the roles their users hold, and their players.

A club keeps at least one organiser: changes to its roles lock the club row
first, so two of them cannot both take away "the other" organiser. A club
may keep its results for its members (``visibility``), with private
addresses for its calendar feeds and a night's room screen; an organiser
anonymises a player on request (:func:`player_anonymise`).

A login is given a role in a club only by accepting an invitation
(:mod:`league.services.accounts`); here, a role it holds changes
(:func:`membership_change`), and a player is linked to a login that holds a
role in the club. Both refuse any other login alike, whether or not it exists,
so that they tell no caller which logins there are.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from django.db import transaction
from django.utils.text import slugify

from league import audit
from league.errors import Conflict, ServiceError
from league.models import Club, Event, Membership, PersonalLink, Player, Visibility

NO_ROLE_IN_CLUB = "invitation-needed"
"""The ``code`` of the refusal of a login that holds no role in the club (or is
no login at all: the two are refused alike)."""


SLUG_NEEDED = "slug-needed"
"""The ``code`` of a club (or league) name with no letter a-z or digit to make
its slug of: a slug must be given."""


@transaction.atomic
def club_create(
    *, name: str, slug: str = "", visibility: str = Visibility.PUBLIC, organiser: Any = None
) -> Club:
    """A new club; ``organiser`` (a user), if given, becomes its first organiser
    (a ``membership.set`` entry in its audit trail). Who may start one is
    :func:`league.access.check_club_creation`'s to say.

    The slug defaults to the name's (its letters a-z and digits: a name with
    none needs a slug given, :data:`SLUG_NEEDED`). A name another club has,
    in any case, is a :class:`Conflict` by the ``name``; a slug another club
    has, by the ``slug``. ``visibility`` as for :func:`club_update`.
    """
    _check_visibility(visibility)
    slug = slug or slugify(name)
    if not slug:
        raise ServiceError(
            "the name has no letter or digit to make a slug of; give one",
            field="slug",
            code=SLUG_NEEDED,
        )
    if Club.objects.filter(name__iexact=name).exists():
        raise Conflict(f"a club named {name!r} exists already", field="name")
    if Club.objects.filter(slug=slug).exists():
        raise Conflict(f"another club has the slug {slug!r}", field="slug")
    club = Club.objects.create(name=name, slug=slug, visibility=visibility)
    if organiser is not None:  # in the club's audit trail: who started it
        membership_set(club=club, user=organiser, role=Membership.Role.ORGANISER)
    return club


def _check_visibility(visibility: str) -> None:
    if visibility not in Visibility.values:
        raise ServiceError(
            f"visibility is one of {', '.join(Visibility.values)}", field="visibility"
        )


@transaction.atomic
def club_update(*, club: Club, name: str | None = None, visibility: str | None = None) -> Club:
    """Rename a club, or say who may read its players, results and ratings
    (``public``: anyone; ``members``: its members alone, see
    :func:`league.access.club_visible`)."""
    fields = []
    if name is not None:
        if Club.objects.filter(name__iexact=name).exclude(pk=club.pk).exists():
            raise Conflict(f"a club named {name!r} exists already", field="name")
        club.name = name
        fields.append("name")
    if visibility is not None:
        _check_visibility(visibility)
        club.visibility = visibility
        fields.append("visibility")
    if fields:
        club.save(update_fields=fields)
    return club


SECRET_BYTES = 24
"""The randomness of a private address (a club's feeds, a night's room screen): 192 bits."""


@transaction.atomic
def club_feed_key(*, club: Club, renew: bool = False) -> str:
    """The secret of the club's calendar feeds' private address, made when
    first asked for; ``renew`` makes a new one (the old address stops
    working). Only the club's members are shown it."""
    locked = Club.objects.select_for_update().get(pk=club.pk)
    if renew or not locked.feed_key:
        locked.feed_key = secrets.token_urlsafe(SECRET_BYTES)
        locked.save(update_fields=["feed_key"])
    club.feed_key = locked.feed_key
    return locked.feed_key


@transaction.atomic
def event_room_key(*, event: Event, renew: bool = False) -> str:
    """The secret of the night's room screen's address for the venue's TV
    (what a members-only club's room screen needs), made when first asked
    for; ``renew`` makes a new one."""
    locked = Event.objects.select_for_update().get(pk=event.pk)
    if renew or not locked.room_key:
        locked.room_key = secrets.token_urlsafe(SECRET_BYTES)
        locked.save(update_fields=["room_key"])
    event.room_key = locked.room_key
    return locked.room_key


ANONYMOUS_NAME = "Former player {id}"
"""What an anonymised player is called: unique in the club, as every name is."""


@transaction.atomic
def player_anonymise(*, player: Player) -> Player:
    """Erase a player's identity on request, keeping their games: the name
    replaced by :data:`ANONYMOUS_NAME`, the login unlinked, the guest mark
    kept as it is; every game, total, standing and rating stays, so that the
    league's figures still add up. One ``player.anonymised`` entry in the
    audit trail, which names the player by id only. Entries written before
    keep the name they recorded: the trail is never edited (docs/audit.md).
    Anonymising twice changes nothing more. The player's personal link, if
    any, stops working (its card or mail named them)."""
    locked = Player.objects.select_for_update().get(pk=player.pk)
    PersonalLink.objects.filter(player=locked).delete()
    name = ANONYMOUS_NAME.format(id=locked.pk)
    if locked.name == name and locked.user_id is None:
        return locked
    if Player.objects.filter(club_id=locked.club_id, name=name).exclude(pk=locked.pk).exists():
        name = f"{name} ({secrets.token_hex(3)})"  # a player once named so by hand
    had_login = locked.user_id is not None
    locked.name = name
    locked.user = None
    locked.save(update_fields=["name", "user"])
    audit.audit_record(
        action=audit.Action.PLAYER_ANONYMISED,
        club_id=locked.club_id,
        before={"player": locked.pk, "had_login": had_login},
        after={"player": locked.pk, "player_name": name},
    )
    return locked


@transaction.atomic
def membership_set(*, club: Club, user: Any, role: str) -> Membership:
    """Give ``user`` a role in ``club``; the club keeps at least one organiser.

    Locks the club row first, so that changes to its roles are serialised.
    """
    Club.objects.select_for_update().get(pk=club.pk)
    current = Membership.objects.filter(club=club, user=user).first()
    if current is not None and current.role == Membership.Role.ORGANISER != role:
        _check_not_last_organiser(club.pk)
    membership, _ = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    if current is None or current.role != role:  # giving the role held already changes nothing
        audit.audit_record(
            action=audit.Action.MEMBERSHIP_SET,
            club_id=club.pk,
            before=None if current is None else _role_record(user, current.role),
            after=_role_record(user, role),
        )
    return membership


@transaction.atomic
def membership_change(*, club: Club, user: Any, role: str) -> Membership:
    """Change the role that ``user`` (a login, or a reference to one by id)
    holds in ``club`` to ``role``; the club keeps at least one organiser.

    A login that holds no role in the club gets one only by accepting an
    invitation: for it, and for an id that is no login, the same
    :class:`ServiceError` (``field`` ``user``, ``code`` :data:`NO_ROLE_IN_CLUB`).
    """
    Club.objects.select_for_update().get(pk=club.pk)
    current = Membership.objects.select_related("user").filter(club=club, user_id=user.pk).first()
    if current is None:
        raise _no_role_in_club()
    return membership_set(club=club, user=current.user, role=role)


def _no_role_in_club() -> ServiceError:
    return ServiceError(
        "that login holds no role in the club: a role for anyone else is given by an "
        "invitation they accept (the club's people page)",
        field="user",
        code=NO_ROLE_IN_CLUB,
    )


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    """Remove a role; locks the club row first, like :func:`membership_set`."""
    Club.objects.select_for_update().get(pk=membership.club_id)
    if membership.role == Membership.Role.ORGANISER:
        _check_not_last_organiser(membership.club_id)
    before = _role_record(membership.user, membership.role)
    membership.delete()
    audit.audit_record(
        action=audit.Action.MEMBERSHIP_REMOVED, club_id=membership.club_id, before=before
    )


def _role_record(user: Any, role: str) -> dict[str, Any]:
    """A role as the audit trail keeps it: whose (id and login) and which."""
    return {"user": user.pk, "username": user.get_username(), "role": role}


def _check_not_last_organiser(club_id: int) -> None:
    """Refuse to take away the club's last organiser (the club row is locked)."""
    if Membership.objects.filter(club_id=club_id, role=Membership.Role.ORGANISER).count() == 1:
        raise Conflict("a club keeps at least one organiser")


@transaction.atomic
def player_create(*, club: Club, name: str, user: Any = None, is_guest: bool = False) -> Player:
    """A new player of the club; a name the club already has is a :class:`Conflict`.
    ``user``, the login linked, must hold a role in the club (see
    :func:`player_update`).

    ``is_guest`` marks a player added on the spot at a game night
    (:func:`league.services.attendance.guest_add`) until an organiser keeps them.
    """
    _check_player_name(club, name, player=None)
    user = _check_player_user(club, user, player=None)
    return Player.objects.create(club=club, name=name, user=user, is_guest=is_guest)


PLAYERS_A_STATEMENT: Final = 1_000
"""Players one INSERT of :func:`players_create` adds (4,000 parameters; PostgreSQL
takes at most 65,535 in a statement)."""


@transaction.atomic
def players_create(*, club: Club, names: Sequence[str]) -> list[Player]:
    """New players of the club, one a name of ``names`` in its order, all or none:
    a name the club has already, or named twice, is a :class:`Conflict`.

    For many at once (an import's): one query reads the club's names and one INSERT
    adds each :data:`PLAYERS_A_STATEMENT` players, where :func:`player_create` takes
    a query and an INSERT a player. The players returned have their ids."""
    wanted = list(names)
    repeated = sorted(name for name, times in Counter(wanted).items() if times > 1)
    if repeated:
        raise Conflict(f"{repeated[0]!r} is named twice", field="name")
    # a club's players fit in memory (its pages list them all), and one query
    # reading them is bound by no limit on a statement's parameters
    taken = set(Player.objects.filter(club=club).values_list("name", flat=True))
    clash = sorted(taken.intersection(wanted))
    if clash:
        raise Conflict(f"the club already has a player named {clash[0]!r}", field="name")
    return Player.objects.bulk_create(
        [Player(club=club, name=name) for name in wanted], batch_size=PLAYERS_A_STATEMENT
    )


@transaction.atomic
def player_update(
    *, player: Player, name: str | None = None, user: Any = ..., is_guest: bool | None = None
) -> Player:
    """Rename a player, or link them to a user (``None`` unlinks; ``...``
    leaves the link as it is), or keep a guest (``is_guest=False``).

    A player is linked to a login (or a reference to one by id) that holds a
    role in the club, or stays linked to their own; any other login, or an id
    that is no login, is refused alike (:class:`ServiceError`, ``field``
    ``user``, ``code`` :data:`NO_ROLE_IN_CLUB`): a login is linked to a player
    of a club it has no role in by accepting an invitation that names the
    player.

    Keeping is one way: a player becomes a guest only by being added as one
    at a game night, so ``is_guest=True`` for a player who is not a guest is
    a :class:`Conflict` (for a guest it changes nothing).
    """
    if name is not None:
        _check_player_name(player.club, name, player=player)
        player.name = name
    if user is not ...:
        player.user = _check_player_user(player.club, user, player=player)
    if is_guest is not None and is_guest != player.is_guest:
        if is_guest:
            raise Conflict(
                f"{player.name} is a player of the club already, not a guest", field="is_guest"
            )
        player.is_guest = False
    player.save()
    return player


def _check_player_name(club: Club, name: str, *, player: Player | None) -> None:
    """A club's players have different names (so a score sheet is unambiguous)."""
    taken = Player.objects.filter(club=club, name=name)
    if player is not None:
        taken = taken.exclude(pk=player.pk)
    if taken.exists():
        raise Conflict(f"the club already has a player named {name!r}", field="name")


def _check_player_user(club: Club, user: Any, *, player: Player | None) -> Any:
    """The login a player of the club may be linked to (``None``: none): one
    with a role in the club, or the player's own; linked to one player of a
    club at most."""
    if user is None:
        return None
    if player is not None and player.user_id == user.pk:
        return player.user
    holder = Membership.objects.select_related("user").filter(club=club, user_id=user.pk).first()
    if holder is None:
        raise _no_role_in_club()
    linked = Player.objects.filter(club=club, user_id=user.pk)
    if player is not None:
        linked = linked.exclude(pk=player.pk)
    if linked.exists():
        raise Conflict("that user is already linked to a player of the club", field="user")
    return holder.user
