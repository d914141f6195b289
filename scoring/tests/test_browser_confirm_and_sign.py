"""The table's phone in a club that has the other side confirm each hand and both sides sign the
game: after Save the hand waits for the other side's OK (a tap without a network says it was not
sent), then each side signs the finished game and the phone's edit controls are gone. In English,
Swedish and Czech, each asserting the words of that language's django.po; the confirm panel fits a
360 px phone in each."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from scoring.labels import side_label
from scoring.models import Game, Hand
from tests.access_helpers import CLUB, in_club
from tests.browser import assert_fits_the_phone, shoot, speak, start_game, words

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
PLAYERS = {"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "David"}


def sides(language: str) -> tuple[str, str]:
    """The partnerships as the page names them in `language` ("Ö–V (Bo & David)" in Swedish)."""
    with translation.override(language):
        return side_label("NS", PLAYERS), side_label("EW", PLAYERS)


def before(language: str, msgid: str, placeholder: str, **values: Any) -> str:
    """The words of `msgid` up to its `placeholder` (a time the test does not know)."""
    return (words(language, msgid) % {**values, placeholder: "\0"}).split("\0")[0]


def after(language: str, msgid: str, placeholder: str) -> str:
    """The words of `msgid` after its `placeholder`."""
    return (words(language, msgid) % {placeholder: "\0"}).split("\0")[1]


def hand_in_any_language(page: Page) -> None:
    """North bids 25 in Hearts, N 20 and E 10 meld (quick points), N–S take 15: by the fields'
    names, the same in every language."""
    page.wait_for_load_state("load")
    form = page.locator("#hand-form")
    form.locator("label", has=page.locator("input[name=bidder][value=N]")).click()
    form.locator("input[name=bid]").fill("25")
    form.locator("label", has=page.locator("input[name=trump][value=hearts]")).click()
    form.locator("label", has=page.locator("input[name=meld_mode][value=points]")).click()
    form.locator("input[name=meld_points_N]").fill("20")
    form.locator("input[name=meld_points_E]").fill("10")
    form.locator("input[name=tricks_NS]").fill("15")


@pytest.mark.parametrize("language", ["en", "sv", "cs"])
def test_the_other_side_confirms_the_hand_and_both_sides_sign(
    live_server: Any, browser: Any, browser_context_args: Any, people: Any, language: str
) -> None:
    ns, ew = sides(language)
    context = browser.new_context(**browser_context_args)
    phone = context.new_page()
    start_game(phone, live_server.url, seats="4 (two partnerships)", names=NAMES)
    game = in_club(Game.objects.get(), CLUB)
    # The club's rules, as its night would have copied them; a round of one deal.
    Game.objects.filter(pk=game.pk).update(confirm_hands=True, sign_at_end=True, deals=1)
    phone.reload()
    speak(phone, language)

    hand_in_any_language(phone)
    phone.get_by_role("button", name=words(language, "Save hand %(number)s", number=1)).click()
    expect(
        phone.get_by_role("status").filter(has_text=words(language, "Hand %(number)d saved.", number=1))
    ).to_be_visible()
    panel = phone.locator("#confirm")
    question = words(language, "Hand %(number)s saved: is it right?", number=1)
    expect(panel.get_by_role("heading", name=question)).to_be_visible()
    expect(panel).to_contain_text(
        words(language, "Pass the phone to %(sides)s: check the hand and tap OK.", sides=ew)
    )
    expect(panel.get_by_role("button", name=words(language, "Not right"), exact=True)).to_be_visible()
    expect(phone.locator("#hand-1")).to_contain_text(words(language, "not yet confirmed"))
    # The question, whom to pass the phone to and OK / Not right on a 360 px phone, nothing sticking out.
    assert phone.viewport_size == {"width": 360, "height": 780}
    panel.scroll_into_view_if_needed()
    assert_fits_the_phone(phone)
    shoot(phone, f"confirm-panel-{language}-360")

    ok = panel.get_by_role("button", name=words(language, "OK", same=True), exact=True)
    context.set_offline(True)
    ok.click()
    expect(panel.get_by_role("alert")).to_contain_text(
        words(
            language,
            "Not sent: this phone has no network. Nothing was confirmed; tap again when the network is back.",
        )
    )
    assert Hand.objects.get(game=game, number=1).confirmed_at is None
    context.set_offline(False)

    ok.click()
    expect(
        phone.get_by_role("status").filter(has_text=words(language, "Hand %(number)d confirmed.", number=1))
    ).to_be_visible()
    signing = phone.locator("#signing")
    signing.get_by_role("button", name=words(language, "Sign for %(side)s", side=ns)).click()
    expect(phone.locator("#signing")).to_contain_text(
        before(language, "%(side)s signed at %(time)s (%(who)s)", "time", side=ns, who="")
    )
    assert_fits_the_phone(phone)
    phone.locator("#signing").get_by_role(
        "button", name=words(language, "Sign for %(side)s", side=ew)
    ).click()
    expect(phone.get_by_text(words(language, "Signed by both sides: the game is final."))).to_be_visible()
    expect(phone.locator(".signed-note")).to_contain_text(
        after(language, "Signed by both sides at %(time)s — only an organiser can change it.", "time")
    )
    assert phone.get_by_role("link", name=words(language, "Edit hand %(number)s", number=1)).count() == 0
    assert_fits_the_phone(phone)
    context.close()
