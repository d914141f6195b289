"""A phone's browser, cheaply: its cookies, the ETags its cache keeps and its kept-alive HTTP/1.1
connections, as a browser keeps them to a site it polls (bench/capacity.py runs thousands of them).

The connection is an asyncio Protocol reading the answer by its Content-Length (or chunks, or to
the close): about a third of the CPU of the event loop's streams. When the server has closed a
connection that was kept alive (its keep-alive timeout) before any byte of the answer came back,
the request is sent again on a new connection, as browsers do."""

from __future__ import annotations

import asyncio
import urllib.parse
from dataclasses import dataclass


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


class ConnectionClosed(OSError):
    """The server closed the connection before answering."""


class _Connection(asyncio.Protocol):
    """One HTTP/1.1 connection: one request at a time, its answer parsed as it arrives."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.open = False
        self.buffer = bytearray()
        self.waiting: asyncio.Future[tuple[int, list[tuple[str, str]], bytes]] | None = None
        self.no_body = False
        # Parsed head of the answer being read.
        self.head: tuple[int, list[tuple[str, str]]] | None = None
        self.body_start = 0
        self.length: int | None = None
        self.chunked = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport, self.open = transport, True

    def send(self, request: bytes, no_body: bool) -> asyncio.Future[tuple[int, list[tuple[str, str]], bytes]]:
        assert self.transport is not None
        self.buffer.clear()
        self.head, self.length, self.chunked, self.no_body = None, None, False, no_body
        self.waiting = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        return self.waiting

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.waiting is None or self.waiting.done():
            return
        if self.head is None:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            lines = self.buffer[:end].decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            headers = []
            for line in lines[1:]:
                name, _, value = line.partition(":")
                headers.append((name.strip().lower(), value.strip()))
            self.head, self.body_start = (status, headers), end + 4
            found = dict(headers)
            if self.no_body or status in (204, 304) or 100 <= status < 200:
                self.length = 0
            elif "content-length" in found:
                self.length = int(found["content-length"])
            else:
                self.chunked = found.get("transfer-encoding", "").lower() == "chunked"
        body = self._body()
        if body is not None:
            self.waiting.set_result((*self.head, body))

    def _body(self) -> bytes | None:
        """The whole body once it has come, else None (a body read to the close waits for it)."""
        data = self.buffer[self.body_start :]
        if self.length is not None:
            return bytes(data[: self.length]) if len(data) >= self.length else None
        if not self.chunked:
            return None
        chunks: list[bytes] = []
        at = 0
        while True:
            line_end = data.find(b"\r\n", at)
            if line_end < 0:
                return None
            size = int(bytes(data[at:line_end]).split(b";")[0], 16)
            if size == 0:
                return b"".join(chunks) if data.find(b"\r\n", line_end + 2) >= 0 else None
            if len(data) < line_end + 2 + size + 2:
                return None
            chunks.append(bytes(data[line_end + 2 : line_end + 2 + size]))
            at = line_end + 2 + size + 2

    def connection_lost(self, exc: Exception | None) -> None:
        self.open = False
        if self.waiting is None or self.waiting.done():
            return
        if self.head is not None and self.length is None and not self.chunked:
            self.waiting.set_result((*self.head, bytes(self.buffer[self.body_start :])))
        elif not self.buffer:
            self.waiting.set_exception(ConnectionClosed("closed before answering"))
        else:
            self.waiting.set_exception(ConnectionResetError("closed in the middle of the answer"))

    def close(self) -> None:
        self.open = False
        if self.transport is not None:
            self.transport.close()


class Phone:
    """Cookies, the ETags a browser's cache keeps, kept-alive connections: one while its requests
    come one at a time (a poll every 3 s), another when a request goes out while one is still
    being answered (the scoring phone's save and its poll), as a browser opens a second one."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.etags: dict[str, str] = {}
        self.idle: list[_Connection] = []
        self.connections = 0  # opened so far

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> Answer:
        sent = {"Host": f"127.0.0.1:{self.port}", "Accept-Language": "en", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "GET" and path in self.etags:
            sent["If-None-Match"] = self.etags[path]
        if body:
            sent["Content-Length"] = str(len(body))
        head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in sent.items()) + "\r\n"
        status, raw_headers, data = await self._exchange(head.encode("latin-1") + body, method == "HEAD")
        received: dict[str, str] = {}
        for name, value in raw_headers:
            if name == "set-cookie":
                self._keep_cookie(value)
            received[name] = value
        if method == "GET" and "etag" in received:
            self.etags[path] = received["etag"]
        return Answer(status, received, data)

    async def _exchange(self, request: bytes, no_body: bool) -> tuple[int, list[tuple[str, str]], bytes]:
        """Send on an idle kept-alive connection (a new one if there is none), and give it back
        once answered; once more on a new connection if a reused one was closed by the server
        before it answered."""
        for attempt in (1, 2):
            connection = None
            while self.idle and connection is None:
                candidate = self.idle.pop()
                connection = candidate if candidate.open else None
            reused = connection is not None
            if connection is None:
                loop = asyncio.get_running_loop()
                _, connection = await loop.create_connection(_Connection, "127.0.0.1", self.port)
                self.connections += 1
            try:
                answer = await connection.send(request, no_body)
            except ConnectionClosed:
                connection.close()
                if not reused or attempt == 2:
                    raise
                continue
            except BaseException:  # a timeout or an error in the middle: this connection is done
                connection.close()
                raise
            if dict(answer[1]).get("connection", "").lower() == "close":
                connection.close()
            elif connection.open:
                self.idle.append(connection)
            return answer
        raise AssertionError("unreachable")

    def close(self) -> None:
        for connection in self.idle:
            connection.close()
        self.idle.clear()

    def _keep_cookie(self, header: str) -> None:
        pair, *attributes = header.split(";")
        name, _, value = pair.strip().partition("=")
        gone = any(a.strip().lower() == "max-age=0" for a in attributes) or value in ("", '""')
        if gone:
            self.cookies.pop(name, None)
        else:
            self.cookies[name] = value

    def form(self, fields: dict[str, str]) -> bytes:
        return urllib.parse.urlencode(fields).encode()

    def htmx(self, page: str, target: str) -> dict[str, str]:
        """The headers htmx adds to its requests (and a POST's CSRF header, set once on <body>)."""
        headers = {
            "HX-Request": "true",
            "HX-Current-URL": f"http://127.0.0.1:{self.port}{page}",
            "HX-Target": target,
            "HX-Trigger": target,
        }
        if "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        return headers
