"""The table page at 360 px and with big text, in English, Swedish and Czech: the game line and the
points to go break between phrases, never inside one, and no line starts or ends with a dot; the
meld grid's item names and seats break between words (or the seats are abbreviated by design, with a
key), its header never covers a count, and nothing scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.tests.test_browser_readable import check_game_with_every_ending, speak
from tests import browser
from tests.browser import shoot, sign_in_browser, split_side_labels, start_game, words
from tests.helpers import table_user
from tests.readable_helpers import scrolls_sideways

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The lines of text a reader sees in the element, word by word as drawn (a word out of sight, in a
#: clipped margin, is not seen), joined with single spaces.
LINES = """(el) => {
  const box = el.getBoundingClientRect();
  const words = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rect = range.getBoundingClientRect();
      if (rect.width === 0 || rect.right <= box.left + 0.5 || rect.left >= box.right - 0.5) continue;
      words.push({ text: match[0], top: rect.top, bottom: rect.bottom, left: rect.left });
    }
  }
  const lines = [];
  words.forEach((word) => {
    const line = lines.find((l) => word.top < l.bottom - 2 && word.bottom > l.top + 2);
    if (line) line.words.push(word);
    else lines.push({ top: word.top, bottom: word.bottom, words: [word] });
  });
  return lines.sort((a, b) => a.top - b.top)
    .map((l) => l.words.sort((a, b) => a.left - b.left).map((w) => w.text).join(" "));
}"""

PHRASES = {
    "en": (["Check Pinochle", "to 1000 · min bid 20", "Settings", "Table view"], ["894 to go", "1043 to go"]),
    "sv": (
        ["Check Pinochle", "till 1000 · lägsta bud 20", "Inställningar", "Bordsvy"],
        ["894 kvar", "1043 kvar"],
    ),
    "cs": (
        ["Pinochle se žetony", "do 1000 · nejnižší nabídka 20", "Nastavení", "Pohled na stůl"],
        ["chybí 894", "chybí 1043"],
    ),
}


def lines(page: Page, selector: str) -> list[str]:
    return list(page.locator(selector).evaluate(LINES))


def assert_phrases_whole(shown: list[str], phrases: list[str]) -> None:
    for line in shown:
        assert not line.startswith("·") and not line.endswith("·"), shown
    for phrase in phrases:
        assert any(phrase in line for line in shown), (phrase, shown)


@pytest.mark.parametrize("language", ["en", "sv", "cs"])
def test_the_game_line_and_the_points_to_go_break_between_phrases(
    live_server: Any, page: Page, language: str
):
    game = check_game_with_every_ending()  # N–S lead
    sign_in_browser(page, live_server.url, table_user())
    page.set_viewport_size({"width": 360, "height": 740})
    speak(page, live_server.url, language)
    page.goto(f"{live_server.url}/g/{game.code}/")
    facts, to_go = PHRASES[language]
    assert_phrases_whole(lines(page, ".game-line"), facts)
    leader = lines(page, "[data-testid=to-go-NS]")
    assert_phrases_whole(leader, to_go[:1])
    assert_phrases_whole(lines(page, "[data-testid=to-go-EW]"), to_go[1:])
    assert not scrolls_sideways(page)


#: Words of the elements under `selector` that are broken across lines (drawn in more than one piece).
BROKEN_WORDS = """(selector) => Array.from(document.querySelectorAll(selector)).flatMap((el) => {
  const broken = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      if (range.getClientRects().length > 1) broken.push(match[0]);
    }
  }
  return broken;
})"""

#: The (first) grid's count buttons in sight below its header that something else covers.
COVERED = """() => {
  const grid = document.querySelector("table.meld-grid");
  const head = grid.querySelector("thead").getBoundingClientRect();
  return Array.from(grid.querySelectorAll("button.tally")).filter((button) => {
    const box = button.getBoundingClientRect();
    if (box.top < head.bottom || box.bottom > innerHeight || box.height === 0) return false;
    const seen = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return !button.contains(seen);
  }).map((button) => button.getAttribute("aria-label"));
}"""

#: Seat heads and the seats' key whose text is cut (wider than their box), and text that sticks out
#: of the grid's header cells.
SEATS_CUT = """() => Array.from(document.querySelectorAll(
    "table.meld-grid thead th, table.meld-grid thead th *, table.meld-grid thead td, .seat-key, .seat-key *"))
  .filter((el) => el.offsetParent !== null && el.clientWidth > 0
    && (el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5))
  .map((el) => [el.className, el.textContent.trim(), el.scrollWidth, el.clientWidth,
    el.scrollHeight, el.clientHeight])"""


@pytest.mark.parametrize("language", ["en", "sv", "cs"])
@pytest.mark.parametrize("size", ["zoomed 150 %", "Large text"])
def test_the_meld_grid_takes_big_text(live_server: Any, page: Page, language: str, size: str):
    """With Large text, and with the phone's text zoomed to 150 % (a phone's browser zooms the page:
    a 360 px screen is then 240 CSS px wide), the grid gives each item's name a line of its own."""
    game = check_game_with_every_ending()
    sign_in_browser(page, live_server.url, table_user())
    page.set_viewport_size({"width": 360, "height": 740})
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(f"{live_server.url}/g/{game.code}/")
    if size == "Large text":
        page.get_by_role("contentinfo").get_by_role("button", name="Large text").click()
        page.wait_for_url(f"{live_server.url}/g/{game.code}/")
    speak(page, live_server.url, language)
    page.goto(f"{live_server.url}/g/{game.code}/")
    if size == "zoomed 150 %":
        page.set_viewport_size({"width": 240, "height": 493})
    grid = page.locator("table.meld-grid").first
    assert page.locator("table.meld-grid tbody th").first.is_visible()
    assert page.evaluate(BROKEN_WORDS, "table.meld-grid th, .seat-key") == []
    assert page.evaluate(SEATS_CUT) == []
    # Half-way down the grid, its header in sight at the top: every count below it can be tapped.
    grid.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + scrollY + el.offsetHeight / 2)")
    assert page.evaluate(COVERED) == []
    assert not scrolls_sideways(page)
    shoot(page, f"meld-grid-{'zoom-150' if size == 'zoomed 150 %' else 'large-text'}-{language}")


@pytest.mark.browser_context_args(service_workers="block")
@pytest.mark.parametrize("language", ["en", "sv", "cs"])
def test_the_preview_never_breaks_a_partnerships_label(live_server: Any, page: Page, language: str):
    """At 360 px the Czech "Stav po rozdání: S–J 35 · V–Z 20" wraps just where a browser may
    break after the en dash of "V–Z": the line breaks before the label, never inside it."""
    names = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
    start_game(page, live_server.url, seats="4 (two partnerships)", names=names)
    browser.speak(page, language)
    browser.fill_hand_in_any_language(page)  # South bids 24 in hearts, N 20 and E 10 meld, N–S take 15
    totals = words(language, "Totals after: %(totals)s", totals="")
    line = page.locator("#preview .preview-lines li").filter(has_text=totals)
    expect(line).to_be_visible()
    assert split_side_labels(page.locator("#preview")) == []
    assert not scrolls_sideways(page)
