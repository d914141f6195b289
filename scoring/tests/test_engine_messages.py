"""Engine errors in the player's language: every code the engine raises has a translated sentence."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import polib
import pytest
from django.utils import translation

from scoring.engine_messages import CARD_NAMES, MESSAGES, PLURAL_MESSAGES, engine_line, engine_message
from scoring.rules.deck import _CARDS
from scoring.rules.engine import score_record
from scoring.rules.errors import MESSAGES as ENGINE_MESSAGES
from scoring.rules.errors import Plural, RecordError, sentence

RULES = Path(__file__).resolve().parents[2] / "scoring" / "rules"
LOCALE = Path(__file__).resolve().parents[2] / "locale"


def _strings(node: ast.expr, names: dict[str, set[str]]) -> set[str]:
    """The string constants an expression can evaluate to: a constant, an `a if c else b`, or a
    local name assigned one of those in the same function."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body, names) | _strings(node.orelse, names)
    if isinstance(node, ast.Name):
        return names.get(node.id, set())
    return set()


def raised_codes() -> tuple[set[str], list[str]]:
    """The codes of every `RecordError.of(...)` and `MeldProblem(...)` in scoring/rules/, and the
    places that build a RecordError another way or with a code that is not spelled out."""
    codes: set[str] = set()
    odd: list[str] = []
    for path in sorted(RULES.glob("*.py")):
        for function in ast.walk(ast.parse(path.read_text())):
            if not isinstance(function, ast.FunctionDef):
                continue
            names: dict[str, set[str]] = {}
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.Assign)
                    and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                ):
                    names.setdefault(node.targets[0].id, set()).update(_strings(node.value, {}))
            for node in ast.walk(function):
                if not isinstance(node, ast.Call):
                    continue
                where = f"{path.name}:{node.lineno}"
                func = node.func
                if isinstance(func, ast.Name) and func.id == "RecordError":
                    odd.append(where)  # built without the table
                elif (isinstance(func, ast.Attribute) and func.attr == "of") or (
                    isinstance(func, ast.Name) and func.id == "MeldProblem"
                ):
                    found = _strings(node.args[0], names)
                    # melds.py passes a MeldProblem's code on to RecordError.of(problem.code, ...).
                    passed_on = isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "code"
                    if not found and not passed_on:
                        odd.append(where)
                    codes |= found
    return codes, odd


def test_every_error_the_engine_raises_takes_its_sentence_from_the_table():
    codes, odd = raised_codes()
    assert odd == [], f"RecordError built without a code from the table at {odd}"
    assert sorted(codes - set(ENGINE_MESSAGES)) == []
    assert sorted(set(ENGINE_MESSAGES) - codes) == [], "codes in the table that nothing raises"
    assert len(codes) > 35


@pytest.mark.parametrize("lang", ["sv", "cs"])
def test_every_code_in_the_table_has_a_translated_sentence_and_no_other(lang):
    po = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))
    from_table = {e.msgid for e in po if any(f == "scoring/rules/errors.py" for f, _line in e.occurrences)}
    assert from_table == {m for m in ENGINE_MESSAGES.values() if isinstance(m, str)}
    assert set(MESSAGES) == set(ENGINE_MESSAGES)
    plurals = {code for code, message in ENGINE_MESSAGES.items() if isinstance(message, Plural)}
    assert set(PLURAL_MESSAGES) == plurals
    with translation.override(lang):
        untranslated = [
            code
            for code, message in MESSAGES.items()
            if code not in plurals and str(message) == ENGINE_MESSAGES[code]
        ]
    assert untranslated == []


@pytest.mark.parametrize("count", [1, 2, 5])
def test_the_plural_sentences_say_in_english_what_the_engine_says(count):
    """`PLURAL_MESSAGES` repeats the English of the engine's `Plural` sentences (the catalogues
    take their msgids from there): both must read the same for one and for more."""
    for code, message in PLURAL_MESSAGES.items():
        plural = ENGINE_MESSAGES[code]
        assert isinstance(plural, Plural)
        params = {"seat": "N", "max": count, "total": 9, "expected": count, "side": "NS"}
        params |= {"points": count, "name": "melds.N", "count": count}
        with translation.override("en"):
            assert str(message % params) == sentence(code, params), code


