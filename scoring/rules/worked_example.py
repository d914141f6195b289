"""The worked example of docs/rules.md: one record file (docs/examples/record-example.json) that the
rules page shows, the tests and benchmarks play and the docs work through."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

PATH = Path(__file__).resolve().parents[2] / "docs" / "examples" / "record-example.json"


@functools.cache
def _text() -> str:
    return PATH.read_text(encoding="utf-8")


def record() -> dict[str, Any]:
    """The example game record (a fresh copy: callers may change it)."""
    data: dict[str, Any] = json.loads(_text())
    return data


def hand(number: int = 1) -> dict[str, Any]:
    """Hand `number` of the example (hand 1: N bids 27 in hearts and makes it, NS +36, EW +20)."""
    data: dict[str, Any] = record()["hands"][number - 1]
    return data


def entry_fields(hand_obj: dict[str, Any]) -> dict[str, str]:
    """What the entry form posts for a played 4-seat hand with meld lists (bid, trump, picker
    counts such as `meld_N_run`, NS's trick points): the table typing the example in."""
    fields = {"bidder": hand_obj["bidder"], "bid": str(hand_obj["bid"]), "trump": hand_obj["trump"]}
    for seat, items in hand_obj["melds"].items():
        for item in items:
            key = f"meld_{seat}_{item}"
            fields[key] = str(int(fields.get(key, "0")) + 1)
    fields["tricks_NS"] = str(hand_obj["tricks"]["NS"])
    return fields
