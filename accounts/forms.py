"""The accounts' own forms: signing up (no username that passes for someone else's) and the
password change whose old password counts as a login."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import PasswordChangeForm, UserCreationForm, UsernameField
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts import lockout
from core.lookalike import looks_alike, scripts_mixed
from throttles.address import client_address


class SignUpForm(UserCreationForm[User]):
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


class LimitedPasswordChangeForm(PasswordChangeForm):
    """Django's password change, with the old password counted like a login (accounts/lockout.py,
    the same budget per username and per client address): a wrong one is a failed login, and once
    the limit is reached even the right one is refused until the window has passed."""

    def __init__(self, user: Any, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request
        self.locked = False

    def clean_old_password(self) -> str:
        username = self.user.get_username()
        if not lockout.reserve(self.request, username):  # counted now, given back if right
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
            user_login_failed.send(sender=__name__, credentials={"username": username}, request=self.request)
            raise forms.ValidationError(self.error_messages["password_incorrect"], code="password_incorrect")
        lockout.give_back(
            self.request,
            {"username": lockout.normalised_username(username), "address": client_address(self.request)},
        )
        return old_password
