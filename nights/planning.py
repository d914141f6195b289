"""Drawing the tables of a club night: who sits where, with whom, in every round.

Plain Python (no Django), deterministic: the same players, table sizes, rounds and seed always give
the same plan.

Input: the player ids present in check-in order, the table sizes the variant allows (Check Pinochle:
`(4,)`; the standard game: `(4, 3, 2)`), the number of rounds and a seed.

Output: a `NightPlan` whose rounds are lists of tables plus the players on a bye. A table lists its
seats in the order N, E, S, W (`Table.seats`); at 4 seats the partners are N-S and E-W, at 3 and 2
seats every player plays alone.

Rules the draw keeps, in this order of importance:

1. **Table sizes.** As many 4-seat tables as the allowed sizes permit, then 3-seat, then 2-seat
   ones: 9 players at `(4, 3, 2)` give 4 + 3 + 2, 10 give 4 + 4 + 2, 11 give 4 + 4 + 3.
2. **Byes** only when the players present cannot all be seated (Check Pinochle with a number that
   is not a multiple of 4, or a single player): the bye goes to whoever has had the fewest byes, then
   to whoever has played the most rounds (so a late arrival is not sent off at once), then by the
   seeded order of the night. 9 players over 9 rounds of Check Pinochle: everyone sits out once.
3. **Partners rotate**: nobody partners the same person twice while it can be avoided. Each round
   is drawn by a local search (swapping two players, or two partnerships between tables) that
   starts from a round robin of the players: with 8 players, 7 rounds in which everyone partners
   every other player exactly once and meets every other player twice as an opponent (a whist
   schedule; the starter pairs are found by a small search, `_starter`).
4. **Opponents spread**: the search also keeps down how often two players have already met as
   opponents (it adds the meetings so far of every new pair of opponents, which keeps the sum of
   squares of the meeting counts low), and rotates who plays at the smaller 3- and 2-seat tables.

The night is drawn first with partners free to leave the round robin (best for spreading
opponents); if a partnership then repeats, it is drawn again holding to the round robin, and then
from other seeded orders of the players (at most 8 draws, a fixed number so the result never
depends on the machine's speed); the draw with the fewest repeats, then the most even opponents,
is kept. 40 players over 8 rounds take about 0.03 s.

Changes during the night keep what has been played: `swap_players` swaps two players in a round that
has not started yet and re-draws the rounds after it; `add_player` and `remove_player` re-draw the
rounds from a given round on for the new list of players present. Rounds before it stay as they are.
"""

from __future__ import annotations

import random
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
_REPEAT_PARTNER = 10_000
_ROUND_ROBIN_HOLDS = (0, 40)
_SMALL_TABLE = 6
_MAX_PASSES = 60
_ORDERS = 4


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


@dataclass
class _History:
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


