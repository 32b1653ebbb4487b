"""The form of the "take a player off a table" page.

It checks only the shape of what was posted (a player that exists, or
nobody; leaving or staying; a seed); whether the change fits the night is
for :mod:`league.services.seat_changes` to say.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from league.models import Player
from league.services.seating import MAX_SEED


class TakeOffForm(forms.Form):
    """Who takes the seat (nobody when blank), whether the player leaves the
    night, and the seed of a round drawn again as the page showed it."""

    replacement = forms.ModelChoiceField(
        queryset=Player.objects.all(),
        required=False,
        error_messages={"invalid_choice": gettext_lazy("That player does not exist.")},
    )
    leaves = forms.TypedChoiceField(
        choices=[("1", "leaves"), ("0", "stays")],
        coerce=lambda value: value == "1",
        error_messages={"required": gettext_lazy("Say whether they leave or stay.")},
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        widget=forms.HiddenInput,
        error_messages={
            "invalid": gettext_lazy("The page sent a seed that is not a whole number.")
        },
    )
