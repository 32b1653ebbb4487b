"""The forms of a league's season pages: its season format, and its final.

As the other set-up forms (:mod:`league.web.organise_forms`), a form checks
the shape of what was typed (a number is a number); whether the format fits
the league (every table size, points that never rise) is the service's to say
(:func:`league.season.season_check`), and its refusal is shown by the table
size, or the field, it concerns.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.errors import ServiceError
from league.models import League
from league.ordinals import ordinal
from league.season import SEAT_SIZES, SeasonJson
from league.season_words import size_words
from league.web.organise_forms import SetupForm, number_input, sentence

TODAYS_ORDER, POINTS = "order", "points"

SUGGESTED: Final = {3: [3, 1, 0], 4: [4, 2, 1, 0], 5: [5, 3, 2, 1, 0], 6: [6, 4, 3, 2, 1, 0]}
"""Points for places offered to a league without a format yet."""


def decimal_input(place: int, size: int) -> forms.TextInput:
    """A number of points: decimals allowed (2.5), the phone's decimal keypad."""
    return forms.TextInput(
        attrs={
            "inputmode": "decimal",
            "autocomplete": "off",
            "class": "number points",
            "aria-label": _("Points for %(place)s place at a table of %(size)d")
            % {"place": ordinal(place), "size": size},
        }
    )


class SeasonForm(SetupForm):
    """A league's season format: today's order, or points for places with a
    row of points a table size (every size the league seats), the best nights
    that count and the games to qualify."""

    scoring = forms.ChoiceField(
        choices=[
            (TODAYS_ORDER, gettext_lazy("By wins, then average place (no points)")),
            (POINTS, gettext_lazy("By points for places")),
        ],
        label=gettext_lazy("How the season is ranked"),
        widget=forms.RadioSelect,
        error_messages={
            "required": gettext_lazy("Choose how the season is ranked."),
            "invalid_choice": gettext_lazy("Choose one of the two ways from the list."),
        },
    )
    best_nights = forms.IntegerField(
        required=False,
        min_value=1,
        label=gettext_lazy("Nights that count"),
        widget=number_input(low=1, placeholder=gettext_lazy("all")),
        help_text=gettext_lazy(
            "Only each player's best nights count, a night's points being the sum of "
            "its games. Leave empty to count every night."
        ),
        error_messages={
            "invalid": gettext_lazy("Enter the nights as a whole number, or leave it empty."),
            "min_value": gettext_lazy(
                "Count 1 night at least, or leave it empty to count every night."
            ),
        },
    )
    min_games = forms.IntegerField(
        required=False,
        min_value=0,
        label=gettext_lazy("Games to qualify"),
        widget=number_input(low=0),
        help_text=gettext_lazy(
            "Players with fewer complete games are listed under “not yet qualified”, "
            "after everyone qualified. 0: everyone qualifies."
        ),
        error_messages={
            "invalid": gettext_lazy("Enter the games as a whole number."),
            "min_value": gettext_lazy("Enter 0 games or more."),
        },
    )

    def __init__(self, data: Mapping[str, object] | None = None, *, league: League) -> None:
        self.league = league
        self.sizes = SEAT_SIZES[league.game]
        season = league.season
        initial: dict[str, object] = {
            "scoring": POINTS if season else TODAYS_ORDER,
            "best_nights": season.get("best_nights") if season else None,
            "min_games": season.get("min_games", 0) if season else 0,
        }
        given = season["points_by_place"] if season else {}
        for size in self.sizes:
            points = given.get(str(size)) or SUGGESTED[size]
            for place, value in enumerate(points, start=1):
                initial[self.points_name(size, place)] = value
        super().__init__(data, initial=initial)
        for size in self.sizes:
            for place in range(1, size + 1):
                self.fields[self.points_name(size, place)] = forms.DecimalField(
                    required=False,
                    label=ordinal(place),
                    max_digits=12,
                    decimal_places=4,
                    widget=decimal_input(place, size),
                    error_messages={
                        "invalid": gettext_lazy("Enter the points as a number, such as 2 or 2.5."),
                        "max_digits": gettext_lazy("Enter at most 12 digits."),
                        "max_decimal_places": gettext_lazy("Enter at most 4 decimals."),
                        "max_whole_digits": gettext_lazy("Enter a smaller number."),
                    },
                )

    @staticmethod
    def points_name(size: int, place: int) -> str:
        return f"points_{size}_{place}"

    def size_rows(self) -> list[dict[str, object]]:
        """Each table size's row of inputs, for the template: its words, its
        fields and its errors (a row's own, and each input's)."""
        rows = []
        for size in self.sizes:
            fields = [self[self.points_name(size, place)] for place in range(1, size + 1)]
            errors = [str(e) for f in fields for e in f.errors]
            rows.append(
                {
                    "size": size,
                    "words": size_words(size),
                    "fields": fields,
                    "errors": errors,
                    "first_id": fields[0].auto_id,
                }
            )
        return rows

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("scoring") != POINTS:
            return data
        for size in self.sizes:
            for place in range(1, size + 1):
                name = self.points_name(size, place)
                if name not in self.errors and data.get(name) is None:
                    self.add_error(
                        name,
                        _(
                            "Enter the points for %(place)s place at a table of %(size)d "
                            "(0 for none)."
                        )
                        % {"place": ordinal(place), "size": size},
                    )
        return data

    def season(self) -> SeasonJson | None:
        """The format as the service takes it (a valid form), ``None`` for today's order."""
        data = self.cleaned_data
        if data["scoring"] != POINTS:
            return None
        return {
            "points_by_place": {
                str(size): [
                    _number(data[self.points_name(size, place)]) for place in range(1, size + 1)
                ]
                for size in self.sizes
            },
            "best_nights": data.get("best_nights"),
            "min_games": data.get("min_games") or 0,
        }

    def add_service_error(self, error: ServiceError, *, field: str | None = None) -> None:
        """A refusal of ``season.points_by_place.4`` goes by the first input of
        the row of tables of 4; ``season.best_nights`` and ``season.min_games``
        by their fields."""
        target = (error.field or "").removeprefix("season.")
        if target.startswith("points_by_place."):
            size = target.rsplit(".", 1)[1]
            if size.isdigit() and int(size) in self.sizes:
                self.add_error(self.points_name(int(size), 1), sentence(error.message))
                return
        if target in ("best_nights", "min_games"):
            self.add_error(target, sentence(error.message))
            return
        super().add_service_error(error, field=field)


