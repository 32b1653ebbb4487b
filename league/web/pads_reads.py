"""The reads of the score pads page (:mod:`league.web.pads`), each a fixed
number of queries whatever the number of tables and players."""

from __future__ import annotations

from django.db.models import prefetch_related_objects

from league import selectors
from league.models import Round, Table


def pads_round(round_id: int) -> Round:
    """A round with its event, league and club, in one query (the page's
    title and the access check need them all). Raises ``Round.DoesNotExist``."""
    return Round.objects.select_related("event__league__club").get(pk=round_id)


def pads_tables(*, round: Round) -> list[Table]:
    """The round's tables by number, each with its seatings in seat order and
    their players: two queries, one when the round has no tables. Each table
    comes with ``round`` (and so its event and league) already set, so the
    table's rules are known without a query."""
    prefetch_related_objects([round], selectors.round_tables_prefetch())
    return list(round.tables.all())
