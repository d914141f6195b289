"""A round of minutes on a table's phone: the line "N minutes left in round 1" counts down while the
page stays open (the phone's clock moved on by Playwright, no waiting), and says "Last hand of
round 1" when time is up; at 360 px it fits."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from nights.models import Night
from nights.tests.test_round_control import open_night, tables
from tests.browser import assert_fits_the_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_minutes_left_count_down_on_the_phone(
    live_server, browser, browser_context_args, people, club_evening
):
    night = open_night(Night.RoundEnds.MINUTES, minutes=30)
    table = tables(night)[0]
    phone = browser.new_context(**browser_context_args).new_page()
    phone.clock.install()
    phone.goto(f"{live_server.url}/nights/t/{table.token}/")
    expect(phone.get_by_text("30 minutes left in round 1")).to_be_visible()
    phone.get_by_role("button", name="Score this table").click()
    notice = phone.get_by_test_id("plan-notice")
    expect(notice).to_have_text("30 minutes left in round 1")
    phone.clock.fast_forward("10:00")
    expect(notice).to_have_text("20 minutes left in round 1")
    phone.clock.fast_forward("19:30")
    expect(notice).to_have_text("1 minute left in round 1")
    phone.clock.fast_forward("01:00")
    expect(notice).to_have_text("Last hand of round 1")
    phone.set_viewport_size({"width": 360, "height": 780})
    assert_fits_the_phone(phone)
