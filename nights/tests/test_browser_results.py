"""Prizes, groups, the night's results and a player's card in a phone's browser with JavaScript
off, at 360 and 390 px: ticked on when the night opens, a group given on the night's page, then
from the standings to the results and a player's card, which prints without the site's menus."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from clubs.models import Club, Membership, Player
from nights.models import Night, NightBye, NightPlayer
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB
from tests.browser import assert_fits_the_phone, shoot, sign_in_browser, speak
from tests.helpers import quick_hand
from tests.ledger_helpers import CHECK_HANDS, make_night, roster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Bo", "Cleo", "Dan"]


@pytest.mark.parametrize("width", [360, 390])
def test_the_results_and_a_card_without_javascript(browser, live_server, people, width):
    club = Club.objects.get(pk=CLUB)
    for name in NAMES:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    context = browser.new_context(java_script_enabled=False, viewport={"width": width, "height": 780})
    page = context.new_page()
    base = live_server.url
    sign_in_browser(page, base, User.objects.get(username="alice"))
    page.goto(f"{base}/nights/clubs/{CLUB}/new")
    page.get_by_label("Rounds").fill("1")
    page.get_by_label("Play to").fill("100")
    for prize in ("1st place", "High game", "Winner of each group"):
        page.get_by_label(prize).check()
    assert_fits_the_phone(page)
    page.get_by_role("button", name="Open the night").click()
    for name in NAMES:
        page.get_by_role("button", name=name, exact=True).click()
    page.get_by_role("button", name="Draw the tables").click()
    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_text("Round 1 has started")).to_be_visible()
    night = Night.objects.get()
    table = night.tables.get()
    assert table.game is not None
    for number in range(1, 4):
        record_hand(game=table.game, number=number, data=quick_hand(ns_tricks=25))
    north = table.seats.get(seat="N").player.name

    page.locator("#groups").get_by_label(north).fill("Couples")
    page.get_by_role("button", name="Save the groups").click()
    expect(page.get_by_text("The groups are saved.")).to_be_visible()
    assert_fits_the_phone(page)

    page.get_by_role("link", name="Standings").click()
    expect(page.get_by_text("Standings of each group")).to_be_visible()
    expect(page.get_by_text(f"Winner of the group Couples {north}")).to_be_visible()
    assert_fits_the_phone(page)
    page.get_by_role("link", name="Results and prizes").click()
    expect(page.get_by_role("heading", name="Results of the night", exact=False)).to_be_visible()
    assert_fits_the_phone(page)
    page.get_by_role("list", name="Players' cards").get_by_role("link", name=north).click()
    expect(page.get_by_role("heading", name=north)).to_be_visible()
    expect(page.get_by_text("Round 1 · Table 1 · North")).to_be_visible()
    expect(page.get_by_role("list", name="Prizes won")).to_contain_text("1st place")
    assert_fits_the_phone(page)
    page.emulate_media(media="print")
    expect(page.get_by_role("link", name="Results of the night")).to_be_hidden()
    expect(page.get_by_role("heading", name=north)).to_be_visible()
    # A Check Pinochle night (a chips column, a bye's line) in Swedish and Czech, whose words are
    # longer: its standings, results and the card of the player who sat out fit the phone too.
    page.emulate_media(media="screen")
    players = roster(
        club, "Anna-Karin Lindqvist", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana", "Ingeborg"
    )
    check = make_night(
        club=club, season=None, tables=[(players[:4], CHECK_HANDS), (players[4:8], CHECK_HANDS[::-1])]
    )
    check.bye_compensation, check.bye_points, check.bye_chips = Night.ByeCompensation.FIXED, 25, 3
    check.save()
    NightPlayer.objects.create(night=check, player=players[8])
    NightBye.objects.create(night=check, round_no=1, player=players[8])
    pages = {
        "standings": f"{base}/nights/{check.pk}/standings/",
        "results": f"{base}/nights/{check.pk}/results/",
        "card": f"{base}/nights/{check.pk}/players/{players[8].pk}/",
    }
    for language in ("sv", "cs"):
        page.goto(pages["standings"])
        speak(page, language)
        for name, url in pages.items():
            page.goto(url)
            expect(page.locator("html")).to_have_attribute("lang", language)
            assert_fits_the_phone(page)
            shoot(page, f"night-check-{name}-{language}-{width}", full_page=True)
    context.close()
