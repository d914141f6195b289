"""Site-wide views that belong to no app."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness check for load balancers, and the trivial view the web benchmark compares against."""
    return HttpResponse("ok", content_type="text/plain")
