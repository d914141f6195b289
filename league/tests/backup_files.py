"""Helpers of the backup tests: a backup written by the command, a fresh database (emptied as
`migrate` leaves one), a restore, and a restore refused with nothing written."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.core.management import CommandError, call_command
from django.db import connection

from league.management.commands.backup import kept_models


def back_up(tmp_path: Path) -> Path:
    path = tmp_path / "backup.json"
    call_command("backup", str(path), stderr=io.StringIO())
    return path


def rows(path: Path) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def the_row(data: list[dict[str, Any]], model: str, index: int = 0) -> dict[str, Any]:
    """The index-th row of a model ("clubs.club") in a backup's rows."""
    return [row for row in data if row["model"] == model][index]


def write(tmp_path: Path, data: object, name: str = "edited.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def fresh_database() -> None:
    """Every table emptied, the content types and permissions made again, as `migrate` leaves a
    new database; the caches emptied, as a restarted server's."""
    if connection.vendor == "postgresql":  # the test's transaction: its links checked now, not at its end
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    for cache in caches.all():
        cache.clear()


def database_is_empty() -> bool:
    return not any(model._base_manager.exists() for model in kept_models())


def restore(path: Path) -> str:
    out = io.StringIO()
    call_command("restore", str(path), stdout=out)
    return out.getvalue()


def restore_refused(path: Path) -> str:
    """The one-line message of a refused restore (exit status 2); nothing was written."""
    with pytest.raises(CommandError) as refused:
        restore(path)
    assert refused.value.returncode == 2
    assert database_is_empty()
    message = str(refused.value)
    assert "\n" not in message and "nothing restored" in message
    return message
