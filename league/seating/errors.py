"""The one exception the seating generator raises, with a stable code and data fields.

A :class:`SeatingError` is the caller's mistake (a request no seating can satisfy),
never a failure of the search: a search that runs out of budget returns its best plan.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

ERROR_CODES: tuple[str, ...] = (
    "too_few_players",
    "duplicate_player",
    "unknown_player",
    "bad_table_size",
    "bad_rounds",
    "bad_method",
    "bad_pair",
    "unranked_player",
    "pin_out_of_range",
    "table_overfull",
)
"""Every code :class:`SeatingError` carries:

- ``too_few_players``: fewer present than one table needs (3 for Bluke, 4 for Buck
  Euchre); ``players`` are those present, ``round`` the round (0-based) when planning
  a night.
- ``duplicate_player``: a player listed twice among those present; ``players`` the
  repeated ids.
- ``unknown_player``: a pinned or absent player who is not among the players;
  ``players`` the unknown ids.
- ``bad_table_size``: a preferred size outside 3..6, or Buck Euchre not at 4, or an
  unknown game or spill; ``size`` the size asked for.
- ``bad_rounds``: fewer than one round, or an absence in a round beyond the last;
  ``round`` the round.
- ``bad_method``: a method that is not one of :class:`~league.seating.Method`.
- ``bad_pair``: a keep-apart pair that is not two different players; ``players`` it.
- ``unranked_player``: ``swiss`` or ``rating`` without a ranking that orders every
  present player; ``players`` those missing from it.
- ``pin_out_of_range``: a player pinned to a table the round does not have;
  ``players`` them, ``table`` the index, ``round`` the round.
- ``table_overfull``: more players pinned to one table than it seats; ``players``
  them, ``table`` the index, ``round`` the round.
"""


class SeatingError(ValueError):
    """A seating request that cannot be met, as data: ``code`` (one of
    :data:`ERROR_CODES`), and where they apply ``players`` (a tuple of ids, in the
    order the caller gave the players), ``table`` (0-based), ``round`` (0-based) and
    ``size``. ``str(error)`` is a sentence for logs; programs read the fields.
    ``facts`` are the rest of the sentence's numbers and names (and a ``reason``
    where a code has more than one sentence), so that a caller can word it in
    another language (:func:`league.services.seating.seating_refusal_words`);
    they are not part of :meth:`to_json`."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        players: tuple[Hashable, ...] = (),
        table: int | None = None,
        round: int | None = None,
        size: int | None = None,
        facts: Mapping[str, object] | None = None,
    ) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.facts: Mapping[str, object] = facts or {}
        self.players = players
        self.table = table
        self.round = round
        self.size = size

    def to_json(self) -> dict[str, str | int | list[Hashable]]:
        """The fields that are set, ``code`` first and ``message`` last."""
        out: dict[str, str | int | list[Hashable]] = {"code": self.code}
        if self.players:
            out["players"] = list(self.players)
        for key in ("table", "round", "size"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out["message"] = self.message
        return out

    def __repr__(self) -> str:
        return f"SeatingError({self.to_json()!r})"
