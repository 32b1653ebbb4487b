"""The pages' words for the rules engine's refusals.

Every engine error carries data (docs/records.md): a stable ``code`` and,
where known, the ``hand``, ``play``, ``seat`` and ``card`` at fault. Its
``message`` is English for the API and the command line; the pages never
read it, so rewording it can neither break a page nor garble one. Instead
:func:`engine_message` picks a template from :data:`TEMPLATES` by the code
and by what the error's fields and the form's own entries say, and fills it
in the page's words: players by name, hands counted from 1 as the score
sheet counts them, cards drawn as the sheet draws them.

The template keys are ``"<code>"``, a sentence true in every case the code
covers (it needs no data), and ``"<code>.<situation>"``, a sharper sentence
for a situation told apart by the error's fields and the entries (a bid out
of range, tricks that do not add up). A code the table does not know yet
still gets a plain sentence (:data:`UNKNOWN_CODE`).

A league's rule options refused at a table size the league seats are worded
the same way, from the refusal's data (:func:`option_message`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, ngettext_lazy

import games
from league.models import Game
from league.services import fixtures
from league.web.sheet import card_label, suit_label

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

# Translators: the sentences below fill in {name} (a player), {card} (a card as
# the sheet draws it, "A♠"), {cards} and {bid} (numbers), {took_tricks} and
# {cards_dealt} ("2 tricks", "5 cards", already translated), {trump} (a suit).
TEMPLATES: Final[Mapping[str, StrPromise]] = {
    # -- what result entry can meet: bids, tricks, drops, the maker ----------------
    "bad_bid": gettext_lazy(
        "Check the bids: each player bids once, a number from 1 to the cards dealt."
    ),
    "bad_bid.seat": gettext_lazy(
        "Check {name}'s bid: each player bids once, a number from 1 to the cards dealt."
    ),
    "bad_bid.out_of_range": gettext_lazy(
        "{name}'s bid of {bid} is out of range: bids run from 1 to {cards}."
    ),
    "bad_tricks": gettext_lazy(
        "Check the tricks: enter each player's tricks; together they make up the tricks played."
    ),
    "bad_tricks.seat": gettext_lazy(
        "Check the tricks {name} took: no more than the cards dealt, and none after dropping out."
    ),
    "bad_tricks.out_of_range": gettext_lazy(
        "{name}'s {took} tricks are out of range: a player takes from 0 to {cards}."
    ),
    "bad_tricks.dropped": gettext_lazy(
        "{name} dropped out but took {took_tricks}: a player who drops out takes none."
    ),
    "bad_tricks.total": gettext_lazy("The tricks add up to {total}, not the {cards_dealt} dealt."),
    "bad_tricks.total_in_play": gettext_lazy(
        "The tricks add up to {total}, not {cards}: the players still in take all {cards} "
        "between them."
    ),
    "bad_drop": gettext_lazy(
        "Check who dropped out: the maker never drops, nor does anyone when a club was turned up."
    ),
    "bad_drop.seat": gettext_lazy(
        "Check whether {name} dropped out: the maker never drops, nor does anyone when a club "
        "was turned up."
    ),
    "bad_drop.maker": gettext_lazy("{name} is the maker and cannot drop out."),
    "bad_drop.club_turned": gettext_lazy(
        "{name} cannot drop out: a club was turned up, so everyone plays."
    ),
    "bad_call": gettext_lazy(
        "Check trump and the maker: there is a maker exactly when someone ordered up or named "
        "trump."
    ),
    "bad_call.seat": gettext_lazy(
        "Check {name}'s call: there is a maker exactly when someone ordered up or named trump."
    ),
    "bad_call.maker_without_trump": gettext_lazy(
        "{name} cannot be the maker of a hand with no trump."
    ),
    "bad_call.no_maker": gettext_lazy(
        "Trump is {trump} but nobody made it: only a turned-up club makes trump without a maker."
    ),
    "game_over": gettext_lazy("The game was already over."),
    "game_over.after_hand": gettext_lazy("The game was already over after hand {previous_hand}."),
    # -- what only a hand sent card by card can meet (a later hand of a correction) --
    "not_in_hand": gettext_lazy("A card is played by a player who does not hold it."),
    "not_in_hand.seat": gettext_lazy("{name} does not hold {card}."),
    "must_follow_suit": gettext_lazy(
        "A card is played that does not follow suit, though its player could."
    ),
    "must_follow_suit.seat": gettext_lazy("{name} played {card} but could follow suit."),
    "wrong_number_of_plays": gettext_lazy("The number of cards played does not fit the hand."),
    "wrong_number_of_plays.extra": gettext_lazy(
        "The hand has no place for play {play} or any after it."
    ),
    "wrong_number_of_plays.short": gettext_lazy(
        "The plays stop before the hand is finished: {name} is to play next."
    ),
    "bad_card": gettext_lazy("Something that is not a card of this game's deck is in the hand."),
    "bad_card.card": gettext_lazy("{card} is not a card of this game's deck."),
    "bad_card.seat": gettext_lazy(
        "{name} was dealt something that is not a card of this game's deck."
    ),
    "duplicate_card": gettext_lazy("A card is dealt twice, or dealt and turned up."),
    "duplicate_card.card": gettext_lazy("{card} is dealt twice, or dealt and turned up."),
    "bad_deal": gettext_lazy(
        "The deal does not fit the game: the wrong number of players or of cards."
    ),
    "bad_deal.seat": gettext_lazy(
        "The cards dealt to {name} do not fit the game: every player is dealt the hand's "
        "number of cards."
    ),
    "bad_discard": gettext_lazy(
        "Check the dealer's discard: the dealer discards a card held, exactly when someone "
        "ordered up."
    ),
    "bad_discard.seat": gettext_lazy(
        "Check the discard of {name}, the dealer: the dealer discards a card held, exactly when "
        "someone ordered up."
    ),
    # -- what no form can put right -------------------------------------------------
    "too_large": gettext_lazy("The hand is too large for the rules engine to check."),
    "invalid": gettext_lazy(
        "The hand is not in a shape the rules engine reads: a field is missing, unknown or of "
        "the wrong kind."
    ),
}
"""The page's sentence for each engine refusal, by ``code`` or
``code.situation``; placeholders are filled by :func:`engine_message`."""

UNKNOWN_CODE: Final = gettext_lazy("The rules do not allow this hand ({description}).")
"""For a code newer than :data:`TEMPLATES`: the code itself, in words."""

LATER_HAND: Final = gettext_lazy("With this change, hand {hand} no longer fits. {reason}")
"""A correction that a later hand of the game no longer fits (``hand``
counted from 1); ``reason`` is that hand's refusal."""


