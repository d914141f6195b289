"""`python manage.py score_game FILE` (or `-` for standard input): score a JSON game record.

Prints the result object (docs/record-format.md) on standard output. A record the rules refuse
gets one line on standard error naming the hand and field, nothing on standard output, and exit status 2.
"""

import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from core import strict_input
from scoring.rules.engine import score_record_text
from scoring.rules.errors import RecordError


class Command(BaseCommand):
    help = "Score a JSON game record (docs/record-format.md) and print the result as JSON."
    requires_system_checks: list[str] = []  # scoring needs no database; keep start-up lean

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the game record, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = score_record_text(self._read(options["file"]))
        except RecordError as error:
            self._refuse(str(error))
        self.stdout.write(result)

    def _read(self, path: str) -> object:
        try:
            if path == "-":
                text = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as handle:
                    text = handle.read()
        except OSError as error:
            self._refuse(f"{path}: cannot read the file: {error.strerror}")
        try:
            # JSON is UTF-8 (RFC 8259); json.loads on bytes would also guess UTF-16 and UTF-32.
            return strict_input.loads(text.decode("utf-8-sig"))
        except UnicodeDecodeError:
            self._refuse("record: the file is not UTF-8 text")
        except strict_input.JsonRefused as error:
            if (broken := error.decode_error) is not None:
                self._refuse(
                    f"record: not valid JSON: {broken.msg} at line {broken.lineno} column {broken.colno}"
                )
            self._refuse(f"record: {error.message}")

    def _refuse(self, line: str) -> NoReturn:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
        raise SystemExit(2)
