"""The game's settings on a 360 px phone with JavaScript off: a new name and a lower target, the
preview saying the game ends before it is saved, the corrections log; then the page in Swedish
and Czech."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from scoring.services.hands import record_hand
from tests.browser import assert_fits_the_phone, shoot
from tests.helpers import quick_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Where a person looking at the pages finds the screenshots (the suite's own folder otherwise).
LOOK = Path(os.environ.get("SETTINGS_SHOTS", ""))


@pytest.fixture
def page_without_js(browser):
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True
    )
    yield context.new_page()
    context.close()


def snap(page, name):
    shoot(page, f"settings-{name}", full_page=True)
    if LOOK.parts:
        LOOK.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(LOOK / f"{name}.png"), full_page=True)


def test_a_name_and_a_target_are_changed_on_a_phone_without_javascript(page_without_js, live_server):
    page = page_without_js
    page.goto(live_server.url + "/games/new")
    page.get_by_role("textbox", name="North").fill("Anna")
    page.get_by_role("textbox", name="East").fill("Bo")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/g/*/")  # the game page has opened: reloading it now reloads the game
    game = Game.objects.get()
    for number in (1, 2):
        record_hand(game=game, number=number, data=quick_hand(ns_meld=10, ns_tricks=20))
    page.reload()

    page.get_by_role("link", name="Settings").click()
    expect(page.get_by_role("heading", name="Game settings")).to_be_visible()
    expect(page.get_by_role("spinbutton", name="Play to")).to_have_value("150")
    page.get_by_role("textbox", name="East").fill("Bosse")
    page.get_by_role("spinbutton", name="Play to").fill("60")
    page.get_by_role("button", name="Preview").click()
    preview = page.locator("#settings-preview")
    expect(preview).to_contain_text("Play to: 150 → 60")
    expect(preview).to_contain_text("Name East: Bo → Bosse")
    expect(preview).to_contain_text("This change ends the game after hand 2. Winner: N–S (Anna).")
    assert_fits_the_phone(page)
    snap(page, "en-preview")
    assert Game.objects.get().target is None, "a preview saves nothing"

    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_text("The game's settings were saved.")).to_be_visible()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.get_by_text("E–W (Bosse)")).to_be_visible()
    game.refresh_from_db()
    assert game.target == 60 and game.finished

    page.get_by_role("link", name="Corrections").click()
    expect(page.get_by_text("Settings changed by the scoring phone")).to_be_visible()
    assert_fits_the_phone(page)
    snap(page, "en-corrections")

    page.goto(live_server.url + f"/g/{game.code}/settings/")
    page.get_by_role("spinbutton", name="Minimum bid").fill("25")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_text("Minimum bid: Hand 1: Bid 20 is below the minimum bid of 25")).to_be_visible()
    assert_fits_the_phone(page)
    snap(page, "en-refused")
    assert Game.objects.get().min_bid is None

    for language, heading in (("sv", "Partiets inställningar"), ("cs", "Nastavení hry")):
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page.goto(live_server.url + f"/g/{game.code}/settings/")
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        page.locator("input[name=target]").fill("100")
        page.locator("button[name=preview]").click()
        expect(page.locator("#settings-preview li")).not_to_have_count(0)
        assert_fits_the_phone(page)
        snap(page, f"{language}-preview")


def test_the_first_dealer_is_changed_with_javascript_on(page, live_server):
    page.goto(live_server.url + "/games/new")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/g/*/")  # the game page has opened: reloading it now reloads the game
    game = Game.objects.get()
    record_hand(game=game, number=1, data=quick_hand())
    page.reload()
    expect(page.get_by_text("Hand 2: East deals")).to_be_visible()

    page.get_by_role("link", name="Settings").click()
    page.get_by_role("group", name="First dealer").get_by_text("South").click()
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_text("The game's settings were saved.")).to_be_visible()
    expect(page.get_by_text("Hand 2: West deals")).to_be_visible()
    assert Game.objects.get().first_dealer == "S"
