"""Size limits on records, so that hostile input costs bounded work.

Every check the engine makes is linear in the size of the record and stops
at the first fault; these limits bound the record itself.
"""

from typing import Final

MAX_RECORD_CHARS: Final = 2_000_000
"""A record's JSON text. A complete 15-hand Bluke game for 4 players written
with generous spacing is about 40,000 characters."""

MAX_NESTING: Final = 16
"""Deepest JSON nesting accepted; real records nest at most 5 deep."""

MAX_INT_DIGITS: Final = 30
"""Longer integer literals are read as 'too large' rather than converted
(Python refuses to convert beyond 4,300 digits, and nothing in a record needs
more than two)."""

MAX_BUCK_EUCHRE_HANDS: Final = 1_000
"""A Buck Euchre game has no fixed length; real games last 5 to 30 hands."""

MAX_STRING_SHOWN: Final = 40
"""Longest input text quoted back in an error message."""
