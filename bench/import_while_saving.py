"""Import while saving: a 10.9 MB upload must not hold up the tables.

gunicorn with 2 sync workers on 127.0.0.1 and one task worker (`manage.py db_worker`, niced) beside
it (bench/harness.py). One client, signed in as an administrator, uploads a JSON file of 1,500
game records × 100 hands (about 10.9 MB) through the import page, which queues it for the task
worker, and follows its progress page until the import is done; meanwhile another client saves
hands into its own quick game without pause (game page, then the hand form, as a phone does).
Printed: the import's time, the number of saves, the worst save latency, the errors, and the task
worker's memory: its resident size before the upload and at its peak (Linux /proc), the
difference against the file's size.

    .venv/bin/python bench/import_while_saving.py               # SQLite file in a temporary folder
    .venv/bin/python bench/import_while_saving.py --postgres    # a throwaway PostgreSQL 15 cluster
    .venv/bin/python bench/import_while_saving.py --games 300   # a smaller file, for a quick look

Aim: no save waits more than 1 s or fails; the import holds at most 5x the file's size. Exit
status 1 when a save failed or the import did not finish.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.harness import Browser, Server, database, environment, free_port, prepare_database, setup_django

# The hand form's number: the Undo form of a hand just saved also carries one, before it.
_NUMBER = re.compile(r'name="number" value="(\d+)" id="id_number"')
_SUBMISSION = re.compile(r'name="submission_id" value="([0-9a-f-]{36})"')
_GAME_PATH = re.compile(r"^/g/([\w-]+)/$")
_IMPORTED = re.compile(r"Imported ([\d,]+) games with ([\d,]+) hands")
PASSWORD = "bench-import-password-1"
ROSTER = ["Anna", "Bo", "Cecilia", "David", "Eva", "Filip", "Greta", "Hugo", "Ida", "Jonas", "Karin", "Lars"]
SUITS = ["hearts", "spades", "clubs", "diamonds"]
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
HAND_FORM = {"bidder": "N", "bid": "27", "trump": "hearts", "meld_N_run": "1", "tricks_NS": "15"}


def a_hand(rng: random.Random) -> dict[str, object]:
    """A Check Pinochle hand as a phone records it: some deals passed in, the rest bid and
    played with a meld or two."""
    if rng.random() < 0.36:
        return {"passed": True}
    bidder = rng.choice("NESW")
    ours = rng.randint(8, 22)
    side, other = SIDE[bidder], "EW" if SIDE[bidder] == "NS" else "NS"
    opponent = next(seat for seat in "NESW" if SIDE[seat] == other)
    melds = {bidder: [rng.choice(("run", "trump_marriage"))]}
    if rng.random() < 0.5:
        melds[opponent] = [rng.choice(("marriage", "dix", "kings"))]
    return {
        "bidder": bidder,
        "bid": rng.choice((20, 21, 22, 24, 25, 27, 30)),
        "trump": rng.choice(SUITS),
        "melds": melds,
        "tricks": {side: ours, other: 25 - ours},
    }


def build_file(games: int, hands: int, seed: int = 13) -> bytes:
    rng = random.Random(seed)
    records = []
    for _ in range(games):
        seats = rng.sample(ROSTER, 4)
        records.append(
            {
                "seats": 4,
                "variant": "check",
                "deck": "single",
                "target": 1_000_000,  # no game ends before its last hand
                "players": dict(zip("NESW", seats, strict=True)),
                "hands": [a_hand(rng) for _ in range(hands)],
            }
        )
    return json.dumps(records, ensure_ascii=False, separators=(",", ":")).encode()


def multipart(fields: dict[str, str], file_field: str, file_name: str, data: bytes) -> tuple[bytes, str]:
    boundary = "bench" + uuid.uuid4().hex
    parts = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        )
    parts.append(
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; filename="{file_name}"\r\n'
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        + data
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


class Saver:
    """A phone saving hands into its own quick game, without pause, until told to stop."""

    def __init__(self, port: int) -> None:
        self.browser = Browser(port, timeout=60)
        self.stop = threading.Event()
        self.latencies: list[float] = []
        self.started: list[float] = []  # when each save was sent (time.monotonic())
        self.errors: list[str] = []
        self.code = ""

    def setup(self) -> None:
        self.browser.get("/games/new")
        created = self.browser.post(
            "/games/new",
            {"seats": "4", "variant": "standard", "deck": "single", "target": "1000000", "min_bid": "",
             "first_dealer": "N", "name_N": "Anna", "name_E": "Bo", "name_S": "Cecilia", "name_W": "David"},
        )  # fmt: skip
        match = _GAME_PATH.match(created.location()) if created.status == 302 else None
        if match is None:
            raise SystemExit(f"game setup answered {created.status}")
        self.code = match.group(1)

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                page = self.browser.get(f"/g/{self.code}/")
                number, submission = _NUMBER.search(page.text), _SUBMISSION.search(page.text)
                if page.status != 200 or number is None or submission is None:
                    self.errors.append(f"game page answered {page.status}")
                    time.sleep(0.1)
                    continue
                form = {
                    "csrfmiddlewaretoken": page.csrf() or "",
                    "number": number.group(1),
                    "submission_id": submission.group(1),
                    **HAND_FORM,
                }
                began = time.monotonic()
                answer = self.browser.post(f"/g/{self.code}/hands", form)
                self.latencies.append(time.monotonic() - began)
                self.started.append(began)
                if answer.status != 302:
                    self.errors.append(f"hand {form['number']}: answered {answer.status}")
            except Exception as error:  # a broken connection is an error to report, not a crash
                self.errors.append(type(error).__name__)
                self.browser.close()


def memory_mb(pid: int, field: str) -> float:
    """A process's VmRSS (resident now) or VmHWM (resident at its peak), in MB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def sign_in(browser: Browser) -> None:
    page = browser.get("/accounts/login/")
    answer = browser.post(
        "/accounts/login/",
        {"csrfmiddlewaretoken": page.csrf() or "", "username": "bench", "password": PASSWORD},
    )
    if answer.status != 302:
        raise SystemExit(f"sign-in answered {answer.status}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--postgres", action="store_true", help="run on a throwaway PostgreSQL 15 cluster")
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--port", type=int, default=8711)
    parser.add_argument("--limit", type=float, default=900, help="seconds to wait for the import at most")
    parser.add_argument(
        "--control",
        type=float,
        default=20,
        help="seconds of saves before the upload, on their own: the machine's own worst save",
    )
    args = parser.parse_args()
    kind = "postgres" if args.postgres else "sqlite"
    raw = build_file(args.games, args.hands)
    size = len(raw) / 1_000_000

    with database(args.postgres) as url:
        env = environment(url)
        prepare_database(env)
        setup_django(env)
        from django.contrib.auth.models import User
        from django.db import connections

        User.objects.create_superuser("bench", "bench@example.org", PASSWORD)
        connections.close_all()
        server = Server(env, free_port(args.port), workers=2)
        server.start()
        try:
            saver = Saver(server.port)
            saver.setup()
            uploader = Browser(server.port, timeout=120)
            sign_in(uploader)
            form = uploader.get("/league/import/")
            body, content_type = multipart(
                {"csrfmiddlewaretoken": form.csrf() or "", "club": "", "season": "", "played_on": ""},
                "file",
                "records.json",
                raw,
            )
            thread = threading.Thread(target=saver.run, daemon=True)
            thread.start()
            time.sleep(max(1.0, args.control))  # the saves run on their own first: the control
            assert server.tasks is not None
            idle_mb = memory_mb(server.tasks.pid, "VmRSS")
            began = time.monotonic()
            phases: list[tuple[float, str]] = []
            answer = uploader.request(
                "POST",
                "/league/import/",
                body,
                {"Content-Type": content_type, "Referer": f"http://127.0.0.1:{server.port}/"},
            )
            upload_seconds = time.monotonic() - began
            outcome = ""
            if answer.status != 302:
                outcome = f"upload answered {answer.status}"
            else:
                status_path = answer.location()
                while time.monotonic() - began < args.limit:
                    page = uploader.get(status_path)
                    status = re.search(r'role="status">([^<]{0,60})', page.text)
                    phases.append((time.monotonic(), status.group(1).strip() if status else "?"))
                    if page.status != 200:
                        outcome = f"import page answered {page.status}"
                        break
                    if 'http-equiv="refresh"' not in page.text:
                        imported = _IMPORTED.search(page.text)
                        reasons = re.findall(r"<li>(.*?)</li>", page.text)[:3]
                        outcome = "" if imported else f"the import was refused: {reasons}"
                        break
                    time.sleep(0.5)
                else:
                    outcome = f"not finished after {args.limit:.0f} s"
            import_seconds = time.monotonic() - began
            peak_mb = memory_mb(server.tasks.pid, "VmHWM")
            time.sleep(1.0)  # and again on their own after it
            saver.stop.set()
            thread.join(timeout=60)
        finally:
            server.stop()

        setup_django(env)
        from scoring.models import Game, Hand

        stored_games = Game.objects.exclude(code=saver.code).count()
        stored_hands = Hand.objects.exclude(game__code=saver.code).count()
        saved_hands = Hand.objects.filter(game__code=saver.code).count()
        connections.close_all()

    saves, worst = len(saver.latencies), max(saver.latencies, default=0.0) * 1000
    errors = saver.errors + ([outcome] if outcome else [])
    answered = len(saver.latencies) - len([e for e in saver.errors if e.startswith("hand ")])
    if saved_hands != answered:  # every save answered 302 must be a hand in the game, once
        errors.append(f"{answered} saves answered as saved, {saved_hands} hands in the game")
    for problem in errors[:10]:
        print("  problem:", problem)
    median = sorted(saver.latencies)[saves // 2] * 1000 if saves else 0.0
    control = sorted(lat for lat, at in zip(saver.latencies, saver.started, strict=True) if at < began)
    during = sorted(lat for lat, at in zip(saver.latencies, saver.started, strict=True) if at >= began)
    for label, part in (("control, before the upload", control), ("while importing", during)):
        if part:
            print(
                f"  {label}: {len(part)} saves, median {part[len(part) // 2] * 1000:.0f} ms, "
                f"99th percentile {part[int(len(part) * 0.99)] * 1000:.0f} ms, worst {part[-1] * 1000:.0f} ms"
            )
    slowest = sorted(zip(saver.latencies, saver.started, strict=True), reverse=True)[:5]
    for latency, at in slowest:
        phase = next((text for moment, text in reversed(phases) if moment <= at), "before the upload")
        print(f"  slow save: {latency * 1000:.0f} ms at {at - began:+.1f} s, import: {phase[:50]}")
    print(
        f"  upload request answered in {upload_seconds:.2f} s; stored {stored_games} games with "
        f"{stored_hands} hands; median save {median:.0f} ms"
    )
    print(
        f"  task worker: {idle_mb:.0f} MB resident before the upload, {peak_mb:.0f} MB at its peak: "
        f"{peak_mb - idle_mb:.0f} MB for the import, {(peak_mb - idle_mb) / (len(raw) / 2**20):.1f}x the file"
    )
    print(
        f"import-while-saving: {size:.1f} MB, {args.games} games in {import_seconds:.1f} s; "
        f"{saves} saves, worst {worst:.0f} ms, {len(errors)} errors ({kind})"
    )
    return 1 if errors or stored_games != args.games else 0


if __name__ == "__main__":
    sys.exit(main())
