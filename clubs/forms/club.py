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


class ClubSettingsForm(forms.Form):
    """How the club's games are made final at the table (copied to each game its nights start)."""

    confirm_hands = forms.BooleanField(
        label=_("The opponents confirm each hand"),
        required=False,
        help_text=_(
            "After each Save the phone shows the hand to the side that did not bid: they tap OK, or "
            "Not right to correct it. A game with a hand not yet confirmed does not count as final."
        ),
    )
    sign_at_end = forms.BooleanField(
        label=_("Sign the game at the end"),
        required=False,
        help_text=_(
            "When the game ends, each side taps Sign on the scoring phone. A signed game is locked: "
            "only the club's organisers can change it."
        ),
    )
