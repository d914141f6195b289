"""Uploads are imported by a task worker, never by the web worker that took them: the file is kept
in the database and a task queued (Django's task framework, database backend), and a
`manage.py db_worker` process, on any machine sharing the database, imports it. How many imports
may wait is bounded per account and per site (429 before the file is read); a task that crashes,
or a worker that goes silent, leaves the batch refused with a message and nothing visible.
bench/import_while_saving.py measures the whole thing under gunicorn; these tests pin each part.
"""

import datetime
import json
import os
import subprocess
import sys
import tracemalloc

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.utils import timezone

from clubs.models import Club, ClubRole, Player, Season
from league import services
from league.csv_io.problems import MAX_PROBLEMS
from league.csv_io.reader import FileReader, check_bytes
from league.imports import queue, worker
from league.imports.queue import run_batch
from league.models import ImportBatch, ImportFile, PendingGame
from scoring.models import Game, Hand
from tests.league_data import small_season

DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def _organiser(username: str = "boss") -> User:
    """An organiser of Klubbén, the small season's club (made here when the test has no season)."""
    club, _made = Club.objects.get_or_create(name="Klubbén")
    user = User.objects.create_user(username, f"{username}@example.org", "not-used-here-1")
    ClubRole.objects.create(user=user, club=club, role=ClubRole.Role.ORGANISER)
    return user


def _exported() -> bytes:
    """The small season as hands.csv (exported by an organiser of its club), and a database
    without its games, players, season, roles or club."""
    small_season()
    exporter = Client()
    exporter.force_login(_organiser("exporter"))
    raw = exporter.get("/league/export/hands.csv").getvalue()
    Game.objects.all().delete()
    Player.objects.all().delete()
    Season.objects.all().delete()
    Club.objects.all().delete()
    return raw


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _upload(client: Client, raw: bytes, name: str = "hands.csv"):
    return client.post("/league/import/", {"file": SimpleUploadedFile(name, raw, content_type="text/csv")})


