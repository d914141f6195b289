"""Driving the scorekeeper in a phone's browser the way a person does: by labels and roles."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypedDict, Unpack

from django.utils import translation
from playwright.sync_api import Locator, Page, expect

SHOTS = Path(__file__).resolve().parent.parent / "test-output" / "screenshots"


#: Each language's own name on the language switcher (settings.LANGUAGES), never translated.
LANGUAGE_BUTTON = {"en": "English", "sv": "Svenska", "cs": "Čeština"}


def words(language: str, msgid: str, *, same: bool = False, **values: Any) -> str:
    """The page's words in `language`: the msgstr of locale/<language>/LC_MESSAGES/django.po
    (never an English fallback for Swedish or Czech, unless `same`: a word every language spells
    alike, as "OK")."""
    with translation.override(language):
        text = translation.gettext(msgid)
    assert language == "en" or same or text != msgid, f"{msgid!r} has no {language} translation"
    return text % values if values else text


def speak(page: Page, language: str) -> None:
    """The player taps their language on the switcher; the same page comes back in it."""
    if language != "en":
        page.get_by_role("button", name=LANGUAGE_BUTTON[language]).click()
        expect(page.locator("html")).to_have_attribute("lang", language)
    page.wait_for_load_state("load")


@contextmanager
def server_wrapped(live_server: Any, middle: Callable[[Any, dict[str, Any], Any], Any]) -> Iterator[None]:
    """While inside, every request to the live server goes through
    `middle(app, environ, start_response)`, which may answer itself or call `app` (slow, refusing)."""
    httpd = live_server.thread.httpd
    app = httpd.get_app()
    httpd.set_app(lambda environ, start_response: middle(app, environ, start_response))
    try:
        yield
    finally:
        httpd.set_app(app)


@contextmanager
def saves_answered(live_server: Any, status: str) -> Iterator[None]:
    """While inside, the server answers every save of a hand with `status` (e.g. "503 Service
    Unavailable") and writes nothing. Done at the server, not with Playwright's routes: a route does
    not see a request from a page the service worker controls, and whether the worker has taken the
    page over yet is a matter of timing."""

    def refusing(app: Any, environ: dict[str, Any], start_response: Any) -> Any:
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/hands"):
            start_response(status, [("Content-Type", "text/plain")])
            return [b""]
        return app(environ, start_response)

    with server_wrapped(live_server, refusing):
        yield


def shoot(page: Page, name: str, *, full_page: bool = False, element: Locator | None = None) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    if element is not None:
        element.screenshot(path=str(SHOTS / f"{name}.png"))
    else:
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def assert_fits_the_phone(page: Page) -> None:
    """No horizontal scroll (no element sticking out, the page no wider than the screen), and every
    visible control is at least 44 px tall."""
    viewport = page.viewport_size
    assert viewport is not None
    width = viewport["width"]
    # A phone browser widens its layout to fit what sticks out, so look at every element.
    wide = page.evaluate(
        """(width) => Array.from(document.querySelectorAll('body *'))
             .filter(el => el.getBoundingClientRect().right > width + 0.5)
             .map(el => el.outerHTML.slice(0, 80))""",
        width,
    )
    assert not wide, f"sticking out of a {width}px screen: {wide[:5]}"
    # Text running out of its box (a heading wider than its table column) widens the page too,
    # though no element's box does: the page itself must not scroll sideways, not even by 1 px.
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"the page is {scroll_width}px wide on a {width}px screen"
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll('button:not([aria-hidden=true]), .chip, a.button, '
          + 'input[type=number], input[type=text], summary, .toggle'))
             .filter(el => el.offsetParent !== null)
             .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect().height])
             .filter(([html, height]) => height < 44)"""
    )
    assert not small, f"tap targets under 44 px: {small}"


#: The partnerships' labels ("N–S", "V–Z": a letter, an en dash, a letter) in the element's text
#: whose glyphs are drawn on more than one line.
SPLIT_LABELS = """(el) => {
  const split = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\p{L}\u2013\\p{L}/gu)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
      if (tops.size > 1) split.push(node.parentElement.textContent);
    }
  }
  return split;
}"""


def split_side_labels(element: Locator) -> list[str]:
    """The lines of `element` (each element's text) in which a partnership's label is broken
    across two lines ("V–" at the end of one, "Z" at the start of the next)."""
    return list(element.evaluate(SPLIT_LABELS))


def start_game(
    page: Page,
    url: str,
    *,
    seats: str,
    names: dict[str, str],
    variant: str | None = None,
    target: int | None = None,
    shot: str | None = None,
) -> None:
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(url + "/")
    page.get_by_role("main").get_by_role("link", name="New game").click()
    page.get_by_role("group", name="Seats at the table").get_by_text(seats, exact=True).click()
    if variant:
        page.get_by_role("group", name="Game").get_by_text(variant, exact=True).click()
    for seat, name in names.items():
        page.get_by_role("textbox", name=seat).fill(name)
    if target is not None:
        page.get_by_label("Play to").fill(str(target))
    assert_fits_the_phone(page)
    if shot:
        shoot(page, shot, full_page=True)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Enter hand 1")).to_be_visible()


def entry(page: Page) -> Locator:
    return page.locator("#hand-form")


class HandEntry(TypedDict, total=False):
    """What `fill_hand` types in, for a helper that passes it on."""

    bidder: str | None
    bid: int | None
    trump: str | None
    melds: dict[str, dict[str, int]] | None
    quick: dict[str, int] | None
    tricks: dict[str, int] | None
    slam: str | None
    passed: bool
    conceded: bool


