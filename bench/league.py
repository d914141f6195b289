"""League benchmark: a season of 5,000 games (~100,000 hands) in a fresh SQLite database.

    .venv/bin/python bench/league.py [--games 5000] [--keep]

Builds the games in bulk (every hand checked and scored by the rules engine; derived rows from
`scoring.stats.stat_rows`, written by `league.services.store_games`, the import path), then times
through the Django test client: the season standings page, a player page and the full hands.csv
export, with the export's rows/s and peak memory, and the standings query count for a small
season and the full one. Aims: pages < 0.5 s; export >= 50,000 rows/s, < 150 MB.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.test import Client

    from league.services import NewGame

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SUITS = ("spades", "hearts", "diamonds", "clubs")
BIDDER_MELDS = (
    ["trump_marriage"],
    ["run"],
    ["trump_marriage", "marriage"],
    ["run", "marriage"],
    ["trump_marriage", "aces"],
)
PARTNER_MELDS: tuple[list[str], ...] = ([], ["pinochle"], ["marriage"], ["jacks"], ["dix"])
OPPONENT_MELDS: tuple[list[str], ...] = ([], [], ["marriage"], ["dix"], ["kings"])
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def random_hand(rng: random.Random, check: bool) -> dict[str, Any]:
    if check and rng.random() < 0.04:
        return {"passed": True}
    bidder = rng.choice("NESW")
    trump = rng.choice(SUITS)
    opponents = [seat for seat in "NESW" if SIDE[seat] != SIDE[bidder]]
    melds = {bidder: list(rng.choice(BIDDER_MELDS)), PARTNER[bidder]: list(rng.choice(PARTNER_MELDS))}
    melds[opponents[0]] = list(rng.choice(OPPONENT_MELDS))
    melds[opponents[1]] = list(rng.choice(OPPONENT_MELDS[:3]))
    bid = rng.choice((20, 21, 22, 23, 24, 25, 26, 27, 28, 30, 31, 33, 35, 38))
    hand: dict[str, Any] = {"bidder": bidder, "bid": bid, "trump": trump,
                            "melds": {seat: items for seat, items in melds.items() if items}}  # fmt: skip
    if rng.random() < 0.03:
        hand["conceded"] = True
        return hand
    ours = rng.randint(6, 25)
    other = "EW" if SIDE[bidder] == "NS" else "NS"
    hand["tricks"] = {SIDE[bidder]: ours, other: 25 - ours}
    return hand


def build_games(
    count: int, rng: random.Random, season_name: str, start: datetime.date, club: str, roster: list[str]
) -> list[NewGame]:
    from league.services import NewGame
    from scoring.rules.engine import score_game
    from scoring.rules.errors import RecordError
    from scoring.rules.record import parse_hand
    from scoring.rules.settings import parse_settings

    games = []
    for index in range(count):
        check = rng.random() < 0.3
        settings = {"seats": 4, "variant": "check" if check else "standard", "deck": "single",
                    "target": 200 if check else 300, "min_bid": None, "first_dealer": "N",
                    "options": {"meld_needs_trick": False}}  # fmt: skip
        parsed_settings = parse_settings(settings)
        hands: list[dict[str, Any]] = []
        parsed = []
        while True:
            data = random_hand(rng, check)
            try:
                hand = parse_hand(data, len(hands) + 1, parsed_settings)
            except RecordError:
                continue  # an impossible deal from the random melds: draw again
            hands.append(data)
            parsed.append(hand)
            if (len(hands) >= 12 and len(hands) % 4 == 0) or len(hands) >= 60:
                try:
                    result = score_game(parsed_settings, parsed)
                except RecordError as error:  # the game ended before the last hand: cut there
                    assert error.hand is not None
                    del hands[error.hand - 1 :], parsed[error.hand - 1 :]
                    result = score_game(parsed_settings, parsed)
                if result.finished or len(hands) >= 60:
                    break
        seats = rng.sample(roster, 4)
        games.append(
            NewGame(
                settings=settings,
                players=dict(zip("NESW", seats, strict=True)),
                hands=hands,
                result=result,
                club=club,
                season=season_name,
                played_on=start + datetime.timedelta(days=index % 180),
            )
        )
    return games


def timed(client: Client, url: str, repeat: int = 3) -> tuple[float, float, int, int, float]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times: list[float] = []
    cpu: list[float] = []
    for _ in range(repeat):
        connection.queries_log.clear()  # the build's queries filled DEBUG's log; count afresh
        with CaptureQueriesContext(connection) as queries:
            began, began_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            times.append(time.perf_counter() - began)
            cpu.append(time.process_time() - began_cpu)
        assert response.status_code == 200, response.status_code
    return times[0], min(times), len(queries), len(response.content), min(cpu)


def _peak_rss() -> int:
    """Peak resident set size in KB since the last reset (Linux VmHWM), else ru_maxrss."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _reset_peak_rss() -> int:
    """Reset the peak to the current RSS (so the build's peak does not hide the export's); KB."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
    except OSError:
        pass
    return _peak_rss()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--keep", action="store_true", help="keep the database file")
    parser.add_argument("--db", help="time an existing benchmark database instead of building one")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="league-bench-")
    db = Path(args.db) if args.db else Path(workdir) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pinochle_site.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.http import StreamingHttpResponse
    from django.test import Client

    from clubs.models import Player, Season
    from league.services import store_games
    from scoring.models import Hand, HandStat

    call_command("migrate", verbosity=0)
    rng = random.Random(4)
    roster = [f"{first} {last}" for first in ("Åsa", "Örjan", "Čeněk", "Řehoř", "Anna", "Bo")
              for last in ("Berg", "Dvořák", "Ström", "Nowak")]  # fmt: skip
    # League pages are for a club's roles: read them as an organiser (a superuser counts as one).
    from django.contrib.auth.models import User

    client = Client()
    organiser = User.objects.filter(username="bench-organiser").first()
    client.force_login(organiser or User.objects.create_superuser("bench-organiser", None, None))

    began = time.perf_counter()
    if not args.db:
        store_games(games=build_games(10, rng, "Small", datetime.date(2025, 9, 1), "Bench club", roster))
    small = Season.objects.get(name="Small")
    small_queries = timed(client, f"/league/seasons/{small.pk}/", 1)[2]

    built = args.games if args.db else 0
    engine_s = 0.0
    while built < args.games:
        batch = min(500, args.games - built)
        t = time.perf_counter()
        games = build_games(batch, rng, "Big", datetime.date(2026, 1, 1), "Bench club", roster)
        engine_s += time.perf_counter() - t
        store_games(games=games)
        built += batch
    big = Season.objects.get(name="Big")
    hands = Hand.objects.filter(game__season=big).count()
    print(f"built {args.games} games, {hands} hands ({HandStat.objects.count()} HandStat rows) "
          f"in {time.perf_counter() - began:.1f} s (engine + generator {engine_s:.1f} s)")  # fmt: skip

    first, best, big_queries, size, cpu = timed(client, f"/league/seasons/{big.pk}/")
    print(
        f"standings page: first {first * 1000:.0f} ms, best {best * 1000:.0f} ms (CPU {cpu * 1000:.0f} ms), ",
        end="",
    )
    print(f"{size // 1024} KB")
    print(f"standings queries: small season (10 games) {small_queries}, ", end="")
    print(f"full season ({args.games} games) {big_queries}")
    player = Player.objects.order_by("pk").first()
    assert player is not None
    first, best, queries, _size, cpu = timed(client, f"/league/players/{player.pk}/")
    print(
        f"player page: first {first * 1000:.0f} ms, best {best * 1000:.0f} ms (CPU {cpu * 1000:.0f} ms), ",
        end="",
    )
    print(f"{queries} queries")

    rss_before = _reset_peak_rss()
    began, began_cpu = time.perf_counter(), time.process_time()
    response = client.get("/league/export/hands.csv")
    assert isinstance(response, StreamingHttpResponse)
    lines = size = 0
    for chunk in response.streaming_content:
        lines += chunk.count(b"\n")
        size += len(chunk)
    elapsed = time.perf_counter() - began
    cpu = time.process_time() - began_cpu
    rss_after = _peak_rss()
    rows = lines - 1
    print(f"hands.csv export: {rows} rows, {size / 1024 / 1024:.1f} MB in {elapsed:.2f} s", end="")
    print(f" = {rows / elapsed:,.0f} rows/s (CPU {cpu:.2f} s = {rows / cpu:,.0f} rows/s); ", end="")
    grew = max(0, rss_after - rss_before) / 1024
    print(f"peak RSS {rss_after / 1024:.0f} MB, {grew:.1f} MB above the RSS before the export")

    tracemalloc.start()
    response = client.get("/league/export/hands.csv")
    assert isinstance(response, StreamingHttpResponse)
    for _chunk in response.streaming_content:
        pass
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"hands.csv export peak Python memory (tracemalloc): {peak / 1024 / 1024:.1f} MB")
    if args.keep or args.db:
        print(f"database kept at {db}")
    else:
        for path in Path(workdir).iterdir():
            path.unlink()
        os.rmdir(workdir)


if __name__ == "__main__":
    main()
