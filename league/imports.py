"""Uploads of games, run by a task worker, that never hold up the tables.

An upload becomes an ImportBatch (league/models.py): its file is kept in the database
(`ImportFile`) and a task is queued (Django's task framework, the django-tasks backport with its
database backend), so a `manage.py db_worker` process on any machine sharing the database runs it;
the web worker that took the upload keeps nothing. Before it keeps the file, the upload page
refuses one whose first rows name a club or season the user may not import into
(`csv_io.first_places`), and one more upload than `IMPORTS_WAITING_PER_USER` unfinished imports of
the user, or `IMPORTS_WAITING_PER_SITE` of everyone, with 429 (`waiting_problem`).

The worker's task (`run_batch`) then, game by game, never holding the whole file as rows or
records (`csv_io.FileReader`):
1. reads the file through once without scoring: its encoding and kind, the uploader's rights over
   every club and season it names, JSON's syntax; a file refused here is refused before any game
   is scored;
2. reads it again, each game through the rules engine, and writes the checked games in short
   transactions of `IMPORT_CHUNK_GAMES` games, hidden (`Game.pending_import`, filtered by
   `Game.objects`), with codes already here and seasons' dates checked per chunk; after the first
   problem nothing more is written, but the reading goes on to name every problem;
3. makes them visible in one last short transaction (`publish_pending_games`).
A problem or a failure deletes the batch's hidden games: for the user the import is all or nothing.
A hand saved at a table waits at most for one chunk's transaction, never for the whole file.

The batch's state lives in the database, so any web worker shows its page. The task stamps the
batch as it goes (a heartbeat, at least every `HEARTBEAT_SECONDS` while it works): a batch without
a stamp for `QUIET_AFTER` is shown as stalled, and one silent for `IMPORT_STALLED_SECONDS` (its
worker was killed, or its machine stopped) is refused and its hidden games deleted by the next
look at its page, the next upload or the next import a worker starts. A task that ends by an
exception is refused and cleaned at once.
"""

from __future__ import annotations

import datetime
import gc
import logging
import time
import unicodedata
from collections.abc import Sequence

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.db.models import BinaryField
from django.db.models.functions import Length, Substr
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, override
from django_tasks import task

from clubs import services as club_services
from clubs.models import Club, Season
from clubs.permissions import AnyUser, can_manage_club, can_score_for_club, is_site_admin
from league import csv_io
from league.models import ImportBatch, ImportFile
from league.services import NewGame, discard_pending_games, publish_pending_games, write_pending_games
from ratings import services as rating_services
from scoring.models import Game

log = logging.getLogger(__name__)

CLUB_NAME_MAX = Club._meta.get_field("name").max_length or 100
#: The most clubs one upload by someone other than a site administrator makes (a newcomer moves
#: their club's records; a file naming hundreds of new clubs is refused before any is made).
NEW_CLUBS_MAX = 5

# The pause after each chunk on SQLite, so a hand save waiting for the write lock gets it.
SQLITE_GAP_SECONDS = 0.15
# How often a running import stamps its batch at least, and how long without a stamp its page
# calls it stalled (`IMPORT_STALLED_SECONDS` later it is refused).
HEARTBEAT_SECONDS = 2.0
QUIET_AFTER = datetime.timedelta(seconds=20)
#: A waiting upload's page says no worker seems to run after this long with none running.
NO_WORKER_AFTER = datetime.timedelta(minutes=1)

#: How much of an upload's file the task reads from the database at once.
FILE_PIECE_BYTES = 1024 * 1024

RUNNING = (ImportBatch.Status.CHECKING, ImportBatch.Status.WRITING)
UNFINISHED = (ImportBatch.Status.QUEUED, *RUNNING)

Check = csv_io.PlaceCheck


class TooManyImports(Exception):
    """One upload more than the limits allow; the message says which."""


class BatchSettled(Exception):
    """The batch was refused elsewhere (found stalled) while its task still ran."""


def waiting_problem(user: AnyUser) -> str | None:
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
        return _(
            "Too many imports waiting: the site is working through %(count)s uploads. Upload the file"
            " again in a few minutes."
        ) % {"count": everyone}
    return None


