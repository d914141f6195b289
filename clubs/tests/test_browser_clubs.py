"""Running a club on a 360 px phone, in Debian's Chromium, without the admin: a new user signs up,
creates a club, keeps its roster and a season, and invites a second user who joins as a member."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from clubs.models import ClubRole, Player
from tests.browser import assert_fits_the_phone, shoot

PHONE: ViewportSize = {"width": 360, "height": 780}
PASSWORD = "a long pass phrase 4 cards"


def look(page: Page, name: str) -> None:
    """Every organiser page fits a 360 px phone; a screenshot of each is kept for a person to see."""
    assert_fits_the_phone(page)
    shoot(page, f"clubs-{name}-360", full_page=True)


def sign_up(page: Page, username: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()


def add_player(page: Page, name: str) -> None:
    page.get_by_label("Player name").fill(name)
    page.get_by_role("button", name="Add to the roster").click()
    expect(page.get_by_text(f"{name} is on the roster.")).to_be_visible()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_organiser_runs_a_club_on_a_phone_without_the_admin(live_server, page: Page, browser: Browser):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/accounts/signup/")
    sign_up(page, "mira")
    page.get_by_role("link", name="Clubs").first.click()
    expect(page.get_by_role("heading", name="Your clubs")).to_be_visible()
    look(page, "index-empty")

    page.get_by_role("link", name="Create a club").click()
    page.get_by_role("button", name="Create the club").click()  # empty: refused, the field says why
    expect(page.get_by_text("A club needs a name.")).to_be_visible()
    look(page, "create")
    page.get_by_label("Club name").fill("Klubbén")
    page.get_by_role("button", name="Create the club").click()
    expect(page.get_by_text("Klubbén is created; you are its organiser.")).to_be_visible()

    for name in ("Anna", "Bo", "Cecilia", "Ana"):
        add_player(page, name)
    page.get_by_label("Player name").fill("anna")
    page.get_by_role("button", name="Add to the roster").click()
    expect(page.get_by_text("Klubbén already has a player called anna.")).to_be_visible()
    look(page, "roster")

    page.get_by_role("link", name="Bo", exact=True).click()
    page.get_by_label("Player name").fill("Bosse")
    page.get_by_role("button", name="Save the name").click()
    expect(page.get_by_text("Bo is now called Bosse.")).to_be_visible()
    expect(page.get_by_role("heading", name="Bosse")).to_be_visible()
    look(page, "player")

    page.get_by_role("link", name="Klubbén: Roster").click()
    page.get_by_role("link", name="Cecilia").click()
    page.get_by_role("button", name="Retire this player").click()
    expect(page.get_by_text("Cecilia is retired")).to_be_visible()
    page.get_by_role("link", name="Klubbén: Roster").click()
    retired = page.locator("h2", has_text="Retired").locator("xpath=following-sibling::ul[1]")
    expect(retired.get_by_role("link", name="Cecilia")).to_be_visible()

    page.get_by_role("link", name="Seasons").first.click()
    page.get_by_label("Season name").fill("Spring 2026")
    page.get_by_label("Starts on").fill("2026-03-01")
    page.get_by_label("Ends on").fill("2026-02-01")
    page.get_by_role("button", name="Create the season").click()
    expect(page.get_by_text("The season ends before it starts.")).to_be_visible()
    page.get_by_label("Ends on").fill("2026-06-30")
    page.get_by_role("button", name="Create the season").click()
    expect(page.get_by_text("Season Spring 2026 is created.")).to_be_visible()
    look(page, "seasons")
    page.get_by_role("link", name="Change dates").click()
    look(page, "season-edit")
    page.get_by_role("link", name="Klubbén: Seasons").click()

    page.get_by_role("link", name="Roster").first.click()
    page.get_by_role("link", name="Anna", exact=True).click()
    page.get_by_role("button", name="Make an invite link").click()
    link = page.get_by_label("Invite link").input_value()
    assert "/clubs/join/" in link

    # The second person opens the link on their own phone (JavaScript off), signs up and accepts.
    other = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=False)
    phone = other.new_page()
    phone.goto(link)
    expect(phone.get_by_role("heading", name="Join Klubbén")).to_be_visible()
    look(phone, "invite")
    phone.get_by_role("link", name="Sign up").last.click()
    sign_up(phone, "anna-k")
    phone.get_by_role("button", name="I am Anna: accept").click()
    expect(phone.get_by_text("Welcome to Klubbén: your account is tied to Anna.")).to_be_visible()
    expect(phone.get_by_role("heading", name="Anna (you)")).to_be_visible()
    other.close()
    anna = Player.objects.get(name="Anna")
    assert anna.user is not None and anna.user.username == "anna-k"
    assert ClubRole.objects.get(user=anna.user).role == "member"

    # Back on the organiser's phone: "Ana" was Anna entered twice.
    page.reload()
    expect(page.get_by_text("Account: anna-k.")).to_be_visible()
    page.get_by_label("Player entered twice", exact=True).select_option(label="Ana")
    page.get_by_role("button", name="Merge into this player").click()
    expect(page.get_by_text("Ana was merged into this player.")).to_be_visible()
    page.get_by_role("link", name="Klubbén: Roster").click()
    expect(page.get_by_role("link", name="Ana", exact=True)).to_have_count(0)
    names = page.locator(".league-list").first.get_by_role("link").all_inner_texts()
    assert names == ["Anna", "Bosse"]
    look(page, "roster-after")
    page.get_by_role("link", name="Your clubs").click()
    look(page, "index")

    # The longest words: the player page in Swedish and Czech still fits the phone.
    for language, heading in (("Svenska", "Slå ihop en spelare som lagts in två gånger"),
                              ("Čeština", "Sloučit hráče zadaného dvakrát")):  # fmt: skip
        page.get_by_role("button", name=language).click()
        page.goto(f"{live_server.url}/clubs/{anna.memberships.get().club_id}/players/{anna.pk}/")
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        look(page, f"player-{language[:2].lower()}")
