"""English (en-gb, the source language): the British formats the pages have always
shown, written out so that this module, read before Django's, changes nothing."""

DATE_FORMAT = "j M Y"  # 1 Dec 2026
TIME_FORMAT = "P"  # 7:30 p.m.
DATETIME_FORMAT = "j M Y, P"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "d/m/Y"  # 01/12/2026
SHORT_DATETIME_FORMAT = "d/m/Y P"
FIRST_DAY_OF_WEEK = 1  # Monday
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
