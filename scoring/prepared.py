"""Queries compiled once per process: the reads every scoreboard and every save make.

Django compiles a queryset to SQL on every evaluation, and for the short reads of the hot pages
(the game by its code with the device's right to it, a game's seats and hands) compiling costs
several times what SQLite takes to answer. A `Prepared` query is written as an ordinary queryset
with named placeholders; it is compiled on first use (per database connection alias), and each
call binds the values and turns the rows into model instances as the ORM would (the fields'
converters, `Model.from_db`, annotations as attributes), or, for a `values_list()` query, into
tuples of its columns. Only a plain `filter()` / `annotate()` / `order_by()` /
`select_for_update()` / `values_list()` on one model is supported: no `select_related`, no
`values()`, no deferred fields.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import DatabaseError, connections, models, router
from django.db.models import QuerySet
from django.db.models.constants import OnConflict
from django.db.models.query import ValuesListIterable

M = TypeVar("M", bound=models.Model)


def _marker(name: str, kind: type, index: int) -> Any:
    """A placeholder value of the parameter's type that no real value takes; found again in the
    compiled query's parameters by its value."""
    if kind is int:
        return -(2**62) - index
    if kind is str:
        return f"\x00prepared:{name}\x00"
    raise TypeError(f"a prepared query's placeholders are int or str, not {kind.__name__}")


class _Compiled:
    def __init__(self, queryset: QuerySet[Any], markers: dict[str, Any]) -> None:
        compiler = queryset.query.get_compiler(queryset.db)
        sql, params = compiler.as_sql()
        by_marker = {(type(marker), marker): name for name, marker in markers.items()}
        # Each parameter is a named placeholder's value, or a constant of the queryset itself.
        self.binds: list[tuple[str | None, Any]] = [
            (by_marker.get((type(param), param)), param) for param in params
        ]
        if {name for name, _ in self.binds if name is not None} != set(markers):
            raise ValueError("every placeholder must reach the SQL unchanged")
        self.sql = sql
        self.db: str = queryset.db
        self.model: type[models.Model] = queryset.model
        expressions = [column for column, _sql, _alias in compiler.select]
        self.converters = compiler.get_converters(expressions)
        self.apply_converters = compiler.apply_converters
        klass_info = compiler.klass_info
        #: A values_list() query gives tuples of its columns (converted), no model instances.
        iterable = queryset._iterable_class  # type: ignore[attr-defined]
        if queryset._fields is not None and iterable is not ValuesListIterable:  # type: ignore[attr-defined]
            raise ValueError("a prepared query gives model rows or values_list() tuples")
        self.tuples = iterable is ValuesListIterable
        if self.tuples:
            return
        if klass_info is None or klass_info.get("related_klass_infos"):
            raise ValueError("a prepared query reads one model's rows")
        start, end = min(klass_info["select_fields"]), max(klass_info["select_fields"]) + 1
        self.model_slice = slice(start, end)
        self.attnames = [column.target.attname for column, _sql, _alias in compiler.select[start:end]]
        self.annotations = [
            (index, alias) for index, (_column, _sql, alias) in enumerate(compiler.select) if alias
        ]


class Prepared(Generic[M]):
    """`Prepared(lambda code: Game.objects.filter(code=code), code=str)`, then
    `query.rows(code="abc")`: each placeholder named with its type (int or str)."""

    def __init__(self, build: Callable[..., QuerySet[M]], **kinds: type) -> None:
        self.build = build
        self.kinds = kinds
        self._compiled: _Compiled | None = None

    def _compile(self) -> _Compiled:
        if self._compiled is None:
            markers = {
                name: _marker(name, kind, index) for index, (name, kind) in enumerate(self.kinds.items())
            }
            # Compiled for the database the queryset reads on first use (this project has one).
            self._compiled = _Compiled(self.build(**markers), markers)
        return self._compiled

    def rows(self, **values: Any) -> list[M]:
        compiled = self._compile()
        params = [values[name] if name is not None else constant for name, constant in compiled.binds]
        with connections[compiled.db].cursor() as cursor:
            cursor.execute(compiled.sql, params)
            fetched: Any = cursor.fetchall()
        if compiled.converters:
            fetched = compiled.apply_converters(fetched, compiled.converters)
        if compiled.tuples:
            return [tuple(row) for row in fetched]
        found = []
        for row in fetched:
            instance = compiled.model.from_db(compiled.db, compiled.attnames, row[compiled.model_slice])
            for index, alias in compiled.annotations:
                setattr(instance, alias, row[index])
            found.append(instance)
        return found


