"""Czech: "1. 9. 2026"; the long form with the month's name in the genitive, "1. září 2026"."""

DATE_FORMAT = "j. E Y"  # 1. září 2026, 1. ledna 2026
SHORT_DATE_FORMAT = "j. n. Y"  # 1. 9. 2026
DATETIME_FORMAT = "j. n. Y H:i"  # 1. 9. 2026 19:05
SHORT_DATETIME_FORMAT = "j. n. Y H:i"
YEAR_MONTH_FORMAT = "F Y"  # září 2026 (the nominative)
MONTH_DAY_FORMAT = "j. E"
TIME_FORMAT = "H:i"
FIRST_DAY_OF_WEEK = 1
# ISO first: a date input (type="date") is drawn with the first input format, and a browser leaves
# an input showing "01.09.2026" empty. Typed Czech dates are still read.
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d.%m.%Y", "%d. %m. %Y", "%d.%m.%y", "%d. %m. %y"]
