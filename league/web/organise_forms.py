"""The forms of the organisers' set-up pages: a club, a league, a player, a game night.

A form checks only the shape of what was typed (a name is there, a number is
a whole number, a choice is among those offered). Whether
the entries fit the league's rules (a table size for the game, rule options
the engine accepts, a name the club has not used) is the services' to say:
:meth:`SetupForm.add_service_error` puts their refusal next to the field it
concerns. The browser gets ``min`` and ``max`` as hints only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.functional import Promise, lazy
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

import games
from league.errors import Conflict, ServiceError
from league.models import (
    REPLIES_CLOSE_MINUTES_MAX,
    Event,
    Game,
    League,
    Player,
    ResultsConfirmation,
    TableSpill,
    Visibility,
)
from league.names import MAX_NAME, name_clean, name_key, name_problem
from league.services import clubs, fixtures
from league.web.languages import club_language_field
from league.web.refusal_words import option_message, sentence

__all__ = ["sentence"]  # the pages' sentences, as the import pages read them from here

REPLIES_CLOSE_MINUTES_DEFAULT = 60
"""A league's players' replies close an hour before a night's start, unless it says otherwise."""

MAX_ROUNDS = 20
"""The most rounds a game night has on these pages."""

LEAD_TRUMP, LEAD_FREE = "trump", "free"
BLUKE_LEAD_CHOICES = [
    (LEAD_TRUMP, gettext_lazy("A led Bluke calls for trumps")),
    (LEAD_FREE, gettext_lazy("A led Bluke calls for nothing")),
]

MEMBER, GUEST = "member", "guest"

VISIBILITY_CHOICES = [
    (Visibility.PUBLIC.value, gettext_lazy("Anyone")),
    (Visibility.MEMBERS.value, gettext_lazy("The club's members only")),
]
"""Who sees a club's results, in the page's language (the model's labels are English)."""

NUMBER_ATTRS = {"inputmode": "numeric", "autocomplete": "off", "class": "number"}


def worded(message: str | Promise, **values: object) -> str:
    """``message % values`` in the language of the page that shows it: a form's
    help and errors are made once, at import, before any page has a language."""
    return lazy(lambda: str(message) % values, str)()


def number_input(
    *, low: int, high: int | None = None, placeholder: str | Promise = ""
) -> forms.NumberInput:
    """A whole-number input with the range as the browser's hint; the
    ``placeholder`` says what an optional number left empty means."""
    attrs: dict[str, str | int | Promise] = {**NUMBER_ATTRS, "min": low}
    if placeholder:
        attrs["placeholder"] = placeholder
    if high is not None:
        attrs["max"] = high
    return forms.NumberInput(attrs=attrs)


class SetupForm(forms.Form):
    """A set-up form that shows a service's refusal by its field.

    ``SERVICE_FIELDS`` maps a service's ``field`` to the form's field that
    shows it (the slug a league's name makes, for instance, to the name);
    a refusal of a field the form does not show is an error of the whole
    form.
    """

    SERVICE_FIELDS: dict[str, str] = {}

    def add_service_error(self, error: ServiceError, *, field: str | None = None) -> None:
        """Show ``error`` by ``field`` if given, else by the field it names."""
        target = field or self.SERVICE_FIELDS.get(error.field or "", error.field)
        message = sentence(error.message)
        if target is not None and target in self.fields and not self.fields[target].disabled:
            self.add_error(target, message)
        else:
            self.add_error(None, message)

    def summary(self) -> list[tuple[str | None, str]]:
        """Every problem in the order of the form, each with the id of its
        input (``None`` for the form as a whole), for the error summary."""
        items: list[tuple[str | None, str]] = [
            (None, str(message)) for message in self.non_field_errors()
        ]
        for name in self.fields:
            if name in self.errors:
                target = self[name].auto_id
                if isinstance(self.fields[name].widget, forms.RadioSelect):
                    target = f"{target}_0"  # a group of radios: its first
                items.extend((target, str(message)) for message in self.errors[name])
        return items


