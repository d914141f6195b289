"""An upload imported: the places it names, checked against what the user may file, then written
whole or not at all."""

from __future__ import annotations

import csv
import datetime
import io

from django.db import IntegrityError, transaction

from league.csv_io.problems import ImportRefused, ImportReport, Place, PlaceCheck, another_import
from league.csv_io.reader import check_bytes
from league.services import store_games


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


def import_bytes(
    raw: bytes,
    *,
    name: str = "file",
    club: str = "",
    season: str = "",
    played_on: datetime.date | None = None,
    check: PlaceCheck | None = None,
) -> ImportReport:
    """Import one file in one transaction, all or nothing (the import_games command; the upload
    page writes in short transactions instead, league/imports/).

    `check` (the importing user's rights) sees every club and season the file names before its
    games are scored; any problem it returns refuses the whole file."""
    games = check_bytes(raw, name=name, club=club, season=season, played_on=played_on, check=check)
    try:
        with transaction.atomic():
            store_games(games=games)
    except IntegrityError:
        # Another import wrote a game with one of these codes between the check and the write.
        raise ImportRefused([another_import()]) from None
    return ImportReport(games=len(games), hands=sum(len(g.hands) for g in games))
