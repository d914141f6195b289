"""Taps per hand at the table: a phone (Debian's Chromium, at 390×844 and at 360×740) plays a
fixed set of realistic hands and counts what a person does: taps, typed fields and screens scrolled.

Realistic hands, as they go at a club table: three or four seats meld, one or two items each, and
trump is chosen every hand (quick points too). Kinds: Check Pinochle with melds picked (10 hands),
standard 4 seats with melds picked (10), standard quick meld points per player (10), 4 seats
double deck with melds picked (6), and three corrections of one hand's trick points from the game
page (its history row, Edit, the field, Save). Melds are entered as a person at the table would:
the bidder's seat first, then the other seats, each item with a tap on its count in the grid,
the doubles (below the grid) last. A tap is a click on a control (focusing a number field to type
in it is a tap too; typing in a field the page has put the cursor in is not); a typed field is
one filled by the keyboard; screens scrolled is the distance the page moved, by the person (just
enough to bring the next control fully into view) or by itself, in screen heights, summed over
the hand. The phone's number keypad is modelled: while a number field has the cursor, the bottom
40 % of the screen is covered (TAPS_KEYPAD=0.4; 0 for none), a control must be brought into the
part left, a focused field is brought above the keypad (the page's move), and a distance scrolled
then counts in heights of that part. The trick points are typed where the page puts the cursor:
when choosing trump put it in them, right then, else after the melds. After each Save it also
records how far the page is from showing "Hand N saved", the totals and the next hand's first
control (the aim: 0 screens).

Run: .venv/bin/python bench/taps.py   (a runserver on 127.0.0.1 with a throwaway SQLite file;
stopped by its PID). Prints median and worst per kind and screen size, one line each, as soon as
that kind's game is played, with each aim and whether the worst hand meets it:
"check 390x844: taps median 9 worst 10 (aim ≤ 10: met), screens median 1.0 worst 1.3 (aim ≤ 1.2:
NOT MET) ...". The aims: taps a hand ≤ 10 for Check, ≤ 9 standard with melds, ≤ 7 quick points,
≤ 12 double deck; screens scrolled ≤ 1.2 at 390×844 and ≤ 1.5 at 360×740; 0 screens to see a save.
"""

from __future__ import annotations

import os
import re
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
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.taps_hands import NAMES, NS, SEATS, double, melded, quick  # noqa: E402

PORT = int(os.environ.get("TAPS_PORT", "8311"))
BASE = f"http://127.0.0.1:{PORT}"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
SIZES = [(390, 844), (360, 740)]
TOP_ROOM, BOTTOM_ROOM = 48, 16  # px kept free above and below a control scrolled into view
# The phone's on-screen number keypad: while a number field has the cursor it covers the bottom 40 %
# of the screen (Chromium in Playwright draws no keypad, so the bench keeps the rest as the screen).
KEYPAD = float(os.environ.get("TAPS_KEYPAD", "0.4"))  # TAPS_KEYPAD=0: no keypad (the figures before it)
TYPING = (
    "() => !!document.activeElement"
    " && document.activeElement.matches('input[type=number], input[inputmode=numeric]')"
)


@dataclass
class Count:
    taps: int = 0
    typed: int = 0
    scrolled: float = 0.0
    result_screens: float = 0.0


