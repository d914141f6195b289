"""The form of a club's season: its name and dates, at most `SEASON_YEARS_MAX` years long."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubs import services
from clubs.models import Club, Season

#: The longest season: each of its months is a statement in the chip ledger.
SEASON_YEARS_MAX = 5
SEASON_DAYS_MAX = 365 * SEASON_YEARS_MAX + 1


class SeasonForm(forms.Form):
    name = forms.CharField(
        label=_("Season name"), max_length=100, error_messages={"required": _("A season needs a name.")}
    )
    starts_on = forms.DateField(
        label=_("Starts on"),
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={
            "required": _("Give the day the season starts."),
            "invalid": _("The start is not a date like 2026-03-01."),
        },
    )
    ends_on = forms.DateField(
        label=_("Ends on"),
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={
            "required": _("Give the day the season ends."),
            "invalid": _("The end is not a date like 2026-06-30."),
        },
    )

    def __init__(self, *args: Any, club: Club, season: Season | None = None, **kwargs: Any) -> None:
        # The edit page passes data=None on a GET: that form shows the season as it is.
        if season is not None and (args[0] if args else kwargs.get("data")) is None:
            kwargs["initial"] = {
                "name": season.name,
                "starts_on": season.starts_on,
                "ends_on": season.ends_on,
            }
        super().__init__(*args, **kwargs)
        self.club, self.season = club, season

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        services.check_season_name(club=self.club, name=name, exclude=self.season)
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        starts: datetime.date | None = data.get("starts_on")
        ends: datetime.date | None = data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("The season ends before it starts."))
        elif starts and ends and (ends - starts).days > SEASON_DAYS_MAX:
            # Each month of a season is a statement in the chip ledger: a season to the year 9999
            # would list 96,000 of them.
            self.add_error(
                "ends_on",
                ngettext(
                    "A season lasts at most %(years)d year: end it on %(last)s or earlier.",
                    "A season lasts at most %(years)d years: end it on %(last)s or earlier.",
                    SEASON_YEARS_MAX,
                )
                % {
                    "years": SEASON_YEARS_MAX,
                    "last": date_format(starts + datetime.timedelta(days=SEASON_DAYS_MAX)),
                },
            )
        return data
