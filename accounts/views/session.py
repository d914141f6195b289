"""Log in (Django's, with the login limits of accounts/lockout.py) and log out (Django's, telling the
browser to forget what it kept of the account's pages); where to go once signed in."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from accounts import lockout


def next_url(request: HttpRequest) -> str:
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return wanted if safe else settings.LOGIN_REDIRECT_URL


@sensitive_post_parameters("password")
@csrf_protect
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@lockout.answer_refusals
def login_view(request: HttpRequest) -> HttpResponse:
    """Django's login. Once the username or the client address has had too many failures, the
    login limits refuse the attempt before any password check and this page comes back with
    status 429 (accounts/lockout.py)."""
    context: dict[str, Any] = {"next": next_url(request)}
    form = AuthenticationForm(request, data=request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        login(request, form.get_user())
        return redirect(next_url(request))
    return render(request, "registration/login.html", {**context, "form": form})


class ForgetfulLogoutView(auth_views.LogoutView):
    """`/accounts/logout/` (POST): Django's log-out, whose answer also tells the browser to drop
    what it keeps of this site's pages (`Clear-Site-Data: "cache"`: the HTTP cache and the pages
    kept for Back). The service worker's offline copies go by their session tag
    (pinochle_site/middleware.py, templates/sw.js), and the log-out button asks the worker first
    (static/js/table.js). "storage" is not cleared: it would also drop the hands still waiting on
    this phone to be sent, which the button warns about instead."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache"'
        return response
