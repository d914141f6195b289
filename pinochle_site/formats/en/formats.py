"""English: the day, the month's name and the year ("1 Sep 2026"), never an all-number date."""

DATE_FORMAT = "j F Y"  # 1 September 2026
SHORT_DATE_FORMAT = "j M Y"  # 1 Sep 2026
DATETIME_FORMAT = "j M Y, H:i"  # 1 Sep 2026, 19:05
SHORT_DATETIME_FORMAT = "j M Y, H:i"
YEAR_MONTH_FORMAT = "F Y"  # September 2026
MONTH_DAY_FORMAT = "j F"
TIME_FORMAT = "H:i"
FIRST_DAY_OF_WEEK = 1
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d %b %Y", "%d %B %Y"]
