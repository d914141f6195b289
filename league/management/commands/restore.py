"""`manage.py restore FILE` (or `-` for standard input): a `backup` back into an EMPTY database.

Django's `loaddata` does the work, all or nothing; around it this command refuses what would lose
or garble a club's rows: a database that holds any row a backup holds (`loaddata` would overwrite
rows by id), a file that is not strict JSON (duplicate keys, NUL: `core.strict_input`), a row
without its id or given twice (the second would overwrite the first), and, before each row is
written, a value its field does not take (a text too long, a choice the app does not have: SQLite
would store them), and a row's values together as its model's `clean` checks them (a club night's
plan state). A refused file writes nothing and exits with status 2, naming the model, the
row and the field where it can. A gzip-compressed file (`backup - | gzip`) is read as it is, as a
stream, and refused once it grows past `RESTORE_MAX_BYTES` (a small file must not fill the memory).

What is derived from the hands must agree with them: each game's summary (winner, totals…) and its
statistics rows are computed again by the code that writes them when a hand is saved, and the
ratings again from the games, the count of a game's hands waiting for the other side's OK, and a
game is signed once every side of its table signed; a file where one differs is refused, naming
the game, row and field. A signature is of the game as it ended: one made before its last hand was
saved, while a hand waited for its OK or before the OK was given, is refused too.
An import that had not ended is ended as stopped (its waiting upload is not in a backup). After a
restore the superusers and staff accounts are named, so an operator sees one he did not expect.
"""

import bz2
import gzip
import io
import lzma
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import MaxLengthValidator
from django.db import models, transaction
from django.db.models.signals import pre_save

from core import strict_input
from league.imports.batch import UNFINISHED, end_as_stopped
from league.management.commands.backup import kept_models
from league.models import ImportBatch
from ratings.models import PairRating, PlayerRating, RatingPoint, RatingScope
from ratings.services import refresh_all
from scoring.models import Game, GameSeat, GameSignature, GameStat, Hand, HandStat
from scoring.rules.errors import RecordError
from scoring.rules.tables import sides_for
from scoring.services.results import score, summary_fields
from scoring.stats import stat_rows

#: The highest id a restored row may have: far beyond any club's, and it leaves PostgreSQL's
#: sequence (moved past the restored ids) room for every new row after it.
HIGHEST_ID = 2**53


class Refused(Exception):
    pass


def read_capped(stream: Any, limit: int) -> bytes:
    """All of `stream`, read a megabyte at a time; Refused once it is longer than `limit` bytes."""
    parts: list[bytes] = []
    size = 0
    while part := stream.read(2**20):
        size += len(part)
        if size > limit:
            raise Refused(f"it is larger than the limit of {limit:,} bytes (RESTORE_MAX_BYTES)")
        parts.append(part)
    return b"".join(parts)


def decompressed(raw: bytes, name: str) -> bytes:
    """The file as `backup` wrote it: gzip, bzip2 or xz by their first bytes, .lzma by its name;
    decompressed as a stream, refused past `settings.RESTORE_MAX_BYTES`."""
    limit = settings.RESTORE_MAX_BYTES
    source = io.BytesIO(raw)
    if raw[:2] == b"\x1f\x8b":
        return read_capped(gzip.GzipFile(fileobj=source), limit)
    if raw[:3] == b"BZh":
        return read_capped(bz2.BZ2File(source), limit)
    if raw[:6] == b"\xfd7zXZ\x00" or name.endswith(".lzma"):
        return read_capped(lzma.LZMAFile(source), limit)
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
        value = getattr(instance, field.attname)
        if field.is_relation or value is None:
            continue
        # The field's checks but the length limit (an empty text passes it): a code's alphabet, a
        # user name's characters. An empty text is checked where the field refuses it: a field
        # that may not be blank with a choice or such a check ("" is neither a choice nor a code).
        checks = [check for check in field.validators if not isinstance(check, MaxLengthValidator)]
        refused_empty = value == "" and not field.blank and bool(field.choices or checks)
        if value in field.empty_values and not refused_empty:
            continue
        try:
            field.clean(value, instance)
            if value == "":  # which clean() lets through: a field's own validators skip an empty text,
                for validator in checks:  # and every check skips a field not editable
                    validator(value)
        except ValidationError as error:
            where = f"{instance._meta.label} id {instance.pk}, field {field.name!r}"
            raise Refused(f"{where}: {' '.join(error.messages)}") from None
    check_row(instance)


