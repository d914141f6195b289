"""The apps import one way (docs/architecture.md, "Which app may import which"): the contracts in
pyproject.toml ([tool.importlinter]: the layers of the apps, no app importing accounts or
pinochle_site, the plain modules importing no Django and no app, private modules) are checked by
import-linter, run here and by `make lint`. Read here from the source with `ast`, what an import
cannot show: a reverse relation into an app above, a private name of another app, a model patched
from outside its class, a write of another app's rows."""

import ast
import dataclasses
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold():
    lint_imports = Path(sys.executable).parent / "lint-imports"
    run = subprocess.run(
        [lint_imports, "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr


def _allowed() -> dict[str, set[str]]:
    """The apps each app may import, as the contracts say: those of the layers below its own, less
    those a forbidden contract names for it."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    allowed: dict[str, set[str]] = {}
    below: set[str] = set()
    for layer in reversed(next(contract["layers"] for contract in contracts if contract["type"] == "layers")):
        apps = {app.strip() for app in layer.split("|")}
        allowed |= {app: set(below) for app in apps}
        below |= apps
    for contract in contracts:
        for app in set(contract.get("source_modules", [])) & set(allowed):
            allowed[app] -= set(contract["forbidden_modules"])
    return allowed


ALLOWED = _allowed()
APPS = sorted(ALLOWED)


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


def test_no_model_is_patched_from_outside_its_class():
    uses = [
        f"{path.relative_to(ROOT)}"
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "add_to_class" in path.read_text() and "tests" not in path.parts
    ]
    assert not uses, f"declare fields in the model's class body: {uses}"


# --- reverse relations ----------------------------------------------------------------------------

# A model of a lower app is reached from a higher one by a string reference (`"clubs.Player"`), and
# Django gives the lower model a reverse accessor (`player.night_entries`) and a query name
# (`night_table__night__finished_at`) for it. Used from the lower app, they write or read the
# higher app's tables while the imports look clean; the owner's service, selector or a signal it
# receives does that instead.
QUERY_METHODS = {
    *("filter", "exclude", "get", "values", "values_list", "select_related", "prefetch_related"),
    *("order_by", "annotate", "only", "defer", "update", "getattr", "hasattr", "F", "Q", "Prefetch"),
}


def _reverse_names() -> dict[str, dict[str, str]]:
    """For each app, the names of reverse relations into apps it may not import, with that app."""
    from django.apps import apps as registry
    from django.db.models import ForeignObjectRel

    names: dict[str, set[str]] = {app: set() for app in APPS}  # names an app may use on its own rows
    foreign: list[tuple[str, str]] = []  # (name, the app of the model holding the relation)
    for model in registry.get_models():
        for field in model._meta.get_fields():
            if not field.auto_created or field.concrete:  # a field the model declares
                names.get(model._meta.app_label, set()).add(field.name)
                continue
            assert isinstance(field, ForeignObjectRel)  # what Django makes for the far side of a relation
            owner = field.field.model._meta.app_label  # the model declaring the relation
            for name in {field.get_accessor_name(), field.name}:
                if name and not name.endswith("+"):
                    foreign.append((name, owner))
                    names.get(owner, set()).add(name)
    found: dict[str, dict[str, str]] = {app: {} for app in APPS}
    for app in APPS:
        usable = names[app].union(*(names[other] for other in ALLOWED[app]))
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


# --- the data follows the layers --------------------------------------------------------------------


@pytest.mark.parametrize("app", APPS)
def test_an_apps_models_and_migrations_point_only_at_the_apps_below_it(app):
    """A foreign key into an app above would make the lower app's tables, and its migrations, need
    the upper app's: the lower app could not be migrated, or its rows kept, without it."""
    from django.apps import apps
    from django.db.migrations.loader import MigrationLoader

    above = set(APPS) - ALLOWED[app] - {app}
    labelled = {config.label: config for config in apps.get_app_configs()}
    models = labelled[app].get_models(include_auto_created=True) if app in labelled else []
    wrong = [
        f"{model._meta.label}.{field.name} -> {target._meta.label}"
        for model in models
        for field in model._meta.concrete_fields
        for target in [field.related_model]
        if isinstance(target, type) and target._meta.app_label in above
    ]
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    wrong += [
        f"migration {app}.{key[1]} depends on {parent.key[0]}.{parent.key[1]}"
        for key in graph.nodes
        if key[0] == app
        for parent in graph.node_map[key].parents
        if parent.key[0] in above
    ]
    assert not wrong, "a relation into an app this one may not import:\n" + "\n".join(sorted(set(wrong)))


# --- private names (a private module is import-linter's `private_modules` contract) ---------------


def _private_uses(app: str) -> list[str]:
    """`from clubs.models import _name`, and `_name` of a module imported from another module, of
    another app or of this one (a name two modules share is public)."""
    wrong = []
    others = set(APPS)
    for path, tree in PARSED[app]:
        where = path.relative_to(ROOT)
        modules: set[str] = set()  # local names bound to another app's modules
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] in others:
                    for alias in node.names:
                        if alias.name.startswith("_"):
                            wrong.append(f"{where}:{node.lineno} imports {node.module}.{alias.name}")
                        modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                modules |= {
                    alias.asname or alias.name.split(".")[0]
                    for alias in node.names
                    if alias.name.split(".")[0] in others
                }
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
def test_no_module_uses_a_private_name_of_another(app):
    wrong = _private_uses(app)
    assert not wrong, (
        "a name starting with _ is its module's own; make it public or call the owner:\n" + "\n".join(wrong)
    )


def _request_marks(tree: ast.Module) -> list[tuple[int, str]]:
    """Private-looking names set or read on a request: `request._x`, `getattr(request, "_x")`,
    `request.__dict__`."""
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "request"
            and node.attr.startswith("_")
        ):
            found.append((node.lineno, f"request.{node.attr}"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"getattr", "hasattr", "setattr"}
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "request"
            and isinstance(node.args[1], ast.Constant)
            and str(node.args[1].value).startswith("_")
        ):
            found.append((node.lineno, f"{node.func.id}(request, {node.args[1].value!r})"))
    return found


