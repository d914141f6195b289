"""A started table's figures as a club night counts them: the standings, the ledger and what a
bye earns read the tables once (`started_tables`) and count them by this one rule."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from nights.models import Night, NightTable
from scoring.models import Game, GameSeat, GameStat
from scoring.rules.tables import SEAT_ORDER, sides_for


@dataclass(frozen=True)
class StartedTable:
    """A table whose game has started, with its seats (N, E, S, W; players loaded) and its figures
    as the night counts them (`table_figures`)."""

    night_id: int
    round_no: int
    table_no: int
    game: Game
    rows: list[GameSeat]
    points: dict[str, int]
    chips: dict[str, int]
    complete: bool
    winner: str

    @property
    def sides(self) -> tuple[str, ...]:
        return sides_for(self.game.seats)

    def side_of(self, seat: str) -> str:
        return next(side for side in self.sides if seat in side)

    @property
    def players(self) -> dict[str, int] | None:
        """Each seat's player, or None when a seat is not linked to a player (unlinked by hand):
        such a game counts for nobody's chips or money, as the pair-wise rule needs every partner."""
        linked = {row.seat: row.player_id for row in self.rows if row.player_id is not None}
        return linked if self.rows and len(linked) == len(self.rows) else None


def started_tables(nights: Sequence[Night]) -> list[StartedTable]:
    """The started tables of `nights`, by night, round and table: three queries whatever their size."""
    tables = list(
        NightTable.objects.filter(night__in=nights, game__isnull=False)
        .select_related("game")
        .order_by("night_id", "round_no", "table_no")
    )
    game_ids = [table.game_id for table in tables]
    rows: dict[int, list[GameSeat]] = defaultdict(list)
    for row in GameSeat.objects.filter(game_id__in=game_ids).select_related("player"):
        rows[row.game_id].append(row)
    stats: dict[int, list[GameStat]] = defaultdict(list)
    for stat in GameStat.objects.filter(game_id__in=game_ids):
        stats[stat.game_id].append(stat)
    out = []
    for table in tables:
        game = table.game
        assert game is not None
        points, chips, complete, winner = table_figures(game, stats[game.pk])
        seats = sorted(rows[game.pk], key=lambda row: SEAT_ORDER.index(row.seat))
        out.append(
            StartedTable(
                table.night_id, table.round_no, table.table_no, game, seats, points, chips, complete, winner
            )
        )
    return out


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
