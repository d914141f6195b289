"""The chip ledger's part of a backup: every payment marked, with who marked it and when, its
form token, and the removed ones with who removed them and when; every field of every model of
the ledger, with its id (`backups.rows`). What a night brings each player is not stored anywhere
(it is read from the games), so it comes back with the games.

A night's lock keeps its figures as [name, amount] pairs, which its page compares with the night's
figures now: a lock whose figures are anything else is refused, naming the row."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from backups.parts import Part, whole_app
from backups.rows import BackupRefused

_ROWS = whole_app("ledger")


def _is_an_amount(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        return Decimal(value).is_finite()
    except InvalidOperation:
        return False


def figures_are_pairs(figures: Any) -> bool:
    """Figures as a lock keeps them (`ledger.selectors.figures_for_lock`): [[name, amount], …]."""
    return isinstance(figures, list) and all(
        isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and _is_an_amount(pair[1])
        for pair in figures
    )


def _load(data: Mapping[str, Any]) -> dict[str, int]:
    assert _ROWS.load is not None
    counts = _ROWS.load(data)
    section = data["ledger"]  # an object: the rows above were read from it
    locks = section.get("NightLock", [])
    for index, row in enumerate(locks, start=1):
        if "figures" in row and not figures_are_pairs(row["figures"]):
            raise BackupRefused(f"ledger.NightLock[{index}]: 'figures' is not a list of [name, amount] pairs")
    return counts


PART = Part(_ROWS.holds, _ROWS.derived, _ROWS.dump, _load)