@dataclass(frozen=True)
class EnteredHand:
    """What the scorekeeper entered for the hand an error is about.

    Lists are by seat, ``None`` where an entry is missing or not a whole
    number (an empty list: the form has no such entries). ``trump`` is the
    suit chosen, ``no_trump`` whether "no trump" was; neither when trump was
    not chosen (the refusal then says nothing of trump).
    """

    bids: Sequence[int | None] = ()
    tricks: Sequence[int | None] = ()
    trump: games.Suit | None = None
    no_trump: bool = False
    maker: int | None = None
    drops: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True)
class HandFacts:
    """What the page knows of the hand an engine error is about.

    ``names`` are the players' names by seat; ``cards`` the cards dealt to
    each seat, and ``entered`` the form's entries, when the error is about
    the hand on the form (``None`` for another hand, such as a later hand a
    correction no longer fits).
    """

    game: str
    names: Sequence[str]
    cards: int | None = None
    entered: EnteredHand | None = None


def engine_message(error: games.RecordError, facts: HandFacts) -> str:
    """The page's sentence for ``error``, built from its fields and ``facts``
    (never from ``error.message``): always a whole sentence, whatever the
    code or the fields."""
    refusal = _Refusal(error, facts)
    template = TEMPLATES.get(_situation(refusal))
    if template is not None:
        try:
            return template.format_map(refusal.values())
        except KeyError:
            # A situation whose data is missing (a chooser's slip) still gets
            # the code's own sentence, which needs none: a page must not fail
            # over a message.
            pass
    general = TEMPLATES.get(error.code)
    if general is not None:
        return str(general)
    return UNKNOWN_CODE.format(description=error.code.replace("_", " "))


def later_hand_message(error: games.RecordError, *, game: str, names: Sequence[str]) -> str:
    """The sentence for a correction that a later hand, ``error.hand``
    (counted from 0; it must be set), no longer fits. Of that hand the page
    knows only its players: the reason says what the error's fields say."""
    assert error.hand is not None
    reason = engine_message(error, HandFacts(game=game, names=names))
    return LATER_HAND.format(hand=error.hand + 1, reason=reason)


def situation_key(error: games.RecordError, facts: HandFacts) -> str:
    """The :data:`TEMPLATES` key that :func:`engine_message` chooses for
    ``error`` (a code the table does not know is its own key)."""
    return _situation(_Refusal(error, facts))


# -- telling situations apart --------------------------------------------------------
#
# Each chooser returns a TEMPLATES key: a sharper situation only when the
# error's fields and the entries show it (and supply its placeholders),
# otherwise the code's own sentence, which is true whatever the engine meant.


