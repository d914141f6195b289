"""Reading a backup's rows for a restore: each value checked, or `BackupRefused` naming where."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.utils.dateparse import parse_datetime

from backups.rows import BackupRefused, fits
from clubs.models import Club
from scoring.rules import GameResult, RecordError, check_record

# --- restore -----------------------------------------------------------------------------------


def _field(obj: Any, key: str, kind: type | tuple[type, ...], where: str, *, optional: bool = False) -> Any:
    if not isinstance(obj, dict):
        raise BackupRefused(f"{where}: an object is expected")
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise BackupRefused(f"{where}: {key!r} is missing or of the wrong type")
    return value


def _or(value: str | None, default: str) -> str:
    return default if value is None else value


def _day(text: str | None, where: str) -> datetime.date | None:
    if text is None:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except (TypeError, ValueError):
        raise BackupRefused(f"{where}: {str(text)[:30]!r} is not a date like 2026-03-14") from None


def _moment(text: str | None, where: str) -> datetime.datetime | None:
    if text is None:
        return None
    try:
        value = parse_datetime(text)
    except (TypeError, ValueError):
        value = None
    if value is None:
        raise BackupRefused(f"{where}: {str(text)[:40]!r} is not a date and time")
    return value


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise BackupRefused(f"{key!r} is missing or is not a list")
    return value


def _score(record: Any, where: str) -> GameResult:
    if not isinstance(record, dict) or not isinstance(record.get("hands"), list):
        raise BackupRefused(f"{where}: 'record' is not a game record with a list of hands")
    try:
        return check_record(record)
    except RecordError as error:
        raise BackupRefused(f"{where}: {error}") from None


def _new(model: type[Any], where: str, **values: Any) -> Any:
    """An unsaved row, every value checked against its column first (`backups.rows.fits`)."""
    fits(model, where, values)
    return model(**values)


def _key(row: Mapping[str, Any], where: str) -> int | None:
    """The row's id in the source database (version 4), kept by the restore; None in older files."""
    key: int | None = _field(row, "id", int, where, optional=True)
    if key is not None and not 0 < key < 2**31:
        raise BackupRefused(f"{where}: 'id' {key} is not a row id")
    return key


def _unique_key(row: Mapping[str, Any], where: str, seen: set[int]) -> int | None:
    key = _key(row, where)
    if key is not None and key in seen:
        raise BackupRefused(f"{where}: the id {key} is repeated")
    if key is not None:
        seen.add(key)
    return key


def _club(clubs: Mapping[str, Club], name: Any, where: str) -> Club:
    if name not in clubs:
        raise BackupRefused(f"{where}: club {str(name)[:100]!r} is not among the clubs")
    return clubs[name]


def _user(users: Mapping[str, User], row: Mapping[str, Any], key: str, where: str) -> User | None:
    name = _field(row, key, str, where, optional=True)
    if name is not None and name not in users:
        raise BackupRefused(f"{where}: {key!r} {name[:150]!r} is not among the users")
    return users[name] if name is not None else None


def _text(row: Mapping[str, Any], key: str, longest: int, where: str) -> str:
    value = row.get(key) or ""
    if not isinstance(value, str) or len(value) > longest:
        raise BackupRefused(f"{where}: {key!r} is not text of at most {longest} characters")
    return value
