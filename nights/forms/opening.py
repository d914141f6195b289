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
from nights.forms.prizes import prizes_field
from nights.models import MAX_HANDS_PER_ROUND, MAX_ROUND_MINUTES, MAX_ROUNDS, Night
from scoring.engine_messages import engine_message
from scoring.forms.fields import retype
from scoring.forms.game import HOUSE_RULES, GameRulesForm, check_bid_steps, house_rule_fields
from scoring.rules.errors import RecordError
from scoring.rules.settings import parse_settings
from scoring.rules.tables import MAX_TARGET, chips_in_play


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
    leftovers = forms.ChoiceField(
        label=_("Check Pinochle: players left over by the tables of four"),
        choices=Night.Leftovers.choices,
        initial=Night.Leftovers.BYE,
        required=False,  # not sent: the default, byes as always
        widget=forms.RadioSelect,
        help_text=_(
            "2 or 3 players left over may play standard pinochle (no chips) at a table of their own; "
            "a single player left over always sits out."
        ),
    )
    bye_compensation = forms.ChoiceField(
        label=_("A bye earns"),
        choices=Night.ByeCompensation.choices,
        initial=Night.ByeCompensation.NONE,
        required=False,  # not sent: the default, a bye earns nothing
        widget=forms.RadioSelect,
    )
    bye_points = WholeNumberField(
        label=_("Points for a bye"),
        required=False,
        min_value=0,
        max_value=MAX_TARGET,  # a bye earns no more than a game's highest target
        help_text=_("Only with a fixed score."),
        error_messages={
            "min_value": _("Points for a bye: enter a whole number, 0 or more."),
            "max_value": _("Points for a bye: at most %(limit_value)s."),
            "invalid": _("Points for a bye: enter a whole number, 0 or more."),
        },
    )
    bye_chips = WholeNumberField(
        label=_("Chips for a bye"),
        required=False,
        min_value=0,
        max_value=MAX_TARGET,
        help_text=_("Only with a fixed score, in Check Pinochle: the round's players pay them."),
        error_messages={
            "min_value": _("Chips for a bye: enter a whole number, 0 or more."),
            "max_value": _("Chips for a bye: at most %(limit_value)s."),
            "invalid": _("Chips for a bye: enter a whole number, 0 or more."),
        },
    )

    movement = forms.ChoiceField(
        label=_("Movement between rounds"),
        choices=Night.Movement.choices,
        initial=Night.Movement.ROTATING,
        widget=forms.RadioSelect,
        help_text=_(
            "Rotating: every round is drawn at the start. The others: round 1 is drawn, and each later "
            "round is planned when the last table of the round before ends."
        ),
        required=False,  # none chosen: rotating, as before there was a choice
        error_messages={"invalid_choice": _("Choose one of the movements listed.")},
    )
    prizes = prizes_field()
    round_minutes = WholeNumberField(
        label=_("Minutes per round"),
        required=False,
        min_value=1,
        max_value=MAX_ROUND_MINUTES,
        help_text=_("Only for a round of minutes: the hand in play when time is up is its last."),
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

    def clean_movement(self) -> str:
        return str(self.cleaned_data.get("movement") or Night.Movement.ROTATING)

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
        if data.get("round_ends") != Night.RoundEnds.HANDS:
            data["hands_per_round"] = None
        minutes_missing = not data.get("round_minutes") and "round_minutes" not in self.errors
        if data.get("round_ends") == Night.RoundEnds.MINUTES and minutes_missing:
            self.add_error("round_minutes", _("Enter how many minutes a round lasts."))
        if data.get("round_ends") != Night.RoundEnds.MINUTES:
            data["round_minutes"] = None
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
        self._clean_bye(data, chips=chips)
        season: Season | None = data.get("season")
        played_on: datetime.date | None = data.get("played_on")
        refusal = season.refuses(on=played_on) if season is not None else None
        if refusal is not None:
            self.add_error(*refusal)
        return data

    def _clean_bye(self, data: dict[str, Any], *, chips: bool) -> None:
        """A fixed score needs its points (and, with chips in play, its chips); the figures are kept
        only with a fixed score. A choice not sent is the default."""
        data["leftovers"] = data.get("leftovers") or Night.Leftovers.BYE
        data["bye_compensation"] = data.get("bye_compensation") or Night.ByeCompensation.NONE
        if data.get("bye_compensation") != Night.ByeCompensation.FIXED:
            data["bye_points"] = data["bye_chips"] = None
            return
        if data.get("bye_points") is None and "bye_points" not in self.errors:
            self.add_error("bye_points", _("Enter the points a bye earns."))
        retype(self, ("bye_points",), data.get("scale") or 1)  # typed as the night shows points
        if chips and data.get("bye_chips") is None and "bye_chips" not in self.errors:
            self.add_error("bye_chips", _("Enter the chips a bye earns."))
        if not chips:
            data["bye_chips"] = None
