"""Chip ledger benchmark: a season of club nights in a fresh SQLite database.

    .venv/bin/python bench/ledger.py [--nights 10] [--players 40] [--rounds 3] [--hands 4]

Builds a club of `--players` players and a season of `--nights` finished Check Pinochle nights at
0.50 a chip, each of `--rounds` rounds at tables of four with `--hands` hands per game (every hand
saved through the scoring service, so the stored results are the rules engine's), marks one
payment, then times through the Django test client: a night's settlement page (which scores the
night's games again to check them), the season ledger page and a statement, with their query counts;
and the fewest-payments search alone for 12 players (the exact search) and 40 players (past the
exact limit). Aims: pages < 0.5 s and a query count that does not grow with the number of nights.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(client, url: str, repeat: int = 3) -> tuple[float, int]:
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


def build(args: argparse.Namespace):
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
            (order[t : t + 4], [rng.choice(CHECK_HANDS) for _ in range(args.hands)])
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
    args = parser.parse_args()

    db = Path(tempfile.mkdtemp(prefix="ledger-bench-")) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pinochle_site.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)

    began = time.perf_counter()
    user, season, nights, players = build(args)
    games = sum(night.tables.count() for night in nights)
    took = time.perf_counter() - began
    print(f"built {args.nights} nights, {games} games, {args.players} players in {took:.1f} s")

    from ledger import selectors
    from nights.settlement import fewest_payments

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
    ledger = selectors.season_ledger(season)
    print(f"season totals {ledger.totals} (zero in every unit)")

    rng = random.Random(args.seed)
    for count in (12, 40):
        book = {p: rng.randint(-40, 40) for p in range(1, count)}
        book[count] = -sum(book.values())
        began = time.perf_counter()
        payments = fewest_payments(book)
        took = time.perf_counter() - began
        movers = sum(1 for v in book.values() if v)
        print(f"fewest payments, {count} players: {len(payments)} payments for {movers} owing or owed, "
              f"{took * 1000:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
