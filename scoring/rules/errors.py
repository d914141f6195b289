from __future__ import annotations


class RecordError(ValueError):
    """A game record the rules refuse, with where it went wrong.

    `hand` is the 1-based hand number (None for the game's settings), `field` the dotted path of
    the offending key (`"tricks"`, `"melds.E"`, `"bid"`), and `message` a sentence a player can
    act on, which names the field itself. `str()` gives the one-line form `score_game` prints:
    `hand 3: tricks add up to 24, expected 25`.
    """

    def __init__(self, message: str, *, field: str, hand: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.hand = hand

    def __str__(self) -> str:
        return f"hand {self.hand}: {self.message}" if self.hand is not None else self.message
