"""A place as an ordinal in the page's language: "1st", "2nd", "11th" (Czech
"1."), one way for every page that writes a place: a player's
games, the foot of a score sheet, a season's points by place."""

from __future__ import annotations

from django.utils.translation import pgettext


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th... 11th, 12th, 13th, 21st, in the active language.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    # Translators: a place by its English suffix; most languages write every
    # place alike (Czech "%(place)s.")
    values = {"place": place}
    if 10 <= place % 100 <= 20:
        return pgettext("place ending th", "%(place)sth") % values
    ending = place % 10
    if ending == 1:
        return pgettext("place ending st", "%(place)sst") % values
    if ending == 2:
        return pgettext("place ending nd", "%(place)snd") % values
    if ending == 3:
        return pgettext("place ending rd", "%(place)srd") % values
    return pgettext("place ending th", "%(place)sth") % values
