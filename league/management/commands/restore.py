"""`python manage.py restore FILE` (or `-` for standard input): load a backup into an EMPTY database.

Every part of the backup comes back, each app restoring its own rows (`<app>/backup.py`: accounts,
clubs, games and phones, imports, club nights, the ledger). Every game is rescored by the rules
engine, and its totals, league statistics and ratings are written afresh, all in one transaction:
a refused file (broken JSON, another version of the format, a game the rules refuse, a reference
to a row that is not in the file, a value its column would not take) or a database that already
holds data writes nothing and exits with status 2, naming what is wrong.
"""

import sys
from typing import Any

from django.apps import apps
from django.core.management.base import BaseCommand, CommandError, CommandParser

from backups.rows import BackupRefused
from core import strict_input
from league.backup.whole import database_is_empty, load


class Command(BaseCommand):
    help = "Restore a backup written by `manage.py backup` into an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup file; - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        if not database_is_empty():
            raise CommandError(
                "the database is not empty: restore only into a fresh one (migrate a new database first)",
                returncode=2,
            )
        try:
            if name == "-":
                text = sys.stdin.read()
            else:
                with open(name, encoding="utf-8") as handle:
                    text = handle.read()
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"{name}: cannot read the file: {error}", returncode=2) from None
        try:
            data = strict_input.loads(text)
        except strict_input.JsonRefused as error:
            where = f" (line {error.line})" if error.line else ""
            raise CommandError(f"{name}{where}: {error.message}", returncode=2) from None
        try:
            counts = load(data)
        except BackupRefused as refused:
            raise CommandError(f"{name}: nothing restored: {refused}", returncode=2) from None
        games, hands = counts.pop("scoring.Game", 0), counts.pop("scoring.Hand", 0)
        phones, rights = counts.pop("scoring.Device", 0), counts.pop("scoring.DeviceGame", 0)
        rows = [
            f"{count} {apps.get_model(label)._meta.verbose_name_plural}" for label, count in counts.items()
        ]
        self.stdout.write(
            f"restored {games} games with {hands} hands, {phones} phones with {rights} edit rights"
            + "".join(f"; {row}" for row in rows)
        )
