"""Accessibility checked by axe-core (axe-playwright-python) on a 390 px phone, not by eye.

Every kind of page (the games list, a new game, a Check Pinochle game being entered, a finished
game's awards, its share page, history and settings, a club, a club night's standings, its ledger,
a player; and from a game: its table view (the scorer's and the share link's), its details, the
hand-over page and the take-over and recover pages, a new game in Large text and High contrast, a
club night's table link with its round notice) in English, Swedish and Czech: none may have a
violation of impact "serious" or "critical". The counts of every violation by impact, per page and
language, go to test-output/accessibility/<language>/counts.txt (and the rules each page breaks, as
axe reports them, to <page>.json beside it), so they can be read and reported.

Screen readers also hear each save, in each language: its outcome is in a live region (role=status, errors
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
from scoring.models import Game
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB
from tests.browser import open_hand, shoot, sign_in_browser, speak, start_game, words
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


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_save_and_the_totals_are_announced_on_the_game_and_share_pages(
    live_server, browser, browser_context_args, language
):
    """The save's outcome is a status, a refused save an alert, and the live region that stays in
    the page (#announcer, polite) receives "Hand 1 saved." and the new totals, on the scoring phone
    and on a friend's share page; the page after the save and after the refusal passes axe too."""
    context = {**browser_context_args, "viewport": PHONE}
    scorer = browser.new_context(**context).new_page()
    start_game(scorer, live_server.url, seats="4 (two partnerships)", names=NAMES)
    speak(scorer, language)
    scorer.set_viewport_size(PHONE)
    ns = scorer.locator("label[for=id_tricks_NS]").inner_text().strip()
    ew = scorer.locator("label[for=id_tricks_EW]").inner_text().strip()
    announcer = scorer.locator("#announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    expect(announcer).to_have_text("")
    share_url = scorer.locator("a.share-link").get_attribute("href")
    assert share_url
    friend = browser.new_context(**context).new_page()
    friend.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    friend.goto(share_url)
    friend_announcer = friend.locator("#announcer")
    expect(friend_announcer).to_have_attribute("aria-live", "polite")
    expect(friend.get_by_test_id("total-NS")).to_have_text("0")

    # A save the server refuses (no trick points): the errors are an alert, nothing is announced
    # as saved.
    form = scorer.locator("#hand-form")
    form.locator("label", has=scorer.locator("input[name=bidder][value=N]")).click()
    form.locator("input[name=bid]").fill("25")
    form.locator("label", has=scorer.locator("input[name=trump][value=hearts]")).click()
    save_1 = words(language, "Save hand %(number)s", number=1)
    scorer.get_by_role("button", name=save_1).click()
    no_tricks = words(
        language, "Enter the trick points of one side; the other side's are worked out from %(total)d."
    )
    expect(scorer.get_by_role("alert").first).to_contain_text(no_tricks.split("%")[0].rstrip())
    shoot(scorer, f"a11y-refused-{language}", full_page=True)
    saved_1 = words(language, "Hand %(number)d saved.", number=1)
    assert saved_1 not in announcer.inner_text()
    folder = OUTPUT / "accessibility" / "saves" / language
    refused, refused_line = audit(scorer, folder, "refused save")
    assert not blocking(refused), described(refused)

    form.locator("label", has=scorer.locator("input[name=meld_mode][value=points]")).click()
    form.locator("input[name=meld_points_N]").fill("20")
    form.locator("input[name=meld_points_E]").fill("10")
    form.locator("input[name=tricks_NS]").fill("15")
    scorer.get_by_role("button", name=save_1).click()
    expect(scorer.get_by_role("status").filter(has_text=saved_1)).to_be_visible()
    expect(announcer).to_contain_text(saved_1)
    expect(announcer).to_contain_text(f"{ns}: 35")
    expect(announcer).to_contain_text(f"{ew}: 20")
    assert words(language, "Undo") not in announcer.inner_text()
    shoot(scorer, f"a11y-saved-{language}")
    open_hand(scorer, 1)
    shoot(scorer, f"a11y-saved-hand-1-open-{language}", element=scorer.locator("#history"))
    saved, saved_line = audit(scorer, folder, "saved hand")
    (folder / "counts.txt").write_text(f"{refused_line}\n{saved_line}\n", encoding="utf-8")
    assert not blocking(saved), described(saved)

    # The friend's page hears the new totals when its poll brings them.
    expect(friend_announcer).to_contain_text(f"{ns}: 35", timeout=10_000)
    expect(friend_announcer).to_contain_text(f"{ew}: 20")
    # Both phones stop polling before the live server (and its database) goes away.
    friend.context.close()
    scorer.context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_scoring_phones_other_pages_have_no_serious_or_critical_violation(
    live_server, browser, browser_context_args, people, language, subtests
):
    """The pages a table reaches from its game, in each language: the table view (the scoring
    phone's and the share link's), the game's details, a new game in Large text and High contrast,
    the hand-over page and the take-over page its link opens on another phone, the recover page after
    a wrong code, and a club night's table link with its round notice ("3 hands left in round 1")."""
    base = live_server.url
    club = Club.objects.get(pk=CLUB)
    players = roster(club, "Ida", "Jan", "Karl", "Lea")
    night = make_night(
        club=club,
        season=None,
        tables=[(players, [EW_MAKES, NS_MAKES, EW_MAKES])],
        finished=False,
        hands_per_round=6,
    )
    table_token = night.tables.get(table_no=1).token
    context = {**browser_context_args, "viewport": PHONE}
    scorer = browser.new_context(**context).new_page()
    start_game(scorer, base, seats="4 (two partnerships)", names=NAMES)
    scorer.set_viewport_size(PHONE)
    game = Game.objects.get(code=scorer.url.rstrip("/").rsplit("/", 1)[-1])
    scorer.context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    other = browser.new_context(**context).new_page()
    other.context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    folder = OUTPUT / "accessibility" / language / "scoring-phone"
    shutil.rmtree(folder, ignore_errors=True)
    counted: list[str] = []

    def checked(page: Page, name: str) -> None:
        with subtests.test(msg=f"{name} ({language})"):
            page.wait_for_load_state("load")
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            assert page.locator("html").get_attribute("lang") == language
            violations, line = audit(page, folder, name)
            counted.append(line)
            (folder / "counts.txt").write_text("\n".join(counted) + "\n", encoding="utf-8")
            found = blocking(violations)
            assert not found, f"{name} ({language}): serious or critical violations\n{described(found)}"

    scorer.goto(f"{base}/g/{game.code}/table/")
    checked(scorer, "table view")
    scorer.goto(f"{base}/s/{game.share_code}/table/")
    checked(scorer, "shared table view")
    scorer.goto(f"{base}/g/{game.code}/details/")
    checked(scorer, "game details")
    scorer.goto(f"{base}/nights/t/{table_token}/")
    expect(scorer.locator(".plan-notice, [data-testid=plan-notice]").first).to_be_visible()
    checked(scorer, "night table link")

    # The hand-over page (a POST from the game page) and its link opened on another phone.
    scorer.goto(f"{base}/g/{game.code}/")
    scorer.locator("form[action$='/hand-over/'] button[type=submit]").click()
    take_over = scorer.locator("a[href*='/take-over/'], input[value*='/take-over/']").first
    expect(take_over).to_be_attached()
    checked(scorer, "hand-over")
    link = take_over.get_attribute("href") or take_over.get_attribute("value") or ""
    other.goto(link if link.startswith("http") else base + link)
    checked(other, "take-over")

    # A wrong recovery code typed on the share page: the recover page says so.
    other.goto(f"{base}/s/{game.share_code}/")
    other.locator("details:has(#id_recovery_code) > summary").click()
    other.locator("#id_recovery_code").fill("ZZZZZZ")
    other.locator("#id_recovery_code").press("Enter")
    expect(other.locator("#id_recovery_code")).to_have_attribute("aria-invalid", "true")
    checked(other, "recover")

    # A new game with Large text and High contrast on.
    scorer.goto(f"{base}/games/new")
    scorer.locator(".display-switcher button[name=large]").click()
    expect(scorer.locator(".display-switcher button[name=large]")).to_have_attribute("aria-pressed", "true")
    scorer.locator(".display-switcher button[name=contrast]").click()
    expect(scorer.locator(".display-switcher button[name=contrast]")).to_have_attribute(
        "aria-pressed", "true"
    )
    checked(scorer, "new game large contrast")
    other.context.close()
    scorer.context.close()
