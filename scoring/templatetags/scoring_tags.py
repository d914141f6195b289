from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.translation import gettext as _

from scoring.labels import side_short

register = template.Library()


@register.filter
def side(value: str) -> str:
    """ "NS" → "N–S"; "draw" in words; a lone seat stays its letter."""
    if value == "draw":
        return _("draw")
    return side_short(value) if value else ""


@register.filter
def get_item(mapping: Mapping[Any, Any] | None, key: Any) -> Any:
    """`mapping[key]`, or None: a dictionary looked up by a loop variable."""
    return mapping.get(key) if mapping else None
