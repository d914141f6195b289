"""The night's prizes (ticked on at opening, or later on the night's page) and the group label of
each player of the night."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from nights.models import GROUP_MAX_LENGTH, NightPlayer, prize_choices
from nights.services import check_group_label


def prizes_field() -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=_("Prizes"),
        choices=prize_choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Shown on the standings, the night's results and each player's card."),
        error_messages={"invalid_choice": _("Choose prizes from the list.")},
    )


class PrizesForm(forms.Form):
    """The prizes of a night, ticked on or off."""

    prizes = prizes_field()


class GroupsForm(forms.Form):
    """A short group label per player of the night ("Men", "Women", "Couples"); blank: none. One
    field per player checked in, named `group-<player id>`, labelled with the player's name."""

    def __init__(self, *args: Any, entries: list[NightPlayer], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entries = entries
        for entry in entries:
            self.fields[f"group-{entry.player_id}"] = forms.CharField(
                label=entry.player.name,
                required=False,
                initial=entry.group,
                widget=forms.TextInput(
                    attrs={"list": "night-group-labels", "autocomplete": "off", "maxlength": GROUP_MAX_LENGTH}
                ),
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name, value in list(data.items()):
            try:
                check_group_label(value)
            except ValidationError as error:
                self.add_error(name, error)
        return data

    def groups(self) -> dict[int, str]:
        """player id -> label, once the form is valid."""
        return {entry.player_id: self.cleaned_data[f"group-{entry.player_id}"] for entry in self.entries}

    def labels(self) -> list[str]:
        """The labels in use, for the suggestions under each field."""
        return sorted({entry.group for entry in self.entries if entry.group}, key=str.lower)
