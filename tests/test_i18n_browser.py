"""On a phone: switch the Rules page to Czech with the switcher, and it stays Czech."""

from __future__ import annotations

from pathlib import Path

import pytest

SCREENSHOTS = Path(__file__).resolve().parent.parent / "test-output" / "screenshots"

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