def check_row(instance: models.Model) -> None:
    """A row's values together, as the app's model checks them (`clean`: a night's plan state).
    Django's own models are left out: a user's `clean` normalises the e-mail address, which would
    change what was backed up."""
    if instance._meta.app_config is None or instance._meta.app_config.name.startswith("django."):
        return
    try:
        instance.clean()
    except ValidationError as error:
        for field, said in error.message_dict.items():
            where = f"{instance._meta.label} id {instance.pk}, field {field!r}"
            raise Refused(f"{where}: {' '.join(said)}") from None


def check_games() -> None:
    """Every game a page shows, its hands numbered 1, 2, 3… and scored by the rules engine, as its
    page scores them: a game the engine refuses would fail its page and its share link."""
    for game in Game.objects.order_by("pk"):
        hands = list(game.hands.order_by("number"))
        numbers = [hand.number for hand in hands]
        if numbers != list(range(1, len(numbers) + 1)):
            raise Refused(f"scoring.Game id {game.pk}: its hands are numbered {numbers[:20]}, not 1, 2, 3…")
        hand_data = [hand.data for hand in hands]
        try:
            result = score(game, hand_data)
        except RecordError as error:
            raise Refused(f"scoring.Game id {game.pk}: {error}") from None
        for field, value in summary_fields(result).items():
            if getattr(game, field) != value:
                raise Refused(f"scoring.Game id {game.pk}, field {field!r}: the hands give {value!r}")
        check_stats(game, hand_data, result)
        check_signatures(game, hands)


def check_signatures(game: Game, hands: list[Hand]) -> None:
    """A game's signatures name sides of its table, of a finished game that asks for them, and the
    game is signed (`signed_at`) once every side signed, when the last one did: a page would
    otherwise lock a game nobody signed, or leave open one both sides signed. The hands' OKs are
    counted (`unconfirmed_hands`: the standings wait for them), and each signature is of the game
    as it ended, every hand OK'd (`check_signed_hands`)."""
    waiting = sum(1 for hand in hands if hand.confirmed_at is None) if game.confirm_hands else 0
    if game.unconfirmed_hands != waiting:
        raise Refused(f"scoring.Game id {game.pk}, field 'unconfirmed_hands': the hands give {waiting}")
    signed = {row.side: row.signed_at for row in GameSignature.objects.filter(game=game)}
    sides = sides_for(game.seats)
    where = f"scoring.Game id {game.pk}"
    if signed and not (game.sign_at_end and game.finished):
        raise Refused(f"{where}: signed, but it is not a finished game that asks for signatures")
    other = sorted(set(signed) - set(sides))
    if other:
        raise Refused(f"{where}: signed for {', '.join(other)}, not a side of its table")
    last = max(signed.values()) if len(signed) == len(sides) else None
    if game.signed_at != last:
        raise Refused(f"{where}, field 'signed_at': the signatures give {last!r}")
    check_signed_hands(game, hands, signed)


def check_signed_hands(game: Game, hands: list[Hand], signed: dict[str, datetime]) -> None:
    """A side signs a game that is over, every hand OK'd (`sign_game` refuses it otherwise): no
    signature before the game's last hand was saved, and none while a hand waited for its OK or
    before it was given. A hand saved again after a signature (a correction that left the result
    as it was, the organiser's OK'd at once) waits or was OK'd after it; once every side signed,
    only an organiser corrects the game, and no hand waits."""
    where = f"scoring.Game id {game.pk}"
    if not signed or not hands:
        return
    last = hands[-1]
    for side, at in sorted(signed.items()):
        if at < last.created_at:
            raise Refused(
                f"{where}: signed for {side} at {at.isoformat()}, before its last hand "
                f"(hand {last.number}) was saved at {last.created_at.isoformat()}"
            )
    if not game.confirm_hands:
        return
    for hand in hands:
        if hand.confirmed_at is None and (
            game.signed_at is not None or any(at >= hand.updated_at for at in signed.values())
        ):
            raise Refused(f"{where}: signed, but hand {hand.number} still waits for the other side's OK")
        for side, at in sorted(signed.items()):
            if hand.confirmed_at is not None and hand.updated_at <= at < hand.confirmed_at:
                raise Refused(
                    f"{where}: signed for {side} at {at.isoformat()}, before hand {hand.number} "
                    f"was confirmed at {hand.confirmed_at.isoformat()}"
                )


