"""The rules page explains the ledger in English, Swedish and Czech, and its worked example is what
the settlement actually proposes."""

import pytest
from django.test import Client

from nights.settlement.payments import fewest_payments
from tests.helpers import text

pytestmark = pytest.mark.django_db


def test_the_worked_example_on_the_rules_page_is_what_the_ledger_proposes():
    anna, bo, cleo, dan, eva = 1, 2, 3, 4, 5
    names = {anna: "Anna", bo: "Bo", cleo: "Cleo", dan: "Dan", eva: "Eva"}
    payments = fewest_payments({anna: 12, bo: -12, cleo: 5, dan: -3, eva: -2})
    sentences = [f"{names[p.payer]} pays {names[p.payee]} {p.amount}" for p in payments]
    page = text(Client().get("/rules/"))
    assert "Example: Anna +12, Bo −12, Cleo +5, Dan −3, Eva −2." in page
    assert "three payments settle the night: " + ", ".join(sentences) + "." in page
    assert len(payments) == 3


@pytest.mark.parametrize(
    ("lang", "heading", "rule"),
    [
        ("en", "The chip ledger", "each partner of a side collects or pays the side's chips in full"),
        ("sv", "Markboken", "får eller betalar varje partner sin sidas marker fullt ut"),
        ("cs", "Kniha žetonů", "každý z partnerů strany inkasuje nebo platí celé žetony své strany"),
    ],
)
def test_the_ledger_rules_are_on_the_rules_page_in_every_language(lang, heading, rule):
    client = Client()
    client.cookies["django_language"] = lang
    page = text(client.get("/rules/"))
    assert heading in page
    assert rule in page
    assert 'href="#ledger"' in client.get("/rules/").content.decode()
