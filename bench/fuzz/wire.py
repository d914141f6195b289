"""`send`: one request put on the wire as a browser (or a script) would."""

from __future__ import annotations

import uuid
from urllib.parse import quote, urlencode

from bench.fuzz.state import Request
from bench.harness import Browser, Response


def multipart(fields: list[tuple[str, str]], files: list[tuple[str, str, bytes]]) -> tuple[bytes, str]:
    boundary = "----fuzz" + uuid.uuid4().hex
    parts = []
    for name, value in fields:
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
            + value.encode("utf-8", "surrogatepass")
            + b"\r\n"
        )
    for name, filename, data in files:
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
        parts.append(head.encode() + b"Content-Type: application/octet-stream\r\n\r\n" + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def send(browser: Browser, request: Request) -> Response:
    fields = [(k, v) for k, v in request.fields if k != "csrfmiddlewaretoken" or request.csrf != "ok"]
    token = browser.cookies.get("csrftoken", "")
    if request.csrf == "ok":
        fields.append(("csrfmiddlewaretoken", token))
    elif request.csrf == "wrong":
        fields.append(("csrfmiddlewaretoken", "x" * 64))

    path = quote(request.path, safe="/?=&%")
    headers = {"Referer": f"http://127.0.0.1:{browser.port}/"}
    if request.method in ("GET", "HEAD"):
        return browser.request(request.method, path, headers=headers)
    if request.files:
        body, content_type = multipart(fields, request.files)
    else:
        body = urlencode([(k, v.encode("utf-8", "surrogatepass")) for k, v in fields]).encode()
        content_type = "application/x-www-form-urlencoded"
    if request.charset:
        try:
            text = "&".join(f"{quote(k)}={quote(v, errors='surrogatepass')}" for k, v in fields)
            body = text.encode(request.charset) if not request.files else body
        except (LookupError, UnicodeError):
            pass  # a charset Python does not know: the body stays UTF-8, the header still lies
        content_type += f"; charset={request.charset}"
    return browser.request(request.method, path, body, {**headers, "Content-Type": content_type})
