"""The form a scorekeeper fills in at the table: one hand's results, which
become a results-only hand record (docs/records.md) for :mod:`league.services`.

The form itself checks only the shape of what was entered: every entry is
there, numbers are whole numbers, choices are among those offered. Whether
the numbers fit the rules (bids of 1 to the cards dealt, tricks adding up, a
maker that fits the trump, who may drop) is the rules engine's to say, once,
for the API and the pages alike; :meth:`HandForm.add_engine_error` puts the
engine's refusal next to the field it concerns, in the page's words
(:mod:`league.web.refusal_words`, built from the error's fields and what was
entered, never from the engine's English message).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

import games
from league.models import Game
from league.web.form_summary import SummaryItem
from league.web.refusal_words import EnteredHand, HandFacts, engine_message, later_hand_message
from league.web.sheet import SUIT_CHOICES
from league.web.widget_html import DIRECT_RENDERER

NO_TRUMP = "none"
"""The trump choice that stands for ``"trump": null`` in a record."""

BLUKE_TRUMPS = [
    ("", gettext_lazy("Choose trump")),
    *SUIT_CHOICES,
    (NO_TRUMP, gettext_lazy("No trump (a Bluke was turned up)")),
]
BUCK_EUCHRE_TRUMPS = [
    ("", gettext_lazy("Choose trump")),
    *SUIT_CHOICES,
    (NO_TRUMP, gettext_lazy("No trump (everyone passed)")),
]


class Stage(StrEnum):
    """Which part of a hand a form holds."""

    BIDS = "bids"
    """Bluke, step one: trump and the bids, in bidding order."""
    TRICKS = "tricks"
    """Bluke, step two: the tricks, with step one's entries carried in hidden fields."""
    WHOLE = "whole"
    """Everything at once: a Buck Euchre hand, and every correction."""


@dataclass(frozen=True)
class SeatRow:
    """One row of the form: a seat's player and that seat's inputs."""

    name: str
    note: str
    fields: list[forms.BoundField]
    seat: int | None = None

    @property
    def single(self) -> bool:
        """A row with one input is labelled by the player's name alone."""
        return len(self.fields) == 1


