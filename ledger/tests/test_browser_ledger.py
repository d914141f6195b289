"""The ledger on a 360 px phone, the way an organiser and a member use it: the settlement of a
finished Check Pinochle night (every figure checked against the rules engine's results), marking a
payment with a double tap (one payment), the same without JavaScript, the season ledger and a
monthly statement; in English, Swedish and Czech. Screenshots go to test-output/screenshots/ (and
to LEDGER_SHOTS when set)."""

from __future__ import annotations

import os
import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from ledger.models import Payment
from scoring.services.results import score
from tests.browser import SHOTS, assert_fits_the_phone, shoot, sign_in_browser
from tests.ledger_helpers import EW_MAKES, EW_SLAM, NS_MAKES, S_CONCEDES, make_club, make_night, roster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 780}


def shot(page: Page, name: str) -> None:
    shoot(page, name, full_page=True)
    extra = os.environ.get("LEDGER_SHOTS")
    if extra:
        Path(extra).mkdir(parents=True, exist_ok=True)
        shutil.copy(SHOTS / f"{name}.png", Path(extra) / f"{name}.png")


@pytest.fixture
def world(club):
    """The club's first night of a season, settled in money, and its roster."""
    _, season = make_club("Elsewhere")  # another club's season: not this ledger's
    season.club = club
    season.name = "Autumn 2026"
    season.save()
    players = roster(club, "Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana")
    anna, bo, cleo, dan, eva, finn, gus, hana = players
    night = make_night(
        club=club,
        season=season,
        tables=[
            ((anna, bo, cleo, dan), [NS_MAKES, EW_SLAM, S_CONCEDES, NS_MAKES]),
            ((eva, finn, gus, hana), [EW_MAKES, NS_MAKES, EW_MAKES]),
        ],
        stake_per_chip=Decimal("0.50"),
    )
    return club, season, night, players


def expected_money(night):
    """Each player's money worked out here from the engine's results: the side's chips × 0.50."""
    money = {}
    for table in night.tables.select_related("game"):
        result = score(table.game)
        for seat in table.game.seat_rows.select_related("player"):
            side = "NS" if seat.seat in "NS" else "EW"
            money[seat.player.name] = Decimal(result.chips[side]) / 2
    return money


def signed(value: Decimal) -> str:
    text = f"{abs(value):.2f}"
    return ("+" if value > 0 else "\u2212" if value < 0 else "") + text


def test_the_settlement_statement_and_marking_a_payment_on_a_phone(
    live_server, browser, browser_context_args, world
):
    _club, season, night, players = world
    base = live_server.url
    context = browser.new_context(**{**browser_context_args, "viewport": PHONE})
    page = context.new_page()
    sign_in_browser(page, base, User.objects.get(username="alice"))

    page.goto(f"{base}/nights/{night.pk}/")
    page.get_by_role("link", name="Settlement").click()
    expect(page.get_by_role("heading", name="Settlement of the night")).to_be_visible()
    shot(page, "ledger-settlement-en")
    assert_fits_the_phone(page)
    money = expected_money(night)
    table = page.get_by_role("table")
    for name, value in money.items():
        row = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name=name, exact=True))
        expect(row.get_by_role("cell").nth(1)).to_have_text(signed(value))  # net chips, money, open
    shot(page, "ledger-settlement-en")

    # The proposed payments settle every player exactly.
    payments = page.locator(".ledger-payments li")
    expect(payments).to_have_count(4)  # two tables, each a pair of pairs
    first = payments.first
    sentence = first.locator(".ledger-payment").inner_text()
    button = first.get_by_role("button", name="Mark as paid")
    button.dblclick()  # a double tap
    # The page shows the answer to the second tap when the first one's page had not yet come back:
    # "Already marked", the same payment.
    paid = re.escape(sentence.replace(" pays ", " paid "))
    expect(page.get_by_text(re.compile(f"^(Marked as paid|Already marked): {paid}\\."))).to_be_visible()
    assert Payment.objects.count() == 1
    expect(page.locator(".ledger-payments li")).to_have_count(3)
    expect(page.get_by_text("marked by alice")).to_be_visible()

    # Without JavaScript the same form works (a plain POST and a redirect).
    plain = browser.new_context(**{**browser_context_args, "viewport": PHONE, "java_script_enabled": False})
    no_js = plain.new_page()
    sign_in_browser(no_js, base, User.objects.get(username="alice"))
    no_js.goto(f"{base}/ledger/nights/{night.pk}/")
    no_js.locator(".ledger-payments li").first.get_by_role("button", name="Mark as paid").click()
    expect(no_js.get_by_text("Marked as paid:")).to_be_visible()
    assert Payment.objects.count() == 2
    # A payment marked by mistake is taken back (here without JavaScript too) and listed as removed.
    no_js.get_by_role("listitem").filter(has_text="marked by alice").last.get_by_role(
        "button", name="Remove"
    ).click()
    expect(no_js.get_by_text("no longer counts")).to_be_visible()
    assert Payment.objects.count() == 1
    no_js.get_by_text("1 payment removed").click()
    expect(no_js.get_by_text("removed by alice")).to_be_visible()
    plain.close()
    page.reload()
    expect(page.locator(".ledger-payments li")).to_have_count(3)
    page.get_by_text("1 payment removed").click()
    assert_fits_the_phone(page)
    shot(page, "ledger-settlement-removed-en")
    page.locator(".ledger-payments li").first.get_by_role("button", name="Mark as paid").click()
    expect(page.get_by_text("Marked as paid:")).to_be_visible()
    assert Payment.objects.count() == 2

    # The season ledger and Anna's statement for November.
    page.goto(f"{base}/ledger/seasons/{season.pk}/")
    expect(page.get_by_role("heading", name="Season ledger")).to_be_visible()
    assert_fits_the_phone(page)
    expect(page.locator("#balances tfoot")).to_contain_text("0.00")
    shot(page, "ledger-season-en")
    anna = players[0]
    page.goto(f"{base}/ledger/seasons/{season.pk}/players/{anna.pk}/2026-11/")
    expect(page.get_by_role("heading", name="Statement of Anna")).to_be_visible()
    assert_fits_the_phone(page)
    expect(page.locator("tfoot")).to_contain_text(signed(money["Anna"]))
    shot(page, "ledger-statement-en")
    with page.expect_download() as download:
        page.get_by_role("link", name="Statement as CSV").click()
    assert download.value.suggested_filename == f"statement-{anna.pk}-2026-11.csv"
    # The payments are dated the day they were marked: that month's statement carries November in.
    paid = Payment.objects.earliest("paid_on").paid_on.strftime("%Y-%m")
    page.get_by_role("navigation", name="Months").get_by_role("link").last.click()
    expect(page).to_have_url(f"{base}/ledger/seasons/{season.pk}/players/{anna.pk}/{paid}/")
    settled = sum(p.amount for p in Payment.objects.filter(payer=anna)) - sum(
        p.amount for p in Payment.objects.filter(payee=anna)
    )
    expect(page.locator("tfoot")).to_contain_text(signed(money["Anna"] + settled))
    assert settled != 0  # Anna paid or was paid in the two payments marked above

    # Swedish and Czech.
    for lang, heading, statement in (("sv", "Kvällens uppgörelse", "Kontoutdrag för Anna"),
                                     ("cs", "Vyrovnání večera", "Výpis hráče Anna")):  # fmt: skip
        context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
        page.goto(f"{base}/ledger/nights/{night.pk}/")
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        shot(page, f"ledger-settlement-{lang}")
        assert_fits_the_phone(page)
        page.goto(f"{base}/ledger/seasons/{season.pk}/players/{anna.pk}/2026-11/")
        expect(page.get_by_role("heading", name=statement)).to_be_visible()
        shot(page, f"ledger-statement-{lang}")
        assert_fits_the_phone(page)
    context.close()