@pytest.mark.parametrize("app", APPS)
def test_no_app_hangs_private_names_on_the_request(app):
    """What a request carries beyond Django's own fields is public and set in one place
    (`request.device` by DeviceMiddleware, `request.game` by the game decorators)."""
    wrong = [
        f"{path.relative_to(ROOT)}:{line} {what}"
        for path, tree in PARSED[app]
        for line, what in _request_marks(tree)
    ]
    assert not wrong, "a private-looking mark on the request:\n" + "\n".join(wrong)


def test_the_request_check_finds_the_marks_it_should():
    tree = ast.parse(
        "request._device = 1\nx = getattr(request, '_checked_game', None)\nrequest.__dict__.pop('_r')\n"
    )
    assert [line for line, _what in _request_marks(tree)] == [1, 2, 3]


# --- writes: an app writes only its own rows ----------------------------------------------------

# Reading a lower app's rows is fine; writing them is its owner's business: an app creates, changes
# and deletes rows of another app's models only by calling that app's services (or by a signal the
# owner receives), so every write of a table is found in the app that declares it.
WRITE_METHODS = {"create", "bulk_create", "bulk_update", "get_or_create", "update_or_create", "update"}
WRITE_METHODS |= {"delete", "save"}
# A variable bound from one of these holds plain values, not rows (`.values().first()` is a dict).
READ_ONLY_RESULTS = {"values", "values_list", "count", "exists", "aggregate", "in_bulk", "iterator"}


def _models_by_app() -> dict[str, set[str]]:
    from django.apps import apps as registry

    found: dict[str, set[str]] = {app: set() for app in APPS}
    for model in registry.get_models():
        found.get(model._meta.app_label, set()).add(model.__name__)
    return found


def _relation_names() -> dict[str, dict[str, str]]:
    """For each app, the relation names (forward `game.club`, reverse `club.players`, many-to-many)
    that always lead to a model of another app, with that app. A name that also leads to one of the
    app's own models somewhere is left out (it cannot be told apart by reading the source)."""
    from django.apps import apps as registry
    from django.db.models import ForeignObjectRel

    targets: dict[str, set[str]] = {}
    for model in registry.get_models():
        for field in model._meta.get_fields():
            if not field.is_relation or field.related_model is None or isinstance(field.related_model, str):
                continue
            target = field.related_model._meta.app_label
            names = {field.name}
            if isinstance(field, ForeignObjectRel):  # the far side of a relation: its accessor
                names = {field.get_accessor_name() or ""}
            for name in names - {""}:
                if not name.endswith("+"):
                    targets.setdefault(name, set()).add(target)
    return {
        app: {
            name: " or ".join(sorted(owners))
            for name, owners in targets.items()
            if app not in owners and owners & set(APPS)
        }
        for app in APPS
    }


