"""Swedish: "1 sep 2026", "1 mars 2026"; the long form "1 september 2026"."""

DATE_FORMAT = "j F Y"  # 1 september 2026
SHORT_DATE_FORMAT = "j N Y"  # 1 sep 2026, 1 mars 2026, 1 juni 2026
DATETIME_FORMAT = "j N Y H:i"  # 1 sep 2026 19:05
SHORT_DATETIME_FORMAT = "j N Y H:i"
YEAR_MONTH_FORMAT = "F Y"  # september 2026
MONTH_DAY_FORMAT = "j F"
TIME_FORMAT = "H:i"
FIRST_DAY_OF_WEEK = 1
