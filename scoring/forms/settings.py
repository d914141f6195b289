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
from scoring.forms.fields import retype
from scoring.forms.game import POINT_SETTINGS, check_bid_steps, house_rule_fields
from scoring.labels import SEAT_NAMES
from scoring.models import Game
from scoring.rules.errors import RecordError
from scoring.rules.scale import shown
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
        # The point figures are typed as the page shows them, at the game's scale now (a change of
        # the scale on this form applies to the figures after it is saved).
        default_to = shown(default_target(settings.deck, settings.variant), settings.scale)
        self.fields["target"] = WholeNumberField(
            label=_("Play to"),
            required=False,
            min_value=1,
            max_value=MAX_TARGET,
            help_text=_("Empty: the rule book's %(number)d.") % {"number": default_to},
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "placeholder": default_to}),
        )
        default_bid = shown(default_min_bid(settings.deck), settings.scale)
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
        # The house rules but the game's length (set at Start, shown above the form); the bid
        # steps only where there is a choice, with a double deck.
        for name, field in house_rule_fields().items():
            if name == "deals" or (name == "bid_steps" and settings.deck != "double"):
                continue
            self.fields[name] = field
        if rules_locked:
            # A club night's table plays the night's rules: shown, not changed (a disabled field
            # keeps its initial value whatever a post says).
            for name in ("target", "min_bid", "meld_needs_trick", *self.house_rules):
                field = self.fields[name]
                field.disabled = True
                field.initial = self.initial_for(settings, {}, "")[name]
                field.help_text = _("A club night's rule: only an organiser of the club changes it.")

    @staticmethod
    def initial_for(settings: Settings, players: Mapping[str, str], version: str) -> dict[str, Any]:
        """The page's first values: the settings as the table sees them (defaults filled in)."""
        return {
            "version": version,
            **{f"name_{seat}": players.get(seat, "") for seat in settings.seat_letters},
            "first_dealer": settings.first_dealer,
            "target": shown(settings.target, settings.scale),
            "min_bid": shown(settings.min_bid, settings.scale),
            "meld_needs_trick": settings.meld_needs_trick,
            "bid_steps": settings.bid_steps,
            "meld_counts_from": _shown(settings.meld_counts_from, settings.scale),
            "spread": _shown(settings.spread, settings.scale),
            "scale": settings.scale,
        }

    @property
    def house_rules(self) -> list[str]:
        """The house rules this page changes (the length is set at Start)."""
        return [name for name in ("bid_steps", "meld_counts_from", "spread", "scale") if name in self.fields]

    def house_rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.house_rules]

    def clean(self) -> dict[str, Any]:
        super().clean()
        check_bid_steps(self, self.settings.deck)
        retype(self, POINT_SETTINGS, self.settings.scale)
        return self.cleaned_data

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
            bid_steps=data.get("bid_steps") or "standard",
            meld_counts_from=data.get("meld_counts_from"),
            spread=data.get("spread"),
            scale=data.get("scale") or 1,
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
            field = self._ending_field()
        elif error.hand is not None:
            problem = gettext("Hand %(hand)s: %(message)s") % {"hand": error.hand, "message": problem}
            field = ""
            if error.code in ("bid_below_minimum", "bid_off_step", "bid_off_tens"):
                steps_changed = (self.cleaned_data.get("bid_steps") or "standard") != self.settings.bid_steps
                field = "bid_steps" if error.code == "bid_off_tens" and steps_changed else "min_bid"
        else:
            head = error.field.split(".")[0]
            field = error.field.replace("players.", "name_") if head == "players" else head
            field = error.field.removeprefix("options.") if head == "options" else field
        self.add_error(field if field in self.fields else None, problem)

    def _ending_field(self) -> str:
        """The setting that ends the game before hands already recorded: a winning spread or a
        target that changed; else a rule that changed the totals that reach them."""
        data = self.cleaned_data
        default = default_target(self.settings.deck, self.settings.variant)
        if "spread" in self.fields and data.get("spread") != self.settings.spread:
            return "spread"
        if (data.get("target") or default) != self.settings.target:
            return "target"
        for name in ("meld_counts_from", "meld_needs_trick"):
            if name in self.fields and data.get(name) != getattr(self.settings, name):
                return name
        return "target"

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


def _shown(points: int | None, scale: int) -> int | None:
    return None if points is None else shown(points, scale)
