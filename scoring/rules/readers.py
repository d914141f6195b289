"""Small typed readers of a record's values: each returns the value or raises RecordError naming
the field, with the value shown as JSON would write it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules.errors import RecordError


def whole_number(value: object, name: str, hand: int | None, *, low: int, high: int) -> int:
    # bool is an int in Python; a JSON true is not a number a table meant.
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError.of("not_whole_number", field=name, hand=hand, name=name, value=shown(value))
    if value < low:
        code = "negative" if low == 0 else "too_low"
        raise RecordError.of(code, field=name, hand=hand, name=name, low=low, value=value)
    if value > high:
        raise RecordError.of("too_high", field=name, hand=hand, name=name, high=high, value=value)
    return value


def one_of(value: object, name: str, hand: int | None, choices: tuple[str, ...] | str) -> str:
    options = tuple(choices)
    if not isinstance(value, str) or value not in options:
        listed = ", ".join(options)
        raise RecordError.of(
            "not_one_of", field=name, hand=hand, name=name, choices=listed, value=shown(value)
        )
    return value


def an_object(value: object, name: str, hand: int | None) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise RecordError.of("not_object", field=name, hand=hand, name=name, value=shown(value))
    return value


def true_or_false(value: object, name: str, hand: int | None) -> bool:
    if not isinstance(value, bool):
        raise RecordError.of("not_boolean", field=name, hand=hand, name=name, value=shown(value))
    return value


def shown(value: object) -> str:
    """A short JSON-like rendering of a bad value for an error message."""
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = str(value).lower()
    elif isinstance(value, dict):
        text = "an object"
    elif isinstance(value, list):
        text = "a list"
    else:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def refuse_unknown_keys(
    data: Mapping[str, Any], allowed: frozenset[str], hand: int | None, where: str
) -> None:
    for key in data:
        if key not in allowed:
            name = f"{where}.{key}" if where else str(key)
            # The message is one line on standard error: show odd keys (empty, newlines, very long) quoted.
            odd = key if key and key.isprintable() and len(key) <= 40 else shown(key)
            odd = f"{where}.{odd}" if where else odd
            raise RecordError.of("unknown_field", field=name, hand=hand, name=odd)
