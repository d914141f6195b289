"""A stored hand back on the entry form, to correct it."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from scoring.rules.settings import Settings


def hand_initial(data: Mapping[str, Any], settings: Settings, number: int) -> dict[str, Any]:
    """The form's initial values for a stored hand object (to correct it)."""
    initial: dict[str, Any] = {"number": number, "submission_id": uuid.uuid4()}
    if data.get("passed"):
        initial["passed"] = True
        return initial
    for key in ("bidder", "bid", "trump", "conceded"):
        if key in data:
            initial[key] = data[key]
    if "meld_points" in data:
        initial["meld_mode"] = "points"
        # Stored per side: a 4-seat side's points are shown on its first seat (N or E).
        for side, points in data["meld_points"].items():
            initial[f"meld_points_{side[0]}"] = points
    for seat, items in (data.get("melds") or {}).items():
        for item in items:
            key = f"meld_{seat}_{item}"
            initial[key] = initial.get(key, 0) + 1
    for side, points in (data.get("tricks") or {}).items():
        initial[f"tricks_{side}"] = points
    for side, won in (data.get("tricks_won") or {}).items():
        if won == settings.tricks_per_hand:
            initial["slam"] = side
    return initial