@dataclass
class Phone:
    page: Page
    height: int
    now: Count = field(default_factory=Count)
    last_y: float = 0.0  # where the page was after the last tap: the page's own moves count too

    def begin(self) -> None:
        self.now = Count()
        self.last_y = self.page.evaluate("window.scrollY")

    def visible(self) -> float:
        """The part of the screen a person sees: all of it, or what the number keypad leaves."""
        return self.height * (1 - KEYPAD) if self.page.evaluate(TYPING) else self.height

    def _reach(self, target: Locator) -> None:
        """Scroll as a person does: just enough to bring the whole control into the part of the
        screen they see (with a little room: a finger-width at the top, where a grid's sticky head
        may sit). A distance scrolled counts in screens of what is seen: with the keypad up, 60 %."""
        seen = self.visible()
        before = self.page.evaluate("window.scrollY")
        box = target.bounding_box()
        if box is None:
            target.scroll_into_view_if_needed()
        elif box["y"] < TOP_ROOM:
            self.page.evaluate("by => window.scrollBy(0, by)", box["y"] - TOP_ROOM)
        elif box["y"] + box["height"] > seen - BOTTOM_ROOM:
            self.page.evaluate("by => window.scrollBy(0, by)", box["y"] + box["height"] - seen + BOTTOM_ROOM)
        after = self.page.evaluate("window.scrollY")
        self.now.scrolled += (abs(before - self.last_y) + abs(after - before)) / seen
        if os.environ.get("TAPS_DEBUG") and after != before:
            print(f"  scrolled {before:.0f} -> {after:.0f} for {target} (seen {seen:.0f})", file=sys.stderr)

    def _above_keypad(self) -> None:
        """A field that gets the cursor (tapped, or put there by the page) is brought above the
        keypad by the phone, as a phone's browser does: the page's own move, counted."""
        if not self.page.evaluate(TYPING):
            return
        seen = self.visible()
        bottom = self.page.evaluate("() => document.activeElement.getBoundingClientRect().bottom")
        if bottom > seen - BOTTOM_ROOM:
            before = self.page.evaluate("window.scrollY")
            self.page.evaluate("by => window.scrollBy(0, by)", bottom - seen + BOTTOM_ROOM)
            self.now.scrolled += abs(self.page.evaluate("window.scrollY") - before) / seen

    def tap(self, target: Locator) -> None:
        self._reach(target)
        target.click()
        self.now.taps += 1
        self._above_keypad()
        self.last_y = self.page.evaluate("window.scrollY")

    def typing_in(self, target: Locator) -> bool:
        return bool(target.evaluate("field => field === document.activeElement"))

    def type(self, target: Locator, value: int) -> None:
        """Type in a number field: a tap to focus it, unless the page has put the cursor there."""
        self._reach(target)
        if not self.typing_in(target):
            target.click()
            self.now.taps += 1
            self._above_keypad()
        target.fill(str(value))
        self.now.typed += 1
        self.last_y = self.page.evaluate("window.scrollY")


def form(page: Page) -> Locator:
    return page.locator("#hand-form")


#: The entry form is the page's scripts' own: the meld grid's counts are buttons (static/js/app.js
#: marks the grid `tallies`, at load or when a save's answer is swapped in), and a new hand's form
#: has its draft restored (static/js/table.js marks it `data-table-ready`). Before that a tap may
#: find no count button, or a value typed may be put back by the draft.
FORM_READY = """() => {
  const form = document.getElementById('hand-form');
  return !!form && !form.querySelector('table.meld-grid:not(.tallies)')
    && (!form.dataset.game || form.dataset.tableReady === '1');
}"""


def ready(page: Page) -> None:
    """Wait as a person looks before tapping: for the page's load (its deferred scripts run) and for
    its scripts to have made the entry form theirs. A page slow to come (a loaded machine) is
    waited for, up to the page's timeout, rather than tapped too early."""
    page.wait_for_load_state("load")
    page.wait_for_function(FORM_READY)