def table_sizes(present: int, allowed: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """The table sizes for `present` players and how many of them sit out.

    Fewest byes first, then as many of the largest allowed table as possible, then the next size:
    `table_sizes(9, (4, 3, 2)) == ((4, 3, 2), 0)`, `table_sizes(10, (4,)) == ((4, 4), 2)`.
    """
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


def _starter(circle: int) -> list[tuple[int, int]]:
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
        return pairs
    return [(i, circle - i) for i in range(1, circle // 2 + 1)]


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
    starter = _STARTERS.get(circle)
    if starter is None:
        starter = _STARTERS[circle] = _starter(circle)
    pairs = [(m - 1, k)] + [((a + k) % circle, (b + k) % circle) for a, b in starter]
    for a, b in pairs:
        if a < order_size and b < order_size:
            partner[a], partner[b] = b, a
    return partner


_STARTERS: dict[int, list[tuple[int, int]]] = {}


class _RoundSearch:
    """Hill climbing over the seats of one round (players are internal indices)."""

    def __init__(self, history: _History, sizes: Sequence[int], reference: Sequence[int], hold: int) -> None:
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
                _REPEAT_PARTNER * (part[a][c] + part[b][d])
                + self.hold * ((ref[a] != c) + (ref[b] != d))
                + opp[a][b]
                + opp[a][d]
                + opp[c][b]
                + opp[c][d]
            )
        seats = slots[start : start + size]
        cost = sum(_SMALL_TABLE * self.history.small[p] for p in seats)
        for i in range(size):
            row = opp[seats[i]]
            for j in range(i + 1, size):
                cost += row[seats[j]]
        return cost

    def climb(self, slots: list[int]) -> list[int]:
        n = len(slots)
        fours = [t for t, size in enumerate(self.sizes) if size == 4]
        costs = [self.table_cost(slots, t) for t in range(len(self.sizes))]
        for _ in range(_MAX_PASSES):
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


def _draw_round(
    history: _History, round_index: int, order: Sequence[int], allowed: Sequence[int], hold: int
) -> tuple[list[int], tuple[int, ...], list[int]]:
    """Seats (flat, table after table), table sizes and byes of one round, by internal index.

    `order` lists the present players (internal indices) in the night's seeded order; the round
    robin runs over the positions in it.
    """
    sizes, bye_count = table_sizes(len(order), allowed)
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


def _seeded_order(players: Sequence[PlayerId], seed: int, attempt: int) -> list[PlayerId]:
    order = list(players)
    random.Random(f"{seed}:{attempt}").shuffle(order)
    return order


def _validate(players: Sequence[PlayerId], allowed: Sequence[int], rounds: int) -> None:
    if len(set(players)) != len(players):
        raise PlanError("A player is checked in twice.", field="players", code="duplicate_player")
    if not allowed or any(size not in (2, 3, 4) for size in allowed):
        raise PlanError(
            "Tables have 2, 3 or 4 seats.", field="table_sizes", code="table_size", params={"sizes": allowed}
        )
    if rounds < 0:
        raise PlanError("The number of rounds cannot be negative.", field="rounds", code="rounds")


def _draw(
    players: Sequence[PlayerId],
    allowed: Sequence[int],
    total_rounds: int,
    seed: int,
    played: Sequence[Round],
) -> tuple[Round, ...]:
    """The played rounds followed by the rest of the night drawn for `players`."""
    everyone = list(dict.fromkeys([*(p for r in played for p in (*r.seated, *r.byes)), *players]))
    index = {player: i for i, player in enumerate(everyone)}
    base = _History(len(everyone))
    for done in played:
        base.add(
            [index[p] for p in done.seated],
            [len(t.seats) for t in done.tables],
            [index[p] for p in done.byes],
        )
    remaining = total_rounds - len(played)
    best: tuple[tuple[int, int], list[Round]] | None = None
    # Up to 4 seeded orders, each with the round robin loose and then held firmly; the first draw
    # without a repeated partnership is kept, else the one with the fewest (then the least uneven
    # opponents). For 9 to 40 players over 6 rounds the very first draw has no repeat.
    attempts = [(order, hold) for order in range(_ORDERS) for hold in _ROUND_ROBIN_HOLDS]
    for attempt, hold in attempts:
        history = _History(len(everyone))
        history.partners = [row[:] for row in base.partners]
        history.opponents = [row[:] for row in base.opponents]
        history.byes, history.small, history.seated = base.byes[:], base.small[:], base.seated[:]
        order = [index[p] for p in _seeded_order(players, seed, attempt)]
        drawn: list[Round] = []
        repeats = 0
        for r in range(len(played), total_rounds):
            slots, sizes, byes = _draw_round(history, r, order, allowed, hold)
            start = 0
            for size in sizes:
                if size == 4:
                    a, b, c, d = slots[start : start + 4]
                    repeats += (history.partners[a][c] > 0) + (history.partners[b][d] > 0)
                start += size
            history.add(slots, sizes, byes)
            tables = []
            start = 0
            for size in sizes:
                tables.append(Table(tuple(everyone[p] for p in slots[start : start + size])))
                start += size
            drawn.append(Round(tuple(tables), tuple(everyone[p] for p in byes)))
        spread = sum(count * count for row in history.opponents for count in row)
        score = (repeats, spread)
        if best is None or score < best[0]:
            best = (score, drawn)
        if repeats == 0 or remaining == 0:
            break
    assert best is not None
    return (*played, *best[1])


def plan_night(
    *, players: Sequence[PlayerId], table_sizes: Sequence[int], rounds: int, seed: int
) -> NightPlan:
    """Draw every round of a night for `players` (check-in order) at tables of `table_sizes`."""
    _validate(players, table_sizes, rounds)
    drawn = _draw(players, table_sizes, rounds, seed, ())
    return NightPlan(tuple(players), tuple(table_sizes), seed, drawn)


def _check_round(plan: NightPlan, round_index: int) -> None:
    if not 0 <= round_index < len(plan.rounds):
        raise PlanError(
            f"There is no round {round_index + 1} in this night.",
            field="round",
            code="no_round",
            params={"round": round_index + 1},
        )


def swap_players(plan: NightPlan, *, round_index: int, first: PlayerId, second: PlayerId) -> NightPlan:
    """Swap the seats (or bye) of two players in round `round_index` (0-based), before it starts.

    Rounds before it stay as played; the rounds after it are drawn again so that the swap does not
    make a partnership repeat later in the night.
    """
    _check_round(plan, round_index)
    chosen = plan.rounds[round_index]
    for player, name in ((first, "first"), (second, "second")):
        if player not in chosen.seated and player not in chosen.byes:
            raise PlanError(
                "That player is not in this round.",
                field=name,
                code="not_in_round",
                params={"player": player},
            )
    if first == second:
        raise PlanError("Choose two different players to swap.", field="second", code="same_player")

    def swapped(seats: tuple[PlayerId, ...]) -> tuple[PlayerId, ...]:
        return tuple(second if p == first else first if p == second else p for p in seats)

    changed = Round(tuple(Table(swapped(t.seats)) for t in chosen.tables), swapped(chosen.byes))
    played = (*plan.rounds[:round_index], changed)
    drawn = _draw(plan.players, plan.table_sizes, len(plan.rounds), plan.seed, played)
    return NightPlan(plan.players, plan.table_sizes, plan.seed, drawn)


def add_player(plan: NightPlan, *, player: PlayerId, from_round: int) -> NightPlan:
    """A late arrival: `player` joins from round `from_round` (0-based) on; that round and the
    later ones are drawn again, the earlier ones stay as played."""
    if player in plan.players:
        raise PlanError("That player is already checked in.", field="player", code="already_present")
    return _replan(plan, (*plan.players, player), from_round)


def remove_player(plan: NightPlan, *, player: PlayerId, from_round: int) -> NightPlan:
    """`player` leaves: rounds from `from_round` (0-based) on are drawn again without them."""
    if player not in plan.players:
        raise PlanError("That player is not checked in.", field="player", code="not_present")
    return _replan(plan, tuple(p for p in plan.players if p != player), from_round)


def _replan(plan: NightPlan, players: tuple[PlayerId, ...], from_round: int) -> NightPlan:
    if not 0 <= from_round <= len(plan.rounds):
        raise PlanError(
            f"There is no round {from_round + 1} in this night.",
            field="round",
            code="no_round",
            params={"round": from_round + 1},
        )
    drawn = _draw(players, plan.table_sizes, len(plan.rounds), plan.seed, plan.rounds[:from_round])
    return NightPlan(players, plan.table_sizes, plan.seed, drawn)


@dataclass(frozen=True)
class PlanStats:
    """How well a plan rotates: partnerships repeated, and how often pairs met as opponents."""

    partner_repeats: int
    opponents_min: int
    opponents_max: int
    pairs_never_opponents: int
    pairs_never_partners: int


def plan_stats(plan: NightPlan) -> PlanStats:
    """Counts over every pair of players present (repeats: partnerships beyond the first)."""
    partners: dict[tuple[PlayerId, PlayerId], int] = {}
    opponents: dict[tuple[PlayerId, PlayerId], int] = {}
    for rnd in plan.rounds:
        for table in rnd.tables:
            for a, b in table.partnerships:
                key = (min(a, b), max(a, b))
                partners[key] = partners.get(key, 0) + 1
            for a, b in table.opponent_pairs:
                key = (min(a, b), max(a, b))
                opponents[key] = opponents.get(key, 0) + 1
    people = sorted(plan.players)
    pairs = [(a, b) for i, a in enumerate(people) for b in people[i + 1 :]]
    met = [opponents.get(pair, 0) for pair in pairs] or [0]
    return PlanStats(
        partner_repeats=sum(count - 1 for count in partners.values() if count > 1),
        opponents_min=min(met),
        opponents_max=max(met),
        pairs_never_opponents=sum(1 for pair in pairs if opponents.get(pair, 0) == 0),
        pairs_never_partners=sum(1 for pair in pairs if partners.get(pair, 0) == 0),
    )
