"""An upload's first look: the places its first rows name, which the upload page checks against
what the user may file before it keeps the file (the import itself: league/imports/worker.py)."""

from __future__ import annotations

import csv
import io

from league.csv_io.problems import Place


def first_places(raw: bytes, *, club: str = "", season: str = "", size: int = 64 * 1024) -> list[Place]:
    """The clubs and seasons the start of a file names, read from its first `size` bytes without
    reading the rest: JSON records go where the form says; a hands.csv's first rows name theirs.
    The upload page checks the user's rights over these before it keeps the file."""
    head = raw[:size].decode("utf-8-sig", errors="ignore")
    if head.lstrip()[:1] in ("{", "["):
        return [Place(club, season)]
    if len(raw) > size:
        head = head[: head.rfind("\n") + 1]  # whole lines only
    places: dict[tuple[str, str], Place] = {}
    try:
        reader = csv.DictReader(io.StringIO(head, newline=""), strict=True)
        for row in reader:
            key = (str(row.get("club") or "").strip(), str(row.get("season") or "").strip())
            if "\x00" in key[0] + key[1]:
                continue  # no club or season holds a NUL: the worker's full read refuses the line
            if row.get("game_id") and key not in places:
                places[key] = Place(*key, line=reader.line_num)
    except csv.Error:
        pass  # a row cut off at the end of the head, or a broken file: `count` says what is wrong
    return list(places.values())
