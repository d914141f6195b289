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
from collections.abc import Sequence
from typing import Any, TypeVar

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.views.main import PAGE_VAR
from django.contrib.admin.widgets import AutocompleteMixin, AutocompleteSelect, AutocompleteSelectMultiple
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db.models import Model, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
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


_M = TypeVar("_M", bound=Model)
_P = TypeVar("_P", bound=Model)
#: What an autocomplete widget's `optgroups` gives: (group name, options, index) per group.
OptGroups = list[tuple[str | None, list[dict[str, Any]], int | None]]


def related_model(field: Any) -> type[Model]:
    """The model a relation field points to (a class once the apps are loaded, never "self")."""
    model = field.related_model
    assert isinstance(model, type) and issubclass(model, Model), field
    return model


def _valid_ids(widget: AutocompleteMixin, value: Sequence[str]) -> list[str]:
    """The values that are ids of the field's key type, within the database's range for it."""
    target = widget.field.target_field
    valid = []
    for item in value:
        try:
            target.run_validators(target.to_python(item))
        except (ValidationError, TypeError, ValueError):
            continue
        valid.append(item)
    return valid


class SafeAutocompleteSelect(AutocompleteSelect):
    def optgroups(self, name: str, value: Sequence[str], attr: dict[str, Any] | None = None) -> OptGroups:
        return super().optgroups(name, _valid_ids(self, value), attr)


class SafeAutocompleteSelectMultiple(AutocompleteSelectMultiple):
    def optgroups(self, name: str, value: Sequence[str], attr: dict[str, Any] | None = None) -> OptGroups:
        return super().optgroups(name, _valid_ids(self, value), attr)


_SAFE_WIDGETS: dict[type[AutocompleteMixin], type[AutocompleteMixin]] = {
    AutocompleteSelect: SafeAutocompleteSelect,
    AutocompleteSelectMultiple: SafeAutocompleteSelectMultiple,
}

_F = TypeVar("_F", bound=forms.Field | None)


def make_safe(formfield: _F) -> _F:
    """The form field with its autocomplete widget (if any) replaced by the safe one."""
    widget = formfield.widget if formfield is not None else None
    if isinstance(widget, AutocompleteMixin) and type(widget) in _SAFE_WIDGETS:
        assert formfield is not None
        formfield.widget = _SAFE_WIDGETS[type(widget)](
            widget.field, widget.admin_site, attrs=widget.attrs, choices=widget.choices, using=widget.db
        )
    return formfield


class SafeModelAdmin(admin.ModelAdmin[_M]):
    """The base of every model admin here: malformed action ids, object ids, list filters and page
    numbers are refused."""

    def response_action(self, request: HttpRequest, queryset: QuerySet[_M]) -> HttpResponse | None:
        key = self.model._meta.pk
        try:
            for value in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME):
                if integer_key(self.model) and record_id(value) is None:
                    raise ValidationError("not an id")
                key.run_validators(key.to_python(value))
        except (ValidationError, TypeError, ValueError):
            self.message_user(
                request,
                gettext("The selection names no item of this list; nothing was changed."),
                messages.WARNING,
            )
            return None  # the list is drawn again with the message
        return super().response_action(request, queryset)

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> _M | None:
        """None (the admin's "does not exist") for an address whose id is not plain digits."""
        if from_field is None and integer_key(self.model) and record_id(object_id) is None:
            return None
        return super().get_object(request, object_id, from_field)

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """A list filter's id that is not plain digits: the list without that filter, and a
        message naming it (Django would read `0_1` as 1)."""
        bad = [key for key, value in request.GET.lists() if _ID_PARAMETER.search(key) and not _ids(value)]
        page = request.GET.get(PAGE_VAR)
        if page is not None and record_id(page) is None:  # the list's page number: the first page
            self.message_user(
                request,
                gettext("Page: “%(value)s” is not a page number (plain digits).") % {"value": page[:40]},
                messages.ERROR,
            )
            bad.append(PAGE_VAR)
        if bad:
            kept = request.GET.copy()
            for key in [key for key in bad if key != PAGE_VAR]:
                self.message_user(
                    request,
                    gettext("%(filter)s: “%(value)s” is not an id (plain digits); the filter was left out.")
                    % {"filter": self._filter_name(key), "value": request.GET[key][:40]},
                    messages.ERROR,
                )
            for key in bad:
                del kept[key]
            return HttpResponseRedirect(f"{request.path}?{kept.urlencode()}" if kept else request.path)
        return super().changelist_view(request, extra_context)

    def _filter_name(self, key: str) -> str:
        """The name of the field a filter parameter ends on (`memberships__club__id__exact`: club)."""
        path = _ID_PARAMETER.sub("", key)
        model: type[Model] = self.model
        name = key
        try:
            for part in path.split("__") if path else []:
                field = model._meta.get_field(part)
                name = str(getattr(field, "verbose_name", None) or related_model(field)._meta.verbose_name)
                model = related_model(field) if field.related_model else model
        except FieldDoesNotExist:
            return key
        return name if path else str(self.model._meta.verbose_name)


class SafeTabularInline(admin.TabularInline[_M, _P]):
    """The base of every inline here: a forged form count draws at most `MAX_INLINE_FORMS` forms."""

    def get_formset(
        self, request: HttpRequest, obj: _P | None = None, **kwargs: Any
    ) -> type[BaseInlineFormSet[_M, _P, forms.ModelForm[_M]]]:
        kwargs.setdefault("max_num", MAX_INLINE_FORMS)
        kwargs.setdefault("absolute_max", MAX_INLINE_FORMS)
        return super().get_formset(request, obj, **kwargs)
