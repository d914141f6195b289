"""What the reliability scripts share: a gunicorn server on 127.0.0.1, a throwaway PostgreSQL
cluster, and a small cookie-keeping HTTP client that behaves like a phone's browser.

Everything is bounded in time, listens on 127.0.0.1 only, and is stopped by its PID.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator, Mapping
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PGBIN = Path(os.environ.get("PGBIN", "/usr/lib/postgresql/15/bin"))


def environment(database_url: str) -> dict[str, str]:
    """Production-like settings (DEBUG off, whitenoise's hashed files) on plain HTTP."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "pinochle_site.settings",
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "SECRET_KEY": "bench-" + secrets.token_hex(16),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "SECURE_HSTS_SECONDS": "0",
        "LOG_LEVEL": "ERROR",
        "PYTHONPATH": str(ROOT),
        # The fuzz run logs in with many wrong passwords from one address on purpose.
        "LOGIN_FAILURES_PER_USERNAME": os.environ.get("LOGIN_FAILURES_PER_USERNAME", "5"),
    }


def prepare_database(env: Mapping[str, str]) -> None:
    """Migrate a fresh database, collect the static files."""
    python = sys.executable
    for command in (
        ["migrate", "--noinput", "-v0"],
        ["collectstatic", "--noinput", "-v0"],
    ):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=dict(env), check=True, timeout=300)


def setup_django(env: Mapping[str, str]) -> None:
    """Use the ORM in this process against the server's database (for seeding and checking)."""
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def free_port(preferred: int) -> int:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds it
        try:
            probe.bind(("127.0.0.1", preferred))
            return preferred
        except OSError:
            probe.bind(("127.0.0.1", 0))
            return int(probe.getsockname()[1])


