"""Chip counts take the plural form of the language: 1 žeton, 2 žetony, 5 žetonů."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation


def chips(n: int, lang: str) -> str:
    with translation.override(lang):
        return render_to_string("_chip_count.html", {"n": n})


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("cs", {0: "0 žetonů", 1: "1 žeton", 2: "2 žetony", 4: "4 žetony", 5: "5 žetonů", 22: "22 žetonů"}),
        ("sv", {1: "1 mark", 2: "2 marker", 5: "5 marker"}),
        ("en", {1: "1 chip", 2: "2 chips", 5: "5 chips"}),
    ],
)
def test_it_counts_chips_in_the_language(lang, expected):
    assert {n: chips(n, lang) for n in expected} == expected


def test_the_czech_rules_page_uses_all_three_forms():
    html = Client().get("/rules/", headers={"Accept-Language": "cs"}).content.decode()
    for form in ("1 žeton<", "2 žetony<", "5 žetonů<"):
        assert form in html, form