def _number(value: Decimal) -> int | float:
    """A typed number as JSON keeps it: a whole number as an int."""
    return int(value) if value == value.to_integral_value() else float(value)


class FinalForm(SetupForm):
    """The final: how many of the best qualified players play it, its name and
    date. ``seed`` carries a preview's draw to the final made from it."""

    SERVICE_FIELDS = {"seed": "players"}

    players = forms.IntegerField(
        label=gettext_lazy("Players in the final"),
        widget=number_input(low=3, high=64),
        help_text=gettext_lazy(
            "The best qualified players of the season, seated at final tables by "
            "their standing: the top table holds the best."
        ),
        error_messages={
            "required": gettext_lazy("Enter how many players play the final."),
            "invalid": gettext_lazy("Enter the players as a whole number."),
        },
    )
    name = forms.CharField(
        max_length=100,
        required=False,
        label=gettext_lazy("Name"),
        initial="Final",
        error_messages={"max_length": gettext_lazy("Keep the name to 100 characters.")},
    )
    date = forms.DateField(
        label=gettext_lazy("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": gettext_lazy("Enter the final's date."),
            "invalid": gettext_lazy("Enter the date as on a calendar, such as 2026-12-01."),
        },
    )
    seed = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=0)

    def __init__(
        self, data: Mapping[str, object] | None = None, *, players: int | None = None
    ) -> None:
        initial: dict[str, object] = {"date": timezone.localdate(), "name": _("Final")}
        if players is not None:
            initial["players"] = players
        super().__init__(data, initial=initial)

    @property
    def date_chosen(self) -> datetime.date:
        date: datetime.date = self.cleaned_data["date"]
        return date
