"""Queries compiled once per process: the reads every scoreboard and every save make.

Django compiles a queryset to SQL on every evaluation, and for the short reads of the hot pages
(the game by its code with the device's right to it, a game's seats and hands) compiling costs
several times what SQLite takes to answer. A `Prepared` query is written as an ordinary queryset
with named placeholders; it is compiled on first use (per database connection alias), and each
call binds the values and turns the rows into model instances as the ORM would (the fields'
converters, `Model.from_db`, annotations as attributes). Only a plain `filter()` /
`annotate()` / `order_by()` / `select_for_update()` on one model is supported: no
`select_related`, no `values()`, no deferred fields.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.db import connections, models
from django.db.models import QuerySet

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
        found = []
        for row in fetched:
            instance = compiled.model.from_db(compiled.db, compiled.attnames, row[compiled.model_slice])
            for index, alias in compiled.annotations:
                setattr(instance, alias, row[index])
            found.append(instance)
        return found


__all__ = ["Prepared"]
