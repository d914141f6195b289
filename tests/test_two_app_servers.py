"""Two app servers, one database: a club can run the site on two processes (or two machines)
behind one address, and a phone may reach either. Each test starts two gunicorn processes on the
test database (the SQLite file the suite uses, or PostgreSQL when DATABASE_URL points at it) and
drives them as phones do: nothing a process keeps to itself may decide what a page shows."""

from __future__ import annotations

import http.client
import os
import re
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from scoring.models import Game
from tests.helpers import PLAYERS, WORKED_EXAMPLE, found

pytestmark = pytest.mark.django_db(transaction=True)  # the servers read what the test commits

SITE = "127.0.0.1:8000"  # the one address both servers stand behind (a proxy's), sent as Host
POLL_SECONDS = 3  # the scoreboard's hx-trigger="every 3s"


def _database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answers(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except OSError:
        return False


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[tuple[int, int]]:
    """Two gunicorn processes of one worker each (configured as shipped, gunicorn.conf.py) on the
    test database, with the same settings (as two machines of one site would have), stopped by
    their PIDs."""
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "SECRET_KEY": "two-servers-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "ERROR",
    }
    gunicorn = Path(sys.executable).with_name("gunicorn")
    started: list[tuple[subprocess.Popen[bytes], int, Path]] = []
    try:
        for name in ("a", "b"):
            port, log = _free_port(), tmp_path / f"{name}.log"
            with log.open("wb") as stderr:
                process = subprocess.Popen(
                    [
                        str(gunicorn),
                        "-c",
                        "gunicorn.conf.py",
                        "pinochle_site.wsgi",
                        "-w",
                        "1",
                        "-b",
                        f"127.0.0.1:{port}",
                    ],
                    cwd=settings.BASE_DIR,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=stderr,
                    start_new_session=True,
                )
            started.append((process, port, log))
        deadline = time.monotonic() + 60
        for process, port, log in started:
            while not _answers(port):
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"a server on port {port} did not start:\n{log.read_text()[-2000:]}")
                time.sleep(0.1)
        yield started[0][1], started[1][1]
    finally:
        for process, _port, _log in started:
            process.terminate()
        for process, _port, _log in started:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


class Phone:
    """A browser, roughly: its cookies and the ETags its cache keeps, sent to whichever server."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}
        self.etags: dict[str, str] = {}

    def request(
        self, port: int, method: str, path: str, fields: dict[str, str] | None = None, htmx: str = ""
    ) -> tuple[int, http.client.HTTPMessage, str]:
        headers = {"Host": SITE, "Accept-Language": "en"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:  # what htmx (and static/js/outbox.js) adds
            headers |= {"HX-Request": "true", "HX-Target": htmx, "HX-Current-URL": f"http://{SITE}/"}
            if "csrftoken" in self.cookies:
                headers["X-CSRFToken"] = self.cookies["csrftoken"]
        if method == "GET" and path in self.etags:
            headers["If-None-Match"] = self.etags[path]
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields)
            headers |= {"Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://{SITE}"}
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            text = answer.read().decode()
        finally:
            connection.close()
        for header in answer.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            for name, morsel in cookie.items():
                self.cookies[name] = morsel.value
        if method == "GET" and answer.headers.get("ETag"):
            self.etags[path] = answer.headers["ETag"]
        return answer.status, answer.headers, text


def _live_url(html: str) -> str:
    return found(r'id="scoreboard"[^>]*hx-get="([^"]+)"', html)


def _entry_form(html: str) -> dict[str, str]:
    html = html[html.index('id="hand-form"') :]  # not the Undo form of a message above it
    return {
        "csrfmiddlewaretoken": found(r'name="csrfmiddlewaretoken" value="([^"]+)"', html),
        "number": found(r'name="number" value="(\d+)"', html),
        "submission_id": found(r'name="submission_id" value="([0-9a-f-]{36})"', html),
    }


def _without_tokens(html: str) -> str:
    """A page less what is fresh on every drawing by design: CSRF tokens and the next hand's submission id."""
    html = re.sub(r'(csrfmiddlewaretoken" value=")[^"]+', r"\1…", html)
    html = re.sub(r'("X-CSRFToken": ?")[^"]+', r"\1…", html)
    html = re.sub(r"&quot;X-CSRFToken&quot;: ?&quot;[^&]+", "X-CSRFToken…", html)
    return re.sub(r'(name="submission_id" value=")[0-9a-f-]{36}', r"\1…", html)


