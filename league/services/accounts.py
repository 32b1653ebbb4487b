"""Logins: an organiser's invitation, each user's API tokens, and what a new
password ends.

An invitation names a login by its username. Nobody is given a role they did
not accept: the login holds no role until it accepts the invitation, logged in
(its link, or its account page). A username no login has gets a new login, with
an unusable password, whose invitation's link is where it chooses its first
one (accepting the invitation as it does); an existing login is left as it is.
Either way the organiser is answered alike, with the invitation's link, so an
invitation does not tell them whether a login of that name existed: the one
refusal that depends on the login is for one that holds a role in their club
already, whom they see on the club's people page. The link's secret is made
here and returned once: only its SHA-256 digest is stored
(:class:`league.models.Invitation`).

An API token's key is made here and returned once too: only its SHA-256
digest and last four characters are stored (:class:`league.models.ApiToken`).
A login's new password, however it is set, revokes its tokens and forgets its
failed logins (:func:`login_password_changed`).
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from dataclasses import dataclass

from axes.utils import reset as axes_reset  # type: ignore[import-untyped]
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.access import role_needed
from league.errors import Conflict, NotFound, ServiceError
from league.models import (
    ApiToken,
    Club,
    Invitation,
    JobOwed,
    Membership,
    PasswordResetAsked,
    Player,
)
from league.outbox import job_owe
from league.selectors import clubs as clubs_selectors
from league.services.clubs import membership_set, player_update
from league.users import Login, SiteUser

USERNAME_MAX_LENGTH = 150
"""Django's ``User.username`` length."""

TOKEN_NAME_MAX_LENGTH = 100
"""``ApiToken.name``'s length."""

LAST_USED_EVERY = datetime.timedelta(minutes=1)
"""How stale a token's ``last_used_at`` may get before a request writes it again:
at most one write a minute a token, not one a request."""


@dataclass(frozen=True)
class InvitationMade:
    """An invitation just made, with its link's secret (the only time it is
    known) and the address checked that the caller mails it to ("" for none)."""

    invitation: Invitation
    secret: str
    email: str


@dataclass(frozen=True)
class InvitationAccepted:
    """What accepting an invitation gave: the role, and the player linked
    (``None`` when the invitation named none, or its player has a login since)."""

    membership: Membership
    player: Player | None


@dataclass(frozen=True)
class NewApiToken:
    """A token just made, with its key: the only time the key is known."""

    token: ApiToken
    key: str


def invitation_lifetime() -> datetime.timedelta:
    """How long an invitation's link works: Django's ``PASSWORD_RESET_TIMEOUT``,
    as long as a password reset's link."""
    return datetime.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)


@transaction.atomic
def user_invite(
    *,
    club: Club,
    username: str,
    email: str,
    role: str,
    by: Login,
    player: Player | None = None,
) -> InvitationMade:
    """Invite the login ``username`` to ``role`` in ``club``, on behalf of
    ``by`` (an organiser of the club), to be linked to ``player`` if given
    (one of the club's players without a login) when it accepts.

    A username no login has (whatever its case) gets a new login with an
    unusable password and ``email``; an existing login is left as it is, and
    ``email`` is only where the caller mails the link. The login holds no role
    until it accepts (:func:`invitation_accept`). An invitation of the same
    login to the club replaces the one before; the new one works for
    :func:`invitation_lifetime`.

    Errors: :class:`Forbidden` when ``by`` is not an organiser,
    :class:`ServiceError` for a blank or malformed username or email or an
    unknown role, :class:`Conflict` for a player who has a login already, or
    for a login that holds a role in the club already (``code`` ``has-role``:
    the club's organisers see its logins with a role). Nothing is stored on
    error.
    """
    if clubs_selectors.club_role(by, club.pk) != Membership.Role.ORGANISER:
        raise role_needed((Membership.Role.ORGANISER,))
    username = _check_username(username)
    email = _check_email(email)
    if role not in Membership.Role.values:
        raise ServiceError(
            _("%(role)s is not a role: organiser or scorekeeper") % {"role": repr(role)},
            field="role",
        )
    # The club first, as every change to its roles does (league.services.clubs).
    Club.objects.select_for_update().get(pk=club.pk)
    if player is not None:
        player = _check_player_free(club, player)
    user, made = _login_named(username, email=email)
    if not made and Membership.objects.filter(club=club, user=user).exists():
        raise Conflict(
            _("%(username)s has a role in the club already: change it in the list of logins")
            % {"username": username},
            field="username",
            code="has-role",
        )
    previous = Invitation.objects.filter(club=club, user=user).first()
    # A login an earlier invitation of the club made, still without a password,
    # keeps choosing it through the link (the club made it: nothing is told).
    new_login = made or (
        previous is not None and previous.new_login and not user.has_usable_password()
    )
    if previous is not None:
        previous.delete()
    secret = secrets.token_urlsafe(32)
    now = timezone.now()
    invitation = Invitation.objects.create(
        club=club,
        user=user,
        username=username,
        role=role,
        player=player,
        new_login=new_login,
        digest=Invitation.digest_of(secret),
        made_by=by,
        made_at=now,
        expires_at=now + invitation_lifetime(),
    )
    return InvitationMade(invitation=invitation, secret=secret, email=email)


