"""The apps import one way: `core` (the plumbing: strict input, number fields, spreadsheet-safe CSV,
look-alike names), `throttles` (the client's address and the one counter of every throttle) and
`backups` know no app and every app may use them; accounts and clubs know no other app, scoring
knows clubs, ratings clubs and scoring, league clubs, scoring and ratings, nights clubs and
scoring, the ledger nights, scoring and clubs (docs/architecture.md). Read from the source with
`ast`, so a new import against the direction fails here before it makes a cycle; reverse relations
and private names are read the same way."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = [
    "core",
    "backups",
    "throttles",
    "accounts",
    "clubs",
    "scoring",
    "ratings",
    "league",
    "nights",
    "ledger",
]
# What each app's code (tests and migrations aside) may import of the others. `core`, `throttles`
# and `backups` (the backup file's rows and the order of its parts) import no app; every app may
# use them (a part of a backup, `throttles/backup.py`, names `backups.parts` only).
BASE = {"core", "backups", "throttles"}
ALLOWED = {
    "core": set(),
    "backups": set(),
    "throttles": {"backups"},
    "accounts": BASE,
    "clubs": BASE,
    "scoring": BASE | {"clubs"},
    "ratings": BASE | {"clubs", "scoring"},
    "league": BASE | {"clubs", "scoring", "ratings"},
    "nights": BASE | {"clubs", "scoring"},
    # The chip ledger reads nights and their games.
    "ledger": BASE | {"clubs", "scoring", "nights"},
}


# In these apps, these modules stay plain Python (no Django, no app): the rating maths and chart,
# the draw and the chip settlement of a club night, the ledger's arithmetic.
PLAIN_MODULES = [
    "ratings/compute.py",
    "ratings/insight.py",
    "ratings/svg.py",
    "nights/planning/__init__.py",
    "nights/planning/plan.py",
    "nights/planning/rounds.py",
    "nights/planning/night.py",
    "nights/settlement/__init__.py",
    "nights/settlement/chips.py",
    "nights/settlement/payments.py",
    "ledger/compute.py",
]


def _parse_app(app: str) -> list[tuple[Path, ast.Module]]:
    """The app's modules (tests and migrations aside), parsed."""
    return [
        (path, ast.parse(path.read_text(), filename=str(path)))
        for path in sorted((ROOT / app).rglob("*.py"))
        if path.relative_to(ROOT / app).parts[0] not in ("tests", "migrations")
    ]


# Parsed once, when pytest collects this file: Python 3.11.7's ast.parse can fail with "AST
# constructor recursion depth mismatch" when it runs in a thread that earlier tests left with a
# changed recursion limit (hypothesis raises it while it draws examples), and collection comes
# before them. Every check below reads these trees, never parses again.
PARSED = {app: _parse_app(app) for app in APPS}


def _read_app_imports(app: str) -> list[tuple[str, int, str]]:
    found = []
    for path, tree in PARSED[app]:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            found += [(str(path.relative_to(ROOT)), node.lineno, module) for module in modules]
    return found


IMPORTS = {app: _read_app_imports(app) for app in APPS}


def _app_imports(app: str) -> list[tuple[str, int, str]]:
    return IMPORTS[app]


@pytest.mark.parametrize("app", APPS)
def test_an_app_imports_only_the_apps_below_it(app):
    others = set(APPS) - {app}
    wrong = [
        f"{path}:{line} imports {module}"
        for path, line, module in _app_imports(app)
        if module.split(".")[0] in others - ALLOWED[app]
    ]
    assert not wrong, (
        'imports against the direction (docs/architecture.md, "Which app may import which"):\n'
        + "\n".join(wrong)
    )


@pytest.mark.parametrize("app", APPS)
def test_no_app_imports_the_site_package(app):
    wrong = [
        f"{path}:{line} imports {module}"
        for path, line, module in _app_imports(app)
        if module.split(".")[0] == "pinochle_site"
    ]
    assert not wrong, (
        "the apps do not import pinochle_site (settings come through django.conf):\n" + "\n".join(wrong)
    )


def test_no_model_is_patched_from_outside_its_class():
    uses = [
        f"{path.relative_to(ROOT)}"
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "add_to_class" in path.read_text() and "tests" not in path.parts
    ]
    assert not uses, f"declare fields in the model's class body: {uses}"


@pytest.mark.parametrize("module_path", PLAIN_MODULES)
def test_the_plain_modules_import_no_django_and_no_app(module_path):
    plain = {path.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for path in PLAIN_MODULES}
    wrong = [
        f"{path}:{line} imports {module}"
        for path, line, module in _app_imports(module_path.split("/")[0])
        if path == module_path
        and (module.split(".")[0] in {"django", "pinochle_site", *APPS} and module not in plain)
    ]
    assert not wrong, "plain data in, plain data out:\n" + "\n".join(wrong)


