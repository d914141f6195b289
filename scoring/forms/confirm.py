"""The other side's OK of a hand (scoring/views/confirm.py's `hand_confirm`): the hand as the phone
showed it (`seen`, its `hand_version`), or a message naming it and nothing written; and where the
phone goes back to (`next`, a page of this site: a club night's table link asks the OK too)."""

from __future__ import annotations

from django import forms
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _

CHECK_AGAIN = _(
    "Nothing confirmed: the OK did not say which hand you checked. Check the hand again and tap OK."
)


class ConfirmForm(forms.Form):
    seen = forms.RegexField(
        label=_("hand you checked"),
        regex=r"^[0-9a-f]{16}\Z",  # what `hand_version` gives
        error_messages={"required": CHECK_AGAIN, "invalid": CHECK_AGAIN},
    )
    next = forms.CharField(required=False)

    def clean_next(self) -> str:
        """A page of this site only (no other host, no scheme): anything else is left out, and the
        phone goes back to the game's page as it would without it."""
        back: str = self.cleaned_data["next"]
        local = len(back) <= 200 and back.startswith("/")
        return back if local and url_has_allowed_host_and_scheme(back, allowed_hosts=None) else ""

    def refusal(self) -> str:
        """The first error, for the page's message (`seen` is a hidden field of the OK button)."""
        return " ".join(str(error) for error in self.errors.get("seen", [CHECK_AGAIN]))