def _login_named(username: str, *, email: str) -> tuple[Login, bool]:
    """The login called ``username`` (exactly, else whatever its case), or a
    new one with that name, ``email`` and no usable password; whether it is new."""
    user_model = get_user_model()
    logins = user_model.objects.order_by("pk")
    found = (
        logins.filter(username=username).first() or logins.filter(username__iexact=username).first()
    )
    if found is not None:
        return found, False
    try:
        with transaction.atomic():
            made = user_model.objects.create_user(username=username, email=email, password=None)
    except IntegrityError:  # the same name made at the same moment (another club's invitation)
        found = logins.filter(username__iexact=username).first()
        if found is None:
            raise
        return found, False
    return made, True


@transaction.atomic
def invitation_accept(
    *, invitation: Invitation, by: Login, password: str | None = None
) -> InvitationAccepted:
    """``by``, the invited login, accepts ``invitation``: from now on they hold
    its role in the club, and are linked to its player if that player still
    has no login (and ``by`` plays as no other player of the club). The
    invitation is deleted.

    With ``password`` (already checked against the password rules), the login
    made for the invitation chooses its first password as it accepts: its
    link does this.

    Errors: :class:`NotFound` when the invitation is gone (accepted, declined,
    withdrawn or replaced) or is not ``by``'s; :class:`ServiceError` (``code``
    ``expired``) once it has expired; :class:`Conflict` (``field``
    ``password``) for a password when the invitation did not make the login or
    the login has one already. Nothing is stored on error.
    """
    Club.objects.select_for_update().get(pk=invitation.club_id)  # the club first
    locked = (
        Invitation.objects.select_for_update()
        .select_related("club")
        .filter(pk=invitation.pk, user_id=by.pk)
        .first()
    )
    if locked is None:
        raise NotFound(_("no such invitation"))
    if locked.expires_at <= timezone.now():
        raise ServiceError(
            _("the invitation has expired: ask an organiser of the club for a new one"),
            code="expired",
        )
    if password is not None:
        if not locked.new_login or by.has_usable_password():
            raise Conflict(_("the login has a password already: log in with it"), field="password")
        by.set_password(password)
        by.save(update_fields=["password"])
    membership = membership_set(club=locked.club, user=by, role=locked.role)
    linked = None
    if locked.player_id is not None:
        free = (
            Player.objects.select_for_update()
            .filter(pk=locked.player_id, club_id=locked.club_id, user=None)
            .first()
        )
        plays_already = Player.objects.filter(club_id=locked.club_id, user_id=by.pk).exists()
        if free is not None and not plays_already:
            linked = player_update(player=free, user=by)
    locked.delete()
    return InvitationAccepted(membership=membership, player=linked)


@transaction.atomic
def invitation_decline(*, invitation: Invitation, by: Login) -> None:
    """``by``, the invited login, declines ``invitation``: it is deleted and
    they are given nothing. :class:`NotFound` when it is gone or not theirs."""
    if not Invitation.objects.filter(pk=invitation.pk, user_id=by.pk).delete()[0]:
        raise NotFound(_("no such invitation"))


@transaction.atomic
def invitation_withdraw(*, invitation: Invitation, by: SiteUser) -> None:
    """An organiser of its club (``by``) withdraws ``invitation``: it is
    deleted, and its link stops working. A login it made stays, as a login
    whose role is removed does. :class:`Forbidden` for anyone else;
    :class:`NotFound` when it is gone already."""
    if clubs_selectors.club_role(by, invitation.club_id) != Membership.Role.ORGANISER:
        raise role_needed((Membership.Role.ORGANISER,))
    if not Invitation.objects.filter(pk=invitation.pk).delete()[0]:
        raise NotFound(_("no such invitation"))


def _check_username(username: str) -> str:
    username = username.strip()
    if not username:
        raise ServiceError(_("choose a username"), field="username")
    if len(username) > USERNAME_MAX_LENGTH:
        raise ServiceError(
            ngettext(
                "a username has at most %(count)d character",
                "a username has at most %(count)d characters",
                USERNAME_MAX_LENGTH,
            )
            % {"count": USERNAME_MAX_LENGTH},
            field="username",
        )
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError:
        raise ServiceError(
            _("a username has letters, digits and @ . + - _ only (no spaces)"), field="username"
        ) from None
    return username


