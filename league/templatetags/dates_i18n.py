"""Dates as each language writes them, by what they are (a stored moment, a game
night's day), for the date formats Django does not name: each format is itself a
message, so a translator writes it as their language does (Czech "3. 12. 2026,
08:30 UTC" where English writes "3 Dec 2026, 08:30 UTC"). English keeps the
formats the pages always had."""

from __future__ import annotations

import datetime

from django import template
from django.template.defaultfilters import date
from django.utils.translation import pgettext

register = template.Library()

Moment = datetime.date | datetime.datetime | None


@register.filter(expects_localtime=True)
def moment(value: Moment) -> str:
    """A stored moment with its time zone: "3 Dec 2026, 08:30 UTC"."""
    # Translators: a PHP-style date format (Django's date filter) of a stored moment:
    # day, month, year, time and time zone
    return date(value, pgettext("date format of a stored moment", "j M Y, H:i T"))


@register.filter(expects_localtime=True)
def moment_to_the_second(value: Moment) -> str:
    """A stored moment to the second: "3 Dec 2026, 08:30:05 UTC"."""
    # Translators: a PHP-style date format of a stored moment, to the second
    return date(value, pgettext("date format of a stored moment", "j M Y, H:i:s T"))


@register.filter(expects_localtime=True)
def moment_local(value: Moment) -> str:
    """A moment in the site's time, without its zone: "3 Dec 2026, 08:30"."""
    return date(value, pgettext("date format", "j M Y, H:i"))


@register.filter(expects_localtime=True)
def night_day(value: Moment) -> str:
    """A game night's day, short: "Thu 3 Dec 2026"."""
    # Translators: a PHP-style date format of a game night's day, short: weekday,
    # day, month, year
    return date(value, pgettext("short date format of a game night", "D j M Y"))


@register.filter(expects_localtime=True)
def day_and_month(value: Moment) -> str:
    """A day of this season, without its year: "3 Dec"."""
    # Translators: a PHP-style date format of a day and its month, no year
    return date(value, pgettext("date format", "j M"))