# --- what the imports do not show: reverse relations and private names --------------------------

# A model of a lower app is reached from a higher one by a string reference (`"clubs.Player"`), and
# Django gives the lower model a reverse accessor (`player.night_entries`) and a query name
# (`night_table__night__finished_at`) for it. Used from the lower app, they write or read the
# higher app's tables while the imports look clean; the owner's service, selector or a signal it
# receives does that instead.
QUERY_METHODS = {"filter", "exclude", "get", "values", "values_list", "select_related", "prefetch_related"}
QUERY_METHODS |= {
    "order_by",
    "annotate",
    "only",
    "defer",
    "update",
    "getattr",
    "hasattr",
    "F",
    "Q",
    "Prefetch",
}


def _reverse_names() -> dict[str, dict[str, str]]:
    """For each app, the names of reverse relations into apps it may not import, with that app."""
    from django.apps import apps as registry
    from django.db.models import ForeignObjectRel

    def app_of(model) -> str:
        label: str = model._meta.app_label
        return label

    names: dict[str, set[str]] = {app: set() for app in APPS}  # names an app may use on its own rows
    foreign: list[tuple[str, str]] = []  # (name, the app of the model holding the relation)
    for model in registry.get_models():
        for field in model._meta.get_fields():
            if not field.auto_created or field.concrete:  # a field the model declares
                if app_of(model) in names:
                    names[app_of(model)].add(field.name)
                continue
            assert isinstance(field, ForeignObjectRel)  # what Django makes for the far side of a relation
            owner = app_of(field.related_model)
            for name in {field.get_accessor_name(), field.name}:
                if name and not name.endswith("+"):
                    foreign.append((name, owner))
                    if owner in names:
                        names[owner].add(name)
    found: dict[str, dict[str, str]] = {app: {} for app in APPS}
    for app in APPS:
        usable = names[app].union(*(names[other] for other in ALLOWED[app] if other in names))
        for name, owner in foreign:
            if owner in APPS and owner != app and owner not in ALLOWED[app] and name not in usable:
                found[app][name] = " or ".join(
                    sorted({owner, *found[app].get(name, "").split(" or ")} - {""})
                )
    return found


def _reverse_uses(app: str, reverse: dict[str, str]) -> list[str]:
    wrong = []
    for path, tree in PARSED[app]:
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in reverse:
                wrong.append(f"{where}:{node.lineno} .{node.attr} is {reverse[node.attr]}'s")
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            method = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else ""
            )
            if method not in QUERY_METHODS:
                continue
            lookups = [kw.arg for kw in node.keywords if kw.arg]
            lookups += [
                arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            ]
            for lookup in lookups:
                first = lookup.lstrip("-").split("__")[0]
                if first in reverse:
                    wrong.append(f"{where}:{node.lineno} {lookup!r} reaches {reverse[first]}'s rows")
    return wrong


@pytest.mark.parametrize("app", APPS)
def test_an_app_reaches_no_table_of_an_app_above_it_through_a_reverse_relation(app):
    wrong = _reverse_uses(app, _reverse_names()[app])
    assert not wrong, (
        "a reverse relation into an app this one may not import (call the owner's service or "
        "selector, or send a signal it receives):\n" + "\n".join(wrong)
    )


def _private_uses(app: str) -> list[str]:
    wrong = []
    others = set(APPS) - {app}
    for path, tree in PARSED[app]:
        where = path.relative_to(ROOT)
        modules: set[str] = set()  # local names bound to another app's modules
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] not in others:
                    continue
                parts = node.module.split(".")
                for alias in node.names:
                    if any(part.startswith("_") for part in [*parts, alias.name]):
                        wrong.append(f"{where}:{node.lineno} imports {node.module}.{alias.name}")
                    modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] in others:
                        if any(part.startswith("_") for part in alias.name.split(".")):
                            wrong.append(f"{where}:{node.lineno} imports {alias.name}")
                        modules.add(alias.asname or alias.name.split(".")[0])
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and node.attr != "_meta"  # Django's documented Model._meta API
            ):
                wrong.append(f"{where}:{node.lineno} uses {node.value.id}.{node.attr}")
    return wrong


@pytest.mark.parametrize("app", APPS)
def test_an_app_uses_no_private_name_of_another(app):
    wrong = _private_uses(app)
    assert not wrong, (
        "a name starting with _ is its module's own; make it public or call the owner:\n" + "\n".join(wrong)
    )
