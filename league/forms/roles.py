"""A club's roles: an organiser gives an account a role in the club, or takes it away."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import ClubRole


class RoleForm(forms.Form):
    """An organiser gives an account a role in the club, or takes it away."""

    username = forms.CharField(label=_("Account name"), max_length=150)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[*ClubRole.Role.choices, ("", _("No role (remove from the club)"))],
        required=False,
    )

    def clean_username(self) -> str:
        # Whether the account exists is not said here: the page answers the same either way.
        name: str = self.cleaned_data["username"].strip()
        return name
