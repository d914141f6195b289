"""`manage.py backup FILE` (or `-` for standard output): Django's `dumpdata` of everything a club
made, every row of every model with its id, read in one transaction so the tables agree with each
other while the site keeps writing (docs/operations.md, "Backups"). `restore` reads it back.

Left out (`LEFT_OUT`): the rows `migrate` makes (content types, permissions: the file names them by
their natural keys, which every database of this app has), sign-in sessions (everyone signs in
again; a backup must not carry live log-ins), the throttles' counts (forgotten within minutes), the
task queue (a restored task waiting its turn would be run, with the file's arguments) and an upload
waiting to be imported (`restore` ends an import that had not ended as stopped).
A FILE ending in .gz, .bz2, .xz or .lzma is compressed. The file is written next to its name and
renamed into place, so a failed run never leaves half a backup where the last good one was.
"""

import os
from pathlib import Path
from typing import Any

from django.apps import apps
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, models, transaction

LEFT_OUT = (
    "contenttypes",
    "auth.Permission",
    "sessions",
    "throttles",
    "django_tasks_database",
    "league.ImportFile",
)
#: The compressions dumpdata writes and `restore` reads.
COMPRESSED = (".gz", ".bz2", ".xz", ".lzma")


def kept_models() -> list[type[models.Model]]:
    """The models a backup holds: every one but `LEFT_OUT` (auto-created many-to-many tables too)."""
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.app_label not in LEFT_OUT and model._meta.label not in LEFT_OUT
    ]


def write_file(target: str, dump: dict[str, Any]) -> Path:
    """`dumpdata` into a file only its owner reads (it holds password hashes and pending invite
    links), written next to its name and renamed into place."""
    path = Path(target)
    if path.suffix == ".zip":  # dumpdata would write an uncompressed file of another name
        use = ", ".join(COMPRESSED)
        raise CommandError(f"{target}: not backed up: a .zip file is not written; use {use}")
    temporary = path.with_name(f".{os.getpid()}.{path.name}")  # same suffixes: same compression
    try:
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        except OSError as error:
            raise CommandError(f"{target}: not backed up: {error.strerror}") from None
        os.fchmod(descriptor, 0o600)
        os.close(descriptor)
        call_command("dumpdata", output=str(temporary), **dump)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path


class Command(BaseCommand):
    help = "Write everything a club made (accounts, clubs, games, nights, payments) to a JSON file or -."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="where to write the backup; - for standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        target = options["file"]
        dump: dict[str, Any] = {"natural_foreign": True, "exclude": list(LEFT_OUT), "verbosity": 0}
        # One transaction, rolled back: a snapshot the tables agree in, read-only on PostgreSQL, that
        # does not block the writers (SQLite's WAL, PostgreSQL's REPEATABLE READ). In a transaction
        # already open (a test) that transaction is the snapshot.
        outermost = not connection.in_atomic_block
        with transaction.atomic():
            try:
                if outermost and connection.vendor == "postgresql":
                    with connection.cursor() as cursor:
                        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                if target == "-":
                    call_command("dumpdata", stdout=self.stdout, **dump)
                    return
                path = write_file(target, dump)
            finally:
                transaction.set_rollback(True)  # nothing is written: the snapshot ends
        self.stderr.write(f"backed up to {path}")
