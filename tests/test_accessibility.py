"""Accessibility checked by axe-core (axe-playwright-python) on a 390 px phone, not by eye.

Every kind of page (the games list, a new game, a Check Pinochle game being entered, a finished
game's awards, its share page, history and settings, a club, a club night's standings, its ledger,
a player) in English, Swedish and Czech: none may have a violation of impact "serious" or
"critical". The counts of every violation by impact, per page and language, go to
test-output/accessibility/<language>/counts.txt (and the rules each page breaks, as
axe reports them, to <page>.json beside it), so they can be read and reported.

Screen readers also hear each save: its outcome is in a live region (role=status, errors
role=alert) and the totals sit in a polite live region on the game page and the share page.
"""

from __future__ import annotations

import datetime
import json
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import User
from playwright.sync_api import Page, ViewportSize, expect

from clubs.models import Club, Season
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB
from tests.browser import fill_hand, open_hand, shoot, sign_in_browser, start_game
from tests.helpers import check_game
from tests.ledger_helpers import EW_MAKES, EW_SLAM, NS_MAKES, S_CONCEDES, make_night, roster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUTPUT = Path(__file__).resolve().parent.parent / "test-output"
LANGUAGES = ("en", "sv", "cs")
IMPACTS = ("critical", "serious", "moderate", "minor")
BLOCKING = ("critical", "serious")
PHONE: ViewportSize = {"width": 390, "height": 844}