def test_every_card_of_the_deck_check_has_a_name():
    assert set(CARD_NAMES) == set(_CARDS)


@pytest.mark.parametrize(
    ("lang", "need", "expected"),
    [
        ("en", 3, "The melds need 3 trump kings, but the deck has only 2"),
        ("sv", 3, "Meldingarna kräver 3 trumfkungar, men leken har bara 2."),
        ("cs", 3, "Hlášky potřebují 3 trumfové krále, ale balíček jich má jen 2."),
        ("cs", 5, "Hlášky potřebují 5 trumfových králů, ale balíček jich má jen 2."),
    ],
)
def test_the_deck_check_names_the_cards_in_the_number_of_the_count(lang, need, expected):
    error = RecordError.of(
        "deck_short", field="melds", hand=1, need=need, card="trump king", cards="trump kings", capacity=2
    )
    with translation.override(lang):
        assert engine_message(error) == expected


def error_of(record: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as caught:
        score_record(record)
    return caught.value


CHECK = {"variant": "check", "players": {"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "Dan"}}
TRICKS_OFF = {
    **CHECK,
    "hands": [
        {
            "bidder": "N",
            "bid": 25,
            "trump": "hearts",
            "melds": {"N": ["trump_marriage"]},
            "tricks": {"NS": 20, "EW": 4},
        }
    ],
}
LOW_BID = {"hands": [{"bidder": "N", "bid": 15, "tricks": {"NS": 20, "EW": 5}}]}


def test_the_error_keeps_its_english_message_and_gains_code_and_params():
    error = error_of(TRICKS_OFF)
    assert str(error) == "hand 1: tricks add up to 24, expected 25"
    assert (error.code, error.params, error.field) == (
        "tricks_total",
        {"total": 24, "expected": 25},
        "tricks",
    )


@pytest.mark.parametrize(
    ("lang", "record", "expected"),
    [
        ("en", TRICKS_OFF, "Tricks add up to 24, expected 25"),
        ("cs", TRICKS_OFF, "Body ze zdvihů dávají dohromady 24; musí dát 25."),
        ("sv", TRICKS_OFF, "Stickpoängen blir tillsammans 24; de ska bli 25."),
        ("en", LOW_BID, "Bid 15 is below the minimum bid of 20"),
        ("cs", LOW_BID, "Nabídka 15 je nižší než nejnižší nabídka 20."),
        ("sv", LOW_BID, "Budet 15 är lägre än lägsta bud, 20."),
    ],
)
def test_it_says_it_in_the_players_language(lang, record, expected):
    with translation.override(lang):
        assert engine_message(error_of(record)) == expected


def test_seats_sides_and_melds_are_named_in_the_language():
    no_marriage = {
        **CHECK,
        "hands": [{"bidder": "E", "bid": 25, "trump": "hearts", "tricks": {"NS": 5, "EW": 20}}],
    }
    with translation.override("cs"):
        assert "trumfový mariáš" in engine_message(error_of(no_marriage))
    nines = {
        "deck": "double",
        "hands": [{"bidder": "N", "bid": 50, "melds": {"N": ["trump_marriage", "dix"]}}],
    }
    with translation.override("cs"):
        assert engine_message(error_of(nines)) == (
            "Dix (trumfová devítka) není hláška s dvojitým balíčkem (je jen v jednoduchém)."
        )
    slam = {
        "hands": [
            {"bidder": "N", "bid": 20, "tricks": {"NS": 20, "EW": 5}, "tricks_won": {"NS": 12, "EW": 0}}
        ]
    }
    with translation.override("sv"):
        assert engine_message(error_of(slam)).startswith("N–S tog alla stick")
    with translation.override("cs"):
        assert engine_message(error_of(slam)).startswith("Strana S–J vzala")


def test_an_unknown_code_falls_back_to_the_english_sentence():
    error = RecordError("tricks: something new", field="tricks", hand=2, code="brand_new")
    with translation.override("cs"):
        assert engine_message(error) == "Something new"
        assert engine_line(error) == "Rozdání 2: Something new"
    with translation.override("en"):
        assert engine_line(error) == "hand 2: tricks: something new"