# -- clubs ------------------------------------------------------------------------------

NUL_IN_TEXT = gettext_lazy(
    "Take out the invisible control character (NUL) that came with the text: type it "
    "again, or paste it as plain text."
)


class ClubForm(SetupForm):
    """A new club: its name, a short name for its files (made from the name
    when left empty), and who sees its results."""

    name = forms.CharField(
        max_length=100,
        label=gettext_lazy("Name"),
        help_text=gettext_lazy("As members will see it, for instance “Riverside Card Club”."),
        error_messages={
            "required": gettext_lazy("Enter the club's name."),
            "max_length": gettext_lazy(
                "Make the name at most 100 characters (it has %(show_value)d)."
            ),
            "null_characters_not_allowed": NUL_IN_TEXT,
        },
    )
    slug = forms.SlugField(
        required=False,
        max_length=100,
        label=gettext_lazy("Short name (optional)"),
        help_text=gettext_lazy(
            "Letters a-z, digits and hyphens, for the names of the club's files, such as "
            "its calendar. Left empty, it is made from the name."
        ),
        error_messages={
            "invalid": gettext_lazy(
                "Use only letters a-z, digits, hyphens and underscores in the short name, "
                "for instance riverside-cards."
            ),
            "max_length": gettext_lazy(
                "Make the short name at most 100 characters (it has %(show_value)d)."
            ),
            "null_characters_not_allowed": NUL_IN_TEXT,
        },
    )
    visibility = forms.ChoiceField(
        choices=VISIBILITY_CHOICES,
        label=gettext_lazy("Who sees the club's players, results and ratings"),
        initial=Visibility.PUBLIC,
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "Members are those with a role in the club and the logins linked to its players. "
            "You can change this later on the club's privacy page."
        ),
        error_messages={
            "required": gettext_lazy("Choose who sees the club's results."),
            "invalid_choice": gettext_lazy("Choose anyone or the club's members only."),
        },
    )

    language = club_language_field()

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        return " ".join(name.split())

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"]
        return slug.lower()

    def slug_wanted(self) -> str:
        """The club's slug: as typed, or made from the name as the service makes it."""
        slug: str = self.cleaned_data.get("slug") or slugify(self.cleaned_data.get("name", ""))
        return slug

    def add_service_error(self, error: ServiceError, *, field: str | None = None) -> None:
        """The services' refusals of a club in the page's words, by the field."""
        if error.code == clubs.SLUG_NEEDED:
            self.add_error(
                "slug",
                _(
                    "The name has no letter a-z or digit to make a short name of: type one, "
                    "for instance riverside-cards."
                ),
            )
        elif isinstance(error, Conflict) and error.field == "name":
            self.add_error(
                "name",
                _(
                    "There is a club of that name already (capitals aside): choose another "
                    "name, or ask its organisers to invite you."
                ),
            )
        elif isinstance(error, Conflict) and error.field == "slug":
            typed = self.cleaned_data.get("slug")
            message = (
                _("Another club has the short name “%(slug)s”: type a different one.")
                if typed
                else _(
                    "Another club has the short name, made from the name, “%(slug)s”: "
                    "type a different one."
                )
            )
            self.add_error("slug", message % {"slug": typed or self.slug_wanted()})
        else:
            super().add_service_error(error, field=field)


# -- leagues ----------------------------------------------------------------------------


