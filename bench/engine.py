"""Engine throughput: score a seeded 10,000-hand Check Pinochle record in-process and via score_game.

    .venv/bin/python bench/engine.py [--hands 10000] [--seed 7] [--repeat 5]

Prints hands per second of `score_record` (parse + check + score + result object, best of
--repeat runs, melds cache cleared before each run so repeated meld lists are not free), the
marginal cost of one more hand in what `manage.py score_game` does (JSON text in through
`core.strict_input.loads`, score, JSON text out through `score_record_text`: (time for 30,000
hands - time for 3,000 hands) / 27,000, median of --repeat runs), and the wall time of the whole
`manage.py score_game FILE` process on the same file. Aims: at least 80,000 hands/s in-process
and at most 25 us per hand marginal, on a quiet machine, with Python's garbage collector on as it
always is (the engine pauses it while it reads and scores a record,
`scoring.rules.collector.collector_paused`, and `strict_input.loads` while it reads JSON).

Each run starts as a `score_game` process does, with the record loaded and nothing else of
size alive: the previous run's result is dropped before the next run starts, or the collector
would walk 10,000 hands of it that no real caller keeps.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core import strict_input  # noqa: E402
from scoring.rules.engine import score_record, score_record_text  # noqa: E402
from scoring.rules.errors import RecordError  # noqa: E402
from scoring.rules.melds import seat_meld  # noqa: E402
from scoring.rules.record import parse_hand  # noqa: E402
from scoring.rules.settings import parse_settings  # noqa: E402

SUITS = ["spades", "hearts", "diamonds", "clubs"]
# Meld lists a seat might show; random combinations the deck cannot hold are drawn again.
SEAT_MELDS = [
    [],
    ["marriage"],
    ["pinochle"],
    ["marriage", "marriage"],
    ["aces"],
    ["jacks", "pinochle"],
    ["queens", "marriage"],
    ["kings", "marriage"],
    ["dix", "marriage"],
    ["aces", "marriage"],
    ["kings"],
    ["dix"],
    ["pinochle", "marriage"],
]
BIDDER_MELDS = [
    ["trump_marriage"],
    ["trump_marriage", "marriage"],
    ["run"],
    ["run", "pinochle"],
    ["run", "marriage", "aces"],
    ["trump_marriage", "kings", "queens", "marriage", "marriage", "marriage"],
    ["trump_marriage", "pinochle", "dix"],
    ["double_pinochle", "trump_marriage"],
]


def random_hand(rng: random.Random) -> dict[str, object]:
    roll = rng.random()
    if roll < 0.05:
        return {"passed": True}
    bidder = rng.choice("NESW")
    hand: dict[str, object] = {
        "bidder": bidder,
        "bid": rng.randint(20, 40),
        "trump": rng.choice(SUITS),
        "melds": _melds(rng, bidder),
    }
    if roll < 0.10:
        hand["conceded"] = True
        return hand
    ns = rng.randint(0, 25)
    hand["tricks"] = {"NS": ns, "EW": 25 - ns}
    if ns in (0, 25) and rng.random() < 0.8:
        hand["tricks_won"] = {"NS": 12 if ns == 25 else 0, "EW": 0 if ns == 25 else 12}
    elif rng.random() < 0.3 and 0 < ns < 25:
        won = rng.randint(1, 11)
        hand["tricks_won"] = {"NS": won, "EW": 12 - won}
    return hand


def _melds(rng: random.Random, bidder: str) -> dict[str, list[str]]:
    """Every seat's meld, as at a real table: three or four seats show something."""
    while True:
        melds = {seat: list(rng.choice(BIDDER_MELDS if seat == bidder else SEAT_MELDS)) for seat in "NESW"}
        if sum(1 for items in melds.values() if items) >= 3:
            return melds


def make_record(hands: int, seed: int) -> dict[str, object]:
    """A valid Check Pinochle record; the target is out of reach so the game never ends."""
    rng = random.Random(seed)
    record: dict[str, object] = {
        "seats": 4,
        "variant": "check",
        "deck": "single",
        "target": 1_000_000,
        "players": {"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "David"},
        "hands": [],
    }
    settings = parse_settings(record)
    out: list[dict[str, object]] = []
    while len(out) < hands:
        hand = random_hand(rng)
        try:
            parse_hand(hand, len(out) + 1, settings)
        except RecordError:
            continue
        out.append(hand)
    record["hands"] = out
    return record


def pipeline_seconds(text: bytes) -> float:
    """What `manage.py score_game` does with a file once it is read: JSON in, score, JSON out."""
    seat_meld.cache_clear()
    started = time.process_time()
    result = score_record_text(strict_input.loads(text.decode("utf-8-sig")))
    elapsed = time.process_time() - started
    del result  # outside the timing: a process exits rather than free it
    return elapsed


def marginal_us(seed: int, repeat: int, small: int = 3_000, large: int = 30_000) -> tuple[float, float]:
    """Microseconds one more hand costs, JSON in and out included: (median, best) over `repeat`
    runs of (time for `large` hands - time for `small` hands) / (large - small), the two sizes
    taken in turn so a noisy moment spoils one pair, not one size. The time is this process's
    CPU time: on a shared machine other processes' turns on the CPU do not count."""
    texts = [json.dumps(make_record(size, seed)).encode() for size in (small, large)]
    figures = []
    for _ in range(repeat):
        short, long = (pipeline_seconds(text) for text in texts)
        figures.append((long - short) / (large - small) * 1e6)
    return statistics.median(figures), min(figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()

    record = make_record(args.hands, args.seed)
    best = float("inf")
    for _ in range(args.repeat):
        seat_meld.cache_clear()
        result: dict[str, Any] | None = None  # drop the previous run's result first
        started = time.perf_counter()
        result = score_record(record)
        best = min(best, time.perf_counter() - started)
    assert result is not None
    assert len(result["hands"]) == args.hands and not result["result"]["finished"]
    print(
        f"engine: {args.hands} hands in {best * 1000:.1f} ms = {args.hands / best:,.0f} hands/s (in-process)"
    )

    median, best_us = marginal_us(args.seed, args.repeat)
    load = " / ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(
        f"score_game marginal: {median:.1f} us per hand (median; best {best_us:.1f}), "
        f"30,000 vs 3,000 hands, JSON in and out included; load average {load}"
    )

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(record, handle)
    python = ROOT / ".venv" / "bin" / "python"
    started = time.perf_counter()
    done = subprocess.run(
        [
            str(python if python.exists() else sys.executable),
            str(ROOT / "manage.py"),
            "score_game",
            handle.name,
        ],
        capture_output=True,
        check=True,
    )
    elapsed = time.perf_counter() - started
    Path(handle.name).unlink()
    assert json.loads(done.stdout) == result
    print(f"score_game: whole process on the {args.hands}-hand file in {elapsed:.2f} s")


if __name__ == "__main__":
    main()
