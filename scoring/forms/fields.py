"""Form fields of the scoring forms: choices taken as they are, and point figures typed at a game's
scale (the number fields every form uses live in core.fields)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.choices import BaseChoiceIterator
from django.utils.translation import gettext_lazy as _

from core.fields import WholeNumberField
from scoring.rules.scale import shown, typed


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


def off_scale(scale: int) -> ValidationError:
    """A typed point figure that is not a multiple of the game's scale (the field names it)."""
    return ValidationError(
        _("Points are shown ×%(scale)d in this game: type a multiple of %(scale)d."),
        code="off_scale",
        params={"scale": scale},
    )


def retype(form: forms.Form, names: Iterable[str], scale: int) -> None:
    """Read the cleaned point figures `names` of a form whose scale is one of its own fields (a
    new game, a club night): each as stored, or refused next to its field; nothing else changes."""
    if scale == 1:
        return
    for name in names:
        figure = form.cleaned_data.get(name)
        if figure is None:
            continue
        stored = typed(figure, scale)
        if stored is None:
            form.add_error(name, off_scale(scale))
        else:
            form.cleaned_data[name] = stored


class PointsField(WholeNumberField):
    """A point figure of a game at `scale` (scoring.rules.scale): typed and drawn ×scale, cleaned
    to the stored figure; a figure that is not a multiple of the scale is refused. `min_value` and
    `max_value` are stored figures (their messages show them as typed)."""

    def __init__(
        self, *, scale: int = 1, min_value: int | None = None, max_value: int | None = None, **kwargs: Any
    ) -> None:
        self.scale = scale
        low = None if min_value is None else shown(min_value, scale)
        high = None if max_value is None else shown(max_value, scale)
        super().__init__(min_value=low, max_value=high, **kwargs)

    def clean(self, value: Any) -> int | None:
        figure = super().clean(value)
        if figure is None:
            return None
        stored = typed(figure, self.scale)
        if stored is None:
            raise off_scale(self.scale)
        return stored

    def prepare_value(self, value: Any) -> Any:
        # A stored figure (an initial value) is drawn as typed; what a person typed stays as typed.
        if isinstance(value, int) and not isinstance(value, bool):
            return shown(value, self.scale)
        return value
