"""`python bench/fuzz`: run the fuzz bench (see `__init__.py` for what it sends and checks)."""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

# Run as a directory: import `bench.fuzz`, `bench.harness` and `tests` from the root, never this
# folder's `requests.py` in place of a library of that name.
BENCH = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != BENCH / "fuzz"]
sys.path[:0] = [str(BENCH.parent)]

from bench.fuzz import __doc__ as DOC  # noqa: E402
from bench.fuzz import commands  # noqa: E402
from bench.fuzz.checks import refused, reopened, route_of, row_counts, url_patterns  # noqa: E402
from bench.fuzz.payloads import GAME_SETUP, PASSWORD  # noqa: E402
from bench.fuzz.requests import WEIGHTS, Fuzzer  # noqa: E402
from bench.fuzz.state import seed  # noqa: E402
from bench.fuzz.wire import send  # noqa: E402
from bench.harness import (  # noqa: E402
    Browser,
    Server,
    database,
    environment,
    free_port,
    prepare_database,
    setup_django,
)
from bench.import_while_saving import build_file  # noqa: E402


def log_in(browser: Browser, username: str) -> bool:
    browser.get("/accounts/login/")
    return browser.post("/accounts/login/", {"username": username, "password": PASSWORD}).status == 302


IMPORT_PAGE = re.compile(r"^/league/import/\d+/$")


def follow_import(browser: Browser, path: str, limit: float = 120) -> list[str]:
    """Follow an upload's page until the import ended; a 5xx or no ending is a finding."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        page = browser.get(path)
        if page.status >= 500:
            return [f"import page: GET {path} -> {page.status}"]
        if page.status != 200 or 'http-equiv="refresh"' not in page.text:
            return []
        time.sleep(0.2)
    return [f"import page: {path} still running after {limit:.0f} s"]


def main() -> int:
    parser = argparse.ArgumentParser(description=DOC, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--port", type=int, default=8711)
    parser.add_argument("--minutes", type=float, default=10, help="stop early after this long")
    parser.add_argument(
        "--skip-commands", action="store_true", help="HTTP only: no restore, import_games, crash"
    )
    parser.add_argument(
        "--crash-games", type=int, default=300, help="games in the upload whose import is killed"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)

    with database(args.postgres) as url:
        env = environment(url)
        env["IMPORT_STALLED_SECONDS"] = "15"  # the crashed import is refused soon after its worker dies
        env["LOGIN_FAILURES_PER_ADDRESS"] = "1000000"  # let the fuzzed logins reach the form
        # ... and the sign-ups: a look-alike name must be refused by its check, not the throttle.
        env["SIGNUPS_PER_ADDRESS"] = env["SIGNUPS_PER_USERNAME"] = "1000000"
        env["ROLE_CHANGES_PER_ACCOUNT"] = env["ROLE_CHANGES_PER_ADDRESS"] = "1000000"  # the roles form too
        prepare_database(env)
        setup_django(env)
        state = seed()
        from django.db import connections

        connections.close_all()
        log = Path(url.removeprefix("sqlite:///")).with_name("server.log") if not args.postgres else None
        log = log or Path(f"/tmp/fuzz-server-{os.getpid()}.log")
        server = Server(env, free_port(args.port), log=log)
        server.start()
        statuses: Counter[str] = Counter()
        by_target: Counter[str] = Counter()
        failures: list[str] = []
        wrote: list[str] = []
        holes: list[str] = []
        sent = 0
        reached: set[str | None] = set()
        try:
            anon, alice, sam = Browser(server.port), Browser(server.port), Browser(server.port)
            browsers = {"anon": anon, "alice": alice, "sam": sam}
            anon.get("/games/new")
            for _ in range(2):  # games this browser set up itself (it holds their edit right)
                answer = anon.post("/games/new", GAME_SETUP)
                if answer.status == 302:
                    state.web_codes.append(answer.location().strip("/").split("/")[-1])
            for name in ("alice", "sam"):
                if not log_in(browsers[name], name):
                    print(f"  warning: {name} could not log in")
            fuzzer = Fuzzer(rng, state)
            weights = [weight for weight, _make in WEIGHTS]
            makers = [make for _weight, make in WEIGHTS]
            before = row_counts()
            stop = time.monotonic() + args.minutes * 60
            while sent < args.requests and time.monotonic() < stop:
                request = rng.choices(makers, weights)[0](fuzzer)
                browser = browsers[request.who]
                try:
                    response = send(browser, request)
                except OSError as error:
                    failures.append(f"{request.target}: {request.method} {request.path[:80]}: {error}")
                    continue
                finally:
                    sent += 1
                by_target[request.target] += 1
                reached.add(route_of(request.path))
                statuses[str(response.status)] += 1
                if response.status == 302 and IMPORT_PAGE.match(response.location()):
                    # The upload runs in its own process: wait for it, so the rows it writes are
                    # not taken for rows written by the next (refused) requests.
                    failures += follow_import(browser, response.location())
                    reached.add(route_of(response.location()))
                after = row_counts()
                if response.status >= 500:
                    failures.append(
                        f"{request.target}: {request.method} {request.path[:80]} -> {response.status}"
                        f" {[(k, v[:40]) for k, v in request.fields][:12]}"
                    )
                elif reopened(request, response):
                    holes.append(
                        f"{request.target}: {request.method} {request.path[:80]} -> {response.status}"
                        f" {[(k, v[:40]) for k, v in request.fields][:8]}"
                    )
                elif refused(request, response) and after != before:
                    wrote.append(
                        f"{request.target}: {request.method} {request.path[:80]} -> {response.status}"
                    )
                before = after
                for name in ("alice", "sam"):  # a fuzzed form logged one out: log in again
                    if browsers[name].cookies.get("sessionid") is None:
                        log_in(browsers[name], name)
            if not args.skip_commands:  # the task worker killed while it writes an import
                log_in(alice, "alice")
                upload = build_file(args.crash_games, 100)
                count, found = commands.import_crash(
                    server.port, alice, upload, server, state.club_id, float(env["IMPORT_STALLED_SECONDS"])
                )
                server.start_tasks()
                sent += count
                by_target["import worker crash"] += count
                failures += found
        finally:
            server.stop()
        if not args.skip_commands:  # the commands: restore and import_games with bad input
            from league.backup import whole

            dump = whole.dump()
            connections.close_all()
            for target, (count, found) in (
                ("restore with long names", commands.restores(env, dump)),
                ("import_games options", commands.import_options(env, row_counts)),
            ):
                sent += count
                by_target[target] += count
                failures += found
        routes = url_patterns()
        tracebacks = [line for line in log.read_text(errors="replace").splitlines() if "Error" in line]
        log.unlink()
        connections.close_all()

    for line in failures[:25] + holes[:25] + wrote[:25] + tracebacks[:40]:
        print("  problem:", line)
    missed = sorted(set(routes) - reached)
    print(
        f"  URL patterns (admin aside): {len(routes)}, {len(routes) - len(missed)} reached; missed: {missed}"
    )
    print("  requests per form: " + ", ".join(f"{name} {count}" for name, count in by_target.most_common()))
    print("  answers: " + ", ".join(f"{status}: {count}" for status, count in sorted(statuses.items())))
    server_errors = sum(1 for line in failures)
    print(
        f"fuzz: {sent} requests, {server_errors} server errors,"
        f" {len(wrote)} rows written by refused requests, {len(holes)} known holes open"
        f" ({'postgres' if args.postgres else 'sqlite'})"
    )
    return 1 if failures or wrote or holes else 0


if __name__ == "__main__":
    sys.exit(main())
