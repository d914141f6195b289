"""Setting up a game: the rules it is played by (also a club night's, nights.forms) and the table."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db import IntegrityError
from django.utils.translation import gettext_lazy as _

from core.fields import WholeNumberField
from scoring.engine_messages import engine_message
from scoring.forms.fields import retype
from scoring.labels import BID_STEP_NAMES, SEAT_NAMES
from scoring.models import Game
from scoring.rules.errors import RecordError
from scoring.rules.tables import (
    CHECK_SEATS,
    MAX_BID,
    MAX_DEALS,
    MAX_MELD_POINTS,
    MAX_NAME_LENGTH,
    MAX_TARGET,
    SEAT_ORDER,
    seats_for,
    setup_numbers,
)
from scoring.services.games import create_game

#: The house rules a game may add (docs/rules.md), as the new-game form and the settings page ask.
HOUSE_RULES = ("deals", "bid_steps", "meld_counts_from", "spread", "scale")
#: The settings that are point figures: typed at the game's scale (scoring.rules.scale).
POINT_SETTINGS = ("target", "min_bid", "meld_counts_from", "spread")


def house_rule_fields() -> dict[str, forms.Field]:
    """The fields of the house rules: each empty (or the rule book's steps) means off."""
    return {
        "deals": WholeNumberField(
            label=_("Deals in the game"),
            required=False,
            min_value=1,
            max_value=MAX_DEALS,
            help_text=_(
                "Empty: played to the target. A number: the game ends after that hand "
                "(passed-out hands count)."
            ),
        ),
        "bid_steps": forms.ChoiceField(
            label=_("Bid steps"),
            choices=list(BID_STEP_NAMES.items()),
            initial="standard",
            required=False,  # not sent: the rule book's steps
            widget=forms.RadioSelect,
            help_text=_("Double deck only. Tens above 100: as the rule book up to 100, then 110, 120, …"),
        ),
        "meld_counts_from": WholeNumberField(
            label=_("Meld counts from"),
            required=False,
            min_value=1,
            max_value=MAX_MELD_POINTS,
            help_text=_(
                "Empty: meld always counts. A number N: a side's meld counts only with at least N meld "
                "and N trick points (20 is usual with a double deck)."
            ),
        ),
        "spread": WholeNumberField(
            label=_("Winning spread"),
            required=False,
            min_value=1,
            max_value=MAX_TARGET,
            help_text=_(
                "Empty: none. A number: the game also ends when a side leads every other side "
                "by that many points."
            ),
        ),
        "scale": forms.TypedChoiceField(
            label=_("Points shown"),
            choices=[(1, _("As the rule book")), (10, _("Ten times (×10)"))],
            coerce=int,
            initial=1,
            required=False,  # not sent: as the rule book
            widget=forms.RadioSelect,
            help_text=_(
                "Display and entry only: ×10 shows and takes every point figure ten times over (single "
                "deck: 250 trick points a hand, minimum bid 200, game 1500); the scores are the same. "
                "The figures on this form are typed as the game shows them."
            ),
        ),
    }


def check_bid_steps(form: forms.Form, deck: str | None) -> None:
    """Tens above 100 is a double-deck ladder: refused next to its field with a single deck."""
    if form.cleaned_data.get("bid_steps") not in (None, "", "standard") and deck == "single":
        form.add_error(
            "bid_steps",
            _(
                "Tens above 100 is a ladder of the double deck: choose the double deck or the "
                "rule book's steps."
            ),
        )


class GameRulesForm(forms.Form):
    """The rules a game is played by, as a new game and a club night (nights.forms.NightForm) set
    them: variant, deck, target, minimum bid and the house rule. The point figures are typed at
    the scale the form chooses (its `scale` field, a house rule): `clean` gives them as stored."""

    variant = forms.ChoiceField(
        label=_("Game"), choices=Game.Variant.choices, initial="standard", widget=forms.RadioSelect
    )
    deck = forms.ChoiceField(
        label=_("Deck"), choices=Game.Deck.choices, initial="single", widget=forms.RadioSelect
    )
    target = WholeNumberField(
        label=_("Play to"),
        required=False,
        min_value=1,
        max_value=MAX_TARGET,
        help_text=_("Leave empty for the rule book: 150, 500 with a double deck, 100 in Check Pinochle."),
    )
    min_bid = WholeNumberField(
        label=_("Minimum bid"),
        required=False,
        min_value=1,
        max_value=MAX_BID,
        help_text=_("Leave empty for the rule book: 20, 50 with a double deck."),
    )
    meld_needs_trick = forms.BooleanField(
        label=_("House rule: meld needs a trick"),
        required=False,
        help_text=_("A side that takes no trick scores no meld."),
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        retype(self, POINT_SETTINGS, self.cleaned_data.get("scale") or 1)
        return self.cleaned_data


class GameForm(GameRulesForm):
    """Setting up a game at the table. `setup_token` is a one-time token drawn into the form: the
    same form posted twice (a second tap, Back and Start) opens the game it already made."""

    field_order = ["setup_token", "seats", "variant", "deck", "target", "min_bid", "name_N", "name_E"]
    field_order += ["name_S", "name_W", "first_dealer", "meld_needs_trick", *HOUSE_RULES]

    setup_token = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update(house_rule_fields())
        self.order_fields(self.field_order)

    seats = forms.TypedChoiceField(
        label=_("Seats at the table"),
        choices=[(4, _("4 (two partnerships)")), (3, _("3")), (2, _("2"))],
        coerce=int,
        initial=4,
        widget=forms.RadioSelect,
    )
    name_N = forms.CharField(label=_("North"), required=False, max_length=MAX_NAME_LENGTH)
    name_E = forms.CharField(label=_("East"), required=False, max_length=MAX_NAME_LENGTH)
    name_S = forms.CharField(label=_("South"), required=False, max_length=MAX_NAME_LENGTH)
    name_W = forms.CharField(label=_("West"), required=False, max_length=MAX_NAME_LENGTH)
    first_dealer = forms.ChoiceField(
        label=_("First dealer"), choices=list(SEAT_NAMES.items()), initial="N", widget=forms.RadioSelect
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        seats, variant = data.get("seats"), data.get("variant")
        if variant == "check" and seats is not None and seats != CHECK_SEATS:
            self.add_error(
                "variant",
                _("Check Pinochle is played by four players in two partnerships: choose 4 players."),
            )
        dealer = data.get("first_dealer")
        if seats and dealer and dealer not in seats_for(seats):
            message = (
                _("With 3 players nobody sits West; choose another first dealer.")
                if seats == 3
                else _("With 2 players only North and East play; choose one of them to deal first.")
            )
            self.add_error("first_dealer", message)
        check_bid_steps(self, data.get("deck"))
        return data

    def house_rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in HOUSE_RULES]

    def name_fields(self) -> list[forms.BoundField]:
        return [self[f"name_{seat}"] for seat in SEAT_ORDER]

    def numbers(self) -> dict[str, object]:
        """The rule book's setup numbers for the page's script (placeholders, Check Pinochle's seats)."""
        return setup_numbers()

    def save(self) -> Game | None:
        """Create the game, or put the engine's objection next to its field and return None."""
        data = self.cleaned_data
        seats = data["seats"]
        players = {seat: data.get(f"name_{seat}", "") for seat in seats_for(seats)}
        try:
            return create_game(
                seats=seats,
                variant=data["variant"],
                deck=data["deck"],
                target=data["target"],
                min_bid=data["min_bid"],
                first_dealer=data["first_dealer"],
                meld_needs_trick=data["meld_needs_trick"],
                players={seat: name for seat, name in players.items() if name},
                setup_token=data.get("setup_token"),
                deals=data.get("deals"),
                bid_steps=data.get("bid_steps") or "standard",
                meld_counts_from=data.get("meld_counts_from"),
                spread=data.get("spread"),
                scale=data.get("scale") or 1,
            )
        except IntegrityError:
            # The same setup form, posted twice at once: the other request made the game.
            return Game.objects.get(setup__token=data["setup_token"])
        except RecordError as error:
            field = error.field.replace("players.", "name_").removeprefix("options.")
            self.add_error(field if field in self.fields else None, engine_message(error))
            return None
