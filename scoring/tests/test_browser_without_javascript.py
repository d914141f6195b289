"""The same table with JavaScript off: plain forms, plain POSTs and redirects."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Hand
from tests.browser import assert_fits_the_phone, entry, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page_without_js(browser):
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True
    )
    yield context.new_page()
    context.close()


def test_a_hand_is_entered_previewed_saved_and_deleted_without_javascript(page_without_js, live_server):
    page = page_without_js
    page.goto(live_server.url + "/games/new")
    page.get_by_role("textbox", name="North").fill("Anna")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Enter hand 1")).to_be_visible()

    form = entry(page)
    form.get_by_role("group", name="Bidder").get_by_text("North (Anna)", exact=True).click()
    form.get_by_role("button", name="Raise bid").click()  # a plain POST to the preview
    expect(entry(page).get_by_role("spinbutton", name="Bid")).to_have_value("20")
    entry(page).get_by_role("button", name="Raise bid").click()
    expect(entry(page).get_by_role("spinbutton", name="Bid")).to_have_value("21")
    form = entry(page)
    form.get_by_role("group", name="Trump").get_by_text("Hearts").click()
    # Without a script the meld grid's counts are number fields, typed in (no tap buttons).
    expect(form.get_by_role("button", name=re.compile(r"^Run \(A 10 K Q J of trump\), North"))).to_be_hidden()
    form.get_by_role("spinbutton", name="Run (A 10 K Q J of trump), North (Anna)", exact=True).fill("1")
    form.get_by_role("spinbutton", name="N–S (Anna)", exact=True).last.fill("15")
    form.get_by_role("button", name="Preview").click()
    expect(page.locator("#preview")).to_contain_text("N–S make 21: +30 · E–W +10")
    assert_fits_the_phone(page)
    shoot(page, "nojs-01-preview", element=page.locator("#preview"))
    assert not Hand.objects.exists()

    entry(page).get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_text("Hand 1 saved.")).to_be_visible()
    expect(page.get_by_test_id("total-NS")).to_have_text("30")

    page.get_by_role("link", name="Delete hand 1 (the last)").click()
    page.get_by_role("button", name="Delete hand 1").click()
    expect(page.get_by_text("Hand 1 deleted.")).to_be_visible()
    expect(page.get_by_test_id("total-NS")).to_have_text("0")
    assert not Hand.objects.exists()


def test_back_after_a_save_shows_the_next_hand_blank_not_the_saved_values(page_without_js, live_server):
    """Without a script, Back after Save loads the game's page again: the browser must not fill
    the next hand's form with the hand just saved (one tap would store it twice)."""
    page = page_without_js
    page.goto(live_server.url + "/games/new")
    page.get_by_role("textbox", name="North").fill("Anna")
    page.get_by_role("button", name="Start the game").click()
    form = entry(page)
    form.get_by_role("group", name="Bidder").get_by_text("North (Anna)", exact=True).click()
    form.get_by_role("spinbutton", name="Bid").fill("24")
    form.get_by_role("group", name="Trump").get_by_text("Hearts").click()
    form.get_by_role("spinbutton", name="N–S (Anna)", exact=True).last.fill("16")
    form.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_text("Hand 1 saved.")).to_be_visible()

    page.go_back()
    expect(page.get_by_role("heading", name="Enter hand 2")).to_be_visible()
    form = entry(page)
    expect(form.get_by_role("spinbutton", name="Bid")).not_to_have_value("24")
    expect(form.get_by_role("spinbutton", name="N–S (Anna)", exact=True).last).not_to_have_value("16")
    expect(form.get_by_role("group", name="Bidder").get_by_role("radio", checked=True)).to_have_count(0)
    expect(form.get_by_role("group", name="Trump").get_by_role("radio", checked=True)).to_have_count(0)
    assert Hand.objects.count() == 1
