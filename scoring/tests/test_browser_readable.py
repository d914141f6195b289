"""Readable across the card table: nothing in the history is cut, in English, Swedish and Czech at
360 px; the points to go and the chips are big; every control is a 44 x 44 px target; the page
takes 200 % text without sideways scrolling; high contrast when the phone asks for it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from scoring.models import Game
from scoring.services.hands import record_hand
from tests.browser import SHOTS, shoot, sign_in_browser
from tests.helpers import check_game, hand_post, quick_hand, save_url, standard_game, table_user
from tests.readable_helpers import (
    broken_words,
    cut,
    font_px,
    lone_words,
    low_contrast,
    outside,
    past_the_edge,
    scrolls_sideways,
    shrunk_needlessly,
    sides_out_of_order,
    small_controls,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("en", "sv", "cs")
#: Everything of the history and the scoreboard that could be cut, and the entry form's suit chips.
MEASURED = "#history *, .totals *, .suits .chip, .suits .chip *, #game-end *"


def check_game_with_every_ending() -> Game:
    """Check Pinochle: a made hand, a set, a slam, a concession and a pass (hands 1 to 5)."""
    game = check_game(target=1000)
    client = Client()
    client.force_login(table_user())

    def bid(seat: str, **more: str) -> dict[str, str]:
        other = "N" if seat != "N" else "E"
        fields = {"bidder": seat, "bid": "27", "trump": "diamonds", f"meld_{seat}_run": "1"}
        return {
            **fields,
            f"meld_{seat}_marriage": "1",
            f"meld_{other}_pinochle": "1",
            "tricks_NS": "15",
            **more,
        }

    hands = [
        bid("S"),
        bid("E", tricks_NS="20", bid="30"),
        bid("N", tricks_NS="", slam="NS"),
        bid("W", conceded="on"),
        {"passed": "on"},
    ]
    for number, fields in enumerate(hands, start=1):
        response = client.post(save_url(game), hand_post(number, fields))
        assert response.status_code == 302
    return game


def double_deck_game(seats: int) -> Game:
    """A double-deck game with a set and a concession (at four seats Check Pinochle was chosen: with a
    double deck it is played without chips)."""
    if seats == 4:
        game = check_game(deck="double", target=5000)
    else:
        game = standard_game(seats=seats, deck="double", target=5000)
    sides = ["N", "E", "S"] if seats == 3 else ["NS", "EW"]
    tricks = {side: 50 if side == sides[0] else 0 for side in sides}
    hands: list[dict[str, Any]] = [
        {
            "bidder": "E",
            "bid": 120,
            "trump": "diamonds",
            "meld_points": dict.fromkeys(sides, 20),
            "tricks": tricks,
        },
        {
            "bidder": "S",
            "bid": 110,
            "trump": "clubs",
            "meld_points": dict.fromkeys(sides, 20),
            "conceded": True,
        },
    ]
    for number, data in enumerate(hands, start=1):
        record_hand(game=game, number=number, data=data)
    return game


def long_figures_game(seats: int) -> Game:
    """A double-deck game played to 25000 with the longest totals a long evening of big bids can
    leave: one side -12345 (two conceded bids), another 12345; at three seats the third -1235."""
    game = standard_game(seats=seats, deck="double", target=25000)
    sides = {2: ["N", "E"], 3: ["N", "E", "S"], 4: ["NS", "EW"]}[seats]
    nothing = dict.fromkeys(sides, 0)
    hands: list[dict[str, Any]] = [
        {"bidder": "E", "bid": bid, "trump": "clubs", "meld_points": nothing, "conceded": True}
        for bid in (9995, 2350)
    ]
    for bid, meld in ((9995, 9999), (2000, 2246)):
        hands.append(
            {
                "bidder": "N",
                "bid": bid,
                "trump": "clubs",
                "meld_points": {side: meld if side == sides[0] else 0 for side in sides},
                "tricks": {side: 50 if side == sides[0] else 0 for side in sides},
            }
        )
    if seats == 3:
        hands.append({"bidder": "S", "bid": 1235, "trump": "clubs", "meld_points": nothing, "conceded": True})
    for number, data in enumerate(hands, start=1):
        record_hand(game=game, number=number, data=data)
    return game


def finished_game() -> Game:
    game = standard_game()
    for number in range(1, 40):
        record_hand(game=game, number=number, data=quick_hand(ns_meld=30, ns_tricks=25))
        game.refresh_from_db()
        if game.finished:
            return game
    raise AssertionError("the game did not end")


def speak(page: Page, url: str, language: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": language, "url": url}])


def test_it_cuts_nothing_in_the_history_in_any_language_at_360(live_server: Any, page: Page) -> None:
    games = [check_game_with_every_ending(), double_deck_game(3), double_deck_game(4), finished_game()]
    sign_in_browser(page, live_server.url, table_user())
    page.set_viewport_size({"width": 360, "height": 740})
    for language in LANGUAGES:
        speak(page, live_server.url, language)
        for game in games:
            page.goto(f"{live_server.url}/g/{game.code}/")
            page.evaluate("document.querySelectorAll('#history details').forEach(d => { d.open = true; })")
            assert cut(page, MEASURED) == [], (language, game.variant, game.deck)
            assert not scrolls_sideways(page)
            share = page.locator("a.share-link").get_attribute("href")
            assert share
            page.goto(share)
            assert cut(page, MEASURED) == [], (language, "share")


def test_large_text_keeps_the_history_whole_and_each_side_under_its_heading(
    live_server: Any, page: Page
) -> None:
    """With Large text the history's rows put the sides' totals on a line of their own: each under
    its own heading, in the scoreboard's order (N–S left of E–W), and an opened hand's figures keep
    every heading and number whole ("Tricks", "+25", "E–W", never "Tric" / "ks"), at 360 and 390 px,
    in every language, with two and three sides."""
    games = [check_game_with_every_ending(), double_deck_game(3), long_figures_game(2)]
    sign_in_browser(page, live_server.url, table_user())
    page.context.add_cookies([{"name": "display", "value": "large", "url": live_server.url}])
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 740})
        for language in LANGUAGES:
            speak(page, live_server.url, language)
            for game in games:
                page.goto(f"{live_server.url}/g/{game.code}/")
                page.evaluate(
                    "document.querySelectorAll('#history details').forEach(d => { d.open = true; })"
                )
                where = (width, language, game.seats, game.deck)
                assert sides_out_of_order(page) == [], where
                assert broken_words(page, "#history *") == [], where
                assert cut(page, MEASURED) == [], where
                assert not scrolls_sideways(page), where


def test_the_numbers_are_big_and_every_control_is_a_44_px_target(live_server: Any, page: Page) -> None:
    game, over = check_game_with_every_ending(), finished_game()
    sign_in_browser(page, live_server.url, table_user())
    page.set_viewport_size({"width": 360, "height": 740})
    others = [
        f"/g/{game.code}/history/",
        f"/g/{game.code}/settings/",
        f"/g/{game.code}/hands/2/",  # a correction
        f"/g/{game.code}/table/",
        f"/s/{game.share_code}/",
        f"/s/{game.share_code}/table/",
        f"/g/{over.code}/",
    ]
    for language in LANGUAGES:
        speak(page, live_server.url, language)
        page.goto(f"{live_server.url}/g/{game.code}/")
        sizes = font_px(page, ".to-go") + font_px(page, ".total-chips")
        assert len(sizes) == 4 and min(sizes) >= 24
        page.evaluate("document.querySelectorAll('#history details').forEach(d => { d.open = true; })")
        small = small_controls(page)
        assert small == [], (language, small)
        for path in others:
            page.goto(live_server.url + path)
            page.evaluate("document.querySelectorAll('#history details').forEach(d => { d.open = true; })")
            small = small_controls(page)
            assert small == [], (language, path, small)


def test_large_text_makes_the_points_to_go_and_the_chips_a_third_bigger_and_cuts_nothing(
    live_server: Any, page: Page
) -> None:
    """The user guide says Large text makes every page a third bigger: the scoreboard's points to go
    and chips too (at 360 and 390 px, two or three sides, four-digit figures, every language). Every
    figure stays inside its side's box, a long one (-12345) drawn smaller where the box is narrow,
    and no word of the points to go or the chips is left on a line without its number."""
    games = [check_game_with_every_ending(), double_deck_game(3), double_deck_game(4)]
    games += [long_figures_game(seats) for seats in (2, 3, 4)]
    figures = ".total-points, .to-go .phrase, .total-chips"
    sign_in_browser(page, live_server.url, table_user())
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 740})
        for language in LANGUAGES:
            speak(page, live_server.url, language)
            for game in games:
                sizes = {}
                for display in ("", "large"):
                    page.context.add_cookies([{"name": "display", "value": display, "url": live_server.url}])
                    page.goto(f"{live_server.url}/g/{game.code}/")
                    sizes[display] = font_px(page, ".to-go") + font_px(page, ".total-chips")
                    where = (width, language, game.seats, game.deck, display)
                    assert cut(page, figures) == [], where
                    assert outside(page, figures, ".total") == [], where
                    # A number keeps its word: "64" / "to go" at most, never "64 to" / "go" or
                    # "-4" / "žetony".
                    assert lone_words(page, ".to-go .phrase, .total-chips") == [], where
                    # Drawn smaller than the page's size only as far as the column needs.
                    assert shrunk_needlessly(page, ".figure-words", ".total") == [], where
                    if (width, language, game.seats, display) == (360, "en", 3, "large"):
                        shoot(
                            page,
                            f"large-text-scoreboard-3-players-{games.index(game)}-en-360",
                            element=page.locator("#scoreboard"),
                        )
                    if display:
                        grown = ".to-go, .to-go *, .total-chips, .total-chips *"
                        assert cut(page, grown) == [], (width, language, game.seats, game.deck)
                        assert not scrolls_sideways(page)
                        assert small_controls(page) == []
                assert sizes[""], game
                ratios = [large / normal for normal, large in zip(sizes[""], sizes["large"], strict=True)]
                assert min(ratios) >= 1.3, (width, language, game.seats, game.deck, sizes)
    shoot(page, "large-text-scoreboard-cs-390", element=page.locator("#scoreboard"))


def test_the_pages_take_200_percent_text_without_scrolling_sideways(live_server: Any, page: Page) -> None:
    playing, over = check_game_with_every_ending(), finished_game()
    sign_in_browser(page, live_server.url, table_user())
    page.set_viewport_size({"width": 360, "height": 740})
    pages = [
        "/",  # the games list: its heading is one long word in Swedish ("Poängräknare")
        f"/g/{playing.code}/settings/",
        f"/g/{playing.code}/",  # the entry form and the history
        f"/g/{playing.code}/history/",
        f"/g/{playing.code}/table/",
        f"/g/{over.code}/",  # the end of a game
        f"/s/{playing.share_code}/",
        f"/s/{playing.share_code}/table/",
    ]
    for language in LANGUAGES:
        speak(page, live_server.url, language)
        for path in pages:
            page.goto(live_server.url + path)
            page.evaluate("document.documentElement.style.fontSize = '200%'")
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            # A phone's browser widens the page to what sticks out: look at every element too.
            wide = past_the_edge(page, 360)
            assert not scrolls_sideways(page) and wide == [], (language, path, wide[:4])


def zoomed_pages(playing: Game, over: Game) -> list[str]:
    """Every page a player reads at the table, and the two where a game is set up."""
    return [
        "/",
        "/games/new",
        f"/g/{playing.code}/settings/",
        f"/g/{playing.code}/",
        f"/g/{playing.code}/history/",
        f"/g/{playing.code}/table/",
        f"/g/{over.code}/",
        f"/s/{playing.share_code}/",
        f"/s/{playing.share_code}/table/",
    ]


def sideways_at(page: Page, base: str, paths: list[str], width: int) -> list[Any]:
    """What scrolls sideways or sticks out past `width` on each page, in every language (every
    fold opened): [language, path, the page's width, the first elements past the edge]; and every
    control smaller than 44 x 44 px: [language, path, the controls]."""
    found = []
    for language in LANGUAGES:
        speak(page, base, language)
        for path in paths:
            page.goto(base + path)
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            wide = past_the_edge(page, width)
            if scrolls_sideways(page) or wide:
                page_width = page.evaluate("document.scrollingElement.scrollWidth")
                found.append([language, path, page_width, wide[:3]])
            small = small_controls(page)
            if small:
                found.append([language, path, small[:3]])
    return found


def test_the_pages_zoomed_to_200_percent_on_a_360_px_phone_do_not_scroll_sideways(
    live_server: Any, page: Page
) -> None:
    """A 360 px phone whose browser zooms the page to 200 % lays it out 180 CSS px wide: every page,
    the new game and the game's settings too, fits it in every language."""
    playing, over = check_game_with_every_ending(), finished_game()
    sign_in_browser(page, live_server.url, table_user())
    page.set_viewport_size({"width": 180, "height": 740})
    assert sideways_at(page, live_server.url, zoomed_pages(playing, over), 180) == []


def test_large_text_on_a_page_zoomed_to_200_percent_does_not_scroll_sideways(
    live_server: Any, page: Page
) -> None:
    """Large text on a 360 px phone zoomed to 200 % (a 24 px root in 180 CSS px, like 400 % text):
    still every page fits, in every language; a number keeps its word (the table view draws "chybí
    1043" smaller rather than break it) and every control stays a 44 x 44 px target."""
    playing, over = check_game_with_every_ending(), finished_game()
    sign_in_browser(page, live_server.url, table_user())
    page.context.add_cookies([{"name": "display", "value": "large", "url": live_server.url}])
    page.set_viewport_size({"width": 180, "height": 740})
    assert sideways_at(page, live_server.url, zoomed_pages(playing, over), 180) == []
    for path in (f"/g/{playing.code}/table/", f"/g/{playing.code}/"):
        page.goto(live_server.url + path)
        assert lone_words(page, ".table-to-go, .table-chips, .to-go .phrase, .total-chips") == [], path


def test_the_phone_asking_for_more_contrast_gets_7_to_1(live_server: Any, page: Page) -> None:
    game = check_game_with_every_ending()
    sign_in_browser(page, live_server.url, table_user())
    page.set_viewport_size({"width": 360, "height": 740})
    page.emulate_media(contrast="more", reduced_motion="reduce")
    for path in (f"/g/{game.code}/", f"/g/{game.code}/table/"):
        page.goto(live_server.url + path)
        page.evaluate("document.querySelectorAll('#history details').forEach(d => { d.open = true; })")
        assert low_contrast(page, 7) == [], path
    transitions = page.evaluate(
        "Array.from(document.querySelectorAll('*')).map(el => getComputedStyle(el).transitionDuration)"
        ".filter(d => d.split(',').some(part => parseFloat(part) > 0))"
    )
    assert transitions == []
    assert page.evaluate("getComputedStyle(document.documentElement).scrollBehavior") == "auto"
    # Forced colours: the chosen chip keeps an outline when the system draws the colours.
    page.emulate_media(contrast="no-preference", forced_colors="active")
    page.goto(f"{live_server.url}/g/{game.code}/")
    page.locator("#hand-form").get_by_role("group", name="Bidder").get_by_text("North (Anna)").click()
    chosen = page.locator(".chip:has(input:checked)").first
    assert chosen.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"


def test_large_text_and_high_contrast_are_remembered_across_reloads(live_server: Any, page: Page) -> None:
    game = check_game_with_every_ending()
    sign_in_browser(page, live_server.url, table_user())
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/g/{game.code}/")
    footer = page.get_by_role("contentinfo")
    footer.get_by_role("button", name="Large text").click()
    page.wait_for_url(f"{live_server.url}/g/{game.code}/")
    footer.get_by_role("button", name="High contrast").click()
    page.wait_for_url(f"{live_server.url}/g/{game.code}/")
    page.reload()
    assert page.locator("html").get_attribute("class") == "contrast-high text-large"
    assert footer.get_by_role("button", name="Large text").get_attribute("aria-pressed") == "true"
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "24px"
    assert low_contrast(page, 7) == []
    assert small_controls(page) == []
    assert not scrolls_sideways(page)
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    assert cut(page, MEASURED) == []
    footer.get_by_role("button", name="Large text").click()
    page.wait_for_url(f"{live_server.url}/g/{game.code}/")
    assert page.locator("html").get_attribute("class") == "contrast-high"


def test_the_table_view_follows_a_save_from_another_phone(live_server: Any, page: Page) -> None:
    game = check_game_with_every_ending()
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/s/{game.share_code}/")
    page.get_by_role("link", name="Table view").click()
    expect(page.get_by_role("heading", name="Hand 6: East (Bo) deals")).to_be_visible()
    before = page.get_by_test_id("table-total-NS").inner_text()
    page.evaluate("window.stillTheSamePage = true")  # gone if the page reloads
    client = Client()
    client.force_login(table_user())
    fields = {"bidder": "N", "bid": "25", "trump": "spades", "meld_N_run": "1", "meld_N_marriage": "1"}
    assert client.post(save_url(game), hand_post(6, {**fields, "tricks_NS": "20"})).status_code == 302
    expect(page.get_by_role("heading", name="Hand 7: South (Cecilia) deals")).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("table-total-NS")).not_to_have_text(before)
    assert page.evaluate("window.stillTheSamePage") is True
    assert page.locator("#hand-form").count() == 0 and page.locator("form[action$='/hands']").count() == 0
    page.context.close()  # stop polling before the live server goes


