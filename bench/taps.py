"""Taps per hand at the table: a phone (Debian's Chromium, 390×844) plays a fixed set
of realistic hands and counts what a person does: taps, typed fields and screens scrolled.

Kinds: Check Pinochle with melds picked (10 hands), standard 4 seats with melds picked (10),
standard quick meld points per player (10), 4 seats double deck with melds picked (5), and three
corrections of one hand's trick points from the game page (its history row, Edit, the field,
Save). Melds are entered as a person at the table would: the bidder's seat first (choosing the
bidder opens it), then the other seats down the page. A tap is a click on a
control (focusing a number field to type in it is a tap too); a typed field is one filled by the
keyboard; screens scrolled is the distance the page had to move to bring the next control into
view, in screen heights (844 px), summed over the hand. After each Save it also records how far
the page is from showing "Hand N saved", the totals and the next hand's first control (the aim:
0 screens).

Run: .venv/bin/python bench/taps.py   (a runserver on 127.0.0.1 with a throwaway SQLite file;
stopped by its PID). Prints median and worst per kind.
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
PORT = int(os.environ.get("TAPS_PORT", "8311"))
BASE = f"http://127.0.0.1:{PORT}"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
W, H = 390, 844


@dataclass
class Count:
    taps: int = 0
    typed: int = 0
    scrolled: float = 0.0
    result_screens: float = 0.0


@dataclass
class Phone:
    page: Page
    now: Count = field(default_factory=Count)

    def _reach(self, target: Locator) -> None:
        before = self.page.evaluate("window.scrollY")
        target.scroll_into_view_if_needed()
        after = self.page.evaluate("window.scrollY")
        self.now.scrolled += abs(after - before) / H
        if os.environ.get("TAPS_DEBUG") and after != before:
            print(f"  scrolled {before:.0f} -> {after:.0f} for {target}", file=sys.stderr)

    def tap(self, target: Locator) -> None:
        self._reach(target)
        target.click()
        self.now.taps += 1

    def type(self, target: Locator, value: int) -> None:
        self._reach(target)
        target.click()
        target.fill(str(value))
        self.now.taps += 1
        self.now.typed += 1


def form(page: Page) -> Locator:
    return page.locator("#hand-form")


def play_hand(phone: Phone, number: int, hand: dict[str, Any], *, quick: bool) -> Count:
    page = phone.page
    phone.now = Count()
    f = form(page)
    f.wait_for()
    page.wait_for_load_state("load")  # a person looks before tapping; the page's script is running
    if hand.get("passed"):
        phone.tap(f.get_by_text("All four passed"))
    else:
        phone.tap(f.get_by_role("group", name="Bidder").get_by_text(hand["bidder"], exact=True))
        bid_field = f.get_by_role("spinbutton", name="Bid")
        if hand["bid"] == hand.get("min_bid", 20):
            phone.tap(f.get_by_role("button", name="Raise bid"))  # the first tap gives the minimum
        else:
            phone.type(bid_field, hand["bid"])
        if not quick:  # quick points need no trump (optional: no meld check), as on the paper pad
            phone.tap(f.get_by_role("group", name="Trump").get_by_text(hand["trump"]))
        if quick:
            mode = f.get_by_text("Quick points")
            if not f.locator("input[name=meld_mode][value=points]").is_checked():
                phone.tap(mode)
            for seat, points in hand["quick"].items():
                if points:
                    phone.type(
                        f.locator(".meld-quick").get_by_role("spinbutton", name=seat, exact=True), points
                    )
        # The bidder's seat first (choosing the bidder opens it), then the others down the page.
        melds = hand.get("melds", {})
        order = sorted(melds, key=lambda seat: (seat != hand["bidder"], SEATS.index(seat)))
        for seat, items in ((seat, melds[seat]) for seat in order):
            details = f.locator("details.seat-melds").filter(has=page.locator("summary", has_text=seat))
            if details.get_attribute("open") is None:
                phone.tap(details.locator("summary").first)
            for item, count in items.items():
                rare = details.locator("details.rare-melds")
                if item.startswith("Double") and rare.get_attribute("open") is None:
                    phone.tap(rare.locator(":scope > summary"))
                for _ in range(count):
                    phone.tap(details.get_by_role("button", name=f"One more: {item}", exact=True))
        tricks = f.get_by_role("group", name="Trick points", exact=False)
        side, points = next(iter(hand["tricks"].items()))
        phone.type(tricks.get_by_role("spinbutton", name=side, exact=True), points)
    phone.tap(f.get_by_role("button", name=f"Save hand {number}"))
    status = page.get_by_role("status").filter(has_text=f"Hand {number} saved.")
    status.wait_for()
    page.wait_for_timeout(50)  # the page's script settles the view after the swap
    # What a save must show without scrolling: "Hand N saved", the totals, the next first control.
    shown = [status, page.locator("#scoreboard .totals"), f.locator("#bidder, .field.passed").first]
    phone.now.result_screens = max(_outside(target) for target in shown)
    return phone.now


def correct_tricks(phone: Phone, number: int, side: str, points: int) -> Count:
    """Correct one hand's trick points from the game page: its history row, Edit, the field, Save."""
    page = phone.page
    phone.now = Count()
    page.wait_for_load_state("load")
    phone.tap(page.locator(f"#hand-{number} summary"))
    phone.tap(page.get_by_role("link", name=f"Edit hand {number}", exact=True))
    page.get_by_role("heading", name=f"Correct hand {number}").wait_for()
    page.wait_for_load_state("load")
    tricks = form(page).get_by_role("group", name="Trick points", exact=False)
    phone.type(tricks.get_by_role("spinbutton", name=side, exact=True), points)
    phone.tap(page.get_by_role("button", name=f"Save correction of hand {number}"))
    done = page.get_by_text(f"Hand {number} corrected.")
    done.wait_for()
    phone.now.result_screens = _outside(done)
    return phone.now


