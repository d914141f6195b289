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

On the web (IMPORT_IN_BACKGROUND) the request answers at once and the import page shows the
batch's progress; the batch's state lives in the database, so any worker can show it. The steps
run in a separate OS process, `manage.py run_import <id> --niceness IMPORT_NICENESS`, fed the file
on its standard input (IMPORT_IN_PROCESS; off: a thread of the worker), so the parsing and
rescoring of a large file takes neither the worker's interpreter lock nor, being niced, the CPU a
hand save needs. A worker runs at most IMPORT_PROCESSES of them at once; more uploads wait their
turn (their page says "checking"). A process that exits without finishing its batch (a crash, a
kill) has the batch refused with a message and its hidden games deleted by the worker that
started it. While it runs, the process stamps the batch every `HEARTBEAT_SECONDS` (a heartbeat):
a batch without one for `QUIET_AFTER` is shown as stalled, and one silent for `STALLED_AFTER` (its
worker was stopped too) is refused and cleaned by the next look at its page.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import datetime
import logging
import shutil
import subprocess
import sys
import threading
import time
import unicodedata
from collections.abc import Iterator, Sequence

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DEFAULT_DB_ALIAS, IntegrityError, close_old_connections, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, override

from clubs import services as club_services
from clubs.models import Club, Season
from clubs.permissions import AnyUser, can_manage_club, can_score_for_club, is_site_admin
from league import csv_io
from league.models import ImportBatch
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
# How often a running import stamps its batch, how long without a stamp its page calls it
# stalled, and how long before a silent batch (its process and its worker gone) is refused.
HEARTBEAT_SECONDS = 2.0
QUIET_AFTER = datetime.timedelta(seconds=20)
STALLED_AFTER = datetime.timedelta(minutes=3)

Check = csv_io.PlaceCheck


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
    """Make the batch and run it: in a process (or a thread) when IMPORT_IN_BACKGROUND, else
    before returning. `check` is used in this process only; a separate one checks the rights of
    the batch's user itself (`rights_of`)."""
    batch = ImportBatch.objects.create(user_id=user_id, file_name=name[:255])
    job = Job(batch.pk, raw, name=name, club=club, season=season, played_on=played_on, language=language)
    if not settings.IMPORT_IN_BACKGROUND:
        job.run_here(check)
    elif settings.IMPORT_IN_PROCESS:
        RUNNER.submit(job)
    else:
        threading.Thread(target=_in_thread, args=(job, check), name=f"import-{batch.pk}", daemon=True).start()
    batch.refresh_from_db()
    return batch


@dataclasses.dataclass
class Job:
    """One upload to run: the batch, the file's bytes and what the form said."""

    batch_id: int
    raw: bytes
    name: str = ""
    club: str = ""
    season: str = ""
    played_on: datetime.date | None = None
    language: str | None = None

    def run_here(self, check: Check | None) -> None:
        with override(self.language):
            run(
                self.batch_id,
                self.raw,
                name=self.name,
                club=self.club,
                season=self.season,
                played_on=self.played_on,
                check=check,
            )

    def command(self) -> list[str]:
        """The `run_import` command line; the file goes to its standard input."""
        manage = str(settings.BASE_DIR / "manage.py")
        niceness = int(settings.IMPORT_NICENESS)
        # `nice` lowers the priority from the start (Python and Django starting up take a second
        # of CPU); --niceness makes sure of it where there is no `nice`.
        nice = shutil.which("nice") if niceness > 0 else None
        line = [nice, "-n", str(niceness)] if nice else []
        line += [sys.executable, manage, "run_import", str(self.batch_id)]
        line += [f"--niceness={niceness}", f"--name={_argument(self.name)}"]
        line += [f"--club={_argument(self.club)}", f"--season={_argument(self.season)}"]
        if self.played_on:
            line.append(f"--date={self.played_on.isoformat()}")
        if self.language:
            line.append(f"--language={_argument(self.language)}")
        return line


def _argument(text: str) -> str:
    """Text a command line can carry (no NUL, no lone surrogate)."""
    return text.encode("utf-8", "replace").decode("utf-8").replace("\x00", "")


def _in_thread(job: Job, check: Check | None) -> None:
    close_old_connections()
    try:
        with heartbeat(job.batch_id):
            job.run_here(check)
    finally:
        connections.close_all()  # this thread's own connection


