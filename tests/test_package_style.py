"""One style for the apps' packages: an app's `__init__.py` and every package inside it (its
views, forms, selectors and services, the rules engine, the night's draw and settlement, the
league's files, imports and backups, …) hold a docstring only, and their modules are imported by
their full path (`from scoring.views import game`, `from scoring.rules.melds import meld_sum`), so
each name has one import path.

The one exception is `scoring/models/`: Django finds an app's models by importing `<app>.models`,
so that package imports its model modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.test_import_direction import APPS

ROOT = Path(__file__).resolve().parents[1]
#: Packages whose `__init__.py` must import their modules (Django reads an app's models there).
MODELS_PACKAGES = {"scoring/models/__init__.py"}


def _inits() -> list[str]:
    paths = [path for app in APPS for path in (ROOT / app).rglob("__init__.py")]
    names = {str(path.relative_to(ROOT)) for path in paths}
    return sorted(name for name in names if not {"tests", "migrations"} & set(name.split("/")))


def test_every_package_of_the_apps_is_checked():
    engine_and_plain = ("scoring/rules", "nights/planning", "nights/settlement")
    league_files = ("league/csv_io", "league/imports")
    for package in (*engine_and_plain, *league_files, "scoring/views", "scoring"):
        assert f"{package}/__init__.py" in _inits()


def test_the_models_package_is_where_django_reads_the_models():
    assert set(_inits()) >= MODELS_PACKAGES


def _only_a_docstring(tree: ast.Module) -> bool:
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return not body


@pytest.mark.parametrize("init", sorted(set(_inits()) - MODELS_PACKAGES))
def test_a_package_init_holds_a_docstring_only(init):
    tree = ast.parse((ROOT / init).read_text())
    assert _only_a_docstring(tree), f"{init}: import the modules by their full path instead of re-exporting"


def test_the_check_finds_a_re_export():
    assert _only_a_docstring(ast.parse('"""Doc."""\n'))
    assert not _only_a_docstring(ast.parse('"""Doc."""\nfrom a.b import c\n__all__ = ["c"]\n'))
