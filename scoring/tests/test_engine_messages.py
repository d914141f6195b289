"""Engine errors in the player's language: every code the engine raises has a translated sentence."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

from scoring.engine_messages import MESSAGES, engine_line, engine_message
from scoring.rules import RecordError, score_record

RULES = Path(__file__).resolve().parents[2] / "scoring" / "rules"


def _strings(node: ast.expr) -> set[str]:
    """The string constants an expression can evaluate to (a constant or an `a if c else b`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    return set()


def raised_codes() -> tuple[set[str], list[str]]:
    """The codes of every RecordError and MeldProblem built in scoring/rules/, and calls without one."""
    codes: set[str] = set()
    without: list[str] = []
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            where = f"{path.name}:{node.lineno}"
            if node.func.id == "RecordError":
                code = next((k.value for k in node.keywords if k.arg == "code"), None)
                if code is None:
                    without.append(where)
                else:
                    found = _strings(code)
                    # melds.py passes a MeldProblem's code on: getattr(problem, "code", "invalid").
                    if not found and isinstance(code, ast.Call):
                        found = {
                            a.value for a in code.args if isinstance(a, ast.Constant) and a.value != "code"
                        }
                    codes |= found
            elif node.func.id == "MeldProblem" and len(node.args) >= 2:
                codes |= _strings(node.args[1])
    return codes, without


def test_every_raise_site_names_a_code():
    codes, without = raised_codes()
    assert without == [], f"RecordError without a code at {without}"
    assert len(codes) > 35


def test_every_code_the_engine_raises_has_a_translated_sentence():
    codes, _ = raised_codes()
    missing = sorted(codes - set(MESSAGES))
    assert missing == [], f"codes without a sentence in scoring/engine_messages.py: {missing}"


def error_of(record: dict) -> RecordError:
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
        assert engine_message(error_of(slam)).startswith("S–J ")


def test_an_unknown_code_falls_back_to_the_english_sentence():
    error = RecordError("tricks: something new", field="tricks", hand=2, code="brand_new")
    with translation.override("cs"):
        assert engine_message(error) == "Something new"
        assert engine_line(error) == "Rozdání 2: Something new"
    with translation.override("en"):
        assert engine_line(error) == "hand 2: tricks: something new"