def insert_values(
    model: type[models.Model],
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    update_on: str | None = None,
) -> None:
    """Insert rows of plain database values (numbers, text, flags, None, primary keys) into
    `model`'s table, one value per name in `columns` (the fields' attnames), in as few statements
    as the database allows, reading nothing back. With `update_on` (the attname of a unique field),
    a row that is there already is written over (an upsert). What `bulk_create` does, without
    model instances and with the SQL text made once per shape: the statistics rows of every save."""
    if not rows:
        return
    connection = connections[router.db_for_write(model)]
    fields = _fields(model, columns)
    batch = connection.ops.bulk_batch_size(fields, rows) or len(rows)
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            sql = insert_sql(model, columns, rows=len(chunk), update_on=update_on, using=connection.alias)
            cursor.execute(sql, [value for row in chunk for value in row])


def _fields(model: type[models.Model], attnames: Sequence[str]) -> list[models.Field[Any, Any]]:
    by_attname = {field.attname: field for field in model._meta.concrete_fields}
    return [by_attname[name] for name in attnames]


def insert_sql(
    model: type[models.Model],
    columns: Sequence[str],
    *,
    rows: int = 1,
    update_on: str | None = None,
    using: str | None = None,
) -> str:
    """The INSERT of `rows` rows of `columns` (attnames) into `model`'s table, made once per shape
    (league.services runs the one-row form with executemany)."""
    alias = using or router.db_for_write(model)
    key = (alias, model, tuple(columns), rows, update_on)
    sql = _INSERTS.get(key)
    if sql is None:
        connection = connections[alias]
        quote = connection.ops.quote_name
        fields = _fields(model, columns)
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        sql = "INSERT INTO {} ({}) VALUES {}".format(
            quote(model._meta.db_table),
            ", ".join(quote(field.column) for field in fields),
            ", ".join([row] * rows),
        )
        if update_on is not None:
            unique = _fields(model, [update_on])[0]
            updated = [field.column for field in fields if field is not unique]
            suffix = connection.ops.on_conflict_suffix_sql(
                fields, OnConflict.UPDATE, updated, [unique.column]
            )
            sql = f"{sql} {suffix}"
        sql = _INSERTS[key] = sql
    return sql


_INSERTS: dict[tuple[str, type[models.Model], tuple[str, ...], int, str | None], str] = {}


def insert_row(instance: models.Model) -> None:
    """Insert one new instance, as `Model.objects.create` does (an `auto_now_add` field is set to
    now, the primary key the database gives is set on it, and it counts as saved), with the SQL
    made once per model. No save signals are sent: nothing in this project listens to them for the
    models written here (a game's hands)."""
    model = type(instance)
    connection = connections[router.db_for_write(model)]
    pk = model._meta.pk
    fields = [field for field in model._meta.local_concrete_fields if not field.primary_key]
    returning = connection.features.can_return_columns_from_insert
    sql = insert_sql(model, [field.attname for field in fields], using=connection.alias)
    if returning:
        sql = f"{sql} RETURNING {connection.ops.quote_name(pk.column)}"
    params = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if returning:
            value = cursor.fetchone()[0]
        else:
            value = connection.ops.last_insert_id(cursor, model._meta.db_table, pk.column)
    instance.pk = value
    instance._state.adding = False
    instance._state.db = connection.alias


def update_row(instance: models.Model, names: Sequence[str]) -> None:
    """Write the fields `names` of one saved instance, as `save(update_fields=names)` does (an
    `auto_now` field is set to now), with the SQL made once per shape. No save signals are sent:
    nothing in this project listens to them for the models written here (a game's summary)."""
    model = type(instance)
    connection = connections[router.db_for_write(model)]
    fields = [model._meta.get_field(name) for name in names]
    key = (connection.alias, model, tuple(names))
    sql = _UPDATES.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        sets = ", ".join(f"{quote(field.column)} = %s" for field in fields)
        sql = _UPDATES[key] = (
            f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE {quote(model._meta.pk.column)} = %s"
        )
    params = [field.get_db_prep_save(field.pre_save(instance, False), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, instance.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"{model.__name__} {instance.pk} was not there to update")


_UPDATES: dict[tuple[str, type[models.Model], tuple[str, ...]], str] = {}


__all__ = ["Prepared", "insert_row", "insert_sql", "insert_values", "update_row"]
