"""The Pinochle rules engine: plain Python, no Django. docs/rules.md is its specification."""

from scoring.rules.engine import (
    GameResult,
    HandScore,
    check_record,
    score_game,
    score_hand,
    score_record,
    score_record_text,
)
from scoring.rules.errors import RecordError
from scoring.rules.record import Hand, parse_hand
from scoring.rules.settings import Settings, parse_settings

__all__ = [
    "GameResult",
    "Hand",
    "HandScore",
    "RecordError",
    "Settings",
    "check_record",
    "parse_hand",
    "parse_settings",
    "score_game",
    "score_hand",
    "score_record",
    "score_record_text",
]
