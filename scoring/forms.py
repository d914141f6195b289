"""Forms: what a phone posted, turned into a game's settings or a hand object (docs/record-format.md).

The forms check what a form can see (numbers, seats, suits, a blank trick field), build the
hand object, and put the engine's RecordError next to the input it is about
(`add_record_error`). The engine stays the one authority on the rules: the views hand the
built object to services, which score it before anything is written.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from django import forms
from django.db import IntegrityError
from django.db.models import Q
from django.utils.choices import BaseChoiceIterator
from django.utils.functional import cached_property, lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.ids import IdChoiceField
from clubs.models import Club, Player, Season
from scoring import game_settings, services
from scoring.engine_messages import engine_message
from scoring.labels import MELD_NAMES, SEAT_NAMES, SUIT_NAMES, SUIT_SYMBOLS, seat_label, side_label
from scoring.models import Game
from scoring.rules import RecordError, Settings
from scoring.rules.tables import (
    CHECK_SEATS,
    MAX_BID,
    MAX_MELD_POINTS,
    MAX_NAME_LENGTH,
    MAX_TARGET,
    REPEATABLE,
    ROUNDHOUSE_CHIPS,
    ROUNDHOUSE_FAMILIES,
    SEAT_ORDER,
    SUITS,
    default_min_bid,
    default_target,
    hand_numbers,
    meld_items_for,
    seats_for,
    setup_numbers,
)
from scoring.strict_input import whole_number

ALL_SEATS = SEAT_ORDER
# Labels that name players are only worked out when drawn, so a save that redirects never
# needs the players' names (one query fewer on the busiest write).
lazy_seat_label = lazy(seat_label, str)
lazy_side_label = lazy(side_label, str)
#: A seat can show a repeatable item (marriage, dix) at most this often; levelled items once.
MAX_REPEAT = 12


class WholeNumberField(forms.IntegerField):
    """A number a person types: plain digits 0-9 only (blanks around them aside).

    Django's IntegerField reads what Python's int() reads: `25_0` (saved as 250), `+5`, `٣`.
    Every number on these forms is a count or points at least 0, so no minus sign either.
    """

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values or (isinstance(value, str) and not value.strip()):
            return None
        number = whole_number(str(value))
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class PlainDecimalField(forms.DecimalField):
    """An amount a person types: ASCII digits with at most one decimal point (a minus sign and
    blanks around them aside, so a negative amount gets the field's minimum's message). Django's
    DecimalField reads what Python's Decimal() reads: `0_5` (saved as 5), `1e2`, full-width digits.
    """

    _PLAIN = re.compile(r"\s*-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*", re.ASCII)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and value.strip() and not self._PLAIN.fullmatch(value):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class GameRulesForm(forms.Form):
    """The rules a game is played by, as a new game and a club night (nights.forms.NightForm) set
    them: variant, deck, target, minimum bid and the house rule."""

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


class GameForm(GameRulesForm):
    """Setting up a game at the table. `setup_token` is a one-time token drawn into the form: the
    same form posted twice (a second tap, Back and Start) opens the game it already made."""

    field_order = ["setup_token", "seats", "variant", "deck", "target", "min_bid", "name_N", "name_E"]
    field_order += ["name_S", "name_W", "first_dealer", "meld_needs_trick"]

    setup_token = forms.UUIDField(widget=forms.HiddenInput, required=False)

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
        data = super().clean()
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
        return data

    def name_fields(self) -> list[forms.BoundField]:
        return [self[f"name_{seat}"] for seat in ALL_SEATS]

    def numbers(self) -> dict[str, object]:
        """The rule book's setup numbers for the page's script (placeholders, Check Pinochle's seats)."""
        return setup_numbers()

    def save(self) -> Game | None:
        """Create the game, or put the engine's objection next to its field and return None."""
        data = self.cleaned_data
        seats = data["seats"]
        players = {seat: data.get(f"name_{seat}", "") for seat in seats_for(seats)}
        try:
            return services.create_game(
                seats=seats,
                variant=data["variant"],
                deck=data["deck"],
                target=data["target"],
                min_bid=data["min_bid"],
                first_dealer=data["first_dealer"],
                meld_needs_trick=data["meld_needs_trick"],
                players={seat: name for seat, name in players.items() if name},
                setup_token=data.get("setup_token"),
            )
        except IntegrityError:
            # The same setup form, posted twice at once: the other request made the game.
            return Game.objects.get(setup__token=data["setup_token"])
        except RecordError as error:
            field = error.field.replace("players.", "name_")
            self.add_error(field if field in self.fields else None, engine_message(error))
            return None


class FixedChoices(BaseChoiceIterator):
    """Choices already in Django's (value, label) form, taken as they are: Django would normalize
    a list again for the field and for its widget, on every form, and a save builds one."""

    def __init__(self, choices: Iterable[tuple[str, Any]]) -> None:
        self.choices = list(choices)

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        return iter(self.choices)

    def __len__(self) -> int:
        return len(self.choices)


#: "♠ Spades": made once, translated when drawn (a save only checks the posted suit).
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
        bidders = [(seat, lazy_seat_label(seat, players)) for seat in s.seat_letters]
        if s.seats == 2:
            bidders.append(("", _("No bidding")))
        self.fields["bidder"] = forms.ChoiceField(
            label=_("Bidder"), choices=FixedChoices(bidders), required=False, widget=forms.RadioSelect
        )
        self.fields["bid"] = WholeNumberField(
            label=_("Bid"),
            required=False,
            min_value=1,
            max_value=MAX_BID,
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
            # side is a seat. At 4 seats the per-side fields are still read, undrawn: a page or an
            # outbox entry from before per-seat entry posts them, and its points must not be lost.
            for name in [*s.seat_letters, *(side for side in s.sides if side not in s.seat_letters)]:
                label = lazy_seat_label if len(name) == 1 else lazy_side_label
                self.fields[f"meld_points_{name}"] = WholeNumberField(
                    label=label(name, players),
                    required=False,
                    min_value=0,
                    max_value=MAX_MELD_POINTS,
                )
        # The meld picker has one count per seat and item (up to 76 of them). They are read by
        # hand in `_clean_melds` rather than as Django fields: a form of 100 fields is slow to
        # build, check and draw, and every count needs the same small check.
        self.items = meld_items_for(s.deck)
        for side in s.sides:
            self.fields[f"tricks_{side}"] = WholeNumberField(
                label=lazy_side_label(side, players),
                required=False,
                min_value=0,
                max_value=s.trick_points,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "trick-points"}),
                error_messages={
                    "max_value": _("A side takes at most %(limit_value)s trick points."),
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
        data = super().clean()
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
        """Quick mode: each side's meld points, the sum of its seats' (or the side's own field)."""
        points = {}
        for side in self.settings.sides:
            seats = [data.get(f"meld_points_{seat}") for seat in side if seat in self.settings.seat_letters]
            if all(value is None for value in seats) and side not in self.settings.seat_letters:
                seats = [data.get(f"meld_points_{side}")]
            points[side] = sum(value or 0 for value in seats)
        return points

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
                top = MAX_REPEAT if item.name in REPEATABLE else 1
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
                    "tricks", gettext("The trick points add up to more than %(total)d.") % {"total": total}
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
            self.add_group_error("tricks", message % {"total": total})
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
        lines = [
            f"{self[name].label}: {error}"
            for name in self.errors
            if name in self.fields
            for error in self.errors[name]
        ]
        for group, errors in self.group_errors.items():
            if group.startswith("melds_"):
                label = gettext("Meld of %(seat)s") % {"seat": seat_label(group[6:], self.players)}
            else:
                label = {
                    "tricks": gettext("Trick points"),
                    "melds": gettext("Meld"),
                    "meld_points": gettext("Meld"),
                }.get(group, "")
            lines += [f"{label}: {error}" if label else error for error in errors]
        return lines

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

    def meld_seats(self) -> list[dict[str, Any]]:
        """Per seat: its label, its item counts and the errors about its melds."""
        chips = self.settings.chips_in_play
        deck = self.settings.deck
        seats = []
        for seat in self.settings.seat_letters:
            rows = []
            for item in self.items:
                value = self.meld_value(seat, item.name)
                rows.append(
                    {
                        "name": f"meld_{seat}_{item.name}",
                        "item": item.name,
                        "label": MELD_NAMES[item.name],
                        "value": "" if value is None else value,
                        "max": MAX_REPEAT if item.name in REPEATABLE else 1,
                        "points": item.points(deck),
                        "chips": item.chips if chips else 0,
                        "family": item.family,
                        "rare": item.level > 1,
                        "level": item.level,
                    }
                )
            errors = self.group_errors.get(f"melds_{seat}", [])
            counted = [(_count(row["value"]), row) for row in rows]
            families = {row["family"] for count, row in counted if count > 0}
            seats.append(
                {
                    "seat": seat,
                    "label": seat_label(seat, self.players),
                    "rows": rows,
                    # A seat's common items first; doubles and above behind one tap (open when used).
                    "common": [row for row in rows if not row["rare"]],
                    # Behind it the doubles, and (double deck) triples and quadruples one tap further.
                    "rare": [row for row in rows if row["level"] == 2],
                    "rare_open": any(_count(row["value"]) for row in rows if row["rare"]),
                    "higher": [row for row in rows if row["level"] > 2],
                    "higher_open": any(_count(row["value"]) for row in rows if row["level"] > 2),
                    "errors": errors,
                    # What the closed seat shows (the page's script keeps it up to date as items
                    # are tapped, with the same sums: kings and queens around add the roundhouse's
                    # chips where chips are in play; the preview is the authority).
                    "points": sum(count * row["points"] for count, row in counted if count > 0),
                    "chip_sum": sum(count * row["chips"] for count, row in counted if count > 0)
                    + (ROUNDHOUSE_CHIPS if chips and set(ROUNDHOUSE_FAMILIES) <= families else 0),
                    # Closed unless its melds have a problem: the sum says what it holds, and the
                    # trick fields stay near (a correction most often changes the tricks).
                    "open": bool(errors),
                }
            )
        # One seat open at a time (an exclusive accordion) unless several have problems to show.
        exclusive = sum(1 for seat in seats if seat["open"]) <= 1
        for seat in seats:
            seat["exclusive"] = exclusive
        return seats

    @cached_property
    def numbers(self) -> dict[str, object]:
        """The rule book's numbers this hand form adds up and steps by, for the phone's script
        (one json_script), from the engine's tables."""
        s = self.settings
        return hand_numbers(deck=s.deck, min_bid=s.min_bid, seats=s.seats, chips_in_play=s.chips_in_play)

    def trick_fields(self) -> list[forms.BoundField]:
        return [self[f"tricks_{side}"] for side in self.settings.sides]

    def meld_point_fields(self) -> list[forms.BoundField]:
        if self.settings.chips_in_play:
            return []
        return [self[f"meld_points_{seat}"] for seat in self.settings.seat_letters]


def _count(value: object) -> int:
    try:
        return int(str(value or 0))
    except ValueError:
        return 0


def hand_initial(data: Mapping[str, Any], settings: Settings, number: int) -> dict[str, Any]:
    """The form's initial values for a stored hand object (to correct it)."""
    initial: dict[str, Any] = {"number": number, "submission_id": uuid.uuid4()}
    if data.get("passed"):
        initial["passed"] = True
        return initial
    for key in ("bidder", "bid", "trump", "conceded"):
        if key in data:
            initial[key] = data[key]
    if "meld_points" in data:
        initial["meld_mode"] = "points"
        # Stored per side: a 4-seat side's points are shown on its first seat (N or E).
        for side, points in data["meld_points"].items():
            initial[f"meld_points_{side[0]}"] = points
    for seat, items in (data.get("melds") or {}).items():
        for item in items:
            key = f"meld_{seat}_{item}"
            initial[key] = initial.get(key, 0) + 1
    for side, points in (data.get("tricks") or {}).items():
        initial[f"tricks_{side}"] = points
    for side, won in (data.get("tricks_won") or {}).items():
        if won == settings.tricks_per_hand:
            initial["slam"] = side
    return initial


class GameDetailsForm(forms.Form):
    """A game's place in the league, and which player sat in each seat."""

    club = IdChoiceField(Club.objects.all(), required=False, label=_("Club"))
    # Each club's seasons newest first, those of the same start the one made last first (as every
    # list of seasons): the same choices in the same order on every database.
    season = IdChoiceField(
        Season.objects.select_related("club").order_by("club__name", "club_id", "-starts_on", "-pk"),
        required=False,
        label=_("Season"),
    )
    played_on = forms.DateField(
        required=False, label=_("Date played"), widget=forms.DateInput(attrs={"type": "date"})
    )
    place = forms.CharField(required=False, max_length=100, label=_("Place / table"))
    note = forms.CharField(required=False, label=_("Note"), widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args: Any, game: Game, clubs: set[int] | None, **kwargs: Any) -> None:
        """`clubs`: the clubs this user may file games in (None: all). Only their clubs, seasons
        and rostered players are offered, and the game's own club so the form can show it."""
        super().__init__(*args, **kwargs)
        self.game = game
        self.linked = {row.player_id for row in game.seat_rows.all() if row.player_id}
        if clubs is not None:
            offered = clubs | ({game.club_id} if game.club_id else set())  # type: ignore[attr-defined]
            club_field, season_field = self.fields["club"], self.fields["season"]
            assert isinstance(club_field, forms.ModelChoiceField)
            assert isinstance(season_field, forms.ModelChoiceField)
            club_field.queryset = Club.objects.filter(pk__in=offered)
            season_field.queryset = season_field.queryset.filter(club__in=offered)  # type: ignore[union-attr]
        players = Player.objects.prefetch_related("clubs").order_by("name", "pk")
        if clubs is not None:
            # Retired players are not offered, except where this game already seats them.
            players = players.filter(
                Q(memberships__club__in=offered, memberships__retired_on=None) | Q(pk__in=self.linked)
            ).distinct()
        shown = None if clubs is None else offered

        def label(player: Player) -> str:
            """The player and their clubs among those offered: of a player on another club's roster
            too, this user does not learn which (site staff, offered every club, see them all)."""
            names = [c.name for c in player.clubs.all() if shown is None or c.pk in shown]
            return f"{player.name} ({', '.join(names) or '—'})"

        for seat in game.seat_rows.all():  # clockwise (GameSeat's ordering)
            field = IdChoiceField(
                players,
                required=False,
                label=_("Seat %(seat)s (typed: %(name)s)") % {"seat": seat.seat, "name": seat.name or "—"},
                empty_label=_("— not linked —"),
            )
            field.label_from_instance = label
            self.fields[f"seat_{seat.seat}"] = field

    def seat_fields(self) -> list[Any]:
        return [self[name] for name in self.fields if name.startswith("seat_")]

    def detail_fields(self) -> list[Any]:
        return [self[name] for name in self.fields if not name.startswith("seat_")]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        club, season, played_on = data.get("club"), data.get("season"), data.get("played_on")
        if season is not None:
            if club is not None and season.club_id != club.pk:
                self.add_error("season", _("This season belongs to another club."))
            elif played_on is not None and not season.starts_on <= played_on <= season.ends_on:
                self.add_error("played_on", _("The date is outside the season."))
            if season.closed_at is not None and season.pk != self.game.season_id:  # type: ignore[attr-defined]
                self.add_error(
                    "season", _("Season %(name)s is closed: it accepts no new games.") % {"name": season.name}
                )
        # A season files the game in its club even with the club left empty.
        club = club or (season.club if season is not None else None)
        data["filed_club"] = club
        roster = set(club.memberships.values_list("player_id", flat=True)) if club else set()
        taken: dict[int, str] = {}
        retired = (
            set(club.memberships.exclude(retired_on=None).values_list("player_id", flat=True))
            if club
            else set()
        )
        for name, player in self.players_in(data).items():
            if player is None:
                continue
            if player.pk in taken:
                self.add_error(
                    name,
                    _("%(player)s already takes seat %(seat)s; one player sits in one seat.")
                    % {"player": player, "seat": taken[player.pk]},
                )
                continue
            taken[player.pk] = name.removeprefix("seat_")
            if club is None:
                self.add_error(name, _("File the game in a club to link its seats to players."))
            elif player.pk not in roster:
                self.add_error(
                    name, _("%(name)s is not on the roster of %(club)s.") % {"name": player, "club": club}
                )
            elif player.pk in retired and player.pk not in self.linked:
                self.add_error(
                    name, _("%(name)s has retired from %(club)s.") % {"name": player, "club": club}
                )
        return data

    def players_in(self, data: dict[str, Any]) -> dict[str, Player | None]:
        return {name: data.get(name) for name in self.fields if name.startswith("seat_")}

    def players(self) -> dict[str, Player | None]:
        return {
            name.removeprefix("seat_"): self.cleaned_data.get(name)
            for name in self.fields
            if name.startswith("seat_")
        }


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