class HandForm(forms.Form):
    """A hand's results for a table whose next (or corrected) hand is known.

    ``seats`` are the players' names by seat; the rows run from the dealer's
    left, the order in which bids are made and tricks are led. ``key`` names
    the hidden field that ties the form to the table's state: ``number`` (the
    hand a new entry is for, so that a hand entered twice counts once) or
    ``version`` (the sheet a correction was made on).
    """

    GROUPS = {"bids": "bid", "tricks": "tricks", "drops": "drop"}
    """Errors about several seats' entries at once (tricks that do not add
    up) belong to the group, shown at the head of its fieldset."""

    default_renderer = DIRECT_RENDERER  # a pad draws 25 of them: see league.web.widget_html

    def __init__(
        self,
        data: Mapping[str, object] | None = None,
        *,
        game: str,
        seats: Sequence[str],
        dealer: int,
        cards: int,
        options: Mapping[str, object],
        stage: Stage,
        key: str,
        initial: dict[str, object] | None = None,
        prefix: str | None = None,
    ) -> None:
        super().__init__(data, initial=initial, prefix=prefix)
        self.game = game
        self.names = list(seats)
        self.dealer = dealer
        self.cards = cards
        self.options = options
        self.stage = stage
        self.key = key
        players = len(self.names)
        self.order = [(dealer + 1 + k) % players for k in range(players)]
        self.group_errors: dict[str, list[str]] = {}
        self.fields[key] = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
        self._add_fields()

    @property
    def bluke(self) -> bool:
        return self.game == Game.BLUKE

    # -- fields --------------------------------------------------------------

    def _add_fields(self) -> None:
        carried = self.stage is Stage.TRICKS
        self.fields["trump"] = forms.ChoiceField(
            choices=BLUKE_TRUMPS if self.bluke else BUCK_EUCHRE_TRUMPS,
            label=_("Trump"),
            error_messages={
                "required": _("Choose the trump suit, or no trump."),
                "invalid_choice": _("Choose the trump suit from the list."),
            },
            widget=forms.HiddenInput if carried else forms.Select,
        )
        if not self.bluke:
            self.fields["maker"] = forms.TypedChoiceField(
                choices=[
                    ("", _("Nobody: a club was turned up, or no trump")),
                    *((str(seat), self.names[seat]) for seat in self.order),
                ],
                coerce=int,
                empty_value=None,
                required=False,
                label=_("Maker"),
                help_text=_("The player who ordered up or named trump."),
                error_messages={"invalid_choice": _("Choose the maker from the list.")},
            )
        top = self.cards
        for seat in self.order:
            name = self.names[seat]
            if self.bluke:
                self.fields[f"bid_{seat}"] = self._number(
                    pgettext("noun", "Bid"),
                    required=_("Enter %(name)s's bid.") % {"name": name},
                    invalid=_("Enter %(name)s's bid as a whole number.") % {"name": name},
                    low=1,
                    high=top,
                    hidden=carried,
                )
            else:
                self.fields[f"drop_{seat}"] = forms.BooleanField(
                    required=False,
                    label=pgettext("Buck Euchre: dropped out of the hand", "Dropped"),
                )
            if self.stage is not Stage.BIDS:
                self.fields[f"tricks_{seat}"] = self._number(
                    _("Tricks"),
                    required=_("Enter the tricks %(name)s took.") % {"name": name},
                    invalid=_("Enter the tricks %(name)s took as a whole number.") % {"name": name},
                    low=0,
                    high=top,
                    hidden=False,
                )

    @staticmethod
    def _number(
        label: str, *, required: str, invalid: str, low: int, high: int, hidden: bool
    ) -> forms.Field:
        """A whole number; the browser is told the rule's range (``min``,
        ``max``) as a hint, while the engine judges the range on the server."""
        widget: forms.Widget | type[forms.Widget]
        if hidden:
            widget = forms.HiddenInput
        else:
            widget = forms.NumberInput(
                attrs={
                    "inputmode": "numeric",
                    "min": low,
                    "max": high,
                    "autocomplete": "off",
                    "class": "number",
                }
            )
        return forms.IntegerField(
            label=label,
            widget=widget,
            error_messages={"required": required, "invalid": invalid},
        )

    # -- reading -------------------------------------------------------------

    def carried_fields(self) -> list[str]:
        """The fields step one filled in, which step two carries hidden."""
        return ["trump", *(f"bid_{seat}" for seat in self.order)] if self.bluke else []

    def carried_errors(self) -> bool:
        """Whether the entries carried from step one are refused (they were
        changed on the way: the page goes back to step one)."""
        return any(name in self.errors for name in self.carried_fields())

    def carried(self) -> dict[str, object]:
        """Step one's entries as initial values of step two (or of step one again)."""
        carried = {name: self.cleaned_data[name] for name in [self.key, *self.carried_fields()]}
        if carried.get("trump") is None:
            carried["trump"] = NO_TRUMP
        return carried

    def raw(self) -> dict[str, object]:
        """What was posted for this form's fields, as initial values for a
        form that should show it again without judging it."""
        return {name: self.data.get(name) for name in self.fields if name in self.data}

    def trump_label(self) -> str:
        """The chosen trump as the list offers it (step two shows step one's choice)."""
        value = self["trump"].value()
        choices = BLUKE_TRUMPS if self.bluke else BUCK_EUCHRE_TRUMPS  # the trump field's
        return next((str(label) for key, label in choices if key == value), "")

    def clean_trump(self) -> str | None:
        value: str = self.cleaned_data["trump"]
        return None if value == NO_TRUMP else value

    def clean(self) -> dict[str, Any]:
        """In a Bluke hand the engine's bid rules judge every bid first, so
        that each bid it refuses is shown at once (in step one, before the
        tricks are asked for); the engine reports only a hand's first fault."""
        super().clean()
        data = self.cleaned_data
        if self.bluke:
            self._check_bids([data.get(f"bid_{seat}") for seat in range(len(self.names))])
        return data

    def _check_bids(self, bids: list[int | None]) -> None:
        """Every bid the engine refuses, each with its message by the bid.

        The engine reports the first fault of a hand, so a refused bid (or
        one not entered as a number, already refused by its field) is set
        aside by a bid the rules always allow, and the rest checked again:
        the scorekeeper sees every bad bid at once.
        """
        rules = games.rules_for(self.game, len(self.names), self.options)
        assert isinstance(rules, games.Bluke)
        checked = [1 if bid is None else bid for bid in bids]
        # The engine checks a hand's bids before its tricks, so tricks that
        # surely add up (one seat took them all) leave only the bids to judge.
        placeholder = [self.cards] + [0] * (len(bids) - 1)
        for _bid in bids:
            try:
                rules.score_results(cards=self.cards, trump=None, bids=checked, tricks=placeholder)
            except games.RecordError as error:
                self.add_engine_error(error)
                if error.seat is None or checked[error.seat] == 1:
                    return
                checked[error.seat] = 1
            else:
                return

    def record(self) -> dict[str, object]:
        """The hand as a results-only record; the table supplies the game,
        the dealer and the cards dealt."""
        data = self.cleaned_data
        seats = range(len(self.names))
        tricks = [data[f"tricks_{seat}"] for seat in seats]
        if self.bluke:
            bids = [data[f"bid_{seat}"] for seat in seats]
            return {"trump": data["trump"], "bids": bids, "tricks": tricks}
        drops = [seat for seat in seats if data[f"drop_{seat}"]]
        return {"trump": data["trump"], "maker": data["maker"], "drops": drops, "tricks": tricks}

    # -- the engine's refusals -----------------------------------------------------

    def field_of(self, error: games.RecordError) -> str | None:
        """The field (or group of fields) an engine refusal concerns; ``None``
        when it concerns the hand as a whole."""
        seat = error.seat if error.seat is not None and error.seat < len(self.names) else None
        if error.code == "bad_bid":
            return f"bid_{seat}" if seat is not None else "bids"
        if error.code == "bad_tricks":
            return f"tricks_{seat}" if seat is not None else "tricks"
        if error.code == "bad_drop":
            return f"drop_{seat}" if seat is not None else "drops"
        if error.code == "bad_call":
            # A maker without trump, or trump other than a turned-up club
            # without a maker: the maker is what the record gets wrong.
            return "maker"
        return None

    def add_engine_error(
        self, error: games.RecordError, *, number: int | None = None
    ) -> str | None:
        """Show the engine's refusal by the field it concerns, in the page's
        words (:meth:`engine_message`); returns that field, or ``None`` for
        the form as a whole.

        ``number`` is the hand this form is for (counted from 0), when the
        engine replayed later hands after it (a correction): a refusal of
        another hand is shown for the form as a whole, saying which hand no
        longer fits. Without it, every refusal is taken to be this hand's.
        """
        if number is not None and error.hand is not None and error.hand != number:
            later = later_hand_message(error, game=self.game, names=self.names)
            self.add_error(None, later)
            return None
        message = self.engine_message(error)
        target = self.field_of(error)
        if target in self.GROUPS and self._group_fields(target):
            self.group_errors.setdefault(target, []).append(message)
        elif target is not None and target in self.fields:
            self.add_error(target, message)
        else:
            self.add_error(None, message)
            target = None
        return target

    def engine_message(self, error: games.RecordError) -> str:
        """The engine's refusal of this form's hand in the page's words: the
        players by name, with the cards dealt and the entries it concerns."""
        return engine_message(error, self.facts())

    def facts(self) -> HandFacts:
        """What the page knows of this form's hand, for its messages: the
        entries that passed the form's own checks (others are unknown)."""
        data: dict[str, Any] = getattr(self, "cleaned_data", {})
        seats = range(len(self.names))
        trump = data.get("trump")
        entered = EnteredHand(
            bids=[data.get(f"bid_{seat}") for seat in seats] if self.bluke else [],
            tricks=[data.get(f"tricks_{seat}") for seat in seats]
            if self.stage is not Stage.BIDS
            else [],
            trump=games.Suit(trump) if trump else None,
            # ``clean_trump`` gives None for "no trump"; a trump never
            # chosen is not in the cleaned data at all.
            no_trump="trump" in data and trump is None,
            maker=data.get("maker"),
            drops=frozenset(seat for seat in seats if data.get(f"drop_{seat}")),
        )
        return HandFacts(game=self.game, names=self.names, cards=self.cards, entered=entered)

    def _group_fields(self, group: str) -> list[str]:
        prefix = self.GROUPS[group]
        return [
            name
            for seat in self.order
            if (name := f"{prefix}_{seat}") in self.fields
            and not self.fields[name].widget.is_hidden
        ]

    # -- rendering -------------------------------------------------------------------

    def seat_cells(self) -> list[SeatRow]:
        """Each seat's inputs in seat order (a pad's columns), with its player."""
        return [
            SeatRow(
                name=self.names[seat],
                note="",
                fields=[
                    self[name]
                    for prefix in ("bid", "drop", "tricks")
                    if (name := f"{prefix}_{seat}") in self.fields
                ],
            )
            for seat in range(len(self.names))
        ]

    def all_messages(self) -> list[str]:
        """Every problem of the form, in field order, as text (a pad's row)."""
        return [item.text for item in self.summary()]

    def is_empty(self) -> bool:
        """Whether nothing was entered in the (bound) form's visible fields."""
        for name, field in self.fields.items():
            if field.widget.is_hidden:
                continue
            value = self.data.get(self.add_prefix(name), "")
            if str(value).strip() not in ("", "off"):
                return False
        return True

    def seat_rows(self) -> list[SeatRow]:
        """The visible inputs of each seat, a row a seat from the dealer's left."""
        self._describe_groups()
        rows = []
        for index, seat in enumerate(self.order):
            fields = [
                self[name]
                for prefix in ("bid", "drop", "tricks")
                if (name := f"{prefix}_{seat}") in self.fields
                and not self.fields[name].widget.is_hidden
            ]
            rows.append(
                SeatRow(
                    name=self.names[seat], note=self._note(index, seat), fields=fields, seat=seat
                )
            )
        return rows

    def _note(self, index: int, seat: int) -> str:
        notes = []
        if seat == self.dealer:
            notes.append(pgettext("a seat's note on the form", "dealer"))
        if index == 0 and self.bluke:  # in Buck Euchre, only if they stay in
            notes.append(
                pgettext("a seat's note on the form", "bids first")
                if self.stage is Stage.BIDS
                else pgettext("a seat's note on the form", "leads")
            )
        if self.stage is Stage.TRICKS:
            notes.append(
                pgettext("a seat's note on the form", "bid %(bid)s")
                % {"bid": self[f"bid_{seat}"].value()}
            )
        return ", ".join(notes)

    def _describe_groups(self) -> None:
        """Tie a group's error to each of its inputs (``aria-describedby``,
        ``aria-invalid``), keeping the input's own error too."""
        for group in self.group_errors:
            for name in self._group_fields(group):
                ids = [f"{group}-error"]
                if name in self.errors:
                    ids.insert(0, f"{self[name].auto_id}_error")
                attrs = self.fields[name].widget.attrs
                attrs["aria-describedby"] = " ".join(ids)
                attrs["aria-invalid"] = "true"

    def summary(self) -> list[SummaryItem]:
        """Every problem in page order, each linking to its input when it has one."""
        items = [SummaryItem(target=None, text=str(message)) for message in self.non_field_errors()]
        groups_done: set[str] = set()
        for name, field in self.fields.items():
            group = next((g for g, p in self.GROUPS.items() if name.startswith(f"{p}_")), None)
            if group in self.group_errors and group not in groups_done:
                groups_done.add(group)
                first = self._group_fields(group)[0]
                items.extend(
                    SummaryItem(target=self[first].auto_id, text=message)
                    for message in self.group_errors[group]
                )
            if name in self.errors:
                target = None if field.widget.is_hidden else self[name].auto_id
                items.extend(SummaryItem(target=target, text=str(m)) for m in self.errors[name])
        return items
