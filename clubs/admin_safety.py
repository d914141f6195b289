"""The admin, safe against forged posts (found by bench/fuzz as a staff organiser).

- The autocomplete widget, drawn again after a post with a malformed id. Django's
  `AutocompleteSelect` looks the posted value up to show it as selected; a value that is not an
  id of the field's type (`0000-00-00` for an integer key, or one past the database's integer
  range) raised ValueError or OverflowError there, so the form that should show "Select a valid
  choice" answered 500 instead.
- An action on a list whose `_selected_action` ids are not ids (`spades`) answered 500; it now
  changes nothing and says so.
- Ids in Python's integer syntax (`0_1`, ` 1`, full-width `１`), which `int()` reads as another
  record's id: in an object's address, an action's selection and a list filter's parameter they
  are refused like any id that names nothing (`clubs.ids.record_id`); form choices use
  `IdChoiceField` (clubs/admin.py).
- An inline whose `-TOTAL_FORMS` is forged (`99999…`) drew up to 2,000 forms (30 s and a worker
  timeout); a formset here has at most `MAX_INLINE_FORMS` forms.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.admin import helpers
from django.contrib.admin.views.main import PAGE_VAR
from django.contrib.admin.widgets import AutocompleteSelect, AutocompleteSelectMultiple
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.http import HttpRequest, HttpResponseBase, HttpResponseRedirect
from django.utils.translation import gettext

from clubs.ids import integer_key, record_id

#: A list filter's parameter that names records by id: `club__id__exact`, `pk__in`, `player`'s
#: `memberships__club__id__exact`...
_ID_PARAMETER = re.compile(r"(^|__)(id|pk)(__exact|__in)?$")


def _ids(values: list[str]) -> bool:
    """Whether every value (a comma list for `__in`) is empty or plain-digit ids."""
    return all(record_id(part) is not None for value in values if value for part in value.split(","))


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
                if integer_key(self.model) and record_id(value) is None:
                    raise ValidationError("not an id")
                key.run_validators(key.to_python(value))
        except (ValidationError, TypeError, ValueError):
            self.message_user(  # type: ignore[attr-defined]
                request,
                gettext("The selection names no item of this list; nothing was changed."),
                messages.WARNING,
            )
            return None  # the list is drawn again with the message
        return super().response_action(request, queryset)  # type: ignore[misc]

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> Any:
        """None (the admin's "does not exist") for an address whose id is not plain digits."""
        if from_field is None and integer_key(self.model) and record_id(object_id) is None:
            return None
        return super().get_object(request, object_id, from_field)  # type: ignore[misc]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
        """A list filter's id that is not plain digits: the list without that filter, and a
        message naming it (Django would read `0_1` as 1)."""
        bad = [key for key, value in request.GET.lists() if _ID_PARAMETER.search(key) and not _ids(value)]
        page = request.GET.get(PAGE_VAR)
        if page is not None and record_id(page) is None:  # the list's page number: the first page
            self.message_user(  # type: ignore[attr-defined]
                request,
                gettext("Page: “%(value)s” is not a page number (plain digits).") % {"value": page[:40]},
                messages.ERROR,
            )
            bad.append(PAGE_VAR)
        if bad:
            kept = request.GET.copy()
            for key in [key for key in bad if key != PAGE_VAR]:
                self.message_user(  # type: ignore[attr-defined]
                    request,
                    gettext("%(filter)s: “%(value)s” is not an id (plain digits); the filter was left out.")
                    % {"filter": self._filter_name(key), "value": request.GET[key][:40]},
                    messages.ERROR,
                )
            for key in bad:
                del kept[key]
            return HttpResponseRedirect(f"{request.path}?{kept.urlencode()}" if kept else request.path)
        return super().changelist_view(request, extra_context)  # type: ignore[misc]

    def _filter_name(self, key: str) -> str:
        """The name of the field a filter parameter ends on (`memberships__club__id__exact`: club)."""
        path = _ID_PARAMETER.sub("", key)
        model, name = self.model, key
        try:
            for part in path.split("__") if path else []:
                field = model._meta.get_field(part)
                name = str(getattr(field, "verbose_name", None) or field.related_model._meta.verbose_name)
                model = field.related_model or model
        except FieldDoesNotExist:
            return key
        return name if path else str(self.model._meta.verbose_name)

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        kwargs.setdefault("max_num", MAX_INLINE_FORMS)
        kwargs.setdefault("absolute_max", MAX_INLINE_FORMS)
        return super().get_formset(request, obj, **kwargs)  # type: ignore[misc]
