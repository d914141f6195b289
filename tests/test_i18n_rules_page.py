"""The Rules page in English, Swedish and Czech: nothing left in English, numbers from the engine."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from scoring.rules import tables
from scoring.rules.rules_page import contract_bands, meld_table_rows
from tests.i18n_helpers import text_segments, wordy

# Words every language writes the same way: the game's name, the switcher's own language names,
# and the Swedish and Czech seed pages keep "slam" (and Swedish keeps "Check Pinochle").
SAME_IN = {
    "sv": {"Pinochle", "English", "Svenska", "Čeština", "Check Pinochle", "Check Pinochle:", "3. Slam"},
    "cs": {"Pinochle", "English", "Svenska", "Čeština", "3. Slam"},
}


def rules_html(lang: str | None = None, *, via: str = "header") -> str:
    client = Client()
    headers = {}
    if lang and via == "header":
        headers["Accept-Language"] = lang
    elif lang:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get("/rules/", headers=headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture(scope="module")
def english() -> set[str]:
    return wordy(text_segments(rules_html("en")))


def test_it_explains_the_rules_in_english(english):
    assert {"Rules", "Bidding", "Roundhouse", "Contract chips", "End of the game"} <= english
    assert len(english) > 80  # the whole rule book, not a stub


@pytest.mark.parametrize("via", ["header", "cookie"])
@pytest.mark.parametrize("lang", ["sv", "cs"])
def test_it_leaves_no_english_in_the_translated_page(english, lang, via):
    html = rules_html(lang, via=via)
    assert f'<html lang="{lang}">' in html
    leftovers = (english & wordy(text_segments(html))) - SAME_IN[lang]
    assert leftovers == set(), f"English left on the {lang} page: {sorted(leftovers)}"


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "sv",
            ["Budgivning", "Meldingar", "Rundresa", "äktenskap", "Stick", "trumf", "marker", "budvinnaren"],
        ),
        ("cs", ["Dražba", "Hlášky", "Okruh", "mariáš", "Zdvihy", "trumf", "žeton", "dražitel", "postupka"]),
    ],
)
def test_it_uses_the_card_terms_of_the_seed_pages(lang, words):
    html = rules_html(lang)
    for word in words:
        assert word in html, word


def test_it_builds_the_meld_table_from_the_engine():
    rows = meld_table_rows()
    assert len(rows) == len(tables.MELD_ITEMS)
    for row, item in zip(rows, tables.MELD_ITEMS.values(), strict=True):
        assert (row.single, row.double) == (item.single, item.double)
        assert row.chips == (item.chips if item.single is not None else None)


def test_it_shows_every_meld_with_its_points_and_chips():
    html = rules_html("en")
    assert html.count('<th scope="row">') >= len(tables.MELD_ITEMS)
    assert "Double run" in html and ">150<" in html
    assert ">225<" in html  # a triple run, double deck only


def test_it_groups_bids_by_the_contract_chips_they_pay():
    bands = contract_bands(49)
    assert [(b.low, b.high, b.made) for b in bands[:3]] == [(None, 24, 2), (25, 29, 4), (30, 34, 7)]
    for band in bands:
        low = band.low or tables.default_min_bid("single")
        assert all(tables.contract_chips(bid) == band.made for bid in range(low, band.high + 1))
        assert band.set == 2 * band.made


def test_it_shows_the_chip_table_with_the_defenders_doubled():
    segments = text_segments(rules_html("en"))
    assert "up to 24" in segments
    index = segments.index("30–34")
    assert segments[index + 1 : index + 3] == ["7 chips", "14 chips"]


@pytest.mark.parametrize(
    ("lang", "date", "factor", "million"),
    [
        ("en", "29 November 2026", "worth 1.5 and 2 times", "1,000,000"),
        ("sv", "29 november 2026", "värda 1,5 respektive 2 gånger", "1\xa0000\xa0000"),
        ("cs", "29. listopadu 2026", "čtveřice 1,5násobek a čtyřnásobná 2násobek", "1\xa0000\xa0000"),
    ],
)
def test_it_formats_dates_and_numbers_for_the_language(lang, date, factor, million):
    html = rules_html(lang)
    assert date in html
    assert factor in html
    assert million in html


def test_it_scores_the_worked_example_with_the_engine():
    """docs/rules.md, "Worked example", hand 1: NS made 27 with 21 + 15 = 36, EW 20; chips +4 / −4."""
    segments = text_segments(rules_html("en"))
    start = segments.index("The hand as the app scores it")
    table = segments[start : start + 30]
    for label, values in [
        ("Meld points", ["21", "10"]),
        ("Trick points", ["15", "10"]),
        ("Points for the hand", ["+36", "+20"]),
        ("Meld chips", ["2", "2"]),
        ("Contract chips", ["4", "0"]),
        ("Chips for the hand", ["+4", "-4"]),
    ]:
        index = table.index(label)
        assert table[index + 1 : index + 3] == values, label


def test_the_ratings_and_settlement_numbers_come_from_their_owners(monkeypatch):
    """The page states the ratings' constants and the settlement's exact limit as their apps set
    them: change one there and the page follows (the template types none of them)."""
    from nights.settlement import payments
    from ratings import compute

    monkeypatch.setattr(compute, "MU", 30.0)
    monkeypatch.setattr(compute, "SIGMA", 10.0)
    monkeypatch.setattr(compute, "DISPLAY_BASE", 1500)
    monkeypatch.setattr(compute, "DISPLAY_SCALE", 40)
    monkeypatch.setattr(payments, "EXACT_LIMIT", 17)
    text = " ".join(text_segments(rules_html("en")))
    assert "starting at 30 and 10.00" in text
    assert "1500 + 40 × (μ − 3σ), so a newcomer starts at 1500" in text
    assert "exact minimum for up to 17 players" in text
    sv = " ".join(text_segments(rules_html("sv")))
    assert "från början 30 och 10,00" in sv and "upp till 17 spelare" in sv
    cs = " ".join(text_segments(rules_html("cs")))
    assert "na začátku 30 a 10,00" in cs and "Pro nejvýše 17 hráčů" in cs


@pytest.mark.parametrize(
    "lang, expected",
    [
        ("en", ["starting at 25 and 8.33", "1000 + 20 × (μ − 3σ)", "up to 20 players"]),
        ("sv", ["från början 25 och 8,33", "1000 + 20 × (μ − 3σ)", "upp till 20 spelare"]),
        ("cs", ["na začátku 25 a 8,33", "1000 + 20 × (μ − 3σ)", "Pro nejvýše 20 hráčů"]),
    ],
)
def test_the_ratings_and_settlement_numbers_read_as_before(lang, expected):
    text = " ".join(text_segments(rules_html(lang)))
    for phrase in expected:
        assert phrase in text