#: Copied by hand to docs/screenshots/ when the pages change (a test run leaves docs/ alone).
DOCS_SHOTS = SHOTS / "docs"


def test_screenshots_for_the_user_guide(live_server: Any, browser: Any, browser_context_args: Any) -> None:
    """For docs/screenshots/: the history with a set, a slam and a concession; the table view; the game
    page in large text and high contrast. At 360 px, one CSS pixel a pixel (small files)."""
    game = check_game_with_every_ending()
    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(**{**browser_context_args, "device_scale_factor": 1})
    page = context.new_page()
    sign_in_browser(page, live_server.url, table_user())
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/g/{game.code}/")
    page.locator("#hand-3 details > summary").click()
    history = page.locator("#history")
    history.scroll_into_view_if_needed()
    history.screenshot(path=str(DOCS_SHOTS / "history-marks-en-360.png"))
    page.goto(f"{live_server.url}/g/{game.code}/table/")
    page.screenshot(path=str(DOCS_SHOTS / "table-view-en-360.png"))
    page.goto(f"{live_server.url}/g/{game.code}/")
    for switch in ("Large text", "High contrast"):
        page.get_by_role("contentinfo").get_by_role("button", name=switch).click()
        page.wait_for_url(f"{live_server.url}/g/{game.code}/")
    page.screenshot(path=str(DOCS_SHOTS / "large-text-contrast-en-360.png"))
    page.get_by_role("contentinfo").scroll_into_view_if_needed()
    page.screenshot(path=str(DOCS_SHOTS / "display-switches-en-360.png"))
    context.close()


