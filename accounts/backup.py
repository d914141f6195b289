"""The accounts' part of a backup: every account (with its password hash, so keep backups private)
and its groups and admin permissions, and the groups with their permissions; every field of every
row, with its id (`backups.rows`), so the rows of the other apps that point at an account point at
the same one after a restore.

A permission is written by name, "app_label.codename" (the form `user.has_perm` takes): its row is
made by `migrate`, with an id that may differ from one database to the next. A name this app does
not have is refused, naming the row."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import Group, Permission, User
from django.db import models

from backups.parts import Part
from backups.rows import BackupRefused, dump_rows, load_rows

KEY = "accounts"
# In the order they are restored, each after the rows it points at.
MODELS: tuple[type[models.Model], ...] = (
    Group,
    Group.permissions.through,
    User,
    User.groups.through,
    User.user_permissions.through,
)
BY_NAME = (Group.permissions.through, User.user_permissions.through)  # permissions by name


def _permission_names() -> dict[int, str]:
    return {
        pk: f"{app_label}.{codename}"
        for pk, app_label, codename in Permission.objects.values_list(
            "pk", "content_type__app_label", "codename"
        )
    }


def dump() -> dict[str, Any]:
    names = _permission_names()
    section: dict[str, Any] = {}
    for model in MODELS:
        rows = dump_rows(model)
        if model in BY_NAME:
            for row in rows:
                row["permission"] = names[row["permission"]]
        section[str(model._meta.object_name)] = rows
    return {KEY: section}


def _by_id(rows: Any, where: str, ids: Mapping[str, int]) -> Any:
    """The rows with each permission's name turned into its id in this database."""
    if not isinstance(rows, list):
        return rows  # refused by load_rows, naming the table
    turned = []
    for index, row in enumerate(rows, start=1):
        if isinstance(row, dict) and "permission" in row:
            name = row["permission"]
            if not isinstance(name, str):
                raise BackupRefused(f"{where}[{index}]: 'permission' is not a name like app_label.codename")
            if name not in ids:
                raise BackupRefused(f"{where}[{index}]: permission {name[:100]!r} does not exist in this app")
            row = {**row, "permission": ids[name]}
        turned.append(row)
    return turned


def load(data: Mapping[str, Any]) -> dict[str, int]:
    section = data.get(KEY)
    if not isinstance(section, dict):
        raise BackupRefused(f"{KEY!r} is missing or is not an object")
    names = [str(model._meta.object_name) for model in MODELS]
    unknown = sorted(set(section) - set(names))
    if unknown:
        raise BackupRefused(f"{KEY}: {unknown[0][:40]!r} is not a table of this app")
    ids = {name: pk for pk, name in _permission_names().items()}
    counts = {}
    for model, name in zip(MODELS, names, strict=True):
        where = f"{KEY}.{name}"
        rows = section.get(name, [])
        if model in BY_NAME:
            rows = _by_id(rows, where, ids)
        counts[model._meta.label] = load_rows(model, where, rows)
    return counts


PART = Part(holds=tuple(model._meta.label for model in MODELS), dump=dump, load=load)
