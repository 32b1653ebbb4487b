"""What the night's pages make of the rounds read, with no query of their
own: the live standings (running totals counted, or the night's season
points), the current round and the tables still playing, a draw's preview
with its repeat meetings in words, the seating methods in a line, and a
night's replies as the Tonight page shows them. The reads are
:mod:`league.selectors.tonight`'s."""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from league import seating, standings
from league.models import Event, Game, Player, Reply, Round, Table
from league.season import SeasonFormat, SeasonJson
from league.selectors import replies as replies_selectors
from league.selectors.events import SeatLine, TableLines
from league.selectors.replies import ReplyLine
from league.selectors.tonight import RoundView
from league.services.replies import ReplyWindow, reply_window
from league.services.seating import Draw

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

# -- a draw's preview ----------------------------------------------------------------


@dataclass(frozen=True)
class PreviewTable:
    """A table of a preview: its number, players in seat order, first dealer."""

    number: int
    players: list[Player]
    first_dealer: Player


@dataclass(frozen=True)
class Preview:
    """A draw shown before it is stored: the tables, who sits out, and the
    repeat meetings in words: pairs who met earlier tonight (what players
    notice) apart from pairs who met only at earlier game nights."""

    draw: Draw
    tables: list[PreviewTable]
    sit_out: list[Player]
    repeats_tonight: list[str]
    repeats_before: list[str]
    replace: bool

    @property
    def round(self) -> Round:
        return self.draw.round


def preview(draw: Draw, *, rounds: Sequence[RoundView], replace: bool) -> Preview:
    """The draw in names, with its repeats in words: tonight's earlier rounds
    in which a pair met (from ``rounds``, already read) and how often they
    met at earlier game nights. No query."""
    names = draw.players
    tables = [
        PreviewTable(
            number=number,
            players=[names[pk] for pk in drawn.players],
            first_dealer=names[drawn.players[drawn.first_dealer]],
        )
        for number, drawn in enumerate(draw.seating.tables, start=1)
    ]
    met = _meetings_tonight(rounds, before=draw.round.number)
    tonight: list[str] = []
    before: list[str] = []
    for repeat in draw.seating.repeats:
        a, b = repeat.players
        rounds_met = met.get(frozenset((a, b)), [])
        words = _repeat_words(names[a], names[b], rounds_met, repeat)
        (tonight if rounds_met or repeat.tonight else before).append(words)
    return Preview(
        draw=draw,
        tables=tables,
        sit_out=[names[pk] for pk in draw.seating.sit_out],
        repeats_tonight=tonight,
        repeats_before=before,
        replace=replace,
    )


def _meetings_tonight(
    rounds: Sequence[RoundView], *, before: int
) -> dict[frozenset[int], list[int]]:
    """For each pair who shared a table in a round numbered below ``before``,
    the numbers of those rounds."""
    met: dict[frozenset[int], list[int]] = defaultdict(list)
    for view in rounds:
        if view.round.number >= before:
            continue
        for lines in view.tables:
            for a, b in combinations((seat.player.pk for seat in lines.seats), 2):
                met[frozenset((a, b))].append(view.round.number)
    return met


def _repeat_words(a: Player, b: Player, tonight: list[int], repeat: seating.Repeat[int]) -> str:
    """ "Ann and Bob met in round 1, and twice at earlier game nights."

    Each "when" is a phrase of its own ("in rounds 1 and 2", "twice at earlier
    game nights"); the sentence around them is one message, so that a
    language puts them where it needs."""
    parts = []
    if tonight:
        numbers = [str(n) for n in tonight]
        listed = (
            numbers[0]
            if len(numbers) == 1
            else _("%(numbers)s and %(last)s")
            % {"numbers": ", ".join(numbers[:-1]), "last": numbers[-1]}
        )
        parts.append(
            ngettext("in round %(rounds)s", "in rounds %(rounds)s", len(numbers))
            % {"rounds": listed}
        )
    elif repeat.tonight:
        parts.append(_("%(times)s earlier tonight") % {"times": _times(repeat.tonight)})
    if repeat.earlier_events == 1:
        parts.append(_("once at an earlier game night"))
    elif repeat.earlier_events:
        parts.append(
            _("%(times)s at earlier game nights") % {"times": _times(repeat.earlier_events)}
        )
    when = parts[0]
    if len(parts) > 1:
        # Translators: two phrases of when a pair met:
        # "in round 1, and twice at earlier game nights".
        when = _("%(first)s, and %(second)s") % {"first": parts[0], "second": parts[1]}
    # Translators: e.g. "Ann and Bob met in round 1, and twice at earlier game nights."
    return _("%(a)s and %(b)s met %(when)s.") % {"a": a.name, "b": b.name, "when": when}


def _times(count: int) -> str:
    if count == 1:
        return pgettext("how many times", "once")
    if count == 2:
        return pgettext("how many times", "twice")
    return ngettext("%(count)s time", "%(count)s times", count) % {"count": count}


METHOD_MEANINGS: Mapping[str, StrPromise] = {
    seating.Method.BALANCED: gettext_lazy("the fewest repeat meetings (the usual choice)"),
    seating.Method.RANDOM: gettext_lazy("a fair random draw; repeats are shown but not avoided"),
    seating.Method.SWISS: gettext_lazy(
        "players sit with those near them in tonight's standing, then the league's"
    ),
    seating.Method.RATING: gettext_lazy("players grouped strictly by the league's rating order"),
}
"""Each seating method in a line, in the order the draw form offers them."""

