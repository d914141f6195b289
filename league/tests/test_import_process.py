"""Uploads run in a separate, niced OS process (issue 13, point 5: a 10 MB import never makes a
table's hand save wait): `manage.py run_import`, fed the file on its standard input, at most
IMPORT_PROCESSES per web worker, a heartbeat while it runs, and a batch its process left
unfinished refused with a message and nothing visible. bench/import_while_saving.py measures the
whole thing under gunicorn; these tests pin each part.
"""

import datetime
import io
import shutil
import sys
import threading
import time

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone

from clubs.models import Club, ClubRole, Player
from league import csv_io, imports, services
from league.models import ImportBatch
from scoring.models import Game, Hand
from tests.league_data import small_season


def _organiser(username: str = "boss") -> User:
    """An organiser of Klubbén, the small season's club (made here when the test has no season)."""
    club, _made = Club.objects.get_or_create(name="Klubbén")
    user = User.objects.create_user(username, f"{username}@example.org", "not-used-here-1")
    ClubRole.objects.create(user=user, club=club, role=ClubRole.Role.ORGANISER)
    return user


def _exported() -> bytes:
    """The small season as hands.csv (exported by an organiser of its club), and a database
    without its games and players."""
    small_season()
    exporter = Client()
    exporter.force_login(_organiser("exporter"))
    raw = b"".join(exporter.get("/league/export/hands.csv").streaming_content)
    Game.objects.all().delete()
    Player.objects.all().delete()
    return raw


