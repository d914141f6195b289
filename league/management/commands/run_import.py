"""`python manage.py run_import BATCH --niceness 10 < FILE`: run one upload's import (league/imports.py).

The web worker that took the upload starts this command as a separate OS process and writes the
file to its standard input, so the parsing and rescoring neither hold the worker's interpreter lock
nor, lowered in priority by --niceness, take the CPU a table's hand save needs. The batch must be
waiting ("checking"); the rights checked are those of the batch's uploader. While it runs, a
heartbeat stamps the batch every few seconds. Exit status 0 when the batch ended (imported or
refused with its reasons), 2 when there is no such waiting batch or the arguments are wrong; any
other ending leaves the batch to the worker, which refuses it and deletes its hidden games.
"""

import datetime
import os
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from league import csv_io, imports
from league.models import ImportBatch


class Command(BaseCommand):
    help = "Run one upload's import; the file comes on standard input (started by the web worker)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("batch", type=int, help="the ImportBatch id, made by the upload")
        parser.add_argument("--niceness", type=int, default=0, help="run at this niceness (0 to 19)")
        parser.add_argument("--name", default="", help="the uploaded file's name (CSV or JSON)")
        parser.add_argument("--club", default="", help="club of JSON records")
        parser.add_argument("--season", default="", help="season of JSON records, within --club")
        parser.add_argument("--date", default="", help="date the JSON records were played, YYYY-MM-DD")
        parser.add_argument("--language", default="", help="language of the messages")

    def handle(self, *args: Any, **options: Any) -> None:
        lower = min(options["niceness"], 19) - os.nice(0)  # to that niceness, not that much more
        if lower > 0:
            os.nice(lower)
        try:
            played_on = datetime.date.fromisoformat(options["date"]) if options["date"] else None
        except ValueError:
            problem = f"--date: {options['date']!r} is not a date like 2026-03-14"
            raise CommandError(problem, returncode=2) from None
        batch = ImportBatch.objects.filter(pk=options["batch"], status=ImportBatch.Status.CHECKING).first()
        if batch is None:
            raise CommandError(f"no import {options['batch']} is waiting to run", returncode=2)
        raw = sys.stdin.buffer.read(csv_io.max_import_bytes() + 1)
        job = imports.Job(
            batch.pk,
            raw,
            name=options["name"] or batch.file_name,
            club=options["club"],
            season=options["season"],
            played_on=played_on,
            language=options["language"] or None,
        )
        try:
            with imports.heartbeat(batch.pk):
                job.run_here(imports.rights_of(batch.user_id))
        finally:
            connections.close_all()
        batch.refresh_from_db()
        self.stdout.write(f"import {batch.pk}: {batch.status}, {batch.written} of {batch.total} games")
