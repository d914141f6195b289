"""Ratings core benchmark (plain Python, no database): a club of 5,000 games and 60 players.

    .venv/bin/python bench/ratings_core.py [--games 5000] [--players 60] [--seed 15] [--repeat 3]

Random 4-, 3- and 2-seat games (a hidden skill per player decides the places, about one game in
twenty is a draw), handed over in a shuffled entry order. Prints the full recompute time (best of
--repeat), one save's incremental update of the latest game (median of 200 runs, checked equal to
the full recompute), and the insight + SVG chart of the busiest player (the pure part of a player
page). Aims: full recompute < 5 s, one update < 20 ms.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ratings.compute import FinishedGame, compute_ratings, rate_game  # noqa: E402
from ratings.insight import insight, player_game  # noqa: E402
from ratings.svg import rating_chart  # noqa: E402

START = datetime.date(2025, 1, 1)


def club(games: int, players: int, seed: int) -> list[FinishedGame]:
    rng = random.Random(seed)
    skill = {player: rng.gauss(0, 1) for player in range(1, players + 1)}
    out = []
    for number in range(1, games + 1):
        seats = rng.choice((4, 3, 2))
        chosen = rng.sample(sorted(skill), seats)
        if seats == 4:
            sides: tuple[tuple[int, ...], ...] = (tuple(chosen[:2]), tuple(chosen[2:]))
        else:
            sides = tuple((player,) for player in chosen)
        performance = [sum(skill[p] for p in side) / len(side) + rng.gauss(0, 1.2) for side in sides]
        places = sorted(range(len(sides)), key=lambda i: -performance[i])
        ranks = [0] * len(sides)
        for place, index in enumerate(places):
            ranks[index] = place
        if rng.random() < 0.05:
            ranks[places[1]] = ranks[places[0]]
        # About 12 games a club night, a night every three days (the insight below repeats this).
        day = START + datetime.timedelta(days=(number // 12) * 3)
        out.append(FinishedGame(id=number, order=(day, number), sides=sides, ranks=tuple(ranks)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    games = club(args.games, args.players, args.seed)
    entered = games[:]
    random.Random(args.seed + 1).shuffle(entered)

    times = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        full = compute_ratings(entered)
        times.append(time.perf_counter() - started)
    print(
        f"full recompute: {args.games} games, {len(full.players)} players, {len(full.pairs)} pairs "
        f"({len(full.partnerships())} with 5+ games): best {min(times):.3f} s "
        f"({args.games / min(times):,.0f} games/s)  [aim < 5 s]"
    )

    latest = games[-1]
    stored = compute_ratings(games[:-1])
    seated = {player for side in latest.sides for player in side}
    players = {player: stored.players[player] for player in seated if player in stored.players}
    runs = []
    for _ in range(200):
        started = time.perf_counter()
        update = rate_game(players=players, pairs=stored.pairs, game=latest, after=stored.last)
        runs.append(time.perf_counter() - started)
    stored.apply(update)
    same = stored == full
    print(
        f"one save's update ({len(latest.sides)} sides, {len(seated)} players): median "
        f"{statistics.median(runs) * 1000:.3f} ms, max {max(runs) * 1000:.3f} ms; "
        f"equals the full recompute: {same}  [aim < 20 ms]"
    )

    busiest = max(full.players, key=lambda player: (full.players[player].games, -player))
    started = time.perf_counter()
    mine = [
        player_game(game, busiest, played=START + datetime.timedelta(days=(game.id // 12) * 3))
        for game in games
        if any(busiest in side for side in game.sides)
    ]
    seen = insight(mine)
    history = full.history[busiest]
    svg = rating_chart(
        [point.display for point in history],
        title="Rating",
        description=f"{len(history)} games",
        x_label="Games",
        y_label="Rating",
        point_labels=[f"{point.game_id}: {point.display}" for point in history],
    )
    elapsed = time.perf_counter() - started
    skill = full.players[busiest]
    print(
        f"player {busiest}: {seen.games} games, rating {skill.display} (mu {skill.mu:.2f}, sigma "
        f"{skill.sigma:.2f}); insight + chart ({len(svg) // 1024} KB SVG) {elapsed * 1000:.1f} ms"
    )
    board = full.leaderboard()
    print(
        "leaderboard: top "
        + ", ".join(str(s.display) for _, s in board[:3])
        + " … median "
        + str(board[len(board) // 2][1].display)
        + " … bottom "
        + ", ".join(str(s.display) for _, s in board[-3:])
    )
    if not same:
        sys.exit("the incremental update differs from the full recompute")


if __name__ == "__main__":
    main()