def _outside(target: Locator) -> float:
    """How many screens the page must scroll to show all of `target` (0: it is in view)."""
    box = target.bounding_box()
    if box is None:
        return 1.0
    if box["y"] < 0:
        return -box["y"] / H
    return max(0.0, box["y"] + box["height"] - H) / H


def start(page: Page, *, seats: str, variant: str | None, deck: str | None, names: dict[str, str]) -> None:
    page.goto(BASE + "/games/new")
    page.get_by_role("group", name="Seats at the table").get_by_text(seats, exact=True).click()
    if variant:
        page.get_by_role("group", name="Game").get_by_text(variant, exact=True).click()
    if deck:
        page.locator("label", has_text=deck).first.click()
    for seat, name in names.items():
        page.get_by_role("textbox", name=seat).fill(name)
    page.get_by_label("Play to").fill("1000")
    page.get_by_role("button", name="Start the game").click()
    form(page).wait_for()


NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
A, B, C, D = "North (Anna)", "East (Bo)", "South (Cecilia)", "West (David)"
SEATS = [A, B, C, D]
NS, EW = "N–S (Anna & Cecilia)", "E–W (Bo & David)"
SUITS = ["♥ Hearts", "♠ Spades", "♦ Diamonds", "♣ Clubs"]
RUN, TM, MAR, PIN, ACES, KINGS = (
    "Run (A 10 K Q J of trump)",
    "Trump marriage (K Q of trump)",
    "Marriage (K Q, other suit)",
    "Pinochle (Q♠ J♦)",
    "Aces around",
    "Kings around",
)


def melded(i: int) -> dict[str, Any]:
    """A realistic hand with 2–3 seats showing 1–3 items (deterministic by i)."""
    seats = [A, B, C, D]
    bidder = seats[i % 4]
    partner = seats[(i + 2) % 4]
    opp = seats[(i + 1) % 4]
    melds = {bidder: {TM: 1, MAR: i % 2}, partner: {PIN: 1}, opp: {ACES: 1} if i % 3 else {MAR: 1}}
    if i % 4 == 0:
        melds[bidder] = {RUN: 1}
    melds = {seat: {k: v for k, v in items.items() if v} for seat, items in melds.items()}
    bidders = NS if bidder in (A, C) else EW
    return {
        "bidder": bidder,
        "bid": 20 + (i * 3) % 8,
        "trump": SUITS[i % 4],
        "melds": melds,
        "tricks": {bidders: 14 + i % 6},
    }


