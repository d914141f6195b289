"""What the run checks after each request: no 5xx, a refused request wrote no row, and a known
hole (look-alike sign-ups, ids in int() syntax, password-change guesses) is still refused."""

from __future__ import annotations

from collections.abc import Sequence

from bench.fuzz.state import Request
from bench.harness import Response


def row_counts() -> tuple[int, ...]:
    """Every table's row count (sessions and the cache aside) and the newest hand change, in one query."""
    from django.db import connection

    quote = connection.ops.quote_name
    tables = sorted(
        name
        for name in connection.introspection.table_names()
        if name not in ("django_session", "throttles_count", "django_migrations")
    )
    sql = ", ".join(f"(SELECT COUNT(*) FROM {quote(name)})" for name in tables)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {sql}, (SELECT COUNT(*) FROM scoring_hand WHERE updated_at > created_at)")
        return tuple(cursor.fetchone())


def refused(request: Request, response: Response) -> bool:
    if response.status >= 400:
        return True
    if response.status in (301, 302, 303):
        return "/login/" in response.location()
    return request.method == "POST"  # a POST answered 200 showed its form again (or a preview)


def reopened(request: Request, response: Response) -> bool:
    """Whether a known hole answered as it did before its fix (`must_refuse` /
    `must_status`). A redirect to the log-in page cannot tell (the browser was signed out)."""
    if response.status in (301, 302, 303) and "/login/" in response.location():
        return False
    if request.must_status:
        return response.status != request.must_status
    return request.must_refuse and not refused(request, response)


def route_of(path: str) -> str | None:
    """The URL pattern a request path resolves to (None: no pattern, a 404 by routing)."""
    from urllib.parse import urlsplit

    from django.urls import Resolver404, resolve

    try:
        return resolve(urlsplit(path).path).route
    except (Resolver404, ValueError):
        return None


def url_patterns() -> list[str]:
    from django.urls import URLPattern, URLResolver, get_resolver

    def walk(patterns: Sequence[URLPattern | URLResolver], prefix: str) -> list[str]:
        found = []
        for item in patterns:
            if isinstance(item, URLResolver):
                found += walk(item.url_patterns, prefix + str(item.pattern))
            elif isinstance(item, URLPattern):
                found.append(prefix + str(item.pattern))
        return found

    return [route for route in walk(get_resolver().url_patterns, "") if not route.startswith("admin/")]
