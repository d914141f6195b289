"""The admin, safe against forged posts (found by bench/fuzz as a staff organiser).

- The autocomplete widget, drawn again after a post with a malformed id. Django's
  `AutocompleteSelect` looks the posted value up to show it as selected; a value that is not an
  id of the field's type (`0000-00-00` for an integer key, or one past the database's integer
  range) raised ValueError or OverflowError there, so the form that should show "Select a valid
  choice" answered 500 instead.
- An action on a list whose `_selected_action` ids are not ids (`spades`) answered 500; it now
  changes nothing and says so.
- An inline whose `-TOTAL_FORMS` is forged (`99999…`) drew up to 2,000 forms (30 s and a worker
  timeout); a formset here has at most `MAX_INLINE_FORMS` forms.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.admin import helpers
from django.contrib.admin.widgets import AutocompleteSelect, AutocompleteSelectMultiple
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponseBase
from django.utils.translation import gettext

#: The most rows an inline (a club's roster, a game's seats) shows or takes in one post.
MAX_INLINE_FORMS = 300


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


class SafeAdminInputs:
    """Mixed into every admin class here: malformed action ids and forged form counts are refused."""

    model: Any

    def response_action(self, request: HttpRequest, queryset: Any) -> HttpResponseBase | None:
        key = self.model._meta.pk
        try:
            for value in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME):
                key.run_validators(key.to_python(value))
        except (ValidationError, TypeError, ValueError):
            self.message_user(  # type: ignore[attr-defined]
                request,
                gettext("The selection names no item of this list; nothing was changed."),
                messages.WARNING,
            )
            return None  # the list is drawn again with the message
        return super().response_action(request, queryset)  # type: ignore[misc]

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        kwargs.setdefault("max_num", MAX_INLINE_FORMS)
        kwargs.setdefault("absolute_max", MAX_INLINE_FORMS)
        return super().get_formset(request, obj, **kwargs)  # type: ignore[misc]