def fill_hand(
    page: Page,
    *,
    bidder: str | None = None,
    bid: int | None = None,
    trump: str | None = None,
    melds: dict[str, dict[str, int]] | None = None,
    quick: dict[str, int] | None = None,
    tricks: dict[str, int] | None = None,
    slam: str | None = None,
    passed: bool = False,
    conceded: bool = False,
) -> None:
    # A person reads the page before typing; a test must not type before the page's script runs
    # (it fills in the other side's trick points), or a just-opened form gets half its help.
    page.wait_for_load_state("load")
    form = entry(page)
    if passed:
        form.get_by_text("All four passed").click()
        return
    if bidder:
        form.get_by_role("group", name="Bidder").get_by_text(bidder, exact=True).click()
    if bid is not None:
        form.get_by_role("spinbutton", name="Bid").fill(str(bid))
    if trump:
        form.get_by_role("group", name="Trump").get_by_text(trump).click()
    if quick:
        form.get_by_text("Quick points").click()
        for side, points in quick.items():
            form.locator(".meld-quick").get_by_role("spinbutton", name=side, exact=True).fill(str(points))
    quick_mode = form.locator("input[name=meld_mode][value=points]")
    if melds and quick_mode.count() and quick_mode.is_checked():
        form.get_by_text("Pick melds").click()  # the last mode used in this game is remembered
    fold = form.locator("details.meld-fold")
    if melds and fold.count() and fold.get_attribute("open") is None:
        fold.locator(":scope > summary").click()  # a correction shows each seat's sum: a tap opens the grid
    for seat, items in (melds or {}).items():
        for item, count in items.items():
            rare = form.locator("details.rare-melds")
            if item.startswith(("Double", "Triple", "Quadruple")) and rare.get_attribute("open") is None:
                rare.locator(":scope > summary").click()  # doubles and more are one tap away
            higher = rare.locator("details.higher-melds")
            if item.startswith(("Triple", "Quadruple")) and higher.get_attribute("open") is None:
                higher.locator(":scope > summary").click()  # and triples, quadruples one more
            # Every seat's counts are on the page at once: a tap on the item's count in the seat's
            # column counts one more (its name says the count).
            count_button = meld_count(form, item, seat)
            for _ in range(count):
                before = int((count_button.get_attribute("aria-label") or ": 0").rsplit(": ", 1)[1])
                count_button.click()
                expect(count_button).to_have_accessible_name(f"{item}, {seat}: {before + 1}")
    tricks_box = form.get_by_role("group", name=re.compile(r"^Trick points"))
    extras = tricks_box.locator("details.trick-extras")
    if (conceded or slam) and extras.get_attribute("open") is None:
        extras.locator(":scope > summary").click()  # the rare endings are one tap away
    if conceded:
        form.get_by_text("Bidders concede (no play)").click()
    if slam:
        tricks_box.get_by_role("group", name="Took every trick").get_by_text(slam, exact=True).click()
    for side, points in (tricks or {}).items():
        tricks_box.get_by_role("spinbutton", name=side, exact=True).fill(str(points))


def fill_hand_in_any_language(page: Page, *, bid: int = 24, tricks: int | None = 15) -> None:
    """A four-seat hand by the fields' names, the same in every language: South bids `bid` in
    Hearts, N 20 and E 10 meld (quick points), N–S take `tricks` (None: the trick points are left
    empty)."""
    page.wait_for_load_state("load")
    form = entry(page)
    form.locator("label", has=page.locator("input[name=bidder][value=S]")).click()
    form.locator("input[name=bid]").fill(str(bid))
    form.locator("label", has=page.locator("input[name=trump][value=hearts]")).click()
    form.locator("label", has=page.locator("input[name=meld_mode][value=points]")).click()
    form.locator("input[name=meld_points_N]").fill("20")
    form.locator("input[name=meld_points_E]").fill("10")
    if tricks is not None:
        form.locator("input[name=tricks_NS]").fill(str(tricks))


def meld_count(form: Locator, item: str, seat: str) -> Locator:
    """The meld grid's count of `item` in `seat`'s column (a button with the page's script)."""
    return form.get_by_role("button", name=re.compile("^" + re.escape(f"{item}, {seat}: ") + r"\d+$"))


def save_hand(page: Page, number: int, preview: str | None = None) -> None:
    if preview:
        expect(page.locator("#preview")).to_contain_text(preview)
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.get_by_role("status").filter(has_text=f"Hand {number} saved.")).to_be_visible()


def open_hand(page: Page, number: int) -> None:
    """Open hand `number`'s row in the compact history (a <details>): its details and Edit."""
    details = page.locator(f"#hand-{number} details")
    if details.get_attribute("open") is None:
        details.locator(":scope > summary").click()


def correct_hand(page: Page, number: int, **changes: Unpack[HandEntry]) -> None:
    open_hand(page, number)
    page.get_by_role("link", name=f"Edit hand {number}", exact=True).click()
    expect(page.get_by_role("heading", name=f"Correct hand {number}")).to_be_visible()
    fill_hand(page, **changes)
    page.get_by_role("button", name=f"Save correction of hand {number}").click()
    expect(page.get_by_text(f"Hand {number} corrected.")).to_be_visible()


def award_row(page: Page, label: str) -> list[int]:
    row = page.get_by_role("table", name="Chip awards").get_by_role("row").filter(has_text=label)
    return [int(cell) for cell in row.get_by_role("cell").all_inner_texts()]


def sign_in_browser(page, live_server_url: str, user) -> None:
    """Give a Playwright page the session of `user`, as if they had logged in on that phone."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server_url}]
    )