def play_hand(phone: Phone, number: int, hand: dict[str, Any], *, quick: bool) -> Count:
    page = phone.page
    phone.begin()
    f = form(page)
    f.wait_for()
    ready(page)
    if hand.get("passed"):
        phone.tap(f.get_by_text("All four passed"))
    else:
        phone.tap(f.get_by_role("group", name="Bidder").get_by_text(hand["bidder"], exact=True))
        bid_field = f.get_by_role("spinbutton", name="Bid")
        focused = bid_field.evaluate("field => field === document.activeElement")
        if hand["bid"] == hand.get("min_bid", 20) and not focused:
            phone.tap(f.get_by_role("button", name="Raise bid"))  # the first tap gives the minimum
        else:
            phone.type(bid_field, hand["bid"])
        phone.tap(f.get_by_role("group", name="Trump").get_by_text(hand["trump"]))  # every hand
        # A person types where the page puts the cursor: the trick points, when choosing trump
        # put it in the bidders' field (the hand is entered once it is played).
        tricks = f.get_by_role("group", name="Trick points", exact=False)
        side, points = next(iter(hand["tricks"].items()))
        trick_field = tricks.get_by_role("spinbutton", name=side, exact=True)
        tricks_typed = phone.typing_in(trick_field)
        if tricks_typed:
            phone.type(trick_field, points)
        if quick:
            mode = f.get_by_text("Quick points")
            if not f.locator("input[name=meld_mode][value=points]").is_checked():
                phone.tap(mode)
            for seat, points in hand["quick"].items():
                if points:
                    phone.type(
                        f.locator(".meld-quick").get_by_role("spinbutton", name=seat, exact=True), points
                    )
        # The bidder's seat first, then the others; every seat's counts are on the page at once (a
        # tap counts one more), the doubles and more behind one tap for all seats.
        # The doubles and more, below the grid, last.
        melds = hand.get("melds", {})
        order = sorted(melds, key=lambda seat: (seat != hand["bidder"], SEATS.index(seat)))
        picks = [(seat, item, count) for seat in order for item, count in melds[seat].items()]
        for seat, item, count in sorted(picks, key=lambda pick: pick[1].startswith("Double")):
            rare = f.locator("details.rare-melds")
            if item.startswith("Double") and rare.get_attribute("open") is None:
                phone.tap(rare.locator(":scope > summary"))
            button = f.get_by_role("button", name=re.compile("^" + re.escape(f"{item}, {seat}:")))
            for _ in range(count):
                phone.tap(button)
        if not tricks_typed:
            phone.type(trick_field, points)
    phone.tap(f.get_by_role("button", name=f"Save hand {number}"))
    status = page.get_by_role("status").filter(has_text=f"Hand {number} saved.")
    status.wait_for()
    page.wait_for_timeout(50)  # the page's script settles the view after the swap
    # What a save must show without scrolling: "Hand N saved", the totals, the next first control.
    shown = [status, page.locator("#scoreboard .totals"), f.locator("#bidder, .field.passed").first]
    phone.now.result_screens = max(_outside(target, phone.height) for target in shown)
    return phone.now


def correct_tricks(phone: Phone, number: int, side: str, points: int) -> Count:
    """Correct one hand's trick points from the game page: its history row, Edit, the field, Save."""
    page = phone.page
    phone.begin()
    page.wait_for_load_state("load")
    phone.tap(page.locator(f"#hand-{number} summary"))
    phone.tap(page.get_by_role("link", name=f"Edit hand {number}", exact=True))
    page.get_by_role("heading", name=f"Correct hand {number}").wait_for()
    ready(page)
    phone.last_y = page.evaluate("window.scrollY")  # a new page opens at its top
    tricks = form(page).get_by_role("group", name="Trick points", exact=False)
    phone.type(tricks.get_by_role("spinbutton", name=side, exact=True), points)
    phone.tap(page.get_by_role("button", name=f"Save correction of hand {number}"))
    done = page.get_by_text(f"Hand {number} corrected.")
    done.wait_for()
    phone.now.result_screens = _outside(done, phone.height)
    return phone.now


def _outside(target: Locator, height: int) -> float:
    """How many screens the page must scroll to show all of `target` (0: it is in view)."""
    box = target.bounding_box()
    if box is None:
        return 1.0
    if box["y"] < 0:
        return -box["y"] / height
    return max(0.0, box["y"] + box["height"] - height) / height


def start(page: Page, *, seats: str, variant: str | None, deck: str | None, names: dict[str, str]) -> None:
    page.goto(BASE + "/games/new", wait_until="load")
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
    ready(page)


# The aims a hand is held to (docs/benchmarks.md): taps per kind, screens scrolled per screen size
# (a correction has no aim of its own), and no scrolling to see what a save did.
TAPS_AIM = {"check": 10, "standard": 9, "quick": 7, "double": 12}
SCREENS_AIM = {"390x844": 1.2, "360x740": 1.5}
SAVE_SEEN_AIM = 0.0


