"""Logins: an organiser's invitation, and each user's API tokens.

An invited user is made with an unusable password and a role in the club, in
one transaction; they choose their password through a one-time link, Django's
password reset token (:data:`default_token_generator`), which stops working
once the password is set because the token hashes the stored password.

An API token's key is made here and returned once: only its SHA-256 digest
and last four characters are stored (:class:`league.models.ApiToken`).
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from league import selectors
from league.errors import Conflict, Forbidden, NotFound, ServiceError
from league.models import ApiToken, Club, Membership, Player
from league.services.clubs import membership_set, player_update

USERNAME_MAX_LENGTH = 150
"""Django's ``User.username`` length."""

TOKEN_NAME_MAX_LENGTH = 100
"""``ApiToken.name``'s length."""

LAST_USED_EVERY = datetime.timedelta(minutes=1)
"""How stale a token's ``last_used_at`` may get before a request writes it again:
at most one write a minute a token, not one a request."""


@dataclass(frozen=True)
class Invitation:
    """A new login and the parts of its one-time set-password link (the
    ``uidb64`` and ``token`` of Django's ``password_reset_confirm`` URL)."""

    user: Any
    membership: Membership
    uidb64: str
    token: str


@dataclass(frozen=True)
class NewApiToken:
    """A token just made, with its key: the only time the key is known."""

    token: ApiToken
    key: str


@transaction.atomic
def user_invite(
    *,
    club: Club,
    username: str,
    email: str,
    role: str,
    by: Any,
    player: Player | None = None,
) -> Invitation:
    """Make a login for ``username`` with ``role`` in ``club``, on behalf of
    ``by`` (an organiser of the club), and link it to ``player`` if given (one
    of the club's players without a login).

    The user has an unusable password until they follow the link. Errors:
    :class:`Forbidden` when ``by`` is not an organiser, :class:`ServiceError`
    for a blank or malformed username or email or an unknown role,
    :class:`Conflict` for a username taken (whatever its case) or a player
    who has a login already. Nothing is stored on error.
    """
    if selectors.club_role(by, club.pk) != Membership.Role.ORGANISER:
        raise Forbidden(roles=(Membership.Role.ORGANISER,))
    username = _check_username(username)
    email = _check_email(email)
    if role not in Membership.Role.values:
        raise ServiceError(f"{role!r} is not a role: organiser or scorekeeper", field="role")
    # The club first, as every change to its roles does (league.services.clubs).
    Club.objects.select_for_update().get(pk=club.pk)
    if player is not None:
        player = _check_player_free(club, player)
    user_model = get_user_model()
    if user_model.objects.filter(username__iexact=username).exists():
        raise Conflict(f"the username {username!r} is taken", field="username")
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=username, email=email, password=None)
    except IntegrityError:  # the same name invited at the same moment
        raise Conflict(f"the username {username!r} is taken", field="username") from None
    membership = membership_set(club=club, user=user, role=role)
    if player is not None:
        player_update(player=player, user=user)
    return Invitation(
        user=user,
        membership=membership,
        uidb64=urlsafe_base64_encode(force_bytes(user.pk)),
        token=default_token_generator.make_token(user),
    )


def _check_username(username: str) -> str:
    username = username.strip()
    if not username:
        raise ServiceError("choose a username", field="username")
    if len(username) > USERNAME_MAX_LENGTH:
        raise ServiceError(
            f"a username has at most {USERNAME_MAX_LENGTH} characters", field="username"
        )
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError:
        raise ServiceError(
            "a username has letters, digits and @ . + - _ only (no spaces)", field="username"
        ) from None
    return username


def _check_email(email: str) -> str:
    email = email.strip()
    if not email:
        return ""
    try:
        validate_email(email)
    except ValidationError:
        raise ServiceError(f"{email!r} is not an email address", field="email") from None
    return get_user_model().objects.normalize_email(email)


def _check_player_free(club: Club, player: Player) -> Player:
    """The player, locked, if they are the club's and have no login yet."""
    locked = Player.objects.select_for_update().filter(pk=player.pk, club=club).first()
    if locked is None:
        raise ServiceError("that player is not one of the club's", field="player")
    if locked.user_id is not None:
        raise Conflict(f"{locked.name} has a login already", field="player")
    return locked


# -- API tokens -------------------------------------------------------------------------


def token_digest(key: str) -> str:
    """What is stored of ``key``, and looked up when it comes back."""
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def api_token_create(*, user: Any, name: str) -> NewApiToken:
    """A new API token of ``user`` named ``name`` (what it is for), with its
    key: the caller shows the key once, nothing can show it again.

    A blank name or one longer than 100 characters is a :class:`ServiceError`,
    a name the user gave another of their tokens a :class:`Conflict`.
    """
    name = name.strip()
    if not name:
        raise ServiceError("name the token: what is it for?", field="name")
    if len(name) > TOKEN_NAME_MAX_LENGTH:
        raise ServiceError(
            f"a token's name has at most {TOKEN_NAME_MAX_LENGTH} characters", field="name"
        )
    if ApiToken.objects.filter(user=user, name=name).exists():
        raise Conflict(f"you have a token named {name!r} already", field="name")
    key = secrets.token_urlsafe(32)
    try:
        with transaction.atomic():
            token = ApiToken.objects.create(
                user=user, name=name, digest=token_digest(key), last_four=key[-4:]
            )
    except IntegrityError:  # the same name at the same moment
        raise Conflict(f"you have a token named {name!r} already", field="name") from None
    return NewApiToken(token=token, key=key)


@transaction.atomic
def api_token_revoke(*, token: ApiToken, by: Any) -> None:
    """Revoke ``token``: its key stops working at once. Only its owner may:
    for anyone else it is :class:`NotFound`, as if it did not exist.

    The row is deleted rather than marked: a revoked key is of no use to
    anyone, and nothing kept can be mistaken for a live one.
    """
    if token.user_id != by.pk:
        raise NotFound("no such token")
    ApiToken.objects.filter(pk=token.pk).delete()


def api_token_mark_used(*, token: ApiToken, now: datetime.datetime | None = None) -> None:
    """Note that ``token`` was used, unless that was noted less than
    :data:`LAST_USED_EVERY` ago (so a busy client costs a write a minute).

    A single conditional UPDATE: concurrent requests cannot move the time back.
    """
    now = now or timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < LAST_USED_EVERY:
        return
    ApiToken.objects.filter(pk=token.pk).exclude(last_used_at__gte=now - LAST_USED_EVERY).update(
        last_used_at=now
    )
    token.last_used_at = now