class Server:
    """gunicorn with N workers on 127.0.0.1:port, configured as shipped (gunicorn.conf.py: threads,
    kept-alive connections), in its own process group, and beside it the
    task worker that runs the uploads' imports (`manage.py db_worker`, niced as `make serve` does),
    in another."""

    def __init__(self, env: Mapping[str, str], port: int, workers: int = 2, log: Path | None = None) -> None:
        self.env, self.port, self.workers, self.log = dict(env), port, workers, log
        self.process: subprocess.Popen[bytes] | None = None
        self.tasks: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60) -> None:
        gunicorn = Path(sys.executable).with_name("gunicorn")
        command = [
            str(gunicorn),
            "-c",
            "gunicorn.conf.py",
            "pinochle_site.wsgi",
            "-w",
            str(self.workers),
            "-b",
            f"127.0.0.1:{self.port}",
            "--no-control-socket",
            "--log-level",
            "error",
            "--timeout",
            "30",
            "--graceful-timeout",
            "10",
        ]
        stderr = open(self.log, "ab") if self.log else None  # noqa: SIM115  (the child keeps it)
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, start_new_session=True, stderr=stderr
        )
        self.start_tasks(stderr)
        if stderr is not None:
            stderr.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"gunicorn exited with status {self.process.returncode}")
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200 and len(self.worker_pids()) >= self.workers:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise SystemExit("gunicorn did not answer on /healthz")

    def start_tasks(self, stderr: Any = None) -> None:
        """The task worker, started (again, after `kill_tasks`)."""
        worker = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay", "-v0"]
        self.tasks = subprocess.Popen(
            ["nice", "-n", "10", *worker], cwd=ROOT, env=self.env, start_new_session=True, stderr=stderr
        )

    def kill_tasks(self) -> int:
        """Kill the task worker as a crash would (SIGKILL): its pid."""
        assert self.tasks is not None
        os.kill(self.tasks.pid, signal.SIGKILL)
        self.tasks.wait(timeout=10)
        return self.tasks.pid

    def worker_pids(self) -> list[int]:
        """The master's children (its workers), from /proc."""
        if self.process is None:
            return []
        pids = []
        for task in Path(f"/proc/{self.process.pid}/task").glob("*"):
            with contextlib.suppress(OSError):
                pids += [int(pid) for pid in (task / "children").read_text().split()]
        return pids

    def kill_worker(self) -> int:
        pid = self.worker_pids()[0]
        os.kill(pid, signal.SIGKILL)
        return pid

    def stop(self) -> None:
        if self.tasks is not None and self.tasks.poll() is None:
            os.killpg(self.tasks.pid, signal.SIGTERM)  # ends once its current import is done
            try:
                self.tasks.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.tasks.pid, signal.SIGKILL)  # that import is refused, later
                self.tasks.wait(timeout=10)
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@contextlib.contextmanager
def postgres_cluster(port: int = 5491) -> Iterator[str]:
    """A throwaway PostgreSQL 15 cluster on 127.0.0.1 (as .ci/run starts one); yields its DATABASE_URL."""
    port = free_port(port)
    data = Path(tempfile.mkdtemp(prefix="pgdata-rel-"))
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_postgres:
        subprocess.run(["chown", "postgres:postgres", str(data)], check=True)
    quiet: dict[str, Any] = {"stdout": subprocess.DEVNULL, "check": True, "timeout": 120}
    subprocess.run(
        [
            *as_postgres,
            str(PGBIN / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        ],
        **quiet,
    )
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c max_connections=200"
    subprocess.run(
        [
            *as_postgres,
            str(PGBIN / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(data / "server.log"),
            "-w",
            "-o",
            options,
            "start",
        ],
        **quiet,
    )
    try:
        subprocess.run(
            [
                "psql",
                "-q",
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
                "-U",
                "postgres",
                "-c",
                "CREATE ROLE scores LOGIN PASSWORD 'scores' CREATEDB",
                "-c",
                "CREATE DATABASE scores OWNER scores",
            ],
            **quiet,
        )
        yield f"postgres://scores:scores@127.0.0.1:{port}/scores"
    finally:
        subprocess.run(
            [*as_postgres, str(PGBIN / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"],
            stdout=subprocess.DEVNULL,
            check=False,
            timeout=60,
        )
        subprocess.run(["rm", "-rf", str(data)], check=False)


@contextlib.contextmanager
def database(postgres: bool) -> Iterator[str]:
    """A fresh database URL: an SQLite file in a temporary folder, or a throwaway cluster."""
    if postgres:
        with postgres_cluster() as url:
            yield url
    else:
        with tempfile.TemporaryDirectory(prefix="pinochle-rel-") as tmp:
            yield f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"


# --- a browser, roughly -----------------------------------------------------------------------

_CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Response:
    def __init__(self, status: int, headers: http.client.HTTPMessage, body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def location(self) -> str:
        return urllib.parse.urlsplit(self.headers.get("Location", "")).path

    def csrf(self) -> str | None:
        match = _CSRF_INPUT.search(self.text)
        return match.group(1) if match else None


class Browser:
    """One phone: its own cookies, one keep-alive connection, re-opened when it breaks."""

    def __init__(self, port: int, timeout: float = 30) -> None:
        self.port, self.timeout = port, timeout
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: Mapping[str, str] | None = None
    ) -> Response:
        """One request; OSError / http.client.HTTPException when the connection fails."""
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        sent = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            self.connection.request(method, path, body=body, headers=sent)
            raw = self.connection.getresponse()
            data = raw.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        for header in raw.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            for name, morsel in cookie.items():
                if morsel["max-age"] == "0" or not morsel.value or morsel.value == '""':
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        if raw.headers.get("Connection", "").lower() == "close":
            self.close()
        return Response(raw.status, raw.headers, data)

    def get(self, path: str) -> Response:
        return self.request("GET", path)

    def post(
        self, path: str, fields: Mapping[str, str] | list[tuple[str, str]], csrf: bool = True
    ) -> Response:
        items = list(fields.items()) if isinstance(fields, Mapping) else list(fields)
        if csrf and "csrftoken" in self.cookies and not any(k == "csrfmiddlewaretoken" for k, _ in items):
            items.append(("csrfmiddlewaretoken", self.cookies["csrftoken"]))
        body = urllib.parse.urlencode(items).encode()
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Referer": f"http://127.0.0.1:{self.port}/",
        }
        return self.request("POST", path, body, headers)

    def post_and_hang_up(self, path: str, fields: Mapping[str, str]) -> None:
        """Send a form and close the connection without reading the answer: the answer is lost
        on the way back (a phone leaving the Wi-Fi), while the server still does the work."""
        cookies = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        try:
            connection.request(
                "POST",
                path,
                body=urllib.parse.urlencode(list(fields.items())).encode(),
                headers={
                    "Host": f"127.0.0.1:{self.port}",
                    "Cookie": cookies,
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Referer": f"http://127.0.0.1:{self.port}/",
                },
            )
        except OSError:
            pass
        finally:
            connection.close()

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
