"""Which games to export, and a file of games to import (a hands.csv or JSON game records)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.ids import IdChoiceField
from clubs.models import Club, Season
from league.csv_io.columns import max_import_bytes
from scoring.models import Game


class ExportForm(forms.Form):
    """Which games to export: a season, a club, a date range or one game (any combination)."""

    season = IdChoiceField(Season.objects.select_related("club"), required=False, label=_("Season"))
    club = IdChoiceField(Club.objects.all(), required=False, label=_("Club"))
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
        data = super().clean() or {}
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
    file = forms.FileField(label=_("File"))
    club = IdChoiceField(
        Club.objects.all(),
        required=False,
        label=_("Club (JSON records only)"),
        help_text=_("A hands.csv names its own club and season."),
    )
    season = IdChoiceField(
        Season.objects.select_related("club"), required=False, label=_("Season (JSON records only)")
    )
    played_on = forms.DateField(
        required=False,
        label=_("Date played (JSON records only)"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = _(
            "A hands.csv exported by this app, or JSON game records; at most %(limit)s MB."
        ) % {"limit": max_import_bytes() // 1024 // 1024}

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > max_import_bytes():
            raise forms.ValidationError(
                _("The file is %(size).1f MB; the limit is %(limit)d MB.")
                % {"size": upload.size / 1024 / 1024, "limit": max_import_bytes() // 1024 // 1024}
            )
        return upload

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        club, season = data.get("club"), data.get("season")
        refusal = season.refuses(club=club) if season else None
        if refusal is not None:
            self.add_error(*refusal)
        return data


def only_clubs(form: forms.Form, club_ids: set[int] | None) -> forms.Form:
    """Offer only these clubs (None: all) and their seasons in the form's club and season choices."""
    if club_ids is not None:
        for name, lookup in (("club", "pk__in"), ("season", "club__in")):
            field = form.fields[name]
            assert isinstance(field, forms.ModelChoiceField) and field.queryset is not None
            field.queryset = field.queryset.filter(**{lookup: club_ids})
    return form