METHOD_NAMES: Mapping[str, StrPromise] = {
    seating.Method.BALANCED: pgettext_lazy("seating draw method", "balanced"),
    seating.Method.RANDOM: pgettext_lazy("seating draw method", "random"),
    seating.Method.SWISS: pgettext_lazy("seating draw method", "swiss"),
    seating.Method.RATING: pgettext_lazy("seating draw method", "rating"),
}
"""Each seating method's name in the page's language (the value posted stays
the method's own)."""


# -- the room screen -----------------------------------------------------------------


@dataclass
class LiveLine:
    """A player's night so far: games that count with their wins and places,
    and points counting the running totals of games still being played (or
    awaiting their players' confirmation); in a league with a season format,
    the night's season points from the places of the games that count."""

    player: Player
    games: int = 0
    wins: int = 0
    places: list[int] = field(default_factory=list)
    points: int = 0
    unfinished: int = 0
    season_points: Fraction = Fraction(0)

    @property
    def average_place(self) -> float | None:
        return sum(self.places) / len(self.places) if self.places else None


def live_standings(
    rounds: Sequence[RoundView], *, game: str, season: SeasonJson | None = None
) -> list[LiveLine]:
    """Everyone seated tonight, in the standings' order with the night's
    points, running totals of unfinished games counted, in place of the
    average (:func:`league.standings.rank_key`); with a season format
    (``season``, the league's), by the night's season points, then the average
    place, then wins, as the season's standings rank a night
    (:func:`league.season.season_key`; head to head aside). No query: the
    rounds are read already."""
    fmt = SeasonFormat.from_json(season) if season is not None else None
    lines: dict[int, LiveLine] = {}
    for view in rounds:
        for table_lines in view.tables:
            table = table_lines.table
            places = Counter(seat.place for seat in table_lines.seats)
            for seat in table_lines.seats:
                line = lines.setdefault(seat.player.pk, LiveLine(player=seat.player))
                _count(line, table, seat)
                if fmt is not None and table.counts and seat.place is not None:
                    line.season_points += fmt.seat_points(
                        size=len(table_lines.seats), place=seat.place, tied=places[seat.place]
                    )
    if fmt is not None:
        return sorted(
            lines.values(),
            key=lambda line: (
                -line.season_points,
                line.average_place is None,
                line.average_place or 0.0,
                -line.wins,
                line.player.name,
                line.player.pk,
            ),
        )
    bluke = game == Game.BLUKE
    return sorted(
        lines.values(),
        key=lambda line: standings.rank_key(
            wins=line.wins,
            average_place=line.average_place,
            points=line.points,  # the night's points, running totals counted
            games=line.games,
            name=line.player.name,
            player_id=line.player.pk,
            bluke=bluke,
        ),
    )


def _count(line: LiveLine, table: Table, seat: SeatLine) -> None:
    # a game awaiting its players' confirmation counts as one still being played
    if table.counts:
        line.games += 1
        line.points += seat.total or 0
        if seat.place is not None:
            line.places.append(seat.place)
            line.wins += seat.place == 1
    elif table.hands_played:
        line.unfinished += 1
        line.points += seat.total or 0


def current_round(rounds: Sequence[RoundView]) -> RoundView | None:
    """The latest round with tables (``None`` before the first draw)."""
    drawn = [view for view in rounds if view.drawn]
    return drawn[-1] if drawn else None


def still_playing(
    rounds: Sequence[RoundView], *, besides: RoundView | None
) -> list[tuple[Round, TableLines]]:
    """Tables of rounds other than ``besides`` whose game is not complete."""
    return [
        (view.round, lines)
        for view in rounds
        if view is not besides
        for lines in view.tables
        if not lines.table.complete
    ]


# -- the night's replies ---------------------------------------------------------------


@dataclass(frozen=True)
class RepliesPanel:
    """A night's replies as the Tonight page shows them: who is coming, not
    coming, has not answered (a player with a personal link), and the window."""

    coming: list[ReplyLine]
    not_coming: list[ReplyLine]
    no_answer: list[ReplyLine]
    window: ReplyWindow

    @property
    def asked(self) -> int:
        return len(self.coming) + len(self.not_coming) + len(self.no_answer)

    @property
    def waiting(self) -> list[ReplyLine]:
        """Coming, and not on the night's list yet: whom the button checks in."""
        return [line for line in self.coming if not line.on_list]

    @property
    def checked_in(self) -> int:
        """Of those asked, how many are checked in now."""
        return sum(line.checked_in for line in (*self.coming, *self.not_coming, *self.no_answer))


def replies_panel(*, event: Event, drawn: bool, now: datetime.datetime) -> RepliesPanel:
    """The night's replies (:func:`league.selectors.replies.event_replies`: one query),
    ``drawn`` saying whether a round of it has tables."""
    lines = replies_selectors.event_replies(event=event)
    return RepliesPanel(
        coming=[line for line in lines if line.answer == Reply.Answer.COMING],
        not_coming=[line for line in lines if line.answer == Reply.Answer.NOT_COMING],
        no_answer=[line for line in lines if line.answer is None],
        window=reply_window(event=event, league=event.league, drawn=drawn, now=now),
    )
