"""A batch's row written as it goes: progress, its end, a refusal with its problems."""

from __future__ import annotations

import logging

from django.utils import timezone
from django.utils.translation import gettext as _

from league.csv_io.problems import MAX_PROBLEMS, Problem
from league.models import ImportBatch, ImportFile
from league.services import discard_pending_games

log = logging.getLogger(__name__)
# How often a running import stamps its batch at least, and how long without a stamp its page
# calls it stalled (`IMPORT_STALLED_SECONDS` later it is refused).
HEARTBEAT_SECONDS = 2.0

RUNNING = (ImportBatch.Status.CHECKING, ImportBatch.Status.WRITING)
UNFINISHED = (ImportBatch.Status.QUEUED, *RUNNING)


class BatchSettled(Exception):
    """The batch was refused elsewhere (found stalled) while its task still ran."""


def end_unfinished(batch_id: int, problem: Problem) -> None:
    """Refuse a batch that did not finish, with its hidden games deleted and its file dropped."""
    if ImportBatch.objects.filter(pk=batch_id, status__in=UNFINISHED).exists():
        discard_pending_games(batch_id=batch_id)
        refuse_batch(batch_id, [problem])
    ImportFile.objects.filter(batch_id=batch_id).delete()


def end_as_stopped(batch_id: int) -> None:
    """End a batch that cannot go on (its worker or its upload is gone) as stopped: refused, its
    hidden games deleted."""
    end_unfinished(batch_id, _stopped())


def server_failure() -> Problem:
    return Problem(None, _("the import failed on the server; nothing was imported"))


def _stopped() -> Problem:
    return Problem(None, _("the import stopped before it was finished; nothing was imported"))


def refuse_batch(batch_id: int, problems: list[Problem]) -> None:
    update_batch(
        batch_id,
        status=ImportBatch.Status.REFUSED,
        written=0,
        problems=[{"line": p.line, "message": p.message} for p in problems[:MAX_PROBLEMS]],
    )


def stamp_progress(batch_id: int, **fields: object) -> None:
    """Stamp a running batch (and note its progress); BatchSettled if it was refused meanwhile."""
    if not ImportBatch.objects.filter(pk=batch_id, status__in=RUNNING).update(
        updated_at=timezone.now(), **fields
    ):
        raise BatchSettled


def update_batch(batch_id: int, **fields: object) -> None:
    ImportBatch.objects.filter(pk=batch_id).update(updated_at=timezone.now(), **fields)
