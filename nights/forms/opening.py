"""Opening a club night: when, which season, the game every table plays, how many rounds, stakes.

The game settings are checked by the rules engine (`scoring.rules.settings.parse_settings`), the same check
every game of the night passes when its round starts, so a night that opens always starts.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.ids import IdChoiceField
from clubs.models import Club, Season
from clubs.selectors import open_seasons
from core.fields import PlainDecimalField, WholeNumberField
from nights.models import MAX_HANDS_PER_ROUND, MAX_ROUNDS, Night
from scoring.engine_messages import engine_message
from scoring.forms.game import HOUSE_RULES, GameRulesForm, check_bid_steps, house_rule_fields
from scoring.rules.errors import RecordError
from scoring.rules.settings import parse_settings
from scoring.rules.tables import chips_in_play


class NightForm(GameRulesForm):
    """Opening a club night: when, which season, the game every table plays, how many rounds."""

    field_order = ["played_on", "season", "variant", "deck", "target", "min_bid", "meld_needs_trick"]
    field_order += ["rounds", "round_ends", "hands_per_round", "stake_per_chip", "stake_per_win"]
    field_order += [*HOUSE_RULES]

    played_on = forms.DateField(
        label=_("Date"),
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"required": _("Enter the night's date."), "invalid": _("Enter a date.")},
    )
    season = IdChoiceField(
        Season.objects.none(),
        label=_("Season"),
        required=False,
        empty_label=_("— no season —"),
        error_messages={"invalid_choice": _("Choose one of this club's open seasons.")},
    )
    rounds = WholeNumberField(
        label=_("Rounds"),
        min_value=1,
        max_value=MAX_ROUNDS,
        initial=3,
        error_messages={"required": _("Enter the number of rounds.")},
    )
    round_ends = forms.ChoiceField(
        label=_("A round ends after"),
        choices=Night.RoundEnds.choices,
        initial="game",
        widget=forms.RadioSelect,
    )
    hands_per_round = WholeNumberField(
        label=_("Hands per round"),
        required=False,
        min_value=1,
        max_value=MAX_HANDS_PER_ROUND,
        help_text=_("Only when a round is a fixed number of hands."),
    )
    stake_per_chip = PlainDecimalField(
        label=_("Stake per chip"),
        required=False,
        min_value=Decimal(0),
        max_digits=8,
        decimal_places=2,
        help_text=_("Check Pinochle: money per chip, settled at the end of the night. Empty: no money."),
    )
    stake_per_win = PlainDecimalField(
        label=_("Stake per game won"),
        required=False,
        min_value=Decimal(0),
        max_digits=8,
        decimal_places=2,
        help_text=_("Standard game: each loser pays this, the winners share it. Empty: no money."),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {}).setdefault("played_on", timezone.localdate())
        super().__init__(*args, **kwargs)
        # The house rules of every game of the night: the new-game form's fields and checks.
        self.fields.update(house_rule_fields())
        self.order_fields(self.field_order)
        self.club = club
        season = self.fields["season"]
        assert isinstance(season, forms.ModelChoiceField)
        season.queryset = open_seasons(club)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        variant, deck = data.get("variant"), data.get("deck")
        check_bid_steps(self, deck)
        if variant and deck:
            record = {
                "seats": 4,
                "variant": variant,
                "deck": deck,
                "target": data.get("target"),
                "min_bid": data.get("min_bid"),
                "options": {name: data.get(name) or None for name in HOUSE_RULES if name in data},
            }
            try:
                parse_settings(record)
            except RecordError as error:
                name = error.field.removeprefix("options.")
                if name not in self.errors:
                    self.add_error(name if name in self.fields else None, engine_message(error))
        data["bid_steps"] = data.get("bid_steps") or "standard"
        data["scale"] = data.get("scale") or 1
        hands_missing = not data.get("hands_per_round") and "hands_per_round" not in self.errors
        if data.get("round_ends") == Night.RoundEnds.HANDS and hands_missing:
            self.add_error("hands_per_round", _("Enter how many hands a round has."))
        if data.get("round_ends") == Night.RoundEnds.GAME:
            data["hands_per_round"] = None
        if data.get("round_ends") == Night.RoundEnds.HANDS and data.get("deals") is not None:
            self.add_error(
                "deals", _("A round of a fixed number of hands already sets the deals: leave this empty.")
            )
        chips = variant is not None and deck is not None and chips_in_play(variant, deck)
        if chips and data.get("stake_per_win") is not None:
            self.add_error(
                "stake_per_win", _("Check Pinochle plays for chips: set a stake per chip instead.")
            )
        if variant and deck and not chips and data.get("stake_per_chip") is not None:
            message = _("Chips are in play only in Check Pinochle with a single deck.")
            self.add_error("stake_per_chip", message)
        season: Season | None = data.get("season")
        played_on: datetime.date | None = data.get("played_on")
        refusal = season.refuses(on=played_on) if season is not None else None
        if refusal is not None:
            self.add_error(*refusal)
        return data