class _Refusal:
    """An engine error with what the page knows of its hand: the fields to
    choose a situation by and the values to fill its template with."""

    def __init__(self, error: games.RecordError, facts: HandFacts) -> None:
        self.error = error
        self.facts = facts
        self.entered = facts.entered if facts.entered is not None else EnteredHand()
        seat = error.seat
        # A seat the page has no player for is reported as no seat at all.
        self.seat = seat if seat is not None and 0 <= seat < len(facts.names) else None

    @property
    def bluke(self) -> bool:
        return self.facts.game == Game.BLUKE

    def bid(self) -> int | None:
        return _at(self.entered.bids, self.seat)

    def took(self) -> int | None:
        return _at(self.entered.tricks, self.seat)

    def total(self) -> int | None:
        """The tricks entered, added up; ``None`` unless every seat's are there."""
        tricks = self.entered.tricks
        if len(tricks) != len(self.facts.names) or any(took is None for took in tricks):
            return None
        return sum(took for took in tricks if took is not None)

    def values(self) -> dict[str, object]:
        """Every placeholder this refusal can fill; the ones it cannot are left
        out, so that a template needing them is never half filled."""
        error, entered = self.error, self.entered
        values: dict[str, object] = {
            "name": None if self.seat is None else self.facts.names[self.seat],
            "card": None if error.card is None else _card_words(error.card),
            "play": None if error.play is None else error.play + 1,
            # The hand before this one, counted from 1, is this one's index.
            "previous_hand": error.hand if error.hand else None,
            "cards": self.facts.cards,
            "cards_dealt": _cards(self.facts.cards),
            "bid": self.bid(),
            "took": self.took(),
            "took_tricks": _tricks(self.took()),
            "total": self.total(),
            "trump": None if entered.trump is None else suit_label(entered.trump).word,
        }
        return {key: value for key, value in values.items() if value is not None}


def _at(values: Sequence[int | None], seat: int | None) -> int | None:
    return values[seat] if seat is not None and seat < len(values) else None


def _cards(number: int | None) -> str | None:
    """``1 card``, ``5 cards``; ``None`` for an unknown number."""
    if number is None:
        return None
    return ngettext("%(count)s card", "%(count)s cards", number) % {"count": number}


def _tricks(number: int | None) -> str | None:
    """``1 trick``, ``2 tricks``; ``None`` for an unknown number."""
    if number is None:
        return None
    return ngettext("%(count)s trick", "%(count)s tricks", number) % {"count": number}


def _card_words(code: str) -> str:
    """A card as the sheet draws it (``A♠``), or the text given, quoted,
    when it is no card at all."""
    found = games.Card.parse(code)
    if found is not None:
        return card_label(found).text
    # Translators: something typed where a card was expected, quoted as your language quotes.
    return _("“%(text)s”") % {"text": code}


def _bad_bid(refusal: _Refusal) -> str:
    if refusal.seat is None:
        return "bad_bid"
    bid, cards = refusal.bid(), refusal.facts.cards
    if bid is not None and cards is not None and not 1 <= bid <= cards:
        return "bad_bid.out_of_range"
    return "bad_bid.seat"


def _bad_tricks(refusal: _Refusal) -> str:
    cards = refusal.facts.cards
    if refusal.seat is not None:
        took = refusal.took()
        if took is None:
            return "bad_tricks.seat"
        if cards is not None and not 0 <= took <= cards:
            return "bad_tricks.out_of_range"
        if took and refusal.seat in refusal.entered.drops:
            return "bad_tricks.dropped"
        return "bad_tricks.seat"
    total = refusal.total()
    if total is None or cards is None:
        return "bad_tricks"
    if refusal.bluke:
        return "bad_tricks.total" if total != cards else "bad_tricks"
    # In Buck Euchre the players still in take all the tricks. When everyone
    # dropped out, a total other than 0 means a dropped player took tricks,
    # which the engine reports by that seat: no sum sentence is needed.
    if len(refusal.entered.drops) < len(refusal.facts.names) and total != cards:
        return "bad_tricks.total_in_play"
    return "bad_tricks"


def _bad_drop(refusal: _Refusal) -> str:
    if refusal.seat is None:
        return "bad_drop"
    entered = refusal.entered
    if entered.maker == refusal.seat:
        return "bad_drop.maker"
    if entered.trump is games.Suit.CLUBS and entered.maker is None:
        return "bad_drop.club_turned"
    return "bad_drop.seat"