def sentences(page: Page) -> list[str]:
    return [text.strip() for text in page.locator(".ledger-payments .ledger-payment").all_inner_texts()]


@pytest.mark.parametrize("width", [360, 390])
def test_a_treasurer_reads_the_list_out_ticks_it_off_records_a_part_payment_and_locks_the_night(
    live_server, browser, browser_context_args, width, world
):
    _club, season, night, _players = world
    base = live_server.url
    context = browser.new_context(**{**browser_context_args, "viewport": {"width": width, "height": 780}})
    page = context.new_page()
    sign_in_browser(page, base, User.objects.get(username="alice"))
    page.goto(f"{base}/ledger/nights/{night.pk}/")
    read_out = sentences(page)
    assert len(read_out) == 4
    assert_fits_the_phone(page)
    shot(page, f"ledger-proposals-{width}")

    # The third one on the list paid by Swish: the others stay as they were read out.
    third = page.locator(".ledger-payments li").nth(2)
    third.get_by_label("How").select_option(label="Swish")
    third.get_by_role("button", name="Mark as paid").click()
    expect(page.get_by_text("How: Swish.")).to_be_visible()
    assert sentences(page) == read_out[:2] + read_out[3:]

    # The first payer hands over only part: recorded with the form, only that proposal changes.
    payer, rest = read_out[0].split(" pays ")
    payee, amount = rest.rsplit(" ", 1)
    form = page.locator("#record")
    form.get_by_label("Payer").select_option(label=payer)
    form.get_by_label("Payee").select_option(label=payer)  # a slip of the thumb
    form.get_by_label("Amount").fill("1.00")
    form.get_by_text("Swish").click()
    form.get_by_role("button", name="Record the payment").click()
    expect(page.get_by_text("Payee: A player cannot pay themselves.")).to_be_visible()
    assert_fits_the_phone(page)
    shot(page, f"ledger-record-refused-{width}")
    assert Payment.objects.count() == 1
    form = page.locator("#record")
    form.get_by_label("Payee").select_option(label=payee)
    form.get_by_role("button", name="Record the payment").click()
    expect(page.get_by_text(f"Marked as paid: {payer} paid {payee} 1.00. How: Swish.")).to_be_visible()
    left = Decimal(amount) - 1
    assert sentences(page) == [f"{payer} pays {payee} {left:.2f}", read_out[1], read_out[3]]

    # Ticked off to the end, then locked.
    while page.locator(".ledger-payments li button").count():
        page.locator(".ledger-payments li").first.get_by_role("button", name="Mark as paid").click()
        expect(page.get_by_text("Marked as paid:")).to_be_visible()
    page.get_by_role("button", name="Lock as settled").click()
    expect(page.get_by_role("heading", name="Settled — locked")).to_be_visible()
    expect(page.get_by_role("button", name="Remove")).to_have_count(0)
    assert_fits_the_phone(page)
    shot(page, f"ledger-locked-{width}")
    page.goto(f"{base}/ledger/seasons/{season.pk}/")
    expect(page.get_by_text("Settled — locked")).to_be_visible()
    assert_fits_the_phone(page)
    shot(page, f"ledger-season-record-{width}")
    context.add_cookies([{"name": "django_language", "value": "sv", "url": base}])
    page.goto(f"{base}/ledger/nights/{night.pk}/")
    expect(page.get_by_role("heading", name="Uppgjord — låst")).to_be_visible()
    assert_fits_the_phone(page)
    shot(page, f"ledger-locked-sv-{width}")
    context.close()