class Runner:
    """A worker's import processes: at most IMPORT_PROCESSES at once, the others queued. A thread
    per process feeds it the file, waits for it, and refuses its batch if it ended unfinished."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiting: collections.deque[Job] = collections.deque()
        self.running = 0

    def submit(self, job: Job) -> None:
        with self.lock:
            self.waiting.append(job)
            self._fill()

    def _fill(self) -> None:  # with self.lock held
        while self.waiting and self.running < max(1, int(settings.IMPORT_PROCESSES)):
            job = self.waiting.popleft()
            self.running += 1
            name = f"import-{job.batch_id}"
            threading.Thread(target=self._watch, args=(job,), name=name, daemon=True).start()

    def _watch(self, job: Job) -> None:
        try:
            status = self._run(job)
            if status != 0:
                log.error("import %s: run_import exited with status %s", job.batch_id, status)
            close_old_connections()
            with override(job.language):
                ended_unfinished(job.batch_id, status)
        except Exception:
            log.exception("import %s: the import process could not be watched", job.batch_id)
        finally:
            connections.close_all()
            with self.lock:
                self.running -= 1
                self._fill()

    @staticmethod
    def _run(job: Job) -> int:
        try:
            process = subprocess.Popen(job.command(), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        except OSError:
            log.exception("import %s: run_import could not be started", job.batch_id)
            return -1
        try:
            process.communicate(job.raw)
        except OSError:  # the process died before reading the whole file
            process.wait()
        job.raw = b""
        return process.returncode


RUNNER = Runner()


def ended_unfinished(batch_id: int, status: int) -> bool:
    """After the import process ended: a batch it left unfinished is refused (its hidden games
    deleted) with a message saying the import stopped. True when that happened."""
    batch = ImportBatch.objects.filter(pk=batch_id).first()
    if batch is None or batch.finished:
        return False
    discard_pending_games(batch_id=batch_id)
    _refuse(
        batch_id,
        [
            csv_io.Problem(
                None,
                _(
                    "the import process stopped before it was finished (status %(status)s);"
                    " nothing was imported"
                )
                % {"status": status},
            )
        ],
    )
    return True


@contextlib.contextmanager
def heartbeat(batch_id: int, every: float = HEARTBEAT_SECONDS) -> Iterator[None]:
    """Stamp the batch every `every` seconds while the block runs (its own thread and connection),
    so its page can tell a long but living import from a dead one."""
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(every):
                ImportBatch.objects.filter(
                    pk=batch_id, status__in=(ImportBatch.Status.CHECKING, ImportBatch.Status.WRITING)
                ).update(updated_at=timezone.now())
        except Exception:
            log.exception("import %s: heartbeat failed", batch_id)
        finally:
            connections.close_all()

    thread = threading.Thread(target=beat, name=f"import-{batch_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=30)


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
            began = time.monotonic()
            rows = write_pending_games(batch_id=batch_id, games=chunk)  # short transactions
            placed.extend((row.pk, new) for row, new in zip(rows, chunk, strict=True))
            _update(batch_id, written=len(placed))
            # The database serves the import at full priority (its server process is not niced):
            # rest IMPORT_WRITE_PAUSE_PERCENT of the time the chunk took (100: as long), so the
            # tables' saves find the CPU and the disk's log free half of the time. SQLite has one
            # writer at a time, and a writer kept waiting only retries every 100 ms or so: leave
            # it a gap at least.
            rest = (time.monotonic() - began) * int(settings.IMPORT_WRITE_PAUSE_PERCENT) / 100
            if connections[DEFAULT_DB_ALIAS].vendor == "sqlite":
                rest = max(rest, SQLITE_GAP_SECONDS)
            time.sleep(rest)
        uploader = ImportBatch.objects.select_related("user").get(pk=batch_id).user
        with transaction.atomic():
            publish_pending_games(batch_id=batch_id, placed=placed, uploader=uploader)
            _update(batch_id, status=ImportBatch.Status.DONE)
        # Ratings are derived: the clubs the import filled are rated again, after the publishing
        # transaction (a table's hand save need not wait for it).
        clubs = Game.objects.filter(pk__in=[pk for pk, _new in placed]).values_list("club_id", flat=True)
        rating_services.recompute_scopes(rating_services.scopes_for_clubs(set(clubs)))
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


def is_quiet(batch: ImportBatch) -> bool:
    """An unfinished batch whose import has not stamped it for a while: stalled, or starved."""
    return not batch.finished and timezone.now() - batch.updated_at > QUIET_AFTER


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
