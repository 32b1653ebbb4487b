"""The forms of the organiser's tonight page.

They check only the shape of what was posted (whole numbers, choices among
those offered, a name that is not blank); whether the change fits the night
(a player of the club, a round still to draw, tables without hands) is for
the services of :mod:`league.services.attendance` and
:mod:`league.services.seating` to say.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from league.models import Player
from league.seating import Method
from league.services.seating import MAX_SEED
from league.web.tonight_shaping import METHOD_MEANINGS

ACTIONS = ("check_in", "leave", "guest", "draw", "redraw", "publish", "swap", "move")
"""What a POST to the tonight page asks for, in its ``action`` field."""


class PlayerForm(forms.Form):
    """One tap on the check-in list: the player checked in, or leaving."""

    player = forms.ModelChoiceField(
        queryset=Player.objects.all(),
        error_messages={"invalid_choice": gettext_lazy("That player does not exist.")},
    )


class GuestForm(forms.Form):
    """A guest, added by name as a new player of the club and checked in."""

    name = forms.CharField(
        label=gettext_lazy("Guest's name"),
        max_length=100,
        error_messages={"required": gettext_lazy("Enter the guest's name.")},
    )


class RoundForm(forms.Form):
    """A form about one round of the event, named by its number."""

    round = forms.IntegerField(min_value=1, max_value=32767, widget=forms.HiddenInput)


class DrawForm(RoundForm):
    """Draw a round: a preview (nothing stored), "draw again" (a new seed),
    or publish the previewed draw (the seed and method it was shown with,
    carried in hidden fields, so the stored tables are the ones shown).
    ``replace`` draws again a round that has tables but no hands."""

    method = forms.ChoiceField(
        label=pgettext_lazy("seating draw method", "Method"),
        choices=[(str(method), str(method).capitalize()) for method in METHOD_MEANINGS],
        initial=str(Method.BALANCED),
        widget=forms.RadioSelect,
    )
    seed = forms.IntegerField(
        label=gettext_lazy("Seed (optional)"),
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        help_text=gettext_lazy(
            "The same seed and players give the same draw; leave blank for a new one."
        ),
        error_messages={
            "invalid": gettext_lazy("The seed is a whole number."),
            "min_value": gettext_lazy("The seed is 0 or more."),
        },
    )
    replace = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seed"].error_messages["max_value"] = _("The seed is at most %(most)s.") % {
            "most": MAX_SEED
        }


class SwapForm(RoundForm):
    """Swap two players of a drawn round (seated or sitting out)."""

    first = forms.IntegerField(
        label=gettext_lazy("Swap"), error_messages={"required": gettext_lazy("Choose a player.")}
    )
    second = forms.IntegerField(
        label=pgettext_lazy("swap a player with", "with"),
        error_messages={"required": gettext_lazy("Choose a player.")},
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("first"), data.get("second")
        if first is not None and first == second:
            self.add_error("second", _("Choose two different players."))
        return data


class MoveForm(RoundForm):
    """Move one player of a drawn round to another of its tables."""

    player = forms.IntegerField(
        label=pgettext_lazy("move a player", "Move"),
        error_messages={"required": gettext_lazy("Choose a player.")},
    )
    table = forms.IntegerField(
        label=gettext_lazy("to table"),
        min_value=1,
        error_messages={"required": gettext_lazy("Choose a table.")},
    )
