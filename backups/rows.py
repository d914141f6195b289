"""Rows of a model as JSON and back, driven by the model's documented `_meta` fields.

`dump_rows` writes every concrete field of every row, so a field added to a model later is in the
next backup without a change here. `load_rows` takes a part's rows back: every value is checked
against its column before anything is written (its type, null, length, choices, the field's
validators, the model's check constraints, what must be unique, the rows a foreign key points at),
and a bad value is refused with `BackupRefused` naming the part, the row and the field. The rows
keep their ids, so every link (`/nights/7/`) and every order by id is the same after a restore.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import connections, models, router
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils import timezone


class BackupRefused(Exception):
    """The file cannot be restored; the message says what is wrong and where."""


INTEGERS = {
    "AutoField",
    "BigAutoField",
    "SmallAutoField",
    "IntegerField",
    "BigIntegerField",
    "SmallIntegerField",
    "PositiveIntegerField",
    "PositiveBigIntegerField",
    "PositiveSmallIntegerField",
}
TEXTS = {"CharField", "TextField", "SlugField", "EmailField", "URLField", "GenericIPAddressField"}
# Written as text and read back by the field's own to_python: exact, whatever the database.
AS_TEXT = {"DecimalField", "DateField", "DateTimeField", "UUIDField"}


def kind(field: models.Field[Any, Any]) -> str:
    """How a field's value is written: 'key' (a foreign key: the id of the row it points at),
    'int', 'bool', 'text', 'as_text' or 'json'. A field of another kind is a programming error
    (this module must learn it before a backup could lose it)."""
    if field.is_relation:
        return "key"
    internal = field.get_internal_type()
    if internal in INTEGERS:
        return "int"
    if internal == "BooleanField":
        return "bool"
    if internal in TEXTS:
        return "text"
    if internal in AS_TEXT:
        return "as_text"
    if internal == "JSONField":
        return "json"
    raise TypeError(f"{field.model._meta.label}.{field.name}: a backup cannot write a {internal} yet")


def to_json(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    return value


def fields_of(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    """The fields with a column, in the model's order (`get_fields()` lists forward fields first)."""
    return [
        field
        for field in model._meta.get_fields()
        if field.concrete and not field.many_to_many and isinstance(field, models.Field)
    ]


def row_of(obj: models.Model, fields: Sequence[models.Field[Any, Any]]) -> dict[str, Any]:
    """One row as JSON: each field by its name, a foreign key as the id it points at."""
    return {field.name: to_json(field.value_from_object(obj)) for field in fields}


def dump_rows(model: type[models.Model], chosen: models.QuerySet[Any] | None = None) -> list[dict[str, Any]]:
    """Every row of the model (its base manager: none is hidden), or the `chosen` ones, in id order."""
    fields = fields_of(model)
    for field in fields:
        kind(field)  # refuses a field it could not write before it writes anything
    rows = model._base_manager.all() if chosen is None else chosen
    return [row_of(obj, fields) for obj in rows.order_by("pk").iterator(chunk_size=1000)]


def fits(model: type[models.Model], where: str, values: Mapping[str, Any]) -> None:
    """Refuse a value its column would not take: text longer than the field's max_length, a value
    outside its choices. SQLite stores an over-long name that PostgreSQL refuses; the restore
    refuses it on both, naming the part of the file and the field."""
    for name, value in values.items():
        field = model._meta.get_field(name)
        max_length = getattr(field, "max_length", None)
        if isinstance(value, str) and max_length is not None and len(value) > max_length:
            raise BackupRefused(
                f"{where}: {name!r} is {len(value)} characters long; at most {max_length} fit"
            )
        choices = getattr(field, "flatchoices", None)
        if choices and value not in ("", None) and value not in {key for key, _label in choices}:
            raise BackupRefused(
                f"{where}: {name!r} {str(value)[:20]!r} is not one of the values this app knows"
            )


def check_whole_number(field: models.Field[Any, Any], raw: int, where: str) -> None:
    """Refuse a whole number that PostgreSQL's column would not take (SQLite takes any 64-bit
    number, and a query with a bigger one raises OverflowError), so both databases refuse the same
    files: an id (a primary key or a foreign key) is 1 or more, and a primary key leaves room for
    the id of the next new row of its table."""
    target = field.target_field if isinstance(field, models.ForeignKey) else field
    bounds = BaseDatabaseOperations.integer_field_ranges.get(target.get_internal_type())
    if bounds is None:
        return
    low, high = bounds
    if target.primary_key:
        low = 1
    if field.primary_key:
        high -= 1
    if not low <= raw <= high:
        shown = str(raw) if len(str(raw)) <= 20 else f"{str(raw)[:20]}…"
        raise BackupRefused(f"{where}: {field.name!r} {shown} is not a number from {low} to {high}")


