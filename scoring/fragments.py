"""Drawn page parts that are the same for every viewer, kept in this process (`{% shared %}`).

A page such as the scoring phone's game page is mostly the same for everyone who sees one state of
the game in one mode and language: the scoreboard, the history, the entry form's fields. Those parts
are drawn once and kept here, keyed by what they depend on (the game's code and version, the mode,
the language), so a request draws only what is its own: the CSRF token, a fresh form id, its
messages. A kept part is stored and given back whole, as it was drawn; nothing is ever written into
it afterwards. A change of the game changes its version, so the next request, in any worker, draws
a new part under a new key and the old one ages out (least recently used first).

This replaces Django's `{% cache %}` with the local-memory backend on the hot pages: the same idea
without pickling every part in and out and hashing its key on each request.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

from django.conf import settings

#: Characters kept per process at most (about as many bytes of memory for ASCII pages, more for
#: other scripts); the least recently used parts go first. A 40-hand game page is about 100,000.
DEFAULT_MAX_CHARS = 20_000_000


class FragmentStore:
    """A bounded, least-recently-used map of part keys to drawn text (thread-safe)."""

    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars
        self._parts: OrderedDict[Hashable, str] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            text = self._parts.get(key)
            if text is not None:
                self._parts.move_to_end(key)
            return text

    def put(self, key: Hashable, text: str) -> None:
        if len(text) > self.max_chars:
            return
        with self._lock:
            old = self._parts.pop(key, None)
            if old is not None:
                self._chars -= len(old)
            self._parts[key] = text
            self._chars += len(text)
            while self._chars > self.max_chars:
                _key, dropped = self._parts.popitem(last=False)
                self._chars -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._parts.clear()
            self._chars = 0

    def __len__(self) -> int:
        return len(self._parts)


store = FragmentStore(getattr(settings, "SHARED_FRAGMENT_MAX_CHARS", DEFAULT_MAX_CHARS))
