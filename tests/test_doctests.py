"""The worked examples in the docstrings (`>>>`) are run: a docstring that says what a function
gives cannot drift from what it gives. Every module of the project with such an example is found
here, so a new one is run without being listed."""

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIPPED = {".venv", "tests", "migrations", "bench", "node_modules"}


def _modules_with_examples() -> list[str]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if SKIPPED.intersection(parts) or path.name.startswith("test_"):
            continue
        if ">>> " in path.read_text(encoding="utf-8"):
            found.append(".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"))
    return found


MODULES = _modules_with_examples()


def test_the_modules_with_examples_are_found():
    assert "scoring.rules.tables" in MODULES and "core.spreadsheet" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_give_what_they_say(name):
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert results.attempted > 0 and results.failed == 0