def _chain(node: ast.expr) -> list[ast.expr]:
    """`a.b(…).c` from the outside in: the call or attribute, then what it is called on, down to a name."""
    found = [node]
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        else:
            return found
        found.append(node)


@dataclasses.dataclass
class _Names:
    """What a module's names stand for, to the write check: `models`, each app's model class names;
    `relations`, each relation name that always leads to another app, with that app; `bound` and
    `modules`, the local names of another app's models and modules, with that app."""

    app: str
    models: dict[str, set[str]]
    relations: dict[str, str]
    bound: dict[str, str] = dataclasses.field(default_factory=dict)
    modules: dict[str, str] = dataclasses.field(default_factory=dict)

    def read_imports(self, tree: ast.Module) -> None:
        others = set(APPS) - {self.app}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                owner = node.module.split(".")[0]
                for alias in node.names if owner in others else []:
                    if alias.name in self.models.get(owner, set()):
                        self.bound[alias.asname or alias.name] = owner
                    else:
                        self.modules[alias.asname or alias.name] = owner
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] in others:
                        self.modules[alias.asname or alias.name.split(".")[0]] = alias.name.split(".")[0]

    def owner_of(self, expr: ast.expr, variables: dict[str, str]) -> str | None:
        """The other app whose rows `expr` reaches, by its chain."""
        if (  # get_object_or_404(Season, …), get_list_or_404(Game.objects.filter(…))
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Name)
            and expr.func.id in ("get_object_or_404", "get_list_or_404")
            and expr.args
        ):
            expr = expr.args[0]
        chain = _chain(expr)
        root = chain[-1]
        if isinstance(root, ast.Name):
            if root.id in self.bound:
                return self.bound[root.id]
            if root.id in variables:
                return variables[root.id]
            if root.id in self.modules:  # scoring.models.Game.objects…
                for link in chain:
                    owners = [
                        app
                        for app, names in self.models.items()
                        if isinstance(link, ast.Attribute) and link.attr in names
                    ]
                    if owners:
                        return owners[0] if owners[0] != self.app else None
        for link in chain:
            if isinstance(link, ast.Attribute) and link.attr in self.relations:
                return self.relations[link.attr]
        return None

    def parameters(self, scope: ast.AST) -> dict[str, str]:
        """A function's parameters annotated with another app's model: `club: Club`, `"Game | None"`."""
        found: dict[str, str] = {}
        if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
            return found
        arguments = scope.args
        for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            annotation = argument.annotation
            if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                annotation = ast.parse(annotation.value, mode="eval").body
            for name in ast.walk(annotation) if annotation else []:
                if isinstance(name, ast.Name) and name.id in self.bound:
                    found[argument.arg] = self.bound[name.id]
        return found

    def variables(self, scope: ast.AST) -> dict[str, str]:
        """The scope's variables bound to another app's rows: its parameters, then what it assigns
        or loops over (not `.values()`, `.count()` and the like: plain values)."""
        found = self.parameters(scope)
        for node in _scope_nodes(scope):
            value: ast.expr | None = None
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                value, targets = node.value, node.targets
            elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value is not None:
                value, targets = node.value, [node.target]
            elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
                value, targets = node.iter, [node.target]
            if value is None:
                continue
            methods = {link.attr for link in _chain(value) if isinstance(link, ast.Attribute)}
            owner = self.owner_of(value, found)
            for target in targets:
                if isinstance(target, ast.Name) and owner and not methods & READ_ONLY_RESULTS:
                    found[target.id] = owner
        return found