class LeagueForm(SetupForm):
    """A league: its name, its game (fixed once the league exists:
    :func:`~league.services.fixtures.league_update` cannot change it), the
    rule options of Bluke, and how its rounds are drawn.

    ``options_fixed``: hands have been played, so the options are shown but
    cannot change.
    """

    SERVICE_FIELDS = {"slug": "name", "options": "max_cards"}

    name = forms.CharField(
        max_length=100,
        label=gettext_lazy("Name"),
        help_text=gettext_lazy("As members will see it, for instance “Thursday Bluke 2026”."),
        error_messages={"required": gettext_lazy("Enter the league's name.")},
    )
    game = forms.ChoiceField(
        choices=Game.choices,
        label=gettext_lazy("Game"),
        widget=forms.RadioSelect,
        error_messages={
            "required": gettext_lazy("Choose the game."),
            "invalid_choice": gettext_lazy("Choose Bluke or Buck Euchre."),
        },
    )
    bluke_lead = forms.ChoiceField(
        choices=BLUKE_LEAD_CHOICES,
        label=gettext_lazy("When a Bluke is led"),
        initial=LEAD_TRUMP,
        help_text=gettext_lazy(
            "Calls for trumps: whoever holds a trump must play one (or a Bluke). "
            "Calls for nothing: the others may play any card. "
            "In a hand without trump a led Bluke calls for nothing either way."
        ),
        error_messages={
            "invalid_choice": gettext_lazy("Choose what a led Bluke calls for from the list.")
        },
    )
    max_cards = forms.IntegerField(
        required=False,
        label=gettext_lazy("Largest hand (cards)"),
        # every Bluke league's rounds seat 5 at one table when exactly 5 come
        widget=number_input(
            low=1, high=games.bluke.max_hand_size(5), placeholder=gettext_lazy("full")
        ),
        help_text=worded(
            gettext_lazy(
                "Leave empty for the full game: 13 cards down to 1 and back up (25 hands) at "
                "up to four players, fewer cards at bigger tables (52 ÷ players). "
                "A number shortens every game: 3 plays hands of 3, 2, 1, 2, 3 cards. "
                "It must suit every table a round can draw: at most "
                "%(at_five)d cards when the preferred table size is 3, or 4 "
                "with tables of one fewer (5 who come play at one table); at most "
                "%(at_six)d otherwise (a round may seat 6)."
            ),
            at_five=games.bluke.max_hand_size(5),
            at_six=games.bluke.max_hand_size(6),
        ),
        error_messages={
            "invalid": gettext_lazy("Enter the largest hand as a whole number, or leave it empty.")
        },
    )
    table_size = forms.IntegerField(
        label=gettext_lazy("Preferred table size"),
        initial=4,
        widget=number_input(low=3, high=6),
        help_text=gettext_lazy(
            "Bluke: 3 to 6 players a table when a round is drawn. "
            "Buck Euchre is always played four to a table."
        ),
        error_messages={
            "required": gettext_lazy("Enter the preferred table size."),
            "invalid": gettext_lazy("Enter the table size as a whole number."),
        },
    )
    table_spill = forms.ChoiceField(
        choices=[
            (TableSpill.SMALLER.value, gettext_lazy("Tables of one fewer")),
            (TableSpill.LARGER.value, gettext_lazy("Tables of one more")),
        ],
        label=gettext_lazy("When the players do not divide evenly"),
        initial=TableSpill.SMALLER,
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "Bluke: the players left over make some tables one smaller, or some one larger, "
            "than the preferred size. (Buck Euchre's leftovers sit the round out.)"
        ),
        error_messages={
            "required": gettext_lazy("Choose what happens to the players left over."),
            "invalid_choice": gettext_lazy("Choose smaller or larger tables."),
        },
    )

    results_confirmation = forms.ChoiceField(
        choices=[
            (ResultsConfirmation.NONE, gettext_lazy("Results count at once")),
            (
                ResultsConfirmation.PLAYER,
                gettext_lazy("A second player confirms results entered at the table"),
            ),
        ],
        label=gettext_lazy("Results entered at the table"),
        initial=ResultsConfirmation.NONE,
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "With a table link the players enter their own results on a phone. "
            "A second player confirming: a game entered that way counts in the standings "
            "once a player of another seat (or an organiser) says it is right. "
            "Results entered by a scorekeeper or organiser always count at once."
        ),
        error_messages={
            "required": gettext_lazy("Choose whether a second player confirms results."),
            "invalid_choice": gettext_lazy("Choose one of the two ways from the list."),
        },
    )
    replies_close_minutes = forms.IntegerField(
        required=False,
        label=gettext_lazy("Players' replies close (minutes before the start)"),
        initial=REPLIES_CLOSE_MINUTES_DEFAULT,
        min_value=0,
        max_value=REPLIES_CLOSE_MINUTES_MAX,
        widget=number_input(low=0, high=REPLIES_CLOSE_MINUTES_MAX),
        help_text=gettext_lazy(
            "Players answer “coming” or “not coming” with their own link until this many "
            "minutes before a night's start time, and never after its first round is drawn "
            "(a night without a start time: until its first draw). Empty: 60."
        ),
        error_messages={
            "invalid": gettext_lazy("Enter the minutes as a whole number."),
            "min_value": gettext_lazy("Enter 0 minutes or more."),
            "max_value": worded(
                gettext_lazy("Enter at most %(most)d minutes (a day)."),
                most=REPLIES_CLOSE_MINUTES_MAX,
            ),
        },
    )

    def __init__(
        self,
        data: Mapping[str, object] | None = None,
        *,
        league: League | None = None,
        options_fixed: bool = False,
    ) -> None:
        initial: dict[str, object] | None = None
        if league is not None:
            options = league.options or {}
            initial = {
                "name": league.name,
                "game": league.game,
                "bluke_lead": options.get("bluke_lead", LEAD_TRUMP),
                "max_cards": options.get("max_cards"),
                "table_size": league.table_size,
                "table_spill": league.table_spill,
                "results_confirmation": league.results_confirmation,
                "replies_close_minutes": league.replies_close_minutes,
            }
        super().__init__(data, initial=initial)
        self.league = league
        self.options_fixed = options_fixed
        if league is not None:
            self.fields["game"].disabled = True
            self.fields["game"].help_text = _("The game of a league cannot change.")
        if options_fixed or (league is not None and league.game != Game.BLUKE):
            for name in ("bluke_lead", "max_cards"):
                self.fields[name].disabled = True

    def clean(self) -> dict[str, Any]:
        """Buck Euchre has no rule options: a Bluke option set for it is refused
        by the option, rather than dropped without a word."""
        super().clean()
        data = self.cleaned_data
        if self.league is None and data.get("game") == Game.BUCK_EUCHRE:
            if data.get("max_cards") is not None:
                self.add_error("max_cards", _("Buck Euchre has no rule options: leave this empty."))
            if data.get("bluke_lead", LEAD_TRUMP) != LEAD_TRUMP:
                self.add_error(
                    "bluke_lead", _("Buck Euchre has no rule options: leave this as it is.")
                )
        return data

    def clean_replies_close_minutes(self) -> int:
        minutes: int | None = self.cleaned_data.get("replies_close_minutes")
        return REPLIES_CLOSE_MINUTES_DEFAULT if minutes is None else minutes

    def fits_the_rules(self) -> bool:
        """Ask the services' own checks of a valid form before saving: the
        table size and spill for the game, and each rule option alone at
        every table size a league so drawn seats (at the nominal size when
        the table size is refused too), so that every fault shows at once by
        its field (a service stops at the first). Whether the faults are
        none; the save's service checks all again (and the tables drawn)."""
        data = self.cleaned_data
        game = self.league.game if self.league is not None else data["game"]
        table_size, table_spill = data["table_size"], data["table_spill"]
        try:
            fixtures.check_table_policy(game=game, table_size=table_size, table_spill=table_spill)
        except ServiceError as error:
            self.add_service_error(error)
            table_size = fixtures.NOMINAL_PLAYERS[Game(game)]
            table_spill = TableSpill.SMALLER
        if not self.options_fixed:
            for name, value in self.options().items():
                try:
                    fixtures.check_league_options(
                        game=game,
                        options={name: value},
                        table_size=table_size,
                        table_spill=table_spill,
                    )
                except ServiceError as error:
                    self.add_service_error(error, field=name)
        return not self.errors

    def add_service_error(self, error: ServiceError, *, field: str | None = None) -> None:
        """A refused option (or a table size its options refuse) in the page's
        words, by the option's field; any other refusal as a sentence."""
        if not isinstance(error, fixtures.OptionsRefused):
            super().add_service_error(error, field=field)
            return
        if field is None and error.field == "options" and error.option in self.fields:
            field = error.option
        chosen = self.cleaned_data.get("table_size") if hasattr(self, "cleaned_data") else None
        table_size = chosen if isinstance(chosen, int) else fixtures.NOMINAL_PLAYERS[Game.BLUKE]
        words = option_message(error, table_size=table_size, options_fixed=self.options_fixed)
        super().add_service_error(ServiceError(words, field=error.field), field=field)

    def options(self) -> dict[str, object]:
        """The rule options as the league stores them: only those that differ
        from the defaults, as the engine spells them (Buck Euchre has none)."""
        data = self.cleaned_data
        game = self.league.game if self.league is not None else data["game"]
        if game != Game.BLUKE:
            return {}
        options: dict[str, object] = {}
        if data.get("bluke_lead", LEAD_TRUMP) != LEAD_TRUMP:
            options["bluke_lead"] = data["bluke_lead"]
        if data.get("max_cards") is not None:
            options["max_cards"] = data["max_cards"]
        return options


