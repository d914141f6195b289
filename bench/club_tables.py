"""The simulated card tables of bench/capacity.py: per table a scorer saving a hand every 20 s
and three phones polling its scoreboard, per club night of 10 tables the organiser's standings;
the nights made through the services, and the figures one step of the search measures."""

from __future__ import annotations

import asyncio
import datetime
import os
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.async_phone import Answer, Phone
from bench.harness import Server, percentile
from bench.load import HANDS

SAVE_EVERY, POLL_EVERY, STANDINGS_EVERY = 20.0, 3.0, 10.0
TABLES_PER_NIGHT = 10
SAVE_P95_MS, POLL_P95_MS = 250.0, 100.0

_NUMBER = re.compile(rb'name="number" value="(\d+)"')
_SUBMISSION = re.compile(rb'name="submission_id" value="([0-9a-f-]{36})"')
_CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
_LIVE = re.compile(rb'id="scoreboard"[^>]*hx-get="([^"]+)"')


@dataclass
class Figures:
    saves: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    standings: list[float] = field(default_factory=list)
    healthz: list[float] = field(default_factory=list)  # the machine's noise: a view doing nothing
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    not_modified: int = 0
    connections: int = 0  # new connections the phones opened while measuring


@dataclass
class Table:
    token: str
    code: str
    share_code: str
    scorer: Phone
    watchers: list[Phone]
    number: str = ""
    submission: str = ""
    csrf: str = ""
    live: str = ""
    watched: list[str] = field(default_factory=list)  # each watcher's live URL
    saved: int = 0


@dataclass
class Night:
    pk: int
    organiser: Phone


