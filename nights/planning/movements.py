"""Movements: where the players of a round sit in the next one, from the round's tables and results.

Plain Python (no Django), deterministic. A night's `movement` is one of:

- **rotating** (the default): every round is drawn up front with rotating partners
  (`nights.planning.night`); this module is not used.
- **progressive**: the winners of a table move up one table (table 1 is the top), the losers stay.
  The winners at table 1 stay; the losers at table 1 go to the bottom table (the usual rule of
  club progressive games: the top table's losers start again at the foot). At every table the pair
  that stayed splits and the pair that arrived splits, so both pairs switch partners: the players
  who stayed take N and E, those who arrived S and W (each in the seat order they had), so N
  partners the first arrival and E the second. Example with three tables, winners N-S at each:
  table 1 (1, 2, 3, 4), table 2 (5, 6, 7, 8), table 3 (9, 10, 11, 12) give table 1 (1, 3, 5, 7),
  table 2 (6, 8, 9, 11), table 3 (10, 12, 2, 4).
- **lowest_stays** (lowest total stays): at each table the side with the smallest total stays and
  the other side moves down one table (table t to t + 1; from the bottom table back to table 1).
  Seats as in progressive: the stayers take N and E, the arrivals S and W. A tie: the side that sat
  North stays.
- **fixed** (independent of results): N stays, S moves down one table, E up one, W up two, each to
  the same seat letter, wrapping round the room (up from table 1 is the bottom table). With four
  tables, table 1's next round is N from table 1, E from table 2, S from table 4, W from table 3.

At a table of 3 or 2 seats every player is a side: in progressive the winner moves up, in
lowest_stays the lowest player stays and the others move. A drawn game (no winner): the side that
sat North counts as the winner.

The movement gives every player a table; the players are then seated table after table in that
order (those who stay before those who arrive), so tables of equal size fill exactly. Where the
tables differ in size (the standard game's tables of 3 and 2) or the number present changed, the
seats are filled in that same order and a player left over goes to the next table down.

Where the arrivals' two seats (S and W) would make a partnership repeat that the other order
avoids, they swap: both pairs still switch partners.

**Byes** (the number present does not fill the tables) as in the rotating draw: the players who sat
out come back in, and the seats they need are those the movement gave to whoever has had the fewest
byes, then to the one placed lowest in the room (the bottom of the order). A player coming back
takes the seat of the one who now sits out. A late arrival comes in like a player back from a bye;
a player who left is simply not seated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from nights.planning.plan import PlanError, PlayerId, Round, Table
from nights.planning.rounds import table_sizes

ROTATING = "rotating"
PROGRESSIVE = "progressive"
LOWEST_STAYS = "lowest_stays"
FIXED = "fixed"
MOVEMENTS = (ROTATING, PROGRESSIVE, LOWEST_STAYS, FIXED)

#: Where a seat of the fixed movement goes: tables to move (+1 is one table down).
FIXED_STEPS = {"N": 0, "E": -1, "S": 1, "W": -2}
_SEATS = "NESW"


@dataclass(frozen=True)
class TableOutcome:
    """A finished table's result: the players of the winning side (empty: a draw) and each
    player's side total (the engine's final points)."""

    winners: frozenset[PlayerId] = frozenset()
    totals: Mapping[PlayerId, int] = field(default_factory=dict)


def _sides(table: Table) -> list[tuple[PlayerId, ...]]:
    """The table's sides in seat order: N-S then E-W at 4 seats, every player alone otherwise."""
    if len(table.seats) == 4:
        north, east, south, west = table.seats
        return [(north, south), (east, west)]
    return [(player,) for player in table.seats]


def _in_seat_order(table: Table, players: Sequence[PlayerId]) -> list[PlayerId]:
    return sorted(players, key=table.seats.index)


def _split(table: Table, outcome: TableOutcome, movement: str) -> tuple[list[PlayerId], list[PlayerId]]:
    """(those who stay, those who move) at one table."""
    sides = _sides(table)
    if movement == PROGRESSIVE:
        winning = next((side for side in sides if outcome.winners & set(side)), sides[0])
        movers = list(winning)
    else:
        stay = min(sides, key=lambda side: (outcome.totals.get(side[0], 0), sides.index(side)))
        movers = [p for side in sides if side != stay for p in side]
    stayers = [p for p in table.seats if p not in movers]
    return _in_seat_order(table, stayers), _in_seat_order(table, movers)


