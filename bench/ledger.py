"""Chip ledger benchmark: a season of club nights in a fresh SQLite database.

    .venv/bin/python bench/ledger.py [--nights 10] [--players 40] [--rounds 3] [--hands 4]

Builds a club of `--players` players and a season of `--nights` finished Check Pinochle nights at
0.50 a chip, each of `--rounds` rounds at tables of four with `--hands` hands per game (every hand
saved through the scoring service, so the stored results are the rules engine's), marks one
payment, then times through the Django test client: a night's settlement page (which scores the
night's games again to check them), the season ledger page and a statement, with their query counts;
and the fewest-payments search alone for 12 and 20 open balances (the exact search) and 40 (past
the exact limit), and a night's proposals replayed through its payments (`--search-only`: these
alone). Aims: pages < 0.5 s, 20 open balances < 0.5 s, and a query count that does not grow with
the number of nights.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client

    from clubs.models import Player, Season
    from nights.models import Night

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(client: Client, url: str, repeat: int = 3) -> tuple[float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    best = float("inf")
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as queries:
            began = time.perf_counter()
            response = client.get(url)
            best = min(best, time.perf_counter() - began)
        assert response.status_code == 200, (url, response.status_code)
    return best, len(queries)


def _check_hand(rng: random.Random, hands: Sequence[object]) -> dict[str, Any]:
    """One of the sample hands (tests/ledger_helpers.py), at random."""
    hand = rng.choice(hands)
    assert isinstance(hand, dict)
    return hand


def build(args: argparse.Namespace) -> tuple[User, Season, list[Night], list[Player]]:
    from django.contrib.auth.models import User

    from clubs.models import Club, ClubRole, Season
    from tests.ledger_helpers import CHECK_HANDS, make_night, roster

    rng = random.Random(args.seed)
    user = User.objects.create_user("organiser", password="x")
    club = Club.objects.create(name="Bench club")
    ClubRole.objects.create(user=user, club=club, role=ClubRole.Role.ORGANISER)
    season = Season.objects.create(
        club=club, name="Bench", starts_on=datetime.date(2026, 1, 1), ends_on=datetime.date(2026, 12, 31)
    )
    players = roster(club, *[f"Player {n:02d}" for n in range(1, args.players + 1)])
    nights = []
    for index in range(args.nights):
        order = rng.sample(players, len(players) - len(players) % 4)
        tables = [
            (order[t : t + 4], [_check_hand(rng, CHECK_HANDS) for _ in range(args.hands)])
            for _ in range(args.rounds)
            for t in range(0, len(order), 4)
        ]
        nights.append(
            make_night(
                club=club,
                season=season,
                tables=tables,
                played_on=datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * index),
                stake_per_chip=Decimal("0.50"),
            )
        )
    return user, season, nights, players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=10)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search-only", action="store_true", help="only the fewest-payments search")
    args = parser.parse_args()
    if args.search_only:
        search(args.seed)
        return

    db = Path(tempfile.mkdtemp(prefix="ledger-bench-")) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pinochle_site.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)

    began = time.perf_counter()
    user, season, nights, players = build(args)
    games = sum(night.tables.count() for night in nights)
    took = time.perf_counter() - began
    print(f"built {args.nights} nights, {games} games, {args.players} players in {took:.1f} s")

    from ledger import balances, selectors

    client = Client()
    client.force_login(user)
    night = nights[-1]
    suggestion = selectors.night_ledger(night).suggestions[0]
    response = client.post(
        f"/ledger/nights/{night.pk}/pay",
        {"payer": suggestion.payer, "payee": suggestion.payee, "amount": str(suggestion.amount),
         "unit": suggestion.unit, "token": "00000000-0000-4000-8000-000000000001"},
    )  # fmt: skip
    assert response.status_code == 302, response.status_code
    pages = [
        ("night settlement", f"/ledger/nights/{night.pk}/"),
        ("season ledger", f"/ledger/seasons/{season.pk}/"),
        ("statement", f"/ledger/seasons/{season.pk}/players/{players[0].pk}/{night.played_on:%Y-%m}/"),
    ]
    for label, url in pages:
        seconds, queries = timed(client, url)
        print(f"{label:18} {seconds * 1000:7.1f} ms  {queries:3d} queries  ({url})")
    ledger = balances.season_ledger(season)
    print(f"season totals {ledger.totals} (zero in every unit)")

    search(args.seed)


def search(seed: int) -> None:
    """The fewest-payments search alone: 12 and 20 open balances (exact), 40 (beyond the exact
    limit), each in cents with no structure and with planted groups that each add up to zero; and a
    night's proposals replayed through 10 recorded payments, half of them not proposed."""
    from ledger.compute import MONEY, Transfer, proposals
    from nights.settlement.payments import EXACT_LIMIT, fewest_payments

    rng = random.Random(seed)
    print(f"exact search up to {EXACT_LIMIT} open balances")
    for count in (12, 20, 40):
        for shape in ("random", "groups", "small chips"):
            if shape == "small chips":  # many subsets add up to zero: the most levels to search
                values = [0]
                while sum(values) == 0:
                    values = [rng.choice([-3, -2, -1, 1, 2, 3]) for _ in range(count - 1)]
                values.append(-sum(values))
                groups = 0
            elif shape == "random":
                values = [rng.randint(-9000, 9000) for _ in range(count - 1)]
                values.append(-sum(values))
                groups = 0
            else:
                sizes = [2, 3] * (count // 5) + [2] * (count % 5 // 2) + [3] * (count % 5 % 2)
                groups = len(sizes)
                values = []
                for size in sizes:
                    part = [rng.randint(-9000, 9000) or 1 for _ in range(size - 1)]
                    values += [*part, -sum(part)]
                rng.shuffle(values)
            scale = 0 if shape == "small chips" else -2
            book = {p: Decimal(v).scaleb(scale) for p, v in enumerate(values, start=1)}
            began = time.perf_counter()
            payments = fewest_payments(book)
            took = time.perf_counter() - began
            planted = f", {groups} zero-sum groups planted" if groups else ""
            print(f"fewest payments, {count} open balances ({shape}{planted}): {len(payments)} payments, "
                  f"{took * 1000:.1f} ms")  # fmt: skip
    sizes = [2, 3, 2, 3, 2, 3, 2, 3]
    values = []
    for size in sizes:
        part = [rng.randint(-9000, 9000) or 1 for _ in range(size - 1)]
        values += [*part, -sum(part)]
    rng.shuffle(values)
    start = {p: Decimal(v).scaleb(-2) for p, v in enumerate(values, start=1)}
    shown = proposals(start, MONEY, [])
    paid = []
    for index, p in enumerate(shown[:10]):
        amount = Decimal(p.amount) if index % 2 == 0 else (Decimal(p.amount) / 2).quantize(Decimal("0.01"))
        paid.append(Transfer(p.payer, p.payee, amount, MONEY))
    from nights.settlement.payments import zero_sum_groups

    zero_sum_groups.cache_clear()  # a first view in a fresh process
    began = time.perf_counter()
    proposals(start, MONEY, paid)
    took = time.perf_counter() - began
    print(f"proposals of a night of {len(start)} players replayed through {len(paid)} payments "
          f"(half of them part payments): {took * 1000:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