def the_club_world() -> dict[str, str]:
    """One club's records, built once per language: a finished night (a game played to the end, with
    its chip awards, and the night's ledger) and a Check Pinochle game at the table with three hands.
    Answers each page's path by its name."""
    club = Club.objects.get(pk=CLUB)
    season = Season.objects.create(
        club=club,
        name="Autumn 2026",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    anna, bo, cleo, dan, eva, finn, gus, hana = roster(
        club, "Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana"
    )
    night = make_night(
        club=club,
        season=season,
        tables=[
            ((anna, bo, cleo, dan), [NS_MAKES, EW_SLAM, S_CONCEDES] + [NS_MAKES] * 6),
            ((eva, finn, gus, hana), [EW_MAKES, NS_MAKES, EW_MAKES]),
        ],
        stake_per_chip=Decimal("0.50"),
    )
    finished = night.tables.get(table_no=1).game
    assert finished is not None and finished.finished, "the first table's game is played to the end"
    game = check_game(players={"N": "Anna", "E": "Bo", "S": "Cleo", "W": "Dan"})
    for number, hand in enumerate([NS_MAKES, EW_MAKES, S_CONCEDES], start=1):
        record_hand(game=game, number=number, data=hand)
    game.club = club
    game.save(update_fields=["club"])
    return {
        "home": "/",
        "new game": "/games/new",
        "game entry": f"/g/{game.code}/",
        "game end": f"/g/{finished.code}/",
        "share": f"/s/{game.share_code}/",
        "correction": f"/g/{game.code}/hands/2/",
        "history": f"/g/{game.code}/history/",
        "settings": f"/g/{game.code}/settings/",
        "club": f"/league/clubs/{club.pk}/",
        "club night": f"/nights/{night.pk}/",
        "night standings": f"/nights/{night.pk}/standings/",
        "ledger": f"/ledger/nights/{night.pk}/",
        "season ledger": f"/ledger/seasons/{season.pk}/",
        "player": f"/league/players/{anna.pk}/",
        "rules": "/rules/",
    }


def by_impact(violations: list[dict[str, Any]]) -> dict[str, int]:
    """How many elements break a rule, by the rule's impact."""
    counts = dict.fromkeys(IMPACTS, 0)
    for violation in violations:
        counts[violation["impact"] or "minor"] += len(violation["nodes"])
    return counts


def described(violations: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"  {v['impact']}: {v['id']} ({v['help']}) at "
        + ", ".join(" ".join(str(t) for t in node["target"]) for node in v["nodes"][:5])
        for v in violations
    )


def audit(page: Page, folder: Path, name: str) -> tuple[list[dict[str, Any]], str]:
    """axe's violations on the page as it is, and a line of their counts by impact; what axe could
    not decide (a colour over an image, say) is counted as "to review", for a person to look at.
    Both lists go to `folder` as <name>.json and <name>-review.json."""
    answer = Axe().run(page).response
    violations: list[dict[str, Any]] = answer["violations"]
    counts = by_impact(violations)
    review = sum(len(check["nodes"]) for check in answer["incomplete"])
    folder.mkdir(parents=True, exist_ok=True)
    stem = name.replace(" ", "-")
    (folder / f"{stem}.json").write_text(json.dumps(violations, indent=1), encoding="utf-8")
    (folder / f"{stem}-review.json").write_text(json.dumps(answer["incomplete"], indent=1), encoding="utf-8")
    line = (
        f"{name:<16} "
        + "  ".join(f"{impact} {counts[impact]}" for impact in IMPACTS)
        + f"  to review {review}"
    )
    return violations, line


def blocking(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [v for v in violations if v["impact"] in BLOCKING]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_has_a_serious_or_critical_violation(live_server, page: Page, people, language, subtests):
    """Each page is a subtest named by the page and the language: a failure lists its violations.
    The counts go to test-output/accessibility/<language>/counts.txt."""
    pages = the_club_world()
    base = live_server.url
    page.set_viewport_size(PHONE)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    sign_in_browser(page, base, User.objects.get(username="alice"))
    folder = OUTPUT / "accessibility" / language
    shutil.rmtree(folder, ignore_errors=True)
    counted = []
    for name, path in pages.items():
        with subtests.test(msg=f"{name} ({language})"):
            page.goto(base + path)
            page.wait_for_load_state("load")
            # What a tap opens is checked too: every <details> (a seat's melds, a hand's row) open.
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            assert page.locator("html").get_attribute("lang") == language
            violations, line = audit(page, folder, name)
            counted.append(line)
            (folder / "counts.txt").write_text("\n".join(counted) + "\n", encoding="utf-8")
            found = blocking(violations)
            assert not found, f"{name} ({language}): serious or critical violations\n{described(found)}"


NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
NS = "N–S (Anna & Cecilia)"


def test_a_save_and_the_totals_are_announced_on_the_game_and_share_pages(
    live_server, browser, browser_context_args
):
    """The save's outcome is a status, a refused save an alert, and the live region that stays in
    the page (#announcer, polite) receives "Hand 1 saved." and the new totals, on the scoring phone
    and on a friend's share page; the page after the save and after the refusal passes axe too."""
    context = {**browser_context_args, "viewport": PHONE}
    scorer = browser.new_context(**context).new_page()
    start_game(scorer, live_server.url, seats="4 (two partnerships)", names=NAMES)
    scorer.set_viewport_size(PHONE)
    announcer = scorer.locator("#announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    expect(announcer).to_have_text("")
    share_url = scorer.locator("a.share-link").get_attribute("href")
    assert share_url
    friend = browser.new_context(**context).new_page()
    friend.goto(share_url)
    friend_announcer = friend.locator("#announcer")
    expect(friend_announcer).to_have_attribute("aria-live", "polite")
    expect(friend.get_by_test_id("total-NS")).to_have_text("0")

    # A save the server refuses (no trick points): the errors are an alert, nothing is announced
    # as saved.
    fill_hand(scorer, bidder="North (Anna)", bid=25, trump="Hearts")
    scorer.get_by_role("button", name="Save hand 1").click()
    expect(scorer.get_by_role("alert").first).to_contain_text("Enter the trick points")
    shoot(scorer, "a11y-refused", full_page=True)
    assert "saved" not in announcer.inner_text()
    folder = OUTPUT / "accessibility" / "saves"
    refused, refused_line = audit(scorer, folder, "refused save")
    assert not blocking(refused), described(refused)

    fill_hand(scorer, quick={"North (Anna)": 20, "East (Bo)": 10}, tricks={NS: 15})
    scorer.get_by_role("button", name="Save hand 1").click()
    expect(scorer.get_by_role("status").filter(has_text="Hand 1 saved.")).to_be_visible()
    expect(announcer).to_contain_text("Hand 1 saved.")
    expect(announcer).to_contain_text(f"{NS}: 35")
    expect(announcer).to_contain_text("E–W (Bo & David): 20")
    assert "Undo" not in announcer.inner_text()
    shoot(scorer, "a11y-saved")
    open_hand(scorer, 1)
    shoot(scorer, "a11y-saved-hand-1-open", element=scorer.locator("#history"))
    saved, saved_line = audit(scorer, folder, "saved hand")
    (folder / "counts.txt").write_text(f"{refused_line}\n{saved_line}\n", encoding="utf-8")
    assert not blocking(saved), described(saved)

    # The friend's page hears the new totals when its poll brings them.
    expect(friend_announcer).to_contain_text(f"{NS}: 35", timeout=10_000)
    expect(friend_announcer).to_contain_text("E–W (Bo & David): 20")
    # Both phones stop polling before the live server (and its database) goes away.
    friend.context.close()
    scorer.context.close()
