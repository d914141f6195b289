"""Drawing one round: the table sizes, the round robin of partners it starts from, and the local
search that spreads partners and opponents (the rules in `nights.planning`).

Plain Python (no Django)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from nights.planning.plan import MAX_PASSES, REPEAT_PARTNER, SMALL_TABLE, History


def table_sizes(
    present: int, allowed: Sequence[int], *, leftover_table: bool = False
) -> tuple[tuple[int, ...], int]:
    """The table sizes for `present` players and how many of them sit out.

    Fewest byes first, then as many of the largest allowed table as possible, then the next size:
    `table_sizes(9, (4, 3, 2)) == ((4, 3, 2), 0)`, `table_sizes(10, (4,)) == ((4, 4), 2)`.

    `leftover_table` (a Check Pinochle night that seats its leftovers): as many tables of four as
    possible, and the 2 or 3 players left over at one standard table; a single player left over
    sits out (nobody plays alone): 9 give ((4, 4), 1), 10 give ((4, 4, 2), 0), 11 ((4, 4, 3), 0).
    """
    if leftover_table:
        fours, left = divmod(present, 4)
        if left == 1:
            return (4,) * fours, 1
        return (4,) * fours + ((left,) if left else ()), 0
    sizes = sorted(set(allowed), reverse=True)
    for byes in range(present + 1):
        found = _partition(present - byes, sizes)
        if found is not None:
            return found, byes
    return (), present


def _partition(total: int, sizes: Sequence[int]) -> tuple[int, ...] | None:
    if total == 0:
        return ()
    if not sizes:
        return None
    largest, rest = sizes[0], sizes[1:]
    for count in range(total // largest, -1, -1):
        tail = _partition(total - count * largest, rest)
        if tail is not None:
            return (largest,) * count + tail
    return None


@functools.cache
def _starter(circle: int) -> tuple[tuple[int, int], ...]:
    """Pairs of 1..circle-1 whose differences (mod `circle`) are all different, found by search.

    Developed mod `circle` they give a round robin like the circle method's, but the first one found
    in this order (for 8 players: 1-3, 2-6, 4-5) also lets the partnerships meet every other player
    as opponents equally often, which the circle method's own starter (1-6, 2-5, 3-4) does not.
    """
    points = list(range(1, circle))
    used: set[int] = set()
    pairs: list[tuple[int, int]] = []
    budget = [20_000]

    def search(left: list[int]) -> bool:
        if not left:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        a = left[0]
        for b in left[1:]:
            diff = min((b - a) % circle, (a - b) % circle)
            if diff in used:
                continue
            used.add(diff)
            pairs.append((a, b))
            if search([x for x in left if x not in (a, b)]):
                return True
            used.discard(diff)
            pairs.pop()
        return False

    # Past 15 the search is slow to find one and the night is over long before the round robin.
    if circle <= 15 and search(points):
        return tuple(pairs)
    return tuple((i, circle - i) for i in range(1, circle // 2 + 1))


def _round_robin(order_size: int, round_index: int) -> list[int]:
    """Partner of every position in round `round_index` of a round robin (-1: none).

    Positions 0..m-2 stand for the numbers mod m-1 and m-1 (a dummy when m is odd) for a fixed
    point: in round k the fixed point partners k and each starter pair (a, b) becomes (a+k, b+k).
    Over m-1 rounds (m even) every pair partners exactly once; with m odd, position k is the one
    left without a partner in round k.
    """
    m = order_size + (order_size % 2)
    partner = [-1] * order_size
    if m < 2:
        return partner
    circle = m - 1
    k = round_index % circle
    pairs = [(m - 1, k)] + [((a + k) % circle, (b + k) % circle) for a, b in _starter(circle)]
    for a, b in pairs:
        if a < order_size and b < order_size:
            partner[a], partner[b] = b, a
    return partner


class _RoundSearch:
    """Hill climbing over the seats of one round (players are internal indices)."""

    def __init__(self, history: History, sizes: Sequence[int], reference: Sequence[int], hold: int) -> None:
        self.history = history
        self.hold = hold
        self.sizes = list(sizes)
        self.starts: list[int] = []
        start = 0
        for size in sizes:
            self.starts.append(start)
            start += size
        self.table_of: list[int] = [t for t, size in enumerate(sizes) for _ in range(size)]
        self.reference = reference

    def table_cost(self, slots: Sequence[int], table: int) -> int:
        start, size = self.starts[table], self.sizes[table]
        opp = self.history.opponents
        if size == 4:
            a, b, c, d = slots[start : start + 4]
            part = self.history.partners
            ref = self.reference
            return (
                REPEAT_PARTNER * (part[a][c] + part[b][d])
                + self.hold * ((ref[a] != c) + (ref[b] != d))
                + opp[a][b]
                + opp[a][d]
                + opp[c][b]
                + opp[c][d]
            )
        seats = slots[start : start + size]
        cost = sum(SMALL_TABLE * self.history.small[p] for p in seats)
        for i in range(size):
            row = opp[seats[i]]
            for j in range(i + 1, size):
                cost += row[seats[j]]
        return cost

    def climb(self, slots: list[int]) -> list[int]:
        n = len(slots)
        fours = [t for t, size in enumerate(self.sizes) if size == 4]
        costs = [self.table_cost(slots, t) for t in range(len(self.sizes))]
        for _ in range(MAX_PASSES):
            improved = False
            for i in range(n):
                ti = self.table_of[i]
                for j in range(i + 1, n):
                    tj = self.table_of[j]
                    if ti == tj and (self.sizes[ti] != 4 or (j - i) % 2 == 0):
                        continue  # same table and the swap changes no partnership: no effect
                    slots[i], slots[j] = slots[j], slots[i]
                    if ti == tj:
                        new_i = self.table_cost(slots, ti)
                        if new_i < costs[ti]:
                            costs[ti] = new_i
                            improved = True
                        else:
                            slots[i], slots[j] = slots[j], slots[i]
                        continue
                    new_i = self.table_cost(slots, ti)
                    new_j = self.table_cost(slots, tj)
                    if new_i + new_j < costs[ti] + costs[tj]:
                        costs[ti], costs[tj] = new_i, new_j
                        improved = True
                    else:
                        slots[i], slots[j] = slots[j], slots[i]
            # Moving a whole partnership to another table changes only opponents.
            for x, tx in enumerate(fours):
                for ty in fours[x + 1 :]:
                    for px in (0, 1):
                        for py in (0, 1):
                            a0, a1 = self.starts[tx] + px, self.starts[tx] + px + 2
                            b0, b1 = self.starts[ty] + py, self.starts[ty] + py + 2
                            slots[a0], slots[b0] = slots[b0], slots[a0]
                            slots[a1], slots[b1] = slots[b1], slots[a1]
                            new_x = self.table_cost(slots, tx)
                            new_y = self.table_cost(slots, ty)
                            if new_x + new_y < costs[tx] + costs[ty]:
                                costs[tx], costs[ty] = new_x, new_y
                                improved = True
                            else:
                                slots[a0], slots[b0] = slots[b0], slots[a0]
                                slots[a1], slots[b1] = slots[b1], slots[a1]
            if not improved:
                break
        return slots

    def total(self, slots: Sequence[int]) -> int:
        return sum(self.table_cost(slots, t) for t in range(len(self.sizes)))


def draw_round(
    history: History,
    round_index: int,
    order: Sequence[int],
    allowed: Sequence[int],
    hold: int,
    leftover_table: bool = False,
) -> tuple[list[int], tuple[int, ...], list[int]]:
    """Seats (flat, table after table), table sizes and byes of one round, by internal index.

    `order` lists the present players (internal indices) in the night's seeded order; the round
    robin runs over the positions in it.
    """
    sizes, bye_count = table_sizes(len(order), allowed, leftover_table=leftover_table)
    position = {player: pos for pos, player in enumerate(order)}
    by_bye = sorted(order, key=lambda p: (history.byes[p], -history.seated[p], position[p]))
    byes = sorted(by_bye[:bye_count], key=position.__getitem__)
    off = set(byes)
    seated = [p for p in order if p not in off]

    robin = _round_robin(len(order), round_index)
    reference = [-1] * history.size
    for pos, partner_pos in enumerate(robin):
        if partner_pos >= 0:
            reference[order[pos]] = order[partner_pos]

    small_seats = sum(size for size in sizes if size != 4)
    by_small = sorted(seated, key=lambda p: (history.small[p], position[p]))
    small = set(by_small[:small_seats]) if small_seats else set()
    at_fours = [p for p in seated if p not in small]

    # Partnerships: the round robin's pairs first, then the rest by fewest previous partnerships.
    pairs: list[tuple[int, int]] = []
    taken: set[int] = set()
    members = set(at_fours)
    for p in at_fours:
        if p in taken:
            continue
        q = reference[p]
        if q in members and q not in taken:
            pairs.append((p, q))
            taken.update((p, q))
    left = [p for p in at_fours if p not in taken]
    while left:
        p = left.pop(0)
        q = min(left, key=lambda other: (history.partners[p][other], position[other]))
        left.remove(q)
        pairs.append((p, q))
    # Tables: each partnership meets the partnership it has met least as opponents.
    slots: list[int] = []
    while pairs:
        a, c = pairs.pop(0)
        opp = history.opponents
        b, d = min(
            pairs, key=lambda pair: opp[a][pair[0]] + opp[a][pair[1]] + opp[c][pair[0]] + opp[c][pair[1]]
        )
        pairs.remove((b, d))
        slots.extend((a, b, c, d))
    slots.extend(p for p in by_small if p in small)

    search = _RoundSearch(history, sizes, reference, hold)
    return search.climb(slots), sizes, byes
