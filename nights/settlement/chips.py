"""A night's chips and money per player: each side's chips to its players, chips to money, the
stake per game won (the rules in `nights.settlement`).

Plain Python (no Django)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TypeVar

PlayerId = int
Amount = TypeVar("Amount", int, Decimal)


class LedgerError(ValueError):
    """Figures the ledger refuses; `code` names the problem for a translated message."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class SideChips:
    """One side of a Check Pinochle game and the side's net chips in that game (+6, -6, ...)."""

    players: tuple[PlayerId, ...]
    chips: int


@dataclass(frozen=True)
class GameOutcome:
    """A standard game's result for a stake per game won: the winning and the losing players.

    A drawn game has no winners (and moves no money).
    """

    winners: tuple[PlayerId, ...]
    losers: tuple[PlayerId, ...]


def night_chips(games: Iterable[Sequence[SideChips]]) -> dict[PlayerId, int]:
    """Each player's net chips over the night's games: every partner gets the side's chips in full.

    >>> night_chips([[SideChips((1, 3), 6), SideChips((2, 4), -6)]])
    {1: 6, 3: 6, 2: -6, 4: -6}
    """
    totals: dict[PlayerId, int] = {}
    for number, sides in enumerate(games, start=1):
        if sum(side.chips for side in sides) != 0:
            raise LedgerError(
                f"Game {number}: the sides' chips do not add up to zero.", code="chips_not_zero"
            )
        if len({len(side.players) for side in sides}) > 1:
            raise LedgerError(
                f"Game {number}: the sides have different numbers of players.", code="side_sizes"
            )
        for side in sides:
            for player in side.players:
                totals[player] = totals.get(player, 0) + side.chips
    return totals


def chips_to_money(chips: Mapping[PlayerId, int], stake_per_chip: Decimal) -> dict[PlayerId, Decimal]:
    """Net chips x the stake per chip: `{1: 6, 2: -6}` at 0.50 gives `{1: 3.00, 2: -3.00}`."""
    return {player: count * stake_per_chip for player, count in chips.items()}


def game_stakes(games: Iterable[GameOutcome], stake_per_game: Decimal) -> dict[PlayerId, Decimal]:
    """Money per player when a standard night plays for a stake per game won (module docstring).

    Each loser pays `stake_per_game`; the winners share the losers' stakes equally, which must divide
    exactly in the stake's smallest unit (it always does at 2, 3 and 4 seats).
    """
    totals: dict[PlayerId, Decimal] = {}
    for number, game in enumerate(games, start=1):
        if set(game.winners) & set(game.losers):
            raise LedgerError(f"Game {number}: a player both won and lost.", code="winner_and_loser")
        if not game.winners:
            continue
        pot = stake_per_game * len(game.losers)
        share = pot / len(game.winners)
        if share * len(game.winners) != pot or share.quantize(stake_per_game) != share:
            raise LedgerError(
                f"Game {number}: the stakes cannot be shared equally among the winners.", code="uneven_share"
            )
        for player in game.losers:
            totals[player] = totals.get(player, Decimal(0)) - stake_per_game
        for player in game.winners:
            totals[player] = totals.get(player, Decimal(0)) + share
    return totals