def _scope_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of a function, nested ones included; of a module, those outside its functions
    (each function is a scope of its own, so a name in one says nothing of the same name in another)."""
    if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
        return list(ast.walk(scope))
    found: list[ast.AST] = []
    waiting = [scope]
    while waiting:
        node = waiting.pop()
        found.append(node)
        waiting += [
            n for n in ast.iter_child_nodes(node) if not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        ]
    return found


def _foreign_writes(
    app: str, modules: list[tuple[str, ast.Module]], models: dict[str, set[str]], relations: dict[str, str]
) -> list[str]:
    """Writes of rows of another app's models in `app`'s modules: a write method called on a chain
    that starts at a model imported from another app (`Club.objects.create`, `Game.all_objects.filter(
    …).update`, `scoring.models.Hand.objects.bulk_create`), on a variable bound from such a chain or
    annotated with such a model (`club = Club.objects.get(…); club.save()`, `game: Game`), or through
    a relation into another app (`game.club.save()`, `club.players.create(…)`,
    `night.payment_set.update(…)`)."""
    wrong = []
    for where, tree in modules:
        names = _Names(app, models, relations)
        names.read_imports(tree)
        scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))]
        seen: set[tuple[int, int]] = set()
        for scope in scopes:
            variables = names.variables(scope)
            for node in _scope_nodes(scope):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                    continue
                method, receiver = node.func.attr, node.func.value
                if method not in WRITE_METHODS or (node.lineno, node.col_offset) in seen:
                    continue
                owner = names.owner_of(receiver, variables)
                if (
                    method == "update"
                    and isinstance(receiver, ast.Attribute)
                    and receiver.attr in relations
                    and names.owner_of(receiver.value, variables) is None
                ):
                    continue  # `self.players.update(…)`: a dictionary's, as far as the source shows
                if owner is None or (
                    method == "save" and isinstance(receiver, ast.Name) and receiver.id in names.bound
                ):
                    continue  # `Model.save(…)` is a call of the class, not a write
                seen.add((node.lineno, node.col_offset))
                wrong.append(f"{where}:{node.lineno} .{method}() writes rows of {owner}")
    return wrong


@pytest.mark.parametrize("app", APPS)
def test_an_app_writes_only_its_own_rows(app):
    modules = [(str(path.relative_to(ROOT)), tree) for path, tree in PARSED[app]]
    wrong = _foreign_writes(app, modules, _models_by_app(), _relation_names()[app])
    assert not wrong, (
        "rows of another app's model are written here; call a service of the app that owns them "
        "(or send a signal it receives):\n" + "\n".join(sorted(wrong))
    )


WRITES_SNIPPET = """
from clubs.models import Club, Season as ClubSeason
from scoring import models as scoring_models
from scoring.models import Game
from league.models import ImportBatch
from django.shortcuts import get_object_or_404

Club.objects.filter(name="gone").delete()  # writes

def writes(night, game: Game, season: "ClubSeason | None"):
    Club.objects.create(name="x")  # writes
    Game.all_objects.filter(pk__in=[1]).update(club=None)  # writes
    scoring_models.GameSeat.objects.bulk_create([])  # writes
    club = Club.objects.filter(name="x").first()
    club.save()  # writes
    found = get_object_or_404(ClubSeason, pk=1)
    found.delete()  # writes
    for row in Game.objects.filter(club=club):
        row.save(update_fields=["note"])  # writes
    game.save()  # writes
    season.save()  # writes
    game.club.save()  # writes
    club.players.create(name="y")  # writes
    night.payment_set.filter(amount=1).update(amount=2)  # writes
    ClubSeason.objects.get_or_create(name="z")  # writes


def through_relations(row, other):
    row.club.save()  # writes
    row.seats.filter(seat="N").update(name="")  # writes
    other.players.update({"N": 1})  # a dictionary named like a relation


def reads_and_own_rows(batch: ImportBatch):
    names = list(Club.objects.filter(name="x").values_list("name", flat=True))
    first = Club.objects.values("name").first()
    first.update({"name": "y"})  # a dict
    counts = {}
    counts.update(a=1)
    unsaved = Game(note="n")  # built, not written
    ImportBatch.objects.filter(pk=1).update(status="done")
    batch.save()
    return names, unsaved
"""


def test_the_write_check_finds_the_writes_it_should():
    """The check itself, on a snippet: it finds each way of writing another app's rows and takes
    reads, plain dictionaries and the app's own rows for what they are."""
    models = {
        "clubs": {"Club", "Season", "Player"},
        "scoring": {"Game", "GameSeat"},
        "league": {"ImportBatch"},
    }
    relations = {"club": "clubs", "players": "clubs", "payment_set": "ledger", "seats": "scoring"}
    found = _foreign_writes("league", [("snippet.py", ast.parse(WRITES_SNIPPET))], models, relations)
    marked = [
        number for number, line in enumerate(WRITES_SNIPPET.splitlines(), start=1) if "# writes" in line
    ]
    assert len(marked) == 15
    assert sorted(int(line.split(":")[1].split()[0]) for line in found) == marked, found
    players = next(
        n for n, line in enumerate(WRITES_SNIPPET.splitlines(), start=1) if "club.players." in line
    )
    assert f"snippet.py:{players} .create() writes rows of clubs" in found
