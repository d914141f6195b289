"""Form fields of the scoring forms: choices taken as they are (the number fields every form uses
live in core.fields and are re-exported here)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.utils.choices import BaseChoiceIterator


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
