"""What the fuzz run sends outside HTTP: the management commands
and the task worker that imports an upload.

- `restore` of a backup of the seeded database with one value made longer than its column (the
  text fields in LONG_FIELDS) into an empty database: each must exit with status 2 and
  a message naming the field, no traceback, and leave the database empty;
- `import_games --club` with bytes that are not UTF-8 (and an over-long name): exit status 2, a
  message, no traceback, no row written;
- an import whose task worker crashes: the worker running a large upload is killed (SIGKILL)
  while it writes; once the import has been silent for IMPORT_STALLED_SECONDS its page must say
  the import stopped, and none of its games may stay, hidden or shown.

Each finding is returned as one line; the run counts them as server errors.
"""

from __future__ import annotations

import contextlib
import copy
import json
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from bench.harness import ROOT, Browser, Server

# The backup's text fields, as (model, field), and the longest each column takes (`restore` checks
# every value against its field after loading). Not the username: rows name an account by it.
LONG_FIELDS: list[tuple[str, str, int]] = [
    ("auth.Group", "name", 150),
    ("auth.User", "email", 254),
    ("auth.User", "first_name", 150),
    ("auth.User", "last_name", 150),
    ("auth.User", "password", 128),
    ("clubs.Club", "name", 100),
    ("clubs.Player", "name", 100),
    ("clubs.Season", "name", 100),
    ("clubs.Invite", "token", 64),
    ("scoring.Device", "id_hash", 64),
    ("scoring.Game", "place", 100),
    ("scoring.Game", "handover_token_hash", 64),
    ("scoring.HandChange", "actor_label", 150),
    ("clubs.ClubRole", "role", 0),  # a choice the field does not have
]


def manage(
    env: Mapping[str, str], *args: str | bytes, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=dict(env),
        input=stdin,
        capture_output=True,
        timeout=300,
    )


def _problem(done: subprocess.CompletedProcess[bytes], what: str, expected: str) -> str | None:
    err = done.stderr.decode("utf-8", "replace")
    if done.returncode != 2 or "Traceback" in err or expected not in err:
        return f"{what}: exit status {done.returncode}, {err.strip().splitlines()[-1:] or 'no message'}"
    return None


def long_backups(dump: list[dict[str, Any]]) -> Iterator[tuple[str, str, list[dict[str, Any]]]]:
    """(label, the text the message must hold, a backup) with one value one character too long, or
    one a column's choices do not hold."""
    for model, key, longest in LONG_FIELDS:
        found = [index for index, row in enumerate(dump) if row["model"] == model.lower()]
        if not found:
            continue
        changed = copy.deepcopy(dump)
        row = changed[found[0]]
        row["fields"][key] = "x" * (longest + 1) if longest else "emperor"
        yield f"{model}.{key}", f"{model} id {row['pk']}, field '{key}'", changed


@contextlib.contextmanager
def empty_database(url: str) -> Iterator[str]:
    """A second, empty database next to the fuzzed one: a temporary SQLite file, or a new database
    in the same PostgreSQL cluster."""
    if url.startswith("sqlite"):
        with tempfile.TemporaryDirectory(prefix="fuzz-restore-") as tmp:
            yield f"sqlite:///{Path(tmp) / 'restore.sqlite3'}"
        return
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/") + "_restore"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urllib.parse.urlunsplit(parts._replace(path="/" + name))
    finally:
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}"')


def restores(env: Mapping[str, str], dump: list[dict[str, Any]]) -> tuple[int, list[str]]:
    """Every over-long backup refused, naming its field, with the database left empty (a restore
    refuses a database that is not: the next case would say so); then the untouched backup of the
    fuzzed database restores."""
    findings: list[str] = []
    sent = 0
    with empty_database(env["DATABASE_URL"]) as url:
        target = {**env, "DATABASE_URL": url}
        done = manage(target, "migrate", "--noinput", "-v0")
        if done.returncode != 0:
            return sent, [f"restore: migrating the empty database failed: {done.stderr[-300:]!r}"]
        for label, names, backup in long_backups(dump):
            sent += 1
            answer = manage(target, "restore", "-", stdin=json.dumps(backup).encode())
            problem = _problem(answer, f"restore with a long {label}", names)
            if problem:
                findings.append(problem)
        sent += 1
        whole = manage(target, "restore", "-", stdin=json.dumps(dump).encode())
        if whole.returncode != 0:
            findings.append(f"restore of the fuzzed database's backup: {whole.stderr[-300:]!r}")
    return sent, findings


