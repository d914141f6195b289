"""The game's settings after Start: names, first dealer, target, minimum bid, the house rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.fields import WholeNumberField
from scoring import game_settings
from scoring.engine_messages import engine_message
from scoring.labels import SEAT_NAMES
from scoring.models import Game
from scoring.rules.errors import RecordError
from scoring.rules.settings import Settings
from scoring.rules.tables import (
    MAX_BID,
    MAX_NAME_LENGTH,
    MAX_TARGET,
    default_min_bid,
    default_target,
)


class GameSettingsForm(forms.Form):
    """A game's settings after Start (scoring/game_settings.py): names, first dealer, target,
    minimum bid and the house rule. `version` is the game as the page saw it; `confirm` is the
    end of the game the page's preview showed, sent back when Save changes how the game ends."""

    version = forms.CharField(widget=forms.HiddenInput, required=False)
    confirm = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(
        self, *args: Any, game: Game, settings: Settings, rules_locked: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.settings = settings
        self.rules_locked = rules_locked
        self.record_errors: list[str] = []
        for seat in settings.seat_letters:
            self.fields[f"name_{seat}"] = forms.CharField(
                label=SEAT_NAMES[seat], required=False, max_length=MAX_NAME_LENGTH
            )
        self.fields["first_dealer"] = forms.ChoiceField(
            label=_("First dealer"),
            choices=[(seat, SEAT_NAMES[seat]) for seat in settings.seat_letters],
            widget=forms.RadioSelect,
        )
        default_to = default_target(settings.deck, settings.variant)
        self.fields["target"] = WholeNumberField(
            label=_("Play to"),
            required=False,
            min_value=1,
            max_value=MAX_TARGET,
            help_text=_("Empty: the rule book's %(number)d.") % {"number": default_to},
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "placeholder": default_to}),
        )
        default_bid = default_min_bid(settings.deck)
        self.fields["min_bid"] = WholeNumberField(
            label=_("Minimum bid"),
            required=False,
            min_value=1,
            max_value=MAX_BID,
            help_text=_("Empty: the rule book's %(number)d.") % {"number": default_bid},
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "placeholder": default_bid}),
        )
        self.fields["meld_needs_trick"] = forms.BooleanField(
            label=_("House rule: meld needs a trick"),
            required=False,
            help_text=_("A side that takes no trick scores no meld."),
        )
        if rules_locked:
            # A club night's table plays the night's rules: shown, not changed (a disabled field
            # keeps its initial value whatever a post says).
            for name in ("target", "min_bid", "meld_needs_trick"):
                field = self.fields[name]
                field.disabled = True
                field.initial = getattr(settings, name)
                field.help_text = _("A club night's rule: only an organiser of the club changes it.")

    @staticmethod
    def initial_for(settings: Settings, players: Mapping[str, str], version: str) -> dict[str, Any]:
        """The page's first values: the settings as the table sees them (defaults filled in)."""
        return {
            "version": version,
            **{f"name_{seat}": players.get(seat, "") for seat in settings.seat_letters},
            "first_dealer": settings.first_dealer,
            "target": settings.target,
            "min_bid": settings.min_bid,
            "meld_needs_trick": settings.meld_needs_trick,
        }

    def name_fields(self) -> list[forms.BoundField]:
        return [self[f"name_{seat}"] for seat in self.settings.seat_letters]

    def new_settings(self) -> game_settings.NewSettings:
        data = self.cleaned_data
        return game_settings.NewSettings(
            players={seat: data.get(f"name_{seat}") or "" for seat in self.settings.seat_letters},
            first_dealer=data["first_dealer"],
            target=data["target"],
            min_bid=data["min_bid"],
            meld_needs_trick=data["meld_needs_trick"],
        )

    def add_record_error(self, error: RecordError) -> None:
        """Put the engine's refusal next to the setting that caused it, naming the hand: the
        recorded hands are the engine's, the settings are what this form changes."""
        problem = engine_message(error)
        if error.code == "game_over":
            problem = gettext(
                "With these settings the game ends after hand %(end)s, but hands up to %(last)s are "
                "recorded. Delete the later hands first, or let the game run longer."
            ) % {"end": error.params.get("hand"), "last": self.game.hand_count}
            # The target ends a game; the house rule changes the totals that reach it.
            rule_changed = self.cleaned_data.get("meld_needs_trick") != self.settings.meld_needs_trick
            default = default_target(self.settings.deck, self.settings.variant)
            target = self.cleaned_data.get("target") or default
            field = "meld_needs_trick" if rule_changed and target == self.settings.target else "target"
        elif error.hand is not None:
            problem = gettext("Hand %(hand)s: %(message)s") % {"hand": error.hand, "message": problem}
            field = "min_bid" if error.code in ("bid_below_minimum", "bid_off_step") else ""
        else:
            head = error.field.split(".")[0]
            field = error.field.replace("players.", "name_") if head == "players" else head
        self.add_error(field if field in self.fields else None, problem)

    def error_summary(self) -> list[str]:
        """Every problem, each naming its field ("Minimum bid: Hand 3: …"), for the list next to Save."""
        lines = [
            f"{self[name].label}: {error}"
            for name in self.errors
            if name in self.fields and name not in ("version", "confirm")
            for error in self.errors[name]
        ]
        if "version" in self.errors or "confirm" in self.errors:
            lines.append(gettext("This page is out of date: open the game's settings again."))
        return lines
