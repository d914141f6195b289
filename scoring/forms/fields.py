"""Form fields for what a person types: plain digits, plain decimal amounts, and choices taken
as they are."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from django import forms
from django.utils.choices import BaseChoiceIterator

from scoring.strict_input import whole_number


class WholeNumberField(forms.IntegerField):
    """A number a person types: plain digits 0-9 only (blanks around them aside).

    Django's IntegerField reads what Python's int() reads: `25_0` (saved as 250), `+5`, `٣`.
    Every number on these forms is a count or points at least 0, so no minus sign either.
    """

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values or (isinstance(value, str) and not value.strip()):
            return None
        number = whole_number(str(value))
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class PlainDecimalField(forms.DecimalField):
    """An amount a person types: ASCII digits with at most one decimal point (a minus sign and
    blanks around them aside, so a negative amount gets the field's minimum's message). Django's
    DecimalField reads what Python's Decimal() reads: `0_5` (saved as 5), `1e2`, full-width digits.
    """

    _PLAIN = re.compile(r"\s*-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*", re.ASCII)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and value.strip() and not self._PLAIN.fullmatch(value):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class FixedChoices(BaseChoiceIterator):
    """Choices already in Django's (value, label) form, taken as they are: Django would normalize
    a list again for the field and for its widget, on every form, and a save builds one."""

    def __init__(self, choices: Iterable[tuple[str, Any]]) -> None:
        self.choices = list(choices)

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        return iter(self.choices)

    def __len__(self) -> int:
        return len(self.choices)


#: "♠ Spades": made once, translated when drawn (a save only checks the posted suit).
