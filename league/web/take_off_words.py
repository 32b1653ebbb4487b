"""The words of the "take a player off a table" page: each way to fill the
seat, and what the player's night becomes, as an organiser reads them.

No query: the options are previewed already
(:func:`league.services.seat_changes.table_player_remove_options`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from league.models import Player, Table
from league.services.seat_changes import (
    Departure,
    Outcome,
    PlannedTable,
    Removal,
    RemovalOptions,
    Waiting,
)

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}

WAITING_WORDS = {
    Waiting.SITTING_OUT: "sitting out",
    Waiting.NOT_SEATED: "here, not seated",
    Waiting.ARRIVED_LATE: "arrived late",
}
"""Why a candidate is free, in a few words after their name."""

NOBODY = ""
"""The replacement field's value for "nobody takes the seat"."""


def in_words(count: int) -> str:
    """ "three" for 3; numbers past six as digits.

    >>> in_words(3), in_words(9)
    ('three', '9')
    """
    return NUMBER_WORDS.get(count, str(count))


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
            text=f"{candidate.player.name} ({WAITING_WORDS[candidate.where]}) takes "
            f"{player.name}'s seat.",
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
        return SeatChoice(value=NOBODY, text="Nobody.", refusal=sentence(reason))
    removal = options.nobody
    if removal.outcome is Outcome.SMALLER:
        after = removal.seated_at
        assert after is not None  # a table played smaller stays
        return SeatChoice(
            value=NOBODY,
            text=f"Nobody: table {table.number} plays with {in_words(len(after.players))}: "
            f"{listed(after.players)}.",
            tables=_changed(removal),
        )
    # the options are previewed with the player staying; whether they sit
    # out is the other choice, so they are counted and listed by neither
    sit_out = tuple(p for p in removal.sit_out if p.pk != options.player.pk)
    drawn = [t for t in removal.tables if t.table is None or not t.table.hands_played]
    left = sum(len(t.players) for t in drawn) + len(sit_out)
    return SeatChoice(
        value=NOBODY,
        text=f"Nobody: table {table.number} would be too small, so round "
        f"{options.round.number}'s tables without a hand are drawn again for the "
        f"{in_words(left)} players left.",
        tables=_changed(removal),
        dropped=removal.dropped,
        sit_out=sit_out,
    )


def night_choices(options: RemovalOptions) -> list[NightChoice]:
    """Leaving (in the words of what it does to their night), then staying."""
    name, number = options.player.name, options.round.number
    leaving = {
        Departure.LEFT: f"{name} leaves: their last round is round {number - 1}, and the next "
        "rounds are drawn without them.",
        Departure.NOT_COME: f"{name} did not come: they are taken off tonight's list, and the "
        "next rounds are drawn without them.",
        Departure.NOT_LISTED: f"{name} plays no more tonight.",
    }.get(options.leaving, f"{name} leaves.")
    refusal = options.leaving_refused.message if options.leaving_refused else ""
    return [
        NightChoice(value="1", text=leaving, refusal=sentence(refusal) if refusal else ""),
        NightChoice(
            value="0",
            text=f"{name} stays: they sit out round {number} and play from the next round drawn.",
        ),
    ]


def done_message(removal: Removal) -> str:
    """What the Tonight page says once the change is stored."""
    player, table = removal.player.name, removal.table
    where = f"{player} is off table {table.number} of round {removal.round.number}"
    if removal.outcome is Outcome.REPLACED and removal.replacement is not None:
        seat = f"{where}: {removal.replacement.name} takes the seat."
    elif removal.outcome is Outcome.SMALLER and removal.seated_at is not None:
        seat = f"{where}: the table plays with {in_words(len(removal.seated_at.players))}."
    else:
        seat = f"{where}: the round's tables without a hand are drawn again."
    night = {
        Departure.LEFT: f"{player} leaves after round {removal.round.number - 1}.",
        Departure.NOT_COME: f"{player} is off tonight's list.",
        Departure.STAYS: f"{player} sits out round {removal.round.number}.",
        Departure.NOT_LISTED: "",
    }[removal.departure]
    return f"{seat} {night}".strip()


def sentence(message: str) -> str:
    """A service's refusal as a sentence on the page."""
    text = message[:1].upper() + message[1:]
    return text if not text or text.endswith((".", "!", "?")) else f"{text}."
