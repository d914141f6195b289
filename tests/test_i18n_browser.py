"""On a phone: switch the Rules page to Czech with the switcher, and it stays Czech."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SCREENSHOTS = Path(__file__).resolve().parents[1] / "test-output" / "screenshots"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_switches_the_rules_page_to_czech_on_a_phone(live_server, page):
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(f"{live_server.url}/rules/")
    assert page.get_by_role("heading", level=1).inner_text() == "Rules"

    czech = page.get_by_role("button", name="Čeština")
    box = czech.bounding_box()
    assert box and box["height"] >= 44
    czech.click()

    page.wait_for_url(f"{live_server.url}/rules/")
    assert page.locator("html").get_attribute("lang") == "cs"
    assert page.get_by_role("heading", level=1).inner_text() == "Pravidla"
    assert page.get_by_role("button", name="Čeština").get_attribute("aria-pressed") == "true"
    assert page.get_by_role("table", name="Žetony za závazek").is_visible()

    # No sideways scrolling of the page at 360 px; wide tables scroll inside their own box.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    page.reload()
    assert page.get_by_role("heading", level=1).inner_text() == "Pravidla"

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "rules-cs-360-top.png"))
    page.screenshot(path=str(SCREENSHOTS / "rules-cs-360.png"), full_page=True)
    page.get_by_role("table", name="Tabulka hlášek: body a žetony").screenshot(
        path=str(SCREENSHOTS / "rules-cs-meld-table-360.png")
    )


def test_a_czech_table_enters_a_check_pinochle_hand_on_a_phone(live_server, page):
    """Everything by its Czech label or role: the switcher, setup, the hand, the scoreboard."""
    from playwright.sync_api import expect

    from scoring.models import Game
    from tests.browser import assert_fits_the_phone, shoot

    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(f"{live_server.url}/")
    page.get_by_role("button", name="Čeština").click()
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    assert_fits_the_phone(page)
    shoot(page, "i18n-cs-01-games-list")

    page.get_by_role("main").get_by_role("link", name="Nová hra").click()
    page.get_by_role("group", name="Hráči u stolu").get_by_text("4 (dvě dvojice)", exact=True).click()
    page.get_by_role("group", name="Hra").get_by_text("Pinochle se žetony", exact=True).click()
    for seat, name in {"Sever": "Anna", "Východ": "Bo", "Jih": "Cecilie", "Západ": "David"}.items():
        page.get_by_role("textbox", name=seat).fill(name)
    assert_fits_the_phone(page)
    shoot(page, "i18n-cs-02-setup", full_page=True)
    shoot(page, "i18n-cs-02a-setup-top")
    page.get_by_role("button", name="Začít hru").scroll_into_view_if_needed()
    shoot(page, "i18n-cs-02b-setup-bottom")
    page.get_by_role("button", name="Začít hru").click()
    expect(page.get_by_role("heading", name="Zapsat rozdání 1")).to_be_visible()
    expect(page.get_by_text("Rozdání 1: rozdává Sever (Anna)")).to_be_visible()

    # docs/rules.md, "Worked example", hand 1: Anna bids 27 in hearts; N–S make it 36 to 20, chips N–S +4.
    form = page.locator("#hand-form")
    form.get_by_role("group", name="Dražitel").get_by_text("Sever (Anna)", exact=True).click()
    bid = form.get_by_role("spinbutton", name="Nabídka")
    form.get_by_role("button", name="Zvýšit nabídku").click()
    expect(bid).to_have_value("20")
    bid.fill("27")
    form.get_by_role("group", name="Trumf").get_by_text("Srdce").click()
    melds = {
        "Sever (Anna)": ["Postupka (E 10 K D J v trumfech)", "Mariáš (K D, jiná barva)"],
        "Jih (Cecilie)": ["Pinochle (D♠ J♦)"],
        "Východ (Bo)": ["Čtyři esa"],
    }
    for seat, items in melds.items():  # every seat's counts at once: a tap counts one more
        for item in items:
            form.get_by_role("button", name=f"{item}, {seat}: 0", exact=True).click()
            expect(form.get_by_role("button", name=f"{item}, {seat}: 1", exact=True)).to_be_visible()
    sums = form.locator("table.meld-grid tr.seat-sums")
    expect(sums.get_by_role("rowheader")).to_have_text("b. · Žetony:")
    expect(sums.locator(".seat-sum").first).to_have_text("17 · 2")  # Sever (Anna)
    tricks = form.get_by_role("group", name=re.compile(r"^Body ze zdvihů"))
    # Czech compass letters: S–J is Sever–Jih (North–South), V–Z is Východ–Západ (East–West).
    tricks.get_by_role("spinbutton", name="S–J (Anna & Cecilie)", exact=True).fill("15")
    expect(tricks.get_by_role("spinbutton", name="V–Z (Bo & David)", exact=True)).to_have_value("10")
    expect(page.locator("#preview")).to_contain_text("S–J splnili nabídku 27: +36 · V–Z +20")
    expect(page.locator("#preview")).to_contain_text("Žetony: S–J +4, V–Z -4")
    assert_fits_the_phone(page)
    shoot(page, "i18n-cs-03-hand-entry", full_page=True)
    for name, part in (
        ("a-bid", form.get_by_role("spinbutton", name="Nabídka")),
        ("b-melds", form.locator("table.meld-grid").first),
        ("c-tricks", tricks),
        ("d-preview", page.locator("#preview")),
    ):
        part.scroll_into_view_if_needed()
        shoot(page, f"i18n-cs-03{name}")

    page.get_by_role("button", name="Uložit rozdání 1").click()
    expect(page.get_by_role("status").filter(has_text="Rozdání 1 uloženo.")).to_be_visible()
    scoreboard = page.get_by_role("region", name="Výsledková tabule")
    expect(scoreboard.get_by_test_id("total-NS")).to_have_text("36")
    expect(scoreboard.get_by_test_id("total-EW")).to_have_text("20")
    expect(scoreboard.get_by_test_id("chips-NS")).to_have_text("4 žetony")
    expect(scoreboard.get_by_test_id("chips-EW")).to_have_text("-4 žetony")
    expect(page.get_by_text("Rozdání 2: rozdává Východ (Bo)")).to_be_visible()
    assert_fits_the_phone(page)
    shoot(page, "i18n-cs-04-history")
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "i18n-cs-04-scoreboard")
    shoot(page, "i18n-cs-05-game-page", full_page=True)

    game = Game.objects.get()
    assert game.hands.get().data["tricks"] == {"NS": 15, "EW": 10}

    # The same table in Swedish: the switcher stays on the game page.
    page.get_by_role("button", name="Svenska").click()
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(page.get_by_role("heading", name="För in giv 2")).to_be_visible()
    # Swedish compass letters: N–S (Nord–Syd), Ö–V (Öst–Väst).
    expect(page.get_by_role("spinbutton", name="Ö–V (Bo & David)", exact=True)).to_be_visible()
    expect(page.locator("#history")).to_contain_text("Ö–V")
    assert_fits_the_phone(page)
    shoot(page, "i18n-sv-01-game-page", full_page=True)
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "i18n-sv-01a-game-top")
    page.locator("#history").scroll_into_view_if_needed()
    shoot(page, "i18n-sv-01b-history")


@pytest.mark.parametrize("lang", ["cs", "sv"])
def test_the_longer_swedish_and_czech_words_fit_a_360_px_phone(live_server, page, lang, people):
    """Every main page in Swedish and Czech: nothing sticks out sideways, every tap target stays 44 px."""
    from scoring.audit import Actor
    from scoring.services.hands import edit_hand, record_hand
    from tests.access_helpers import edit_token_cookie
    from tests.browser import assert_fits_the_phone, shoot, sign_in_browser
    from tests.helpers import check_game
    from tests.league_data import small_season
    from tests.test_i18n_pages import CHECK_HANDS

    league = small_season()
    finished = league["games"][2]
    season = league["season"]
    season.publish_code = "published-results-code"
    season.save(update_fields=["publish_code"])
    game = check_game()
    for number, data in enumerate(CHECK_HANDS, start=1):
        record_hand(game=game, number=number, data=data)
    # A corrected hand: the corrections page shows its before-and-after table.
    edit_hand(game=game, number=1, data={**CHECK_HANDS[0], "bid": 26}, actor=Actor.device())
    # A club organiser (a superuser organises every club) whose phone also created the quick game:
    # the league pages, the game page with its entry form, share link and handover button.
    sign_in_browser(page, live_server.url, people.superuser())
    name, value = edit_token_cookie(game)
    page.context.add_cookies([{"name": name, "value": value, "url": live_server.url}])
    paths = {
        "games": "/",
        "setup": "/games/new",
        "game": f"/g/{game.code}/",
        "awards": f"/g/{finished.code}/",
        "share": f"/s/{game.share_code}/",
        "corrections": f"/g/{game.code}/history/",
        "league": "/league/",
        "standings": f"/league/seasons/{season.pk}/",
        "results": f"/league/results/{season.publish_code}/",
        "roles": f"/league/clubs/{league['club'].pk}/roles/",
        "player": f"/league/players/{league['people']['Åsa'].pk}/",
        "import": "/league/import/",
        "login": "/accounts/login/",
        "signup": "/accounts/signup/",
    }
    page.set_viewport_size({"width": 360, "height": 780})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    for name, path in paths.items():
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, (name, response and response.status)
        assert page.locator("html").get_attribute("lang") == lang
        if name in ("standings", "results", "player"):
            # Wide tables scroll inside their own box (the page says so); the page itself may not.
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
        else:
            assert_fits_the_phone(page)
        shoot(page, f"i18n-{lang}-page-{name}")
        if name == "game":
            shoot(page, f"i18n-{lang}-page-game-full", full_page=True)


# Inside the repository (test-output/, ignored by git), wherever it is cloned.
HEADER_SHOTS = Path(__file__).resolve().parents[1] / "test-output" / "screenshots" / "header"


def _header_rows(page) -> int:
    """How many rows the site header's items sit on: an item below the bottom of the row so far starts one."""
    boxes = page.evaluate(
        """() => Array.from(document.querySelectorAll(
              '.site-header .brand, .site-header nav, .site-header .net-state, .site-header .account-nav, '
              + '.site-header .language-switcher'))
             .filter(el => el.offsetParent !== null)
             .map(el => [el.getBoundingClientRect().top, el.getBoundingClientRect().bottom])"""
    )
    rows = 0
    bottom = float("-inf")
    for top, low in sorted(boxes):
        if top >= bottom - 2:
            rows += 1
        bottom = max(bottom, low) if top < bottom - 2 else low
    return rows


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
@pytest.mark.parametrize("lang", ["en", "sv", "cs"])
def test_the_table_pages_header_stays_on_two_rows_on_a_390_px_phone(
    live_server, page, lang, signed_in, people
):
    """Brand, links, network state, account and languages: two rows at 390 px, online or offline."""
    from tests.browser import assert_fits_the_phone, sign_in_browser
    from tests.helpers import check_game

    game = check_game()
    if signed_in:
        user = people.superuser()  # every link of the header, under a long account name
        user.username = "organiser-longname"
        user.save(update_fields=["username"])
        sign_in_browser(page, live_server.url, user)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    state = "in" if signed_in else "out"
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 780})
        page.goto(f"{live_server.url}/g/{game.code}/")
        status = page.locator(".site-header .net-state")
        assert status.get_attribute("role") == "status" and status.get_attribute("aria-live") == "polite"
        assert status.inner_text().strip()  # "Online" in words, not only a coloured dot
        page.screenshot(path=str(HEADER_SHOTS / f"{lang}-{width}-{state}-online.png"))
        assert _header_rows(page) <= 2, (lang, width, "online")
        assert_fits_the_phone(page)
        # Offline with a hand waiting on the phone: the badge shows, the header keeps its two rows.
        page.context.set_offline(True)
        page.evaluate(
            """(game) => {
                 localStorage.setItem('pinochle:outbox', JSON.stringify(
                   [{id: 'x1', game: game, number: 9, state: 'queued', tries: 0,
                     next: Date.now() + 3600000}]));
                 window.dispatchEvent(new Event('offline'));
               }""",
            game.code,
        )
        badge = page.locator(".site-header .pending-badge")
        assert badge.is_visible() and "2" not in badge.inner_text() and "1" in badge.inner_text()
        page.screenshot(path=str(HEADER_SHOTS / f"{lang}-{width}-{state}-offline-pending.png"))
        assert _header_rows(page) <= 2, (lang, width, "offline, one waiting")
        assert_fits_the_phone(page)
        page.evaluate("() => localStorage.removeItem('pinochle:outbox')")
        page.context.set_offline(False)


