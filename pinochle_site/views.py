"""Site-wide views that belong to no app, and the rules page, which states numbers owned by several
apps (the rules engine's tables, the ratings' constants, the settlement's exact limit)."""

from __future__ import annotations

import datetime
import hashlib
import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from nights.settlement import payments
from pinochle_site.middleware import SESSION_TAG_HEADER
from ratings import compute
from scoring.labels import MELD_LABELS
from scoring.rules import rules_page, worked_example

#: When the rule book behind the rules page last changed (shown in the reader's date format).
RULES_DATE = datetime.date(2026, 11, 29)


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness check for load balancers, and the trivial view the web benchmark compares against."""
    return HttpResponse("ok", content_type="text/plain")


# The app shell the service worker keeps for offline use (templates/sw.js).
_SHELL = (
    "css/app.css",
    "css/language.css",
    "css/readable.css",
    "css/meld-stack.css",
    "js/app.js",
    "js/outbox.js",
    "js/outbox-view.js",
    "js/table.js",
    "js/taps.js",
    "js/table-view.js",
    "js/logout.js",
    "js/announce.js",
    "js/moved.js",
    "js/countdown.js",
    "django_htmx/htmx-2.min.js",
    "manifest.webmanifest",
    "icons/icon-192.png",
    "icons/icon.svg",
)


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js: served from the site root so that it may look after every page of the site (a worker
    only controls the pages under its own address). Its version changes with the static files'
    hashed names and its own text, so a new release replaces the kept copies."""
    shell = [static(path) for path in _SHELL]
    offline = render_to_string("offline.html", request=request)
    text = render_to_string(
        "sw.js",
        {
            "shell": json.dumps(shell),
            "offline_page": json.dumps(offline, ensure_ascii=False),
            "static_prefix": settings.STATIC_URL,
            "tag_header": SESSION_TAG_HEADER,
            "version": "",
        },
    )
    version = hashlib.sha256(text.encode()).hexdigest()[:12]
    worker = text.replace('const CACHE = "pinochle-";', f'const CACHE = "pinochle-{version}";', 1)
    response = HttpResponse(worker, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


def rules_context() -> dict[str, Any]:
    """Every number the rules page states, each read from the app that owns it."""
    return {
        **rules_page.rules_numbers(),
        "rules_date": RULES_DATE,
        "meld_labels": MELD_LABELS,
        "example": worked_example.hand_table(),
        "house": rules_page.house_rule_examples(),
        "rating": {
            "mu": compute.MU,
            "sigma": compute.SIGMA,
            "base": compute.DISPLAY_BASE,
            "scale": compute.DISPLAY_SCALE,
        },
        "settlement_exact_limit": payments.EXACT_LIMIT,
    }


@require_safe
def rules_help(request: HttpRequest) -> HttpResponse:
    """The "Rules" help page: docs/rules.md in the players' words, every number read from its
    owner and the worked example scored by the engine."""
    return render(request, "rules.html", rules_context())
