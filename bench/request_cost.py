"""Request cost: the CPU one gunicorn worker spends in Django on each kind of request a club night
sends (bench/capacity.py's load), measured in this process through Django's WSGI application.

A 10-table club night is made through the services (as bench/capacity.py makes it), each table
claimed through its table link by a scoring phone and watched by two phones on its share link;
each game is brought to `--hands` hands (40) through the real htmx form, several seats melding.
Then, `--rounds` times, every table saves one hand and its three phones poll, as the phones of
bench/capacity.py do (the URL each new scoreboard names, the ETag a browser keeps), and the
organiser reloads the night's standings (and asks /healthz, the view that does nothing, for the
cost of the middleware around every view). Every request is a WSGI call of the application gunicorn
runs (production settings, DEBUG off), the cookies kept as a browser keeps them, and timed with
time.process_time(); its SQL queries are counted. Per kind: the mean and median CPU (ms) and the
queries. gunicorn's own share (reading the request, writing the answer) is not in these figures.

Kinds: a watcher's poll answered 304 (nothing changed), the scoring phone's 304, the first poll
after a change (200, the new scoreboard: the scorer's own, the share link's first watcher drawing
it, the second reading the drawn copy), the poll of the new scoreboard's URL (204), a save, and the
night's standings page; and the whole game page as the scoring phone loads it and the share link's
page as a watcher loads it (each in a fresh browser holding the phone's cookies). Per table and
second bench/capacity.py sends about 3/3 polls, 1/20 save and 1/100 standings page: the weighted
mean it prints is the figure to hold against gunicorn's CPU per request.

    .venv/bin/python bench/request_cost.py                  # the figures
    .venv/bin/python bench/request_cost.py --profile watcher-304   # and cProfile's top 30 for one kind
    .venv/bin/python bench/request_cost.py --without hand-row      # with one of the render caches off

The game page keeps three things drawn between requests: the blank entry form (`{% cache …
entry-fields %}`), each hand's row (`{% cache … hand-row %}`) and the share link's scoreboard
(scoring/views/game.py). `--without NAME` (repeatable) draws that part afresh on every request, as
the code would without that cache, to weigh what each saves.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import re
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.harness import environment, prepare_database, setup_django
from bench.load import HANDS

_NUMBER = re.compile(rb'name="number" value="(\d+)"')
_SUBMISSION = re.compile(rb'name="submission_id" value="([0-9a-f-]{36})"')
_CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
_LIVE = re.compile(rb'id="scoreboard"[^>]*hx-get="([^"]+)"')
HOST = "127.0.0.1"
#: The render caches `--without` turns off: the two template fragments and the share link's copy.
RENDER_CACHES = ("entry-fields", "hand-row", "shared-page")

# Requests per table and second in bench/capacity.py (club_tables.py): 3 phones polling every
# 3 s, a save every 20 s, the standings every 10 s per night of 10 tables.
WEIGHTS = {"poll": 3 / 3.0, "save": 1 / 20.0, "standings": 1 / 10.0 / 10}


class Answer:
    def __init__(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)


class Phone:
    """A browser calling the WSGI application: its cookies and the ETags its cache keeps."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.cookies: dict[str, str] = {}
        self.etags: dict[str, str] = {}

    def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> Answer:
        route, _, query = path.partition("?")
        environ: dict[str, Any] = {
            "REQUEST_METHOD": method,
            "SCRIPT_NAME": "",
            "PATH_INFO": urllib.parse.unquote(route),
            "QUERY_STRING": query,
            "SERVER_NAME": HOST,
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": HOST,
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "HTTP_HOST": HOST,
            "HTTP_CONNECTION": "close",
            "HTTP_ACCEPT_LANGUAGE": "en",
        }
        if body:
            environ["CONTENT_LENGTH"] = str(len(body))
        for name, value in (headers or {}).items():
            key = name.upper().replace("-", "_")
            environ[key if key == "CONTENT_TYPE" else f"HTTP_{key}"] = value
        if self.cookies:
            environ["HTTP_COOKIE"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "GET" and path in self.etags:
            environ["HTTP_IF_NONE_MATCH"] = self.etags[path]
        started: list[Any] = []

        def start_response(
            status: str, response_headers: list[tuple[str, str]], exc_info: Any = None
        ) -> None:
            started[:] = [status, response_headers]

        result = self.app(environ, start_response)
        try:
            data = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()  # request_finished: what gunicorn does after every answer
        answer = Answer(int(started[0].split()[0]), started[1], data)
        for name, value in answer.headers:
            if name.lower() == "set-cookie":
                pair, *attributes = value.split(";")
                key, _, kept = pair.strip().partition("=")
                if any(a.strip().lower() == "max-age=0" for a in attributes) or kept in ("", '""'):
                    self.cookies.pop(key, None)
                else:
                    self.cookies[key] = kept
        etag = answer.header("ETag")
        if method == "GET" and etag:
            self.etags[path] = etag
        return answer

    def htmx(self, page: str, target: str) -> dict[str, str]:
        headers = {
            "HX-Request": "true",
            "HX-Current-URL": f"http://{HOST}{page}",
            "HX-Target": target,
            "HX-Trigger": target,
        }
        if "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        return headers


def post_headers(page: str) -> dict[str, str]:
    return {
        "Content-Type": "application/x-www-form-urlencoded",
        "Origin": f"http://{HOST}",
        "Referer": f"http://{HOST}{page}",
    }


class Table:
    def __init__(self, app: Any, token: str, code: str, share_code: str) -> None:
        self.token, self.code, self.share_code = token, code, share_code
        self.scorer, self.watchers = Phone(app), [Phone(app), Phone(app)]
        self.number = self.submission = self.csrf = self.live = ""
        self.watched: list[str] = []

    def read_form(self, html: bytes) -> None:
        live = _LIVE.search(html)
        if live is not None:
            self.live = live.group(1).decode()
        html = html[html.find(b'id="hand-form"') :]
        number, submission, csrf = _NUMBER.search(html), _SUBMISSION.search(html), _CSRF.search(html)
        if number is None or submission is None or csrf is None:
            raise SystemExit(f"game {self.code}: no entry form")
        self.number, self.submission = number.group(1).decode(), submission.group(1).decode()
        self.csrf = csrf.group(1).decode()

    def claim(self) -> None:
        link = f"/nights/t/{self.token}/"
        page = self.scorer.request("GET", link)
        csrf = _CSRF.search(page.body)
        assert csrf is not None, page.status
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": csrf.group(1).decode()}).encode()
        answer = self.scorer.request("POST", link, post_headers(link), body)
        assert answer.status == 302, answer.status
        self.read_form(self.scorer.request("GET", f"/g/{self.code}/").body)
        for watcher in self.watchers:
            live = _LIVE.search(watcher.request("GET", f"/s/{self.share_code}/").body)
            assert live is not None
            self.watched.append(live.group(1).decode())

    def save(self, hand: dict[str, str]) -> Answer:
        page = f"/g/{self.code}/"
        fields = {
            "csrfmiddlewaretoken": self.csrf,
            "number": self.number,
            "submission_id": self.submission,
            **hand,
        }
        headers = {**post_headers(page), **self.scorer.htmx(page, "game")}
        body = urllib.parse.urlencode(fields).encode()
        before = self.number
        answer = self.scorer.request("POST", f"/g/{self.code}/hands", headers, body)
        self.read_form(answer.body)
        if answer.status != 200 or int(self.number) != int(before) + 1:
            raise SystemExit(f"a save on {self.code} answered {answer.status} without the next form")
        return answer

    def poll(self, watcher: int | None) -> Answer:
        phone = self.scorer if watcher is None else self.watchers[watcher]
        page = f"/g/{self.code}/" if watcher is None else f"/s/{self.share_code}/"
        url = self.live if watcher is None else self.watched[watcher]
        answer = phone.request("GET", url, phone.htmx(page, "scoreboard"))
        if answer.status in (200, 286):
            live = _LIVE.search(answer.body)
            if live is not None:
                if watcher is None:
                    self.live = live.group(1).decode()
                else:
                    self.watched[watcher] = live.group(1).decode()
        return answer


class Meter:
    """CPU and queries per request kind; cProfile for one kind when asked."""

    def __init__(self, profile: str | None) -> None:
        from django.db import connection

        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.queries: dict[str, list[int]] = defaultdict(list)
        self.count = 0
        self.profile_kind = profile
        self.profiler = cProfile.Profile() if profile else None
        self.counting = connection.execute_wrapper(self._count)  # entered by main()

    def _count(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.count += 1
        return execute(sql, params, many, context)

    def time(self, kind: str, call: Callable[[], Answer], expect: int | None = None) -> Answer:
        self.count = 0
        profiling = self.profiler is not None and kind == self.profile_kind
        began = time.process_time()
        if profiling:
            assert self.profiler is not None
            self.profiler.enable()
        answer = call()
        if profiling:
            assert self.profiler is not None
            self.profiler.disable()
        self.cpu[kind].append(time.process_time() - began)
        self.queries[kind].append(self.count)
        if expect is not None and answer.status != expect:
            raise SystemExit(f"{kind}: expected {expect}, got {answer.status}")
        return answer


def without_caches(names: Iterable[str]) -> None:
    """Draw the named parts afresh on every request: the template fragment's `{% cache %}` renders
    its content, the share link's scoreboard is kept in a cache that keeps nothing."""
    from django.core.cache.backends.dummy import DummyCache
    from django.templatetags.cache import CacheNode

    off = set(names)
    if "shared-page" in off:
        import scoring.views.game

        scoring.views.game.cache = DummyCache("off", {})  # type: ignore[attr-defined]
    fragments = off & {"entry-fields", "hand-row"}
    if fragments:
        cached = CacheNode.render

        def render(node: CacheNode, context: Any) -> Any:
            if node.fragment_name in fragments:
                return node.nodelist.render(context)
            return cached(node, context)

        CacheNode.render = render  # type: ignore[method-assign,assignment]


def load_page(phone: Phone, path: str) -> Answer:
    """`path` loaded whole in a new tab of the phone's browser: its cookies, nothing it kept."""
    reader = Phone(phone.app)
    reader.cookies.update(phone.cookies)
    return reader.request("GET", path)


def build(app: Any, hands: int) -> tuple[list[Table], Phone, int]:
    """One 10-table night, claimed, each game brought to `hands` hands through the form."""
    from django.db import connections

    from bench.club_tables import Load, add_nights

    load = Load(0, 1)
    add_nights(load, 1, 0)
    connections.close_all()
    tables = [Table(app, t.token, t.code, t.share_code) for t in load.tables]
    organiser = Phone(app)
    organiser.cookies.update(load.nights[0].organiser.cookies)
    for table in tables:
        table.claim()
        for n in range(hands):
            table.save(HANDS[n % len(HANDS)])
    return tables, organiser, load.nights[0].pk


def measure(tables: list[Table], organiser: Phone, night: int, rounds: int, meter: Meter) -> None:
    # Everyone sees the version the last build save made: one poll each settles the ETags.
    for table in tables:
        for watcher in (None, 0, 1):
            table.poll(watcher)
            table.poll(watcher)
    for r in range(rounds):
        for table in tables:
            meter.time("save", partial(table.save, HANDS[r % len(HANDS)]), 200)
            # The scorer's save answer already named the new live URL: its first poll is 204.
            meter.time("scorer-204", partial(table.poll, None), 204)
            meter.time("watcher-200-draws", partial(table.poll, 0), 200)
            meter.time("watcher-200-copy", partial(table.poll, 1), 200)
            meter.time("watcher-204", partial(table.poll, 0), 204)
            table.poll(1)
            meter.time("game-page", partial(load_page, table.scorer, f"/g/{table.code}/"), 200)
            meter.time("share-page", partial(load_page, table.watchers[0], f"/s/{table.share_code}/"), 200)
            for _ in range(5):
                meter.time("scorer-304", partial(table.poll, None), 304)
                meter.time("watcher-304", partial(table.poll, 0), 304)
                meter.time("watcher-304", partial(table.poll, 1), 304)
        meter.time("standings", partial(organiser.request, "GET", f"/nights/{night}/standings/"), 200)
        for _ in range(20):  # the middleware and the handler around a view that does nothing
            meter.time("healthz", partial(organiser.request, "GET", "/healthz"), 200)


def report(meter: Meter) -> None:
    print(f"{'kind':<20} {'n':>4} {'mean ms':>8} {'median':>7} {'queries':>8}")
    for kind, values in meter.cpu.items():
        queries = statistics.mean(meter.queries[kind])
        print(
            f"{kind:<20} {len(values):>4} {statistics.mean(values) * 1000:>8.2f} "
            f"{statistics.median(values) * 1000:>7.2f} {queries:>8.1f}"
        )

    def mean(kind: str) -> float:
        return statistics.mean(meter.cpu[kind]) * 1000

    # Per save (a change) every phone polls once at 200 (or the scorer's 204) and once at 204; the
    # rest of the 20 s between saves the three phones' polls are 304s (about 6 a phone).
    drawn = mean("watcher-200-draws") + mean("watcher-200-copy")
    per_change = mean("scorer-204") + drawn + 2 * mean("watcher-204")
    polls_per_save = 3 * 20 / 3.0
    poll_304 = (mean("scorer-304") + 2 * mean("watcher-304")) / 3
    poll = (per_change + (polls_per_save - 5) * poll_304) / polls_per_save
    weighted = (
        WEIGHTS["poll"] * poll + WEIGHTS["save"] * mean("save") + WEIGHTS["standings"] * mean("standings")
    ) / sum(WEIGHTS.values())
    print(f"a poll on average: {poll:.2f} ms; a request of the capacity load on average: {weighted:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=40, help="hands in each game before measuring")
    parser.add_argument("--rounds", type=int, default=4, help="saves per table measured")
    parser.add_argument("--profile", help="a kind to run under cProfile (e.g. watcher-304, save)")
    parser.add_argument("--database", help="a DATABASE_URL (default: a fresh SQLite file)")
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        choices=RENDER_CACHES,
        help="a render cache to turn off for this run (repeatable)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="request-cost-") as tmp:
        env = environment(args.database or f"sqlite:///{Path(tmp) / 'cost.sqlite3'}")
        prepare_database(env)
        setup_django(env)
        from django.core.wsgi import get_wsgi_application

        app = get_wsgi_application()
        began = time.monotonic()
        tables, organiser, night = build(app, args.hands)
        without_caches(args.without)  # for the measured requests (the data is made as the site makes it)
        off = ", ".join(args.without) or "none"
        print(
            f"10 tables of {args.hands} hands made in {time.monotonic() - began:.0f} s; caches off: {off}",
            flush=True,
        )
        meter = Meter(args.profile)
        with meter.counting:
            measure(tables, organiser, night, args.rounds, meter)
        report(meter)
        if meter.profiler is not None:
            out = io.StringIO()
            stats = pstats.Stats(meter.profiler, stream=out)
            stats.sort_stats("cumulative").print_stats(45)
            stats.sort_stats("tottime").print_stats(30)
            print(out.getvalue())


if __name__ == "__main__":
    main()
