"""Uploads of games that never hold up the tables (issue 13, point 5).

An upload becomes an ImportBatch (league/models.py) and is then:
1. checked whole, with no write lock held: parsed, every game through the engine, the user's
   rights, codes already here, seasons' dates (`csv_io.check_bytes`); a bad file is refused here
   with every problem and nothing written;
2. written in short transactions of `IMPORT_CHUNK_GAMES` games each, hidden (`Game.pending_import`,
   filtered by `Game.objects`), the batch counting the games written;
3. made visible in one last short transaction (`publish_pending_games`).
A failure in 2 or 3 deletes the batch's hidden games: for the user the import is all or nothing.
A hand saved at a table waits at most for one chunk's transaction, never for the whole file.

On the web the steps run in a thread of the worker that took the upload (IMPORT_IN_BACKGROUND),
so the request answers at once and the import page shows the batch's progress; the batch's state
lives in the database, so any worker can show it. A batch whose thread died (the worker was
restarted) stops counting; its page then refuses it and deletes its hidden games.
"""

from __future__ import annotations

import datetime
import logging
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, close_old_connections, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override

from league import csv_io
from league.models import ImportBatch
from league.services import NewGame, discard_pending_games, publish_pending_games, write_pending_games
from ratings import services as rating_services
from scoring.models import Game

log = logging.getLogger(__name__)

# The pause after each chunk on SQLite, so a hand save waiting for the write lock gets it.
SQLITE_GAP_SECONDS = 0.15
# A batch that has not moved for this long lost its thread (the worker was stopped).
STALLED_AFTER = datetime.timedelta(minutes=3)

Check = Callable[[list[NewGame]], list[csv_io.Problem]]


def start(
    *,
    raw: bytes,
    name: str,
    user_id: int | None,
    club: str = "",
    season: str = "",
    played_on: datetime.date | None = None,
    check: Check | None = None,
    language: str | None = None,
) -> ImportBatch:
    """Make the batch and run it: in a thread when IMPORT_IN_BACKGROUND, else before returning."""
    batch = ImportBatch.objects.create(user_id=user_id, file_name=name[:255])

    def job() -> None:
        with override(language):
            run(batch.pk, raw, name=name, club=club, season=season, played_on=played_on, check=check)

    if settings.IMPORT_IN_BACKGROUND:
        threading.Thread(target=_in_thread, args=(job,), name=f"import-{batch.pk}", daemon=True).start()
    else:
        job()
    batch.refresh_from_db()
    return batch


def _in_thread(job: Callable[[], None]) -> None:
    close_old_connections()
    try:
        job()
    finally:
        connections.close_all()  # this thread's own connection


def run(
    batch_id: int,
    raw: bytes,
    *,
    name: str,
    club: str = "",
    season: str = "",
    played_on: datetime.date | None = None,
    check: Check | None = None,
) -> None:
    """Check, write in chunks, publish; or refuse and leave nothing behind."""
    try:
        games = csv_io.check_bytes(raw, name=name, club=club, season=season, played_on=played_on, check=check)
    except csv_io.ImportRefused as refused:
        _refuse(batch_id, refused.problems)
        return
    except Exception:
        log.exception("import %s: checking failed", batch_id)
        _refuse(batch_id, [_failed()])
        return
    hands = sum(len(game.hands) for game in games)
    _update(batch_id, status=ImportBatch.Status.WRITING, total=len(games), hands=hands)
    size = max(1, int(settings.IMPORT_CHUNK_GAMES))
    placed: list[tuple[int, NewGame]] = []
    try:
        for start_at in range(0, len(games), size):
            chunk = games[start_at : start_at + size]
            rows = write_pending_games(batch_id=batch_id, games=chunk)  # one short transaction
            placed.extend((row.pk, new) for row, new in zip(rows, chunk, strict=True))
            _update(batch_id, written=len(placed))
            if connections[DEFAULT_DB_ALIAS].vendor == "sqlite":
                # SQLite has one writer at a time, and a writer kept waiting only retries every
                # 100 ms or so: leave it a gap, or back-to-back chunks would starve it.
                time.sleep(SQLITE_GAP_SECONDS)
        with transaction.atomic():
            publish_pending_games(batch_id=batch_id, placed=placed)
            _update(batch_id, status=ImportBatch.Status.DONE)
        # Ratings are derived: the clubs the import filled are rated again, after the publishing
        # transaction (a table's hand save need not wait for it).
        clubs = Game.objects.filter(pk__in=[pk for pk, _new in placed]).values_list("club_id", flat=True)
        rating_services.recompute_scopes(rating_services.scopes_for_clubs(set(clubs)))
    except IntegrityError:
        # Another import took one of these game codes between the check and the write.
        discard_pending_games(batch_id=batch_id)
        _refuse(batch_id, [csv_io.another_import()])
    except Exception:
        log.exception("import %s: writing failed", batch_id)
        discard_pending_games(batch_id=batch_id)
        _refuse(batch_id, [_failed()])


def settle_if_stalled(batch: ImportBatch) -> ImportBatch:
    """A batch left unfinished by a stopped worker is refused and its hidden games deleted."""
    if not batch.finished and timezone.now() - batch.updated_at > STALLED_AFTER:
        discard_pending_games(batch_id=batch.pk)
        _refuse(
            batch.pk,
            [csv_io.Problem(None, _("the import stopped before it was finished; nothing was imported"))],
        )
        batch.refresh_from_db()
    return batch


def problems_of(batch: ImportBatch) -> list[csv_io.Problem]:
    return [csv_io.Problem(p.get("line"), p.get("message", "")) for p in batch.problems]


def _failed() -> csv_io.Problem:
    return csv_io.Problem(None, _("the import failed on the server; nothing was imported"))


def _refuse(batch_id: int, problems: list[csv_io.Problem]) -> None:
    _update(
        batch_id,
        status=ImportBatch.Status.REFUSED,
        written=0,
        problems=[{"line": p.line, "message": p.message} for p in problems[:1000]],
    )


def _update(batch_id: int, **fields: object) -> None:
    ImportBatch.objects.filter(pk=batch_id).update(updated_at=timezone.now(), **fields)
