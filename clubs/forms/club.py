"""The form of a new club: its name, checked by the service (`clubs.services.check_club_name`)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs import services


class ClubForm(forms.Form):
    name = forms.CharField(
        label=_("Club name"), max_length=100, error_messages={"required": _("A club needs a name.")}
    )

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        services.check_club_name(name=name)
        return name
