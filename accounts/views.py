"""Sign up and log in. Log out, password reset and password change are Django's own views
(accounts/urls.py) with this app's templates."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from accounts.ratelimit import clear_login_failures, client_address, login_blocked, record_login_failure


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Only used to send you a link if you forget your password."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


def _next_url(request: HttpRequest) -> str:
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return wanted if safe else settings.LOGIN_REDIRECT_URL


@sensitive_post_parameters("password1", "password2")
@csrf_protect
@never_cache
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_next_url(request))
    return render(request, "registration/signup.html", {"form": form, "next": _next_url(request)})


@sensitive_post_parameters("password")
@csrf_protect
@never_cache
@require_http_methods(["GET", "POST"])
def login_view(request: HttpRequest) -> HttpResponse:
    """Django's login, refused with 429 before any password check once the username or the
    client address has had too many failures (accounts/ratelimit.py)."""
    context: dict[str, Any] = {"next": _next_url(request)}
    if request.method != "POST":
        return render(request, "registration/login.html", {**context, "form": AuthenticationForm(request)})
    username = request.POST.get("username", "")
    address = client_address(request)
    if login_blocked(username=username, address=address):
        form = AuthenticationForm(request, initial={"username": username})
        context.update(form=form, blocked=True)
        return render(request, "registration/login.html", context, status=429)
    form = AuthenticationForm(request, data=request.POST)
    if form.is_valid():
        clear_login_failures(username=username)
        login(request, form.get_user())
        return redirect(_next_url(request))
    record_login_failure(username=username, address=address)
    return render(request, "registration/login.html", {**context, "form": form})
