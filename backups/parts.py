"""The parts of a backup: each app of the project says in its `backup.py` what it holds.

An app's `backup.py` defines `PART`: the models it puts in the file (`holds`), the models it
leaves out because they are derived or transient, each with the reason (`derived`), and the
functions that write its part of the file and read it back (`dump`, `load`). The parts are found
in the order of INSTALLED_APPS, which lists every app after the apps it imports, so a part is
loaded after the parts whose rows it points at. `tests/test_backup_coverage.py` fails when a model
of an app is in no part's `holds` nor `derived`: a new model, or a new app, cannot be forgotten.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import models

from backups import rows

Dump = Callable[[], dict[str, Any]]
Load = Callable[[Mapping[str, Any]], dict[str, int]]
Chosen = Callable[[], "models.QuerySet[Any]"]


@dataclass(frozen=True)
class Part:
    """What one app puts in a backup. `dump()` returns the app's key of the file (its label);
    `load(data)` restores its rows from the whole file and returns what it restored (rows by model
    label). A part writes only the rows of its own app's models."""

    holds: tuple[str, ...] = ()  # model labels ("nights.Night"), auto-created m2m tables included
    derived: Mapping[str, str] = field(default_factory=dict)  # model label -> why it is not kept
    dump: Dump | None = None
    load: Load | None = None


def whole_app(
    app_label: str, *, derived: Mapping[str, str] | None = None, chosen: Mapping[str, Chosen] | None = None
) -> Part:
    """The part of an app whose every model but the derived ones is kept row for row, every field
    (`backups.rows`): a field or a model added to the app later is in the next backup unchanged.
    `chosen` gives, by model label, the rows of a model that are kept when not all of them are (the
    rows a page may see). In the file: `{app_label: {"ModelName": [rows…], …}}`."""
    left_out = dict(derived or {})
    picks = dict(chosen or {})

    def kept() -> list[type[models.Model]]:
        config = apps.get_app_config(app_label)
        return rows.models_in_order(m for m in config.get_models() if m._meta.label not in left_out)

    def dump() -> dict[str, Any]:
        return {
            app_label: {
                model._meta.object_name: rows.dump_rows(
                    model, picks[model._meta.label]() if model._meta.label in picks else None
                )
                for model in kept()
            }
        }

    def load(data: Mapping[str, Any]) -> dict[str, int]:
        section = data.get(app_label)
        if not isinstance(section, dict):
            raise rows.BackupRefused(f"{app_label!r} is missing or is not an object")
        ordered = kept()
        names = {model._meta.object_name for model in ordered}
        unknown = sorted(set(section) - names)
        if unknown:
            raise rows.BackupRefused(f"{app_label}: {unknown[0][:40]!r} is not a table of this app")
        counts = {}
        for model in ordered:
            name = model._meta.object_name
            counts[model._meta.label] = rows.load_rows(model, f"{app_label}.{name}", section.get(name, []))
        return counts

    return Part(tuple(m._meta.label for m in kept()), left_out, dump, load)


def found() -> list[tuple[str, Part]]:
    """Every app of the project (a folder at the top of BASE_DIR, not a library in a virtualenv there)
    with a `backup.py` (or a `backup/` package, whose part is its `part.py`), in INSTALLED_APPS
    order."""
    base = Path(settings.BASE_DIR).resolve()
    parts = []
    for config in apps.get_app_configs():
        if Path(config.path).resolve().parent != base:
            continue  # Django's and the libraries' apps: their tables are not the club's records
        name = f"{config.name}.backup"
        if importlib.util.find_spec(name) is None:
            continue
        module = importlib.import_module(name)
        if hasattr(module, "__path__"):  # a package: its __init__ holds a docstring only
            name += ".part"
            module = importlib.import_module(name)
        part = getattr(module, "PART", None)
        if not isinstance(part, Part):
            raise TypeError(f"{name} defines no PART (backups.parts.Part)")
        parts.append((config.label, part))
    return parts


def held_models() -> list[type[models.Model]]:
    return [apps.get_model(label) for _app, part in found() for label in part.holds]