def start(
    *,
    raw: bytes,
    name: str,
    user: AnyUser,
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
        _end_unfinished(batch.pk, _failed())
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
            _end_unfinished(batch_id, _stopped())
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


def _end_unfinished(batch_id: int, problem: csv_io.Problem) -> None:
    """Refuse a batch that did not finish, with its hidden games deleted and its file dropped."""
    if ImportBatch.objects.filter(pk=batch_id, status__in=UNFINISHED).exists():
        discard_pending_games(batch_id=batch_id)
        _refuse(batch_id, [problem])
    ImportFile.objects.filter(batch_id=batch_id).delete()


def rights_of(user_id: int | None) -> Check:
    """The rights check of the batch's uploader, for a process that has no request."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first() if user_id else None
    new_clubs: set[str] = set()

    def check(places: Sequence[csv_io.Place]) -> list[csv_io.Problem]:
        if user is None:
            return [csv_io.Problem(None, _("the account that uploaded the file no longer exists"))]
        return import_rights(user, places, new_clubs=new_clubs)

    return check


def import_rights(
    user: AnyUser, places: Sequence[csv_io.Place], *, new_clubs: set[str] | None = None
) -> list[csv_io.Problem]:
    """What the user may not import, named once per club or season at the line that first names
    it: games into a club they do not score for, a new season of a club they do not organise, a
    closed season, games outside a club (nobody could see them).

    A club that does not exist yet is made by the import, with the uploader as its first organiser
    (`league.services.publish_pending_games`); only a name no club has, in any letter case, can be
    made, so nobody writes into a club that is not theirs by naming it. `new_clubs` gathers the
    new clubs of one file over the calls made while it is read: past `NEW_CLUBS_MAX` of them the
    file is refused."""
    if is_site_admin(user):
        return []
    if not user.is_authenticated:
        return [csv_io.Problem(None, _("sign in to import games"))]
    names = {place.club for place in places if place.club}
    clubs = {club.name: club.pk for club in Club.objects.filter(name__in=names)}
    seasons = set(Season.objects.filter(club__name__in=clubs).values_list("club__name", "name"))
    closed = set(
        Season.objects.filter(club__name__in=clubs, closed_at__isnull=False).values_list("club__name", "name")
    )
    problems: dict[str, csv_io.Problem] = {}
    for place in places:
        problem: str | None
        if not place.club:
            problem = _("only an administrator imports games outside a club")
        elif place.club not in clubs:
            problem = new_club_problem(place.club)
            if problem is None and new_clubs is not None:
                new_clubs.add(place.club.casefold())
                if len(new_clubs) > NEW_CLUBS_MAX:
                    problem = ngettext(
                        "the file names more than %(max)s club that is not here yet; an import makes"
                        " at most %(max)s (create the others on the Clubs page first)",
                        "the file names more than %(max)s clubs that are not here yet; an import makes"
                        " at most %(max)s (create the others on the Clubs page first)",
                        NEW_CLUBS_MAX,
                    ) % {"max": NEW_CLUBS_MAX}
        elif not can_score_for_club(user, clubs[place.club]):
            problem = _("you are not a scorer or organiser of %(club)s") % {"club": place.club}
        elif (
            place.season
            and (place.club, place.season) not in seasons
            and not can_manage_club(user, clubs[place.club])
        ):
            problem = _("season %(season)s does not exist; an organiser of the club creates it") % {
                "season": place.season
            }
        elif (place.club, place.season) in closed:
            problem = _("season %(season)s is closed: it accepts no new games") % {"season": place.season}
        else:
            problem = None
        if problem is not None and problem not in problems:
            problems[problem] = csv_io.Problem(place.line, problem)
    return list(problems.values())


def new_club_problem(name: str) -> str | None:
    """Why an import cannot make a club of this name (too long, a control character, the name of
    an existing club in other letter case), or None."""
    if len(name) > CLUB_NAME_MAX:
        return _("club: %(club)s… is longer than %(max)s characters") % {
            "club": name[:20],
            "max": CLUB_NAME_MAX,
        }
    if any(unicodedata.category(char).startswith("C") for char in name):
        return _("club: %(club)s holds a control character") % {"club": repr(name[:40])}
    try:
        club_services.check_club_name(name=name)
    except ValidationError as error:
        return _("club %(club)s: %(problem)s Write its name exactly as it is spelt, or another name.") % {
            "club": name,
            "problem": " ".join(error.messages),
        }
    return None


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
    """Check game by game, writing hidden chunks as it goes, publish; or refuse and leave nothing."""
    reader = csv_io.FileReader(raw, name=name, club=club, season=season, played_on=played_on, check=check)
    try:
        total = reader.count()
    except csv_io.ImportRefused as refused:
        _refuse(batch_id, refused.problems)
        return
    except Exception:
        log.exception("import %s: reading failed", batch_id)
        _refuse(batch_id, [_failed()])
        return
    try:
        _progress(batch_id, status=ImportBatch.Status.WRITING, total=total)
        placed, hands, database_problems = _write_checked(batch_id, reader)
        problems = reader.sorted_problems() or database_problems
        if problems:
            discard_pending_games(batch_id=batch_id)
            _refuse(batch_id, problems)
            return
        uploader = ImportBatch.objects.select_related("user").get(pk=batch_id).user
        with transaction.atomic():
            if not ImportBatch.objects.select_for_update().filter(pk=batch_id, status__in=RUNNING).exists():
                raise BatchSettled
            publish_pending_games(batch_id=batch_id, placed=placed, uploader=uploader)
            _update(batch_id, status=ImportBatch.Status.DONE, hands=hands)
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
        _refuse(batch_id, [csv_io.another_import()])
    except (PermissionDenied, ValidationError) as error:
        # The club was made by someone else, or the uploader's role changed, after the check.
        discard_pending_games(batch_id=batch_id)
        messages = error.messages if isinstance(error, ValidationError) else [str(error)]
        _refuse(batch_id, [csv_io.Problem(None, message) for message in messages])
    except csv_io.ImportRefused as refused:  # the reading stopped at a club the user may not use
        discard_pending_games(batch_id=batch_id)
        _refuse(batch_id, refused.problems)
    except Exception:
        log.exception("import %s: writing failed", batch_id)
        discard_pending_games(batch_id=batch_id)
        _refuse(batch_id, [_failed()])


def _write_checked(
    batch_id: int, reader: csv_io.FileReader
) -> tuple[list[tuple[int, NewGame]], int, list[csv_io.Problem]]:
    """Write the reader's games in hidden chunks while no problem is found: (game id, the game's
    place) of each written game, the hands written, and the database's problems (codes already
    here, seasons' dates). Only a game's place is kept once it is written, not its hands."""
    size = max(1, int(settings.IMPORT_CHUNK_GAMES))
    placed: list[tuple[int, NewGame]] = []
    chunk: list[NewGame] = []
    hands = 0
    problems: list[csv_io.Problem] = []
    stamped = time.monotonic()
    for game in reader.games():
        if reader.problems or problems:
            chunk.clear()  # nothing more is written; the reading goes on to name every problem
            if time.monotonic() - stamped > HEARTBEAT_SECONDS:
                _progress(batch_id)
                stamped = time.monotonic()
            continue
        chunk.append(game)
        if len(chunk) >= size:
            problems += _write_chunk(batch_id, chunk, placed)
            hands += sum(len(new.hands) for new in chunk)
            chunk = []
            stamped = time.monotonic()
        elif time.monotonic() - stamped > HEARTBEAT_SECONDS:
            _progress(batch_id)
            stamped = time.monotonic()
    if chunk and not reader.problems and not problems:
        problems += _write_chunk(batch_id, chunk, placed)
        hands += sum(len(new.hands) for new in chunk)
    return placed, hands, problems


def _write_chunk(
    batch_id: int, chunk: list[NewGame], placed: list[tuple[int, NewGame]]
) -> list[csv_io.Problem]:
    if problems := csv_io.place_problems(chunk):
        return problems
    began = time.monotonic()
    rows = write_pending_games(batch_id=batch_id, games=chunk)  # short transactions
    placed.extend((row.pk, _place_of(new)) for row, new in zip(rows, chunk, strict=True))
    del rows
    # The chunk's model objects refer to each other (a game, its seats): freed now, not whenever
    # the collector gets to them, so the import holds one chunk at a time.
    gc.collect()
    _progress(batch_id, written=len(placed))
    # The database serves the import at full priority (its server process is not niced): rest
    # IMPORT_WRITE_PAUSE_PERCENT of the time the chunk took (100: as long), so the tables' saves
    # find the CPU and the disk's log free half of the time. SQLite has one writer at a time, and
    # a writer kept waiting only retries every 100 ms or so: leave it a gap at least.
    rest = (time.monotonic() - began) * int(settings.IMPORT_WRITE_PAUSE_PERCENT) / 100
    if connections[DEFAULT_DB_ALIAS].vendor == "sqlite":
        rest = max(rest, SQLITE_GAP_SECONDS)
    time.sleep(rest)
    return []


def _place_of(new: NewGame) -> NewGame:
    """What publishing needs of a written game (its club, season and date), without its hands and
    scores: a large file's games are not all kept in memory."""
    return NewGame(
        settings={},
        players={},
        hands=(),
        result=None,  # type: ignore[arg-type]  # publishing reads no score
        code=new.code,
        club=new.club,
        season=new.season,
        played_on=new.played_on,
    )


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
        _end_unfinished(batch.pk, _stopped())
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


def problems_of(batch: ImportBatch) -> list[csv_io.Problem]:
    return [csv_io.Problem(p.get("line"), p.get("message", "")) for p in batch.problems]


def _failed() -> csv_io.Problem:
    return csv_io.Problem(None, _("the import failed on the server; nothing was imported"))


def _stopped() -> csv_io.Problem:
    return csv_io.Problem(None, _("the import stopped before it was finished; nothing was imported"))


def _refuse(batch_id: int, problems: list[csv_io.Problem]) -> None:
    _update(
        batch_id,
        status=ImportBatch.Status.REFUSED,
        written=0,
        problems=[{"line": p.line, "message": p.message} for p in problems[: csv_io.MAX_PROBLEMS]],
    )


def _progress(batch_id: int, **fields: object) -> None:
    """Stamp a running batch (and note its progress); BatchSettled if it was refused meanwhile."""
    if not ImportBatch.objects.filter(pk=batch_id, status__in=RUNNING).update(
        updated_at=timezone.now(), **fields
    ):
        raise BatchSettled


def _update(batch_id: int, **fields: object) -> None:
    ImportBatch.objects.filter(pk=batch_id).update(updated_at=timezone.now(), **fields)
