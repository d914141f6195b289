"""The one counter every throttle uses: the attempts of a kind per value counted (a client
address, a username, a game…) in a sliding window, and whether one more is allowed.

`limits` name what an attempt is counted against, each with its value and its limit, e.g.
`{"address": ("192.0.2.1", 10), "email": ("a@example.org", 3)}`. An attempt counts for `window`
seconds after it was made, so no more than `limit` attempts are counted in any `window` seconds.
The values are stored hashed (what users type can be anything and need not be kept).

Attempts sent together are counted one after the other, on SQLite and on PostgreSQL with any
number of app servers: `hold` locks the counts' rows (made first when missing) from the read to the
write, in one transaction, always in the order of (scope, key) so two attempts never wait for each
other. SQLite ignores the row locks: its IMMEDIATE transactions already run one writer at a time.
Rows whose newest attempt has left the window are deleted by later attempts, a few at a time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from throttles.models import Count

Limits = Mapping[str, tuple[str, int]]

#: How many rows of counts gone out of their window one attempt deletes (the rest: the next ones).
CLEAR_AT_ONCE = 100


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def _scoped(kind: str, limits: Limits) -> list[tuple[str, str, int]]:
    """(scope, key, limit) of each limit, in the order rows are locked in."""
    return sorted((f"{kind}:{name}", _digest(value), limit) for name, (value, limit) in limits.items())


def _recent(times: list[float], at: datetime, window: int) -> list[float]:
    since = at.timestamp() - window
    return [t for t in times if t > since]


class Held:
    """The counts of one attempt, locked until the transaction that holds them ends."""

    def __init__(self, rows: list[tuple[Count, int]], *, at: datetime, window: int) -> None:
        self.rows, self.at, self.window = rows, at, window

    def full(self) -> bool:
        """Whether any of the counts has had its limit in the window (one more is refused)."""
        return any(len(_recent(row.times, self.at, self.window)) >= limit for row, limit in self.rows)

    def add(self) -> None:
        """Count the attempt against every limit."""
        for row, limit in self.rows:
            # Only the last `limit` times matter; a row stays small whatever an attacker sends.
            row.times = [*_recent(row.times, self.at, self.window), self.at.timestamp()][-max(limit, 1) :]
            row.expires_at = self.at + timedelta(seconds=self.window)
            row.save(update_fields=["times", "expires_at"])
        _clear_expired(self.at)


def hold(*, kind: str, limits: Limits, window: int) -> Held:
    """Lock the counts of `limits` (made when missing) until the transaction ends; call it inside
    `transaction.atomic`, then `full()` and `add()` read and count with nobody in between."""
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError("throttles.counter.hold needs a transaction")
    at = timezone.now()
    rows = []
    for scope, key, limit in _scoped(kind, limits):
        row, _made = Count.objects.select_for_update().get_or_create(
            scope=scope, key=key, defaults={"expires_at": at}
        )
        rows.append((row, limit))
    return Held(rows, at=at, window=window)


def over_limit(*, kind: str, limits: Limits, window: int) -> bool:
    """Count one attempt of `kind` against each of `limits`; True when any of them has had its
    limit already in the window (the attempt is then refused and not counted)."""
    with transaction.atomic():
        held = hold(kind=kind, limits=limits, window=window)
        if held.full():
            return True
        held.add()
        return False


def take_back(*, kind: str, values: Mapping[str, str], at: float) -> None:
    """Uncount the attempt made at `at` (Unix seconds, as counted) against each of `values`
    (name -> value): an attempt counted before its outcome was known, which turned out not to count
    (the right password)."""
    with transaction.atomic():
        for scope, key in sorted((f"{kind}:{name}", _digest(value)) for name, value in values.items()):
            row = Count.objects.select_for_update().filter(scope=scope, key=key).first()
            if row is not None and at in row.times:
                row.times = [time for time in row.times if time != at]
                row.save(update_fields=["times"])


def counts(*, kind: str, limits: Limits, window: int) -> dict[str, int]:
    """The attempts counted in the window against each of `limits`, by name (read without a lock:
    for a look, not for a decision that counts)."""
    at = timezone.now()
    names = {(f"{kind}:{name}", _digest(value)): name for name, (value, _limit) in limits.items()}
    found = {name: 0 for name in limits}
    wanted = Q(pk__in=[])
    for scope, key in names:
        wanted |= Q(scope=scope, key=key)
    for row in Count.objects.filter(wanted):
        found[names[(row.scope, row.key)]] = len(_recent(row.times, at, window))
    return found


def reached(*, kind: str, limits: Limits, window: int) -> bool:
    """Whether any of `limits` has had its limit in the window (nothing is counted)."""
    found = counts(kind=kind, limits=limits, window=window)
    return any(found[name] >= limit for name, (_value, limit) in limits.items())


def forget(*, kind: str, values: Mapping[str, str]) -> int:
    """Drop the counts of `values` (name -> value), e.g. a username's failed logins once it logs in;
    how many rows went."""
    wanted = Q(pk__in=[])
    for name, value in values.items():
        wanted |= Q(scope=f"{kind}:{name}", key=_digest(value))
    return Count.objects.filter(wanted).delete()[0]


def forget_all(*, kind: str) -> int:
    """Drop every count of `kind`; how many rows went."""
    return Count.objects.filter(scope__startswith=f"{kind}:").delete()[0]


def _clear_expired(at: datetime) -> None:
    """Delete a few rows that count nothing any more. Rows another attempt holds are skipped, so
    this never waits for a lock (it runs after the attempt took its own)."""
    stale = Count.objects.select_for_update(skip_locked=True).filter(expires_at__lte=at)
    pks = list(stale.order_by("pk").values_list("pk", flat=True)[:CLEAR_AT_ONCE])
    if pks:
        Count.objects.filter(pk__in=pks).delete()
