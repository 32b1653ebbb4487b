"""A second player's word on a game entered at its table.

In a league whose ``results_confirmation`` is ``player``, a game whose results
were entered or changed through its table link counts in standings and ratings
only once confirmed (the states are :class:`~league.models.Confirmation`;
:func:`league.services.results.confirmation_after` sets ``awaiting`` when such
a game completes, or is corrected after confirmation):

- a player of a seat other than the one that made the last change through
  the link (``entered_seat``) agrees, or an organiser does: ``confirmed``, and
  the game counts (its places stored, the league's standings and ratings
  owed, ``game.confirmed`` sent to the club's webhooks);
- a player disagrees, saying why: ``disputed``, with the note; the organiser
  settles it by correcting the game (it awaits confirmation again) and
  confirming it, or by confirming it as it is.

Results entered by a signed-in scorekeeper or organiser, or imported, count at
once (``none``): there is nothing to confirm.

Locks: the table's row, then the rows of the work owed (upserted), as every
change of results takes them; none that a running job holds.
"""

from __future__ import annotations

from typing import Final, TypedDict

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from league import audit
from league.db import retry_on_conflict
from league.errors import Conflict, PreconditionFailed, ServiceError
from league.models import Confirmation, Hand, Table
from league.services.results import (
    check_seat,
    lock_table,
    replay_results,
    results_changed_owe_jobs,
)
from league.services.results_sql import store_places
from league.webhook_events import webhooks_game_confirmed

NOTE_MAX_LENGTH: Final = 500
"""The longest note a dispute carries."""


def check_confirmation(
    *, table: Table, agree: bool, seat: int | None, note: str, version: int | None
) -> None:
    """Raise unless the (locked) table's game may be confirmed (``agree``) or
    disputed, by ``seat`` (a player through the link) or, for ``None``, by an
    organiser. Each refusal says why, with a ``code``: ``not_complete``,
    ``nothing_to_confirm``, ``confirmed``, ``disputed``, ``own_entry``."""
    if version is not None and version != table.version:
        raise PreconditionFailed(
            gettext(
                "the score sheet you hold is not this table's current one (version "
                "%(version)s): reload it before you confirm"
            )
            % {"version": table.version}
        )
    check_seat(table=table, seat=seat)
    if not table.complete:
        raise Conflict(
            ngettext(
                "the game is not complete yet: %(hands)s hand is in",
                "the game is not complete yet: %(hands)s hands are in",
                table.hands_played,
            )
            % {"hands": table.hands_played},
            code="not_complete",
        )
    if table.confirmation == Confirmation.NONE:
        raise Conflict(
            gettext(
                "this game counts without confirmation: it was entered by a scorekeeper or an "
                "organiser, or its league asks for none"
            ),
            code="nothing_to_confirm",
        )
    if table.confirmation == Confirmation.CONFIRMED:
        raise Conflict(gettext("this game is confirmed already"), code="confirmed")
    if seat is None:
        if not agree:
            raise ServiceError(
                gettext(
                    "an organiser settles a game by correcting and confirming it; a dispute "
                    "comes from a player at the table"
                ),
                field="agree",
            )
        return
    if table.confirmation == Confirmation.DISPUTED:
        raise Conflict(
            gettext("this game is disputed: an organiser settles it"),
            field="seat",
            code="disputed",
        )
    if agree and seat == table.entered_seat:
        raise Conflict(
            gettext(
                "seat %(seat)s made the last change to this game's results: a player of "
                "another seat confirms it, or an organiser"
            )
            % {"seat": seat},
            field="seat",
            code="own_entry",
        )
    if not agree and not note.strip():
        raise ServiceError(gettext("say what is wrong: a dispute carries a note"), field="note")
    if len(note) > NOTE_MAX_LENGTH:
        raise ServiceError(
            gettext("a note is at most %(most)s characters") % {"most": NOTE_MAX_LENGTH},
            field="note",
        )


@retry_on_conflict
@transaction.atomic
def game_confirm(
    *,
    table: Table,
    agree: bool,
    seat: int | None,
    note: str = "",
    version: int | None = None,
) -> Table:
    """Confirm (``agree``) or dispute the table's game: by ``seat``, a player
    at the table through its link, or (``None``) by an organiser, whose role
    the caller has checked. ``version``, when given, must be the table's (the
    sheet the player looked at). Returns the table as stored; its version
    moves, as the sheet it shows has changed."""
    table = lock_table(table)
    check_confirmation(table=table, agree=agree, seat=seat, note=note, version=version)
    table.confirmation = Confirmation.CONFIRMED if agree else Confirmation.DISPUTED
    table.confirmation_seat = seat
    table.confirmation_at = timezone.now()
    table.confirmation_note = "" if agree else note.strip()
    table.version += 1
    table.save(
        update_fields=[
            "confirmation",
            "confirmation_seat",
            "confirmation_at",
            "confirmation_note",
            "version",
        ]
    )
    audit.table_entry_write(
        table,
        action=audit.Action.GAME_CONFIRMED if agree else audit.Action.GAME_DISPUTED,
        before=None,
        after=_confirmation_record(table),
        seat=seat,
    )
    if agree:
        _count(table)
    return table


def _count(table: Table) -> None:
    """The confirmed game now counts: its places, from the engine's replay of
    its hands (the winner of Buck Euchre may rest on its last hand's play, not
    its totals alone), the standings and ratings it owes, and its webhook."""
    records = Hand.objects.filter(table=table).order_by("number").values_list("record", flat=True)
    replay = replay_results(table=table, keep=0, records=list(records))
    players = store_places(table, replay.tally)
    results_changed_owe_jobs(table=table, player_ids=players)
    webhooks_game_confirmed(table=table)


class ConfirmationRecord(TypedDict):
    """A confirmation as its audit entry records it."""

    state: str
    seat: int | None
    note: str | None


def _confirmation_record(table: Table) -> ConfirmationRecord:
    """What a confirmation's audit entry records of it."""
    return {
        "state": table.confirmation,
        "seat": table.confirmation_seat,
        "note": table.confirmation_note or None,
    }
