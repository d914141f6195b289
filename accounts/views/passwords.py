"""The password reset (Django's, throttled) and the password change (Django's, its old password
counted like a login)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import reverse_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.http import require_http_methods

from accounts.forms import LimitedPasswordChangeForm
from throttles.address import client_address
from throttles.counter import over_limit


@csrf_protect
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def password_reset(request: HttpRequest) -> HttpResponseBase:
    """Django's password reset, throttled per client address and per email address asked for:
    one more request in the window gets 429 and no mail."""
    if request.method == "POST":
        email = PasswordResetForm(request.POST)
        target = email.cleaned_data["email"].casefold() if email.is_valid() else ""
        if over_limit(
            kind="reset",
            limits={
                "address": (client_address(request), settings.PASSWORD_RESETS_PER_ADDRESS),
                "email": (target, settings.PASSWORD_RESETS_PER_EMAIL),
            },
            window=settings.ACCOUNT_THROTTLE_WINDOW_SECONDS,
        ):
            context = {"form": PasswordResetForm(initial={"email": target}), "throttled": True}
            return render(request, "registration/password_reset_form.html", context, status=429)
    view = auth_views.PasswordResetView.as_view(success_url=reverse_lazy("password_reset_done"))
    return view(request)


class LimitedPasswordChangeView(auth_views.PasswordChangeView):
    """`/accounts/password/change/` (Django's view keeps its sensitive-parameter and CSRF
    decorators): answers 429 while the account's login budget is spent."""

    form_class = LimitedPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_invalid(self, form: LimitedPasswordChangeForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.locked:
            response.status_code = 429
        return response
