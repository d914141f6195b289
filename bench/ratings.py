"""Ratings benchmark: a club of 5,000 games and 60 players in a fresh SQLite database.

    .venv/bin/python bench/ratings.py [--games 5000] [--players 60] [--saves 20]

Builds the club's 4-seat games in bulk (every hand checked and scored by the rules engine, as in
bench/league.py; `league.services.store_games`, the import path, rates them once at the end), then
prints one line per figure:

- the full recompute of the club's ratings, and of everything (`refresh_ratings`: all-time + club);
- one save's incremental update: the last hand of a new game recorded through the scoring service
  (median of --saves games), the ratings' part of it alone, and a check that the stored numbers
  equal a full recompute afterwards;
- the player page of the busiest player: time and query count, next to a player with few games.

Aims: full recompute < 5 s, a save's update < 20 ms, player page < 0.2 s with a
constant number of queries.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scoring.models import Game

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--saves", type=int, default=20)
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="ratings-bench-")
    db = Path(workdir) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pinochle_site.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from bench.league import build_games, timed
    from clubs.models import Club, Player
    from league.services import store_games
    from ratings import services as rating_services
    from ratings.models import PlayerRating, RatingPoint
    from scoring import filing
    from scoring.services.games import create_game
    from scoring.services.hands import record_hand

    call_command("migrate", verbosity=0)
    rng = random.Random(15)
    roster = [f"Player {number:02d}" for number in range(1, args.players + 1)]

    began = time.perf_counter()
    games = build_games(args.games, rng, "Big", datetime.date(2025, 1, 1), "Bench club", roster)
    built = time.perf_counter() - began
    began = time.perf_counter()
    store_games(games=games)
    print(f"built {args.games} games for {args.players} players in {built:.1f} s, stored and rated in "
          f"{time.perf_counter() - began:.1f} s")  # fmt: skip
    club = Club.objects.get(name="Bench club")
    scope = rating_services.club_scope(club.pk)

    if os.environ.get("RATINGS_PROFILE"):
        import cProfile

        cProfile.runctx("rating_services.recompute(scope)", globals(), locals(), sort="cumulative")
    times, cpus = [], []
    for _ in range(3):
        began, began_cpu = time.perf_counter(), time.process_time()
        rated = rating_services.recompute(scope)
        times.append(time.perf_counter() - began)
        cpus.append(time.process_time() - began_cpu)
    history = RatingPoint.objects.filter(scope=scope).count()
    print(f"full recompute, the club ({rated} games, {history} history "
          f"rows): best {min(times):.2f} s of 3 (CPU {min(cpus):.2f} s)  [aim < 5 s]")  # fmt: skip
    began = time.perf_counter()
    with open(os.devnull, "w") as devnull:
        call_command("refresh_ratings", stdout=devnull)
    print(f"refresh_ratings (all-time + club, {2 * rated} games rated): {time.perf_counter() - began:.2f} s")

    players = list(Player.objects.filter(memberships__club=club).order_by("pk"))
    saves, rating_parts, ratings_wall, ratings_cpu = [], [], [], []
    original = rating_services.game_changed

    rating_cpu: list[float] = []

    def timed_game_changed(game: Game) -> None:
        began, began_cpu = time.perf_counter(), time.process_time()
        original(game)
        rating_parts.append(time.perf_counter() - began)
        rating_cpu.append(time.process_time() - began_cpu)

    rating_services.game_changed = timed_game_changed
    last_day = datetime.date(2025, 1, 1) + datetime.timedelta(days=200)
    for number in range(args.saves):
        new = build_games(1, rng, "Big", last_day, "Bench club", roster)[0]
        game = create_game(
            seats=4, variant=new.settings["variant"], deck="single", target=new.settings["target"],
            min_bid=None, first_dealer="N", meld_needs_trick=False, players=new.players,
        )  # fmt: skip
        filing.set_game_details(
            game=game, club=club, season=None, played_on=last_day + datetime.timedelta(days=number)
        )
        seated = rng.sample(players, 4)
        for row, player in zip(game.seat_rows.order_by("seat"), seated, strict=True):
            filing.link_seat(seat=row, player=player)
        for index, hand in enumerate(new.hands[:-1], start=1):
            record_hand(game=game, number=index, data=hand)
        rating_parts.clear()
        rating_cpu.clear()
        began = time.perf_counter()
        record_hand(game=game, number=len(new.hands), data=new.hands[-1])
        saves.append(time.perf_counter() - began)
        ratings_wall.append(sum(rating_parts))
        ratings_cpu.append(sum(rating_cpu))
        game.refresh_from_db()
        assert game.finished, game.code
    ratings_ms = statistics.median(ratings_wall) * 1000
    ratings_cpu_ms = statistics.median(ratings_cpu) * 1000
    stored = sorted(PlayerRating.objects.filter(scope=scope).values_list("player_id", "mu", "sigma", "games"))
    rating_services.game_changed = original
    rating_services.recompute(scope)
    fresh = sorted(PlayerRating.objects.filter(scope=scope).values_list("player_id", "mu", "sigma", "games"))
    print(f"one save's update: the game's last hand recorded in {statistics.median(saves) * 1000:.1f} ms "
          f"(median of {args.saves}; engine, statistics and ratings), the ratings' part "
          f"{ratings_ms:.1f} ms (CPU {ratings_cpu_ms:.1f} ms); "
          f"equals a full recompute: {stored == fresh}  [aim < 20 ms]")  # fmt: skip

    client = Client()
    client.force_login(User.objects.create_superuser("bench-organiser", None, None))
    busiest = PlayerRating.objects.filter(scope=rating_services.ALL).order_by("-games").first()
    assert busiest is not None
    first, best, queries, size, cpu = timed(client, f"/league/players/{busiest.player_id}/")
    print(f"player page ({busiest.games} rated games): first {first * 1000:.0f} ms, "
          f"best {best * 1000:.0f} ms "
          f"(CPU {cpu * 1000:.0f} ms), {queries} queries, {size // 1024} KB  [aim < 0.2 s]")  # fmt: skip
    newcomer = Player.objects.create(name="Newcomer")
    _f, _b, few_queries, _s, _c = timed(client, f"/league/players/{newcomer.pk}/", 1)
    print(f"player page queries: {queries} with {busiest.games} rated games, {few_queries} with none")
    for path in Path(workdir).iterdir():
        path.unlink()
    os.rmdir(workdir)


if __name__ == "__main__":
    main()
