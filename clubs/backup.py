"""The clubs' part of a backup: every club, player (with the account it is tied to), membership
(joined and retired), season (with its published-results code and when it was closed), club role
and invite, pending or accepted; every field of every row, with its id and its times
(`backups.rows`), so every link and every order by id or by time is the same after a restore.

Besides what every column takes, a restore refuses a name that is blank, and a publish code that
is not a path segment (it becomes /league/results/<code>/: a "/" would break every page that links
to the season)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from backups.parts import Part, whole_app
from backups.rows import BackupRefused

_ROWS = whole_app("clubs")
PUBLISH_CODE = re.compile(r"[A-Za-z0-9_-]{1,32}", re.ASCII)
NAMED = ("Club", "Player", "Season")


def _check(section: Mapping[str, Any]) -> None:
    for table in NAMED:
        rows = section.get(table)
        for index, row in enumerate(rows if isinstance(rows, list) else [], start=1):
            name = row.get("name") if isinstance(row, dict) else None
            if isinstance(name, str) and not name.strip():
                raise BackupRefused(f"clubs.{table}[{index}]: the name is empty")
    seasons = section.get("Season")
    for index, row in enumerate(seasons if isinstance(seasons, list) else [], start=1):
        code = row.get("publish_code") if isinstance(row, dict) else None
        if isinstance(code, str) and PUBLISH_CODE.fullmatch(code) is None:
            raise BackupRefused(
                f"clubs.Season[{index}]: the publish code is not 1 to 32 letters, digits, '-' or '_'"
            )


def _load(data: Mapping[str, Any]) -> dict[str, int]:
    section = data.get("clubs")
    if isinstance(section, dict):
        _check(section)
    assert _ROWS.load is not None
    return _ROWS.load(data)  # refuses a missing part, naming it


PART = Part(_ROWS.holds, _ROWS.derived, _ROWS.dump, _load)
