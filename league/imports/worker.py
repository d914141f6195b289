"""An import, the one way every file is imported: the file read, every game checked, written in
hidden chunks, then made visible at once (or all deleted). `run` is an upload's batch, run by the
task worker (league/imports/queue.py); `import_bytes` runs the same for the import_games command,
at once and in one transaction. So the rules of an import (what is checked and in which order,
what is written, the messages of a refusal) are written here once."""

from __future__ import annotations

import datetime
import gc
import time

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction

from league.csv_io.problems import ImportRefused, ImportReport, Problem, another_import
from league.csv_io.reader import FileReader, place_problems
from league.imports.batch import (
    HEARTBEAT_SECONDS,
    RUNNING,
    BatchSettled,
    log,
    refuse_batch,
    server_failure,
    stamp_progress,
    update_batch,
)
from league.imports.rights import Check
from league.models import ImportBatch
from league.services import (
    GamePlace,
    NewGame,
    discard_pending_games,
    durable_commit,
    publish_pending_games,
    write_pending_games,
)
from ratings import services as rating_services
from scoring.models import Game

# The pause after each chunk on SQLite, so a hand save waiting for the write lock gets it.
SQLITE_GAP_SECONDS = 0.15


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
    """An upload's batch: check game by game, writing hidden chunks as it goes, publish; or refuse
    and leave nothing."""
    reader = FileReader(raw, name=name, club=club, season=season, played_on=played_on, check=check)
    try:
        total = reader.count()
    except ImportRefused as refused:
        refuse_batch(batch_id, refused.problems)
        return
    except Exception:
        log.exception("import %s: reading failed", batch_id)
        refuse_batch(batch_id, [server_failure()])
        return
    _write_and_publish(batch_id, reader, total, rest=True)


def _write_and_publish(batch_id: int, reader: FileReader, total: int, *, rest: bool) -> None:
    """After the first read (`FileReader.count`): the games checked and written in hidden chunks,
    then published, or the batch refused with its problems and nothing left. `rest`: pause after
    each chunk so the tables' saves go first (an upload, beside the tables; not the command, which
    runs in one transaction of its own)."""
    try:
        stamp_progress(batch_id, status=ImportBatch.Status.WRITING, total=total)
        placed, hands, database_problems = _write_checked(batch_id, reader, rest=rest)
        problems = reader.sorted_problems() or database_problems
        if problems:
            discard_pending_games(batch_id=batch_id)
            refuse_batch(batch_id, problems)
            return
        uploader = ImportBatch.objects.select_related("user").get(pk=batch_id).user
        with transaction.atomic():
            if not ImportBatch.objects.select_for_update().filter(pk=batch_id, status__in=RUNNING).exists():
                raise BatchSettled
            publish_pending_games(batch_id=batch_id, placed=placed, uploader=uploader)
            update_batch(batch_id, status=ImportBatch.Status.DONE, hands=hands)
        # Ratings are derived: the clubs the import filled are rated again, after the publishing
        # transaction (a table's hand save need not wait for it).
        clubs = Game.objects.filter(pk__in=[pk for pk, _new in placed]).values_list("club_id", flat=True)
        rating_services.recompute_scopes(rating_services.scopes_for_clubs(set(clubs)))
    except BatchSettled:
        discard_pending_games(batch_id=batch_id)
    except IntegrityError:
        # Another import took one of these game codes (or made one of these clubs) between the
        # check and the write.
        discard_pending_games(batch_id=batch_id)
        refuse_batch(batch_id, [another_import()])
    except (PermissionDenied, ValidationError) as error:
        # The club was made by someone else, or the uploader's role changed, after the check.
        discard_pending_games(batch_id=batch_id)
        messages = error.messages if isinstance(error, ValidationError) else [str(error)]
        refuse_batch(batch_id, [Problem(None, message) for message in messages])
    except ImportRefused as refused:  # the reading stopped at a club the user may not use
        discard_pending_games(batch_id=batch_id)
        refuse_batch(batch_id, refused.problems)
    except Exception:
        log.exception("import %s: writing failed", batch_id)
        discard_pending_games(batch_id=batch_id)
        refuse_batch(batch_id, [server_failure()])


