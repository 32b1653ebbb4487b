"""Accounts: invitations with a one-time link, password reset, and API tokens.

- ``clubs/<id>/people/`` (organisers): the club's logins and their roles, and
  the invitation of a new one. The invitation's set-password link is shown
  once, in the answer to the POST itself (never stored, never redirected to),
  and mailed too when the new login has an email address; a mail that cannot
  be sent loses nothing, the page says so.
- ``accounts/`` (signed in): one's clubs, roles and tokens; ``accounts/tokens/``
  makes a token (its key shown once, in the answer to the POST) and revokes one.
- Django's own views for a forgotten password (the invitation link is the
  same one-time link) and for changing one's password.

Every write goes through :mod:`league.services.accounts` and
:mod:`league.services.clubs`; a refusal is shown by its field and stores
nothing. The pages that can show a secret are never cached.
"""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.mail import send_mail
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from league.errors import Conflict, ServiceError
from league.models import ApiToken, Club, Membership
from league.services import accounts as account_services
from league.services.clubs import membership_remove, membership_set
from league.web import accounts_reads
from league.web.access import club_page_refusal
from league.web.accounts_forms import ApiTokenForm, InviteForm, PasswordResetForm, RoleForm

logger = logging.getLogger(__name__)

LAST_ORGANISER = "{name} is the club's only organiser: give someone else the organiser role first."


# -- the club's people --------------------------------------------------------------


