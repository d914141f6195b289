"""Club night draws: partner repeats, the spread of opponents and the time per plan.

    .venv/bin/python bench/nights.py [--seed 1] [--variant check|standard|both]

Draws a plan for every number of players from 8 to 40 over 3 to 8 rounds and prints, per size,
the partnerships repeated, how often two players met as opponents (fewest and most times, and how
many pairs never met), and the time to draw the plan. Aims (issue 14): 8 players over 7 rounds
partner every other player exactly once; 9-40 players over 6 rounds repeat no partnership; a plan
for 40 players in under 1 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nights.planning import (  # noqa: E402
    CHECK_TABLE_SIZES,
    STANDARD_TABLE_SIZES,
    NightPlan,
    plan_night,
    plan_stats,
)

VARIANTS = {"check": CHECK_TABLE_SIZES, "standard": STANDARD_TABLE_SIZES}


def timed_plan(players: int, rounds: int, sizes: tuple[int, ...], seed: int) -> tuple[NightPlan, float]:
    started = time.perf_counter()
    plan = plan_night(players=list(range(1, players + 1)), table_sizes=sizes, rounds=rounds, seed=seed)
    return plan, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=["check", "standard", "both"], default="both")
    args = parser.parse_args()
    names = list(VARIANTS) if args.variant == "both" else [args.variant]

    eight_once = True
    six_round_repeats = 0
    slowest_forty = 0.0
    for name in names:
        sizes = VARIANTS[name]
        print(f"{name} (tables of {', '.join(map(str, sizes))})")
        header = ("players", "rounds", "repeats", "opp min", "opp max", "never met", "time")
        print(" ".join(f"{title:>9}" for title in header))
        for players in range(8, 41):
            for rounds in range(3, 9):
                plan, seconds = timed_plan(players, rounds, sizes, args.seed)
                stats = plan_stats(plan)
                if players == 8 and rounds == 7:
                    eight_once = eight_once and stats.partner_repeats == 0 and stats.pairs_never_partners == 0
                if rounds == 6 and players >= 9:
                    six_round_repeats += stats.partner_repeats
                if players == 40:
                    slowest_forty = max(slowest_forty, seconds)
                row = (
                    players,
                    rounds,
                    stats.partner_repeats,
                    stats.opponents_min,
                    stats.opponents_max,
                    stats.pairs_never_opponents,
                )
                print(" ".join(f"{value:>9}" for value in row), f"{seconds:>8.3f}s")
    print(
        f"nights: 8p×7r partners each exactly once: {'yes' if eight_once else 'no'}; "
        f"9–40p×6r partner repeats: {six_round_repeats}; 40p plan: {slowest_forty:.2f} s"
    )


if __name__ == "__main__":
    main()
