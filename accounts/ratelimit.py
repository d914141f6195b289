"""Failed-login counting: at most N failures per username and per client address in a window.

Counts live in Django's cache (the database cache, shared by every gunicorn worker) as the list of
recent failure times, so the window slides: a failure older than the window no longer counts.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest


def now() -> float:
    """The clock, a function so tests can move it."""
    return time.time()


def client_address(request: HttpRequest) -> str:
    """The client's IP: REMOTE_ADDR, or the address TRUSTED_PROXY_COUNT proxies in front of us saw.

    Each proxy appends the address it received from, so with n trusted proxies the client is the
    n-th entry from the right of X-Forwarded-For; entries further left are written by the client.
    """
    hops = settings.TRUSTED_PROXY_COUNT
    if hops > 0:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [part for part in forwarded if part]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return str(request.META.get("REMOTE_ADDR", ""))


def _keys(username: str, address: str) -> list[tuple[str, int]]:
    # Hashed: cache keys must be short and plain, and usernames can be anything.
    name = hashlib.sha256(username.strip().casefold().encode()).hexdigest()
    addr = hashlib.sha256(address.encode()).hexdigest()
    return [
        (f"login-failures:user:{name}", settings.LOGIN_FAILURES_PER_USERNAME),
        (f"login-failures:addr:{addr}", settings.LOGIN_FAILURES_PER_ADDRESS),
    ]


def _recent(key: str, at: float) -> list[float]:
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    return [t for t in caches["shared"].get(key, []) if t > at - window]


def login_blocked(*, username: str, address: str) -> bool:
    """Whether another attempt for this username or from this address must be refused unchecked."""
    at = now()
    return any(len(_recent(key, at)) >= limit for key, limit in _keys(username, address))


def record_login_failure(*, username: str, address: str) -> None:
    at = now()
    for key, limit in _keys(username, address):
        # Only the last `limit` times matter; the list stays small whatever an attacker sends.
        recent = [*_recent(key, at), at][-limit:]
        caches["shared"].set(key, recent, timeout=settings.LOGIN_FAILURE_WINDOW_SECONDS)


def clear_login_failures(*, username: str) -> None:
    """After a successful login the username starts afresh (the address keeps its count)."""
    name_key, _limit = _keys(username, "")[0]
    caches["shared"].delete(name_key)
