"""Hostile and careless inputs, one list shared by the tests and the fuzz bench (`bench/fuzz/`).

Each entry is something a person or a script has sent, or could: what broke a page once is
kept here so both the regression tests and the next fuzz run try it again. Plain data only (no
Django), so `bench/fuzz` can import it before Django is set up.
"""

from __future__ import annotations

import json

#: Values for any form field: empty, signs, huge and fractional numbers, other scripts' digits,
#: markup, seat and suit words in the wrong field, NUL, very long text, injection attempts.
NASTY = [
    "",
    " ",
    "-1",
    "0",
    "-99999",
    "1e5",
    "3.5",
    "٣",
    "99999999999999999999",
    "9" * 400,
    "NaN",
    "inf",
    "<script>alert(1)</script>",
    "<b>x</b>",
    "N",
    "NS",
    "Q",
    "\x00",
    "on",
    "true",
    "null",
    "[]",
    "{}",
    "spades",
    "a" * 5000,
    "é" * 200,
    "'; DROP TABLE scoring_hand; --",
    "../../etc/passwd",
    "%00",
    "\ud7ff",
    '=HYPERLINK("x")',
    "2026-02-30",
    "0000-00-00",
    "not-a-uuid",
    "-0",
    "+7",
    " 12 ",
    # Python's integer syntax is not a number a person types.
    "25_0",
    "+5",
    "1_000",
]

#: Python's int() reads these; a number field must refuse every one.
PYTHON_INT_SYNTAX = ["25_0", "+5", "1_0", "٣", "²"]

#: Game codes no URL of the app can hold, or that name nothing.
BAD_CODES = ["AAAAAAAAAAA", "x", "-" * 16, "a" * 300, "%2e%2e", "%00", "code%20with%20space", "ünï"]
#: game_id cells and backup codes outside the game-code alphabet: a slash, dots, blanks.
BAD_GAME_IDS = ["a/b", "..", "../x", "x/..", "a b", "ünï", "a" * 17, "a%2Fb", "a?b", "a#b"]

#: Ids that are not ids: zero, past 32 and 64 bits.
BAD_INTS = ["0", "99999999999999999999999", "9223372036854775808", "2147483648", "4294967296"]

#: Python's int() syntax around a real id: each would name record `id`.
ID_SYNTAX = ["0_{id}", " {id}", "{id} ", "+{id}", "{fullwidth}", "{id}\u0660"]


def id_variants(pk: int) -> list[str]:
    """A real id written as int() would still read it: `0_7`, ` 7`, `+7`, full-width `７`…"""
    fullwidth = "".join(chr(0xFF10 + int(digit)) for digit in str(pk))
    return [pattern.format(id=pk, fullwidth=fullwidth) for pattern in ID_SYNTAX]


#: Sign-ups that read like an existing account's name in one alphabet:
#: capital I or digit 1 for l, rn for m, 0 for o; and a mixed-script one (Cyrillic ѕ).
LOOKALIKE_USERNAMES = {
    "alice": ["aIice", "a1ice", "AIice", "ALICE"],
    "sam": ["sarn", "SARN", "\u0455am"],
    "bob": ["b0b", "B0B"],
}

#: A JSON integer past Python's 4,300-digit limit for int().
HUGE_JSON_INT = "9" * 4301
#: A lone surrogate: valid in JSON text ("\ud800"), storable in no database.
LONE_SURROGATE = "\ud800"
#: PostgreSQL refuses NUL in text; SQLite stored it.
NUL_NAME = "A\x00B"

#: Character sets other than UTF-8 a form post can declare.
FOREIGN_CHARSETS = ["utf-16", "utf-16-le", "latin-1", "iso-8859-1", "utf-32", "cp1252", "no-such-charset"]


#: The hand form's inputs a forger posts to (real ones, and names of seats and items no form has).
HAND_FIELDS = [
    "number",
    "submission_id",
    "bidder",
    "bid",
    "trump",
    "passed",
    "conceded",
    "meld_mode",
    "meld_points_NS",
    "meld_points_EW",
    "meld_points_N",
    "meld_N_run",
    "meld_W_marriage",
    "meld_Q_run",
    "tricks_NS",
    "tricks_EW",
    "tricks_N",
    "tricks_E",
    "tricks_S",
    "slam",
    "step",
]


def record(**changes: object) -> dict[str, object]:
    """A valid four-seat game record of one hand, with `changes` applied to its top level."""
    data: dict[str, object] = {
        "seats": 4,
        "variant": "standard",
        "deck": "single",
        "first_dealer": "N",
        "players": {"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "David"},
        "hands": [
            {
                "bidder": "N",
                "bid": 27,
                "trump": "hearts",
                "melds": {"N": ["run", "marriage"]},
                "tricks": {"NS": 15, "EW": 10},
            }
        ],
    }
    data.update(changes)
    return data


def record_with_name(name: str) -> str:
    """A record's JSON text whose North is `name` (escaped the way JSON escapes it)."""
    return json.dumps(record(players={"N": name, "E": "Bo", "S": "Cecilia", "W": "David"}))


def record_with_huge_int() -> str:
    return json.dumps(record()).replace('"bid": 27', f'"bid": {HUGE_JSON_INT}')


def record_with_duplicate_key() -> str:
    """Two "bid" keys in one hand: json.loads keeps the last one silently."""
    return json.dumps(record()).replace('"bid": 27', '"bid": 27, "bid": 50')


#: JSON texts an import must refuse with a message, never a traceback or a 500.
HOSTILE_JSON = {
    "huge integer": record_with_huge_int,
    "duplicate key": record_with_duplicate_key,
    "lone surrogate in a name": lambda: record_with_name(LONE_SURROGATE),
    "NUL in a name": lambda: record_with_name(NUL_NAME),
    "lone surrogate in a key": lambda: json.dumps(record()).replace('"N": "Anna"', '"\\ud800": "Anna"'),
}

CSV_HEADER = (
    "game_id,date,club,season,place,note,variant,deck,seats,target,min_bid,first_dealer,"
    "meld_needs_trick,player_N,player_E,player_S,player_W,hand,dealer,bidder,bid,trump,passed,"
    "conceded,result,melds_N,melds_E,melds_S,melds_W,tricks_NS,tricks_EW"
)


def hands_csv(**cells: str) -> str:
    """A one-hand hands.csv (a valid game "fz1") with `cells` replaced, e.g. note="A\\x00B"."""
    row = {
        "game_id": "fz1",
        "variant": "standard",
        "deck": "single",
        "seats": "4",
        "first_dealer": "N",
        "player_N": "Anna",
        "player_E": "Bo",
        "player_S": "Cecilia",
        "player_W": "David",
        "hand": "1",
        "bidder": "N",
        "bid": "27",
        "trump": "hearts",
        "melds_N": "run marriage",
        "tricks_NS": "15",
        "tricks_EW": "10",
        **cells,
    }
    header = CSV_HEADER.split(",")
    line = ",".join('"' + row.get(key, "").replace('"', '""') + '"' for key in header)
    return CSV_HEADER + "\n" + line + "\n"


#: hands.csv cells an import must refuse, by what is wrong with them.
HOSTILE_CSV_CELLS = [
    *({"game_id": code} for code in BAD_GAME_IDS),
    {"game_id": "fz\x00"},
    {"note": NUL_NAME},
    {"player_N": NUL_NAME},
    {"club": NUL_NAME},
    *({"bid": value} for value in PYTHON_INT_SYNTAX),
    {"tricks_NS": "1_5"},
    {"seats": "+4"},
    {"bid": "9" * 5000},
]
