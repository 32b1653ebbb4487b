"""Accounts: invitations with a one-time link, password reset, and API tokens.

- ``clubs/<id>/people/`` (organisers): the club's logins and their roles, the
  invitations waiting for an answer, and a new invitation. Its link is shown
  once, in the answer to the POST itself (never stored, never redirected to),
  and mailed too to the address given; a mail that cannot be sent loses
  nothing, the page says so. The answer is the same whether the username was
  a login already or a new one is made (:mod:`league.services.accounts`).
- ``accounts/invitation/<secret>/``: an invitation's link. A login made for it
  chooses its first password there, which accepts it; any other login logs in
  and accepts or declines. ``accounts/`` lists one's invitations too.
- ``accounts/`` (signed in): one's clubs, roles, invitations and tokens;
  ``accounts/tokens/`` makes a token (its key shown once, in the answer to the
  POST) and revokes one.
- Django's own views for a forgotten password (the link mailed by a job after
  the response, at most so many an hour: :mod:`league.mails`,
  :mod:`league.ratelimits`) and for changing one's password; a new password
  ends the login's API tokens (:mod:`league.passwords`), and the pages say so.

Every write goes through :mod:`league.services.accounts` and
:mod:`league.services.clubs`; a refusal is shown by its field and stores
nothing. The pages that can show a secret are never cached.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import BadRequest
from django.core.mail import send_mail
from django.db import transaction
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils import timezone, translation
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from league import access, mails
from league.errors import Conflict, NotFound, ServiceError
from league.models import ApiToken, Club, Invitation, Membership
from league.ratelimits import invitation_over_limit, password_reset_over_limit
from league.selectors import accounts as accounts_selectors
from league.services import accounts as account_services
from league.services.clubs import membership_remove, membership_set
from league.users import login_of
from league.web import languages
from league.web.access import club_page_refusal
from league.web.accounts_forms import ApiTokenForm, InviteForm, PasswordResetForm, RoleForm
from league.web.role_words import role_words

logger = logging.getLogger(__name__)

LAST_ORGANISER = gettext_lazy(
    "%(name)s is the club's only organiser: give someone else the organiser role first."
)
TOO_MANY_INVITATIONS = gettext_lazy(
    "You have made many invitations in the last hour: make the next one a little later."
)


# -- the club's people --------------------------------------------------------------


@dataclass(frozen=True)
class InvitationShown:
    """What the people page says once after an invitation."""

    username: str
    """As the organiser typed it."""
    role: str
    link: str
    email: str
    emailed: bool
    """Whether the mail went out (meaningless without an email)."""


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def club_people(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's logins with their roles and its invitations: change or
    remove a role, invite a login, withdraw an invitation (organisers only)."""
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
    if action == "withdraw":
        return page.withdraw()
    return page.render(status=400)