def test_screenshots_of_the_end_and_of_large_text_entry(
    live_server: Any, browser: Any, browser_context_args: Any
) -> None:
    """For docs/screenshots/: the end of a Check Pinochle game (end-360.png) and the entry page with
    Large text, at the meld grid (entry-large-360.png). At 360 x 740, one CSS pixel a pixel."""
    from tests.browser import fill_hand, start_game

    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(**{**browser_context_args, "device_scale_factor": 1})
    page = context.new_page()
    page.set_viewport_size({"width": 360, "height": 740})
    names = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
    start_game(
        page, live_server.url, seats="4 (two partnerships)", names=names, variant="Check Pinochle", target=30
    )
    page.set_viewport_size({"width": 360, "height": 740})
    fill_hand(
        page,
        bidder="North (Anna)",
        bid=27,
        trump="Hearts",
        melds={"North (Anna)": {"Run (A 10 K Q J of trump)": 1, "Marriage (K Q, other suit)": 1}},
        tricks={"N–S (Anna & Cecilia)": 20},
    )
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    page.locator("#game-over").scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(DOCS_SHOTS / "end-360.png"))
    expect(page.get_by_role("link", name="New game").last).to_be_visible()

    game = check_game_with_every_ending()
    sign_in_browser(page, live_server.url, table_user())
    page.goto(f"{live_server.url}/g/{game.code}/")
    page.get_by_role("contentinfo").get_by_role("button", name="Large text").click()
    page.wait_for_url(f"{live_server.url}/g/{game.code}/")
    form = page.locator("#hand-form")
    form.get_by_role("group", name="Bidder").get_by_text("South (Cecilia)", exact=True).click()
    form.get_by_role("button", name="Run (A 10 K Q J of trump), South (Cecilia): 0").click()
    form.get_by_role("button", name="Kings around, East (Bo): 0").click()
    page.locator("table.meld-grid").first.evaluate(
        "el => window.scrollTo(0, el.getBoundingClientRect().top + scrollY - 90)"
    )
    page.screenshot(path=str(DOCS_SHOTS / "entry-large-360.png"))
    context.close()
