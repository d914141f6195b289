from __future__ import annotations

from django.db import models


class Count(models.Model):
    """The recent attempts of one thing being limited: `scope` says what is counted ("signup:address",
    "recovery:game"…), `key` is the SHA-256 of the value counted (an address, a username, a game),
    `times` the attempts still in the window (Unix seconds, oldest first, at most the limit of them).
    A row whose newest attempt has left the window (`expires_at` passed) counts nothing and is
    deleted by a later attempt (`throttles.counter`). Transient: not in a backup."""

    scope = models.CharField(max_length=40)
    key = models.CharField(max_length=64)
    times = models.JSONField(default=list)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="throttles_count_scope_key")]

    def __str__(self) -> str:
        return f"{self.scope} {self.key[:8]}: {len(self.times)}"
