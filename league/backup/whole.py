"""The whole backup: every app's part written in one transaction, and restored all or nothing
into an empty database (the format in `league.backup`)."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.color import no_style
from django.db import DataError, IntegrityError, connection, transaction

from backups import parts
from backups.rows import BackupRefused
from core.strict_input import find_bad_text
from league.backup.write import _date
from ratings import services as rating_services

FORMAT = "pinochle-scorekeeper-backup"
VERSION = 4
READABLE = (1, 2, 3, 4)  # versions load() accepts


# --- backup of every part ----------------------------------------------------------------------


def dump() -> dict[str, Any]:
    """Everything, read in one transaction so the parts agree with each other."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            # A snapshot that does not block the tables' writers while it is read.
            connection.cursor().execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "created": _date(datetime.datetime.now(datetime.UTC)),
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


def load(data: Any) -> dict[str, int]:
    """Restore a `dump()` into an empty database, all or nothing; returns what was restored.

    BackupRefused names the first problem (the part of the file, and what is wrong with it).
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupRefused(f'not a backup of this app (no "format": "{FORMAT}")')
    version = data.get("version")
    if version not in READABLE:
        raise BackupRefused(
            f"backup version {version!r}; this app restores versions {', '.join(str(v) for v in READABLE)}"
        )
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
                    counts.update(part.load(data, version))
            _restart_ids()
            rating_services.refresh_all()  # the ratings are derived: rebuilt from the restored games
    except (IntegrityError, DataError) as error:
        # What the checks above do not look for (a row given twice, a name longer than its column)
        # the database refuses; the transaction has written nothing.
        raise BackupRefused(f"the database refused the backup: {str(error).splitlines()[0][:200]}") from None
    return counts


def _restart_ids() -> None:
    """Rows written with the file's ids: the next new row of each table takes the next id (on
    PostgreSQL the sequences are set past the restored ids; SQLite does that by itself)."""
    statements = connection.ops.sequence_reset_sql(no_style(), parts.held_models())
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
