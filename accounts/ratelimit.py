"""Throttles that are not logins: password-reset requests and sign-ups, per client address and per
target (the email address asked for, the username wanted). Logins are counted by django-axes
(accounts/lockout.py); this module also gives axes the client address.

Counts live in Django's "shared" cache (the database cache, seen by every gunicorn worker) as the
list of recent attempt times, so the window slides: an attempt older than the window no longer counts.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import caches
from django.db import connections, router, transaction
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
            return str(forwarded[-hops])
    return str(request.META.get("REMOTE_ADDR", ""))


def _key(kind: str, value: str) -> str:
    # Hashed: cache keys must be short and plain, and what users type can be anything.
    return f"throttle:{kind}:{hashlib.sha256(value.encode()).hexdigest()}"


def _recent(key: str, at: float) -> list[float]:
    window = settings.ACCOUNT_THROTTLE_WINDOW_SECONDS
    return [t for t in caches["shared"].get(key, []) if t > at - window]


def over_limit(*, kind: str, limits: dict[str, tuple[str, int]]) -> bool:
    """Count one attempt of `kind` (e.g. "reset") for each named value, e.g.
    {"address": ("192.0.2.1", 10), "email": ("a@example.org", 3)}; True when any of them has had
    its limit already in the window (the attempt is then refused and not counted)."""
    keys = {name: (_key(f"{kind}:{name}", value), limit) for name, (value, limit) in limits.items()}
    cache = caches["shared"]
    using = router.db_for_write(cache.cache_model_class)  # type: ignore[attr-defined]
    with transaction.atomic(using=using):
        _hold([key for key, _limit in keys.values()], using=using)
        return _count(keys, now())


def _hold(keys: list[str], *, using: str) -> None:
    """Hold the counts' rows in the cache table until the transaction ends (made first if missing),
    so that attempts sent at the same moment are counted one after the other: each reads the count
    the one before it wrote, and no burst gets past the limit. SQLite's IMMEDIATE transactions
    already run one writer at a time; PostgreSQL needs the rows locked."""
    cache = caches["shared"]
    for key in keys:
        cache.add(key, [], timeout=settings.ACCOUNT_THROTTLE_WINDOW_SECONDS)
    connection = connections[using]
    if connection.vendor != "postgresql":
        return
    table = connection.ops.quote_name(cache._table)  # type: ignore[attr-defined]
    stored = sorted(cache.make_key(key) for key in keys)  # one order, so two attempts never deadlock
    with connection.cursor() as cursor:
        marks = ", ".join(["%s"] * len(stored))
        cursor.execute(
            f"SELECT cache_key FROM {table} WHERE cache_key IN ({marks}) ORDER BY cache_key FOR UPDATE",
            stored,
        )


def _count(keys: dict[str, tuple[str, int]], at: float) -> bool:
    if any(len(_recent(key, at)) >= limit for key, limit in keys.values()):
        return True
    for key, limit in keys.values():
        # Only the last `limit` times matter; the list stays small whatever an attacker sends.
        recent = [*_recent(key, at), at][-limit:]
        caches["shared"].set(key, recent, timeout=settings.ACCOUNT_THROTTLE_WINDOW_SECONDS)
    return False