class _PeoplePage:
    """The people page of one club, read once (a fixed number of queries)."""

    template = "league/accounts/people.html"

    def __init__(self, request: HttpRequest, club: Club) -> None:
        self.request = request
        self.club = club
        self.memberships = accounts_selectors.club_memberships(club_id=club.pk)
        self.invitations = accounts_selectors.club_invitations(club_id=club.pk)
        self.players = accounts_selectors.club_players(club_id=club.pk)

    def invite_form(self, data: Mapping[str, object] | None = None) -> InviteForm:
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
            "invitations": self.invitations,
            "now": timezone.now(),
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
        if invitation_over_limit(self.request):
            form.add_error(None, TOO_MANY_INVITATIONS)
            return self.render(invite_form=form, status=429)
        try:
            made = account_services.user_invite(
                club=self.club,
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                role=form.cleaned_data["role"],
                by=login_of(self.request.user),
                player=form.chosen_player(),
            )
        except ServiceError as error:
            form.add_service_error(error)
            return self.render(invite_form=form, status=409 if isinstance(error, Conflict) else 200)
        invitation = made.invitation
        link = self.request.build_absolute_uri(
            reverse("invitation", kwargs={"secret": made.secret})
        )
        # The address typed, whether or not the login was new: the same mail either way.
        email = made.email
        emailed = bool(email) and _email_invitation(
            club=self.club,
            username=invitation.username,
            role=invitation.role,
            email=email,
            link=link,
        )
        # Read again: the invitation is on the page.
        fresh = _PeoplePage(self.request, self.club)
        shown = InvitationShown(
            username=invitation.username,
            role=role_words(invitation.role),
            link=link,
            email=email,
            emailed=emailed,
        )
        return fresh.render(invitation=shown, status=201)

    def withdraw(self) -> HttpResponse:
        chosen = self.request.POST.get("invitation", "")
        invitation = next((i for i in self.invitations if str(i.pk) == chosen), None)
        if invitation is None:
            raise Http404("no such invitation in the club")
        with suppress(NotFound):  # withdrawn or answered meanwhile: it is gone either way
            account_services.invitation_withdraw(invitation=invitation, by=self.request.user)
        messages.success(
            self.request,
            _("The invitation of %(login)s is withdrawn: its link no longer works.")
            % {"login": invitation.username},
        )
        return redirect("club-people", club_id=self.club.pk)

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
                done = _("%(name)s no longer has a role in %(club)s; their login stays.") % {
                    "name": name,
                    "club": self.club.name,
                }
            else:
                membership_set(club=self.club, user=membership.user, role=role)
                done = (
                    _("%(name)s is now an organiser.")
                    if role == Membership.Role.ORGANISER
                    else _("%(name)s is now a scorekeeper.")
                ) % {"name": name}
        except Conflict:  # the only refusal of both: the club's last organiser
            form.add_error("role", LAST_ORGANISER % {"name": name})
            return self.render(row_form=form, status=409)
        messages.success(self.request, done)
        if membership.user_id == self.request.user.pk and role != Membership.Role.ORGANISER:
            return redirect("account")  # no longer an organiser: this page is closed to them
        return redirect("club-people", club_id=self.club.pk)


def _link_days() -> int:
    """How many days a one-time link works (Django's ``PASSWORD_RESET_TIMEOUT``)."""
    return max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)


def _email_invitation(*, club: Club, username: str, role: str, email: str, link: str) -> bool:
    """Mail the invitation; ``False`` if the mail server refused or could not
    be reached (the invitation stands: the page shows the link anyway). The
    same mail whether the login is new or not, for the address typed; ``role``
    the role's value, named in the mail's language."""
    shown = {
        "club": club,
        "username": username,
        "role": Membership.Role(role).label,
        "link": link,
        "link_days": _link_days(),
    }
    # the login's own language if it chose one, else the club's, else this page's
    own = mails.own_language(username=username)
    with translation.override(mails.mail_language(own=own, club=club.language)):
        subject = " ".join(render_to_string("league/accounts/invite_subject.txt", shown).split())
        body = render_to_string("league/accounts/invite_email.txt", shown)
    try:
        send_mail(subject, body, None, [email], fail_silently=False)
    except (smtplib.SMTPException, OSError):
        logger.exception("could not mail the invitation of %s", username)
        return False
    return True


# -- an invitation's link and answer -----------------------------------------------------


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def invitation(request: HttpRequest, secret: str) -> HttpResponse:
    """An invitation's link: the login made for it chooses its first password
    here, which accepts it; any other login, logged in, accepts or declines it
    (anyone else is sent to log in first)."""
    found = accounts_selectors.invitation_by_secret(secret=secret)
    if found is None:
        return render(request, "league/accounts/invitation.html", {"found": None}, status=404)
    if found.new_login and not found.user.has_usable_password():
        return _first_password(request, found)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    shown = {"found": found, "theirs": request.user.pk == found.user_id}
    return render(
        request, "league/accounts/invitation.html", shown, status=200 if shown["theirs"] else 403
    )


