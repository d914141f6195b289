"""The login limits, counted by django-axes for every login form (the site's and the admin's).

Axes checks each attempt in its authentication backend before any password is checked, and counts
every failed one (Django's `user_login_failed` signal). This handler keeps the limits the site had:
LOGIN_FAILURES_PER_USERNAME per username and LOGIN_FAILURES_PER_ADDRESS per client address, each
counted on its own by the throttles' counter (`throttles.counter`, in the database, so every app
server and worker sees the same counts). A failure counts for LOGIN_FAILURE_WINDOW_SECONDS after it.

An attempt is counted before its password is checked, in one transaction with the check of the
limits (`reserve`), so attempts sent together are counted one after the other and no more of them
reach the password check than the limits allow; the right password then takes its attempt back
(`give_back`): only failures count.

The username is counted as Django's log-in form reads it: NFKC-normalised (as `UsernameField`
does) and case-folded, so "ＡＬＩＣＥ", "𝐚𝐥𝐢𝐜𝐞" and "alice" share one budget.
"""

from __future__ import annotations

import datetime
import unicodedata
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.handlers.base import AbstractAxesHandler, AxesBaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username, get_credentials, get_lockout_message
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


#: The request's attribute holding when its login attempt was counted (Unix seconds, as counted).
COUNTED_AT = "login_attempt_counted_at"


def reserve(request: HttpRequest, credentials: dict[str, Any] | None) -> bool:
    """Count a login attempt before its password is checked: False, with nothing counted, when
    the username or the address has had its limit of failures in the window. The check and the
    count hold the counts' rows together (`throttles.counter.hold`), so attempts sent together
    are counted one after the other."""
    with transaction.atomic():
        held = counter.hold(
            kind="login", limits=_limits(request, credentials), window=settings.LOGIN_FAILURE_WINDOW_SECONDS
        )
        if held.full():
            return False
        held.add()
    setattr(request, COUNTED_AT, held.at.timestamp())
    return True


def give_back(request: HttpRequest, values: dict[str, str]) -> None:
    """Uncount the request's attempt (`reserve`) against `values` (name -> value): it was right."""
    at = getattr(request, COUNTED_AT, None)
    if at is None:
        return
    delattr(request, COUNTED_AT)
    counter.take_back(kind="login", values=values, at=at)


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
        """Count a checked, failed attempt (one counted before its check, `reserve`, stays
        counted). An attempt refused unchecked (locked out) is not counted: it tells the attacker
        nothing, and the window keeps running out."""
        if request is None or getattr(request, "axes_locked_out", False):
            return
        if getattr(request, COUNTED_AT, None) is not None:
            delattr(request, COUNTED_AT)  # counted already, and not to be given back
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
        logging in to one's own account would reset the count of guesses at others), but for this
        attempt, counted before its password was checked."""
        counter.forget(kind="login", values={"username": normalised_username(user.get_username())})
        if request is not None:
            give_back(request, {"address": client_address(request)})

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
    """Axes' checking backend, first in AUTHENTICATION_BACKENDS: it counts the attempt before
    the next backend checks its password, or refuses it unchecked when a limit is reached
    (`reserve`). Every login form passes the request; a call without one (the test client's
    `login`, a shell) is not a login over the network and is not limited (axes itself would
    refuse it with an exception)."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None or not getattr(settings, "AXES_ENABLED", True):
            return None
        credentials = get_credentials(username=username, password=password, **kwargs)
        AxesProxyHandler.update_request(request)  # the request attributes axes' checks read
        handler = AxesProxyHandler.get_implementation()
        if not handler.is_blacklisted(request, credentials) and (
            handler.is_whitelisted(request, credentials) or reserve(request, credentials)
        ):
            return None
        kwargs.get("response_context", {})["error"] = get_lockout_message()
        request.axes_locked_out = True  # type: ignore[attr-defined]  # axes' mark, read by its middleware
        raise AxesBackendPermissionDenied("AxesBackend detected that the given user is locked out")
