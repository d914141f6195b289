"""Forms of the roster: a player's name (a new player, or a new name for one), a list of names to
add in one go, and the player entered twice to merge into another."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs import services
from clubs.ids import IdChoiceField
from clubs.models import Club, Player
from clubs.selectors import roster


class PlayerNameForm(forms.Form):
    """A new player for the roster, or a new name for one (`player`)."""

    name = forms.CharField(
        label=_("Player name"), max_length=100, error_messages={"required": _("A player needs a name.")}
    )

    def __init__(self, *args: Any, club: Club, player: Player | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club, self.player = club, player

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        services.check_player_name(club=self.club, name=name, exclude=self.player)
        return name


class NameListForm(forms.Form):
    """Names pasted one per line, to add to the roster in one go (`services.read_name_list`)."""

    names = forms.CharField(
        label=_("Names, one per line"),
        widget=forms.Textarea(attrs={"rows": 8, "autocapitalize": "words", "spellcheck": "false"}),
        max_length=services.NAME_LIST_MAX * 120,
        strip=False,
        error_messages={"required": _("Paste or type at least one name.")},
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.read: services.NameList | None = None

    def clean_names(self) -> str:
        text: str = self.cleaned_data["names"]
        read = services.read_name_list(club=self.club, text=text)
        if read.refused:
            raise forms.ValidationError(read.refused)
        if not read.new and not read.skipped:
            raise forms.ValidationError(_("Paste or type at least one name."))
        self.read = read
        return text


class MergeIntoForm(forms.Form):
    """The roster player entered twice, to fold into the player whose page this is."""

    duplicate = IdChoiceField(
        Player.objects.none(),
        label=_("Player entered twice"),
        empty_label=_("— choose —"),
        error_messages={
            "required": _("Choose the player who was entered twice."),
            "invalid_choice": _("Choose a player on this club's roster."),
        },
    )

    def __init__(self, *args: Any, club: Club, keep: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["duplicate"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = roster(club, include_retired=True).exclude(pk=keep.pk)
