"""A game's running totals as its hands are added one by one, and a game record read.

:func:`evaluate_game` tallies a whole game record this way; a service that
stores a game hand by hand keeps a :class:`GameTally` instead, resumed from
what it stored. Each hand is read by :func:`games.hands.evaluate_game_hand`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games import bluke, buck_euchre
from games.bluke import Bluke
from games.buck_euchre import BuckEuchre
from games.errors import InvalidRecord, RecordError, check_seat, kind
from games.fields import (
    check_fields,
    field_sets,
    game_name,
    game_rules,
    int_field,
    list_field,
    options_field,
)
from games.hands import evaluate_game_hand
from games.limits import MAX_BUCK_EUCHRE_HANDS
from games.results import GameResult, HandResult, competition_ranks
from games.rules import Rules


class GameTally:
    """A game's running totals as its hands are added in order.

    A service that stores games resumes a tally from what it stored: the
    number of hands already played and the totals after them (the game must
    not be complete yet).
    """

    def __init__(
        self,
        rules: Rules,
        *,
        first_dealer: int,
        hands_played: int = 0,
        totals: Sequence[int] | None = None,
    ) -> None:
        check_seat(first_dealer, rules.players, field="first_dealer")
        self.rules = rules
        self.first_dealer = first_dealer
        self.hands_played = hands_played
        self.hands: list[HandResult] = []
        """The results of the hands added to this tally."""
        start = buck_euchre.STARTING_SCORE if isinstance(rules, BuckEuchre) else 0
        self.totals = list(totals) if totals is not None else [start] * rules.players
        self.winner: int | None = None
        self.complete = False

    @property
    def next_dealer(self) -> int:
        return (self.first_dealer + self.hands_played) % self.rules.players

    @property
    def next_hand_size(self) -> int | None:
        """Cards a seat in the next hand (Bluke), or ``None`` past the schedule
        or for Buck Euchre, whose hands are always five cards."""
        if isinstance(self.rules, Bluke) and self.hands_played < len(self.rules.schedule):
            return self.rules.schedule[self.hands_played]
        return None

    def add(self, record: object) -> HandResult:
        """Check the next hand of the game (either form) and add its points."""
        index = self.hands_played
        rules = self.rules
        if self.complete or (isinstance(rules, Bluke) and index >= len(rules.schedule)):
            raise InvalidRecord("game_over", f"the game was over after hand {index - 1}")
        if isinstance(rules, BuckEuchre) and index >= MAX_BUCK_EUCHRE_HANDS:
            raise InvalidRecord("too_large", f"a game has at most {MAX_BUCK_EUCHRE_HANDS} hands")
        if not isinstance(record, dict):
            raise InvalidRecord("invalid", f"a hand is a JSON object, not {kind(record)}")
        result = evaluate_game_hand(
            rules, record, dealer=self.next_dealer, cards=self.next_hand_size
        )
        self.hands.append(result)
        self.hands_played += 1
        self.totals = [t + p for t, p in zip(self.totals, result.points, strict=True)]
        self._update_completion(result)
        return result

    def _update_completion(self, result: HandResult) -> None:
        rules = self.rules
        if isinstance(rules, Bluke):
            self.complete = self.hands_played == len(rules.schedule)
            return
        if result.takes_all is not None:
            self.winner = result.takes_all
        else:
            lowest = min(self.totals)
            if lowest <= 0 and self.totals.count(lowest) == 1:
                self.winner = self.totals.index(lowest)
        self.complete = self.winner is not None

    def ranks(self) -> tuple[int, ...] | None:
        """Places of a complete game: 1 = best, equal scores share."""
        if not self.complete:
            return None
        if isinstance(self.rules, Bluke):
            return competition_ranks([-t for t in self.totals])
        winner = self.winner
        others = [t for s, t in enumerate(self.totals) if s != winner]
        return tuple(
            1 if seat == winner else 2 + sum(1 for o in others if o < total)
            for seat, total in enumerate(self.totals)
        )

    def result(self) -> GameResult:
        return GameResult(
            game=self.rules.name,
            totals=tuple(self.totals),
            complete=self.complete,
            ranks=self.ranks(),
            hands=tuple(self.hands),
        )


# -- a game record ----------------------------------------------------------

_GAME_FIELDS = {
    bluke.NAME: field_sets("game players first_dealer hands", "options"),
    buck_euchre.NAME: field_sets("game first_dealer hands", "players options"),
}


def evaluate_game(record: Mapping[str, object]) -> GameResult:
    """The result of a whole game record (complete or still in progress)."""
    name = game_name(record)
    check_fields(record, _GAME_FIELDS[name])
    players = int_field(record.get("players", buck_euchre.PLAYERS), "players")
    rules = game_rules(name, players, options_field(record.get("options", {})))
    tally = GameTally(rules, first_dealer=int_field(record["first_dealer"], "first_dealer"))
    hands = list_field(record["hands"], "hands")
    for index, hand_record in enumerate(hands):
        try:
            tally.add(hand_record)
        except RecordError as error:
            error.hand = index
            raise
    return tally.result()
