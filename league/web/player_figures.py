"""A player's figures of each game (:mod:`league.player_stats`) shaped for their page:
the sentences and the cells, with no query of their own. Each figure is defined in
``docs/web.md`` ("Player"); the page says the less obvious ones beside them."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from league.models import Game
from league.ordinals import ordinal
from league.player_stats import (
    HEAD_TO_HEAD_SHOWN,
    NEMESIS_MIN_GAMES,
    GamePlayed,
    GameStats,
    HeadToHead,
    Night,
)

MINUS = "\N{MINUS SIGN}"
NONE = "\N{EN DASH}"
"""What a cell shows where there is no figure."""


def share(part: int, whole: int) -> str:
    """A share as a whole percentage, as the standings show one; :data:`NONE` of nothing.

    >>> share(2, 3), share(0, 0) == NONE
    ('67 %', True)
    """
    # Translators: a share as a percentage, e.g. "67 %"
    return _("%(percent)s %%") % {"percent": round(100 * part / whole)} if whole else NONE


def _one_decimal(value: float) -> str:
    """``abs(value)`` at one decimal with the reader's decimal mark (Czech 4,5)."""
    return f"{abs(value):.1f}".replace(".", str(get_format("DECIMAL_SEPARATOR")))


def signed(value: float) -> str:
    """A difference to one decimal with its sign, a true minus sign for less.

    >>> signed(2.25), signed(-0.5) == f"{MINUS}0.5", signed(0.04)
    ('+2.2', True, '0.0')
    """
    if f"{abs(value):.1f}" == "0.0":
        return _one_decimal(0.0)
    shown = _one_decimal(value)
    return f"+{shown}" if value > 0 else f"{MINUS}{shown}"


def points_words(value: float, *, fewer_is_better: bool) -> str:
    """A points difference a game: signed in Bluke, where more is better; in Buck
    Euchre, which counts down, as "fewer" (better) or "more".

    >>> points_words(-2.5, fewer_is_better=True), points_words(1, fewer_is_better=True)
    ('2.5 fewer', '1.0 more')
    >>> points_words(2.5, fewer_is_better=False), points_words(0.01, fewer_is_better=True)
    ('+2.5', 'level')
    """
    if not fewer_is_better:
        return signed(value)
    if f"{abs(value):.1f}" == "0.0":
        # Translators: two players' points a game were the same (Buck Euchre)
        return pgettext("points a game", "level")
    if value < 0:
        # Translators: fewer points a game than the opponent (better in Buck Euchre)
        return _("%(points)s fewer") % {"points": _one_decimal(value)}
    return _("%(points)s more") % {"points": _one_decimal(value)}


@dataclass(frozen=True)
class Opposed:
    """One head-to-head row as the page shows it."""

    row: HeadToHead
    points: str


@dataclass(frozen=True)
class Mark:
    """One game of a night's form: the place, and a class saying how it went (the
    place's figure says it too, for whoever does not see the colour)."""

    game: GamePlayed
    kind: str
    words: str


@dataclass(frozen=True)
class FormNight:
    night: Night
    marks: list[Mark]


@dataclass(frozen=True)
class SizeRow:
    cards: int
    hands: int
    made: int
    share: str


@dataclass(frozen=True)
class Fact:
    """A figure of the game's own: what, how much, and a note saying how it is
    counted where that is not plain."""

    term: str
    value: str
    note: str = ""


@dataclass(frozen=True)
class Rated:
    """An opponent of the best win, with their rating before it, rounded as the
    leaderboard's words round a rating."""

    player_id: int
    name: str
    rating: str


@dataclass(frozen=True)
class GameFigures:
    """A game's section of the player's page."""

    stats: GameStats
    label: str
    fewer_is_better: bool
    opponents: list[Opposed]
    """The head-to-head rows shown: the first :data:`HEAD_TO_HEAD_SHOWN`, or all."""
    more_opponents: int
    """The rows not shown (a "show all" link leads to them)."""
    cut_back: bool
    """All rows are shown of more than the first few (a link leads back to those)."""
    form: list[FormNight]
    best_win_rating: str
    best_win_opponents: list[Rated]
    sizes: list[SizeRow]
    facts: list[Fact]

    @property
    def slug(self) -> str:
        return self.stats.game.replace("_", "-")

    @property
    def nemesis_min_games(self) -> int:
        return NEMESIS_MIN_GAMES

    @property
    def shown_first(self) -> int:
        return HEAD_TO_HEAD_SHOWN


