"""Size limits on records, so that hostile input costs bounded work.

Every check the engine makes is linear in the size of the record and stops
at the first fault; these limits bound the record itself.
"""

from typing import Final

MAX_RECORD_CHARS: Final = 2_000_000
"""A record's JSON text. A complete 15-hand Bluke game for 4 players written
with generous spacing is about 40,000 characters."""

# Integer literals longer than Python's limit for converting text to int
# (4,300 digits by default) are answered 'too_large'; shorter ones are read
# and then refused by the range checks. Nesting deeper than Python's
# recursion limit lets the JSON reader allows (about 1,000) is 'too_large'
# too; real records nest at most five deep.

MAX_BUCK_EUCHRE_HANDS: Final = 1_000
"""A Buck Euchre game has no fixed length; real games last 5 to 30 hands."""

MAX_STRING_SHOWN: Final = 40
"""Longest input text quoted back in an error message."""
