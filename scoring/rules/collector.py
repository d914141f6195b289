"""Python's cycle collector paused while a record is read and scored (what makes a long record fast)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a record is read and scored, on again after.

    Scoring makes about ten small objects per hand and no reference cycles, yet on a long record
    they set off full collections that walk every object in the process, the record itself
    included: a third of the time of `manage.py score_game`. Paused, the new objects are looked
    at once, by the first collection after. Only the outermost pause turns the collector back on,
    and only if it was on.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
