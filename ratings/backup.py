"""Ratings are not in a backup: every one of them is computed from the games, and a restore
computes them again from the restored games (this part's `load`, after the games' part)."""

from collections.abc import Mapping
from typing import Any

from backups.parts import Part
from ratings import services


def _load(data: Mapping[str, Any]) -> dict[str, int]:
    services.refresh_all()
    return {}


PART = Part(
    derived={
        "ratings.RatingScope": "derived: the last game rated per scope, recomputed from the games",
        "ratings.PlayerRating": "derived: each player's rating, recomputed from the games",
        "ratings.RatingPoint": "derived: a player's rating after each game, recomputed from the games",
        "ratings.PairRating": "derived: each partnership's rating, recomputed from the games",
    },
    load=_load,
)