def _new_game(scorer: Phone, port: int) -> str:
    """A game set up through the setup form, as a phone does: the phone holds its edit right."""
    status, _headers, page = scorer.request(port, "GET", "/games/new")
    assert status == 200
    names = {f"name_{seat}": name for seat, name in PLAYERS.items()}
    setup = {"seats": "4", "variant": "standard", "deck": "single", "target": "1500", "min_bid": ""}
    form = {**setup, "first_dealer": "N", **names}
    form["csrfmiddlewaretoken"] = found(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    status, headers, _page = scorer.request(port, "POST", "/games/new", form)
    assert status == 302, _page[-500:]
    return found(r"^/g/([\w-]+)/$", headers["Location"])


def _save(scorer: Phone, port: int, code: str, page: str) -> str:
    """Save a hand the way the page does (an htmx POST of the entry form): the #game fragment."""
    form = {**_entry_form(page), **WORKED_EXAMPLE}
    status, _headers, fragment = scorer.request(port, "POST", f"/g/{code}/hands", form, htmx="game")
    assert status == 200 and 'id="game"' in fragment, fragment[-500:]
    assert 'role="alert"' not in fragment, "the save was refused"
    return fragment


def test_a_hand_saved_through_one_server_shows_on_a_phone_polling_the_other_within_one_poll(
    servers: tuple[int, int],
) -> None:
    first, second = servers
    scorer, watcher = Phone(), Phone()
    code = _new_game(scorer, first)
    share = f"/s/{Game.objects.get(code=code).share_code}/"
    status, _headers, scorer_page = scorer.request(first, "GET", f"/g/{code}/")
    assert status == 200
    status, _headers, watched = watcher.request(second, "GET", share)
    assert status == 200
    live = _live_url(watched)
    assert watcher.request(second, "GET", live, htmx="scoreboard")[0] == 204  # nothing new yet

    fragment = _save(scorer, first, code, scorer_page)
    saved_at = time.monotonic()
    status, _headers, board = watcher.request(second, "GET", live, htmx="scoreboard")

    assert time.monotonic() - saved_at < POLL_SECONDS
    assert status == 200 and 'id="hand-1"' in board
    totals = dict(re.findall(r'data-testid="total-(NS|EW)"[^>]*>(-?\d+)<', board))
    assert totals == {"NS": "36", "EW": "20"}  # the worked example's hand 1
    assert _live_url(board) != live  # the new scoreboard polls for the next hand

    # And back: a hand saved through the second server shows on a phone polling the first.
    live = _live_url(board)
    status, _headers, board = watcher.request(first, "GET", live, htmx="scoreboard")
    assert status in (204, 304)  # the first server agrees that nothing changed since
    _save(scorer, second, code, fragment)
    status, _headers, board = watcher.request(first, "GET", live, htmx="scoreboard")
    assert status == 200 and 'id="hand-2"' in board


def test_each_server_draws_the_same_pages_and_honours_the_others_etag(servers: tuple[int, int]) -> None:
    first, second = servers
    scorer, watcher = Phone(), Phone()
    code = _new_game(scorer, first)
    share = f"/s/{Game.objects.get(code=code).share_code}/"
    _save(scorer, first, code, scorer.request(first, "GET", f"/g/{code}/")[2])

    for phone, path in ((scorer, f"/g/{code}/"), (watcher, share), (scorer, f"/g/{code}/history/")):
        drawn = [phone.request(port, "GET", path) for port in (first, second)]
        assert [status for status, _headers, _page in drawn] == [200, 200], path
        assert _without_tokens(drawn[0][2]) == _without_tokens(drawn[1][2]), path

    live = _live_url(watcher.request(first, "GET", share)[2])
    watcher.etags.clear()
    status, headers, _board = watcher.request(first, "GET", live, htmx="scoreboard")
    assert status == 204 and headers["ETag"]
    # The ETag the first server gave is the second's too: the phone's cache is answered 304.
    assert watcher.request(second, "GET", live, htmx="scoreboard")[0] == 304
