from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class RecordError(ValueError):
    """A game record the rules refuse, with where it went wrong.

    `hand` is the 1-based hand number (None for the game's settings), `field` the dotted path of
    the offending key (`"tricks"`, `"melds.E"`, `"bid"`), and `message` a sentence a player can
    act on, which names the field itself. `str()` gives the one-line form `score_game` prints:
    `hand 3: tricks add up to 24, expected 25`.

    `code` names the kind of problem (`"tricks_total"`) and `params` the values its sentence
    needs (`{"total": 24, "expected": 25}`), so a page can say the same in the player's
    language (`scoring/engine_messages.py`); the English `message` stays the CLI's wording.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str,
        hand: int | None = None,
        code: str = "invalid",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.hand = hand
        self.code = code
        self.params: dict[str, Any] = dict(params or {})

    def __str__(self) -> str:
        return f"hand {self.hand}: {self.message}" if self.hand is not None else self.message
