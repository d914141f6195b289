"""What the fuzz run sends: the shared hostile inputs (tests/hostile.py, which the tests use
too) plus the valid forms the fuzzer damages."""

from __future__ import annotations

import uuid

from tests.hostile import (
    BAD_CODES,
    BAD_GAME_IDS,
    BAD_INTS,
    CSV_HEADER,
    FOREIGN_CHARSETS,
    HAND_FIELDS,
    HOSTILE_CSV_CELLS,
    HOSTILE_JSON,
    LONE_SURROGATE,
    LOOKALIKE_USERNAMES,
    NUL_NAME,
    PYTHON_INT_SYNTAX,
    hands_csv,
    id_variants,
)
from tests.hostile import NASTY as SHARED_NASTY
from tests.hostile import record as valid_record

#: The shared list and one fresh UUID (a well-formed id of nothing).
NASTY = [*SHARED_NASTY, str(uuid.uuid4())]
SEATS = ["N", "E", "S", "W", "Q", "", "NS", "n"]
ITEMS = [
    "run",
    "marriage",
    "trump_marriage",
    "dix",
    "aces",
    "kings",
    "queens",
    "jacks",
    "pinochle",
    "double_pinochle",
    "bogus",
    "run_double",
    "",
    "__class__",
]
HAND = {
    "bidder": "N",
    "bid": "27",
    "trump": "hearts",
    "meld_N_run": "1",
    "meld_N_marriage": "1",
    "meld_S_pinochle": "1",
    "meld_E_aces": "1",
    "tricks_NS": "15",
}
GAME_SETUP = {
    "seats": "4",
    "variant": "standard",
    "deck": "single",
    "target": "",
    "min_bid": "",
    "first_dealer": "N",
    "name_N": "Anna",
    "name_E": "Bo",
    "name_S": "Cecilia",
    "name_W": "David",
}
PASSWORD = "a quiet club night 2026"


__all__ = [
    "BAD_CODES",
    "BAD_GAME_IDS",
    "BAD_INTS",
    "CSV_HEADER",
    "FOREIGN_CHARSETS",
    "GAME_SETUP",
    "HAND",
    "HAND_FIELDS",
    "HOSTILE_CSV_CELLS",
    "HOSTILE_JSON",
    "ITEMS",
    "LONE_SURROGATE",
    "LOOKALIKE_USERNAMES",
    "NASTY",
    "NUL_NAME",
    "PASSWORD",
    "PYTHON_INT_SYNTAX",
    "SEATS",
    "hands_csv",
    "id_variants",
    "valid_record",
]
