"""The forms of the organisers' personal links pages
(:mod:`league.web.personal_links`): which players, and an address to mail one
player's link to. They check the shape of what was posted; which players are
the club's is the page's to say (a player of another club is not offered)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.mails import PERSONAL_LINK_MAILS_AT_ONCE
from league.services.replies import MAX_LINKS_AT_ONCE

LINK_ACTIONS = ("cards", "mail", "revoke")
"""What the club's personal links page posts, in its ``action`` field."""


class PlayersForm(forms.Form):
    """Players of the club chosen on the list, and what to do with their links."""

    players = forms.TypedMultipleChoiceField(
        coerce=int,
        error_messages={
            "required": gettext_lazy("Choose at least one player."),
            "invalid_choice": gettext_lazy("A player chosen is not one of the club's."),
        },
    )
    action = forms.ChoiceField(
        choices=[(action, action) for action in LINK_ACTIONS],
        error_messages={"invalid_choice": gettext_lazy("The page sent an unknown request.")},
    )

    def __init__(self, *args: Any, player_ids: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = self.fields["players"]
        assert isinstance(players, forms.TypedMultipleChoiceField)
        players.choices = [(str(pk), str(pk)) for pk in player_ids]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen = data.get("players") or []
        most = PERSONAL_LINK_MAILS_AT_ONCE if data.get("action") == "mail" else MAX_LINKS_AT_ONCE
        if len(chosen) > most:
            message = (
                _("At most %(most)d links are mailed at once: choose fewer players.")
                if data.get("action") == "mail"
                else _("At most %(most)d links are made or revoked at once: choose fewer players.")
            )
            self.add_error("players", message % {"most": most})
        return data


class MailForm(forms.Form):
    """The address to mail one player's new link to."""

    email = forms.EmailField(
        label=gettext_lazy("Email address"),
        max_length=254,
        help_text=gettext_lazy("The player's own address: the mail holds their link."),
        error_messages={
            "required": gettext_lazy("Enter the address to mail the link to."),
            "invalid": gettext_lazy("Enter an email address, like ada@example.org."),
        },
    )
