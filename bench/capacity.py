"""Capacity: how many card tables one 2-worker gunicorn serves on this machine, per database.

Each simulated table is what a club night puts on the server:
- one scoring phone, which took the table through its table link (`/nights/t/<token>/`, the
  real claim), saves a hand every 20 s the way the page does (static/js/table.js: an htmx POST of
  the entry form with its submission id, answered with the #game fragment carrying the next
  form), and polls its scoreboard like every open game page;
- two watching phones on the game's share link, polling the scoreboard's live URL every 3 s with
  the headers htmx sends, keeping the ETag a browser keeps and sending If-None-Match;
- per club night of 10 tables (opened, drawn and started through nights.services), the
  organiser's standings page, reloaded every 10 s.
Start times are spread at random over each period. A step keeps N tables running for a warm-up
(one save period) and then measures `--seconds` of steady state.

N doubles from `--start` until the p95 of a save passes 250 ms or the p95 of a poll passes
100 ms (or more than 1 % of the requests fail), then bisects. The last passing N is printed as

    capacity: N tables (p95 save … ms, p95 poll … ms) sqlite

A poll is any phone's (the scorer's and the watchers'). The load generator is one asyncio
process speaking raw HTTP/1.1, each phone on one kept-alive connection as a browser keeps one
(gunicorn as shipped, gunicorn.conf.py, keeps them open; the step prints how many new
connections the phones still had to open). Every step prints its own CPU, gunicorn's (and per
request), the load average and the p95 of /healthz polled once a second: on a machine shared
with other work the latencies measure the machine too, and gunicorn's CPU per request gives the
ceiling two otherwise idle cores would reach.

The phones are in bench/async_phone.py, the tables and their nights in bench/club_tables.py.

    .venv/bin/python bench/capacity.py                        # SQLite (WAL), then PostgreSQL
    .venv/bin/python bench/capacity.py --database sqlite --max 200 --seconds 15   # a quick run
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.club_tables import (
    POLL_EVERY,
    SAVE_EVERY,
    STANDINGS_EVERY,
    TABLES_PER_NIGHT,
    Load,
    Step,
    add_nights,
)
from bench.harness import (
    Server,
    database,
    environment,
    free_port,
    postgres_cluster,
    prepare_database,
    setup_django,
)

# --- the search ----------------------------------------------------------------------------------


def measure(kind: str, url: str, args: argparse.Namespace) -> Step | None:
    env = environment(url)
    prepare_database(env)
    setup_django(env)
    from django.db import connections

    server = Server(env, free_port(args.port))
    server.start()
    load = Load(server.port, args.seed)
    print(
        f"{kind}: gunicorn -c gunicorn.conf.py -w 2 on 127.0.0.1:{server.port}; "
        f"load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    steps: dict[int, Step] = {}

    def run(tables: int) -> Step:
        missing = tables - len(load.tables)
        if missing > 0:
            add_nights(load, -(-missing // TABLES_PER_NIGHT), len(load.nights))
            connections.close_all()
        step = asyncio.run(load.step(tables, args.warmup, args.seconds, server))
        print(step.line(), flush=True)
        for error in sorted(set(step.figures.errors))[:3]:
            print(f"    {error}", flush=True)
        steps[tables] = step
        return step

    try:
        passed, failed = 0, 0
        tables = min(args.start, args.max)
        while True:
            if run(tables).passed:
                passed = tables
                if tables >= args.max:
                    break
                tables = min(tables * 2, args.max)
            else:
                failed = tables
                break
        bisections = 0
        while failed and failed - passed > max(5, passed // 10) and bisections < args.bisect:
            tables = (passed + failed) // 2
            if run(tables).passed:
                passed = tables
            else:
                failed = tables
            bisections += 1
    finally:
        server.stop()
        connections.close_all()
    best = steps.get(passed)
    last = steps[max(steps)]
    if last.cpu_per_request:
        per_table = 1 / SAVE_EVERY + 3 / POLL_EVERY + 1 / STANDINGS_EVERY / TABLES_PER_NIGHT  # requests/s
        ceiling = os.cpu_count() or 1
        print(
            f"  gunicorn's CPU: {last.cpu_per_request:.1f} ms a request at {last.tables} tables; "
            f"{ceiling} cores doing nothing else would serve at most ~"
            f"{ceiling * 1000 / (last.cpu_per_request * per_table):.0f} tables"
        )
    if best is None:
        print(f"capacity: 0 tables (p95 save — ms, p95 poll — ms) {kind}")
    else:
        at_least = "≥ " if not failed else ""
        print(
            f"capacity: {at_least}{passed} tables (p95 save {best.save_p95:.0f} ms, "
            f"p95 poll {best.poll_p95:.0f} ms) {kind}",
            flush=True,
        )
    return best


@contextmanager
def postgres(port: int) -> Iterator[str]:
    """A throwaway cluster (bench/harness.py) with the database `cap`."""
    with postgres_cluster(port) as url:
        parts = urllib.parse.urlsplit(url)
        subprocess.run(
            ["psql", "-q", "-h", "127.0.0.1", "-p", str(parts.port), "-U", "postgres",
             "-c", "CREATE DATABASE cap OWNER scores"],
            check=True, stdout=subprocess.DEVNULL, timeout=60,
        )  # fmt: skip
        yield parts._replace(path="/cap").geturl()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--start", type=int, default=25, help="tables in the first step (default 25)")
    parser.add_argument("--max", type=int, default=2000, help="stop doubling here (default 2000)")
    parser.add_argument("--seconds", type=float, default=40, help="steady state measured per step")
    parser.add_argument("--warmup", type=float, default=SAVE_EVERY, help="before each measurement")
    parser.add_argument("--bisect", type=int, default=3, help="bisection steps after the first failure")
    parser.add_argument("--port", type=int, default=8731)
    parser.add_argument("--pg-port", type=int, default=5438)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.database == "both":  # one process per database: Django is set up once per process
        again = [
            f"--{name.replace('_', '-')}={value}" for name, value in vars(args).items() if name != "database"
        ]
        for kind in ("sqlite", "postgres"):
            subprocess.run([sys.executable, __file__, "--database", kind, *again], check=True)
        return 0
    if args.database == "sqlite":
        with database(False) as url:
            measure(args.database, url, args)
    else:
        with postgres(args.pg_port) as url:
            measure(args.database, url, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
