"""The apps import one way: `backups` knows no app and every app may use it; accounts knows no other
app, clubs only accounts' look-alike check and limiter, scoring knows clubs, league knows clubs and scoring,
nights knows clubs and scoring, the ledger knows nights, league, scoring and clubs
(docs/architecture.md). Read from the source with
`ast`, so a new import against the direction fails here before it makes a cycle."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = ["backups", "accounts", "clubs", "scoring", "ratings", "league", "nights", "ledger"]
# What each app's code (tests and migrations aside) may import of the others. `backups` (the backup
# file's rows and the order of its parts) imports no app; every app's backup.py imports it.
ALLOWED = {
    "backups": set(),
    "accounts": {"backups"},
    # The roster reads pasted names with the sign-up's look-alike check (accounts/lookalike.py,
    # plain Python): one reading of "looks the same" for account and player names; the club roles
    # form is throttled with the accounts' limiter (accounts/ratelimit.py).
    "clubs": {"backups", "accounts"},
    "scoring": {"backups", "clubs"},
    "ratings": {"backups", "clubs", "scoring"},
    "league": {"backups", "clubs", "scoring", "ratings"},
    "nights": {"backups", "clubs", "scoring"},
    # The chip ledger reads nights and their games, and writes its CSV with the league's writer.
    "ledger": {"backups", "clubs", "scoring", "nights", "league"},
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


def _read_app_imports(app: str) -> list[tuple[str, int, str]]:
    found = []
    for path in sorted((ROOT / app).rglob("*.py")):
        parts = path.relative_to(ROOT / app).parts
        if parts[0] in ("tests", "migrations"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            found += [(str(path.relative_to(ROOT)), node.lineno, module) for module in modules]
    return found


# Read once, when pytest collects this file: Python 3.11.7's ast.parse can fail with "AST constructor
# recursion depth mismatch" when it runs in a thread that earlier tests left with a changed
# recursion limit (hypothesis raises it while it draws examples), and collection comes before them.
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
        "imports against the direction accounts, clubs <- scoring <- ratings <- league:\n" + "\n".join(wrong)
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


def test_clubs_uses_nothing_of_accounts_but_its_lookalike_check_and_limiter():
    wrong = [
        f"{path}:{line} imports {module}"
        for path, line, module in _app_imports("clubs")
        if module.split(".")[0] == "accounts" and module not in ("accounts.lookalike", "accounts.ratelimit")
    ]
    assert not wrong, "clubs may use accounts/lookalike.py and accounts/ratelimit.py only:\n" + "\n".join(
        wrong
    )