def _first_password(request: HttpRequest, found: Invitation) -> HttpResponse:
    """The login made for ``found`` chooses its password, and accepts."""
    form = SetPasswordForm(found.user, request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        try:
            accepted = account_services.invitation_accept(
                invitation=found, by=found.user, password=form.cleaned_data["new_password1"]
            )
        except ServiceError as error:  # answered or expired since the page was read
            form.add_error(None, error.message[:1].upper() + error.message[1:] + ".")
        else:
            messages.success(request, _accepted_message(accepted))
            return redirect("password_reset_complete")
    shown = {"form": form, "validlink": True, "invitation": found}
    return render(request, "registration/password_reset_confirm.html", shown)


@login_required
@require_POST
def invitation_answer(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """The invited login accepts (``action=accept``) or declines one of its
    invitations (anyone else's is a 404)."""
    found = get_object_or_404(
        Invitation.objects.select_related("club"), pk=invitation_id, user=request.user
    )
    action = request.POST.get("action")
    try:
        if action == "accept":
            accepted = account_services.invitation_accept(
                invitation=found, by=login_of(request.user)
            )
            messages.success(request, _accepted_message(accepted))
        elif action == "decline":
            account_services.invitation_decline(invitation=found, by=login_of(request.user))
            messages.success(
                request, _("You declined the invitation of %(club)s.") % {"club": found.club.name}
            )
        else:
            raise BadRequest("accept or decline")
    except NotFound:
        raise Http404("no such invitation") from None
    except ServiceError as error:
        messages.error(request, error.message[:1].upper() + error.message[1:] + ".")
    return redirect("account")


def _accepted_message(accepted: account_services.InvitationAccepted) -> str:
    membership = accepted.membership
    done = (
        _("You are now an organiser of %(club)s.")
        if membership.role == Membership.Role.ORGANISER
        else _("You are now a scorekeeper of %(club)s.")
    ) % {"club": membership.club.name}
    if accepted.player is not None:
        done += " " + _("You play as %(name)s.") % {"name": accepted.player.name}
    return done


# -- one's own account ------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD"])
def account(request: HttpRequest) -> HttpResponse:
    """The signed-in user's clubs and roles (and a way to start one, for whoever
    may), the invitations waiting for their answer, the players they are, their
    tokens."""
    shown = {
        "memberships": accounts_selectors.user_memberships(user=login_of(request.user)),
        "invitations": accounts_selectors.user_invitations(user=login_of(request.user)),
        "players": accounts_selectors.user_players(user=login_of(request.user)),
        "tokens": accounts_selectors.user_api_tokens(user=login_of(request.user)),
        "may_start_club": access.may_create_club(request.user),
        "language_form": languages.account_language_form(request),
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
                    user=login_of(request.user), name=form.cleaned_data["name"]
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
        "tokens": accounts_selectors.user_api_tokens(user=login_of(request.user)),
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
    messages.success(
        request,
        _("The token “%(name)s” (…%(last_four)s) is revoked.")
        % {"name": token.name, "last_four": token.last_four},
    )
    return redirect("api-tokens")


# -- passwords ----------------------------------------------------------------------------


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, held to ``PASSWORD_RESET_RATE`` an address and
    ``PASSWORD_RESET_EMAIL_RATE`` an email address (429 past either: the
    same for an address no login has); the mail goes out after the response
    (:class:`~league.web.accounts_forms.PasswordResetForm`)."""

    form_class = PasswordResetForm

    def form_valid(self, form: Form) -> HttpResponse:
        if password_reset_over_limit(self.request, email=form.cleaned_data["email"]):
            days = _link_days()
            form.add_error(
                None,
                ngettext(
                    "Many links were asked for lately, from here or for this address. A link "
                    "sent before works for %(days)d day: look for it in your email (and its spam "
                    "folder), or ask again in an hour.",
                    "Many links were asked for lately, from here or for this address. A link "
                    "sent before works for %(days)d days: look for it in your email (and its "
                    "spam folder), or ask again in an hour.",
                    days,
                )
                % {"days": days},
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


# A new password and what it ends (the login's tokens: league.passwords) are one change.
atomic = method_decorator(transaction.atomic, name="dispatch")


@atomic
class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's, in one transaction."""


@atomic
class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's, in one transaction."""


urlpatterns: list[URLPattern] = [
    path("clubs/<int:club_id>/people/", club_people, name="club-people"),
    path("accounts/", account, name="account"),
    path("accounts/invitation/<str:secret>/", invitation, name="invitation"),
    path(
        "accounts/invitations/<int:invitation_id>/",
        invitation_answer,
        name="invitation-answer",
    ),
    path("accounts/tokens/", api_tokens, name="api-tokens"),
    path("accounts/tokens/<int:token_id>/revoke/", api_token_revoke, name="api-token-revoke"),
    path("accounts/password-reset/", PasswordResetView.as_view(), name="password_reset"),
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
        PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password-change/",
        PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password-change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
]
