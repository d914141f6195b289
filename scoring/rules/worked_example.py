"""The worked example of docs/rules.md: one record file (docs/examples/record-example.json) that the
rules page shows, the tests and benchmarks play and the docs work through."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from scoring.rules.engine import check_record

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


def hand_table() -> dict[str, Any]:
    """Hand 1 of the example as the engine scores it, per side (NS, EW), for the rules page's
    table: meld, trick points, points, meld and contract chips, chips, and the bidders' meld plus
    trick points. The page describes the melds in words."""
    data = record()
    data["hands"] = data["hands"][:1]
    hand_score = check_record(data).hands[0]
    bidders = hand_score.bidding_side or "NS"

    def row(values: Mapping[str, int]) -> list[int]:
        return [values["NS"], values["EW"]]

    return {
        "bid": data["hands"][0]["bid"],
        "result": hand_score.result,
        "meld": row(hand_score.meld),
        "tricks": row(hand_score.tricks),
        "bidders_total": hand_score.meld[bidders] + hand_score.tricks[bidders],
        "points": row(hand_score.points),
        "meld_chips": row({side: won["meld"] for side, won in hand_score.chips_won.items()}),
        "contract_chips": row({side: won["contract"] for side, won in hand_score.chips_won.items()}),
        "chips": row(hand_score.chips),
    }