def _write_checked(
    batch_id: int, reader: FileReader, *, rest: bool
) -> tuple[list[tuple[int, GamePlace]], int, list[Problem]]:
    """Write the reader's games in hidden chunks while no problem is found: (game id, the game's
    place) of each written game, the hands written, and the database's problems (codes already
    here, seasons' dates). Only a game's place is kept once it is written, not its hands."""
    size = max(1, int(settings.IMPORT_CHUNK_GAMES))
    placed: list[tuple[int, GamePlace]] = []
    chunk: list[NewGame] = []
    hands = 0
    problems: list[Problem] = []
    stamped = time.monotonic()
    for game in reader.games():
        if reader.problems or problems:
            chunk.clear()  # nothing more is written; the reading goes on to name every problem
            if time.monotonic() - stamped > HEARTBEAT_SECONDS:
                stamp_progress(batch_id)
                stamped = time.monotonic()
            continue
        chunk.append(game)
        if len(chunk) >= size:
            problems += _write_chunk(batch_id, chunk, placed, rest=rest)
            hands += sum(len(new.hands) for new in chunk)
            chunk = []
            stamped = time.monotonic()
        elif time.monotonic() - stamped > HEARTBEAT_SECONDS:
            stamp_progress(batch_id)
            stamped = time.monotonic()
    if chunk and not reader.problems and not problems:
        problems += _write_chunk(batch_id, chunk, placed, rest=rest)
        hands += sum(len(new.hands) for new in chunk)
    return placed, hands, problems


def _write_chunk(
    batch_id: int, chunk: list[NewGame], placed: list[tuple[int, GamePlace]], *, rest: bool
) -> list[Problem]:
    if problems := place_problems(chunk):
        return problems
    began = time.monotonic()
    rows = write_pending_games(batch_id=batch_id, games=chunk)  # short transactions
    placed.extend((row.pk, _place_of(new)) for row, new in zip(rows, chunk, strict=True))
    del rows
    # The chunk's model objects refer to each other (a game, its seats): freed now, not whenever
    # the collector gets to them, so the import holds one chunk at a time.
    gc.collect()
    stamp_progress(batch_id, written=len(placed))
    if not rest:
        return []
    # The database serves the import at full priority (its server process is not niced): rest
    # IMPORT_WRITE_PAUSE_PERCENT of the time the chunk took (100: as long), so the tables' saves
    # find the CPU and the disk's log free half of the time. SQLite has one writer at a time, and
    # a writer kept waiting only retries every 100 ms or so: leave it a gap at least.
    pause = (time.monotonic() - began) * int(settings.IMPORT_WRITE_PAUSE_PERCENT) / 100
    if connections[DEFAULT_DB_ALIAS].vendor == "sqlite":
        pause = max(pause, SQLITE_GAP_SECONDS)
    time.sleep(pause)
    return []


def _place_of(new: NewGame) -> GamePlace:
    """What publishing needs of a written game (its club, season and date), without its hands and
    scores: a large file's games are not all kept in memory."""
    return GamePlace(club=new.club, season=new.season, played_on=new.played_on)


def import_bytes(
    raw: bytes,
    *,
    name: str = "file",
    club: str = "",
    season: str = "",
    played_on: datetime.date | None = None,
    check: Check | None = None,
) -> ImportReport:
    """Import one file now, all or nothing, in one transaction (the import_games command; within
    the caller's transaction if it has one), by the steps of an upload's task (`run`): the first
    read, then `_write_and_publish` for a batch of no account, without the pauses; the batch is
    dropped once it has ended. ImportRefused, nothing written, with the problems found; else how
    many games and hands were imported.

    `check` (the importing user's rights) sees every club and season the file names before its
    games are scored; any problem it returns refuses the whole file."""
    reader = FileReader(raw, name=name, club=club, season=season, played_on=played_on, check=check)
    total = reader.count()  # a file refused here has written nothing, not even its batch
    with transaction.atomic():
        batch = ImportBatch.objects.create(file_name=name[:255], status=ImportBatch.Status.CHECKING)
        _write_and_publish(batch.pk, reader, total, rest=False)
        batch.refresh_from_db()
        if batch.status != ImportBatch.Status.DONE:
            raise ImportRefused([Problem(p.get("line"), p.get("message", "")) for p in batch.problems])
        batch.delete()
        durable_commit()
    return ImportReport(games=batch.written, hands=batch.hands)