def import_options(env: Mapping[str, str], counts: Any) -> tuple[int, list[str]]:
    """import_games with a --club that is not UTF-8, or too long: exit 2, nothing written."""
    from tests.hostile import record_with_name

    findings: list[str] = []
    with tempfile.TemporaryDirectory(prefix="fuzz-import-") as tmp:
        path = Path(tmp) / "games.json"
        path.write_text("[" + record_with_name("Anna") + "]", encoding="utf-8")
        cases: list[tuple[str, bytes | str, str]] = [
            ("non-UTF-8 club", b"--club=Kl\xffbb", "not valid UTF-8 text"),
            ("non-UTF-8 season", b"--season=V\xe5r", "--season"),
            ("Latin-1 club", b"--club=Klubb\xe9n", "not valid UTF-8 text"),
            ("over-long club", "--club=" + "K" * 101, "at most 100"),
        ]
        for label, option, expected in cases:
            before = counts()
            args: list[str | bytes] = ["import_games", str(path), option]
            if label.endswith("season"):
                args.append("--club=Fuzz club")
            problem = _problem(manage(env, *args), f"import_games with a {label}", expected)
            if problem:
                findings.append(problem)
            if counts() != before:
                findings.append(f"import_games with a {label}: rows were written")
    return len(cases), findings


def import_crash(
    port: int, browser: Browser, upload: bytes, server: Server, club_id: int, stalled_after: float
) -> tuple[int, list[str]]:
    """Upload a large file, kill the task worker importing it mid-way, and check the page and the database."""
    from django.db import connections

    from bench.fuzz.wire import multipart
    from league.models import ImportBatch, PendingGame

    page = browser.get("/league/import/")
    body, content_type = multipart(
        [
            ("csrfmiddlewaretoken", page.csrf() or ""),
            ("club", str(club_id)),
            ("season", ""),
            ("played_on", ""),
        ],
        [("file", "crash.json", upload)],
    )
    answer = browser.request(
        "POST",
        "/league/import/",
        body,
        {"Content-Type": content_type, "Referer": f"http://127.0.0.1:{port}/"},
    )
    if answer.status != 302:
        return 1, [f"import crash: the upload answered {answer.status}"]
    status_path = answer.location()
    found = re.search(r"(\d+)/?$", status_path)
    assert found is not None, status_path  # the status page's address ends with the batch's id
    batch_id = int(found.group(1))
    killed = None
    deadline = time.monotonic() + 300
    while killed is None and time.monotonic() < deadline:
        batch = ImportBatch.objects.get(pk=batch_id)
        if batch.finished:
            return 1, [f"import crash: the import ended ({batch.status}) before it could be killed"]
        if batch.status == "writing" and batch.written > 0:  # half written: hidden games to clean
            killed = server.kill_tasks()
        time.sleep(0.05)
    if killed is None:
        return 1, ["import crash: the task worker was never seen writing the upload"]
    findings = []
    deadline = time.monotonic() + stalled_after + 60
    while time.monotonic() < deadline:
        page = browser.get(status_path)
        if page.status != 200:
            findings.append(f"import crash: the import page answered {page.status}")
            break
        if 'http-equiv="refresh"' not in page.text:
            if "the import stopped before it was finished" not in page.text:
                findings.append("import crash: the page does not say the import stopped")
            break
        time.sleep(0.3)
    else:
        findings.append("import crash: the page still says the import runs a minute after it went silent")
    left = PendingGame.objects.filter(batch_id=batch_id).count()
    if left:
        findings.append(f"import crash: {left} hidden games of the killed import stayed")
    status = ImportBatch.objects.get(pk=batch_id).status
    if status != "refused":
        findings.append(f"import crash: the batch is {status!r}, not refused")
    connections.close_all()
    return 1, findings