class Load:
    def __init__(self, port: int, seed: int) -> None:
        self.port = port
        self.rng = random.Random(seed)
        self.tables: list[Table] = []
        self.nights: list[Night] = []
        self.figures = Figures()
        self.measuring = False
        self.stopping = False
        self.asleep: set[asyncio.Task[None]] = set()
        self.prober = Phone(port)

    async def timed(
        self,
        kind: list[float],
        phone: Phone,
        method: str,
        path: str,
        headers: dict[str, str] | None = None,
        body: bytes = b"",
    ) -> Answer | None:
        began = time.monotonic()
        measured = self.measuring
        try:
            answer = await asyncio.wait_for(phone.request(method, path, headers, body), 30)
        except (TimeoutError, OSError, ValueError, IndexError) as error:
            if measured:
                self.figures.requests += 1
                self.figures.errors.append(f"{method} {path}: {type(error).__name__}")
            return None
        if measured and self.measuring:
            self.figures.requests += 1
            kind.append(time.monotonic() - began)
            if answer.status >= 400:
                self.figures.errors.append(f"{method} {path}: HTTP {answer.status}")
            if answer.status == 304:
                self.figures.not_modified += 1
        return answer

    # Claiming a table: the table link's page, then its button (not measured).
    async def claim(self, table: Table) -> None:
        phone, link = table.scorer, f"/nights/t/{table.token}/"
        page = await phone.request("GET", link)
        csrf = _CSRF.search(page.body)
        if csrf is None:
            raise SystemExit(f"table link {link} answered {page.status} without a form")
        body = phone.form({"csrfmiddlewaretoken": csrf.group(1).decode()})
        answer = await phone.request("POST", link, self._post_headers(link), body)
        if answer.status != 302:
            raise SystemExit(f"claiming {link} answered {answer.status}")
        await self.load_game(table)
        for watcher in table.watchers:
            shared = await watcher.request("GET", f"/s/{table.share_code}/")
            live = _LIVE.search(shared.body)
            if live is None:
                raise SystemExit(f"share link of {table.code} answered {shared.status} without a scoreboard")
            table.watched.append(live.group(1).decode())

    async def load_game(self, table: Table) -> bool:
        try:
            page = await asyncio.wait_for(table.scorer.request("GET", f"/g/{table.code}/"), 30)
        except (TimeoutError, OSError, ValueError, IndexError):
            return False
        return self.read_form(table, page.body)

    def read_form(self, table: Table, html: bytes) -> bool:
        """The entry form's fields (not the Undo form of the message above it) and the live URL."""
        live = _LIVE.search(html)
        html = html[html.find(b'id="hand-form"') :]
        number, submission, csrf = _NUMBER.search(html), _SUBMISSION.search(html), _CSRF.search(html)
        if number is None or submission is None or csrf is None:
            return False
        table.number, table.submission = number.group(1).decode(), submission.group(1).decode()
        table.csrf = csrf.group(1).decode()
        if live is not None:
            table.live = live.group(1).decode()
        return True

    def _post_headers(self, page: str) -> dict[str, str]:
        return {
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": f"http://127.0.0.1:{self.port}",
            "Referer": f"http://127.0.0.1:{self.port}{page}",
        }

    async def scorer(self, table: Table) -> None:
        await self.pause(self.rng.uniform(0, SAVE_EVERY))
        page = f"/g/{table.code}/"
        while not self.stopping:
            fields = {
                "csrfmiddlewaretoken": table.csrf,
                "number": table.number,
                "submission_id": table.submission,
                **self.rng.choice(HANDS),
            }
            headers = {**self._post_headers(page), **table.scorer.htmx(page, "game")}
            answer = await self.timed(
                self.figures.saves, table.scorer, "POST", f"/g/{table.code}/hands",
                headers=headers, body=table.scorer.form(fields),
            )  # fmt: skip
            before = table.number
            if answer is not None and answer.status == 200 and self.read_form(table, answer.body):
                saved = int(table.number) == int(before) + 1  # else: the form again, with a message
            else:
                saved = False
            if saved:
                table.saved += 1
            elif not self.stopping:  # a refused or lost save: the phone reloads the game
                if self.measuring:
                    status = answer.status if answer else "no answer"
                    self.figures.errors.append(f"save on {table.code}: {status}")
                await self.load_game(table)
            await self.pause(SAVE_EVERY)

    async def poller(self, table: Table, phone: Phone, watcher: int | None) -> None:
        await self.pause(self.rng.uniform(0, POLL_EVERY))
        page = f"/g/{table.code}/" if watcher is None else f"/s/{table.share_code}/"
        while not self.stopping:
            url = table.live if watcher is None else table.watched[watcher]
            answer = await self.timed(
                self.figures.polls, phone, "GET", url, headers=phone.htmx(page, "scoreboard")
            )
            if answer is not None and answer.status in (200, 286):
                live = _LIVE.search(answer.body)
                if live is not None:  # the new scoreboard polls its own URL
                    if watcher is None:
                        table.live = live.group(1).decode()
                    else:
                        table.watched[watcher] = live.group(1).decode()
            await self.pause(POLL_EVERY)

    async def organiser(self, night: Night) -> None:
        await self.pause(self.rng.uniform(0, STANDINGS_EVERY))
        while not self.stopping:
            await self.timed(self.figures.standings, night.organiser, "GET", f"/nights/{night.pk}/standings/")
            await self.pause(STANDINGS_EVERY)

    async def probe(self) -> None:
        """/healthz once a second: how long a request that does nothing waits on this machine."""
        while not self.stopping:
            await self.timed(self.figures.healthz, self.prober, "GET", "/healthz")
            await self.pause(1.0)

    def phones(self) -> list[Phone]:
        phones = [p for t in self.tables for p in (t.scorer, *t.watchers)]
        return phones + [n.organiser for n in self.nights] + [self.prober]

    def connections(self) -> int:
        """Connections the phones have opened so far."""
        return sum(p.connections for p in self.phones())

    async def pause(self, seconds: float) -> None:
        """One timer per pause (no polling of a flag): the step's end cancels the phones asleep."""
        task = asyncio.current_task()
        assert task is not None
        self.asleep.add(task)
        try:
            await asyncio.sleep(seconds)
        finally:
            self.asleep.discard(task)

    async def step(self, tables: int, warmup: float, seconds: float, server: Server) -> Step:
        for chunk in range(0, len(self.tables), 16):  # claims of tables added since the last step
            await asyncio.gather(*(self.claim(t) for t in self.tables[chunk : chunk + 16] if not t.live))
        self.figures, self.measuring, self.stopping = Figures(), False, False
        running = self.tables[:tables]
        nights = self.nights[: (tables + TABLES_PER_NIGHT - 1) // TABLES_PER_NIGHT]
        jobs = [self.scorer(t) for t in running]
        jobs += [self.poller(t, t.scorer, None) for t in running]
        jobs += [self.poller(t, w, i) for t in running for i, w in enumerate(t.watchers)]
        jobs += [self.organiser(n) for n in nights]
        jobs.append(self.probe())
        tasks = [asyncio.ensure_future(job) for job in jobs]
        await asyncio.sleep(warmup)
        cpu, server_cpu, began = time.process_time(), cpu_seconds(server), time.monotonic()
        opened, workers = self.connections(), process_cpu(server.worker_pids())
        self.measuring = True
        await asyncio.sleep(seconds)
        self.measuring = False
        self.figures.connections = self.connections() - opened
        elapsed = time.monotonic() - began
        spent = process_cpu(list(workers))
        per_worker = [(spent[pid] - workers[pid]) / elapsed for pid in workers if pid in spent]
        step = Step(
            tables=tables,
            figures=self.figures,
            rate=self.figures.requests / elapsed,
            own_cpu=(time.process_time() - cpu) / elapsed,
            server_cpu=(cpu_seconds(server) - server_cpu) / elapsed,
            load=os.getloadavg()[0],
            per_worker=per_worker,
        )
        self.stopping = True  # a phone in the middle of a request ends after its answer
        for task in list(self.asleep):
            task.cancel()
        ended = await asyncio.gather(*tasks, return_exceptions=True)
        crashed = [r for r in ended if isinstance(r, Exception)]  # a phone that stopped: a failed step
        step.figures.errors += [f"a phone stopped: {type(r).__name__}: {r}" for r in crashed]
        for phone in self.phones():  # each step runs in its own event loop: its connections end here
            phone.close()
        return step


@dataclass
class Step:
    tables: int
    figures: Figures
    rate: float
    own_cpu: float
    server_cpu: float
    load: float
    per_worker: list[float] = field(default_factory=list)  # each worker's share of a core

    @property
    def save_p95(self) -> float:
        return percentile(self.figures.saves, 0.95) * 1000

    @property
    def poll_p95(self) -> float:
        return percentile(self.figures.polls, 0.95) * 1000

    @property
    def cpu_per_request(self) -> float:
        """gunicorn's CPU per request (ms): what the other processes on the machine do not change."""
        return self.server_cpu * 1000 / self.rate if self.rate else 0.0

    @property
    def passed(self) -> bool:
        if any(error.startswith("a phone stopped") for error in self.figures.errors):
            return False
        failed = len(self.figures.errors) > 0.01 * max(1, self.figures.requests)
        return not failed and self.save_p95 <= SAVE_P95_MS and self.poll_p95 <= POLL_P95_MS

    def line(self) -> str:
        f = self.figures
        return (
            f"  {self.tables:>5} tables: {'pass' if self.passed else 'FAIL'}, "
            f"p95 save {self.save_p95:.0f} ms ({len(f.saves)}), "
            f"p95 poll {self.poll_p95:.0f} ms ({len(f.polls)}, {f.not_modified} × 304), "
            f"p95 standings {percentile(f.standings, 0.95) * 1000:.0f} ms ({len(f.standings)}), "
            f"p95 /healthz {percentile(f.healthz, 0.95) * 1000:.0f} ms; "
            f"{self.rate:.0f} req/s, {f.connections} new connections, {len(f.errors)} errors; "
            f"CPU: load generator {self.own_cpu:.0%}, "
            f"gunicorn {self.server_cpu:.0%} ({self.cpu_per_request:.1f} ms a request; workers "
            f"{' + '.join(f'{w:.0%}' for w in self.per_worker)}); "
            f"load average {self.load:.2f}"
        )


def cpu_seconds(server: Server) -> float:
    """User + system CPU of gunicorn's master and workers, from /proc."""
    pids = [server.process.pid] if server.process else []
    return sum(process_cpu(pids + server.worker_pids()).values())


def process_cpu(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds of each process, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    seconds = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds[pid] = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return seconds


# --- club nights, through the services -----------------------------------------------------------


def add_nights(load: Load, count: int, first: int) -> None:
    """`count` club nights of 10 tables: a club founded by its organiser, 40 players checked in,
    one round drawn and started (10 games), each table with its scorer and two watchers."""
    from django.contrib.auth.models import User
    from django.test import Client

    from clubs import services as clubs
    from nights import arrivals
    from nights import rounds as night_rounds
    from nights import services as nights

    for index in range(first, first + count):
        organiser = User.objects.create_user(f"organiser{index}", password=None)
        club = clubs.create_club(name=f"Club {index}", founder=organiser)
        roster = clubs.add_roster_players(club=club, names=[f"Player {index}-{n}" for n in range(40)])
        night = nights.open_night(
            club=club, season=None, played_on=datetime.date(2026, 12, 1), variant="check", deck="single",
            target=1_000_000, min_bid=None, meld_needs_trick=False, rounds=1, round_ends="game",
            hands_per_round=None, stake_per_chip=None, stake_per_win=None, created_by=organiser,
        )  # fmt: skip
        for player in roster:
            arrivals.set_checked_in(night=night, player=player, present=True)
        nights.draw_plan(night=night)
        night_rounds.start_round(night=night, round_no=1)
        client = Client()
        client.force_login(organiser)
        phone = Phone(load.port)
        phone.cookies["sessionid"] = client.cookies["sessionid"].value
        load.nights.append(Night(night.pk, phone))
        for table in night.tables.select_related("game").order_by("table_no"):
            game = table.game
            assert game is not None  # the round has started
            watchers = [Phone(load.port), Phone(load.port)]
            load.tables.append(Table(table.token, game.code, game.share_code, Phone(load.port), watchers))
