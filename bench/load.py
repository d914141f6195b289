"""Load (and faults): simulated card tables entering hands into their own games through gunicorn.

Each table is a thread acting like a phone's browser: it sets up its game through the setup form
(keeping the cookies a browser would), then loops for `--seconds`: GET the game page (CSRF token,
hand number and submission id from the form), POST a valid hand, and count the hand as
acknowledged when the server answers with the redirect. A connection error or a 5xx is retried
with the SAME form (same submission id) until the server answers, as a phone's "resend" would.

Afterwards, with the server stopped, the ORM checks that every acknowledged hand is stored, that
no game holds a hand that was not acknowledged (a retry that became a second hand), that the hand
numbers run 1..n, and that each game's cached totals equal a fresh scoring by the engine.

    .venv/bin/python bench/load.py                 # SQLite file in a temporary folder
    .venv/bin/python bench/load.py --postgres      # a throwaway PostgreSQL 15 cluster
    .venv/bin/python bench/load.py --faults        # SIGKILL a worker twice, restart the server once,
                                                   # and hang up on 3 % of the hand forms before the answer

gunicorn: 2 workers on 127.0.0.1 (--port, default 8701), stopped by its PID.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.harness import (
    Browser,
    Response,
    Server,
    database,
    environment,
    free_port,
    percentile,
    prepare_database,
    setup_django,
)

# Valid hands (docs/rules.md, "Worked example", hand 1, and variations on it). None ends a Check Pinochle or
# standard game before a 1,000,000-point target within a few minutes of entry.
HANDS = [
    {
        "bidder": "N",
        "bid": "27",
        "trump": "hearts",
        "meld_N_run": "1",
        "meld_N_marriage": "1",
        "meld_S_pinochle": "1",
        "meld_E_aces": "1",
        "tricks_NS": "15",
    },
    {
        "bidder": "E",
        "bid": "25",
        "trump": "spades",
        "meld_E_trump_marriage": "1",
        "meld_E_marriage": "1",
        "meld_W_dix": "1",
        "tricks_NS": "9",
    },
    {
        "bidder": "S",
        "bid": "30",
        "trump": "clubs",
        "meld_S_run": "1",
        "meld_N_pinochle": "1",
        "tricks_NS": "18",
    },
    {"bidder": "W", "bid": "21", "trump": "diamonds", "meld_W_trump_marriage": "1", "tricks_NS": "20"},
    {"bidder": "N", "bid": "28", "trump": "hearts", "meld_N_trump_marriage": "1", "tricks_NS": "4"},  # set
]
_NUMBER = re.compile(r'name="number" value="(\d+)"')
_SUBMISSION = re.compile(r'name="submission_id" value="([0-9a-f-]{36})"')
_GAME_PATH = re.compile(r"^/g/([\w-]+)/$")


class GaveUp(Exception):
    pass


@dataclass
class Table:
    index: int
    code: str = ""
    acked: list[tuple[int, str]] = field(default_factory=list)  # (hand number, submission id)
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    requests: int = 0
    retries: int = 0
    # Hands whose form had to be resent: (submission id, wall-clock start of the answered attempt).
    resent: list[tuple[str, float]] = field(default_factory=list)
    hung_up: int = 0  # hand forms sent and hung up on before the answer (faults mode)
    attempts: int = 0  # of the last request sent
    answered_at: float = 0.0  # time.time() when its answered attempt began


class Run:
    def __init__(self, port: int, seconds: float, tables: int) -> None:
        self.port, self.seconds = port, seconds
        self.tables = [Table(i) for i in range(tables)]
        self.start = self.deadline = 0.0
        self.hang_ups = 0.0  # share of hand forms whose first answer the phone never reads
        self.give_up_after = 90.0  # a request is retried this long (a server restart takes a few s)

    # One request, retried with the same body on connection errors and 5xx answers.
    def send(
        self, table: Table, browser: Browser, method: str, path: str, fields: dict[str, str] | None
    ) -> Response:
        first = time.monotonic()
        pause = 0.05
        table.attempts = 0
        while True:
            began = time.monotonic()
            table.answered_at = time.time()
            table.attempts += 1
            table.requests += 1
            try:
                response = browser.get(path) if method == "GET" else browser.post(path, fields or {})
            except OSError as error:
                problem = f"{type(error).__name__}"
            except Exception as error:  # http.client.HTTPException: RemoteDisconnected and friends
                problem = f"{type(error).__name__}"
            else:
                if response.status < 500:
                    table.latencies.append(time.monotonic() - began)
                    return response
                problem = f"HTTP {response.status}"
            table.retries += 1
            if time.monotonic() - first > self.give_up_after:
                raise GaveUp(f"{method} {path}: {problem} for {self.give_up_after:.0f} s")
            time.sleep(pause)
            pause = min(pause * 2, 1.0)

    def play(self, table: Table) -> None:
        rng = random.Random(table.index)
        browser = Browser(self.port)
        try:
            self.send(table, browser, "GET", "/games/new", None)
            variant = "check" if table.index % 2 else "standard"
            setup = {
                "seats": "4",
                "variant": variant,
                "deck": "single",
                "target": "1000000",
                "min_bid": "",
                "first_dealer": "N",
                "name_N": f"Anna {table.index}",
                "name_E": "Bo",
                "name_S": "Cecilia",
                "name_W": "David",
            }
            created = self.send(table, browser, "POST", "/games/new", setup)
            match = _GAME_PATH.match(created.location()) if created.status == 302 else None
            if match is None:
                table.errors.append(f"game setup answered {created.status}")
                return
            table.code = match.group(1)
            page = self.send(table, browser, "GET", f"/g/{table.code}/", None)
            while time.monotonic() < self.deadline:
                number, submission = _NUMBER.search(page.text), _SUBMISSION.search(page.text)
                if page.status != 200 or number is None or submission is None or page.csrf() is None:
                    table.errors.append(f"game page answered {page.status} without an entry form")
                    return
                form = {
                    "csrfmiddlewaretoken": page.csrf() or "",
                    "number": number.group(1),
                    "submission_id": submission.group(1),
                    **rng.choice(HANDS),
                }
                hung_up = rng.random() < self.hang_ups
                if hung_up:
                    browser.post_and_hang_up(f"/g/{table.code}/hands", form)
                    table.hung_up += 1
                    time.sleep(rng.choice([0.0, 0.3, 2.0]))  # resend at once, or after a moment
                answer = self.send(table, browser, "POST", f"/g/{table.code}/hands", form)
                if answer.status == 302 and answer.location() == f"/g/{table.code}/":
                    table.acked.append((int(form["number"]), form["submission_id"]))
                    if table.attempts > 1 or hung_up:
                        table.resent.append((form["submission_id"], table.answered_at))
                else:
                    table.errors.append(f"hand {form['number']}: answered {answer.status}")
                page = self.send(table, browser, "GET", f"/g/{table.code}/", None)
        except GaveUp as error:
            table.errors.append(str(error))
        finally:
            browser.close()

    def run(self, faults: Faults | None) -> float:
        self.start = time.monotonic()
        self.deadline = self.start + self.seconds
        threads = [threading.Thread(target=self.play, args=(table,), daemon=True) for table in self.tables]
        for thread in threads:
            thread.start()
        if faults is not None:
            faults.run(self.start, self.seconds)
        for thread in threads:
            thread.join(timeout=self.seconds + self.give_up_after + 60)
        return time.monotonic() - self.start


class Faults:
    """SIGKILL a gunicorn worker at 25 % and 50 % of the run; restart the whole server at 70 %.

    Besides, 3 % of the hand forms are sent and hung up on before the answer (a phone losing
    the Wi-Fi), then resent: the server saved the hand, and the resend must be told so."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.kills = self.restarts = 0

    def run(self, start: float, seconds: float) -> None:
        for at, action in ((0.25, "kill"), (0.5, "kill"), (0.7, "restart")):
            time.sleep(max(0.0, start + at * seconds - time.monotonic()))
            if action == "kill":
                pid = self.server.kill_worker()
                self.kills += 1
                print(f"  {time.monotonic() - start:5.1f} s: SIGKILL worker {pid}", flush=True)
            else:
                self.server.stop()
                print(f"  {time.monotonic() - start:5.1f} s: server stopped", flush=True)
                self.server.start()
                self.restarts += 1
                print(f"  {time.monotonic() - start:5.1f} s: server up again", flush=True)


