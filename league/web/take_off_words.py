"""The words of the "take a player off a table" page: each way to fill the
seat, and what the player's night becomes, as an organiser reads them.

No query: the options are previewed already
(:func:`league.services.seat_changes.table_player_remove_options`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from league.models import Player, Table
from league.services.seat_changes import (
    Departure,
    Outcome,
    PlannedTable,
    Removal,
    RemovalOptions,
    Waiting,
)

WAITING_WORDS = {
    Waiting.SITTING_OUT: gettext_lazy("sitting out"),
    Waiting.NOT_SEATED: gettext_lazy("here, not seated"),
    Waiting.ARRIVED_LATE: gettext_lazy("arrived late"),
}
"""Why a candidate is free, in a few words after their name."""

NOBODY = ""
"""The replacement field's value for "nobody takes the seat"."""


def players_in_words(count: int) -> str:
    """How many players, in the page's language: "three" for 3 (digits past six)."""
    words = {
        1: pgettext("how many players", "one"),
        2: pgettext("how many players", "two"),
        3: pgettext("how many players", "three"),
        4: pgettext("how many players", "four"),
        5: pgettext("how many players", "five"),
        6: pgettext("how many players", "six"),
    }
    return words.get(count, str(count))


def listed(players: Sequence[Player]) -> str:
    return ", ".join(player.name for player in players)


@dataclass(frozen=True)
class SeatChoice:
    """One way to fill the seat: the form's value, what happens in a
    sentence, and the tables it changes as they would be."""

    value: str
    text: str
    tables: tuple[PlannedTable, ...] = ()
    dropped: tuple[Table, ...] = ()
    sit_out: tuple[Player, ...] | None = None
    """The round's sit-outs after, when they change."""
    refusal: str = ""
    """Why this way is not possible (nobody taking the seat, with no seating left)."""


@dataclass(frozen=True)
class NightChoice:
    """What the player's night becomes: leaving (``"1"``) or staying (``"0"``)."""

    value: str
    text: str
    refusal: str = ""


def seat_choices(options: RemovalOptions) -> list[SeatChoice]:
    """Each candidate taking the seat, the proposed one first, then nobody."""
    player = options.player
    choices = [
        SeatChoice(
            value=str(candidate.player.pk),
            text=_("%(name)s (%(why)s) takes %(player)s's seat.")
            % {
                "name": candidate.player.name,
                "why": WAITING_WORDS[candidate.where],
                "player": player.name,
            },
            tables=_changed(options.replaced[candidate.player.pk]),
        )
        for candidate in options.candidates
    ]
    choices.append(_nobody(options))
    return choices


def _changed(removal: Removal) -> tuple[PlannedTable, ...]:
    return tuple(table for table in removal.tables if table.changed)


def _nobody(options: RemovalOptions) -> SeatChoice:
    table = options.table
    if options.nobody is None:
        reason = options.nobody_refused.message if options.nobody_refused else ""
        return SeatChoice(value=NOBODY, text=_("Nobody."), refusal=sentence(reason))
    removal = options.nobody
    if removal.outcome is Outcome.SMALLER:
        after = removal.seated_at
        assert after is not None  # a table played smaller stays
        return SeatChoice(
            value=NOBODY,
            text=_("Nobody: table %(table)d plays with %(count)s: %(names)s.")
            % {
                "table": table.number,
                "count": players_in_words(len(after.players)),
                "names": listed(after.players),
            },
            tables=_changed(removal),
        )
    # the options are previewed with the player staying; whether they sit
    # out is the other choice, so they are counted and listed by neither
    sit_out = tuple(p for p in removal.sit_out if p.pk != options.player.pk)
    drawn = [t for t in removal.tables if t.table is None or not t.table.hands_played]
    left = sum(len(t.players) for t in drawn) + len(sit_out)
    return SeatChoice(
        value=NOBODY,
        text=_(
            "Nobody: table %(table)d would be too small, so round %(round)d's tables without "
            "a hand are drawn again for the %(count)s players left."
        )
        % {"table": table.number, "round": options.round.number, "count": players_in_words(left)},
        tables=_changed(removal),
        dropped=removal.dropped,
        sit_out=sit_out,
    )


def night_choices(options: RemovalOptions) -> list[NightChoice]:
    """Leaving (in the words of what it does to their night), then staying."""
    name, number = options.player.name, options.round.number
    words = {"name": name, "last": number - 1}
    leaving = {
        Departure.LEFT: _(
            "%(name)s leaves: their last round is round %(last)d, and the next "
            "rounds are drawn without them."
        ),
        Departure.NOT_COME: _(
            "%(name)s did not come: they are taken off tonight's list, and the "
            "next rounds are drawn without them."
        ),
        Departure.NOT_LISTED: _("%(name)s plays no more tonight."),
    }.get(options.leaving, _("%(name)s leaves.")) % words
    refusal = options.leaving_refused.message if options.leaving_refused else ""
    return [
        NightChoice(value="1", text=leaving, refusal=sentence(refusal) if refusal else ""),
        NightChoice(
            value="0",
            text=_(
                "%(name)s stays: they sit out round %(number)d and play from the next round drawn."
            )
            % {"name": name, "number": number},
        ),
    ]


def done_message(removal: Removal) -> str:
    """What the Tonight page says once the change is stored."""
    player, table = removal.player.name, removal.table
    words: dict[str, object] = {
        "player": player,
        "table": table.number,
        "round": removal.round.number,
        "last": removal.round.number - 1,
    }
    if removal.outcome is Outcome.REPLACED and removal.replacement is not None:
        seat = _(
            "%(player)s is off table %(table)d of round %(round)d: %(name)s takes the seat."
        ) % {**words, "name": removal.replacement.name}
    elif removal.outcome is Outcome.SMALLER and removal.seated_at is not None:
        seat = _(
            "%(player)s is off table %(table)d of round %(round)d: the table plays with %(count)s."
        ) % {**words, "count": players_in_words(len(removal.seated_at.players))}
    else:
        seat = (
            _(
                "%(player)s is off table %(table)d of round %(round)d: the round's tables "
                "without a hand are drawn again."
            )
            % words
        )
    night = {
        Departure.LEFT: _("%(player)s leaves after round %(last)d."),
        Departure.NOT_COME: _("%(player)s is off tonight's list."),
        Departure.STAYS: _("%(player)s sits out round %(round)d."),
        Departure.NOT_LISTED: "",
    }[removal.departure] % words
    return f"{seat} {night}".strip()


def sentence(message: str) -> str:
    """A service's refusal as a sentence on the page."""
    text = message[:1].upper() + message[1:]
    return text if not text or text.endswith((".", "!", "?")) else f"{text}."