# -- players ------------------------------------------------------------------------------


class PlayerAddForm(SetupForm):
    """A new player of the club: a name, and whether a member or a guest."""

    name = forms.CharField(
        max_length=100,
        label=pgettext_lazy("a person's name", "Name"),
        help_text=gettext_lazy(
            "As it will appear on score sheets; every player of the club has their own."
        ),
        error_messages={"required": gettext_lazy("Enter the player's name.")},
    )
    kind = forms.ChoiceField(
        choices=[
            (MEMBER, gettext_lazy("Member of the club")),
            (GUEST, gettext_lazy("Guest (a visitor, until an organiser keeps them)")),
        ],
        label=gettext_lazy("Member or guest"),
        initial=MEMBER,
        widget=forms.RadioSelect,
        error_messages={
            "required": gettext_lazy("Choose member or guest."),
            "invalid_choice": gettext_lazy("Choose member or guest."),
        },
    )

    confirmed = forms.CharField(required=False, widget=forms.HiddenInput)
    """The name the organiser said to add although it is close to a club's name
    (their "No, add …" answer to "Do you mean …?")."""

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        return " ".join(name.split())

    def close_confirmed(self) -> bool:
        """Whether the organiser answered "No, add …" for the name sent."""
        return name_key(self.cleaned_data.get("confirmed", "")) == name_key(
            self.cleaned_data["name"]
        )