def movement_order(
    tables: Sequence[Table], outcomes: Sequence[TableOutcome], movement: str
) -> list[PlayerId]:
    """Every seated player of a round in the order of their next seats, table after table."""
    count = len(tables)
    placed: list[tuple[int, int, int, PlayerId]] = []  # (table, arrived, position, player)
    for t, table in enumerate(tables):
        if movement == FIXED:
            for seat, player in zip(_SEATS, table.seats, strict=False):
                target = (t + FIXED_STEPS[seat]) % count
                placed.append((target, 0, _SEATS.index(seat), player))
            continue
        stayers, movers = _split(table, outcomes[t], movement)
        if movement == PROGRESSIVE and t == 0:  # the top table's winners stay, its losers go to the foot
            stayers, movers = movers, stayers
            stay_at, move_to = 0, count - 1
        elif movement == PROGRESSIVE:
            stay_at, move_to = t, t - 1
        else:
            stay_at, move_to = t, (t + 1) % count
        same = stay_at == move_to
        placed += [(stay_at, 0, i, p) for i, p in enumerate(stayers)]
        placed += [
            (move_to, 0 if same else 1, i + (len(stayers) if same else 0), p) for i, p in enumerate(movers)
        ]
    placed.sort(key=lambda item: item[:3])
    return [player for *_key, player in placed]


def next_round(
    previous: Round,
    outcomes: Sequence[TableOutcome],
    *,
    movement: str,
    present: Sequence[PlayerId],
    allowed: Sequence[int],
    byes_so_far: Mapping[PlayerId, int] | None = None,
    partners_so_far: Mapping[tuple[PlayerId, PlayerId], int] | None = None,
    leftover_table: bool = False,
) -> Round:
    """The next round after `previous` under `movement`, for the players `present` (check-in order).

    `outcomes` has one entry per table of `previous` (ignored by the fixed movement);
    `byes_so_far` counts every player's byes in the night so far, `partners_so_far` how often
    each pair (smaller id first) has partnered: in progressive and lowest_stays the two arrivals
    at a table of four swap seats (S and W) when that makes fewer partnerships repeat.
    `leftover_table`: the tables are sized as the draw sizes them for a Check Pinochle night that
    seats its players left over at one standard table (`rounds.table_sizes`).
    """
    if movement not in MOVEMENTS or movement == ROTATING:
        raise PlanError(
            "Choose a movement.", field="movement", code="movement", params={"movement": movement}
        )
    if movement != FIXED and len(outcomes) != len(previous.tables):
        raise PlanError("Every table needs a result.", field="round", code="no_result")
    byes_so_far = byes_so_far or {}
    here = set(present)
    order = [p for p in movement_order(previous.tables, outcomes, movement) if p in here]
    seated_before = set(previous.seated)
    incoming = [p for p in previous.byes if p in here]
    incoming += [p for p in present if p not in seated_before and p not in incoming]
    sizes, bye_count = table_sizes(len(present), allowed, leftover_table=leftover_table)
    # Who sits out now: fewest byes so far, then lowest in the room; those coming back only when
    # there are not enough others.
    position = {p: i for i, p in enumerate(order)}
    candidates = sorted(order, key=lambda p: (byes_so_far.get(p, 0), -position[p]))
    out = candidates[:bye_count]
    if len(out) < bye_count:
        back = sorted(incoming, key=lambda p: (byes_so_far.get(p, 0), present.index(p)))
        extra = back[: bye_count - len(out)]
        out += extra
        incoming = [p for p in incoming if p not in extra]
    leaving = set(out)
    coming = list(incoming)
    filled: list[PlayerId] = []
    for player in order:
        if player in leaving:
            if coming:
                filled.append(coming.pop(0))
        else:
            filled.append(player)
    filled += coming
    tables: list[Table] = []
    start = 0
    for size in sizes:
        table = Table(tuple(filled[start : start + size]))
        if size == 4 and movement != FIXED and partners_so_far:
            table = _fewer_repeats(table, partners_so_far)
        tables.append(table)
        start += size
    order_in = {p: i for i, p in enumerate(present)}
    return Round(tuple(tables), tuple(sorted(out, key=order_in.__getitem__)))


def _fewer_repeats(table: Table, partners: Mapping[tuple[PlayerId, PlayerId], int]) -> Table:
    """The table, or the table with S and W swapped if fewer of its partnerships repeat."""
    north, east, south, west = table.seats
    swapped = Table((north, east, west, south))

    def repeats(candidate: Table) -> int:
        return sum(partners.get((min(a, b), max(a, b)), 0) for a, b in candidate.partnerships)

    return swapped if repeats(swapped) < repeats(table) else table
