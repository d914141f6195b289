"""A game's place in a club's league and the players in its seats."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.ids import IdChoiceField
from clubs.models import Club, Player, Season
from scoring.models import Game


class PlayerWithClubsField(IdChoiceField):
    """A seat's player, labelled with their clubs among those offered (`shown`, None: all): of a
    player on another club's roster too, this user does not learn which (site staff, offered every
    club, see them all)."""

    def __init__(self, *args: Any, shown: set[int] | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown = shown

    def label_from_instance(self, obj: Player) -> str:
        names = [c.name for c in obj.clubs.all() if self.shown is None or c.pk in self.shown]
        return f"{obj.name} ({', '.join(names) or '—'})"


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
            offered = clubs | ({game.club_id} if game.club_id else set())
            club_field, season_field = self.fields["club"], self.fields["season"]
            assert isinstance(club_field, forms.ModelChoiceField)
            assert isinstance(season_field, forms.ModelChoiceField)
            club_field.queryset = Club.objects.filter(pk__in=offered)
            seasons = season_field.queryset
            assert seasons is not None  # the class's own queryset (above)
            season_field.queryset = seasons.filter(club__in=offered)
        players = Player.objects.prefetch_related("clubs").order_by("name", "pk")
        if clubs is not None:
            # Retired players are not offered, except where this game already seats them.
            players = players.filter(
                Q(memberships__club__in=offered, memberships__retired_on=None) | Q(pk__in=self.linked)
            ).distinct()
        shown = None if clubs is None else offered

        for seat in game.seat_rows.all():  # clockwise (GameSeat's ordering)
            field = PlayerWithClubsField(
                players,
                shown=shown,
                required=False,
                label=_("Seat %(seat)s (typed: %(name)s)") % {"seat": seat.seat, "name": seat.name or "—"},
                empty_label=_("— not linked —"),
            )
            self.fields[f"seat_{seat.seat}"] = field

    def seat_fields(self) -> list[Any]:
        return [self[name] for name in self.fields if name.startswith("seat_")]

    def detail_fields(self) -> list[Any]:
        return [self[name] for name in self.fields if not name.startswith("seat_")]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        club, season, played_on = data.get("club"), data.get("season"), data.get("played_on")
        if season is not None:
            refusal = season.refuses(club=club, on=played_on)
            if refusal is not None:
                self.add_error(*refusal)
            if season.closed_at is not None and season.pk != self.game.season_id:
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