def _bad_call(refusal: _Refusal) -> str:
    entered = refusal.entered
    if refusal.seat is not None:
        if entered.no_trump and entered.maker == refusal.seat:
            return "bad_call.maker_without_trump"
        return "bad_call.seat"
    if entered.trump not in (None, games.Suit.CLUBS) and entered.maker is None:
        return "bad_call.no_maker"
    return "bad_call"


def _game_over(refusal: _Refusal) -> str:
    return "game_over.after_hand" if refusal.error.hand else "game_over"


def _wrong_number_of_plays(refusal: _Refusal) -> str:
    if refusal.error.play is not None:
        return "wrong_number_of_plays.extra"
    if refusal.seat is not None:
        return "wrong_number_of_plays.short"
    return "wrong_number_of_plays"


def _by_seat_and_card(code: str) -> Callable[[_Refusal], str]:
    """A code whose sharper sentence names the seat and the card."""

    def choose(refusal: _Refusal) -> str:
        both = refusal.seat is not None and refusal.error.card is not None
        return f"{code}.seat" if both else code

    return choose


def _bad_card(refusal: _Refusal) -> str:
    # The card when it is known (dealt, turned up or played); a seat alone
    # is a seat dealt something that is not a card.
    if refusal.error.card is not None:
        return "bad_card.card"
    return "bad_card.seat" if refusal.seat is not None else "bad_card"


def _duplicate_card(refusal: _Refusal) -> str:
    return "duplicate_card.card" if refusal.error.card is not None else "duplicate_card"


def _by_seat(code: str) -> Callable[[_Refusal], str]:
    """A code whose sharper sentence names the seat."""
    return lambda refusal: f"{code}.seat" if refusal.seat is not None else code


_SITUATIONS: Final[Mapping[str, Callable[[_Refusal], str]]] = {
    "bad_bid": _bad_bid,
    "bad_tricks": _bad_tricks,
    "bad_drop": _bad_drop,
    "bad_call": _bad_call,
    "game_over": _game_over,
    "wrong_number_of_plays": _wrong_number_of_plays,
    "not_in_hand": _by_seat_and_card("not_in_hand"),
    "must_follow_suit": _by_seat_and_card("must_follow_suit"),
    "bad_card": _bad_card,
    "duplicate_card": _duplicate_card,
    "bad_deal": _by_seat("bad_deal"),
    "bad_discard": _by_seat("bad_discard"),
}
"""How each code's situations are told apart; a code not here has one sentence."""


def _situation(refusal: _Refusal) -> str:
    chooser = _SITUATIONS.get(refusal.error.code)
    return chooser(refusal) if chooser is not None else refusal.error.code


# -- a league's rule options, refused at a table size it seats ------------------------