def _run_import(monkeypatch, batch: ImportBatch, raw: bytes, *args: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    call_command("run_import", str(batch.pk), *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_run_import_reads_the_file_on_stdin_lowers_its_priority_and_publishes_the_games(monkeypatch):
    raw = _exported()
    uploader = _organiser()
    batch = ImportBatch.objects.create(user=uploader, file_name="hands.csv")
    niced: list[int] = []
    monkeypatch.setattr("os.nice", lambda by: niced.append(by) or 0)

    out = _run_import(monkeypatch, batch, raw, "--niceness=10", "--name=hands.csv")

    batch.refresh_from_db()
    assert (batch.status, batch.written, batch.total, batch.hands) == ("done", 3, 3, 4)
    assert "done, 3 of 3 games" in out
    assert niced == [0, 10]  # asked for the niceness it runs at, then lowered to 10
    assert Game.objects.count() == 3 and Hand.objects.count() == 4
    client = Client()
    client.force_login(uploader)
    assert "Imported 3 games with 4 hands." in client.get(f"/league/import/{batch.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_run_import_checks_the_rights_of_the_uploader_not_of_whoever_runs_it(monkeypatch):
    raw = _exported()
    member = User.objects.create_user("member", "m@example.org", "not-used-here-1")
    ClubRole.objects.create(user=member, club=Club.objects.get(name="Klubbén"), role="member")
    batch = ImportBatch.objects.create(user=member, file_name="hands.csv")

    _run_import(monkeypatch, batch, raw, "--name=hands.csv")

    batch.refresh_from_db()
    assert batch.status == "refused"
    assert any("you are not a scorer or organiser of Klubbén" in p["message"] for p in batch.problems)
    assert not Game.all_objects.exists()


@pytest.mark.django_db(transaction=True)
def test_run_import_refuses_a_batch_that_is_not_waiting_with_exit_status_2(monkeypatch):
    batch = ImportBatch.objects.create(file_name="x.csv", status=ImportBatch.Status.DONE)
    with pytest.raises(CommandError) as refused:
        _run_import(monkeypatch, batch, b"")
    assert refused.value.returncode == 2 and "no import" in str(refused.value)


@pytest.mark.django_db(transaction=True)
def test_an_import_process_that_crashes_has_its_batch_refused_and_nothing_stays(settings, monkeypatch):
    raw = _exported()
    uploader = _organiser()
    batch = ImportBatch.objects.create(
        user=uploader, file_name="hands.csv", status=ImportBatch.Status.WRITING
    )
    services.write_pending_games(batch_id=batch.pk, games=csv_io.check_bytes(raw)[:2])  # half written
    # A process that reads the file and dies as a crash would (no batch update, non-zero status).
    crash = [sys.executable, "-c", "import sys; sys.stdin.buffer.read(); sys.exit(9)"]
    monkeypatch.setattr(imports.Job, "command", lambda self: crash)

    imports.RUNNER.submit(imports.Job(batch.pk, raw, name="hands.csv"))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not ImportBatch.objects.get(pk=batch.pk).finished:
        time.sleep(0.05)

    batch.refresh_from_db()
    assert batch.status == "refused"
    assert batch.problems[0]["message"] == (
        "the import process stopped before it was finished (status 9); nothing was imported"
    )
    assert not Game.all_objects.exists() and not Hand.objects.exists()
    client = Client()
    client.force_login(uploader)
    page = client.get(f"/league/import/{batch.pk}/").content.decode()
    assert "the import process stopped before it was finished" in page and "Nothing was imported." in page


@pytest.mark.django_db(transaction=True)
def test_a_worker_runs_at_most_import_processes_at_once_and_the_rest_wait_their_turn(settings, monkeypatch):
    settings.IMPORT_PROCESSES = 2
    lock = threading.Lock()
    now = {"running": 0, "most": 0, "ran": 0}

    def fake_run(job):
        with lock:
            now["running"] += 1
            now["most"] = max(now["most"], now["running"])
        time.sleep(0.3)
        with lock:
            now["running"] -= 1
            now["ran"] += 1
        return 0

    monkeypatch.setattr(imports.Runner, "_run", staticmethod(fake_run))
    runner = imports.Runner()
    batches = [ImportBatch.objects.create(file_name=f"{n}.csv") for n in range(5)]
    for batch in batches:
        runner.submit(imports.Job(batch.pk, b""))
    assert runner.running == 2 and len(runner.waiting) == 3
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (runner.running or runner.waiting):
        time.sleep(0.05)
    assert now == {"running": 0, "most": 2, "ran": 5}
    # Each ended without finishing its batch (the fake wrote nothing): refused, with the reason.
    assert set(ImportBatch.objects.values_list("status", flat=True)) == {"refused"}


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_stamps_a_running_batch_and_the_page_calls_a_silent_one_stalled():
    organiser = _organiser()
    old = timezone.now() - datetime.timedelta(seconds=40)
    batch = ImportBatch.objects.create(
        user=organiser, file_name="big.json", status=ImportBatch.Status.WRITING, total=1500, written=600
    )
    ImportBatch.objects.filter(pk=batch.pk).update(updated_at=old)
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/league/import/{batch.pk}/").content.decode()
    assert "it may have stalled" in page and "Imported 600 of 1,500 games" in page
    assert '<meta http-equiv="refresh" content="2">' in page  # still followed: it may come back

    with imports.heartbeat(batch.pk, every=0.05):
        time.sleep(0.4)
    batch.refresh_from_db()
    assert batch.updated_at > old + datetime.timedelta(seconds=30)
    page = client.get(f"/league/import/{batch.pk}/").content.decode()
    assert "stalled" not in page


def test_the_import_command_line_carries_the_form_and_the_niceness(settings):
    settings.IMPORT_NICENESS = 7
    job = imports.Job(
        4, b"", name="-odd\x00name.json", club="-Klubbén", season="Vår", played_on=datetime.date(2026, 3, 2)
    )
    line = job.command()
    assert line[:3] == [shutil.which("nice"), "-n", "7"]  # niced from the start
    assert line[5:7] == ["run_import", "4"]
    assert line[7:] == [
        "--niceness=7",
        "--name=-oddname.json",
        "--club=-Klubbén",
        "--season=Vår",
        "--date=2026-03-02",
    ]


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
