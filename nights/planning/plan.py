"""The plan of a club night as plain data: tables, rounds, the night, and what a draw has met so far.

Plain Python (no Django)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

PlayerId = int

CHECK_TABLE_SIZES: tuple[int, ...] = (4,)
STANDARD_TABLE_SIZES: tuple[int, ...] = (4, 3, 2)
SEAT_NAMES = "NESW"

# Weights of the per-round search. A repeated partnership outweighs everything else. The round
# robin is held to either not at all (partners change freely to spread opponents) or firmly (more
# than any realistic opponent count: only left when a repeat forces it), which long nights of few
# players need to get through without a repeat. A seat at a smaller table is rotated to whoever
# has had the fewest.
REPEAT_PARTNER = 10_000
ROUND_ROBIN_HOLDS = (0, 40)
SMALL_TABLE = 6
MAX_PASSES = 60
ORDERS = 4


class PlanError(ValueError):
    """A request the planner refuses: `code` names the problem, `params` the values its sentence needs.

    `str()` is an English sentence naming the field (`rounds`, `players`, ...), so a form can show it
    next to that field, or translate it from `code` and `params`.
    """

    def __init__(self, message: str, *, field: str, code: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code
        self.params: dict[str, Any] = dict(params or {})


@dataclass(frozen=True)
class Table:
    """One table of a round: `seats` in the order N, E, S, W (as many as the table has)."""

    seats: tuple[PlayerId, ...]

    @property
    def partnerships(self) -> tuple[tuple[PlayerId, PlayerId], ...]:
        """The partner pairs (N-S, E-W) at a 4-seat table; none at 3 or 2 seats."""
        if len(self.seats) != 4:
            return ()
        north, east, south, west = self.seats
        return ((north, south), (east, west))

    @property
    def opponent_pairs(self) -> tuple[tuple[PlayerId, PlayerId], ...]:
        """Every pair of players at the table who play against each other."""
        seats = self.seats
        if len(seats) == 4:
            north, east, south, west = seats
            return ((north, east), (north, west), (south, east), (south, west))
        return tuple((seats[i], seats[j]) for i in range(len(seats)) for j in range(i + 1, len(seats)))

    def seat_of(self, player: PlayerId) -> str:
        """The seat letter of `player` at this table (`"N"`, `"E"`, ...)."""
        return SEAT_NAMES[self.seats.index(player)]


@dataclass(frozen=True)
class Round:
    """One round: its tables (numbered from 1 in this order) and the players sitting out."""

    tables: tuple[Table, ...]
    byes: tuple[PlayerId, ...] = ()

    @property
    def seated(self) -> tuple[PlayerId, ...]:
        return tuple(player for table in self.tables for player in table.seats)


@dataclass(frozen=True)
class NightPlan:
    """The draw of a whole night; `players` are those present now, in check-in order."""

    players: tuple[PlayerId, ...]
    table_sizes: tuple[int, ...]
    seed: int
    rounds: tuple[Round, ...]
    # A Check Pinochle night that seats its 2 or 3 players left over at one standard table
    # (`rounds.table_sizes`) instead of giving them a bye.
    leftover_table: bool = False


@dataclass
class History:
    """Counts over the rounds already drawn, by internal player index."""

    size: int
    partners: list[list[int]] = field(default_factory=list)
    opponents: list[list[int]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    small: list[int] = field(default_factory=list)
    seated: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = self.size
        self.partners = [[0] * n for _ in range(n)]
        self.opponents = [[0] * n for _ in range(n)]
        self.byes = [0] * n
        self.small = [0] * n
        self.seated = [0] * n

    def add(self, slots: Sequence[int], sizes: Sequence[int], byes: Iterable[int]) -> None:
        for player in byes:
            self.byes[player] += 1
        start = 0
        for size in sizes:
            seats = slots[start : start + size]
            start += size
            for player in seats:
                self.seated[player] += 1
                if size != 4:
                    self.small[player] += 1
            if size == 4:
                for a, b in ((0, 2), (1, 3)):
                    self.partners[seats[a]][seats[b]] += 1
                    self.partners[seats[b]][seats[a]] += 1
                pairs: Iterable[tuple[int, int]] = ((0, 1), (0, 3), (2, 1), (2, 3))
            else:
                pairs = ((i, j) for i in range(size) for j in range(i + 1, size))
            for a, b in pairs:
                self.opponents[seats[a]][seats[b]] += 1
                self.opponents[seats[b]][seats[a]] += 1
