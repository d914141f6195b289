"""`python manage.py import_games FILE...`: import hands.csv files or JSON game records.

Each file is imported as an upload is (`league.imports.worker.import_bytes` runs the upload's
import: the same checks, writes and messages), and all of them in one transaction: any bad row in
any file refuses the lot, with one line per problem (file, line, reason) on standard error and
exit status 2. Bad
options (a --club or --season that is not valid UTF-8 text, or longer than a name may be; a --date
that is not a date) are refused the same way before any file is read.
"""

import datetime
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.db.models import CharField

from clubs.models import Club, Season
from core.strict_input import text_problem
from league.csv_io.columns import max_import_bytes
from league.csv_io.problems import ImportRefused
from league.imports.worker import import_bytes


def _name_option(option: str, value: str, longest: int) -> str:
    """A --club or --season as given: text a database stores, of at most `longest` characters.
    Bytes that are not UTF-8 reach Python as lone surrogates (the file system's escape)."""
    if text_problem(value) is not None:
        raise CommandError(f"--{option}: {value!a} is not valid UTF-8 text", returncode=2)
    if len(value) > longest:
        raise CommandError(f"--{option}: {len(value)} characters; at most {longest}", returncode=2)
    return value


class Command(BaseCommand):
    help = "Import hands.csv files exported by this app, or JSON game records (docs/record-format.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", help="hands.csv or .json files")
        parser.add_argument("--club", default="", help="club of JSON records (created if new)")
        parser.add_argument("--season", default="", help="season of JSON records, within --club")
        parser.add_argument("--date", default="", help="date the JSON records were played, YYYY-MM-DD")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            played_on = datetime.date.fromisoformat(options["date"]) if options["date"] else None
        except ValueError:
            problem = f"--date: {options['date']!a} is not a date like 2026-03-14"
            raise CommandError(problem, returncode=2) from None
        if options["season"] and not options["club"]:
            raise CommandError("--season needs --club", returncode=2)
        for option, model in (("club", Club), ("season", Season)):
            name_field = model._meta.get_field("name")
            assert isinstance(name_field, CharField) and name_field.max_length is not None
            _name_option(option, options[option], name_field.max_length)
        failed = False
        games = hands = 0
        with transaction.atomic():
            for path in options["files"]:
                try:
                    with open(path, "rb") as handle:
                        raw = handle.read(max_import_bytes() + 1)
                    report = import_bytes(
                        raw, name=path, club=options["club"], season=options["season"], played_on=played_on
                    )
                except OSError as error:
                    sys.stderr.write(f"{path}: cannot read the file: {error.strerror}\n")
                    failed = True
                except ImportRefused as refused:
                    for refusal in refused.problems:
                        sys.stderr.write(f"{path}: {refusal}\n")
                    failed = True
                else:
                    games += report.games
                    hands += report.hands
            if failed:
                transaction.set_rollback(True)
        if failed:
            sys.stderr.write("nothing was imported\n")
            raise SystemExit(2)
        self.stdout.write(f"imported {games} games with {hands} hands")
