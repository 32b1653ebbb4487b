"""Players' names: how a name is kept, the key that tells two names apart, and
which names are close enough to ask "do you mean…?" before adding one.

Pure Python (no Django), for the models, the services and the migrations alike.

- A name is **kept as typed**, trimmed and in Unicode NFC (:func:`name_clean`), so
  "José" typed with a combining accent and with the composed letter is stored the
  same way. Control characters (NUL, tabs, line breaks…) are refused
  (:func:`name_problem`).
- Two names are **the same name** when their keys are equal (:func:`name_key`):
  NFC, invisible characters removed (:data:`INVISIBLE`: zero-width spaces and
  joiners, soft hyphens, the byte order mark, bidi marks and every other Unicode
  format character), whitespace runs made one space, and case folded. So "Ada",
  "ada", "ADA", "A\\u200bda" and " Ada " are one name in a club. NFC, not NFKC:
  a full-width "\\uff21\\uff44\\uff41" stays a different name from "Ada" (it looks different).
- A name is **close** to another (:func:`is_close`) when, with accents, case and
  everything but letters and digits left out, the two are the same ("José" and
  "Jose", "Mary-Ann" and "Mary Ann"), the same letters in another order ("Ada
  Lovelace" and "Lovelace Ada"), or one or two edits apart: one edit (a letter
  added, left out or changed) for names of up to six letters, two for longer ones
  ("Ada" and "Adaa", "Margaret" and "Margret"). Names whose digits differ are
  never close ("Sam 2" is not a slip for "Sam 3"). Close names are asked about on
  the pages, never refused.

>>> name_key("  A\\u200bda  LOVELACE ")
'ada lovelace'
>>> name_key("Jose\\u0301") == name_key("José")
True
>>> name_key("\\uff21\\uff44\\uff41") == name_key("Ada")
False
>>> close_names("Jose", ["José", "Ann", "Joss"])
['José', 'Joss']
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

MAX_NAME: Final = 100
"""The longest name, in characters once cleaned (the model's ``max_length``)."""

MAX_KEY: Final = 3 * MAX_NAME
"""The longest key: case folding writes at most three characters for one."""

INVISIBLE: Final = frozenset(
    {
        "\u034f",  # combining grapheme joiner
        "\u115f",  # Hangul choseong filler
        "\u1160",  # Hangul jungseong filler
        "\u3164",  # Hangul filler
        "\uffa0",  # half-width Hangul filler
        *(chr(code) for code in range(0xFE00, 0xFE10)),  # variation selectors
    }
)
"""Characters that show nothing and are not Unicode format characters (category
``Cf``, which the key leaves out too: zero-width space, joiners, soft hyphen, byte
order mark, bidi marks and isolates, word joiner…)."""


def _shows_nothing(char: str) -> bool:
    return char in INVISIBLE or unicodedata.category(char) == "Cf"


def name_clean(name: str) -> str:
    """The name as it is kept: trimmed, in NFC."""
    return unicodedata.normalize("NFC", name).strip()


def name_key(name: str) -> str:
    """What tells names apart in a club: NFC, invisible characters removed,
    whitespace runs one space, case folded (see the module's docstring)."""
    text = unicodedata.normalize("NFC", name)
    text = "".join(char for char in text if not _shows_nothing(char))
    text = " ".join(text.split())
    return unicodedata.normalize("NFC", text.casefold())


@dataclass(frozen=True)
class NameFault:
    """What is wrong with a name, as data for a page or the API to word in its
    own language: ``code`` is ``control-character`` (``char`` the code point),
    ``empty``, ``shows-nothing`` or ``too-long`` (``length`` the name's)."""

    code: str
    char: int = 0
    length: int = 0


def name_fault(name: str) -> NameFault | None:
    """What is wrong with a name (cleaned by :func:`name_clean`); ``None`` when
    nothing."""
    for char in name:
        if unicodedata.category(char) == "Cc":
            return NameFault("control-character", char=ord(char))
    if not name_key(name):
        return NameFault("empty") if not name else NameFault("shows-nothing")
    if len(name) > MAX_NAME:
        return NameFault("too-long", length=len(name))
    return None


def name_problem(name: str) -> str | None:
    """What is wrong with a name (cleaned by :func:`name_clean`), in an English
    sentence of the services' (lower case first, no full stop); ``None`` when
    nothing. The services word :func:`name_fault` in the request's language."""
    fault = name_fault(name)
    if fault is None:
        return None
    if fault.code == "control-character":
        return f"a name cannot hold a control character (U+{fault.char:04X})"
    if fault.code == "too-long":
        return f"a name has at most {MAX_NAME} characters (this one has {fault.length})"
    return "the name is empty" if fault.code == "empty" else "the name has nothing to show"


@functools.lru_cache(maxsize=8192)  # a club's names, compared with each name typed
def _loose(name: str) -> str:
    """The name's letters and digits alone, case folded, accents left out."""
    decomposed = unicodedata.normalize("NFD", name_key(name))
    return "".join(
        char for char in decomposed if char.isalnum() and unicodedata.category(char) != "Mn"
    )


def _digits(loose: str) -> str:
    return "".join(char for char in loose if char.isdigit())


def _within_edits(a: str, b: str, limit: int) -> bool:
    """Whether ``a`` becomes ``b`` in at most ``limit`` edits (Levenshtein)."""
    if abs(len(a) - len(b)) > limit:
        return False
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, start=1):
        current = [i]
        for j, other in enumerate(b, start=1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other))
            )
        if min(current) > limit:
            return False
        previous = current
    return previous[-1] <= limit


SHORT_NAME: Final = 6
"""Names of up to this many letters are close at one edit; longer ones at two."""


def is_close(name: str, other: str) -> bool:
    """Whether ``other`` is close to ``name`` (the module's rule); a name with the
    same key is not "close": it is the same name."""
    if name_key(name) == name_key(other):
        return False
    a, b = _loose(name), _loose(other)
    if not a or not b or _digits(a) != _digits(b):
        return False
    if a == b or (len(a) >= 3 and sorted(a) == sorted(b)):
        return True
    limit = 1 if max(len(a), len(b)) <= SHORT_NAME else 2
    return _within_edits(a, b, limit)


def close_names(name: str, existing: Iterable[str]) -> list[str]:
    """The names of ``existing`` close to ``name``, in their order."""
    return [other for other in existing if is_close(name, other)]