MAX_PASTED: Final = 200
"""The most names one paste adds."""


@dataclass(frozen=True)
class PastedName:
    """A name of a pasted list, by its line number (from 1)."""

    line: int
    name: str


class PlayersPasteForm(SetupForm):
    """Players added by pasting a list, one a line: blank lines are left out; every
    other line is a name, checked as a name is (:func:`league.names.name_problem`),
    once in the list (by its key) and not the club's already (``taken``: the club's
    names by key). Every fault is shown by the field, by line number, and nothing
    is added while there is one."""

    names = forms.CharField(
        label=gettext_lazy("Names, one a line"),
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off", "spellcheck": "false"}),
        max_length=MAX_PASTED * (MAX_NAME + 2),
        help_text=gettext_lazy(
            worded(
                gettext_lazy(
                    "Paste from a spreadsheet or a list: up to %(most)d names. "
                    "Blank lines are left out."
                ),
                most=MAX_PASTED,
            )
        ),
        error_messages={
            "required": gettext_lazy("Paste at least one name."),
            "max_length": worded(
                gettext_lazy("That is more than %(most)d names can be: paste fewer at a time."),
                most=MAX_PASTED,
            ),
        },
    )
    kind = forms.ChoiceField(
        choices=[(MEMBER, gettext_lazy("Members of the club")), (GUEST, gettext_lazy("Guests"))],
        label=gettext_lazy("Add them as"),
        initial=MEMBER,
        widget=forms.RadioSelect,
        error_messages={
            "required": gettext_lazy("Choose members or guests."),
            "invalid_choice": gettext_lazy("Choose members or guests."),
        },
    )
    confirmed = forms.CharField(required=False, widget=forms.HiddenInput)
    """The list (:meth:`fingerprint`) the organiser said to add although names in
    it are close to the club's."""

    def __init__(
        self,
        data: Mapping[str, object] | None = None,
        *,
        prefix: str | None = None,
        taken: dict[str, str] | None = None,
    ) -> None:
        super().__init__(data, prefix=prefix)
        self.taken = taken or {}
        self.pasted: list[PastedName] = []

    def clean_names(self) -> str:
        text: str = self.cleaned_data["names"]
        problems: list[str] = []
        seen: dict[str, int] = {}
        pasted: list[PastedName] = []
        for number, line in enumerate(text.splitlines(), start=1):
            name = name_clean(line)
            if not name:
                continue
            problem = name_problem(name)
            if problem is None:
                name = " ".join(name.split())  # as the one name's field keeps it
            key = name_key(name)
            if problem is not None:
                problems.append(
                    _("Line %(line)d: %(problem)s") % {"line": number, "problem": sentence(problem)}
                )
            elif key in seen:
                problems.append(
                    _("Line %(line)d: “%(name)s” is on line %(first)d already.")
                    % {"line": number, "name": name, "first": seen[key]}
                )
            elif key in self.taken:
                problems.append(
                    _("Line %(line)d: The club has “%(name)s” already.")
                    % {"line": number, "name": self.taken[key]}
                )
            else:
                seen[key] = number
                pasted.append(PastedName(line=number, name=name))
        if not pasted and not problems:
            problems.append(_("Paste at least one name."))
        if len(pasted) > MAX_PASTED:
            problems.append(
                _("That is %(count)d names: paste at most %(most)d at a time.")
                % {"count": len(pasted), "most": MAX_PASTED}
            )
        if problems:
            raise forms.ValidationError(problems)
        self.pasted = pasted
        return text

    def fingerprint(self) -> str:
        """The names to add, as one text: what a "No, add them" answer repeats."""
        return "\n".join(name_key(pasted.name) for pasted in self.pasted)

    def close_confirmed(self) -> bool:
        return bool(self.pasted) and self.cleaned_data.get("confirmed", "") == self.fingerprint()


