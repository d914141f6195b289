"""Record ids as a form or a query string sends them: plain ASCII digits and nothing else.

Django reads a ModelChoiceField's value, a list filter's or a page number with Python's `int()`,
which also takes `0_1`, ` 1` and full-width `１`: a forged or mangled id then
names another record instead of being refused. The site writes ids in plain digits, so anything
else is refused here with the field's message. (Number fields the table types in follow
`core.strict_input.whole_number`, which allows blanks around the digits; an id has none.)
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Field, Model
from django.utils.translation import gettext_lazy as _

#: The largest id a database holds (a 64-bit signed integer, PostgreSQL's bigint and SQLite's).
MAX_ID = 2**63 - 1

#: An id as the site writes it: 1 to 19 plain ASCII digits (MAX_ID has 19), and then at most
#: MAX_ID (`parse_id`). The one rule for an id in a URL, a form or a query string.
ID_DIGITS = "[0-9]{1,19}"
_ID = re.compile(ID_DIGITS, re.ASCII)


def parse_id(text: str) -> int | None:
    """The id `text` names, or None unless it is 1 to 19 plain ASCII digits no larger than MAX_ID
    (a larger number names no record on any database: it is never handed to one, where SQLite
    raises OverflowError and PostgreSQL refuses a bigint out of range)."""
    if not _ID.fullmatch(text):
        return None
    number = int(text)
    return number if number <= MAX_ID else None


class IdConverter:
    """`<id:name>` in a URL pattern: an id as `parse_id` reads it. Anything else matches no
    pattern, so it is a 404 on every database (with `<int:...>` SQLite raised OverflowError, a 500)."""

    regex = ID_DIGITS

    def to_python(self, value: str) -> int:
        number = parse_id(value)
        if number is None:
            raise ValueError(value)  # Django reads this as "no match"
        return number

    def to_url(self, value: int | str) -> str:
        return str(value)


def record_id(value: object) -> int | None:
    """The id a value names: an int from 0 to MAX_ID as it is, a string as `parse_id` reads it;
    otherwise None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if 0 <= value <= MAX_ID else None
    if isinstance(value, str):
        return parse_id(value)
    return None


NOT_AN_ID = _(
    "Select a valid choice: “%(value)s” is not one of the choices (an id is written in plain digits)."
)


_INTEGER_KEYS = {"AutoField", "BigAutoField", "SmallAutoField", "IntegerField", "BigIntegerField"}


def integer_key(model: type[Model], name: str | None = None) -> bool:
    """Whether the model's field `name` (its primary key if None) holds integer ids."""
    field = model._meta.pk if name is None else model._meta.get_field(name)
    return isinstance(field, Field) and field.get_internal_type() in _INTEGER_KEYS


def _check(field: forms.ModelChoiceField[Any], value: Any) -> None:
    if value in field.empty_values or isinstance(value, Model):
        return
    if field.queryset is None or not integer_key(field.queryset.model, field.to_field_name):
        return
    if record_id(value) is None:
        raise ValidationError(NOT_AN_ID, code="invalid_choice", params={"value": str(value)[:40]})


class IdChoiceField(forms.ModelChoiceField[Any]):
    """A ModelChoiceField that takes only plain-digit ids where its key is an integer (the admin's
    foreign keys name the key field, `to_field_name="id"`)."""

    def to_python(self, value: Any) -> Any:
        _check(self, value)
        return super().to_python(value)


class IdMultipleChoiceField(forms.ModelMultipleChoiceField[Any]):
    """The many-valued IdChoiceField."""

    def clean(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            for item in value:
                _check(self, item)
        return super().clean(value)
