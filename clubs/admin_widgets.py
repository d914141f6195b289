"""The admin's autocomplete widget, drawn again safely after a post with a malformed id.

Django's `AutocompleteSelect` looks the posted value up to show it as selected; a value that is
not an id of the field's type (`0000-00-00` for an integer key, or one past the database's
integer range) raised ValueError or OverflowError there, so
the form that should show "Select a valid choice" answered 500 instead (found by bench/fuzz).
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin.widgets import AutocompleteSelect, AutocompleteSelectMultiple
from django.core.exceptions import ValidationError


class _ValidIdsOnly:
    field: Any

    def optgroups(self, name: str, value: list[Any], attr: dict[str, Any] | None = None) -> Any:
        target = self.field.target_field
        valid = []
        for item in value:
            try:  # of the key's type and within the database's range for it
                target.run_validators(target.to_python(item))
            except (ValidationError, TypeError, ValueError):
                continue
            valid.append(item)
        return super().optgroups(name, valid, attr)  # type: ignore[misc]


class SafeAutocompleteSelect(_ValidIdsOnly, AutocompleteSelect):
    pass


class SafeAutocompleteSelectMultiple(_ValidIdsOnly, AutocompleteSelectMultiple):
    pass


def make_safe(formfield: Any) -> Any:
    """The form field with its autocomplete widget (if any) replaced by the safe one."""
    widget = getattr(formfield, "widget", None)
    safe = {
        AutocompleteSelect: SafeAutocompleteSelect,
        AutocompleteSelectMultiple: SafeAutocompleteSelectMultiple,
    }
    if type(widget) in safe:
        formfield.widget = safe[type(widget)](
            widget.field, widget.admin_site, attrs=widget.attrs, choices=widget.choices, using=widget.db
        )
    return formfield
