"""The Pinochle rules engine: plain Python, no Django. docs/rules.md is its specification."""

from scoring.rules.engine import GameResult, HandScore, parse_record, score_game, score_hand, score_record
from scoring.rules.errors import RecordError
from scoring.rules.record import Hand, Settings, parse_hand, parse_settings

__all__ = [
    "GameResult",
    "Hand",
    "HandScore",
    "RecordError",
    "Settings",
    "parse_hand",
    "parse_record",
    "parse_settings",
    "score_game",
    "score_hand",
    "score_record",
]
