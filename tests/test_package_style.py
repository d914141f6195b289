"""One style for the apps' packages: an app's `__init__.py` and every package's in it (views,
forms, selectors, services, and the others: `nights.planning`, `nights.settlement`,
`league.csv_io`, `league.imports`, `league.backup`, ...) hold a docstring only, and their modules
are imported by their full path (`from scoring.views import game`,
`from clubs.forms.roster import PlayerNameForm`, `from nights.planning.night import plan_night`),
so each name has one import path. A models package imports its modules (Django finds the models
there), and `scoring.rules` is being brought to the same style separately."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.test_import_direction import APPS

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("views", "forms", "selectors", "services")
#: Packages whose `__init__.py` is not the style's: a models package (Django imports the models
#: from it) and the rules engine, which is changed separately.
OTHERS = {"scoring/models/__init__.py", "scoring/rules/__init__.py"}


def _inits() -> list[str]:
    paths = [path for app in APPS for path in (ROOT / app).rglob("__init__.py")]
    names = {str(path.relative_to(ROOT)) for path in paths}
    return sorted(name for name in names - OTHERS if not {"migrations", "tests"} & set(name.split("/")))


def test_the_check_reads_every_package_of_the_apps():
    found = _inits()
    packages = ("nights/planning", "nights/settlement", "league/csv_io", "league/imports", "league/backup")
    assert all(f"{package}/__init__.py" in found for package in packages)


def _only_a_docstring(tree: ast.Module) -> bool:
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return not body


@pytest.mark.parametrize("init", _inits())
def test_a_package_init_holds_a_docstring_only(init):
    tree = ast.parse((ROOT / init).read_text())
    assert _only_a_docstring(tree), f"{init}: import the modules by their full path instead of re-exporting"


def test_the_check_finds_a_re_export():
    assert _only_a_docstring(ast.parse('"""Doc."""\n'))
    assert not _only_a_docstring(ast.parse('"""Doc."""\nfrom a.b import c\n__all__ = ["c"]\n'))
