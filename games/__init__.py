"""The rules engine for Bluke and Buck Euchre: pure Python, no Django.

Three levels, each usable on its own:

- Rules and state, in the spirit of OpenSpiel: a game object holds the
  immutable rules (:class:`Bluke`, :class:`BuckEuchre`; :data:`Rules` is
  the type of either); ``new_hand()`` gives a hand state with
  ``legal_actions()``, ``apply_action()``, ``is_terminal()`` and
  ``result()``.
- Records: :func:`check_record` replays or checks one JSON hand or game
  record and returns the answer object; :func:`evaluate_record` returns a
  :class:`HandResult` or :class:`GameResult`, or raises :class:`RecordError`.
  A :class:`GameTally` adds a game's hands one at a time.
- The command line: ``python -m games check [FILE ...]``.

The engine is pure Python; where a C compiler is present ``make`` also
compiles its hot modules with mypyc (see :mod:`games.native`), and
:func:`compiled` tells which build this process runs. Both builds give the
same answers.

Example::

    >>> from games import Bluke, cards, card
    >>> hand = Bluke(3).new_hand(dealer=0, deal=[cards("AS 7D BL"),
    ...     cards("KH 2C 9S"), cards("QD TS 4H")], turn_up=card("5S"))
    >>> for bid in (1, 2, 1):          # seats 1, 2, 0 bid in turn
    ...     hand.apply_action(bid)
    >>> hand.legal_actions()
    [Card('2C'), Card('KH'), Card('9S')]
"""

from games.bluke import Bluke, BlukeHand
from games.buck_euchre import BuckEuchre, BuckEuchreHand
from games.cards import ALL_CARDS, BLUKE_DECK, EUCHRE_DECK, Card, Suit, card, cards
from games.errors import ERROR_CODES, IllegalMove, InvalidRecord, RecordError
from games.fields import rules_for
from games.hands import evaluate_hand, replay_tricks
from games.native import compiled
from games.records import check_record, evaluate_record, parse_record
from games.results import GameResult, HandResult, Trick
from games.rules import Rules
from games.tally import GameTally, evaluate_game

__all__ = [
    "ALL_CARDS",
    "BLUKE_DECK",
    "ERROR_CODES",
    "EUCHRE_DECK",
    "Bluke",
    "BlukeHand",
    "BuckEuchre",
    "BuckEuchreHand",
    "Card",
    "GameResult",
    "GameTally",
    "HandResult",
    "IllegalMove",
    "InvalidRecord",
    "RecordError",
    "Rules",
    "Suit",
    "Trick",
    "card",
    "cards",
    "check_record",
    "compiled",
    "evaluate_game",
    "evaluate_hand",
    "evaluate_record",
    "parse_record",
    "replay_tricks",
    "rules_for",
]