@dataclass(frozen=True)
class InvitationShown:
    """What the people page says once after an invitation."""

    username: str
    role: str
    link: str
    email: str
    emailed: bool
    """Whether the mail went out (meaningless without an email)."""


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def club_people(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's logins with their roles: change or remove a role, invite a
    new login (organisers only)."""
    club = get_object_or_404(Club, pk=club_id)
    if refusal := club_page_refusal(request, club):
        return refusal
    page = _PeoplePage(request, club)
    if request.method != "POST":
        return page.render()
    action = request.POST.get("action")
    if action == "invite":
        return page.invite()
    if action in ("role", "remove"):
        return page.change(action)
    return page.render(status=400)


class _PeoplePage:
    """The people page of one club, read once (a fixed number of queries)."""

    template = "league/accounts/people.html"

    def __init__(self, request: HttpRequest, club: Club) -> None:
        self.request = request
        self.club = club
        self.memberships = accounts_reads.club_memberships(club_id=club.pk)
        self.players = accounts_reads.club_players(club_id=club.pk)

    def invite_form(self, data: Any = None) -> InviteForm:
        free = [player for player in self.players if player.user_id is None]
        return InviteForm(data, free_players=free)

    def render(
        self,
        *,
        invite_form: InviteForm | None = None,
        row_form: RoleForm | None = None,
        invitation: InvitationShown | None = None,
        status: int = 200,
    ) -> HttpResponse:
        player_of = {player.user_id: player for player in self.players if player.user_id}
        rows = [
            {
                "membership": membership,
                "player": player_of.get(membership.user_id),
                "form": row_form
                if row_form is not None and row_form.membership.pk == membership.pk
                else RoleForm(membership=membership),
            }
            for membership in self.memberships
        ]
        invite_form = invite_form or self.invite_form()
        summary = [*(row_form.summary() if row_form else []), *invite_form.summary()]
        shown = {
            "club": self.club,
            "rows": rows,
            "invite_form": invite_form,
            "invitation": invitation,
            "summary": summary,
            "link_days": _link_days(),
        }
        return render(self.request, self.template, shown, status=status)

    def invite(self) -> HttpResponse:
        form = self.invite_form(self.request.POST)
        if not form.is_valid():
            return self.render(invite_form=form)
        try:
            invitation = account_services.user_invite(
                club=self.club,
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                role=form.cleaned_data["role"],
                by=self.request.user,
                player=form.chosen_player(),
            )
        except ServiceError as error:
            form.add_service_error(error)
            return self.render(invite_form=form, status=409 if isinstance(error, Conflict) else 200)
        link = self.request.build_absolute_uri(
            reverse(
                "password_reset_confirm",
                kwargs={"uidb64": invitation.uidb64, "token": invitation.token},
            )
        )
        user = invitation.user
        emailed = bool(user.email) and _email_invitation(
            club=self.club, username=user.get_username(), email=user.email, link=link
        )
        # Read again: the new login and its player are on the page.
        fresh = _PeoplePage(self.request, self.club)
        shown = InvitationShown(
            username=user.get_username(),
            role=invitation.membership.get_role_display(),
            link=link,
            email=user.email,
            emailed=emailed,
        )
        return fresh.render(invitation=shown, status=201)

    def change(self, action: str) -> HttpResponse:
        chosen = self.request.POST.get("membership", "")
        membership = next((m for m in self.memberships if str(m.pk) == chosen), None)
        if membership is None:
            raise Http404("no such login in the club")
        form = RoleForm(self.request.POST, membership=membership)
        name = membership.user.get_username()
        if action == "role" and not form.is_valid():
            return self.render(row_form=form)
        role = form.cleaned_data["role"] if action == "role" else None
        try:
            if role is None:
                membership_remove(membership=membership)
                done = f"{name} no longer has a role in {self.club.name}; their login stays."
            else:
                membership_set(club=self.club, user=membership.user, role=role)
                label = Membership.Role(role).label.lower()
                done = f"{name} is now {'an' if label[0] in 'aeiou' else 'a'} {label}."
        except Conflict:  # the only refusal of both: the club's last organiser
            form.add_error("role", LAST_ORGANISER.format(name=name))
            return self.render(row_form=form, status=409)
        messages.success(self.request, done)
        if membership.user_id == self.request.user.pk and role != Membership.Role.ORGANISER:
            return redirect("account")  # no longer an organiser: this page is closed to them
        return redirect("club-people", club_id=self.club.pk)


def _link_days() -> int:
    """How many days a one-time link works (Django's ``PASSWORD_RESET_TIMEOUT``)."""
    return max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)


def _email_invitation(*, club: Club, username: str, email: str, link: str) -> bool:
    """Mail the invitation; ``False`` if the mail server refused or could not
    be reached (the invitation stands: the page shows the link anyway)."""
    shown = {"club": club, "username": username, "link": link, "link_days": _link_days()}
    subject = " ".join(render_to_string("league/accounts/invite_subject.txt", shown).split())
    body = render_to_string("league/accounts/invite_email.txt", shown)
    try:
        send_mail(subject, body, None, [email], fail_silently=False)
    except (smtplib.SMTPException, OSError):
        logger.exception("could not mail the invitation of %s", username)
        return False
    return True


# -- one's own account ------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD"])
def account(request: HttpRequest) -> HttpResponse:
    """The signed-in user's clubs and roles, the players they are, their tokens."""
    shown = {
        "memberships": accounts_reads.user_memberships(user=request.user),
        "players": accounts_reads.user_players(user=request.user),
        "tokens": accounts_reads.user_api_tokens(user=request.user),
    }
    return render(request, "league/accounts/account.html", shown)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def api_tokens(request: HttpRequest) -> HttpResponse:
    """The user's API tokens: list, make one (its key shown once)."""
    new: account_services.NewApiToken | None = None
    status = 200
    if request.method == "POST":
        form = ApiTokenForm(request.POST)
        if form.is_valid():
            try:
                new = account_services.api_token_create(
                    user=request.user, name=form.cleaned_data["name"]
                )
            except ServiceError as error:
                form.add_service_error(error)
                status = 409 if isinstance(error, Conflict) else 200
            else:
                form = ApiTokenForm()
                status = 201
    else:
        form = ApiTokenForm()
    shown = {
        "tokens": accounts_reads.user_api_tokens(user=request.user),
        "form": form,
        "summary": form.summary(),
        "new": new,
        "now": timezone.now(),
        "max_age_days": settings.API_TOKEN_MAX_AGE.days,
    }
    return render(request, "league/accounts/tokens.html", shown, status=status)


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of one's own tokens (anyone else's is a 404)."""
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    account_services.api_token_revoke(token=token, by=request.user)
    messages.success(request, f"The token “{token.name}” (…{token.last_four}) is revoked.")
    return redirect("api-tokens")


urlpatterns: list[URLPattern] = [
    path("clubs/<int:club_id>/people/", club_people, name="club-people"),
    path("accounts/", account, name="account"),
    path("accounts/tokens/", api_tokens, name="api-tokens"),
    path("accounts/tokens/<int:token_id>/revoke/", api_token_revoke, name="api-token-revoke"),
    path(
        "accounts/password-reset/",
        auth_views.PasswordResetView.as_view(
            form_class=PasswordResetForm,
            email_template_name="registration/password_reset_email.txt",
            subject_template_name="registration/password_reset_subject.txt",
        ),
        name="password_reset",
    ),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/set-password/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path(
        "accounts/set-password/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password-change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password-change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
]
