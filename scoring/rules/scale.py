"""The house rule `scale` (docs/rules.md, "Points ×10 (house rule)"): display and entry only.

A game at scale 10 shows and takes every point figure ×10 (single deck: 250 trick points a hand,
minimum bid 200, game 1500); the engine, the record and chips stay at the rule book's 1/10. This
module is the one place that converts: the forms read a typed figure with `typed`, the pages draw
a stored one with `shown` (the `points` template filter), and the bid stepper reads a typed bid
that need not be a multiple of the scale with `typed_rounded`.

>>> shown(25, 10), typed(250, 10), typed(255, 10), typed(255, 1)
(250, 25, None, 255)
>>> typed_rounded(255, 10, down=True), typed_rounded(255, 10, down=False), typed_rounded(250, 10, down=False)
(25, 26, 25)
"""

from __future__ import annotations

from typing import Final

#: The scales a game may show its points at; 1 is the rule book's.
SCALES: Final = (1, 10)


def shown(points: int, scale: int) -> int:
    """A stored point figure as the table sees and types it."""
    return points * scale


def typed(figure: int, scale: int) -> int | None:
    """A figure the table typed, as stored; None when it is not a multiple of the scale."""
    return None if figure % scale else figure // scale


def typed_rounded(figure: int, scale: int, *, down: bool) -> int:
    """A figure the table typed, as the stored figure at or below it (`down`) or at or above it."""
    return figure // scale if down else -(-figure // scale)
