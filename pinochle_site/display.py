"""How the pages are drawn on this phone: large text and high contrast, each on or off.

Kept in a cookie the server reads (so it works without JavaScript): the base template puts the
chosen modes on <html> as classes (`text-large`, `contrast-high`), and static/css/readable.css
draws them. The phone's own wishes (prefers-contrast, prefers-reduced-motion, forced colours) are
honoured by the stylesheet whatever the cookie says.
"""

from __future__ import annotations

from typing import Final

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

COOKIE: Final = "display"
#: The modes a phone may turn on, by the word kept in the cookie, with the class put on <html>.
MODES: Final = {"large": "text-large", "contrast": "contrast-high"}
_YEAR: Final = 60 * 60 * 24 * 365


def chosen(request: HttpRequest) -> frozenset[str]:
    """The modes this phone turned on (unknown words in the cookie are ignored)."""
    return frozenset(request.COOKIES.get(COOKIE, "").split("-")) & MODES.keys()


def display(request: HttpRequest) -> dict[str, object]:
    """Context processor: the <html> classes and each mode's state for the switches.

    >>> from django.test import RequestFactory
    >>> request = RequestFactory().get("/", HTTP_COOKIE="display=large")
    >>> display(request)["display_classes"]
    'text-large'
    """
    modes = chosen(request)
    return {
        "display_classes": " ".join(MODES[mode] for mode in sorted(modes)),
        "display_large": "large" in modes,
        "display_contrast": "contrast" in modes,
    }


@require_POST
def display_set(request: HttpRequest) -> HttpResponse:
    """Turn one mode on or off (`large=1`, `contrast=0`), remember it a year, and go back."""
    modes = set(chosen(request))
    for mode in MODES:
        value = request.POST.get(mode)
        if value == "1":
            modes.add(mode)
        elif value == "0":
            modes.discard(mode)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, require_https=request.is_secure()):
        back = "/"
    response = HttpResponseRedirect(back)
    if modes:
        response.set_cookie(
            COOKIE,
            "-".join(sorted(modes)),
            max_age=_YEAR,
            samesite="Lax",
            httponly=True,
            secure=settings.LANGUAGE_COOKIE_SECURE,
        )
    else:
        response.delete_cookie(COOKIE, samesite="Lax")
    return response
