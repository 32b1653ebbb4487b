"""Ukrainian: 01.12.2026, 24-hour times, a decimal comma and thousands split by a
non-breaking space."""

DATE_FORMAT = "j E Y \u0440."  # 1 грудня 2026 (year abbreviated after the year)
TIME_FORMAT = "H:i"  # 19:30
DATETIME_FORMAT = "j E Y \u0440., H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j E"
SHORT_DATE_FORMAT = "d.m.Y"  # 01.12.2026
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
DATE_INPUT_FORMATS = ["%d.%m.%Y", "%d.%m.%y"]
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"
NUMBER_GROUPING = 3
