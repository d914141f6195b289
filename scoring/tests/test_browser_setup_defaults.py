"""The setup page's placeholders show the engine's default target and minimum bid for the checked
deck and variant (`setup_numbers`), as the phone's script looks them up."""

import pytest
from playwright.sync_api import expect

from scoring.rules.tables import default_min_bid, default_target

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_placeholders_follow_the_deck_and_the_variant(page, live_server):
    page.goto(live_server.url + "/games/new")
    target, min_bid = page.locator("input[name=target]"), page.locator("input[name=min_bid]")
    expect(target).to_have_attribute("placeholder", str(default_target("single", "standard")))
    page.locator("input[name=deck][value=double]").check(force=True)
    expect(target).to_have_attribute("placeholder", str(default_target("double", "standard")))
    expect(min_bid).to_have_attribute("placeholder", str(default_min_bid("double")))
    page.locator("input[name=deck][value=single]").check(force=True)
    page.locator("input[name=variant][value=check]").check(force=True)
    expect(target).to_have_attribute("placeholder", str(default_target("single", "check")))
    expect(min_bid).to_have_attribute("placeholder", str(default_min_bid("single")))


def test_the_placeholders_are_as_typed_at_points_times_ten(page, live_server):
    page.goto(live_server.url + "/games/new")
    target, min_bid = page.locator("input[name=target]"), page.locator("input[name=min_bid]")
    page.locator("input[name=scale][value='10']").check(force=True)
    expect(target).to_have_attribute("placeholder", str(default_target("single", "standard") * 10))
    expect(min_bid).to_have_attribute("placeholder", str(default_min_bid("single") * 10))
    page.locator("input[name=scale][value='1']").check(force=True)
    expect(target).to_have_attribute("placeholder", str(default_target("single", "standard")))
