"""The rules page describes every house rule with a worked example the engine scored, in
English, Swedish and Czech."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.rules.rules_page import house_rule_examples
from tests.helpers import text


def rules_text(lang: str) -> str:
    response = Client().get("/rules/", headers={"Accept-Language": lang})
    assert response.status_code == 200
    return text(response)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["House rules", "Tens above 100", "Meld counts from", "Winning spread", "Points ×10"]),
        ("sv", ["Husregler", "Tiotal över 100", "Melding räknas från", "Segermarginal", "Poäng ×10"]),
        ("cs", ["Domácí pravidla", "Po desítkách nad 100", "Hlášky platí od", "Vítězný náskok", "Body ×10"]),
    ],
)
def test_each_house_rule_has_its_paragraph_in_every_language(lang, words):
    page = rules_text(lang)
    for word in words:
        assert word in page, word


def test_the_examples_are_the_engines_figures_in_every_language():
    examples = house_rule_examples()
    tens, board, scale = examples["tens"], examples["board"], examples["scale"]
    bids = tens["bids"]
    assert isinstance(bids, list)
    for lang in ("en", "sv", "cs"):
        page = rules_text(lang)
        assert ", ".join(str(bid) for bid in bids) in page
        assert f"{board['ns_points']}" in page and f"+{board['plain_ns']}" in page
        assert f"+{scale['ns_points']}" in page and f"{scale['ns_to_go']}" in page
    english = rules_text("en")
    assert "a bid of 270, and N–S's trick points as 150." in english
    assert "they are set, -55" in english
    assert "after hand 2 N–S have 75 and E–W 25, a lead of 50: N–S win." in english
    assert "S–J +360" in rules_text("cs") and "N–S +360" in rules_text("sv")