def line(kind: str, size: str, counts: list[Count]) -> str:
    """One kind's line at one screen size: median and worst, each aim and whether the worst hand
    (as printed, to the digit shown) meets it."""

    def col(values: list[float], digits: int = 1, aim: float | None = None) -> str:
        median = statistics.median(values)
        shown = f"{median:.1f}" if digits == 0 and median != int(median) else f"{median:.{digits}f}"
        text = f"median {shown} worst {max(values):.{digits}f}"
        if aim is None:
            return text
        met = round(max(values), digits) <= aim
        return f"{text} (aim ≤ {aim:g}: {'met' if met else 'NOT MET'})"

    screens_aim = SCREENS_AIM.get(size) if kind in TAPS_AIM else None
    taps = col([c.taps for c in counts], 0, TAPS_AIM.get(kind))
    typed = col([c.typed for c in counts], 0)
    screens = col([c.scrolled for c in counts], 1, screens_aim)
    result = col([c.result_screens for c in counts], 1, SAVE_SEEN_AIM)
    return (
        f"{kind} {size}: taps {taps}, screens {screens} (n={len(counts)}; typed fields {typed};"
        f" screens to see a save {result})"
    )


def report(kind: str, size: str, counts: list[Count]) -> None:
    print(line(kind, size, counts), flush=True)  # now, not once every game is played


def play_game(
    phone: Phone, kind: str, variant: str, deck: str | None, hands: list[dict[str, Any]], *, quick: bool
) -> tuple[list[Count], list[Count]]:
    """One game of `hands` from the new-game page; a standard game's hands 2, 5 and 9 corrected."""
    start(phone.page, seats="4 (two partnerships)", variant=variant, deck=deck, names=NAMES)
    played = [play_hand(phone, n, h, quick=quick) for n, h in enumerate(hands, 1)]
    fixes = [correct_tricks(phone, n, NS, 10 + n) for n in (2, 5, 9)] if kind == "standard" else []
    return played, fixes


def play_every_kind(browser: Any, kinds: list[Any]) -> list[tuple[str, str, list[Count]]]:
    """Each kind's game at each screen size, on a fresh phone closed when the game ends, played or
    failed. A game whose page stops answering the locators (seen now and then on a loaded machine:
    a control not found for 15 s) is played again from its start, and the retry said."""
    results: list[tuple[str, str, list[Count]]] = []
    for width, height in SIZES:
        size = f"{width}x{height}"
        for kind, variant, deck, hands, is_quick in kinds:
            for attempt in range(1, 4):
                context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
                page = context.new_page()
                page.set_default_timeout(15000)
                phone = Phone(page, height)
                try:
                    played, fixes = play_game(phone, kind, variant, deck, hands, quick=is_quick)
                except PlaywrightTimeout as error:
                    print(
                        f"{kind} {size}: attempt {attempt} timed out: {error.message[:200]}", file=sys.stderr
                    )
                    continue
                finally:
                    context.close()
                results.append((kind, size, played))
                report(kind, size, played)
                if fixes:
                    results.append(("correction", size, fixes))
                    report("correction", size, fixes)
                break
            else:
                raise SystemExit(f"{kind} {size}: three attempts timed out")
    return results


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/taps.sqlite3", "DEBUG": "true"}
        python = sys.executable
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
            kinds = [
                ("check", "Check Pinochle", None, [melded(i) for i in range(10)], False),
                ("standard", "Standard", None, [melded(i + 1) for i in range(10)], False),
                ("quick", "Standard", None, [quick(i) for i in range(10)], True),
                ("double", "Standard", "Double", [double(i) for i in range(6)], False),
            ]
            print("taps per hand (median / worst), each kind as its game ends", flush=True)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM)
                try:
                    play_every_kind(browser, kinds)
                finally:
                    browser.close()  # and every phone with it, a game failed or not
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
