"""The exceptions the engine raises, each carrying a stable error code.

``InvalidRecord`` means the record is malformed or inconsistent in itself
(a bad card code, a deal of the wrong shape, tricks that do not add up);
``IllegalMove`` means a well-formed action that the rules forbid in the
position where it was made. Both carry the fields of the error answer.
"""

from __future__ import annotations

import json

from games.limits import MAX_STRING_SHOWN

ERROR_CODES: tuple[str, ...] = (
    "not_in_hand",
    "must_follow_suit",
    "wrong_number_of_plays",
    "bad_card",
    "duplicate_card",
    "bad_deal",
    "bad_bid",
    "bad_call",
    "bad_discard",
    "bad_drop",
    "bad_tricks",
    "game_over",
    "too_large",
    "invalid",
)
"""Every code the engine reports. ``too_large`` is a record beyond the size
limits of :mod:`games.limits`; ``invalid`` is any other shape error."""


class RecordError(Exception):
    """A record the engine refuses, with where the first fault lies.

    ``hand`` is the 0-based index into a game's ``hands``; ``play`` the index
    into a hand's ``plays``; ``seat`` and ``card`` are set when known.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        hand: int | None = None,
        play: int | None = None,
        seat: int | None = None,
        card: str | None = None,
    ) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.hand = hand
        self.play = play
        self.seat = seat
        self.card = card

    def to_json(self) -> dict[str, str | int]:
        """The ``error`` object of an answer, fields in the documented order."""
        out: dict[str, str | int] = {"code": self.code}
        for key in ("hand", "play", "seat", "card"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out["message"] = self.message
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_json()!r})"


class InvalidRecord(RecordError):
    """The record is malformed or contradicts itself."""


class IllegalMove(RecordError):
    """An action the rules do not allow in the position where it was made."""


def check_seat(
    value: object, players: int, *, field: str, code: str = "invalid", listed: bool = False
) -> int:
    """``value`` itself if it is a seat at a table of ``players``: an integer
    (not a bool) from 0 to ``players - 1``.

    Otherwise raises :class:`InvalidRecord` with ``code`` and the message
    ``"<field> <value> is not a seat of <players>"``, or, when ``listed``
    (``value`` is an entry of the array ``field``),
    ``"<field> holds <value>, which is not a seat of <players>"``.
    """
    if type(value) is int and 0 <= value < players:
        return value
    subject = f"{field} holds {shown(value)}, which" if listed else f"{field} {shown(value)}"
    raise InvalidRecord(code, f"{subject} is not a seat of {players}")


def kind(value: object) -> str:
    """What sort of JSON value ``value`` is, for messages: ``"an array"``."""
    return {
        dict: "an object",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def shown(value: object) -> str:
    """A short quotation of an input value for a message."""
    if isinstance(value, (str, int, float, bool, type(None))):
        text = (
            json.dumps(value)
            if not (type(value) is int and value.bit_length() > 100)
            else "a huge number"
        )
    else:
        text = kind(value)
    return _clipped(text)


def shown_card(value: object) -> str | None:
    """The ``card`` field of an error about a bad card: the text given, if any."""
    return _clipped(value) if isinstance(value, str) else None


def _clipped(text: str) -> str:
    return text if len(text) <= MAX_STRING_SHOWN else text[: MAX_STRING_SHOWN - 3] + "..."
