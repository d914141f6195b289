"""`manage.py restore FILE` (or `-` for standard input): a `backup` back into an EMPTY database.

Django's `loaddata` does the work, all or nothing; around it this command refuses what would lose
or garble a club's rows: a database that holds any row a backup holds (`loaddata` would overwrite
rows by id), a file that is not strict JSON (duplicate keys, NUL: `core.strict_input`), a row
without its id or given twice (the second would overwrite the first), and, before each row is
written, a value its field does not take (a text too long, a choice the app does not have: SQLite
would store them). A refused file writes nothing and exits with status 2, naming the model, the
row and the field where it can. A gzip-compressed file (`backup - | gzip`) is read as it is.
"""

import bz2
import gzip
import io
import lzma
import sys
import tempfile
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import models, transaction
from django.db.models.signals import pre_save

from core import strict_input
from league.management.commands.backup import kept_models
from scoring.models import Game
from scoring.rules.errors import RecordError
from scoring.services.results import score

#: The highest id a restored row may have: far beyond any club's, and it leaves PostgreSQL's
#: sequence (moved past the restored ids) room for every new row after it.
HIGHEST_ID = 2**53


class Refused(Exception):
    pass


def decompressed(raw: bytes, name: str) -> bytes:
    """The file as `backup` wrote it: gzip, bzip2 or xz by their first bytes, .lzma by its name."""
    if raw[:2] == b"\x1f\x8b":
        return gzip.decompress(raw)
    if raw[:3] == b"BZh":
        return bz2.decompress(raw)
    if raw[:6] == b"\xfd7zXZ\x00" or name.endswith(".lzma"):
        return lzma.decompress(raw)
    return raw


def check_rows(data: Any) -> None:
    if not isinstance(data, list):
        raise Refused("not a backup: the JSON is not a list of rows")
    if not data:
        raise Refused("not a backup: it holds no rows")
    # Only what a backup holds: a row of a model it leaves out (a content type, a permission, a
    # sign-in session, a throttle's count) would overwrite or add to what `migrate` made.
    kept = {model._meta.label_lower: model for model in kept_models()}
    seen = set()
    for index, row in enumerate(data, start=1):
        if not isinstance(row, dict) or row.get("pk") is None or not isinstance(row.get("model"), str):
            raise Refused(f"row {index} is not an object with its model and its id (pk)")
        model = kept.get(row["model"].lower())
        if model is None:
            raise Refused(f"row {index}: {row['model'][:50]!r} is not a model a backup holds")
        pk = row["pk"]
        if isinstance(model._meta.pk, models.AutoField | models.BigAutoField | models.SmallAutoField) and (
            isinstance(pk, bool) or not isinstance(pk, int) or not 1 <= pk <= HIGHEST_ID
        ):
            raise Refused(
                f"row {index}: {row['model']} id {str(pk)[:30]!r} is not an id from 1 to {HIGHEST_ID:,}"
            )
        key = (row["model"].lower(), str(row["pk"]))
        if key in seen:
            raise Refused(f"{row['model']} id {row['pk']!r} is given twice (row {index})")
        seen.add(key)


def check_fields(sender: Any, instance: models.Model, raw: bool = False, **kwargs: Any) -> None:
    """Each row `loaddata` is about to write, every value against its field: its length, choices
    and validators (links the database checks; an empty value the database takes or refuses)."""
    if not raw:
        return
    for field in instance._meta.concrete_fields:
        own_validators = getattr(field, "_validators", [])  # the model's, not Django's length check
        value = getattr(instance, field.attname)
        if field.is_relation or value is None:
            continue
        # An empty text is checked where the field refuses it: a choice or a code ("" is neither);
        # `_validators` are the field's own (its length validator is Django's, which "" passes).
        if value in field.empty_values and not (value == "" and (field.choices or own_validators)):
            continue
        try:
            field.clean(value, instance)
            if value == "":  # which clean() lets through: a field's own validators skip an empty text,
                for validator in own_validators:  # and every check skips a field not editable
                    validator(value)
        except ValidationError as error:
            where = f"{instance._meta.label} id {instance.pk}, field {field.name!r}"
            raise Refused(f"{where}: {' '.join(error.messages)}") from None


def check_games() -> None:
    """Every game a page shows, its hands numbered 1, 2, 3… and scored by the rules engine, as its
    page scores them: a game the engine refuses would fail its page and its share link."""
    for game in Game.objects.order_by("pk"):
        hands = list(game.hands.order_by("number"))
        numbers = [hand.number for hand in hands]
        if numbers != list(range(1, len(numbers) + 1)):
            raise Refused(f"scoring.Game id {game.pk}: its hands are numbered {numbers[:20]}, not 1, 2, 3…")
        try:
            score(game, [hand.data for hand in hands])
        except RecordError as error:
            raise Refused(f"scoring.Game id {game.pk}: {error}") from None


class Command(BaseCommand):
    help = "Restore a backup written by `manage.py backup` into an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup file; - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            raw = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
            text = decompressed(raw, name).decode("utf-8")
            check_rows(strict_input.loads(text))
        except (OSError, EOFError, UnicodeDecodeError, lzma.LZMAError, Refused) as error:
            raise CommandError(f"{name}: nothing restored: {error}", returncode=2) from None
        except strict_input.JsonRefused as error:
            where = f" (line {error.line})" if error.line else ""
            raise CommandError(f"{name}{where}: nothing restored: {error.message}", returncode=2) from None
        report = io.StringIO()
        with tempfile.TemporaryDirectory() as folder:
            fixture = Path(folder) / "backup.json"
            fixture.write_text(text, encoding="utf-8")
            try:
                with transaction.atomic():
                    if any(model._base_manager.exists() for model in kept_models()):
                        raise Refused("the database is not empty: restore only into a new one, just migrated")
                    pre_save.connect(check_fields, dispatch_uid="restore.check_fields")
                    try:
                        call_command("loaddata", str(fixture), stdout=report)
                    finally:
                        pre_save.disconnect(dispatch_uid="restore.check_fields")
                    check_games()
            except Exception as error:  # whatever the database or Django refused: one line, no traceback
                said = str(error).replace(f"Problem installing fixture '{fixture}': ", "")
                problem = " ".join(said.split())
                raise CommandError(f"{name}: nothing restored: {problem[:500]}", returncode=2) from None
        self.stdout.write(report.getvalue().strip())
