"""`python manage.py backup FILE` (or `-` for standard output): everything as one JSON file.

Every app's part (`<app>/backup.py`, docs/operations.md "Backups"): accounts and groups, clubs,
players, rosters, seasons, club roles and invites, games with their seats, hands and corrections,
the phones' edit rights, imports, the club nights with their plans and table links, the ledger's
payments; every row with every field and its id. It holds password hashes: keep it private.
A file is written next to its final name and renamed into place, so a failed run never leaves a
half-written backup where the last good one was.
"""

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from league.backup.whole import dump


class Command(BaseCommand):
    help = "Write everything a club made (games, clubs, accounts, nights, payments) to a JSON file or -."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="where to write the backup; - for standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        data = dump()
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
        if options["file"] == "-":
            self.stdout.write(text, ending="")
            return
        target = Path(options["file"])
        handle, temporary = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        games, clubs = len(data["scoring"]["Game"]), len(data["clubs"]["Club"])
        self.stderr.write(f"backed up {games} games and {clubs} clubs to {target}")
