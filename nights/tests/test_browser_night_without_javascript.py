"""The organiser's night pages and a table's link with JavaScript off: plain forms and redirects."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from clubs.models import Club, Membership, Player
from nights.models import Night
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB
from tests.browser import assert_fits_the_phone, sign_in_browser
from tests.helpers import quick_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Bo", "Cleo", "Dan", "Eva"]


@pytest.fixture
def browser_without_js(browser):
    contexts = []

    def new_page():
        context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 780})
        contexts.append(context)
        return context.new_page()

    yield new_page
    for context in contexts:
        context.close()


def test_a_night_is_run_without_javascript(browser_without_js, live_server, people):
    club = Club.objects.get(pk=CLUB)
    for name in NAMES:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    page = browser_without_js()
    sign_in_browser(page, live_server.url, User.objects.get(username="alice"))
    page.goto(f"{live_server.url}/nights/clubs/{CLUB}/new")
    page.get_by_label("Rounds").fill("0")
    page.get_by_role("button", name="Open the night").click()
    expect(page.get_by_text("Ensure this value is greater than or equal to 1.")).to_be_visible()
    assert not Night.objects.exists()
    page.get_by_label("Rounds").fill("2")
    page.get_by_role("group", name="Game").get_by_text("Check Pinochle").click()
    page.get_by_role("button", name="Open the night").click()
    for name in NAMES:
        page.get_by_role("button", name=name, exact=True).click()
        expect(page.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Draw the tables").click()
    expect(page.get_by_text("The tables are drawn for every round.")).to_be_visible()
    night = Night.objects.get()
    sitting_out = night.byes.get(round_no=1).player.name
    seated = next(name for name in NAMES if name != sitting_out)
    page.get_by_label("Round", exact=True).select_option("1")
    page.get_by_label("Swap", exact=True).select_option(label=sitting_out)
    page.get_by_label("with", exact=True).select_option(label=seated)
    page.get_by_role("button", name="Swap", exact=True).click()
    expect(page.get_by_text(f"{sitting_out} and {seated} swapped in round 1")).to_be_visible()
    assert night.byes.get(round_no=1).player.name == seated
    assert_fits_the_phone(page)
    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_text("Round 1 has started")).to_be_visible()

    link = night.tables.get(round_no=1).token
    phone = browser_without_js()
    phone.goto(f"{live_server.url}/nights/t/{link}/")
    phone.get_by_role("button", name="Score this table").click()
    expect(phone.get_by_role("heading", name="Enter hand 1")).to_be_visible()

    page.goto(f"{live_server.url}/nights/{night.pk}/standings/")
    expect(page.get_by_role("table", name="Players").locator("tbody tr")).to_have_count(4)
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.get_by_role("button", name="Finish the night").click()
    # A table is still playing: the night asks first, on a page of its own.
    expect(page.get_by_role("heading", name="Finish the night?")).to_be_visible()
    expect(page.get_by_text("1 table is still playing.")).to_be_visible()
    assert_fits_the_phone(page)
    page.get_by_role("button", name="Finish the night anyway").click()
    expect(page.get_by_text("The night is finished: the table links no longer score.")).to_be_visible()
    phone.goto(f"{live_server.url}/nights/t/{link}/")
    expect(phone.get_by_text("the table's link no longer scores")).to_be_visible()
    page.get_by_role("link", name="Remove the night…").click()
    page.get_by_role("button", name="Remove the night and its games").click()
    expect(page.get_by_text("The night is removed, with its 1 game.")).to_be_visible()
    assert not Night.objects.exists()


def test_a_progressive_night_plans_round_two_when_round_one_ends_without_javascript(
    browser_without_js, live_server, people
):
    club = Club.objects.get(pk=CLUB)
    for name in NAMES[:4]:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    page = browser_without_js()
    sign_in_browser(page, live_server.url, User.objects.get(username="alice"))
    page.goto(f"{live_server.url}/nights/clubs/{CLUB}/new")
    page.get_by_label("Rounds").fill("2")
    page.get_by_label("Play to").fill("100")
    page.get_by_role("group", name="Movement between rounds").get_by_text("Progressive").click()
    page.get_by_role("button", name="Open the night").click()
    expect(page.get_by_text("Progressive: winners move up a table")).to_be_visible()
    for name in NAMES[:4]:
        page.get_by_role("button", name=name, exact=True).click()
    page.get_by_role("button", name="Draw the tables").click()
    expect(
        page.get_by_text("Round 1 is drawn; each later round is planned when the round before ends.")
    ).to_be_visible()
    page.get_by_role("button", name="Start round 1").click()
    expect(
        page.get_by_text("Round 2 is planned when round 1 ends: table 1 is still playing.")
    ).to_be_visible()
    expect(page.get_by_role("button", name="Start round 2")).to_have_count(0)
    assert_fits_the_phone(page)

    night = Night.objects.get()
    table = night.tables.get(round_no=1)
    game = table.game
    assert game is not None  # round 1 has started
    number = 1
    while not game.finished:  # North-South take every trick
        record_hand(game=game, number=number, data=quick_hand(ns_tricks=25))
        game.refresh_from_db()
        number += 1
    page.reload()
    expect(page.get_by_role("button", name="Start round 2")).to_be_visible()
    phone = browser_without_js()
    phone.goto(f"{live_server.url}/nights/t/{table.token}/")
    expect(phone.get_by_role("heading", name="Next round")).to_be_visible()
    north = table.seats.get(seat="N").player.name
    expect(phone.get_by_text(f"{north}: table 1, North")).to_be_visible()
    assert_fits_the_phone(phone)


def test_a_late_arrival_who_would_undo_a_swap_asks_first_and_enter_undoes_nothing(
    browser_without_js, live_server, people
):
    club = Club.objects.get(pk=CLUB)
    for name in NAMES:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    page = browser_without_js()
    sign_in_browser(page, live_server.url, User.objects.get(username="alice"))
    page.goto(f"{live_server.url}/nights/clubs/{CLUB}/new")
    page.get_by_label("Rounds").fill("2")
    page.get_by_role("button", name="Open the night").click()
    for name in NAMES[:4]:
        page.get_by_role("button", name=name, exact=True).click()
        expect(page.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Draw the tables").click()
    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_text("Round 1 has started")).to_be_visible()
    night = Night.objects.get()
    page.get_by_label("Round", exact=True).select_option("2")
    page.get_by_label("Swap", exact=True).select_option(label="Anna")
    page.get_by_label("with", exact=True).select_option(label="Bo")
    page.get_by_role("button", name="Swap", exact=True).click()
    expect(page.get_by_text("Anna and Bo swapped in round 2, the last round.")).to_be_visible()

    def round_two() -> list[tuple[str, str]]:
        return sorted(night.tables.get(round_no=2).seats.values_list("seat", "player__name"))

    swapped = round_two()
    late = page.locator("form[action$='/late']")
    late.get_by_label("Player").select_option(label="Eva")
    late.get_by_role("button", name="Add for the remaining rounds").click()
    expect(
        page.get_by_text("Round 2 was changed by hand (a swap). Seating Eva in it means drawing")
    ).to_be_visible()
    undo = page.get_by_role(
        "button", name="Draw the rounds not started again with Eva (undoes the swap in round 2)"
    )
    expect(undo).to_be_visible()
    assert_fits_the_phone(page)
    # Enter in the form taps its own button, which asks again and undoes nothing.
    page.locator("form[action$='/late']").get_by_label("Player").press("Enter")
    expect(page.get_by_text("Round 2 was changed by hand (a swap).")).to_be_visible()
    assert round_two() == swapped and not night.players.filter(player__name="Eva").exists()
    page.get_by_role(
        "button", name="Draw the rounds not started again with Eva (undoes the swap in round 2)"
    ).click()
    expect(page.get_by_text("Eva plays from round 2.")).to_be_visible()
    assert night.tables.filter(round_no=2, seats__player__name="Eva").exists()


def test_a_name_checked_in_after_a_swap_asks_first_and_enter_undoes_nothing(
    browser_without_js, live_server, people
):
    club = Club.objects.get(pk=CLUB)
    for name in [*NAMES, "Finn"]:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    page = browser_without_js()
    sign_in_browser(page, live_server.url, User.objects.get(username="alice"))
    page.goto(f"{live_server.url}/nights/clubs/{CLUB}/new")
    page.get_by_label("Rounds").fill("2")
    page.get_by_role("group", name="Game").get_by_text("Check Pinochle").click()
    page.get_by_role("button", name="Open the night").click()
    for name in NAMES:
        page.get_by_role("button", name=name, exact=True).click()
        expect(page.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Draw the tables").click()
    night = Night.objects.get()
    sitting_out = night.byes.get(round_no=1).player.name
    seated = next(name for name in NAMES if name != sitting_out)
    page.get_by_label("Round", exact=True).select_option("1")
    page.get_by_label("Swap", exact=True).select_option(label=sitting_out)
    page.get_by_label("with", exact=True).select_option(label=seated)
    page.get_by_role("button", name="Swap", exact=True).click()
    expect(page.get_by_text(f"{sitting_out} and {seated} swapped in round 1")).to_be_visible()

    def round_one() -> list[tuple[str, str]]:
        return sorted(night.tables.get(round_no=1).seats.values_list("seat", "player__name"))

    swapped = round_one()
    page.get_by_role("button", name="Finn", exact=True).click()
    question = page.get_by_text("Round 1 was changed by hand (a swap). Seating Finn in it means drawing")
    expect(question).to_be_visible()
    expect(
        page.get_by_role(
            "button", name="Draw the rounds not started again with Finn (undoes the swap in round 1)"
        )
    ).to_be_visible()
    assert_fits_the_phone(page)
    # Finn's own button has the focus: Enter taps it, which asks again and undoes nothing.
    expect(page.get_by_role("button", name="Finn", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect(question).to_be_visible()
    assert round_one() == swapped and not night.players.filter(player__name="Finn").exists()
    page.get_by_role("button", name="Finn sits out round 1 (the swap stays)").click()
    expect(page.get_by_role("button", name="Finn", exact=True)).to_have_attribute("aria-pressed", "true")
    assert round_one() == swapped
    assert sorted(night.byes.filter(round_no=1).values_list("player__name", flat=True)) == sorted(
        [seated, "Finn"]
    )
