"""The players of a night under way: a newcomer added to the roster and checked in, two players of
a round not started yet swapped, a late arrival from the roster, a player leaving."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.ids import IdChoiceField
from clubs.models import Club, Player
from clubs.selectors import roster
from clubs.services import check_player_name
from nights.models import Night

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class NewcomerForm(forms.Form):
    """Someone not on the roster: added to it and checked in."""

    name = forms.CharField(
        label=_("Newcomer's name"), max_length=100, error_messages={"required": _("A player needs a name.")}
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        check_player_name(club=self.club, name=name)
        return name


def _player_field(label: StrOrPromise, required_message: StrOrPromise) -> IdChoiceField:
    return IdChoiceField(
        Player.objects.none(),
        label=label,
        empty_label=_("— choose —"),
        error_messages={
            "required": required_message,
            "invalid_choice": _("Choose a player of this night."),
        },
    )


class SwapForm(forms.Form):
    """Two players of a round not started yet, to swap."""

    plan = forms.CharField(widget=forms.HiddenInput, required=False)
    round = forms.TypedChoiceField(label=_("Round"), coerce=int, choices=())
    first = _player_field(_("Swap"), _("Choose the first player to swap."))
    second = _player_field(_("with"), _("Choose the second player to swap."))

    def __init__(self, *args: Any, players: Any, rounds: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        round_field = self.fields["round"]
        assert isinstance(round_field, forms.ChoiceField)
        round_field.choices = [(r, str(r)) for r in rounds]
        for name in ("first", "second"):
            player_field = self.fields[name]
            assert isinstance(player_field, IdChoiceField)
            player_field.queryset = players

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", _("Choose two different players to swap."))
        return data


class PlayerChoiceForm(forms.Form):
    """One player: a late arrival from the roster, or a player leaving."""

    player = _player_field(_("Player"), _("Choose a player."))

    def __init__(self, *args: Any, players: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player_field = self.fields["player"]
        assert isinstance(player_field, IdChoiceField)
        player_field.queryset = players


def late_arrival_choices(club: Club, night: Night) -> Any:
    """Roster players not playing in the rest of the night."""
    playing = night.players.filter(until_round__isnull=True).values("player_id")
    return roster(club).exclude(pk__in=playing)