@dataclass
class Check:
    hands: int = 0
    lost: int = 0
    duplicated: int = 0
    wrong_totals: int = 0
    answered_from_store: int = 0  # resends answered with the hand an earlier attempt had stored
    problems: list[str] = field(default_factory=list)


def verify(tables: list[Table]) -> Check:
    """Compare what the server acknowledged with the database, and the totals with the engine."""
    from scoring.models import Game
    from scoring.services.results import score

    check = Check()
    for table in tables:
        if not table.code:
            continue
        game = Game.objects.get(code=table.code)
        hands = list(game.hands.order_by("number"))
        rows = [(row.number, str(row.submission_id)) for row in hands]
        saved_at = {str(row.submission_id): row.created_at.timestamp() for row in hands}
        check.answered_from_store += sum(1 for sid, at in table.resent if saved_at.get(sid, at) < at)
        check.hands += len(rows)
        stored = dict((sid, number) for number, sid in rows)
        lost = [(n, sid) for n, sid in table.acked if stored.get(sid) != n]
        extra = len(rows) - (len(table.acked) - len(lost))
        check.lost += len(lost)
        check.duplicated += extra
        if lost or extra:
            check.problems.append(f"game {table.code}: {len(lost)} lost, {extra} not acknowledged")
        if [number for number, _sid in rows] != list(range(1, len(rows) + 1)):
            check.problems.append(f"game {table.code}: hand numbers are not 1..{len(rows)}")
        result = score(game)
        cached = (game.hand_count, game.finished, game.winner, game.scores, game.chip_totals)
        fresh = (
            len(result.hands),
            result.finished,
            result.winner or "",
            dict(result.scores),
            dict(result.chips),
        )
        if cached != fresh:
            check.wrong_totals += 1
            check.problems.append(f"game {table.code}: cached totals {cached} != engine {fresh}")
    return check


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--postgres", action="store_true", help="run on a throwaway PostgreSQL 15 cluster")
    parser.add_argument(
        "--faults", action="store_true", help="kill workers twice and restart the server once"
    )
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--port", type=int, default=8701)
    args = parser.parse_args()
    kind = "postgres" if args.postgres else "sqlite"

    with database(args.postgres) as url:
        env = environment(url)
        prepare_database(env)
        server = Server(env, free_port(args.port))
        server.start()
        faults = Faults(server) if args.faults else None
        run = Run(server.port, args.seconds, args.tables)
        if args.faults:
            run.hang_ups = 0.03
        print(f"{kind}: {args.tables} tables for {args.seconds:.0f} s on 127.0.0.1:{server.port}", flush=True)
        try:
            elapsed = run.run(faults)
        finally:
            server.stop()
        setup_django(env)
        check = verify(run.tables)
        from django.db import connections

        connections.close_all()

    tables = run.tables
    requests = sum(t.requests for t in tables)
    latencies = [x for t in tables for x in t.latencies]
    errors = [e for t in tables for e in t.errors]
    for problem in errors[:10] + check.problems[:10]:
        print("  problem:", problem)
    print(
        f"  {requests} requests ({sum(t.retries for t in tables)} retried), "
        f"{sum(len(t.acked) for t in tables)} hands acknowledged, "
        f"{check.wrong_totals} games with wrong cached totals; {sum(len(t.resent) for t in tables)} hand "
        f"forms resent ({sum(t.hung_up for t in tables)} after hanging up on purpose), "
        f"{check.answered_from_store} of them answered with the hand an earlier attempt stored"
    )
    rate = requests / elapsed if elapsed else 0.0
    p50, p99 = percentile(latencies, 0.5) * 1000, percentile(latencies, 0.99) * 1000
    if faults is not None:
        print(
            f"faults: {faults.kills} worker kills, {faults.restarts} restart, {check.lost} lost, "
            f"{check.duplicated} duplicated, {check.hands} hands, {len(errors)} errors ({kind})"
        )
    else:
        print(
            f"load: {len(errors)} errors, {check.lost} lost, {check.duplicated} duplicated, "
            f"{check.hands} hands, {rate:.0f} req/s, p50 {p50:.0f} ms, p99 {p99:.0f} ms ({kind})"
        )
    bad = errors or check.lost or check.duplicated or check.wrong_totals or check.problems
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
