"""The score sheet as the page shows it: players by seat, a row a hand in
the sheet's words, cards and suits as labels.

The reads are :mod:`league.selectors.tables`' (:func:`~league.selectors.tables.score_sheet`);
this module only shapes them for the page, and describes suits and cards
from the engine's public :class:`games.Suit` and :class:`games.Card`.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

import games
from league import card_names
from league.models import AuditEntry, Confirmation, Game, Hand, Table
from league.ordinals import ordinal
from league.selectors import tables as tables_selectors

# -- suits and cards -------------------------------------------------------------

_SUIT_CHOICE_WORDS: Final = {
    games.Suit.CLUBS: pgettext_lazy("card suit, in a list", "Clubs"),
    games.Suit.DIAMONDS: pgettext_lazy("card suit, in a list", "Diamonds"),
    games.Suit.HEARTS: pgettext_lazy("card suit, in a list", "Hearts"),
    games.Suit.SPADES: pgettext_lazy("card suit, in a list", "Spades"),
}


@dataclass(frozen=True)
class SuitLabel:
    """A suit as the pages show it: ``♠`` for the eye, ``spades`` for screen readers."""

    code: str
    symbol: str
    word: str
    red: bool

    @property
    def choice(self) -> str:
        """The suit in a list to choose from: ``♠ Spades``."""
        return f"{self.symbol} {_SUIT_CHOICE_WORDS[games.Suit(self.code)]}"


def suit_label(suit: games.Suit | str) -> SuitLabel:
    """The label of a suit, given as the engine's suit or its one-letter code,
    in the language of the request."""
    suit = games.Suit(suit)
    return SuitLabel(
        code=suit.value,
        symbol=card_names.SUIT_SYMBOLS[suit.value],
        word=card_names.suit_name(suit.value),
        red=suit.is_red,
    )


SUIT_CHOICES: Final = [
    (
        suit.value,
        format_lazy("{} {}", card_names.SUIT_SYMBOLS[suit.value], _SUIT_CHOICE_WORDS[suit]),
    )
    for suit in games.Suit
]
"""The four suits as form choices, in the engine's order; lazy, so that each
request lists them in its own language."""


@dataclass(frozen=True)
class CardLabel:
    """A card as the sheet shows it: ``A♠``, ``10♥``, ``Hi Bluke``; ``words``
    spells it out for screen readers (``ace of spades``)."""

    text: str
    words: str
    red: bool


_RANK_LETTERS: Final = {11: "J", 12: "Q", 13: "K", 14: "A"}
"""Court cards and aces by the engine's rank, by the letters printed on them;
other suited ranks are shown as numbers."""


def card_label(card: games.Card) -> CardLabel:
    """The card as the sheet shows it, its words each card's own message
    (:func:`league.card_names.card_name`: Czech and Ukrainian decline a rank
    by its suit, so a card's name is not a rank's word beside a suit's)."""
    words = card_names.card_name(card)
    if card.suit is None:  # a Bluke: its code tells which one
        return CardLabel(text=words, words=words, red=False)
    suit = suit_label(card.suit)
    shown = _RANK_LETTERS.get(card.rank, str(card.rank))
    return CardLabel(text=f"{shown}{suit.symbol}", words=words, red=suit.red)


# -- the sheet -------------------------------------------------------------------


@dataclass(frozen=True)
class BuckPenalty:
    """A Buck Euchre penalty as the sheet writes it: ``euchred +5``."""

    reason: str
    """``euchred`` (the maker took fewer than 3 tricks) or ``bucked`` (anyone else
    still in took none)."""
    points: int

    @property
    def word(self) -> str:
        """The reason in the page's language (``reason`` stays the code)."""
        if self.reason == "euchred":
            return pgettext("Buck Euchre penalty", "euchred")
        return pgettext("Buck Euchre penalty", "bucked")

    def __str__(self) -> str:
        # Translators: a Buck Euchre penalty on the sheet, e.g. "euchred +5".
        return pgettext("Buck Euchre penalty", "%(reason)s +%(points)s") % {
            "reason": self.word,
            "points": self.points,
        }


def buck_penalty(*, points: int, tricks: int, dropped: bool, maker: bool) -> BuckPenalty | None:
    """The penalty a Buck Euchre hand added to a seat, read from what it scored:
    a seat still in loses a point a trick, so anything above ``-tricks`` is the
    penalty (+5, docs/rules.md). A maker's is "euchred", anyone else's "bucked";
    a seat that dropped has none. The stored points tell, as they tell a made bid
    in Bluke: a hand keeps the score it was given.

    >>> str(buck_penalty(points=3, tricks=2, dropped=False, maker=True))
    'euchred +5'
    >>> str(buck_penalty(points=5, tricks=0, dropped=False, maker=False))
    'bucked +5'
    >>> buck_penalty(points=-3, tricks=3, dropped=False, maker=True) is None
    True
    >>> buck_penalty(points=0, tricks=0, dropped=True, maker=False) is None
    True
    """
    added = points + tricks
    if dropped or added <= 0:
        return None
    return BuckPenalty(reason="euchred" if maker else "bucked", points=added)


@dataclass(frozen=True)
class SheetLine:
    """One seat's cells in one hand's row."""

    bid: int | None
    tricks: int
    total: int
    dropped: bool
    maker: bool
    made: bool | None
    """Bluke: whether the bid was made; ``None`` in Buck Euchre."""
    penalty: BuckPenalty | None = None
    """Buck Euchre: the penalty the hand added to this seat's score, if any."""


@dataclass(frozen=True)
class SheetPlay:
    player: str
    card: CardLabel


@dataclass(frozen=True)
class SheetTrick:
    number: int
    """From 1, as players count tricks."""
    leader: str
    plays: list[SheetPlay]
    winner: str


@dataclass(frozen=True)
class SheetHand:
    """One row of the score sheet, with the hand card by card when it was
    submitted as a move log."""

    number: int
    """As stored (from 0): the hand's URLs and anchor use it."""
    cards: int
    dealer: str
    dealer_short: str
    trump: SuitLabel | None
    call: str | None
    """Buck Euchre: who made trump, in the sheet's words; ``None`` in Bluke."""
    drops: list[str]
    takes_all: str | None
    is_move_log: bool
    lines: list[SheetLine]
    turn_up: CardLabel | None
    tricks: list[SheetTrick] | None
    """``None`` for results only, or a stored move log the engine no longer replays."""
    correct_url: str | None = None
    """Where the viewer corrects this hand; ``None`` for a viewer who may not."""

    @property
    def shown_number(self) -> int:
        """From 1, as a paper score sheet counts hands."""
        return self.number + 1


@dataclass(frozen=True)
class SheetPlayer:
    """A column of the sheet: the seat's player and where they stand."""

    player_id: int
    name: str
    short: str
    """The column's heading on a phone (see :func:`short_names`); the key above
    the sheet spells each one out."""
    total: int
    place: int | None
    winner: bool

    @property
    def place_text(self) -> str:
        """``1st``, ``2nd``, ``11th``: the place as the foot of the sheet writes it."""
        if self.place is None:
            return ""
        return ordinal(self.place)


SHORT_NAME_MAX: Final = 6
"""The longest heading a player's column has on a phone: five columns of it
and the hand's column fit a 375-pixel screen."""


def short_names(names: list[str]) -> list[str]:
    """The players' names as the narrow sheet heads its columns, by seat: the
    first names when they are short and tell everyone apart, else initials
    (a number in a name kept whole: ``Player 12`` is ``P12``), else the seat.

    One rule for the whole table, so that the headings read alike.

    >>> short_names(["Ada Lovelace", "Kit Marlowe", "Lior Ben-David"])
    ['Ada', 'Kit', 'Lior']
    >>> short_names(["Ann Lee", "Ann Cole", "Bo Li"])
    ['AL', 'AC', 'BL']
    >>> short_names(["Player 1", "Player 12", "Player 3"])
    ['P1', 'P12', 'P3']
    >>> short_names(["Ann Lee", "Ann Lee"])
    ['Seat 1', 'Seat 2']
    """

    def first_name(name: str) -> str:
        return name.split()[0] if name.split() else name

    def initials(name: str) -> str:
        return "".join(word if word.isdigit() else word[:1].upper() for word in name.split())

    for rule in (first_name, initials):
        shown = [rule(name) for name in names]
        if len(set(shown)) == len(shown) and all(0 < len(s) <= SHORT_NAME_MAX for s in shown):
            return shown
    return [_("Seat %(number)s") % {"number": seat} for seat in range(1, len(names) + 1)]


SheetPage = dict[str, Any]
"""The score sheet page's context: what :func:`sheet_page` shapes, and what each
way of showing it adds (the entry form, the confirmation, the history), read
back by name as the page is put together."""


def sheet_page(*, table: Table, correct_url: Callable[[int], str] | None = None) -> SheetPage:
    """The score sheet shaped for the page: players by seat, one row per hand
    (move logs replayed into tricks by the engine), places once the game
    counts, and where it stands with the players' confirmation;
    ``correct_url`` gives each hand's correction page, for a viewer who may
    correct.

    Queries: those of :func:`league.selectors.tables.score_sheet` (three), whatever
    the number of hands; ``table`` comes from :func:`league.selectors.tables.sheet_table`.
    """
    rules = tables_selectors.table_rules(table)
    sheet = tables_selectors.score_sheet(table=table, rules=rules)
    league = table.round.event.league
    seatings = list(table.seatings.all())
    names = [seating.player.name for seating in seatings]
    shorts = short_names(names)
    players = [
        SheetPlayer(
            player_id=seating.player_id,
            name=seating.player.name,
            short=shorts[seating.seat],
            total=table.totals[seating.seat],
            place=seating.place if table.counts else None,
            winner=table.counts and seating.place == 1,
        )
        for seating in seatings
    ]
    hands = [_sheet_hand(hand, names, shorts, rules) for hand in sheet["hands"]]
    if correct_url is not None:
        hands = [replace(hand, correct_url=correct_url(hand.number)) for hand in hands]
    next_hand = sheet["next_hand"]
    return {
        "confirmation": confirmation_words(table, names),
        "table": table,
        "league": league,
        "event": table.round.event,
        "status": table.status,
        "bluke": league.game == Game.BLUKE,
        "players": players,
        "shortened": shorts != names,
        "winners": [player.name for player in players if player.winner],
        "hands": hands,
        "card_by_card": [hand for hand in hands if hand.is_move_log],
        "next_hand": next_hand,
        "next_dealer": names[next_hand["dealer"]] if next_hand is not None else None,
        "schedule": len(rules.schedule) if isinstance(rules, games.Bluke) else None,
        "schedule_list": list(rules.schedule) if isinstance(rules, games.Bluke) else None,
        "start": games.GameTally(rules, first_dealer=table.first_dealer).totals,
        "penalty": games.buck_euchre.PENALTY,
    }


@dataclass(frozen=True)
class ConfirmationWords:
    """Where a complete game stands with the players' confirmation, in the
    sheet's words (``None`` of :func:`confirmation_words` when there is
    nothing to say: not complete, or counted at once)."""

    state: str
    label: str
    entered_by: str | None
    """The player of the seat that last changed the results through the link."""
    by: str | None
    """Who confirmed or disputed: a player, or "an organiser"."""
    at: datetime.datetime | None
    note: str


def confirmation_words(table: Table, names: list[str]) -> ConfirmationWords | None:
    """The game's confirmation in words; ``None`` when it needs none."""
    if table.confirmation == Confirmation.NONE:
        return None

    def player(seat: int | None) -> str | None:
        if seat is None:
            return None
        return _("%(name)s (seat %(number)s)") % {"name": _name(names, seat), "number": seat + 1}

    by = player(table.confirmation_seat)
    if by is None and table.confirmation == Confirmation.CONFIRMED:
        # Translators: who confirmed a game: "Confirmed by an organiser".
        by = _("an organiser")
    return ConfirmationWords(
        state=table.confirmation,
        label=str(Confirmation(table.confirmation).label),
        entered_by=player(table.entered_seat),
        by=by,
        at=table.confirmation_at,
        note=table.confirmation_note,
    )


def _sheet_hand(hand: Hand, names: list[str], shorts: list[str], rules: games.Rules) -> SheetHand:
    bluke = isinstance(rules, games.Bluke)
    lines = [
        SheetLine(
            bid=line.bid,
            tricks=line.tricks,
            total=line.total,
            dropped=line.dropped,
            maker=hand.maker == line.seat,
            # The engine scored the hand: in Bluke a made bid scores at least
            # 10, a missed one less than 0, so the stored points tell.
            made=line.points > 0 if bluke else None,
            penalty=None
            if bluke
            else buck_penalty(
                points=line.points,
                tricks=line.tricks,
                dropped=line.dropped,
                maker=hand.maker == line.seat,
            ),
        )
        for line in hand.seats.all()
    ]
    turn_up = tricks = None
    if hand.is_move_log:
        turn_up = card_label(games.card(hand.record["turn_up"]))
        tricks = _played_tricks(hand, names, rules)
    return SheetHand(
        number=hand.number,
        cards=hand.cards,
        dealer=names[hand.dealer],
        dealer_short=shorts[hand.dealer],
        trump=suit_label(hand.trump) if hand.trump else None,
        call=None if bluke else _call(hand, names),
        drops=[names[seat] for seat in hand.drops],
        takes_all=names[hand.takes_all] if hand.takes_all is not None else None,
        is_move_log=hand.is_move_log,
        lines=lines,
        turn_up=turn_up,
        tricks=tricks,
    )


def _call(hand: Hand, names: list[str]) -> str:
    """Who made trump in a Buck Euchre hand: a trump without a maker is a
    turned-up club (which is trump with no one making it)."""
    if hand.maker is not None:
        # Translators: Buck Euchre: who made trump in a hand.
        return _("made by %(name)s") % {"name": names[hand.maker]}
    return _("club turned up") if hand.trump else _("nobody made it")


def _played_tricks(hand: Hand, names: list[str], rules: games.Rules) -> list[SheetTrick] | None:
    try:
        replayed = games.replay_tricks(rules, hand.record, dealer=hand.dealer)
    except games.RecordError:
        return None  # stored before a rules change; the scores stand as stored
    return [
        SheetTrick(
            number=number,
            leader=names[trick.leader],
            plays=[
                SheetPlay(player=names[seat], card=card_label(card)) for seat, card in trick.plays
            ],
            winner=names[trick.winner],
        )
        for number, trick in enumerate(replayed, start=1)
    ]


# -- the history of corrections ------------------------------------------------------


@dataclass(frozen=True)
class HandWords:
    """A hand as the trail keeps it, in the sheet's words: what was dealt
    and called, then a line a player."""

    summary: str
    lines: list[str]


@dataclass(frozen=True)
class HandChange:
    """A hand corrected or deleted: who did it, when, through what, and the
    hand before (and, corrected, after)."""

    number: int
    verb: str
    heading: str
    """``Hand 3 corrected``, in the page's language."""
    actor: str
    at: datetime.datetime
    via: str
    before: HandWords | None
    after: HandWords | None

    @property
    def shown_number(self) -> int:
        return self.number + 1


HISTORY_ACTIONS: Final = {
    AuditEntry.Action.HAND_CORRECTED: "corrected",
    AuditEntry.Action.HAND_DELETED: "deleted",
}
_HISTORY_HEADINGS: Final = {
    AuditEntry.Action.HAND_CORRECTED: pgettext_lazy("sheet history", "Hand %(number)s corrected"),
    AuditEntry.Action.HAND_DELETED: pgettext_lazy("sheet history", "Hand %(number)s deleted"),
}
"""A change's heading, a whole sentence each: the verb's place differs between languages."""
"""The changes the sheet's history lists: those that undo what was entered."""


def sheet_history(*, table: Table, names: list[str]) -> list[HandChange]:
    """The table's hands corrected or deleted, by hand, oldest change first
    (one query); ``names`` are the players by seat. For the club's members
    only (the trail names its users): the view decides."""
    entries = tables_selectors.hand_changes(table=table, actions=HISTORY_ACTIONS)
    bluke = table.game == Game.BLUKE
    return [
        HandChange(
            number=entry.hand_number or 0,
            verb=HISTORY_ACTIONS[AuditEntry.Action(entry.action)],
            heading=_HISTORY_HEADINGS[AuditEntry.Action(entry.action)]
            % {"number": (entry.hand_number or 0) + 1},
            actor=_actor(entry, names),
            at=entry.at,
            via=str(AuditEntry.Via(entry.via).label),
            before=_hand_words(entry.before, names, bluke=bluke),
            after=_hand_words(entry.after, names, bluke=bluke),
        )
        for entry in entries
    ]


def _actor(entry: AuditEntry, names: list[str]) -> str:
    """Who made a change, in the history's words: a login, a seat by its
    word through the table link, or a command."""
    if entry.seat is not None:
        return _("%(name)s (seat %(number)s, by the table link)") % {
            "name": _name(names, entry.seat),
            "number": entry.seat + 1,
        }
    return entry.actor_name or _("a command on the server")


def _hand_words(hand: Any, names: list[str], *, bluke: bool) -> HandWords | None:
    """A hand as the API shows it (``HandOutput``), in words: ``13 cards,
    spades trump`` then ``Ann bid 3, took 2: -5 (total 40)``."""
    if not hand:
        return None
    if hand["trump"]:
        trump = _("%(suit)s trump") % {"suit": suit_label(hand["trump"]).word}
    else:
        trump = _("no trump")
    cards = ngettext("%(count)s card", "%(count)s cards", hand["cards"]) % {"count": hand["cards"]}
    facts = [cards, trump, _("%(name)s deals") % {"name": _name(names, hand["dealer"])}]
    if not bluke:
        maker = hand["maker"]
        facts.append(
            _("made by %(name)s") % {"name": _name(names, maker)}
            if maker is not None
            else _("nobody made it")
        )
    lines = []
    for seat in hand["seats"]:
        name = _name(names, seat["seat"])
        # the points keep their sign (+5, -3) and stay digits: they are short integers
        facts_of = {
            "name": name,
            "bid": seat["bid"],
            "tricks": seat["tricks"],
            "points": f"{seat['points']:+d}",
            "total": seat["total"],
        }
        if bluke:
            line = _("%(name)s bid %(bid)s, took %(tricks)s: %(points)s (total %(total)s)")
        elif seat["seat"] in hand["drops"]:
            line = _("%(name)s dropped: %(points)s (total %(total)s)")
        else:
            is_maker = seat["seat"] == hand["maker"]
            penalty = buck_penalty(
                points=seat["points"], tricks=seat["tricks"], dropped=False, maker=is_maker
            )
            facts_of["penalty"] = penalty.word if penalty else ""
            if is_maker and penalty:
                line = _(
                    "%(name)s took %(tricks)s as maker, %(penalty)s: %(points)s (total %(total)s)"
                )
            elif is_maker:
                line = _("%(name)s took %(tricks)s as maker: %(points)s (total %(total)s)")
            elif penalty:
                line = _("%(name)s took %(tricks)s, %(penalty)s: %(points)s (total %(total)s)")
            else:
                line = _("%(name)s took %(tricks)s: %(points)s (total %(total)s)")
        lines.append(line % facts_of)
    return HandWords(summary=", ".join(facts), lines=lines)


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else _("seat %(number)s") % {"number": seat + 1}