def _shown(raw: Any) -> str:
    return repr(raw[:40] if isinstance(raw, str) else raw)[:60]


def _message(error: ValidationError) -> str:
    return "; ".join(str(message) for message in error.messages)[:200]


def value_of(field: models.Field[Any, Any], raw: Any, where: str) -> Any:
    """A JSON value as the field's Python value, checked against the column (not written yet)."""
    name = field.name
    if raw is None:
        if not field.null:
            raise BackupRefused(f"{where}: {name!r} is empty; this field needs a value")
        return None
    how = kind(field)
    expected = {"key": int, "int": int, "bool": bool, "text": str, "as_text": str}.get(how)
    if expected is not None and (
        not isinstance(raw, expected) or (expected is int and isinstance(raw, bool))
    ):
        raise BackupRefused(
            f"{where}: {name!r} is not {'a number' if expected is int else expected.__name__}"
        )
    if expected is int:
        check_whole_number(field, raw, where)
    if how == "key":
        return raw
    try:
        value = field.to_python(raw)
    except ValidationError as error:
        raise BackupRefused(f"{where}: {name!r} {_shown(raw)}: {_message(error)}") from None
    if value is None:
        raise BackupRefused(f"{where}: {name!r} {_shown(raw)} is not a value of this field")
    if isinstance(value, datetime.datetime) and settings.USE_TZ and timezone.is_naive(value):
        # A backup writes every time with its offset; a time without one would be read in the
        # server's time zone, silently moved by its offset.
        raise BackupRefused(f"{where}: {name!r} {_shown(raw)} has no time zone offset")
    fits(field.model, where, {name: value})
    try:
        field.run_validators(value)
    except ValidationError as error:
        raise BackupRefused(f"{where}: {name!r} {_shown(raw)}: {_message(error)}") from None
    return value


def values_of(
    model: type[models.Model], row: Any, where: str, fields: Sequence[models.Field[Any, Any]]
) -> dict[str, Any]:
    """The checked values of one row, by attname (a foreign key as its id). A field the file does
    not have (a backup made before the field existed) takes the field's default; a key this app
    does not know is refused, so nothing in the file is dropped unseen."""
    if not isinstance(row, dict):
        raise BackupRefused(f"{where}: an object is expected")
    known = {field.name for field in fields}
    unknown = sorted(set(row) - known)
    if unknown:
        raise BackupRefused(f"{where}: {unknown[0][:40]!r} is not a field of {model._meta.label} in this app")
    values: dict[str, Any] = {}
    for field in fields:
        if field.name in row:
            values[field.attname] = value_of(field, row[field.name], where)
        elif getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            values[field.attname] = None  # stamped with the time of the restore when written
        elif field.primary_key or not _has_a_default(field):
            raise BackupRefused(f"{where}: {field.name!r} is missing")
        else:
            values[field.attname] = field.get_default()
    return values


def _has_a_default(field: models.Field[Any, Any]) -> bool:
    """Whether a row written before the field existed can take the field's default: a declared
    default, an empty value the field allows (null, or blank text)."""
    return field.has_default() or field.null or (field.empty_strings_allowed and field.blank)


def _stamped(fields: Iterable[models.Field[Any, Any]]) -> list[models.Field[Any, Any]]:
    return [f for f in fields if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]


