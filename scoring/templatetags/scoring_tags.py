from collections.abc import Mapping
from typing import Any

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.labels import SUIT_NAMES, side_short
from scoring.strict_input import is_game_code

register = template.Library()


@register.filter
def side(value: str) -> str:
    """ "NS" → "N–S" ("S–J" in Czech); "draw" in words; a lone seat as its letter in the page's language."""
    if value == "draw":
        return _("draw")
    return side_short(value) if value else ""


@register.filter
def suit_name(value: str) -> str:
    """ "hearts" → "Hearts" in the page's language ("Hjärter", "Srdce")."""
    return str(SUIT_NAMES[value]) if value in SUIT_NAMES else value


@register.simple_tag
def language_choices() -> list[tuple[str, str]]:
    """settings.LANGUAGES as written there, each language named in itself and never translated.

    Unlike `{% get_available_languages %}` (which runs the names through Django's own catalogues:
    "English" becomes "anglicky") and unlike the LANGUAGES context variable (missing where a page
    is drawn without a request, as the cached game page is).
    """
    return list(settings.LANGUAGES)


@register.filter
def get_item(mapping: Mapping[Any, Any] | None, key: Any) -> Any:
    """`mapping[key]`, or None: a dictionary looked up by a loop variable."""
    return mapping.get(key) if mapping else None


@register.filter
def game_url(code: str, name: str = "scoring:game") -> str:
    """The address of a game's page (`name` takes the game's code), or "" for a code no address can
    hold: the imports and restore refuse such codes, but a page that lists games must not fail on
    one written into the database by other means (a hand-edited row)."""
    return reverse(name, kwargs={"code": code}) if is_game_code(code) else ""
