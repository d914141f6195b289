"""Web benchmark: gunicorn (2 workers) on 127.0.0.1 and wrk on three views, in rounds.

(a) the scoreboard of a 40-hand Check Pinochle game, (b) saving a hand (every request saves a new
valid hand: each goes to its own game, which already holds 5 hands), (c) the trivial /healthz.
Requests (a) and (b) carry the scoring phone's `device` cookie, which holds the right to the games.

The machine's speed drifts from one minute to the next (2 shared cores), so the views are measured
in BENCH_ROUNDS rounds (default 5) of (c), (a), (b) for BENCH_DURATION each (default 4 s): each
round's ratios are against the trivial view measured a few seconds before, and the figures printed
are the rounds' medians, with every round's ratios on the lines below. Afterwards it checks that
the saves were written, and counts the database queries of one save (in-process, the same request,
after 5 and after 40 hands) and of the scoreboard.

Run: .venv/bin/python bench/web.py   (or bench/web.sh). Everything lives in a temporary folder;
the server is stopped by its PID. Only 127.0.0.1.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PORT = int(os.environ.get("BENCH_PORT", "8301"))
BASE = f"http://127.0.0.1:{PORT}"
DURATION = os.environ.get("BENCH_DURATION", "4s")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
SAVE_GAMES = int(os.environ.get("BENCH_SAVE_GAMES", "20000"))

sys.path.insert(0, str(ROOT))
from scoring.rules import worked_example  # noqa: E402  (plain Python: no Django set up yet)

# docs/rules.md, "Worked example", hand 1: stored as a hand object, posted as the entry form does.
WORKED_EXAMPLE = worked_example.hand(1)
SAVE_FIELDS = {"number": "6", **worked_example.entry_fields(WORKED_EXAMPLE)}
SAVE_BODY = urllib.parse.urlencode(SAVE_FIELDS)

SAVE_LUA = r"""
local codes = {}
local cookies = {}
for line in io.lines("%(codes)s") do
  local code, cookie = line:match("^(%%S+) (%%S+)$")
  codes[#codes + 1] = code
  cookies[#cookies + 1] = cookie
end
local threads = {}
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end
counter, saved, other = 0, 0, 0
function init(args)
  math.randomseed(id * 7919 + os.time())
end
local function uuid4()
  local r = math.random
  return string.format("%%08x-%%04x-4%%03x-a%%03x-%%04x%%08x",
    r(0, 0x7fffffff), r(0, 0xffff), r(0, 0xfff), r(0, 0xfff), r(0, 0xffff), r(0, 0x7fffffff))
end
function request()
  local index = counter * %(threads)d + id + 1
  counter = counter + 1
  local slot = ((index - 1) %% #codes) + 1
  local code = codes[slot]
  local body = "csrfmiddlewaretoken=%(token)s&submission_id=" .. uuid4() .. "&%(body)s"
  return wrk.format("POST", "/g/" .. code .. "/hands", {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Cookie"] = "csrftoken=%(token)s; device=" .. cookies[slot],
  }, body)
end
function response(status, headers, body)
  if status == 302 then saved = saved + 1 else other = other + 1 end
end
function done(summary, latency, requests)
  local s, o = 0, 0
  for _, thread in ipairs(threads) do
    s = s + thread:get("saved")
    o = o + thread:get("other")
  end
  io.write(string.format("SAVED %%d OTHER %%d\n", s, o))
end
"""


def environment(db: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "pinochle_site.settings",
        "DATABASE_URL": f"sqlite:///{db}",
        "DEBUG": "false",
        "SECRET_KEY": "bench-" + secrets.token_hex(16),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "SECURE_HSTS_SECONDS": "0",
        "LOG_LEVEL": "ERROR",
        "PYTHONPATH": str(ROOT),
    }


def edit_cookie(code: str, token: str) -> str:
    """The scoring phone's signed `device` cookie (scoring/devices.py): one device, `token` its id,
    holding the right to every game the bench made (`grant_device`). `code` is not part of it."""
    from django.core.signing import get_cookie_signer

    from scoring import devices

    return get_cookie_signer(salt=devices.DEVICE_COOKIE + devices.DEVICE_SALT).sign(token)


def grant_device(token: str, games: list[Any]) -> None:
    """The device `token` scores `games`, as the phone that started them does: the rows
    `scoring.devices.grant_game` writes for a browser nobody is signed in on (active, no holder),
    written in bulk for the bench's thousands of games."""
    from scoring.handover import token_hash
    from scoring.models import Device, DeviceGame

    device, _ = Device.objects.get_or_create(id_hash=token_hash(token))
    DeviceGame.objects.bulk_create((DeviceGame(device=device, game=game) for game in games), batch_size=1000)


def seed(workdir: Path) -> tuple[str, str, Path]:
    """A 40-hand game for the scoreboard, and SAVE_GAMES games of 5 hands for the saves, all
    held by one scoring phone (`grant_device`), whose `device` cookie every request carries."""
    import django

    django.setup()
    from scoring.models import Game, GameSeat, Hand
    from scoring.services.games import create_game
    from scoring.services.hands import record_hand
    from scoring.services.results import score

    token = secrets.token_urlsafe(32)

    players = {"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "David"}
    board = create_game(
        seats=4, variant="check", deck="single", target=9999, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players=players,
    )  # fmt: skip
    for number in range(1, 41):
        data = {"passed": True} if number % 5 == 0 else WORKED_EXAMPLE
        record_hand(game=board, number=number, data=data)

    result = score(board, [WORKED_EXAMPLE] * 5)
    games = [
        Game(
            variant="check",
            target=9999,
            hand_count=5,
            scores=dict(result.scores),
            chip_totals=dict(result.chips),
        )
        for _ in range(SAVE_GAMES)
    ]
    Game.objects.bulk_create(games, batch_size=1000)
    GameSeat.objects.bulk_create(
        (GameSeat(game=game, seat=seat, name=name) for game in games for seat, name in players.items()),
        batch_size=2000,
    )
    Hand.objects.bulk_create(
        (Hand(game=game, number=n, data=WORKED_EXAMPLE) for game in games for n in range(1, 6)),
        batch_size=2000,
    )
    grant_device(token, [board, *games])
    codes = workdir / "codes.txt"
    codes.write_text("".join(f"{game.code} {edit_cookie(game.code, token)}\n" for game in games))
    return board.code, edit_cookie(board.code, token), codes


def save_queries(token: str, hands: int) -> int:
    """The queries of one save (the bench's POST) to a game of `hands` hands, counted in-process."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scoring.services.games import create_game
    from scoring.services.hands import record_hand

    game = create_game(
        seats=4, variant="check", deck="single", target=9999, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "David"},
    )  # fmt: skip
    for number in range(1, hands + 1):
        record_hand(game=game, number=number, data=WORKED_EXAMPLE)
    client = Client(HTTP_HOST="127.0.0.1")
    grant_device(token, [game])
    client.cookies["device"] = edit_cookie(game.code, token)
    body = {**SAVE_FIELDS, "number": str(hands + 1), "submission_id": secrets.token_hex(16)}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/g/{game.code}/hands", body)
    if response.status_code != 302:
        raise SystemExit(f"the counted save was answered {response.status_code}")
    return len(queries)


def scoreboard_queries(token: str, hands: int) -> int:
    """The queries of the scoring phone's page of a game of `hands` hands, counted in-process."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scoring.services.games import create_game
    from scoring.services.hands import record_hand

    game = create_game(
        seats=4, variant="check", deck="single", target=9999, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "David"},
    )  # fmt: skip
    for number in range(1, hands + 1):
        record_hand(game=game, number=number, data=WORKED_EXAMPLE)
    grant_device(token, [game])
    client = Client(HTTP_HOST="127.0.0.1")
    client.cookies["device"] = edit_cookie(game.code, token)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/g/{game.code}/")
    if response.status_code != 200:
        raise SystemExit(f"the counted scoreboard was answered {response.status_code}")
    return len(queries)


def wait_until_up(deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{BASE}/healthz", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer on /healthz")


def wrk(url: str, script: Path | None = None, cookie: str | None = None) -> tuple[float, str]:
    command = ["wrk", "-t2", "-c16", f"-d{DURATION}", "--latency"]
    if cookie:
        command += ["-H", f"Cookie: {cookie}"]
    if script:
        command += ["-s", str(script)]
    output = subprocess.run([*command, url], capture_output=True, text=True, timeout=120, check=True).stdout
    match = re.search(r"Requests/sec:\s+([\d.]+)", output)
    if not match:
        raise SystemExit(f"no Requests/sec in wrk output:\n{output}")
    return float(match.group(1)), output


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="pinochle-bench-") as tmp:
        workdir = Path(tmp)
        db = workdir / "bench.sqlite3"
        env = environment(db)
        os.environ.update(env)
        python = sys.executable
        subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        subprocess.run(
            [python, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
        )
        board_code, board_cookie, codes = seed(workdir)
        query_token = secrets.token_urlsafe(32)
        queries = {hands: save_queries(query_token, hands) for hands in (5, 40)}
        board_queries = scoreboard_queries(query_token, 40)
        from django.db import connections

        connections.close_all()
        token = secrets.token_hex(16)  # 32 characters: a CSRF secret, valid as cookie and as form token
        # Each round saves into its own share of the games (a game takes one new hand).
        lines = codes.read_text().splitlines(keepends=True)
        share = len(lines) // ROUNDS
        save_scripts = []
        for round_no in range(ROUNDS):
            round_codes = workdir / f"codes-{round_no}.txt"
            round_codes.write_text("".join(lines[round_no * share : (round_no + 1) * share]))
            script = workdir / f"save-{round_no}.lua"
            script.write_text(
                SAVE_LUA % {"codes": round_codes, "threads": 2, "token": token, "body": SAVE_BODY}
            )
            save_scripts.append(script)

        gunicorn = Path(python).with_name("gunicorn")
        server = subprocess.Popen(
            [str(gunicorn), "pinochle_site.wsgi", "-w", "2", "-b", f"127.0.0.1:{PORT}", "--no-control-socket",
             "--log-level", "error"],
            cwd=ROOT, env=env, start_new_session=True,
        )  # fmt: skip
        rounds: list[dict[str, float]] = []
        saved = other = 0
        try:
            wait_until_up(time.monotonic() + 30)
            # The scoreboard request must reach the page, not the login page.
            check = urllib.request.Request(f"{BASE}/g/{board_code}/")
            check.add_header("Cookie", f"device={board_cookie}")
            with urllib.request.urlopen(check, timeout=5) as answer:
                if answer.status != 200 or b'id="hand-form"' not in answer.read():
                    raise SystemExit("the scoreboard request did not get the scoring phone's page")
            for script in save_scripts:
                trivial, _ = wrk(f"{BASE}/healthz")
                scoreboard, _ = wrk(f"{BASE}/g/{board_code}/", cookie=f"device={board_cookie}")
                save, save_output = wrk(BASE, script)
                rounds.append({"trivial": trivial, "scoreboard": scoreboard, "save": save})
                counted = re.search(r"SAVED (\d+) OTHER (\d+)", save_output)
                if not counted:
                    raise SystemExit(f"the save script did not count its answers:\n{save_output}")
                saved, other = saved + int(counted.group(1)), other + int(counted.group(2))
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)

        from scoring.models import Hand

        written = Hand.objects.filter(number=6).count()
        print(f"{len(rounds)} rounds of {DURATION} per view; medians of the rounds:")
        print(f"{'view':<28} {'requests/s':>11} {'of trivial':>11}")
        for name, key in (
            ("(a) scoreboard, 40 hands", "scoreboard"),
            ("(b) save a hand", "save"),
            ("(c) trivial /healthz", "trivial"),
        ):
            rate = statistics.median(one[key] for one in rounds)
            ratio = statistics.median(one[key] / one["trivial"] for one in rounds)
            print(f"{name:<28} {rate:>11.1f} {ratio:>10.1%}")
        for number, one in enumerate(rounds, start=1):
            print(
                f"round {number}: trivial {one['trivial']:.0f} req/s, scoreboard "
                f"{one['scoreboard'] / one['trivial']:.1%}, save {one['save'] / one['trivial']:.1%}"
            )
        print(f"saves answered 302: {saved}, other answers: {other}; hands written: {written}")
        print("queries of one save: " + ", ".join(f"{n} after {hands} hands" for hands, n in queries.items()))
        print(f"queries of the 40-hand scoreboard: {board_queries}")
        # wrk stops counting at the deadline; up to one request per connection may still land.
        if other or not saved <= written <= saved + 16 * len(rounds):
            raise SystemExit("the save benchmark did not write one hand per request")


if __name__ == "__main__":
    main()
