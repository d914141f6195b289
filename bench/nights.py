"""Club night draws: partner repeats, the spread of opponents and the time per plan.

    .venv/bin/python bench/nights.py [--seed 1] [--variant check|standard|both]

Draws a plan for every number of players from 8 to 40 over 3 to 8 rounds and prints, per size,
the partnerships repeated, how often two players met as opponents (fewest and most times, and how
many pairs never met), and the time to draw the plan. Aims: 8 players over 7 rounds
partner every other player exactly once; 9-40 players over 6 rounds repeat no partnership; a plan
for 40 players in under 1 s.

Then the movements (rotating, progressive, lowest total stays, fixed) for 8 to 40 players over 4 to
8 rounds of Check Pinochle (tables of four, byes when needed), each later round planned from seeded
random results of the round before (`nights.planning.movements`): per movement and number of
players, the partnerships repeated (beyond the first) and the mean number of distinct tables a
player sat at, over the longest night (8 rounds), then a line per movement over every size and
length. `--movements-only` prints only these.

Then (unless `--no-db`) the same for a stored night, on a fresh SQLite database: 40 players
checked in, 8 rounds of Check Pinochle drawn and written (`nights.services.draw_plan`), round 1
started (10 games filed through scoring's services), and the organiser's night page and the
standings page drawn, with their query counts.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import random  # noqa: E402

from nights.planning import movements  # noqa: E402
from nights.planning.night import plan_night, plan_stats  # noqa: E402
from nights.planning.plan import CHECK_TABLE_SIZES, STANDARD_TABLE_SIZES, NightPlan, Round  # noqa: E402

VARIANTS = {"check": CHECK_TABLE_SIZES, "standard": STANDARD_TABLE_SIZES}


def timed_plan(players: int, rounds: int, sizes: tuple[int, ...], seed: int) -> tuple[NightPlan, float]:
    started = time.perf_counter()
    plan = plan_night(players=list(range(1, players + 1)), table_sizes=sizes, rounds=rounds, seed=seed)
    return plan, time.perf_counter() - started


def moved_night(movement: str, players: int, rounds: int, seed: int) -> list[Round]:
    """A night of Check Pinochle under `movement`, every game's result drawn at random."""
    present = list(range(1, players + 1))
    if movement == movements.ROTATING:
        return list(
            plan_night(players=present, table_sizes=CHECK_TABLE_SIZES, rounds=rounds, seed=seed).rounds
        )
    played = list(plan_night(players=present, table_sizes=CHECK_TABLE_SIZES, rounds=1, seed=seed).rounds)
    dice = random.Random(f"{seed}:{movement}:{players}:{rounds}")
    byes: dict[int, int] = {}
    partners: dict[tuple[int, int], int] = {}
    while len(played) < rounds:
        last = played[-1]
        for table in last.tables:
            for a, b in table.partnerships:
                partners[(min(a, b), max(a, b))] = partners.get((min(a, b), max(a, b)), 0) + 1
        for player in last.byes:
            byes[player] = byes.get(player, 0) + 1
        outcomes = []
        for table in last.tables:
            north_south, east_west = dice.randrange(0, 250, 10), dice.randrange(0, 250, 10)
            winners = table.partnerships[0] if north_south >= east_west else table.partnerships[1]
            totals = {p: north_south for p in table.partnerships[0]} | {
                p: east_west for p in table.partnerships[1]
            }
            outcomes.append(movements.TableOutcome(winners=frozenset(winners), totals=totals))
        played.append(
            movements.next_round(
                last,
                outcomes,
                movement=movement,
                present=present,
                allowed=CHECK_TABLE_SIZES,
                byes_so_far=byes,
                partners_so_far=partners,
            )
        )
    return played


def movement_figures(rounds: list[Round], players: int) -> tuple[int, float]:
    """(partnerships repeated beyond the first, mean distinct tables a player sat at)."""
    partners: dict[tuple[int, int], int] = {}
    tables: dict[int, set[int]] = {p: set() for p in range(1, players + 1)}
    for rnd in rounds:
        for number, table in enumerate(rnd.tables, start=1):
            for a, b in table.partnerships:
                key = (min(a, b), max(a, b))
                partners[key] = partners.get(key, 0) + 1
            for player in table.seats:
                tables[player].add(number)
    repeats = sum(count - 1 for count in partners.values() if count > 1)
    return repeats, sum(len(seen) for seen in tables.values()) / players


