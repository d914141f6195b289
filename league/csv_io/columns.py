"""The CSV files' columns, their headers in the user's language, and cells neutralised against
formula injection (written by the export and the ledger, read back by the import)."""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.utils.translation import pgettext_lazy

from scoring.labels import SEAT_NAMES, side_short


def max_import_bytes() -> int:
    """The largest file an import takes (setting IMPORT_MAX_MB, docs/settings.md)."""
    return int(settings.IMPORT_MAX_MB) * 1024 * 1024


CHUNK = 2000
SEATS = ("N", "E", "S", "W")
SIDES = ("NS", "EW", "N", "E", "S")
CHIP_SIDES = ("NS", "EW")

GAME_SETTING_COLUMNS = [
    "game_id", "date", "club", "season", "place", "note",
    "variant", "deck", "seats", "target", "min_bid", "first_dealer", "meld_needs_trick", "deals",
    "bid_steps", "meld_counts_from", "spread", "scale",
    *(f"player_{seat}" for seat in SEATS),
]  # fmt: skip
GAMES_COLUMNS = [
    *GAME_SETTING_COLUMNS,
    "hands", "finished",
    *(f"points_{side}" for side in SIDES),
    *(f"chips_{side}" for side in CHIP_SIDES),
    "winner",
]  # fmt: skip
HANDS_COLUMNS = [
    *GAME_SETTING_COLUMNS,
    "hand", "dealer", "bidder", "bid", "trump", "passed", "conceded", "result",
    *(f"melds_{seat}" for seat in SEATS),
    *(f"meld_{seat}" for seat in SEATS),
    *(f"meld_points_{side}" for side in SIDES),
    *(f"tricks_{side}" for side in SIDES),
    *(f"tricks_won_{side}" for side in SIDES),
    *(f"points_{side}" for side in SIDES),
    *(f"total_{side}" for side in SIDES),
    *(f"chips_{side}" for side in CHIP_SIDES),
    *(f"chip_total_{side}" for side in CHIP_SIDES),
]  # fmt: skip


def is_points(column: str) -> bool:
    """Whether a column holds a point figure: written and read at the game's `scale` (points ×10,
    a house rule; scoring.rules.scale). Chips, counts of tricks and the deals are not points."""
    if column in ("target", "min_bid", "meld_counts_from", "spread", "bid"):
        return True
    if column.startswith("meld_") and column[5:] in SEATS:  # a seat's meld points
        return True
    return column.startswith(("meld_points_", "points_", "total_")) or (
        column.startswith("tricks_") and not column.startswith("tricks_won_")
    )


#: The positions of the point columns of each file.
GAMES_POINTS = tuple(index for index, column in enumerate(GAMES_COLUMNS) if is_points(column))
HANDS_POINTS = tuple(index for index, column in enumerate(HANDS_COLUMNS) if is_points(column))

# Localized column names for a person reading the export in a spreadsheet (`?headers=local`).
# The stable English names above stay the default: the import reads only those.
_COLUMN_WORDS = {
    "game_id": pgettext_lazy("CSV column", "Game"),
    "date": pgettext_lazy("CSV column", "Date"),
    "club": pgettext_lazy("CSV column", "Club"),
    "season": pgettext_lazy("CSV column", "Season"),
    "place": pgettext_lazy("CSV column", "Place"),
    "note": pgettext_lazy("CSV column", "Note"),
    "variant": pgettext_lazy("CSV column", "Variant"),
    "deck": pgettext_lazy("CSV column", "Deck"),
    "seats": pgettext_lazy("CSV column", "Seats"),
    "target": pgettext_lazy("CSV column", "Target"),
    "min_bid": pgettext_lazy("CSV column", "Minimum bid"),
    "first_dealer": pgettext_lazy("CSV column", "First dealer"),
    "meld_needs_trick": pgettext_lazy("CSV column", "Meld needs a trick"),
    "deals": pgettext_lazy("CSV column", "Game length (deals)"),
    "bid_steps": pgettext_lazy("CSV column", "Bid steps"),
    "meld_counts_from": pgettext_lazy("CSV column", "Meld counts from"),
    "spread": pgettext_lazy("CSV column", "Winning spread"),
    "scale": pgettext_lazy("CSV column", "Points shown"),
    "hands": pgettext_lazy("CSV column", "Hands"),
    "finished": pgettext_lazy("CSV column", "Finished"),
    "winner": pgettext_lazy("CSV column", "Winner"),
    "hand": pgettext_lazy("CSV column", "Hand"),
    "dealer": pgettext_lazy("CSV column", "Dealer"),
    "bidder": pgettext_lazy("CSV column", "Bidder"),
    "bid": pgettext_lazy("CSV column", "Bid"),
    "trump": pgettext_lazy("CSV column", "Trump"),
    "passed": pgettext_lazy("CSV column", "All passed"),
    "conceded": pgettext_lazy("CSV column", "Conceded"),
    "result": pgettext_lazy("CSV column", "Result"),
}
# Longest prefix first: "meld_points_NS" is not "meld_" + "points_NS".
_COLUMN_PREFIXES = {
    "meld_points_": pgettext_lazy("CSV column", "Meld points"),
    "tricks_won_": pgettext_lazy("CSV column", "Tricks won"),
    "chip_total_": pgettext_lazy("CSV column", "Chip total"),
    "player_": pgettext_lazy("CSV column", "Player"),
    "melds_": pgettext_lazy("CSV column", "Melds shown"),
    "meld_": pgettext_lazy("CSV column", "Meld"),
    "tricks_": pgettext_lazy("CSV column", "Trick points"),
    "points_": pgettext_lazy("CSV column", "Points"),
    "total_": pgettext_lazy("CSV column", "Total"),
    "chips_": pgettext_lazy("CSV column", "Chips"),
}


def local_header(columns: Sequence[str]) -> list[str]:
    """The column names in the active language: "Body N–S", "Hráč Sever" ("points_NS", "player_N")."""
    out = []
    for column in columns:
        if column in _COLUMN_WORDS:
            out.append(str(_COLUMN_WORDS[column]))
            continue
        for prefix, word in _COLUMN_PREFIXES.items():
            if column.startswith(prefix):
                where = column[len(prefix) :]
                place = str(SEAT_NAMES[where]) if where in SEAT_NAMES else side_short(where)
                out.append(f"{word} {place}")
                break
        else:  # pragma: no cover - every column is named above (tested)
            out.append(column)
    return out
