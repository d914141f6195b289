"""The preview of a hand in words: counts take the plural form of the language, and one player on
their own (three or two at the table) is spoken of in the singular, a partnership in the plural."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from scoring.rules.engine import GameResult, check_record
from scoring.selectors.preview import describe
from scoring.templatetags.scoring_tags import sides_whole


def preview(lang: str, record: dict[str, Any], bid: int) -> list[str]:
    result: GameResult = check_record(record)
    with translation.override(lang):
        return describe(result, 1, {"bid": bid})


def three_players(bid: int, meld: int, tricks: int) -> dict[str, Any]:
    others = (25 - tricks) // 2
    return {
        "seats": 3,
        "hands": [
            {
                "bidder": "N",
                "bid": bid,
                "meld_points": {"N": meld, "E": 0, "S": 0},
                "tricks": {"N": tricks, "E": others, "S": 25 - tricks - others},
            }
        ],
    }


def partners(bid: int, meld: int, tricks: int) -> dict[str, Any]:
    return {
        "hands": [
            {
                "bidder": "N",
                "bid": bid,
                "meld_points": {"NS": meld, "EW": 0},
                "tricks": {"NS": tricks, "EW": 25 - tricks},
            }
        ]
    }


@pytest.mark.parametrize(
    ("lang", "meld", "needed"),
    [
        ("cs", 19, "S–J potřebovali 1 bod ze zdvihů"),
        ("cs", 17, "S–J potřebovali 3 body ze zdvihů"),
        ("cs", 10, "S–J potřebovali 10 bodů ze zdvihů"),
        ("en", 19, "N–S needed 1 trick point (bid 20 − meld 19); they took"),
        ("en", 17, "N–S needed 3 trick points (bid 20 − meld 17); they took"),
        ("sv", 19, "N–S behövde 1 stickpoäng"),
    ],
)
def test_the_trick_points_needed_take_the_plural_form_of_the_count(lang, meld, needed):
    assert preview(lang, partners(20, meld, 15), 20)[1].startswith(needed)


@pytest.mark.parametrize(
    ("lang", "bid", "expected"),
    [
        ("en", 20, ["N makes 20: +25", "N needed 10 trick points (bid 20 − meld 10) and took 15."]),
        ("en", 30, ["N is set on 30: -30", "N needed 20 trick points (bid 30 − meld 10) and took 15."]),
        (
            "cs",
            20,
            [
                "S splnil nabídku 20: +25",
                "S potřeboval 10 bodů ze zdvihů (nabídka 20 − hlášky 10) a získal 15.",
            ],
        ),
        (
            "cs",
            30,
            [
                "S nesplnil nabídku 30: -30",
                "S potřeboval 20 bodů ze zdvihů (nabídka 30 − hlášky 10) a získal 15.",
            ],
        ),
    ],
)
def test_one_player_on_their_own_is_spoken_of_in_the_singular(lang, bid, expected):
    lines = preview(lang, three_players(bid, 10, 15), bid)
    assert lines[0].startswith(expected[0])
    assert lines[1] == expected[1]


def test_a_partnership_is_spoken_of_in_the_plural():
    assert preview("cs", partners(30, 10, 15), 30)[0].startswith("S–J nesplnili nabídku 30: -30")
    assert preview("en", partners(30, 10, 15), 30)[0].startswith("N–S are set on 30: -30")


@pytest.mark.parametrize(
    ("lang", "line", "drawn"),
    [
        (
            "cs",
            "Stav po rozdání: S–J 35 · V–Z 20",
            'Stav po rozdání: <span class="side-short">S–J</span> 35 · '
            '<span class="side-short">V–Z</span> 20',
        ),
        ("sv", "Ö–V +20 · <b>", '<span class="side-short">Ö–V</span> +20 · &lt;b&gt;'),
        ("en", "N makes 27: +36", "N makes 27: +36"),
    ],
)
def test_a_preview_line_keeps_each_partnerships_label_whole(lang: str, line: str, drawn: str):
    with translation.override(lang):
        assert sides_whole(line) == drawn
