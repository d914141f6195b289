"""Forms of the league pages: they own the validation of what a user sent."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from scoring.access_models import ClubRole
from scoring.league_csv import MAX_IMPORT_BYTES
from scoring.league_models import Club, Player, Season
from scoring.models import Game


class ExportForm(forms.Form):
    """Which games to export: a season, a club, a date range or one game (any combination)."""

    season = forms.ModelChoiceField(Season.objects.select_related("club"), required=False, label=_("Season"))
    club = forms.ModelChoiceField(Club.objects.all(), required=False, label=_("Club"))
    date_from = forms.DateField(
        required=False, label=_("From"), widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(required=False, label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))
    game = forms.CharField(required=False, max_length=16, label=_("Game code"))
    headers = forms.BooleanField(
        required=False,
        label=_("Column names in this page's language"),
        help_text=_("For reading in a spreadsheet; an import needs the English column names."),
        widget=forms.CheckboxInput(attrs={"value": "local"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", _("The end of the range is before its start."))
        return data

    def games(self) -> Any:
        data = self.cleaned_data
        games = Game.objects.all()
        if data.get("season"):
            games = games.filter(season=data["season"])
        if data.get("club"):
            games = games.filter(club=data["club"])
        if data.get("date_from"):
            games = games.filter(played_on__gte=data["date_from"])
        if data.get("date_to"):
            games = games.filter(played_on__lte=data["date_to"])
        if data.get("game"):
            games = games.filter(code=data["game"])
        return games


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("File"), help_text=_("A hands.csv exported by this app, or JSON game records; at most 10 MB.")
    )
    club = forms.ModelChoiceField(
        Club.objects.all(),
        required=False,
        label=_("Club (JSON records only)"),
        help_text=_("A hands.csv names its own club and season."),
    )
    season = forms.ModelChoiceField(
        Season.objects.select_related("club"), required=False, label=_("Season (JSON records only)")
    )
    played_on = forms.DateField(
        required=False,
        label=_("Date played (JSON records only)"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                _("The file is %(size).1f MB; the limit is %(limit)d MB.")
                % {"size": upload.size / 1024 / 1024, "limit": MAX_IMPORT_BYTES // 1024 // 1024}
            )
        return upload

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        club, season = data.get("club"), data.get("season")
        if season and club and season.club_id != club.pk:
            self.add_error("season", _("This season belongs to another club."))
        return data


class MergeForm(forms.Form):
    duplicate = forms.ModelChoiceField(
        Player.objects.none(), label=_("Player entered twice"), empty_label=_("— choose —")
    )

    def __init__(self, *args: Any, keep: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.keep = keep
        field = self.fields["duplicate"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Player.objects.exclude(pk=keep.pk).prefetch_related("clubs")
        field.label_from_instance = lambda p: f"{p.name} ({', '.join(c.name for c in p.clubs.all()) or '—'})"


class GameDetailsForm(forms.Form):
    """A game's place in the league, and which player sat in each seat."""

    club = forms.ModelChoiceField(Club.objects.all(), required=False, label=_("Club"))
    season = forms.ModelChoiceField(Season.objects.select_related("club"), required=False, label=_("Season"))
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
        if clubs is not None:
            offered = clubs | ({game.club_id} if game.club_id else set())  # type: ignore[attr-defined]
            club_field, season_field = self.fields["club"], self.fields["season"]
            assert isinstance(club_field, forms.ModelChoiceField)
            assert isinstance(season_field, forms.ModelChoiceField)
            club_field.queryset = Club.objects.filter(pk__in=offered)
            season_field.queryset = Season.objects.select_related("club").filter(club__in=offered)
        players = Player.objects.prefetch_related("clubs").order_by("name", "pk")
        if clubs is not None:
            players = players.filter(memberships__club__in=offered).distinct()
        for seat in sorted(game.seat_rows.all(), key=lambda row: "NESW".index(row.seat)):  # clockwise
            field = forms.ModelChoiceField(
                players,
                required=False,
                label=_("Seat %(seat)s (typed: %(name)s)") % {"seat": seat.seat, "name": seat.name or "—"},
                empty_label=_("— not linked —"),
            )
            field.label_from_instance = lambda p: (
                f"{p.name} ({', '.join(c.name for c in p.clubs.all()) or '—'})"
            )
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
        # A season files the game in its club even with the club left empty.
        club = club or (season.club if season is not None else None)
        data["filed_club"] = club
        roster = set(club.memberships.values_list("player_id", flat=True)) if club else set()
        for name, player in self.players_in(data).items():
            if player is None:
                continue
            if club is None:
                self.add_error(name, _("File the game in a club to link its seats to players."))
            elif player.pk not in roster:
                self.add_error(
                    name, _("%(name)s is not on the roster of %(club)s.") % {"name": player, "club": club}
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


class RoleForm(forms.Form):
    """An organiser gives an account a role in the club, or takes it away."""

    username = forms.CharField(label=_("Account name"), max_length=150)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[*ClubRole.Role.choices, ("", _("No role (remove from the club)"))],
        required=False,
    )

    def clean_username(self) -> str:
        name = self.cleaned_data["username"].strip()
        if not get_user_model().objects.filter(username=name).exists():
            raise forms.ValidationError(_("There is no account with this name; they sign up first."))
        return name