# The sentences of a league's options refused at a table size, whole sentences each
# (the reason in brackets changes the word order around it in other languages):
# by why a table of that size is drawn (plain, drawn already, drawn by a round's
# number of players) and whether the rule options are fixed. Counted by the cards.
_FEWER_THAN_LARGEST: Final = {
    ("plain", False): ngettext_lazy(
        "With %(players)s at a table, at most %(limit)s card can be dealt, "
        "fewer than this league's largest hand of %(value)s.",
        "With %(players)s at a table, at most %(limit)s cards can be dealt, "
        "fewer than this league's largest hand of %(value)s.",
        "limit",
    ),
    ("plain", True): ngettext_lazy(
        "With %(players)s at a table, at most %(limit)s card can be dealt, "
        "fewer than this league's largest hand of %(value)s "
        "(its rule options are fixed once hands are played).",
        "With %(players)s at a table, at most %(limit)s cards can be dealt, "
        "fewer than this league's largest hand of %(value)s "
        "(its rule options are fixed once hands are played).",
        "limit",
    ),
    ("drawn", False): ngettext_lazy(
        "With %(players)s at a table (a table of %(players)s is drawn already), "
        "at most %(limit)s card can be dealt, fewer than this league's largest hand of %(value)s.",
        "With %(players)s at a table (a table of %(players)s is drawn already), "
        "at most %(limit)s cards can be dealt, fewer than this league's largest hand of "
        "%(value)s.",
        "limit",
    ),
    ("drawn", True): ngettext_lazy(
        "With %(players)s at a table (a table of %(players)s is drawn already), "
        "at most %(limit)s card can be dealt, fewer than this league's largest hand of %(value)s "
        "(its rule options are fixed once hands are played).",
        "With %(players)s at a table (a table of %(players)s is drawn already), "
        "at most %(limit)s cards can be dealt, fewer than this league's largest hand of "
        "%(value)s (its rule options are fixed once hands are played).",
        "limit",
    ),
    ("round", False): ngettext_lazy(
        "With %(players)s at a table (a round of %(present)s players draws one, even with "
        "tables of %(size)s by preference), at most %(limit)s card can be dealt, fewer than "
        "this league's largest hand of %(value)s.",
        "With %(players)s at a table (a round of %(present)s players draws one, even with "
        "tables of %(size)s by preference), at most %(limit)s cards can be dealt, fewer than "
        "this league's largest hand of %(value)s.",
        "limit",
    ),
    ("round", True): ngettext_lazy(
        "With %(players)s at a table (a round of %(present)s players draws one, even with "
        "tables of %(size)s by preference), at most %(limit)s card can be dealt, fewer than "
        "this league's largest hand of %(value)s (its rule options are fixed once hands are "
        "played).",
        "With %(players)s at a table (a round of %(present)s players draws one, even with "
        "tables of %(size)s by preference), at most %(limit)s cards can be dealt, fewer than "
        "this league's largest hand of %(value)s (its rule options are fixed once hands are "
        "played).",
        "limit",
    ),
}
_CHOOSE: Final = {
    (True, True): gettext_lazy(
        "Choose a preferred table size of %(fits_at)s or a largest hand of %(limit)s or "
        "fewer first."
    ),
    (True, False): gettext_lazy("Choose a preferred table size of %(fits_at)s."),
    (False, True): gettext_lazy("Choose a largest hand of %(limit)s or fewer first."),
}
"""What the organiser may change: by (a table size fits, the options may change)."""
_AT_MOST: Final = {
    "plain": ngettext_lazy(
        "With %(players)s at a table, at most %(limit)s card can be dealt: "
        "choose %(limit)s or fewer, or leave it empty for the full game.",
        "With %(players)s at a table, at most %(limit)s cards can be dealt: "
        "choose %(limit)s or fewer, or leave it empty for the full game.",
        "limit",
    ),
    "drawn": ngettext_lazy(
        "With %(players)s at a table (a table of %(players)s is drawn already), at most "
        "%(limit)s card can be dealt: choose %(limit)s or fewer, or leave it empty for the "
        "full game.",
        "With %(players)s at a table (a table of %(players)s is drawn already), at most "
        "%(limit)s cards can be dealt: choose %(limit)s or fewer, or leave it empty for the "
        "full game.",
        "limit",
    ),
    "round": ngettext_lazy(
        "With %(players)s at a table (a round of %(present)s players draws one, even with "
        "tables of %(size)s by preference), at most %(limit)s card can be dealt: choose "
        "%(limit)s or fewer, or leave it empty for the full game.",
        "With %(players)s at a table (a round of %(present)s players draws one, even with "
        "tables of %(size)s by preference), at most %(limit)s cards can be dealt: choose "
        "%(limit)s or fewer, or leave it empty for the full game.",
        "limit",
    ),
}


def option_message(
    error: fixtures.OptionsRefused, *, table_size: int, options_fixed: bool = False
) -> str:
    """The page's sentence for a league's option (or table size) refused at a
    table size the league seats, from the refusal's data (never its
    ``message``, except for an option no page offers: an unknown one).
    ``table_size`` is the preferred size the organiser chose; ``options_fixed``
    whether hands are played, so that only the table size can give."""
    if error.code == fixtures.OPTION_INVALID:
        if error.option == "max_cards" and error.limit is not None:
            return _(
                "The largest hand is at least 1 card: choose 1 to %(limit)s, "
                "or leave it empty for the full game."
            ) % {"limit": error.limit}
        return sentence(error.message)
    players, limit, value = error.players, error.limit, error.value
    if players is None or limit is None:  # no size named: the service's words
        return sentence(error.message)
    why = "plain"
    if error.present is None:
        why = "drawn"
    elif players > table_size:
        why = "round"
    facts = {
        "players": players,
        "limit": limit,
        "value": value,
        "present": error.present,
        "size": table_size,
        "fits_at": error.fits_at,
    }
    if error.code == fixtures.TABLE_SIZE_OPTIONS:
        first = _FEWER_THAN_LARGEST[(why, options_fixed)] % facts
        ways = (error.fits_at is not None, not options_fixed)
        return f"{first} {_CHOOSE[ways] % facts}" if any(ways) else first
    also = (
        " " + _("A preferred table size of %(fits_at)s would take %(value)s.") % facts
        if error.fits_at is not None
        else ""
    )
    return f"{_AT_MOST[why] % facts}{also}"


def sentence(message: str) -> str:
    """A service's message as a sentence of the page: capital first, full stop last."""
    message = message.strip()
    if not message:
        return message
    message = message[0].upper() + message[1:]
    return message if message.endswith((".", "!", "?")) else f"{message}."
