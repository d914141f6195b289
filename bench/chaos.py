"""The chaos journey: hands entered through the phone's UI on a bad network, then the
stored games must equal the games the table meant, hand for hand.

One phone (Chromium at 390x844, Playwright) sets up several games through the setup form and enters
`--hands` hands in all, each with a random latency of 0-800 ms (the DevTools protocol's
Network.emulateNetworkConditions), the bid set with taps on "+" 100 ms apart. Along the way:
- 10 % of the answers to a Save are dropped after the server handled the request (route.fetch(),
  then route.abort()): the phone must say "not confirmed" and retry with the same submission id;
- offline spells (context.set_offline): Save queues the hand on the phone, sometimes the page is
  reloaded while offline (the service worker opens it), and the hand is sent when the network is back;
- double taps on Save, reloads in the middle of a hand (the draft must come back), Back presses;
- a second phone (another browser context with the scoring right) deletes the last hand or
  corrects an earlier one; the intended game follows what it did.
The second phone acts between two hands of the first, which then reloads its page, as today's server
checks the expected hand number of a deletion under the game's lock.

Afterwards, with the browser closed, the ORM compares every game's stored hands with the intended
ones and prints `chaos: N hands intended, N stored, 0 wrong, 0 lost, 0 duplicated`; the exit status
is 1 when any hand is wrong, lost or duplicated.

    .venv/bin/python bench/chaos.py                      # 200 hands over 4 games, SQLite file
    .venv/bin/python bench/chaos.py --hands 40 --seed 7  # a shorter run
    .venv/bin/python bench/chaos.py --postgres

gunicorn: 2 workers on 127.0.0.1 (--port, default 8711), stopped by its PID. Bounded by --minutes.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.harness import Server, database, environment, free_port, prepare_database, setup_django

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
SEATS = {"N": "North (Anna)", "E": "East (Bo)", "S": "South (Cecilia)", "W": "West (David)"}
SUITS = ["spades", "hearts", "diamonds", "clubs"]
NS, EW = "N–S (Anna & Cecilia)", "E–W (Bo & David)"
MIN_BID = 20
WAIT_MS = 60_000


@dataclass
class Tally:
    dropped: int = 0
    offline: int = 0
    offline_reloads: int = 0
    double_taps: int = 0
    reloads: int = 0
    backs: int = 0
    deletes: int = 0
    corrections: int = 0
    posts: int = 0
    latencies: list[int] = field(default_factory=list)


def random_hand(rng: random.Random) -> dict[str, Any]:
    bidder = rng.choice("NESW")
    ns_tricks = rng.randint(0, 25)
    return {
        "bidder": bidder,
        "bid": MIN_BID + rng.randint(0, 8),
        "trump": rng.choice(SUITS),
        "meld_points": {"NS": rng.choice(range(0, 61, 2)), "EW": rng.choice(range(0, 61, 2))},
        "tricks": {"NS": ns_tricks, "EW": 25 - ns_tricks},
    }


def stored_view(data: dict[str, Any]) -> dict[str, Any]:
    """The part of a stored hand record that the journey enters."""
    view = {key: data.get(key) for key in ("bidder", "bid", "trump", "meld_points", "tricks")}
    if view["meld_points"] is None:  # no meld on either side is stored as no meld_points at all
        view["meld_points"] = {"NS": 0, "EW": 0}
    return view


class Journey:
    def __init__(self, base: str, args: argparse.Namespace) -> None:
        self.base, self.args = base, args
        self.rng = random.Random(args.seed)
        self.drops = random.Random(args.seed + 1)  # its own: the route handler runs between the steps
        self.events: list[str] = []
        self.tally = Tally()
        self.games: dict[str, list[dict[str, Any]]] = {}
        self.drop_next = False

    # --- the first phone --------------------------------------------------------------------

    def run(self) -> None:
        from playwright.sync_api import expect, sync_playwright

        expect.set_options(timeout=WAIT_MS)
        deadline = time.monotonic() + self.args.minutes * 60
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
            )
            phone: dict[str, Any] = {
                "viewport": {"width": 390, "height": 844},
                "is_mobile": True,
                "has_touch": True,
            }
            self.context = browser.new_context(**phone)
            self.page = self.context.new_page()
            self.page.set_default_timeout(WAIT_MS)
            self.page.route("**/g/*/hands", self.maybe_drop)
            self.cdp = self.context.new_cdp_session(self.page)
            self.cdp.send("Network.enable")
            self.second = browser.new_context(**phone)
            per_game = -(-self.args.hands // self.args.games)
            entered = 0
            while entered < self.args.hands:
                code = self.start_game()
                for _ in range(min(per_game, self.args.hands - entered)):
                    if time.monotonic() > deadline:
                        raise SystemExit(f"chaos: out of time after {entered} hands (--minutes)")
                    self.enter_hand(code)
                    entered += 1
                    if self.rng.random() < self.args.second_phone:
                        self.second_phone(code)
            browser.close()

    def maybe_drop(self, route: Any) -> None:
        self.tally.posts += 1
        if self.drop_next or self.drops.random() < self.args.drop:
            self.events.append("answer dropped")
            self.drop_next = False
            self.tally.dropped += 1
            try:
                route.fetch()  # the server handles the Save...
            finally:
                route.abort()  # ...and its answer never reaches the phone
        else:
            route.continue_()

    def latency(self, milliseconds: int) -> None:
        self.tally.latencies.append(milliseconds)
        self.cdp.send(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": milliseconds, "downloadThroughput": -1, "uploadThroughput": -1},
        )

    def start_game(self) -> str:
        from playwright.sync_api import expect

        page = self.page
        self.latency(0)
        page.goto(self.base + "/games/new")
        seats = page.get_by_role("group", name="Seats at the table")
        seats.get_by_text("4 (two partnerships)", exact=True).click()
        for seat, name in NAMES.items():
            page.get_by_role("textbox", name=seat).fill(name)
        page.get_by_label("Play to").fill("100000")
        page.get_by_role("button", name="Start the game").click()
        expect(page.get_by_role("heading", name="Enter hand 1")).to_be_visible()
        match = re.search(r"/g/([^/]+)/", page.url)
        assert match, page.url
        self.games[match.group(1)] = []
        return match.group(1)

    def form(self) -> Any:
        return self.page.locator("#hand-form")

    def fill_first_part(self, hand: dict[str, Any]) -> None:
        form = self.form()
        form.get_by_role("group", name="Bidder").get_by_text(SEATS[hand["bidder"]], exact=True).click()
        plus = form.get_by_role("button", name="Raise bid")
        bid = form.get_by_role("spinbutton", name="Bid")
        bid.fill("")
        for _ in range(hand["bid"] - MIN_BID + 1):  # the first tap gives the minimum
            plus.click()
            self.page.wait_for_timeout(100)
        form.get_by_role("group", name="Trump").get_by_text(hand["trump"].capitalize()).click()

    def fill_second_part(self, hand: dict[str, Any]) -> None:
        form = self.form()
        quick = form.get_by_text("Quick points")
        quick.click()
        meld = form.locator(".meld-quick")
        # Quick points are per player; a side scores its two players' sum (North's and East's here).
        meld.get_by_role("spinbutton", name=re.compile(r"^North")).fill(str(hand["meld_points"]["NS"]))
        meld.get_by_role("spinbutton", name=re.compile(r"^East")).fill(str(hand["meld_points"]["EW"]))
        tricks = form.get_by_role("group", name=re.compile(r"^Trick points"))
        tricks.get_by_role("spinbutton", name=NS, exact=True).fill(str(hand["tricks"]["NS"]))
        tricks.get_by_role("spinbutton", name=EW, exact=True).fill(str(hand["tricks"]["EW"]))

    def enter_hand(self, code: str) -> None:
        from playwright.sync_api import expect

        page, rng = self.page, self.rng
        number = len(self.games[code]) + 1
        expect(page.get_by_role("heading", name=f"Enter hand {number}")).to_be_visible()
        hand = random_hand(rng)
        self.latency(rng.randint(0, 800))
        self.events.append(f"{code} hand {number}: latency {self.tally.latencies[-1]} ms")
        self.fill_first_part(hand)
        if rng.random() < self.args.reload:
            self.tally.reloads += 1
            self.events.append("reload mid-entry")
            page.reload()
            expect(page.get_by_text("Draft restored")).to_be_visible()
            expect(self.form().get_by_role("spinbutton", name="Bid")).to_have_value(str(hand["bid"]))
        self.fill_second_part(hand)
        expect(self.form().get_by_role("spinbutton", name="Bid")).to_have_value(str(hand["bid"]))
        offline = rng.random() < self.args.offline
        save = page.get_by_role("button", name=f"Save hand {number}")
        if offline:
            self.tally.offline += 1
            self.events.append("offline save")
            page.wait_for_function(
                "navigator.serviceWorker.ready.then(() => caches.match(location.href)).then(r => !!r)"
            )
            self.context.set_offline(True)
            save.click()
            expect(page.locator(".save-state")).to_contain_text(f"hand {number} is kept on this phone")
            if rng.random() < 0.5:
                self.tally.offline_reloads += 1
                self.events.append("reload while offline")
                page.reload()
                expect(page.locator(".pending-badge")).to_have_text("Waiting to be sent: 1")
            page.wait_for_timeout(rng.randint(200, 1500))
            self.context.set_offline(False)
        elif rng.random() < self.args.double_tap:
            self.tally.double_taps += 1
            self.events.append("double tap")
            save.dblclick()
        else:
            save.click()
        self.games[code].append(hand)
        expect(page.get_by_role("heading", name=f"Enter hand {number + 1}")).to_be_visible()
        expect(page.locator(".pending-badge")).to_be_hidden()
        if rng.random() < self.args.back:
            self.tally.backs += 1
            self.events.append("back and forward")
            page.go_back()
            page.go_forward()
            expect(page.get_by_role("heading", name=f"Enter hand {number + 1}")).to_be_visible()

    # --- the second phone -------------------------------------------------------------------

    def second_phone(self, code: str) -> None:
        from playwright.sync_api import expect

        intended = self.games[code]
        if not intended:
            return
        self.second.clear_cookies()
        self.second.add_cookies(
            [
                {"name": c["name"], "value": c["value"], "domain": c["domain"], "path": c["path"],
                 "expires": c["expires"], "httpOnly": c["httpOnly"], "secure": c["secure"],
                 "sameSite": c["sameSite"]}
                for c in self.context.cookies()
            ]
        )  # fmt: skip
        other = self.second.new_page()
        other.set_default_timeout(WAIT_MS)
        other.goto(f"{self.base}/g/{code}/")
        if self.rng.random() < 0.5:
            self.tally.deletes += 1
            self.events.append("second phone deletes")
            number = len(intended)
            other.get_by_role("link", name=f"Delete hand {number} (the last)").click()
            other.get_by_role("button", name=f"Delete hand {number}").click()
            expect(other.get_by_text(f"Hand {number} deleted.")).to_be_visible()
            intended.pop()
        else:
            self.tally.corrections += 1
            self.events.append("second phone corrects")
            number = self.rng.randint(1, len(intended))
            other.locator(f"#hand-{number} summary").click()  # the history row opens its Edit
            other.get_by_role("link", name=f"Edit hand {number}", exact=True).click()
            new_bid = MIN_BID + self.rng.randint(0, 8)
            other.locator("#hand-form").get_by_role("spinbutton", name="Bid").fill(str(new_bid))
            other.get_by_role("button", name=f"Save correction of hand {number}").click()
            expect(other.get_by_text(f"Hand {number} corrected.")).to_be_visible()
            intended[number - 1] = {**intended[number - 1], "bid": new_bid}
        other.close()
        self.page.reload()  # the first phone looks again (see the module's note)


def compare(games: dict[str, list[dict[str, Any]]]) -> tuple[int, int, int, int, int]:
    from scoring.models import Hand

    intended = stored = wrong = lost = duplicated = 0
    for code, hands in games.items():
        rows = list(Hand.objects.filter(game__code=code).order_by("number"))
        intended += len(hands)
        stored += len(rows)
        for index, hand in enumerate(hands):
            if index >= len(rows):
                lost += 1
            elif stored_view(rows[index].data) != hand:
                wrong += 1
                print(f"  {code} hand {index + 1}: meant {hand}, stored {stored_view(rows[index].data)}")
        duplicated += max(0, len(rows) - len(hands))
        ids = [row.submission_id for row in rows if row.submission_id]
        duplicated += len(ids) - len(set(ids))
    return intended, stored, wrong, lost, duplicated


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--drop", type=float, default=0.10, help="share of Save answers dropped")
    parser.add_argument("--offline", type=float, default=0.08, help="share of hands saved offline")
    parser.add_argument("--double-tap", type=float, default=0.10)
    parser.add_argument("--reload", type=float, default=0.10, help="share of hands reloaded mid-entry")
    parser.add_argument("--back", type=float, default=0.05)
    parser.add_argument("--second-phone", type=float, default=0.05)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--port", type=int, default=8711)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()

    started = time.monotonic()
    with database(args.postgres) as url:
        env = environment(url)
        prepare_database(env)
        server = Server(env, free_port(args.port), workers=2)
        server.start()
        journey = Journey(f"http://127.0.0.1:{server.port}", args)
        try:
            journey.run()
        except BaseException:
            print("chaos: the journey stopped; its last steps:", *journey.events[-12:], sep="\n  ")
            print("  outbox:", journey.page.evaluate("localStorage.getItem('pinochle:outbox')"))
            raise
        finally:
            server.stop()
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        setup_django(env)
        intended, stored, wrong, lost, duplicated = compare(journey.games)
    t = journey.tally
    print(
        f"chaos setup: {len(journey.games)} games, latency 0-{max(t.latencies)} ms, {t.posts} Save requests, "
        f"{t.dropped} answers dropped, {t.offline} offline saves ({t.offline_reloads} reloaded offline), "
        f"{t.double_taps} double taps, {t.reloads} reloads mid-entry, {t.backs} Back presses, "
        f"second phone: {t.deletes} deletes, {t.corrections} corrections; {time.monotonic() - started:.0f} s"
    )
    print(
        f"chaos: {intended} hands intended, {stored} stored, {wrong} wrong, {lost} lost, "
        f"{duplicated} duplicated"
    )
    return 0 if intended == stored and not (wrong or lost or duplicated) else 1


if __name__ == "__main__":
    sys.exit(main())
