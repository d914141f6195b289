"""Viewing season standings on a phone (390 px viewport, touch), in Debian's Chromium."""

from pathlib import Path

import pytest

from tests.browser import sign_in_browser
from tests.league_data import small_season


def _organiser(people, club):
    """Alice, the organiser persona, with the organiser role in the club (a real role, not a
    superuser): the league pages are the club's records."""
    people.organiser_of(club)
    return people["alice"]


SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_shows_standings_on_a_phone_without_page_scrolling_sideways(live_server, page, people):
    data = small_season()
    sign_in_browser(page, live_server.url, _organiser(people, data["club"]))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{live_server.url}/league/seasons/{data['season'].pk}/")

    assert page.get_by_role("heading", name="Vår 2026").is_visible()
    assert page.get_by_text("Ranking: most wins, then most net chips").is_visible()
    players = page.get_by_role("table").first
    first_row = players.get_by_role("row").nth(1)
    assert "Čeněk" in first_row.inner_text()
    # The page itself never scrolls sideways; the wide table scrolls inside its own box.
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth")
    page.screenshot(path=str(SHOTS / "standings-phone.png"), full_page=True)

    # Sorting is a plain link: "Losses" puts the fewest first, a second tap the most.
    players.get_by_role("link", name="Losses").click()
    page.wait_for_url("**sort=losses**")
    assert "Čeněk" in page.get_by_role("table").first.get_by_role("row").nth(1).inner_text()
    page.get_by_role("table").first.get_by_role("link", name="Losses").click()
    page.wait_for_url("**dir=desc**")
    assert "Örjan" in page.get_by_role("table").first.get_by_role("row").nth(1).inner_text()

    # Tap targets are at least 44 px tall: the sort links and the player links.
    for link in page.locator(".league-table a").all()[:12]:
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44, link.inner_text()

    page.get_by_role("link", name="Čeněk").first.click()
    assert page.get_by_role("heading", name="Čeněk").is_visible()
    assert page.get_by_text("×2.5").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth")
    page.screenshot(path=str(SHOTS / "player-phone.png"), full_page=True)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_fits_a_360_px_phone(live_server, page, people):
    data = small_season()
    sign_in_browser(page, live_server.url, _organiser(people, data["club"]))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 360, "height": 740})
    for url, shot in (
        (f"/league/seasons/{data['season'].pk}/", "standings-360.png"),
        (f"/league/players/{data['people']['Åsa'].pk}/", "player-360.png"),
        ("/league/import/", "import-360.png"),
        (f"/g/{data['games'][2].code}/details/", "game-360.png"),
        (f"/league/clubs/{data['club'].pk}/", "club-360.png"),
    ):
        page.goto(live_server.url + url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, url
        page.screenshot(path=str(SHOTS / shot), full_page=True)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_reports_a_refused_import_line_by_line_on_a_phone(live_server, page, people):
    from clubs.models import Club
    from scoring.models import Game

    SHOTS.mkdir(parents=True, exist_ok=True)
    header = "game_id,club,seats,variant,deck,hand,bidder,bid,trump,tricks_NS,tricks_EW,melds_N\n"
    body = (
        "g1,Klubbén,4,standard,single,1,N,21,hearts,15,11,run\n"
        "g1,Klubbén,4,standard,single,2,E,19,spades,10,15,\n"
    )
    sign_in_browser(page, live_server.url, _organiser(people, Club.objects.create(name="Klubbén")))
    page.goto(f"{live_server.url}/league/import/")
    page.get_by_label("File").set_input_files(
        files=[{"name": "hands.csv", "mimeType": "text/csv", "buffer": (header + body).encode()}]
    )
    page.get_by_role("button", name="Import").click()
    alert = page.get_by_role("alert")
    assert "2 problems" in alert.inner_text()
    assert "Line 2: hand 1: tricks add up to 26, expected 25" in alert.inner_text()
    assert "Line 3: hand 2: bid 19 is below the minimum bid of 20" in alert.inner_text()
    assert not Game.objects.exists()
    page.screenshot(path=str(SHOTS / "import-refused-phone.png"), full_page=True)
