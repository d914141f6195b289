"""At the door, on a phone: the organiser pastes the evening's names into the roster, then checks
three players in with one tap each, without the page reloading (a marker set on `window` survives
every tap), at 360 and 390 px, with tap targets of at least 44 px."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from clubs.models import Club, Membership, Player
from nights.models import Night, NightPlayer
from tests.access_helpers import CLUB
from tests.browser import assert_fits_the_phone, shoot, sign_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 390])
def test_names_pasted_into_the_roster_are_checked_in_with_one_tap_each_without_a_reload(
    page, live_server, width, people
):
    club = Club.objects.get(pk=CLUB)
    Membership.objects.create(club=club, player=Player.objects.create(name="Anna"))
    page.set_viewport_size({"width": width, "height": 800})
    sign_in_browser(page, live_server.url, User.objects.get(username="alice"))

    page.goto(f"{live_server.url}/clubs/{CLUB}/roster/")
    page.evaluate("window.stillTheSamePage = true")
    page.get_by_label("Names, one per line").fill("  Bo Lind\n\nCleo\nanna\nDan Öberg\n")
    page.get_by_role("button", name="Add these names to the roster").click()
    expect(page.get_by_text("3 players are on the roster: Bo Lind, Cleo, Dan Öberg.")).to_be_visible()
    expect(page.get_by_text("Already on the roster, so not added again: Anna (line 4).")).to_be_visible()
    assert page.evaluate("window.stillTheSamePage === true")  # swapped in place, no reload
    assert_fits_the_phone(page)
    shoot(page, f"roster-{width}", full_page=True)

    page.goto(f"{live_server.url}/nights/clubs/{CLUB}/new")
    page.get_by_role("button", name="Open the night").click()
    expect(page.get_by_role("heading", name="Who is here?")).to_be_visible()
    night = Night.objects.get()
    page.evaluate("window.stillTheSamePage = true")
    address = page.url
    for count, name in enumerate(["Bo Lind", "Cleo", "Dan Öberg"], start=1):
        page.get_by_role("button", name=name, exact=True).click()
        expect(page.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-pressed", "true")
        expect(page.get_by_text(f"{count} checked in.")).to_be_visible()
        player = Player.objects.get(name=name)
        assert page.evaluate("document.activeElement.id") == f"check-in-button-{player.pk}"
    assert page.evaluate("window.stillTheSamePage === true")
    assert page.url == address
    assert set(NightPlayer.objects.filter(night=night).values_list("player__name", flat=True)) == {
        "Bo Lind",
        "Cleo",
        "Dan Öberg",
    }
    # A second tap checks a name out again, in place too.
    page.get_by_role("button", name="Cleo", exact=True).click()
    expect(page.get_by_role("button", name="Cleo", exact=True)).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_text("2 checked in.")).to_be_visible()
    assert page.evaluate("window.stillTheSamePage === true")
    assert_fits_the_phone(page)
    shoot(page, f"night-check-in-{width}", element=page.locator("#check-in"))
