"""An upload queued as a batch and its task; a batch's state as its page shows it (waiting,
quiet, stalled) and the settling of a stalled one (the whole story in `league.imports`)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import BinaryField
from django.db.models.functions import Length, Substr
from django.utils import timezone
from django.utils.translation import ngettext, override
from django_tasks import task

from league.csv_io.problems import Problem
from league.imports.batch import RUNNING, UNFINISHED, end_as_stopped, end_unfinished, log, server_failure
from league.imports.rights import rights_of
from league.imports.worker import run
from league.models import ImportBatch, ImportFile

QUIET_AFTER = datetime.timedelta(seconds=20)
#: A waiting upload's page says no worker seems to run after this long with none running.
NO_WORKER_AFTER = datetime.timedelta(minutes=1)

#: How much of an upload's file the task reads from the database at once.
FILE_PIECE_BYTES = 1024 * 1024


class TooManyImports(Exception):
    """One upload more than the limits allow; the message says which."""


def waiting_problem(user: User) -> str | None:
    """Why the user may not upload now: too many unfinished imports of theirs, or of everyone."""
    settle_stalled()
    unfinished = ImportBatch.objects.filter(status__in=UNFINISHED)
    mine = unfinished.filter(user_id=user.pk).count()
    per_user = int(settings.IMPORTS_WAITING_PER_USER)
    if mine >= per_user:
        return ngettext(
            "Too many imports waiting: %(count)s of yours is not finished yet, and at most %(limit)s"
            " may wait at once. Upload the file again when it is done.",
            "Too many imports waiting: %(count)s of yours are not finished yet, and at most %(limit)s"
            " may wait at once. Upload the file again when one is done.",
            mine,
        ) % {"count": mine, "limit": per_user}
    everyone = unfinished.count()
    if everyone >= int(settings.IMPORTS_WAITING_PER_SITE):
        return ngettext(
            "Too many imports waiting: the site is working through %(count)s upload. Upload the file"
            " again in a few minutes.",
            "Too many imports waiting: the site is working through %(count)s uploads. Upload the file"
            " again in a few minutes.",
            everyone,
        ) % {"count": everyone}
    return None


def start(
    *,
    raw: bytes,
    name: str,
    user: User,
    club: str = "",
    season: str = "",
    played_on: datetime.date | None = None,
    language: str | None = None,
) -> ImportBatch:
    """Keep the file and queue its import (TooManyImports past the limits). With an immediate task
    backend (the tests) the import has run when this returns."""
    with transaction.atomic():
        # One upload at a time per account: two at once cannot both take the last place.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if problem := waiting_problem(user):
            raise TooManyImports(problem)
        batch = ImportBatch.objects.create(user_id=user.pk, file_name=name[:255])
        ImportFile.objects.create(batch=batch, data=raw)
    try:
        run_batch.enqueue(
            batch.pk,
            name=name,
            club=club,
            season=season,
            played_on=played_on.isoformat() if played_on else None,
            language=language,
        )
    except Exception:
        log.exception("import %s: the task could not be queued", batch.pk)
        end_unfinished(batch.pk, server_failure())
    batch.refresh_from_db()
    return batch


@task()
def run_batch(
    batch_id: int,
    *,
    name: str,
    club: str = "",
    season: str = "",
    played_on: str | None = None,
    language: str | None = None,
) -> str:
    """The queued import of one upload, run by a task worker: its status when it ends."""
    taken = ImportBatch.objects.filter(pk=batch_id, status=ImportBatch.Status.QUEUED).update(
        status=ImportBatch.Status.CHECKING, updated_at=timezone.now()
    )
    if not taken:  # refused meanwhile, or run by another worker
        return "not waiting"
    with override(language):
        try:
            settle_stalled()
            user_id = ImportBatch.objects.filter(pk=batch_id).values_list("user_id", flat=True).first()
            run(
                batch_id,
                _file_of(batch_id),
                name=name,
                club=club,
                season=season,
                played_on=datetime.date.fromisoformat(played_on) if played_on else None,
                check=rights_of(user_id),
            )
        except BaseException:  # a crash, a second stop signal to the worker: nothing stays
            log.exception("import %s: the task failed", batch_id)
            end_as_stopped(batch_id)
            raise
        finally:
            ImportFile.objects.filter(batch_id=batch_id).delete()
    return str(ImportBatch.objects.filter(pk=batch_id).values_list("status", flat=True).first())


def _file_of(batch_id: int) -> bytes:
    """The upload's bytes. PostgreSQL sends a bytea value as hex text, which the driver buffers
    whole: a 20 MB file fetched at once cost the worker 6 times its size, so it is read there
    `FILE_PIECE_BYTES` at a time. SQLite hands the value over as it is stored."""
    files = ImportFile.objects.filter(batch_id=batch_id)
    if connections[DEFAULT_DB_ALIAS].vendor != "postgresql":
        return bytes(files.values_list("data", flat=True).first() or b"")
    size = files.annotate(size=Length("data")).values_list("size", flat=True).first() or 0
    pieces = []
    for start in range(0, size, FILE_PIECE_BYTES):
        piece = Substr("data", start + 1, FILE_PIECE_BYTES, output_field=BinaryField())
        pieces.append(bytes(files.annotate(piece=piece).values_list("piece", flat=True).get()))
    return b"".join(pieces)


def settle_stalled() -> None:
    """Refuse every running batch whose worker has been silent too long (and delete its games)."""
    for batch in ImportBatch.objects.filter(
        status__in=RUNNING, updated_at__lt=timezone.now() - _stalled_after()
    ):
        settle_if_stalled(batch)


def _stalled_after() -> datetime.timedelta:
    return datetime.timedelta(seconds=int(settings.IMPORT_STALLED_SECONDS))


def settle_if_stalled(batch: ImportBatch) -> ImportBatch:
    """A batch left unfinished by a stopped worker is refused and its hidden games deleted."""
    if batch.status in RUNNING and timezone.now() - batch.updated_at > _stalled_after():
        end_as_stopped(batch.pk)
        batch.refresh_from_db()
    return batch


def is_quiet(batch: ImportBatch) -> bool:
    """A running batch whose import has not stamped it for a while: stalled, or starved."""
    return batch.status in RUNNING and timezone.now() - batch.updated_at > QUIET_AFTER


def waiting_ahead(batch: ImportBatch) -> int:
    """How many unfinished uploads came before this waiting one."""
    return ImportBatch.objects.filter(status__in=UNFINISHED, pk__lt=batch.pk).count()


def no_worker_seen(batch: ImportBatch) -> bool:
    """A batch waiting a while with no import running anywhere: no task worker seems to run."""
    if batch.status != ImportBatch.Status.QUEUED or timezone.now() - batch.created_at < NO_WORKER_AFTER:
        return False
    return not ImportBatch.objects.filter(
        status__in=RUNNING, updated_at__gt=timezone.now() - QUIET_AFTER
    ).exists()


def problems_of(batch: ImportBatch) -> list[Problem]:
    return [Problem(p.get("line"), p.get("message", "")) for p in batch.problems]
