"""Drawing a whole night, changing it during the night (swap, add, remove a player), and its
figures (the rules in `nights.planning`).

Plain Python (no Django)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from nights.planning.plan import (
    ORDERS,
    ROUND_ROBIN_HOLDS,
    History,
    NightPlan,
    PlanError,
    PlayerId,
    Round,
    Table,
)
from nights.planning.rounds import draw_round


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
    leftover_table: bool = False,
) -> tuple[Round, ...]:
    """The played rounds followed by the rest of the night drawn for `players`."""
    everyone = list(dict.fromkeys([*(p for r in played for p in (*r.seated, *r.byes)), *players]))
    index = {player: i for i, player in enumerate(everyone)}
    base = History(len(everyone))
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
    attempts = [(order, hold) for order in range(ORDERS) for hold in ROUND_ROBIN_HOLDS]
    for attempt, hold in attempts:
        history = History(len(everyone))
        history.partners = [row[:] for row in base.partners]
        history.opponents = [row[:] for row in base.opponents]
        history.byes, history.small, history.seated = base.byes[:], base.small[:], base.seated[:]
        order = [index[p] for p in _seeded_order(players, seed, attempt)]
        drawn: list[Round] = []
        repeats = 0
        for r in range(len(played), total_rounds):
            slots, sizes, byes = draw_round(history, r, order, allowed, hold, leftover_table)
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
    *,
    players: Sequence[PlayerId],
    table_sizes: Sequence[int],
    rounds: int,
    seed: int,
    leftover_table: bool = False,
) -> NightPlan:
    """Draw every round of a night for `players` (check-in order) at tables of `table_sizes`;
    `leftover_table`: the players a table of four leaves over play at one standard table."""
    _validate(players, table_sizes, rounds)
    drawn = _draw(players, table_sizes, rounds, seed, (), leftover_table)
    return NightPlan(tuple(players), tuple(table_sizes), seed, drawn, leftover_table)


def _check_round(plan: NightPlan, round_index: int) -> None:
    if not 0 <= round_index < len(plan.rounds):
        raise PlanError(
            f"There is no round {round_index + 1} in this night.",
            field="round",
            code="no_round",
            params={"round": round_index + 1},
        )


def swap_players(
    plan: NightPlan, *, round_index: int, first: PlayerId, second: PlayerId, keep: Collection[int] = ()
) -> NightPlan:
    """Swap the seats (or bye) of two players in round `round_index` (0-based), before it starts.

    Rounds before it stay as played; the rounds after it are drawn again so that the swap does not
    make a partnership repeat later in the night, but those in `keep` (0-based, the organiser's
    earlier swaps in later rounds), which stay as they are, the others drawn around them.

    Example: four rounds, round 4 swapped by hand, then a swap in round 3:
    `swap_players(plan, round_index=2, first=1, second=5, keep={3})` keeps round 4 as it is; a
    swap in round 2 with the same `keep` draws round 3 again and keeps round 4.
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
    kept = {index: plan.rounds[index] for index in keep if index != round_index}
    return draw_keeping(
        plan, players=plan.players, from_round=round_index, kept={**kept, round_index: changed}
    )


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
    drawn = _draw(
        players, plan.table_sizes, len(plan.rounds), plan.seed, plan.rounds[:from_round], plan.leftover_table
    )
    return NightPlan(players, plan.table_sizes, plan.seed, drawn, plan.leftover_table)


def draw_keeping(
    plan: NightPlan, *, players: Sequence[PlayerId], from_round: int, kept: Mapping[int, Round]
) -> NightPlan:
    """The rounds from `from_round` (0-based) drawn again for `players`, except those in `kept`
    (0-based round -> round, the organiser's swaps), which stay as given; the rounds between them
    are drawn with the kept ones counted as played, so partners still rotate around them.

    Example: a late arrival (player 9) during round 1 of four rounds, round 3 swapped by hand:
    `draw_keeping(plan, players=(*plan.players, 9), from_round=1, kept={2: swapped})` draws round 2
    again with player 9, keeps round 3 as `swapped` (9 seated in it by the caller) and draws round
    4 after it.
    """
    if not 0 <= from_round <= len(plan.rounds) or any(not from_round <= k < len(plan.rounds) for k in kept):
        raise PlanError(
            f"There is no round {from_round + 1} in this night.",
            field="round",
            code="no_round",
            params={"round": from_round + 1},
        )
    rounds: tuple[Round, ...] = plan.rounds[:from_round]
    total = len(plan.rounds)
    while len(rounds) < total:
        index = len(rounds)
        if index in kept:
            rounds = (*rounds, kept[index])
            continue
        until = min((k for k in kept if k > index), default=total)
        rounds = _draw(players, plan.table_sizes, until, plan.seed, rounds, plan.leftover_table)
    return NightPlan(tuple(players), plan.table_sizes, plan.seed, rounds, plan.leftover_table)


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
