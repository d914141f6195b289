"""One style for the apps' packages: an app's `__init__.py` and its views, forms, selectors and
services packages hold a docstring only, and their modules are imported by their full path
(`from scoring.views import game`, `from clubs.forms.roster import PlayerNameForm`), so each name
has one import path."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.test_import_direction import APPS

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("views", "forms", "selectors", "services")


def _inits() -> list[str]:
    paths = [ROOT / app / "__init__.py" for app in APPS]
    paths += [ROOT / app / layer / "__init__.py" for app in APPS for layer in LAYERS]
    return sorted(str(path.relative_to(ROOT)) for path in paths if path.exists())


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
