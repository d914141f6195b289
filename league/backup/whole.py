"""The whole backup: every app's part written in one transaction, and restored all or nothing
into an empty database (the format in `league.backup`). This module writes no row itself: each
app's part (`<app>/backup.py`) restores its own."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import DataError, IntegrityError, connection, transaction

from backups import parts
from backups.rows import BackupRefused
from core.strict_input import find_bad_text

FORMAT = "pinochle-scorekeeper-backup"
VERSION = 5  # the one version load() reads
HEADER = ("format", "version", "created")


def dump() -> dict[str, Any]:
    """Everything, read in one transaction so the parts agree with each other."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            # A snapshot that does not block the tables' writers while it is read.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "created": datetime.datetime.now(datetime.UTC).isoformat(),
        }
        for app, part in parts.found():
            if part.dump is None:
                continue
            written = part.dump()
            repeated = set(written) & set(data)
            if repeated:
                raise TypeError(f"the backup part of {app} writes {sorted(repeated)}, written before")
            data.update(written)
        return data


def database_is_empty() -> bool:
    return not any(model._base_manager.exists() for model in parts.held_models())


def check_header(data: Any) -> None:
    """Refuse what is not a backup of this app, or a backup of another version of its format."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupRefused(f'not a backup of this app (no "format": "{FORMAT}")')
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise BackupRefused(
            f"backup version {repr(version)[:20]}: this app restores version {VERSION} files only"
            " (a backup made by another release of the app; restore it with that release)"
        )
    known = set(HEADER) | {app for app, part in parts.found() if part.dump is not None}
    unknown = sorted(set(data) - known)
    if unknown:
        raise BackupRefused(f"{unknown[0][:40]!r} is not a part of this app's backups")


def load(data: Any) -> dict[str, int]:
    """Restore a `dump()` into an empty database, all or nothing; returns the rows restored, by
    model label.

    BackupRefused names the first problem (the part of the file, and what is wrong with it).
    """
    check_header(data)
    bad = find_bad_text(data)
    if bad is not None:  # no database stores these (PostgreSQL refuses NUL, neither takes surrogates)
        raise BackupRefused(f"{bad[0]}: {bad[1]}")
    counts: dict[str, int] = {}
    try:
        with transaction.atomic():
            if not database_is_empty():
                raise BackupRefused("the database is not empty")
            for _app, part in parts.found():
                if part.load is not None:
                    counts.update(part.load(data))
    except (IntegrityError, DataError) as error:
        # What the checks do not look for the database refuses; the transaction has written nothing.
        raise BackupRefused(f"the database refused the backup: {str(error).splitlines()[0][:200]}") from None
    return counts
