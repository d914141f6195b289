"""Stored inputs: what the table said. Scores are derived by the rules engine (services.py).

A Hand row keeps the hand object the table entered (docs/record-format.md), so the engine can
rescore the game after any correction and nothing derived can drift out of sync. The summary fields on
Game (totals, finished, winner) are a cache the services rewrite in the same transaction as every
change of hands, for the games list.
"""

from scoring.models.changes import HandChange
from scoring.models.games import (
    FORMULA_STARTS,
    SEAT_CHOICES,
    Game,
    GameSeat,
    GameSetup,
    GameSignature,
    Hand,
    VisibleGameManager,
    new_game_code,
    seat_order,
)
from scoring.models.rights import Device, DeviceGame
from scoring.models.stats import GameStat, HandStat

__all__ = [
    "FORMULA_STARTS",
    "SEAT_CHOICES",
    "Device",
    "DeviceGame",
    "Game",
    "GameSeat",
    "GameSetup",
    "GameSignature",
    "GameStat",
    "Hand",
    "HandChange",
    "HandStat",
    "VisibleGameManager",
    "new_game_code",
    "seat_order",
]
