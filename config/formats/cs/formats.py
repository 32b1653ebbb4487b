"""Czech: a date as Czech clubs write it, with spaces after the dots (1. 12. 2026),
24-hour times, a decimal comma and thousands split by a non-breaking space (so that
"12 500" never breaks across lines)."""

DATE_FORMAT = "j. E Y"  # 1. prosince 2026
TIME_FORMAT = "G:i"  # 19:30
DATETIME_FORMAT = "j. E Y G:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j. F"
SHORT_DATE_FORMAT = "j. n. Y"  # 1. 12. 2026
SHORT_DATETIME_FORMAT = "j. n. Y G:i"
FIRST_DAY_OF_WEEK = 1  # Monday
# what a Czech organiser types: 1. 12. 2026 and 01.12.2026 (ISO is always read too)
DATE_INPUT_FORMATS = ["%d. %m. %Y", "%d.%m.%Y", "%d. %m. %y", "%d.%m.%y"]
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"
NUMBER_GROUPING = 3
