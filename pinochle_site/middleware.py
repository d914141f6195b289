"""Content-Security-Policy on every response (Django 5.2 has no CSP of its own; 6.0 does).

The policy allows only the app's own scripts and styles, so no page may use an inline <script>,
<style> or style="" attribute. htmx injects an inline indicator style unless base.html sets
<meta name="htmx-config" content='{"includeIndicatorStyles": false}'>.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseBase


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.policy: str = settings.CONTENT_SECURITY_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        # A view that needs a different policy (none does yet) sets the header itself.
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.policy
        return response


class RejectNulInPathMiddleware:
    """A URL with a NUL byte (%00) names nothing here: answer 404 before any view looks it up.

    PostgreSQL cannot hold NUL in text, so a game code like "%00" reaching a query raised
    DataError (a 500) where SQLite simply found no game. Form fields refuse NUL themselves
    (Django's ProhibitNullCharactersValidator); the path is the one input no form checks.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if "\x00" in request.path_info:
            raise Http404("no page has a NUL byte in its address")
        return self.get_response(request)
