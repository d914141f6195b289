"""Signals the nights send; the ledger (which imports nights, not the other way) keeps its own rows.

`night_removing(night=…, keep_payments=…, removed_by=…)` is sent by `removal.remove_night` inside
its transaction, before anything is removed: a receiver refuses (ValidationError, nothing removed)
or lets go of its rows of the night (the ledger takes back the payments marked for it).

`night_settlement(night=…)` asks what is kept of a night's settlement; the ledger answers with a
`Settlement` (the payments marked for it, and whether it holds the night settled and locked).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.dispatch import Signal

night_removing = Signal()
night_settlement = Signal()


@dataclass(frozen=True)
class Settlement:
    """What is kept of a night's settlement: `payments` are the ledger's rows (marked and not taken
    back, by date), shown on the page that removes the night; `locked` keeps the night from being
    removed."""

    payments: list[Any] = field(default_factory=list)
    locked: bool = False
