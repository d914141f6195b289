"""The login limits, counted by django-axes for every login form (the site's and the admin's).

Axes checks each attempt in its authentication backend before any password is checked, and counts
every failed one (Django's `user_login_failed` signal). This handler keeps the limits the site had:
LOGIN_FAILURES_PER_USERNAME per username and LOGIN_FAILURES_PER_ADDRESS per client address, each
counted on its own by the throttles' counter (`throttles.counter`, in the database, so every app
server and worker sees the same counts). A failure counts for LOGIN_FAILURE_WINDOW_SECONDS after it.

The username is counted as Django's log-in form reads it: NFKC-normalised (as `UsernameField`
does) and case-folded, so "ＡＬＩＣＥ", "𝐚𝐥𝐢𝐜𝐞" and "alice" share one budget.
"""

from __future__ import annotations

import datetime
import unicodedata
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.handlers.base import AbstractAxesHandler, AxesBaseHandler
from axes.helpers import get_client_username
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

from throttles import counter
from throttles.address import client_address


def normalised_username(name: str) -> str:
    """The username as the login budget counts it: NFKC (Django's UsernameField) then casefold."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def username_for_axes(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """AXES_USERNAME_CALLABLE: the normalised username of the attempt (credentials first, then POST)."""
    name = (credentials or {}).get("username")
    if name is None:
        name = request.POST.get("username") if request is not None else None
    return normalised_username(str(name)) if name is not None else None


def window(request: HttpRequest | None = None) -> datetime.timedelta:
    """AXES_COOLOFF_TIME, read from the settings at each use (tests and deployments change it)."""
    return datetime.timedelta(seconds=settings.LOGIN_FAILURE_WINDOW_SECONDS)


def failure_limit(request: HttpRequest, credentials: dict[str, Any] | None) -> int:
    """AXES_FAILURE_LIMIT as axes reports it; the handler applies both limits itself."""
    return int(settings.LOGIN_FAILURES_PER_USERNAME)


def _limits(request: HttpRequest, credentials: dict[str, Any] | None) -> counter.Limits:
    """What a login attempt is counted against: its (normalised) username and its client address."""
    return {
        "username": (
            username_for_axes(request, credentials) or "",
            int(settings.LOGIN_FAILURES_PER_USERNAME),
        ),
        "address": (client_address(request), int(settings.LOGIN_FAILURES_PER_ADDRESS)),
    }


class LoginLimitsHandler(AbstractAxesHandler, AxesBaseHandler):  # type: ignore[misc]  # django-axes ships no types
    """Axes' handler, with the counts kept by the throttles' counter: a limit per username and
    one per client address, each counted on its own."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        found = counter.counts(
            kind="login", limits=_limits(request, credentials), window=settings.LOGIN_FAILURE_WINDOW_SECONDS
        )
        return max(found.values(), default=0)

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        return counter.reached(
            kind="login", limits=_limits(request, credentials), window=settings.LOGIN_FAILURE_WINDOW_SECONDS
        )

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
    ) -> None:
        """Count a checked, failed attempt. An attempt refused unchecked (locked out) is not
        counted: it tells the attacker nothing, and the window keeps running out."""
        if request is None or getattr(request, "axes_locked_out", False):
            return
        if self.is_whitelisted(request, credentials):
            return
        with transaction.atomic():
            counter.hold(
                kind="login",
                limits=_limits(request, credentials),
                window=settings.LOGIN_FAILURE_WINDOW_SECONDS,
            ).add()

    def user_logged_in(self, sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
        """A successful login clears the username's count; the address keeps its count (else
        logging in to one's own account would reset the count of guesses at others)."""
        counter.forget(kind="login", values={"username": normalised_username(user.get_username())})

    def user_logged_out(self, sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
        return None

    def reset_attempts(
        self, *, ip_address: str | None = None, username: str | None = None, ip_or_username: bool = False
    ) -> int:
        """`manage.py axes_reset_ip` / `axes_reset_username`: forget that address's or username's
        failures; `axes_reset`: forget every login failure."""
        values = {}
        if username is not None:
            values["username"] = normalised_username(username)
        if ip_address is not None:
            values["address"] = ip_address
        return counter.forget(kind="login", values=values) if values else counter.forget_all(kind="login")


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the log-in page again with 429 and a message (the admin's login too)."""
    username = get_client_username(request, credentials) if credentials else request.POST.get("username", "")
    form = AuthenticationForm(request, initial={"username": request.POST.get("username", username or "")})
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    context = {"form": form, "blocked": True, "next": next_url}
    return render(request, "registration/login.html", context, status=429)


class LoginLimitsBackend(AxesStandaloneBackend):  # type: ignore[misc]  # django-axes ships no types
    """Axes' checking backend, first in AUTHENTICATION_BACKENDS. Every login form passes the
    request; a call without one (the test client's `login`, a shell) is not a login over the
    network and is not limited (axes itself would refuse it with an exception)."""

    def authenticate(self, request: HttpRequest | None, *args: Any, **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, *args, **kwargs)  # type: ignore[no-any-return]
