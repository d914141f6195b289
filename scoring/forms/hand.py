"""The hand entry form: what a phone posted, turned into a hand object (docs/record-format.md).

The form checks what a form can see (numbers, seats, suits, a blank trick field), builds the hand
object, and puts the engine's RecordError next to the input it is about (`add_record_error`). The
engine stays the one authority on the rules: the views hand the built object to services, which
score it before anything is written."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.functional import cached_property, lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from core.fields import WholeNumberField
from core.strict_input import whole_number
from scoring.engine_messages import engine_message
from scoring.forms.fields import FixedChoices, PointsField
from scoring.forms.hand_melds import MeldGrid, MeldSeat, meld_grid, meld_seats
from scoring.labels import MELD_NAMES, SUIT_NAMES, SUIT_SYMBOLS, seat_label, side_label
from scoring.models import Game
from scoring.rules.errors import RecordError
from scoring.rules.scale import shown
from scoring.rules.settings import Settings
from scoring.rules.tables import (
    MAX_BID,
    MAX_MELD_POINTS,
    SUITS,
    bid_help,
    hand_numbers,
    meld_items_for,
    most_per_seat,
)

# Labels that name players are only worked out when drawn, so a save that redirects never
# needs the players' names (one query fewer on the busiest write).
lazy_seat_label = lazy(seat_label, str)
lazy_side_label = lazy(side_label, str)


TRUMP_CHOICES = FixedChoices(
    (suit, format_lazy("{} {}", SUIT_SYMBOLS[suit], SUIT_NAMES[suit])) for suit in SUITS
)
MELD_MODE_CHOICES = FixedChoices(Game.MeldMode.choices)


class HandForm(forms.Form):
    """One hand: bidder, bid, trump, melds (item by item or plain points), tricks.

    `self.hand` is the hand object (docs/record-format.md) once the form is valid. Errors that belong to a
    group of inputs (the tricks, a seat's melds) are kept in `group_errors`, keyed
    "tricks", "melds", "melds_N", "meld_points" and "form".
    """

    submission_id = forms.UUIDField(widget=forms.HiddenInput, required=False)
    number = WholeNumberField(widget=forms.HiddenInput, min_value=1, max_value=100_000)

    def __init__(self, *args: Any, settings: Settings, players: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.settings = settings
        self.players = players
        self.hand: dict[str, Any] = {}
        self.group_errors: dict[str, list[str]] = {}
        s = settings
        if s.chips_in_play:
            self.fields["passed"] = forms.BooleanField(label=_("All four passed"), required=False)
        bidders: list[tuple[str, StrOrPromise]] = [
            (seat, lazy_seat_label(seat, players)) for seat in s.seat_letters
        ]
        if s.seats == 2:
            bidders.append(("", _("No bidding")))
        self.fields["bidder"] = forms.ChoiceField(
            label=_("Bidder"), choices=FixedChoices(bidders), required=False, widget=forms.RadioSelect
        )
        self.fields["bid"] = PointsField(
            scale=s.scale,
            label=_("Bid"),
            required=False,
            min_value=1,
            max_value=MAX_BID,
            error_messages={
                "max_value": _("A bid is at most %(limit_value)s."),
                "min_value": _("A bid is at least %(limit_value)s."),
            },
            # No placeholder: a grey "20" looked like a value. The minimum is the hint under it.
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        self.fields["trump"] = forms.ChoiceField(
            label=_("Trump"),
            choices=TRUMP_CHOICES,
            required=False,
            widget=forms.RadioSelect,
        )
        self.fields["conceded"] = forms.BooleanField(label=_("Bidders concede (no play)"), required=False)
        if not s.chips_in_play:
            self.fields["meld_mode"] = forms.ChoiceField(
                label=_("Meld entry"),
                choices=MELD_MODE_CHOICES,
                initial="items",
                required=False,
                widget=forms.RadioSelect,
            )
            # Quick meld points per seat, as each player announces them; a side scores the sum of
            # its seats (docs/record-format.md keeps meld_points per side). At 2 and 3 seats a
            # side is a seat.
            for name in s.seat_letters:
                self.fields[f"meld_points_{name}"] = PointsField(
                    scale=s.scale,
                    label=lazy_seat_label(name, players),
                    required=False,
                    min_value=0,
                    max_value=MAX_MELD_POINTS,
                    error_messages={
                        "max_value": _("The most a player can meld is %(limit_value)s."),
                        "min_value": _("Meld points cannot be negative."),
                    },
                )
        # The meld picker has one count per seat and item (up to 76 of them). They are read by
        # hand in `_clean_melds` rather than as Django fields: a form of 100 fields is slow to
        # build, check and draw, and every count needs the same small check.
        self.items = meld_items_for(s.deck)
        for side in s.sides:
            self.fields[f"tricks_{side}"] = PointsField(
                scale=s.scale,
                label=lazy_side_label(side, players),
                required=False,
                min_value=0,
                max_value=s.trick_points,
                # data-seats: whose tricks these are (the phone puts the cursor in the bidders' field)
                widget=forms.NumberInput(
                    attrs={
                        "inputmode": "numeric",
                        "class": "trick-points",
                        "data-seats": " ".join(seat for seat in s.seat_letters if s.side_of(seat) == side),
                    }
                ),
                error_messages={
                    "max_value": ngettext_lazy(
                        "A side takes at most %(limit_value)s trick point.",
                        "A side takes at most %(limit_value)s trick points.",
                        "limit_value",
                    ),
                    "min_value": _("Trick points cannot be negative."),
                },
            )
        self.fields["slam"] = forms.ChoiceField(
            label=_("Took every trick"),
            choices=FixedChoices(
                [("", _("Nobody")), *((side, lazy_side_label(side, players)) for side in s.sides)]
            ),
            required=False,
            widget=forms.RadioSelect,
        )

    # --- building the hand object ------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("passed"):
            self.hand = {"passed": True}
            return data
        hand: dict[str, Any] = {}
        bidder, bid = data.get("bidder") or None, data.get("bid")
        if bidder and bid is None and "bid" not in self.errors:
            self.add_error("bid", _("Enter the bid."))
        if bid is not None and not bidder and "bidder" not in self.errors:
            self.add_error("bidder", _("Tap the seat that won the bid."))
        if not bidder and bid is None and self.settings.seats != 2:
            self.add_error("bidder", _("Tap the seat that won the bid."))
        if bidder and bid is not None:
            hand["bidder"], hand["bid"] = bidder, bid
        if data.get("trump"):
            hand["trump"] = data["trump"]
        if data.get("meld_mode") == "points":
            points = self._quick_points(data)
            if any(points.values()):
                hand["meld_points"] = points
        else:
            melds = self._clean_melds()
            if melds:
                hand["melds"] = melds
        if data.get("conceded"):
            hand["conceded"] = True
        else:
            self._clean_tricks(data, hand)
        self.hand = hand
        return data

    def _quick_points(self, data: Mapping[str, Any]) -> dict[str, int]:
        """Quick mode: each side's meld points, the sum of its seats'."""
        letters = self.settings.seat_letters
        return {
            side: sum(data.get(f"meld_points_{seat}") or 0 for seat in side if seat in letters)
            for side in self.settings.sides
        }

    def _clean_melds(self) -> dict[str, list[str]]:
        """The meld items per seat from the picker's counts ("meld_N_run" = "1")."""
        melds = {}
        # The posted counts, read once (what meld_value reads, for up to 76 keys).
        source = self.data if self.is_bound else self.initial
        posted = {key: value for key, value in source.items() if key.startswith("meld_")}
        for seat in self.settings.seat_letters:
            items = []
            for item in self.items:
                raw = posted.get(f"meld_{seat}_{item.name}", "")
                if raw in ("", None):
                    continue
                top = most_per_seat(item.name, self.settings.deck)
                parsed = whole_number(str(raw))
                count = -1 if parsed is None else parsed
                if parsed is None:
                    problem = gettext("%(item)s: enter a whole number, 0 to %(top)d.")
                else:
                    problem = gettext("%(item)s: at most %(top)d per seat.") if count > top else ""
                if problem:
                    self.add_group_error(
                        f"melds_{seat}", problem % {"item": MELD_NAMES[item.name], "top": top}
                    )
                    continue
                items += [item.name] * count
            if items:
                melds[seat] = items
        return melds

    def meld_value(self, seat: str, item: str) -> Any:
        """What the picker shows for a count: the posted text, or the initial count."""
        key = f"meld_{seat}_{item}"
        return self.data.get(key, "") if self.is_bound else self.initial.get(key, "")

    def _clean_tricks(self, data: Mapping[str, Any], hand: dict[str, Any]) -> None:
        sides, total = self.settings.sides, self.settings.trick_points
        if any(f"tricks_{side}" in self.errors for side in sides):
            return
        values = {side: data.get(f"tricks_{side}") for side in sides}
        slam = data.get("slam") or None
        if slam:
            hand["tricks_won"] = {
                side: self.settings.tricks_per_hand if side == slam else 0 for side in sides
            }
            if all(value is None for value in values.values()):
                values = {side: total if side == slam else 0 for side in sides}
        blanks = [side for side, value in values.items() if value is None]
        if len(blanks) == 1:
            rest = total - sum(value or 0 for value in values.values())
            if rest < 0:
                self.add_group_error(
                    "tricks",
                    gettext("The trick points add up to more than %(total)d.")
                    % {"total": shown(total, self.settings.scale)},
                )
                return
            values[blanks[0]] = rest
        elif blanks:
            message = (
                gettext("Enter the trick points of one side; the other side's are worked out from %(total)d.")
                if len(sides) == 2
                else gettext(
                    "Enter the trick points of all players but one; the last is worked out from %(total)d."
                )
            )
            self.add_group_error("tricks", message % {"total": shown(total, self.settings.scale)})
            return
        hand["tricks"] = values

    def add_group_error(self, group: str, message: str) -> None:
        self.group_errors.setdefault(group, []).append(message)

    def is_valid(self) -> bool:
        return super().is_valid() and not self.group_errors

    def add_record_error(self, error: RecordError) -> None:
        """Put the engine's message next to the input it is about."""
        field = error.field
        message = engine_message(error)
        head = field.split(".")[0]
        if field == "hands":
            self.add_group_error(
                "form",
                gettext(
                    "This change would end the game after hand %(hand)d, but later hands are recorded. "
                    "Correct or delete the later hands first."
                )
                % {"hand": (error.hand or 2) - 1},
            )
        elif head in ("bid", "bidder", "trump", "conceded", "passed") and head in self.fields:
            self.add_error(head, message)
        elif head == "tricks_won":
            self.add_error("slam", message)
        elif head == "melds" and "." in field:
            self.add_group_error(f"melds_{field.split('.')[1]}", message)
        elif head in ("tricks", "melds", "meld_points"):
            self.add_group_error(head, message)
        else:
            self.add_group_error("form", message)

    # --- what the template draws -----------------------------------------------------------

    _GROUP_FOCUS = {"tricks": "tricks_", "meld_points": "meld_points_"}

    def error_summary(self) -> list[str]:
        """Every problem, each naming its field ("Bid: Enter the bid."), for the list next to Save."""
        return [line for _field, line in self.error_items]

    @property
    def error_items(self) -> list[tuple[str, str]]:
        """`error_summary` with what each line is about: a field's name, or the start of the names
        of the fields of a group ("tricks", "meld_N"; "" for the whole hand), so that the page's
        script takes a line away once a field it names is changed."""
        fields = {"tricks": "tricks", "melds": "meld", "meld_points": "meld_points"}
        items = [
            (name, f"{self[name].label}: {error}")
            for name in self.errors
            if name in self.fields
            for error in self.errors[name]
        ]
        for group, errors in self.group_errors.items():
            field = f"meld_{group[6:]}" if group.startswith("melds_") else fields.get(group, "")
            items += [(field, line) for line in self._group_lines(group, errors)]
        return items

    def _group_lines(self, group: str, errors: list[str]) -> list[str]:
        if group.startswith("melds_"):
            label = gettext("Meld of %(seat)s") % {"seat": seat_label(group[6:], self.players)}
        else:
            label = {
                "tricks": gettext("Trick points"),
                "melds": gettext("Meld"),
                "meld_points": gettext("Meld"),
            }.get(group, "")
        return [f"{label}: {error}" if label else error for error in errors]

    def focus_first_error(self) -> None:
        """Put `autofocus` on the first input with a problem, so a page drawn without JavaScript
        opens at it (the summary next to Save names it too)."""
        order = list(self.fields)
        invalid = [name for name in order if name in self.errors]
        for group in self.group_errors:
            prefix = self._GROUP_FOCUS.get(group)
            if prefix:
                invalid += [name for name in order if name.startswith(prefix)][:1]
        if invalid:
            first = min(invalid, key=order.index)
            self.fields[first].widget.attrs["autofocus"] = True

    def meld_seats(self) -> list[MeldSeat]:
        """Per seat: its label, its item counts and the errors about its melds."""
        return meld_seats(
            settings=self.settings,
            players=self.players,
            items=self.items,
            value_of=self.meld_value,
            group_errors=self.group_errors,
        )

    def meld_grid(self) -> MeldGrid:
        """Every seat's meld counts at once, one row per item (the entry form's grid)."""
        return meld_grid(self.meld_seats())

    @cached_property
    def numbers(self) -> dict[str, object]:
        """The rule book's numbers this hand form adds up and steps by, for the phone's script
        (one json_script), from the engine's tables."""
        s = self.settings
        chips = s.chips_in_play
        return hand_numbers(
            deck=s.deck,
            min_bid=s.min_bid,
            seats=s.seats,
            chips_in_play=chips,
            bid_steps=s.bid_steps,
            scale=s.scale,
        )

    @cached_property
    def bid_help(self) -> dict[str, object]:
        """The ladder the bid field's help sentence names, from the engine's tables."""
        s = self.settings
        return bid_help(s.min_bid, s.deck, s.bid_steps, scale=s.scale)

    def trick_fields(self) -> list[forms.BoundField]:
        return [self[f"tricks_{side}"] for side in self.settings.sides]

    def meld_point_fields(self) -> list[forms.BoundField]:
        if self.settings.chips_in_play:
            return []
        return [self[f"meld_points_{seat}"] for seat in self.settings.seat_letters]