def _check_email(email: str) -> str:
    email = email.strip()
    if not email:
        return ""
    try:
        validate_email(email)
    except ValidationError:
        raise ServiceError(
            _("%(email)s is not an email address") % {"email": repr(email)}, field="email"
        ) from None
    return get_user_model().objects.normalize_email(email)


def _check_player_free(club: Club, player: Player) -> Player:
    """The player, locked, if they are the club's and have no login yet."""
    locked = Player.objects.select_for_update().filter(pk=player.pk, club=club).first()
    if locked is None:
        raise ServiceError(_("that player is not one of the club's"), field="player")
    if locked.user_id is not None:
        raise Conflict(
            _("%(player)s has a login already") % {"player": locked.name}, field="player"
        )
    return locked


# -- a password reset and a new password -----------------------------------------------


@transaction.atomic
def password_reset_ask(
    *, email: str, protocol: str, domain: str, language: str = ""
) -> PasswordResetAsked:
    """Record that a password reset was asked for ``email``, and owe the job
    that mails its link to each login with that address
    (:func:`league.mails.password_reset_send`), sent once this commits: after
    the response, without a broker. The same work whatever the address, so
    the answer does not tell whether a login has it; ``protocol`` and
    ``domain`` are the site's as the request came, for the link; ``language``
    the page's, the mail's for a login that chose none."""
    asked = PasswordResetAsked.objects.create(
        email=email[:254],
        protocol=protocol,
        domain=domain[:255],
        language=language[:10],
        asked_at=timezone.now(),
    )
    job_owe(kind=JobOwed.Kind.PASSWORD_RESET, target_id=asked.pk)
    return asked


@transaction.atomic
def login_password_changed(*, user: AbstractBaseUser) -> int:
    """What follows ``user``'s new password, however it was set (a reset link,
    the password change page, an invitation's link, the admin, ``manage.py
    changepassword``: :class:`league.passwords.PasswordChangeEffects` calls
    this): every API token of the login is revoked, as its other sessions
    end, and its failed logins are forgotten, so that a lockout of the
    username ends (the new password is not the one guessed at). Returns how
    many tokens were revoked."""
    revoked = api_tokens_revoke_all(user=user)
    axes_reset(username=user.get_username())
    return revoked


# -- API tokens -------------------------------------------------------------------------


def token_digest(key: str) -> str:
    """What is stored of ``key``, and looked up when it comes back."""
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def api_token_create(*, user: Login, name: str) -> NewApiToken:
    """A new API token of ``user`` named ``name`` (what it is for), with its
    key: the caller shows the key once, nothing can show it again.

    A blank name or one longer than 100 characters is a :class:`ServiceError`,
    a name the user gave another of their tokens a :class:`Conflict`.
    """
    name = name.strip()
    if not name:
        raise ServiceError(_("name the token: what is it for?"), field="name")
    if len(name) > TOKEN_NAME_MAX_LENGTH:
        raise ServiceError(
            ngettext(
                "a token's name has at most %(count)d character",
                "a token's name has at most %(count)d characters",
                TOKEN_NAME_MAX_LENGTH,
            )
            % {"count": TOKEN_NAME_MAX_LENGTH},
            field="name",
        )
    if ApiToken.objects.filter(user=user, name=name).exists():
        raise Conflict(
            _("you have a token named %(name)s already") % {"name": repr(name)}, field="name"
        )
    key = secrets.token_urlsafe(32)
    try:
        with transaction.atomic():
            token = ApiToken.objects.create(
                user=user, name=name, digest=token_digest(key), last_four=key[-4:]
            )
    except IntegrityError:  # the same name at the same moment
        raise Conflict(
            _("you have a token named %(name)s already") % {"name": repr(name)}, field="name"
        ) from None
    return NewApiToken(token=token, key=key)


@transaction.atomic
def api_token_revoke(*, token: ApiToken, by: SiteUser) -> None:
    """Revoke ``token``: its key stops working at once. Only its owner may:
    for anyone else it is :class:`NotFound`, as if it did not exist.

    The row is deleted rather than marked: a revoked key is of no use to
    anyone, and nothing kept can be mistaken for a live one.
    """
    if token.user_id != by.pk:
        raise NotFound(_("no such token"))
    ApiToken.objects.filter(pk=token.pk).delete()


@transaction.atomic
def api_tokens_revoke_all(*, user: AbstractBaseUser) -> int:
    """Revoke every API token of ``user`` (their keys stop working at once);
    returns how many there were."""
    revoked, _kinds = ApiToken.objects.filter(user_id=user.pk).delete()
    return int(revoked)


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
