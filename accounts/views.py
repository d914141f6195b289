"""Sign up and log in. Password reset and password change are Django's own views
(accounts/urls.py) with this app's templates; log out is Django's, telling the browser to forget
what it kept of the account's pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    UserCreationForm,
    UsernameField,
)
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from accounts import lockout
from core.lookalike import folded_skeleton, looks_alike, scripts_mixed
from throttles.address import client_address
from throttles.counter import over_limit


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Only used to send you a link if you forget your password."),
    )

    class Meta:  # UserCreationForm.Meta's, with the email too
        model = User
        fields = ("username", "email")
        field_classes = {"username": UsernameField}

    def clean_username(self) -> str:
        """Refuse names that pass for someone else: mixed alphabets, or the look of an existing name."""
        username = str(super().clean_username())
        mixed = scripts_mixed(username)
        if mixed:
            raise forms.ValidationError(
                _("Use the letters of one alphabet in a username; this one mixes %(scripts)s.")
                % {"scripts": ", ".join(script.title() for script in mixed)},
                code="mixed_script",
            )
        if any(looks_alike(username, other) for other in User.objects.values_list("username", flat=True)):
            raise forms.ValidationError(
                _("This username looks like an existing one; choose one that reads differently."),
                code="lookalike",
            )
        return username


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
    if request.method == "POST" and _signups_throttled(request):
        form = SignUpForm(initial={"username": request.POST.get("username", "")})
        context = {"form": form, "next": _next_url(request), "throttled": True}
        return render(request, "registration/signup.html", context, status=429)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_next_url(request))
    return render(request, "registration/signup.html", {"form": form, "next": _next_url(request)})


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


@sensitive_post_parameters("password")
@csrf_protect
@never_cache
@require_http_methods(["GET", "POST"])
def login_view(request: HttpRequest) -> HttpResponse:
    """Django's login. django-axes counts the failures (accounts/lockout.py): once the username or
    the client address has had too many, its backend refuses the attempt before any password
    check and its middleware answers with this page, status 429 (`lockout.locked_out`)."""
    context: dict[str, Any] = {"next": _next_url(request)}
    form = AuthenticationForm(request, data=request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        login(request, form.get_user())
        return redirect(_next_url(request))
    return render(request, "registration/login.html", {**context, "form": form})


@csrf_protect
@never_cache
@require_http_methods(["GET", "POST"])
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


class LimitedPasswordChangeForm(PasswordChangeForm):
    """Django's password change, with the old password counted like a login (django-axes, the
    same budget per username and per client address): a wrong one is a failed login, and once the
    limit is reached even the right one is refused until the window has passed."""

    def __init__(self, user: Any, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request
        self.locked = False

    def clean_old_password(self) -> str:
        credentials = {"username": self.user.get_username()}
        if not lockout.reserve(self.request, credentials):  # counted now, given back if right
            self.locked = True
            raise forms.ValidationError(
                _(
                    "Too many wrong passwords. Wait a quarter of an hour and try again, or reset "
                    "your password."
                ),
                code="locked",
            )
        old_password = str(self.cleaned_data["old_password"])
        if not self.user.check_password(old_password):
            user_login_failed.send(sender=__name__, credentials=credentials, request=self.request)
            raise forms.ValidationError(self.error_messages["password_incorrect"], code="password_incorrect")
        lockout.give_back(
            self.request,
            {
                "username": lockout.normalised_username(credentials["username"]),
                "address": client_address(self.request),
            },
        )
        return old_password


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