def quick(i: int) -> dict[str, Any]:
    """Quick points per player, as each announces them: the bidder and partner meld, one or both
    opponents too (a player with nothing to show is left blank)."""
    seats = [A, B, C, D]
    bidder, opp, partner, opp2 = (seats[(i + k) % 4] for k in range(4))
    bidders = NS if bidder in (A, C) else EW
    points = {bidder: 8 + i % 10, partner: 4 + i % 5, opp: 4 + i % 3, opp2: 6 if i % 3 == 0 else 0}
    return {
        "bidder": bidder,
        "bid": 20 + (i * 3) % 8,
        "trump": SUITS[i % 4],
        "quick": points,
        "tricks": {bidders: 14 + i % 6},
    }


def double(i: int) -> dict[str, Any]:
    seats = [A, B, C, D]
    bidder = seats[i % 4]
    partner = seats[(i + 2) % 4]
    opp = seats[(i + 1) % 4]
    bidders = NS if bidder in (A, C) else EW
    melds = {
        bidder: {RUN: 1, TM: 1},
        partner: {PIN: 1, KINGS: 1},
        opp: {"Double aces": 1} if i == 2 else {ACES: 1},
    }
    return {
        "bidder": bidder,
        "bid": 50 + 5 * (i % 3),
        "min_bid": 50,
        "trump": SUITS[i % 4],
        "melds": melds,
        "tricks": {bidders: 30 + 2 * i},
    }


def report(kind: str, counts: list[Count]) -> None:
    def col(values: list[float]) -> str:
        return f"{statistics.median(values):5.1f} / {max(values):5.1f}"

    taps, typed = col([c.taps for c in counts]), col([c.typed for c in counts])
    screens, result = col([c.scrolled for c in counts]), col([c.result_screens for c in counts])
    print(f"{kind:34} n={len(counts):2} taps {taps} typed {typed} screens {screens} to see a save {result}")


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/taps.sqlite3", "DEBUG": "true"}
        python = str(ROOT / ".venv" / "bin" / "python")
        subprocess.run([python, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
        server = subprocess.Popen(
            [python, "manage.py", "runserver", "--noreload", f"127.0.0.1:{PORT}"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(BASE + "/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.2)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM)
                context = browser.new_context(viewport={"width": W, "height": H}, has_touch=True)
                page = context.new_page()
                page.set_default_timeout(15000)
                phone = Phone(page)
                results: dict[str, list[Count]] = {}
                plan = [
                    (
                        "Check Pinochle, melds picked",
                        "Check Pinochle",
                        None,
                        [melded(i) for i in range(10)],
                        False,
                    ),
                    (
                        "standard 4 seats, melds picked",
                        "Standard",
                        None,
                        [melded(i + 1) for i in range(10)],
                        False,
                    ),
                    ("standard 4 seats, quick meld", "Standard", None, [quick(i) for i in range(10)], True),
                    (
                        "4 seats double deck, melds picked",
                        "Standard",
                        "Double",
                        [double(i) for i in range(5)],
                        False,
                    ),
                ]
                for kind, variant, deck, hands, is_quick in plan:
                    start(page, seats="4 (two partnerships)", variant=variant, deck=deck, names=NAMES)
                    results[kind] = [
                        play_hand(phone, n, hand, quick=is_quick) for n, hand in enumerate(hands, 1)
                    ]
                    if kind.startswith("standard 4 seats, melds"):  # then correct some of its hands
                        results["correction of one hand's tricks"] = [
                            correct_tricks(phone, n, NS, 10 + n) for n in (2, 5, 9)
                        ]
                browser.close()
            print(f"taps per hand at {W}×{H} (median / worst)")
            for kind, counts in results.items():
                report(kind, counts)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