NO_LOGIN = ""


class PlayerEditForm(SetupForm):
    """Rename a player, keep a guest as a member, link a login or unlink it.

    The login is one of ``logins``: the users with a role in the club, and
    the player's own. Nothing else is offered or taken: a login outside the
    club is linked to a player by accepting an invitation that names the
    player (the people page), so that the page neither links anyone without
    their consent nor tells an organiser which other logins exist.
    """

    SERVICE_FIELDS = {"is_guest": "keep"}

    name = forms.CharField(
        max_length=100,
        label=pgettext_lazy("a person's name", "Name"),
        error_messages={"required": gettext_lazy("Enter the player's name.")},
    )
    keep = forms.BooleanField(
        required=False,
        label=gettext_lazy("Keep as a member of the club"),
        help_text=gettext_lazy(
            "This player was added as a guest. Ticked, they become a member: this cannot be undone."
        ),
    )
    user = forms.ChoiceField(
        required=False,
        label=gettext_lazy("One of the club's logins"),
        help_text=gettext_lazy("The login of the person who plays as this player."),
    )

    def __init__(
        self,
        data: Mapping[str, object] | None = None,
        *,
        player: Player,
        logins: Sequence[AbstractBaseUser],
    ) -> None:
        super().__init__(
            data,
            initial={
                "name": player.name,
                "user": NO_LOGIN if player.user_id is None else str(player.user_id),
            },
        )
        self.player = player
        self.logins = {str(user.pk): user for user in logins}
        field = self.fields["user"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [
            (NO_LOGIN, gettext_lazy("No login")),
            *((key, user.get_username()) for key, user in self.logins.items()),
        ]
        if not player.is_guest:
            del self.fields["keep"]

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        return " ".join(name.split())

    def clean(self) -> dict[str, Any]:
        """The login chosen: ``login`` in the cleaned data is a user or ``None``."""
        super().clean()
        data = self.cleaned_data
        if "user" in data:
            chosen = data["user"]
            data["login"] = self.logins.get(chosen) if chosen else None
        return data


# -- game nights ----------------------------------------------------------------------------


class EventForm(SetupForm):
    """A game night: name, date (today's, in the site's time zone, until
    changed), start time and venue (both optional), and how many rounds it has
    (1 to :data:`MAX_ROUNDS`)."""

    SERVICE_FIELDS = {"number": "rounds"}

    name = forms.CharField(
        max_length=100,
        label=gettext_lazy("Name"),
        help_text=gettext_lazy("For instance “Club night” or “Week 3”."),
        error_messages={"required": gettext_lazy("Enter the game night's name.")},
    )
    date = forms.DateField(
        label=gettext_lazy("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=gettext_lazy(
            "Pick the date, or type it as year-month-day, for instance 2026-09-03."
        ),
        error_messages={
            "required": gettext_lazy("Enter the date of the game night."),
            "invalid": gettext_lazy("Enter the date as year-month-day, for instance 2026-09-03."),
        },
    )
    start_time = forms.TimeField(
        required=False,
        label=gettext_lazy("Start time (optional)"),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=gettext_lazy("24-hour clock, for instance 19:30."),
        error_messages={
            "invalid": gettext_lazy("Enter the start time as hours:minutes, for instance 19:30.")
        },
    )
    venue = forms.CharField(
        required=False,
        max_length=200,
        label=gettext_lazy("Venue (optional)"),
        help_text=gettext_lazy("Where the club meets that night."),
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Number of rounds"),
        initial=1,
        min_value=1,
        max_value=MAX_ROUNDS,
        widget=number_input(low=1, high=MAX_ROUNDS),
        help_text=worded(
            gettext_lazy("1 to %(most)d: each round players are drawn to new tables."),
            most=MAX_ROUNDS,
        ),
        error_messages={
            "required": gettext_lazy("Enter the number of rounds."),
            "invalid": gettext_lazy("Enter the number of rounds as a whole number."),
            "min_value": worded(
                gettext_lazy("A game night has 1 to %(most)d rounds."), most=MAX_ROUNDS
            ),
            "max_value": worded(
                gettext_lazy("A game night has 1 to %(most)d rounds."), most=MAX_ROUNDS
            ),
        },
    )

    def __init__(
        self,
        data: Mapping[str, object] | None = None,
        *,
        event: Event | None = None,
        rounds: int | None = None,
    ) -> None:
        # a new night is tonight's until the organiser says otherwise (in the
        # site's time zone, TIME_ZONE, as the Tonight page's "today")
        initial: dict[str, object] = {"date": timezone.localdate()}
        if event is not None:
            initial = {
                "name": event.name,
                "date": event.date,
                "start_time": event.start_time,
                "venue": event.venue,
                "rounds": rounds,
            }
        super().__init__(data, initial=initial)

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        return " ".join(name.split())

    def clean_venue(self) -> str:
        venue: str = self.cleaned_data["venue"]
        return venue.strip()