def game_figures(stats: GameStats, *, all_opponents: bool) -> GameFigures:
    """The section of one game: its head-to-head rows cut to the first ten unless
    ``all_opponents``, each figure in words."""
    fewer = stats.game == Game.BUCK_EUCHRE
    rows = stats.head_to_head if all_opponents else stats.head_to_head[:HEAD_TO_HEAD_SHOWN]
    best = stats.best_win
    bluke = stats.bluke
    return GameFigures(
        stats=stats,
        label=str(Game(stats.game).label),
        fewer_is_better=fewer,
        opponents=[
            Opposed(row=row, points=points_words(row.points_a_game, fewer_is_better=fewer))
            for row in rows
        ],
        more_opponents=len(stats.head_to_head) - len(rows),
        cut_back=all_opponents and len(rows) > HEAD_TO_HEAD_SHOWN,
        form=[
            FormNight(night=night, marks=[_mark(g) for g in night.games]) for night in stats.form
        ],
        best_win_rating=str(round(best.strength)) if best is not None else "",
        best_win_opponents=[
            Rated(player_id=o.player_id, name=o.name, rating=str(round(o.rating)))
            for o in (best.opponents if best is not None else ())
        ],
        sizes=[
            SizeRow(
                cards=size.cards,
                hands=size.hands,
                made=size.made,
                share=share(size.made, size.hands),
            )
            for size in (bluke.by_size if bluke is not None else ())
        ],
        facts=_facts(stats),
    )


def _facts(stats: GameStats) -> list[Fact]:
    """The game's own figures in words."""
    bluke, buck = stats.bluke, stats.buck
    if bluke is not None:
        made = bluke.bids_made
        over: dict[str, object] = {"over": bluke.overtricks, "made": made}
        if made:
            over["each"] = f"{bluke.overtricks / made:.2f}".replace(
                ".", str(get_format("DECIMAL_SEPARATOR"))
            )
            overtricks = ngettext(
                "%(over)s in %(made)s bid made (%(each)s a bid made)",
                "%(over)s in %(made)s bids made (%(each)s a bid made)",
                made,
            )
        else:
            overtricks = _("%(over)s in %(made)s bids made")
        return [
            Fact(
                _("Bids made"),
                ngettext(
                    "%(made)s of %(hands)s hand (%(share)s)",
                    "%(made)s of %(hands)s hands (%(share)s)",
                    bluke.hands,
                )
                % {"made": made, "hands": bluke.hands, "share": share(made, bluke.hands)},
            ),
            Fact(
                _("Overtricks"),
                overtricks % over,
                _("tricks taken over the bid, in the hands whose bid was made"),
            ),
        ]
    if buck is None:
        return []
    return [
        Fact(
            _("Made trump"),
            ngettext(
                "%(maker)s of %(hands)s hand; took 3 tricks or more in %(made)s (%(share)s)",
                "%(maker)s of %(hands)s hands; took 3 tricks or more in %(made)s (%(share)s)",
                buck.hands,
            )
            % {
                "maker": buck.maker,
                "hands": buck.hands,
                "made": buck.maker_made,
                "share": share(buck.maker_made, buck.maker),
            },
        ),
        Fact(
            _("Bucked as maker"),
            str(buck.bucked_as_maker),
            _("made trump and took fewer than 3"),
        ),
        Fact(
            _("Bucked as another player"),
            str(buck.bucked_as_player),
            _("stayed in without making trump and took no trick"),
        ),
        Fact(
            _("Dropped out"),
            ngettext(
                "%(drops)s of %(hands)s hand (%(share)s)",
                "%(drops)s of %(hands)s hands (%(share)s)",
                buck.hands,
            )
            % {"drops": buck.drops, "hands": buck.hands, "share": share(buck.drops, buck.hands)},
        ),
        Fact(
            _("Drops that were right"),
            _("%(right)s of %(judged)s judged (%(share)s)")
            % {
                "right": buck.drops_right,
                "judged": buck.drops_judged,
                "share": share(buck.drops_right, buck.drops_judged),
            }
            if buck.drops_judged
            else _("none judged yet"),
            _(
                "judged from hands entered card by card: right when their cards, set against "
                "the tricks as they were played, would have taken no trick (staying in, they "
                "would have been bucked); the others would have played differently with them "
                "in, so this is a guide"
            ),
        ),
    ]


def _mark(game: GamePlayed) -> Mark:
    kind = "win" if game.won else "top" if game.top_half else "low"
    words = _("%(place)s of %(players)s") % {"place": ordinal(game.place), "players": game.players}
    return Mark(game=game, kind=kind, words=words)