def _column(model: type[models.Model], name: str) -> str:
    """The column of the model's concrete field `name` (a foreign key's ends in `_id`)."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field.attname


def check_unique(model: type[models.Model], part: str, rows: Sequence[Mapping[str, Any]]) -> None:
    """What the model keeps unique (a field, a constraint without a condition) is refused when two
    rows of the file share it, naming both rows (the database is empty but for the file)."""
    groups: list[tuple[str, ...]] = [(f.attname,) for f in fields_of(model) if f.unique]
    for constraint in model._meta.constraints:
        if (
            isinstance(constraint, models.UniqueConstraint)
            and constraint.condition is None
            and constraint.fields
        ):
            groups.append(tuple(_column(model, name) for name in constraint.fields))
    for together in model._meta.unique_together:
        groups.append(tuple(_column(model, name) for name in together))
    for group in groups:
        seen: dict[tuple[Any, ...], int] = {}
        for index, row in enumerate(rows, start=1):
            key = tuple(row[name] for name in group)
            if any(value is None for value in key):
                continue  # NULLs never collide
            if key in seen:
                names = ", ".join(repr(name.removesuffix("_id")) for name in group)
                raise BackupRefused(f"{part}[{index}]: {names} repeat those of {part}[{seen[key]}]")
            seen[key] = index


def check_references(model: type[models.Model], part: str, rows: Sequence[Mapping[str, Any]]) -> None:
    """Every foreign key points at a row already restored (an earlier part, or earlier in this one)."""
    for field in fields_of(model):
        if not field.is_relation:
            continue
        wanted = {row[field.attname] for row in rows if row[field.attname] is not None}
        target = field.related_model
        assert isinstance(target, type) and issubclass(target, models.Model)
        found: set[Any] = set()
        listed = sorted(wanted)
        for start in range(0, len(listed), 500):
            chunk = listed[start : start + 500]
            found |= set(target._base_manager.filter(pk__in=chunk).values_list("pk", flat=True))
        for index, row in enumerate(rows, start=1):
            value = row[field.attname]
            if value is not None and value not in found:
                raise BackupRefused(
                    f"{part}[{index}]: {field.name!r} {value} is not among the"
                    f" {target._meta.verbose_name_plural} of the backup"
                )


def check_constraints(model: type[models.Model], part: str, objs: Sequence[models.Model]) -> None:
    for constraint in model._meta.constraints:
        if not isinstance(constraint, models.CheckConstraint):
            continue
        for index, obj in enumerate(objs, start=1):
            try:
                # django-stubs 5.2.9 does not list CheckConstraint.validate (Django has it since 4.1).
                constraint.validate(model, obj)  # type: ignore[attr-defined]
            except ValidationError:
                raise BackupRefused(f"{part}[{index}]: the row breaks the rule {constraint.name!r}") from None


def load_rows(model: type[models.Model], part: str, rows: Any) -> int:
    """Write a model's rows from the file, each value checked first, with the ids and times the
    file gives (a time stamped automatically, `auto_now`, is written as the file has it); the next
    new row of the table then takes the next id (`restart_ids`)."""
    if not isinstance(rows, list):
        raise BackupRefused(f"{part!r} is not a list")
    fields = fields_of(model)
    values = [values_of(model, row, f"{part}[{index}]", fields) for index, row in enumerate(rows, start=1)]
    check_unique(model, part, values)
    check_references(model, part, values)
    objs = [model(**row) for row in values]
    check_constraints(model, part, objs)
    model._base_manager.bulk_create(objs, batch_size=500)
    stamped = _stamped(fields)
    if stamped and objs:
        # bulk_create stamps auto_now fields with the time of the restore; bulk_update writes the
        # file's times as given.
        for obj, row in zip(objs, values, strict=True):
            for field in stamped:
                if row[field.attname] is not None:
                    setattr(obj, field.attname, row[field.attname])
        model._base_manager.bulk_update(objs, [f.name for f in stamped], batch_size=500)
    restart_ids(model)
    return len(objs)


def restart_ids(model: type[models.Model]) -> None:
    """Rows written with the file's ids: the next new row of the table takes the next id (on
    PostgreSQL the table's sequence is set past the restored ids; SQLite does that by itself)."""
    connection = connections[router.db_for_write(model)]
    statements = connection.ops.sequence_reset_sql(no_style(), [model])
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)


def models_in_order(app_models: Iterable[type[models.Model]]) -> list[type[models.Model]]:
    """An app's models, each after those of the same app its foreign keys point at."""
    remaining = list(app_models)
    ordered: list[type[models.Model]] = []
    while remaining:
        for model in remaining:
            needs = {
                f.related_model
                for f in fields_of(model)
                if f.is_relation and f.related_model in remaining and f.related_model is not model
            }
            if not needs:
                ordered.append(model)
                remaining.remove(model)
                break
        else:  # pragma: no cover - a cycle of foreign keys within one app
            raise TypeError(f"foreign keys go round in a circle: {[m._meta.label for m in remaining]}")
    return ordered