def bench_movements(seed: int) -> None:
    print("movements (Check Pinochle, random results; 8 rounds: repeats, mean distinct tables per player)")
    print(" ".join(f"{title:>9}" for title in ("players", *(m[:9] for m in movements.MOVEMENTS))))
    # per movement: repeats, distinct tables (summed over nights), partnerships, nights
    totals: dict[str, list[float]] = {m: [0, 0.0, 0, 0] for m in movements.MOVEMENTS}
    for players in range(8, 41):
        row = []
        for movement in movements.MOVEMENTS:
            for rounds in range(4, 9):
                night = moved_night(movement, players, rounds, seed)
                assert all(sorted((*r.seated, *r.byes)) == list(range(1, players + 1)) for r in night)
                repeats, spread = movement_figures(night, players)
                total = totals[movement]
                total[0] += repeats
                total[1] += spread
                total[2] += sum(len(t.partnerships) for r in night for t in r.tables)
                total[3] += 1
                if rounds == 8:
                    row.append(f"{repeats:>3} {spread:>4.1f}")
        if players % 4 == 0:
            print(f"{players:>9}", " ".join(f"{cell:>9}" for cell in row))
    for movement, (repeated, tables, pairs, nights) in totals.items():
        print(
            f"nights: {movement} over 8–40p×4–8r ({nights:.0f} nights): {repeated:.0f} partnerships repeated "
            f"({100 * repeated / pairs:.1f}% of partnerships), a player sat at {tables / nights:.2f} "
            "distinct tables on average"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=["check", "standard", "both"], default="both")
    parser.add_argument("--no-db", action="store_true", help="skip the stored night and its pages")
    parser.add_argument("--movements-only", action="store_true", help="only the movements, no draws or pages")
    args = parser.parse_args()
    if args.movements_only:
        bench_movements(args.seed)
        return
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
    bench_movements(args.seed)
    if not args.no_db:
        stored_night()


def stored_night(players: int = 40, rounds: int = 8) -> None:
    """Draw, store and show a night of `players` through the app, on a throwaway SQLite file."""
    os.environ["DATABASE_URL"] = (
        f"sqlite:///{Path(tempfile.mkdtemp(prefix='nights-bench-')) / 'bench.sqlite3'}"
    )
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pinochle_site.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from clubs.models import Club, Membership, Player
    from nights import arrivals, services
    from nights.rounds import start_round

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Bench club")
    roster = [Player.objects.create(name=f"Player {n:02d}") for n in range(1, players + 1)]
    Membership.objects.bulk_create(Membership(club=club, player=player) for player in roster)
    night = services.open_night(
        club=club, season=None, played_on=datetime.date(2026, 12, 1), variant="check", deck="single",
        target=None, min_bid=None, meld_needs_trick=False, rounds=rounds, round_ends="game",
        hands_per_round=None, stake_per_chip=None, stake_per_win=None, created_by=None,
    )  # fmt: skip
    for player in roster:
        arrivals.set_checked_in(night=night, player=player, present=True)
    began = time.perf_counter()
    services.draw_plan(night=night)
    drawn = time.perf_counter() - began
    began = time.perf_counter()
    start_round(night=night, round_no=1)
    started = time.perf_counter() - began
    client = Client()
    client.force_login(User.objects.create_superuser("bench-organiser", None, None))
    pages = []
    for url in (f"/nights/{night.pk}/", f"/nights/{night.pk}/standings/"):
        client.get(url)  # warm
        with CaptureQueriesContext(connection) as queries:
            began = time.perf_counter()
            response = client.get(url)
            pages.append((url, time.perf_counter() - began, len(queries), response.status_code))
    print(
        f"nights: {players}p×{rounds}r stored night: draw and write {drawn:.2f} s, "
        f"start round 1 ({night.games.count()} games) {started:.2f} s; "
        + "; ".join(
            f"{url} {seconds * 1000:.0f} ms, {count} queries ({status})"
            for url, seconds, count, status in pages
        )
    )


if __name__ == "__main__":
    main()
