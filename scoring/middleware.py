"""Content-Security-Policy on every response (Django 5.2 has no CSP of its own; 6.0 does).

The policy allows only the app's own scripts and styles, so no page may use an inline <script>,
<style> or style="" attribute. htmx injects an inline indicator style unless base.html sets
<meta name="htmx-config" content='{"includeIndicatorStyles": false}'>.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase


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
