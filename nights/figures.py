"""A started table's figures as a club night counts them (the standings, the ledger and what a
bye earns read this one rule)."""

from __future__ import annotations

from scoring.models import Game, GameStat
from scoring.rules.tables import sides_for


def table_figures(game: Game, stats: list[GameStat]) -> tuple[dict[str, int], dict[str, int], bool, str]:
    """(points by side, chips by side, complete, winner) of one table as the night counts it: the
    game as it stands, complete once it is over and no hand of it waits for the other side's OK
    (`awaits_confirmation`); the standings, the ledger and the byes count a table the same way."""
    sides = sides_for(game.seats)
    by_side = {stat.side: stat for stat in stats}
    points = {side: by_side[side].points_for for side in sides if side in by_side}
    chips = {side: by_side[side].chips for side in sides if side in by_side}
    complete = game.finished and not awaits_confirmation(game)
    return points, chips, complete, game.winner if game.finished else ""


def awaits_confirmation(game: Game) -> bool:
    """A hand of the game still waits for the other side's OK (a club's rule): the game is not final."""
    return bool(game.confirm_hands and game.unconfirmed_hands)


def points_difference(points: dict[str, int], side: str) -> int:
    """A side's points minus the best opposing side's: what the standings count for each of its seats."""
    others = [value for other, value in points.items() if other != side]
    return points.get(side, 0) - (max(others) if others else 0)