def _content(row: HandStat | GameStat) -> dict[str, Any]:
    return {
        field.attname: getattr(row, field.attname)
        for field in row._meta.concrete_fields
        if not field.primary_key
    }


def check_stats(game: Game, hand_data: list[Any], result: Any) -> None:
    """The game's statistics rows as saving its hands writes them (`scoring.stats.stat_rows`),
    compared field by field with the file's; their ids stay as the file gave them."""
    seats = list(GameSeat.objects.filter(game=game))
    hand_stats, game_stats = stat_rows(game, seats, hand_data, result)
    for model, expected, key in (
        (HandStat, hand_stats, ("number", "seat")),
        (GameStat, game_stats, ("seat",)),
    ):
        stored = {tuple(getattr(row, k) for k in key): row for row in model.objects.filter(game=game)}
        for row in expected:
            found = stored.pop(tuple(getattr(row, k) for k in key), None)
            where = (
                f"{model._meta.label} of game id {game.pk} ({', '.join(str(getattr(row, k)) for k in key)})"
            )
            if found is None:
                raise Refused(f"{where}: missing; the hands give one")
            want, have = _content(row), _content(found)
            for field, value in want.items():
                if have[field] != value:
                    raise Refused(f"{where} id {found.pk}, field {field!r}: the hands give {value!r}")
        if stored:
            extra = next(iter(stored.values()))
            raise Refused(f"{model._meta.label} id {extra.pk}: game id {game.pk} has no such hand or seat")


RATINGS = (
    (RatingScope, ("scope", "last_day", "last_game", "games")),
    (PlayerRating, ("scope", "player_id", "mu", "sigma", "games", "display", "conservative")),
    (PairRating, ("scope", "player_a_id", "player_b_id", "mu", "sigma", "games", "display", "conservative")),
    (RatingPoint, ("scope", "player_id", "game_id", "seq", "day", "side", "rank", "chips", "mu", "sigma")),
)


def check_ratings() -> None:
    """The ratings computed again from the games (`ratings.services.refresh_all`, undone after)
    must be the file's: the same rows, by their content (their ids are the file's)."""
    stored = [sorted(model.objects.values_list(*fields), key=repr) for model, fields in RATINGS]
    point = transaction.savepoint()
    refresh_all()
    computed = [sorted(model.objects.values_list(*fields), key=repr) for model, fields in RATINGS]
    transaction.savepoint_rollback(point)
    for (model, fields), have, want in zip(RATINGS, stored, computed, strict=True):
        if have != want:
            differ = next((a, b) for a, b in zip([*have, None], [*want, None], strict=False) if a != b)
            row = differ[0] or differ[1]
            assert row is not None
            named = ", ".join(f"{field} {value}" for field, value in zip(fields[:3], row[:3], strict=True))
            raise Refused(f"{model._meta.label} ({named}): not what the games give; the ratings differ")


def end_unfinished_imports() -> None:
    """An import that had not ended cannot go on (its upload is not in a backup): ended as stopped."""
    for batch_id in ImportBatch.objects.filter(status__in=UNFINISHED).values_list("pk", flat=True):
        end_as_stopped(batch_id)


class Command(BaseCommand):
    help = "Restore a backup written by `manage.py backup` into an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup file; - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            limit = settings.RESTORE_MAX_BYTES
            if name == "-":
                raw = read_capped(sys.stdin.buffer, limit)
            else:
                with Path(name).open("rb") as file:
                    raw = read_capped(file, limit)
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
                    end_unfinished_imports()
                    check_games()
                    check_ratings()
            except Exception as error:  # whatever the database or Django refused: one line, no traceback
                said = str(error).replace(f"Problem installing fixture '{fixture}': ", "")
                problem = " ".join(said.split())
                raise CommandError(f"{name}: nothing restored: {problem[:500]}", returncode=2) from None
        self.stdout.write(report.getvalue().strip())
        accounts = get_user_model()._default_manager
        for kind, who in (("superusers", {"is_superuser": True}), ("staff accounts", {"is_staff": True})):
            names = sorted(accounts.filter(**who).values_list("username", flat=True))
            self.stdout.write(f"{kind}: {', '.join(names) if names else 'none'}")