def _database_url() -> str:
    """The test database, for a process started by the test."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.mark.django_db(transaction=True)
def test_an_upload_waits_in_the_queue_until_a_db_worker_process_imports_it(settings):
    settings.TASKS = DATABASE_QUEUE
    raw = _exported()
    newcomer = User.objects.create_user("newcomer", "n@example.org", "not-used-here-1")
    client = _client(newcomer)

    response = _upload(client, raw)

    assert response.status_code == 302
    status_url = response["Location"]
    batch = ImportBatch.objects.get()
    assert status_url == f"/league/import/{batch.pk}/"
    page = client.get(status_url).content.decode()
    assert "Waiting for its turn: 0 imports ahead of it" in page and 'http-equiv="refresh"' in page
    assert ImportFile.objects.filter(batch=batch).exists() and not Game.all_objects.exists()

    process = subprocess.run(
        [sys.executable, "manage.py", "db_worker", "--batch", "--no-reload", "--no-startup-delay"],
        cwd=django_settings.BASE_DIR,
        env={**os.environ, "DATABASE_URL": _database_url()},
        capture_output=True,
        timeout=300,
        check=False,
    )

    assert process.returncode == 0, process.stderr.decode()[-2000:]
    batch.refresh_from_db()
    assert (batch.status, batch.written, batch.total, batch.hands) == ("done", 3, 3, 4)
    assert Game.objects.count() == 3 and Hand.objects.count() == 4
    # The worker checked the uploader's rights: a newcomer's file makes its club, theirs.
    assert ClubRole.objects.get(club__name="Klubbén").user == newcomer
    assert not ImportFile.objects.exists()  # the file is dropped once imported
    assert "Imported 3 games with 4 hands." in client.get(status_url).content.decode()


@pytest.mark.django_db
def test_a_user_with_too_many_imports_waiting_is_refused_with_429_before_the_file_is_read(settings):
    settings.IMPORTS_WAITING_PER_USER = 2
    uploader = _organiser()
    ImportBatch.objects.create(user=uploader, file_name="1.csv")
    ImportBatch.objects.create(user=uploader, file_name="2.csv", status=ImportBatch.Status.WRITING)
    ImportBatch.objects.create(user=uploader, file_name="old.csv", status=ImportBatch.Status.DONE)

    response = _client(uploader).post("/league/import/", {})  # no file: the form is never read

    assert response.status_code == 429 and response["Retry-After"] == "60"
    page = response.content.decode()
    assert (
        "Too many imports waiting: 2 of yours are not finished yet, and at most 2 may wait at once." in page
    )
    assert ImportBatch.objects.count() == 3 and not ImportFile.objects.exists()


@pytest.mark.django_db
def test_the_site_takes_at_most_its_limit_of_waiting_imports_from_everyone(settings):
    settings.IMPORTS_WAITING_PER_SITE = 3
    others = [_organiser(f"other{n}") for n in range(3)]
    for other in others:
        ImportBatch.objects.create(user=other, file_name="big.json")
    uploader = User.objects.create_user("late", "l@example.org", "not-used-here-1")
    client = _client(uploader)
    client.cookies["django_language"] = "sv"

    response = _upload(client, b"[]", name="records.json")

    assert response.status_code == 429
    assert "För många importer väntar" in response.content.decode()
    assert ImportBatch.objects.count() == 3


@pytest.mark.django_db
def test_a_silent_import_no_longer_counts_against_the_limit_and_is_cleaned(settings):
    settings.IMPORTS_WAITING_PER_USER = 1
    raw = _exported()
    uploader = _organiser()
    stuck = ImportBatch.objects.create(user=uploader, file_name="x.csv", status=ImportBatch.Status.WRITING)
    services.write_pending_games(batch_id=stuck.pk, games=check_bytes(raw)[:2])
    ImportBatch.objects.filter(pk=stuck.pk).update(updated_at=timezone.now() - datetime.timedelta(minutes=4))

    response = _client(uploader).post(
        "/league/import/", {"file": SimpleUploadedFile("hands.csv", raw)}, follow=True
    )

    assert "Imported 3 games with 4 hands." in response.content.decode()
    stuck.refresh_from_db()
    assert stuck.status == "refused"
    assert not Game.all_objects.filter(hidden=True).exists() and not PendingGame.objects.exists()


@pytest.mark.django_db
def test_a_file_whose_first_rows_name_a_club_the_user_may_not_import_into_is_never_kept(monkeypatch):
    raw = _exported()
    _organiser("owner")
    member = User.objects.create_user("member", "m@example.org", "not-used-here-1")
    ClubRole.objects.create(user=member, club=Club.objects.get(name="Klubbén"), role="member")
    read = []
    monkeypatch.setattr(FileReader, "count", lambda self: read.append(self))

    response = _upload(_client(member), raw)

    assert response.status_code == 403
    assert (
        "<strong>Line 2:</strong> you are not a scorer or organiser of Klubbén" in response.content.decode()
    )
    assert read == [] and not ImportBatch.objects.exists() and not ImportFile.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_an_import_task_that_crashes_has_its_batch_refused_and_nothing_stays(monkeypatch):
    raw = _exported()
    uploader = _organiser()

    def crashes_half_way(batch_id, raw, **kwargs):
        ImportBatch.objects.filter(pk=batch_id).update(status=ImportBatch.Status.WRITING)
        services.write_pending_games(batch_id=batch_id, games=check_bytes(raw)[:2])
        raise SystemExit(9)  # as a worker stopped twice ends its task

    monkeypatch.setattr(queue, "run", crashes_half_way)
    client = _client(uploader)
    _upload(client, raw)

    batch = ImportBatch.objects.get()
    assert batch.status == "refused"
    assert batch.problems[0]["message"] == "the import stopped before it was finished; nothing was imported"
    assert not Game.all_objects.exists() and not Hand.objects.exists() and not ImportFile.objects.exists()
    page = client.get(f"/league/import/{batch.pk}/").content.decode()
    assert "the import stopped before it was finished" in page and "Nothing was imported." in page


@pytest.mark.django_db
def test_the_page_calls_a_silent_running_import_stalled_and_a_waiting_one_waiting():
    organiser = _organiser()
    old = timezone.now() - datetime.timedelta(seconds=40)
    running = ImportBatch.objects.create(
        user=organiser, file_name="big.json", status=ImportBatch.Status.WRITING, total=1500, written=600
    )
    waiting = ImportBatch.objects.create(user=organiser, file_name="next.json")
    ImportBatch.objects.filter(pk__in=[running.pk, waiting.pk]).update(updated_at=old, created_at=old)
    client = _client(organiser)

    page = client.get(f"/league/import/{running.pk}/").content.decode()
    assert "it may have stalled" in page and "Imported 600 of 1,500 games" in page
    assert '<meta http-equiv="refresh" content="2">' in page  # still followed: it may come back
    page = client.get(f"/league/import/{waiting.pk}/").content.decode()
    assert "Waiting for its turn: 1 import ahead of it" in page and "stalled" not in page

    ImportBatch.objects.filter(pk=running.pk).update(updated_at=timezone.now())  # the worker stamps it
    assert "stalled" not in client.get(f"/league/import/{running.pk}/").content.decode()
    ImportBatch.objects.filter(pk=waiting.pk).update(
        created_at=timezone.now() - datetime.timedelta(minutes=2)
    )
    ImportBatch.objects.filter(pk=running.pk).update(status=ImportBatch.Status.DONE)
    page = client.get(f"/league/import/{waiting.pk}/").content.decode()
    assert "the site's import worker may not be running" in page


def _records(games: int, hands: int) -> bytes:
    from bench.import_while_saving import build_file

    return build_file(games, hands)


def _task_peak(user: User, raw: bytes, name: str, club: str = "") -> tuple[int, ImportBatch]:
    """The most memory the import task (as a worker runs it, the file read from the database)
    held at once, in bytes allocated by Python, and its batch once it has run."""
    batch = ImportBatch.objects.create(user=user, file_name=name)
    ImportFile.objects.create(batch=batch, data=raw)
    tracemalloc.start()
    try:
        run_batch.call(batch.pk, name=name, club=club)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    batch.refresh_from_db()
    return peak, batch


def _peak_of_the_task(user: User, raw: bytes, name: str) -> int:
    peak, batch = _task_peak(user, raw, name)
    assert batch.status == "done", batch.problems
    return peak


@pytest.mark.django_db
def test_an_import_holds_at_most_five_times_its_file_in_memory(settings, monkeypatch, people):
    settings.IMPORT_WRITE_PAUSE_PERCENT = 0
    settings.IMPORT_CHUNK_GAMES = 5
    monkeypatch.setattr(worker, "SQLITE_GAP_SECONDS", 0.0)
    monkeypatch.setattr(queue, "FILE_PIECE_BYTES", 50_000)  # on PostgreSQL: read in several pieces
    admin = people.superuser()
    _peak_of_the_task(admin, _records(2, 5), "warm-up.json")  # modules and caches loaded once
    Game.objects.all().delete()
    records = _records(300, 10)

    json_peak = _peak_of_the_task(admin, records, "records.json")
    client = _client(admin)
    exported = client.get("/league/export/hands.csv").getvalue()
    Game.objects.all().delete()
    csv_peak = _peak_of_the_task(admin, exported, "hands.csv")

    assert len(json.loads(records)) == 300 and len(records) > 200_000
    # The bytes as stored, JSON's text, and one chunk of games with their scores.
    assert json_peak < 5 * len(records), (json_peak, len(records))
    assert csv_peak < 5 * len(exported), (csv_peak, len(exported))
    assert Game.objects.count() == 300


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_stalled_import_is_said_on_a_phone_of_360_px_in_swedish_too(live_server, page):
    width = 360
    from tests.browser import SHOTS, assert_fits_the_phone, sign_in_browser

    organiser = _organiser()
    batch = ImportBatch.objects.create(
        user=organiser,
        file_name="medlemmar-och-partier-hösten-2026-mycket-långt-filnamn.json",
        status=ImportBatch.Status.WRITING,
        total=1500,
        written=600,
    )
    ImportBatch.objects.filter(pk=batch.pk).update(updated_at=timezone.now() - datetime.timedelta(seconds=45))
    page.set_viewport_size({"width": width, "height": 740})
    sign_in_browser(page, live_server.url, organiser)
    shots = SHOTS / "imports"
    shots.mkdir(parents=True, exist_ok=True)
    for language, words in (("en", "it may have stalled"), ("sv", "kan ha fastnat")):
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page.goto(f"{live_server.url}/league/import/{batch.pk}/")
        assert page.get_by_role("alert").filter(has_text=words).is_visible()
        assert_fits_the_phone(page)
        page.screenshot(path=str(shots / f"import-stalled-{language}-{width}.png"), full_page=True)


@pytest.mark.django_db
def test_a_file_of_many_bad_rows_is_refused_holding_at_most_five_times_its_size_in_memory(settings):
    # An account in no club may upload: rows without a game id never reach the rights check, and
    # each is a problem of its own. Kept one by one, they cost the worker some 40 times the file.
    newcomer = User.objects.create_user("newcomer", "n@example.org", "not-used-here-1")
    header = b"game_id,club,seats,variant,deck,hand,bidder,bid,trump\n"
    raw = header + b",C\n" * 200_000
    peak, batch = _task_peak(newcomer, raw, "hands.csv")
    assert batch.status == "refused"
    assert len(batch.problems) == MAX_PROBLEMS
    assert batch.problems[0] == {"line": 2, "message": "game_id is empty"}
    assert peak < 5 * len(raw), (peak, len(raw))
    assert not Game.all_objects.exists() and not ImportFile.objects.exists()


@pytest.mark.django_db
def test_a_record_of_many_bad_hands_is_refused_holding_at_most_five_times_its_size_in_memory():
    # Each refused hand's error holds its traceback: kept for every hand of a few bytes, they cost
    # the worker hundreds of times the file.
    boss = _organiser()
    raw = b'[{"hands": [' + b'"",' * 400_000 + b'""]}]'
    peak, batch = _task_peak(boss, raw, "records.json", club="Klubbén")
    assert batch.status == "refused"
    assert len(batch.problems) == MAX_PROBLEMS
    assert batch.problems[0]["message"].startswith("hand 1: ")
    # One record is parsed whole (its list of hands alone is some 3 times the file here).
    assert peak < 10 * len(raw), (peak, len(raw))
    assert not Game.all_objects.exists() and not ImportFile.objects.exists()
