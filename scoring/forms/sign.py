"""The side that signs a finished game (scoring/views/confirm.py's `game_sign`): one of the game's
sides, or a message naming the field and nothing written."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.labels import side_short
from scoring.models import Game
from scoring.rules.tables import sides_for

CHOOSE_A_SIDE = _("Nothing signed: choose the side that signs.")


class SignForm(forms.Form):
    side = forms.ChoiceField(
        label=_("side"), error_messages={"required": CHOOSE_A_SIDE, "invalid_choice": CHOOSE_A_SIDE}
    )

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        side = self.fields["side"]
        assert isinstance(side, forms.ChoiceField)
        side.choices = [(name, side_short(name)) for name in sides_for(game.seats)]

    def refusal(self) -> str:
        """The first error, for the page's message (the Sign button's side is a hidden field)."""
        return " ".join(str(error) for error in self.errors.get("side", [CHOOSE_A_SIDE]))
