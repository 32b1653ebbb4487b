"""The accounts pages' forms: an invitation, a role, an API token's name, and
the password reset form (which records the reset asked, for a job to mail).

The forms only shape what was typed (required inputs, choices among those
offered); whether a username is free or a player may be linked is the
services' to say (:mod:`league.services.accounts`), and a service's refusal
is shown by the field it names (:meth:`AccountsForm.add_service_error`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.sites.shortcuts import get_current_site
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from league.errors import ServiceError
from league.models import Membership, Player
from league.services import accounts as account_services
from league.web.form_summary import SummaryItem

ROLE_CHOICES = [
    (Membership.Role.SCOREKEEPER.value, gettext_lazy("Scorekeeper: enters and corrects results")),
    (
        Membership.Role.ORGANISER.value,
        gettext_lazy("Organiser: runs the club, its people and its game nights"),
    ),
]
"""The roles an organiser gives, explained (scorekeeper first: the usual one)."""


class AccountsForm(forms.Form):
    """A form whose service errors go by their field, with a summary for the
    top of the page."""

    def add_service_error(self, error: ServiceError, *, default_field: str | None = None) -> None:
        """Show ``error`` by the field it names, or by ``default_field`` (the
        form's only choice, say), or at the top of the form."""
        field = error.field if error.field in self.fields else default_field
        self.add_error(field, error.message[:1].upper() + error.message[1:] + ".")

    def summary(self) -> list[SummaryItem]:
        """Every problem in the form's order, each linking to its input."""
        items = [SummaryItem(target=None, text=str(message)) for message in self.non_field_errors()]
        for name in self.fields:
            if name in self.errors:
                target = self[name].auto_id
                items.extend(SummaryItem(target=target, text=str(m)) for m in self.errors[name])
        return items


class InviteForm(AccountsForm):
    """A new login for the club: username, email, role, and optionally one of
    the club's players without a login."""

    username = forms.CharField(
        max_length=150,
        label=gettext_lazy("Username"),
        help_text=gettext_lazy(
            "The login they have, or a new one for them: letters, digits and @ . + - _ only."
        ),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )
    email = forms.CharField(
        label=gettext_lazy("Email (optional)"),
        required=False,
        max_length=254,
        help_text=gettext_lazy("If given, the link is emailed there too."),
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )
    role = forms.ChoiceField(
        choices=ROLE_CHOICES,
        label=gettext_lazy("Role"),
        initial=Membership.Role.SCOREKEEPER,
        widget=forms.RadioSelect,
    )
    player = forms.TypedChoiceField(
        label=gettext_lazy("Their player (optional)"),
        coerce=int,
        required=False,
        empty_value=None,
        help_text=gettext_lazy("Link the login to the club's player of that name, if they play."),
    )

    def __init__(
        self, data: Mapping[str, object] | None = None, *, free_players: Sequence[Player] = ()
    ) -> None:
        super().__init__(data, prefix="invite")
        self.free_players = {player.pk: player for player in free_players}
        player_field = self.fields["player"]
        assert isinstance(player_field, forms.ChoiceField)
        player_field.choices = [
            ("", pgettext("no player chosen", "None")),
            *((player.pk, player.name) for player in free_players),
        ]

    def chosen_player(self) -> Player | None:
        """The player chosen (a valid form's), or ``None``."""
        chosen = self.cleaned_data.get("player")
        return None if chosen is None else self.free_players[chosen]


class RoleForm(AccountsForm):
    """One login's role in the club; a form a row, told apart by its prefix."""

    role = forms.ChoiceField(
        choices=[
            (Membership.Role.ORGANISER.value, pgettext_lazy("club role", "Organiser")),
            (Membership.Role.SCOREKEEPER.value, pgettext_lazy("club role", "Scorekeeper")),
        ]
    )

    def __init__(self, data: Mapping[str, object] | None = None, *, membership: Membership) -> None:
        super().__init__(data, prefix=f"m{membership.pk}", initial={"role": membership.role})
        self.membership = membership
        self.fields["role"].label = _("Role of %(login)s") % {
            "login": membership.user.get_username()
        }


class ApiTokenForm(AccountsForm):
    """A new API token's name."""

    name = forms.CharField(
        max_length=100,
        label=pgettext_lazy("a token's name", "Name"),
        help_text=gettext_lazy(
            "What the token is for, e.g. “results laptop”; to tell your tokens apart."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's, but it mails nothing itself: :meth:`save` records the reset
    asked for the address typed, whatever it is, and a job mails the links
    after the response (:mod:`league.mails`), so that the answer takes the
    same time whether or not a login has that address. The job mails a user
    who has not chosen a password yet too: an invited user who lost their link
    gets a new one at the address they were invited with."""

    def save(  # type: ignore[override]
        self,
        domain_override: str | None = None,
        use_https: bool = False,
        request: HttpRequest | None = None,
        **unused: object,
    ) -> None:
        """Record the reset asked (the view's other arguments, templates and
        token generator, are the job's own: :mod:`league.mails`)."""
        domain = domain_override or get_current_site(request).domain
        account_services.password_reset_ask(
            email=self.cleaned_data["email"],
            protocol="https" if use_https else "http",
            domain=domain,
            language=translation.get_language() or "",
        )
