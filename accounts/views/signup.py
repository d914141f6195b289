"""Sign up: a new account, signed in at once; throttled per client address and per username asked
for (its look-alikes count as the same name)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from accounts.forms import SignUpForm
from accounts.views.session import next_url
from core.lookalike import folded_skeleton
from throttles.address import client_address
from throttles.counter import over_limit


@sensitive_post_parameters("password1", "password2")
@csrf_protect
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and _signups_throttled(request):
        form = SignUpForm(initial={"username": request.POST.get("username", "")})
        context = {"form": form, "next": next_url(request), "throttled": True}
        return render(request, "registration/signup.html", context, status=429)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url(request))
    return render(request, "registration/signup.html", {"form": form, "next": next_url(request)})


def _signups_throttled(request: HttpRequest) -> bool:
    wanted = folded_skeleton(request.POST.get("username", "")[:150])
    return over_limit(
        kind="signup",
        limits={
            "address": (client_address(request), settings.SIGNUPS_PER_ADDRESS),
            "username": (wanted, settings.SIGNUPS_PER_USERNAME),
        },
        window=settings.ACCOUNT_THROTTLE_WINDOW_SECONDS,
    )