@pytest.mark.parametrize("lang", ["en", "sv", "cs"])
def test_no_seat_of_the_bidder_buttons_is_cut_short_on_a_360_px_phone(live_server, page, lang):
    """Four seats on one row: the seat ("Východ", the longest) is shown whole, a long name may be cut."""
    page.set_viewport_size({"width": 360, "height": 780})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(f"{live_server.url}/games/new")
    for seat, name in zip("NESW", ["Anna", "Bohumil", "Cecílie", "Dobroslav"], strict=True):
        page.locator(f"#id_name_{seat}").fill(name)
    page.locator("form.setup button[type=submit]").last.click()
    page.wait_for_url("**/g/*/")
    cut = page.evaluate(
        """() => [...document.querySelectorAll('#bidder .seat-dir')]
            .filter(seat => seat.scrollWidth > seat.clientWidth).map(seat => seat.textContent)"""
    )
    assert cut == []
    chips = page.locator("#bidder .chip")
    assert chips.count() == 4
    boxes = [chips.nth(index).bounding_box() for index in range(4)]
    assert all(box and box["height"] >= 44 for box in boxes)
    assert len({round(box["y"]) for box in boxes if box}) == 1  # one row
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#bidder").screenshot(path=str(SCREENSHOTS / f"bidder-seats-{lang}-360.png"))
