"""Writes and the reads that score: every change of hands goes through here, one module per job
(`games` starts and deletes a game, `hands` writes its hands, `results` scores and stores).

One way through: `rules.check_record` checks a record and returns the engine's result (`score` asks
it for a stored game); `store_result` writes that result, the game's summary and its derived
statistics, in the transaction that changed the hands. Each write checks the whole game before
anything is saved, so a refused hand writes nothing, and it returns what it stored (`Stored`) so
the page can be drawn without scoring the game again.

Many modules across the apps call these as `services.record_hand(...)`: they are all importable
from here.
"""

from scoring.rules import RecordError
from scoring.services.games import create_game, delete_game
from scoring.services.hands import (
    GameMovedOn,
    HandConflict,
    SubmissionReused,
    delete_last_hand,
    edit_hand,
    find_submission,
    record_hand,
)
from scoring.services.results import (
    SETTINGS_FIELDS,
    SUMMARY_FIELDS,
    Stored,
    game_record,
    players_of,
    preview_hand,
    score,
    store_result,
    summary_fields,
)

__all__ = [
    "SETTINGS_FIELDS",
    "SUMMARY_FIELDS",
    "GameMovedOn",
    "HandConflict",
    "RecordError",
    "Stored",
    "SubmissionReused",
    "create_game",
    "delete_game",
    "delete_last_hand",
    "edit_hand",
    "find_submission",
    "game_record",
    "players_of",
    "preview_hand",
    "record_hand",
    "score",
    "store_result",
    "summary_fields",
]
