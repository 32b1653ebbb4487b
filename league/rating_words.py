"""A rating and its moves in the reader's language: the words of
:mod:`league.rating_explain`'s figures, and a rating with its uncertainty, for
the pages (and, in English, for the API's ``rating-games``).

Every number is the figure the chart draws, at one decimal, formatted for the
reader's locale (Czech writes 4,5), so the text and the chart never disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from django.utils import translation
from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.rating_explain import GameExplained, one_decimal

if TYPE_CHECKING:
    from league.selectors.ratings import RatedGame  # the layer below


def decimal(value: float) -> str:
    """``value`` at one decimal in the reader's locale (its decimal mark; ratings
    and margins need no grouping), never "-0.0". Cheaper than ``number_format``:
    a leaderboard words every row."""
    return f"{one_decimal(value):.1f}".replace(".", str(get_format("DECIMAL_SEPARATOR")))


def signed(value: float) -> str:
    """A change at one decimal with its sign: "+1.8", "-0.4", "0.0"."""
    shown = one_decimal(value)
    if shown > 0:
        # Translators: a rating's rise after a game, e.g. "+1.8"
        return _("+%(change)s") % {"change": decimal(shown)}
    return decimal(shown)


def rating_words(*, ordinal: float, sigma: float, games: int, settling: bool) -> str:
    """A rating as members read it: the number that orders the leaderboard
    (the board's figure: the estimate of the player's skill, held down while
    provisional), at one decimal as the chart draws it, the uncertainty (sigma)
    as ± and whether it is still ``settling`` (provisional), in words. The API
    keeps mu, sigma and the ordinal.

    >>> rating_words(ordinal=27.64, sigma=1.2, games=40, settling=False)
    'about 27.6, ± 1.2 — based on 40 games'
    >>> rating_words(ordinal=-3.4, sigma=7.44, games=1, settling=True)
    'about -3.4, ± 7.4 — still settling after 1 game'
    >>> rating_words(ordinal=-0.04, sigma=0.3, games=300, settling=False)
    'about 0.0, ± 0.3 — based on 300 games'
    """
    values = {"rating": decimal(ordinal), "sigma": decimal(sigma), "games": games}
    if settling:
        return (
            ngettext(
                "about %(rating)s, ± %(sigma)s — still settling after %(games)s game",
                "about %(rating)s, ± %(sigma)s — still settling after %(games)s games",
                games,
            )
            % values
        )
    return (
        ngettext(
            "about %(rating)s, ± %(sigma)s — based on %(games)s game",
            "about %(rating)s, ± %(sigma)s — based on %(games)s games",
            games,
        )
        % values
    )


def game_words(game: GameExplained) -> str:
    """Why one game moved the rating, in one sentence: what the player scored
    against the mean it was measured against (the league's, the club's for a
    club-wide rating, or the table's), what the model expected of them
    there, and the change of the rating.

    >>> from league.rating_explain import GameExplained
    >>> game = GameExplained(before=31.0, after=32.1, change=1.1, points=140.0, mean=100.0,
    ...                      expected_margin=12.0, margin=40.0, against="league", players=4,
    ...                      lower_is_better=False, held_down=0.0, settling=False)
    >>> game_words(game)
    "Scored 40.0 above the league's average at tables of 4; expected 12.0 above: +1.1."
    """
    values = {
        "margin": decimal(abs(game.margin)),
        "expected": decimal(abs(game.expected_margin)),
        "change": signed(game.change),
        "players": game.players,
    }
    above, hoped_above = game.margin >= 0, game.expected_margin >= 0
    if game.against == "league":
        if above and hoped_above:
            text = ngettext(
                "Scored %(margin)s above the league's average at tables of %(players)s; "
                "expected %(expected)s above: %(change)s.",
                "Scored %(margin)s above the league's average at tables of %(players)s; "
                "expected %(expected)s above: %(change)s.",
                game.players,
            )
        elif above:
            text = ngettext(
                "Scored %(margin)s above the league's average at tables of %(players)s; "
                "expected %(expected)s below: %(change)s.",
                "Scored %(margin)s above the league's average at tables of %(players)s; "
                "expected %(expected)s below: %(change)s.",
                game.players,
            )
        elif hoped_above:
            text = ngettext(
                "Scored %(margin)s below the league's average at tables of %(players)s; "
                "expected %(expected)s above: %(change)s.",
                "Scored %(margin)s below the league's average at tables of %(players)s; "
                "expected %(expected)s above: %(change)s.",
                game.players,
            )
        else:
            text = ngettext(
                "Scored %(margin)s below the league's average at tables of %(players)s; "
                "expected %(expected)s below: %(change)s.",
                "Scored %(margin)s below the league's average at tables of %(players)s; "
                "expected %(expected)s below: %(change)s.",
                game.players,
            )
    elif game.against == "club":
        if above and hoped_above:
            text = ngettext(
                "Scored %(margin)s above the club's average at tables of %(players)s; "
                "expected %(expected)s above: %(change)s.",
                "Scored %(margin)s above the club's average at tables of %(players)s; "
                "expected %(expected)s above: %(change)s.",
                game.players,
            )
        elif above:
            text = ngettext(
                "Scored %(margin)s above the club's average at tables of %(players)s; "
                "expected %(expected)s below: %(change)s.",
                "Scored %(margin)s above the club's average at tables of %(players)s; "
                "expected %(expected)s below: %(change)s.",
                game.players,
            )
        elif hoped_above:
            text = ngettext(
                "Scored %(margin)s below the club's average at tables of %(players)s; "
                "expected %(expected)s above: %(change)s.",
                "Scored %(margin)s below the club's average at tables of %(players)s; "
                "expected %(expected)s above: %(change)s.",
                game.players,
            )
        else:
            text = ngettext(
                "Scored %(margin)s below the club's average at tables of %(players)s; "
                "expected %(expected)s below: %(change)s.",
                "Scored %(margin)s below the club's average at tables of %(players)s; "
                "expected %(expected)s below: %(change)s.",
                game.players,
            )
    elif above and hoped_above:
        text = _(
            "Scored %(margin)s above the table's average; expected %(expected)s above: %(change)s."
        )
    elif above:
        text = _(
            "Scored %(margin)s above the table's average; expected %(expected)s below: %(change)s."
        )
    elif hoped_above:
        text = _(
            "Scored %(margin)s below the table's average; expected %(expected)s above: %(change)s."
        )
    else:
        text = _(
            "Scored %(margin)s below the table's average; expected %(expected)s below: %(change)s."
        )
    return text % values


def held_down_words(game: GameExplained) -> str:
    """Why a rating still settling stands below what the player showed, and why it
    can rise after a game below expectations: the skill estimate's own move, and
    the holding down by its uncertainty, which each game eases ("" when settled).

    >>> from league.rating_explain import GameExplained
    >>> game = GameExplained(before=-16.5, after=2.5, change=19.0, points=120.0, mean=95.0,
    ...                      expected_margin=0.0, margin=25.0, against="table", players=4,
    ...                      lower_is_better=False, held_down=27.1, settling=True,
    ...                      estimate_change=4.6, eased=14.4)
    >>> held_down_words(game)
    'Skill estimate +4.6; held down by 27.1 until it settles, 14.4 less than before.'
    """
    if not game.settling or game.held_down <= 0:
        return ""
    values = {
        "estimate": signed(game.estimate_change),
        "held": decimal(game.held_down),
        "eased": decimal(game.eased),
    }
    if game.eased > 0:
        # Translators: a settling rating's move split in two: the skill estimate's own
        # move, and how much less it is held down now that one more game made it surer
        return (
            _(
                "Skill estimate %(estimate)s; held down by %(held)s until it settles, "
                "%(eased)s less than before."
            )
            % values
        )
    return _("Skill estimate %(estimate)s; held down by %(held)s until it settles.") % values


class GameData(TypedDict):
    """One game of a player's rating as the API gives it (machine numbers)."""

    event: int
    event_name: str
    date: object
    table: int
    round: int
    table_number: int
    before: float | None
    after: float
    change: float | None
    against: str | None
    mean: float | None
    expected: float | None
    actual: float | None
    points: float | None
    held_down: float | None
    estimate_change: float | None
    words: str


def game_data(game: RatedGame) -> GameData:
    """A game of :func:`league.selectors.ratings.explain_games` for the API: its
    figures at one decimal as the pages show them, and the words in English
    (the API is not translated)."""
    row, explained = game.row, game.explained
    table = row.table
    event = table.round.event
    with translation.override("en-gb"):
        if explained is None:
            words = _("Explained once the league's ratings are next updated.")
        else:
            words = " ".join(filter(None, [game_words(explained), held_down_words(explained)]))
    return {
        "event": event.pk,
        "event_name": event.name,
        "date": event.date,
        "table": table.pk,
        "round": table.round.number,
        "table_number": table.number,
        "before": explained.before if explained else None,
        "after": explained.after if explained else one_decimal(row.ordinal),
        "change": explained.change if explained else None,
        "against": explained.against if explained else None,
        "mean": explained.mean if explained else None,
        "expected": explained.expected_margin if explained else None,
        "actual": explained.margin if explained else None,
        "points": explained.points if explained else None,
        "held_down": explained.held_down if explained else None,
        "estimate_change": explained.estimate_change if explained else None,
        "words": words,
    }
