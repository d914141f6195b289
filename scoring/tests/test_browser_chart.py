"""The chart at the end of a game, read on a 360 px phone: every label (the axis numbers, the hand
numbers, the target and each side's end) is drawn at least MINIMUM_PX CSS pixels tall, larger
still with Large text, never cut at the chart's edge and never on top of another, in English,
Swedish and Czech. A screenshot of each is kept for a person to look at."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from scoring.models import Game
from scoring.services.hands import record_hand
from tests.browser import SHOTS, sign_in_browser, words
from tests.helpers import check_game, hand_post, quick_hand, save_url, standard_game, table_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("en", "sv", "cs")
#: The smallest label a player over 70 reads at arm's length (the page's small print, .help at
#: 0.9rem of 18 px, is 16 px; no label of the chart may be far under it).
MINIMUM_PX = 14

#: Each label of the page's charts: its text, whether it is a hand's number under the plot, its
#: size as drawn on the screen (the font size in the SVG's units times the SVG's scale on the
#: screen), its box, and its chart's box.
LABELS = """() => Array.from(document.querySelectorAll('figure.chart svg')).flatMap((svg, chart) => {
  const scale = svg.getScreenCTM().a, box = svg.getBoundingClientRect();
  return Array.from(svg.querySelectorAll('text')).map(text => {
    const r = text.getBoundingClientRect();
    return {chart, text: text.textContent, under: text.getAttribute('text-anchor') === 'middle',
            px: parseFloat(getComputedStyle(text).fontSize) * scale,
            box: [r.left, r.top, r.right, r.bottom], svg: [box.left, box.top, box.right, box.bottom]};
  });
})"""


def finished_check_game() -> Game:
    """A Check Pinochle game of five hands or more (E–W set twice), ended by N–S passing 150: the
    points chart with the target, the chips chart ending on the final chips."""
    game = check_game(target=150)
    client = Client()
    client.force_login(table_user())
    set_hand = {
        **{"bidder": "E", "bid": "30", "trump": "diamonds", "meld_E_run": "1", "meld_E_marriage": "1"},
        **{"meld_N_pinochle": "1", "tricks_NS": "20"},
    }
    number = 0
    while not game.finished:
        number += 1
        fields = set_hand if number in (2, 4) else None
        assert client.post(save_url(game), hand_post(number, fields)).status_code == 302
        game.refresh_from_db()
    assert number >= 5
    return game


def labels(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate(LABELS))


def overlapping(found: list[dict[str, Any]]) -> list[tuple[str, str]]:
    pairs = []
    for n, a in enumerate(found):
        for b in found[n + 1 :]:
            (al, at, ar, ab), (bl, bt, br, bb) = a["box"], b["box"]
            if (
                a["chart"] == b["chart"]
                and al < br - 0.5
                and bl < ar - 0.5
                and at < bb - 0.5
                and bt < ab - 0.5
            ):
                pairs.append((a["text"], b["text"]))
    return pairs


def cut_off(found: list[dict[str, Any]]) -> list[str]:
    return [
        label["text"]
        for label in found
        if label["box"][0] < label["svg"][0] - 0.5
        or label["box"][1] < label["svg"][1] - 0.5
        or label["box"][2] > label["svg"][2] + 0.5
        or label["box"][3] > label["svg"][3] + 0.5
    ]


def phone(
    browser: Any, browser_context_args: Any, live_server: Any, language: str, mode: str, *, scale: int = 3
) -> Page:
    """A 360 px phone signed in to the table's account, in `language`, with Large text if `mode`
    is "large"; `scale` device pixels a CSS pixel (1 for the user guide's small files)."""
    viewport = {"width": 360, "height": 740}
    context = browser.new_context(
        **{**browser_context_args, "viewport": viewport, "device_scale_factor": scale}
    )
    cookies = [{"name": "django_language", "value": language, "url": live_server.url}]
    if mode == "large":
        cookies.append({"name": "display", "value": "large", "url": live_server.url})
    context.add_cookies(cookies)
    page: Page = context.new_page()
    sign_in_browser(page, live_server.url, table_user())
    return page


def assert_readable(page: Page, where: str) -> list[dict[str, Any]]:
    found = labels(page)
    too_small = [(label["text"], round(label["px"], 1)) for label in found if label["px"] < MINIMUM_PX]
    assert too_small == [], (where, too_small)
    assert cut_off(found) == [], where
    assert overlapping(found) == [], where
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), where
    return found


def test_the_end_charts_labels_are_big_whole_and_apart_at_360_in_every_language(
    live_server: Any, browser: Any, browser_context_args: Any
) -> None:
    game = finished_check_game()
    SHOTS.mkdir(parents=True, exist_ok=True)
    smallest: dict[tuple[str, str], float] = {}
    for mode in ("normal", "large"):
        for language in LANGUAGES:
            page = phone(browser, browser_context_args, live_server, language, mode)
            page.goto(f"{live_server.url}/g/{game.code}/")
            charts = page.locator("#game-over figure.chart")
            expect(charts.first.locator("figcaption")).to_have_text(words(language, "Points after each hand"))
            assert charts.count() == 2  # the points (with the target) and the chips
            charts.last.scroll_into_view_if_needed()
            page.locator("#game-over .chart-box").screenshot(
                path=str(SHOTS / f"end-chart-{language}-{mode}-360.png")
            )
            found = assert_readable(page, f"{language}, {mode}")
            assert any(label["text"] == words(language, "final") for label in found), language
            smallest[mode, language] = min(label["px"] for label in found)
            page.context.close()
    for language in LANGUAGES:  # Large text makes the chart's words larger too
        assert smallest["large", language] > smallest["normal", language], smallest
    # For docs/screenshots/ (copied by hand): the whole end of the game, one CSS pixel a pixel.
    page = phone(browser, browser_context_args, live_server, "en", "normal", scale=1)
    page.goto(f"{live_server.url}/g/{game.code}/")
    (SHOTS / "docs").mkdir(exist_ok=True)
    page.locator("#game-over").screenshot(path=str(SHOTS / "docs" / "table-end-chart-en-360.png"))
    page.context.close()


def test_a_long_games_hand_numbers_stand_apart_under_its_chart(
    live_server: Any, browser: Any, browser_context_args: Any
) -> None:
    """Twenty-four hands in play: the chart under the history numbers every so many hands, as many
    as fit side by side, evenly, the last hand always numbered, with Large text too."""
    game = standard_game(target=500)
    for number in range(1, 25):
        record_hand(
            game=game, number=number, data=quick_hand(ns_meld=10 * (number % 4), ns_tricks=number % 26)
        )
    for mode in ("normal", "large"):
        page = phone(browser, browser_context_args, live_server, "cs", mode)
        page.goto(f"{live_server.url}/g/{game.code}/")
        expect(page.locator("figure.chart figcaption")).to_have_text(words("cs", "Points after each hand"))
        found = assert_readable(page, mode)
        hands = [int(label["text"]) for label in found if label["under"]]
        step = hands[-1] - hands[-2]  # every so many hands, counted back from the last
        assert 2 <= len(hands) < 24 and hands == sorted(range(24, 0, -step)), hands
        page.locator("figure.chart").screenshot(path=str(SHOTS / f"long-game-chart-cs-{mode}-360.png"))
        page.context.close()
