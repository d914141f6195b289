"""Forms of the organiser pages: they own the validation of what an organiser sent, with the
message next to the field it is about. The checks a service also makes are the service's own
(`clubs.services.check_player_name`), called here, not copied."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from clubs import services
from clubs.ids import IdChoiceField
from clubs.models import Club, Player, Season
from clubs.selectors import roster

#: The longest season: each of its months is a statement in the chip ledger.
SEASON_YEARS_MAX = 5
SEASON_DAYS_MAX = 365 * SEASON_YEARS_MAX + 1


class ClubForm(forms.Form):
    name = forms.CharField(
        label=_("Club name"), max_length=100, error_messages={"required": _("A club needs a name.")}
    )

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        services.check_club_name(name=name)
        return name


class PlayerNameForm(forms.Form):
    """A new player for the roster, or a new name for one (`player`)."""

    name = forms.CharField(
        label=_("Player name"), max_length=100, error_messages={"required": _("A player needs a name.")}
    )

    def __init__(self, *args: Any, club: Club, player: Player | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club, self.player = club, player

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        services.check_player_name(club=self.club, name=name, exclude=self.player)
        return name


class NameListForm(forms.Form):
    """Names pasted one per line, to add to the roster in one go (`services.read_name_list`)."""

    names = forms.CharField(
        label=_("Names, one per line"),
        widget=forms.Textarea(attrs={"rows": 8, "autocapitalize": "words", "spellcheck": "false"}),
        max_length=services.NAME_LIST_MAX * 120,
        strip=False,
        error_messages={"required": _("Paste or type at least one name.")},
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.read: services.NameList | None = None

    def clean_names(self) -> str:
        text: str = self.cleaned_data["names"]
        read = services.read_name_list(club=self.club, text=text)
        if read.refused:
            raise forms.ValidationError(read.refused)
        if not read.new and not read.skipped:
            raise forms.ValidationError(_("Paste or type at least one name."))
        self.read = read
        return text


class MergeIntoForm(forms.Form):
    """The roster player entered twice, to fold into the player whose page this is."""

    duplicate = IdChoiceField(
        Player.objects.none(),
        label=_("Player entered twice"),
        empty_label=_("— choose —"),
        error_messages={
            "required": _("Choose the player who was entered twice."),
            "invalid_choice": _("Choose a player on this club's roster."),
        },
    )

    def __init__(self, *args: Any, club: Club, keep: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["duplicate"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = roster(club, include_retired=True).exclude(pk=keep.pk)


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
                _("A season lasts at most %(years)d years: end it on %(last)s or earlier.")
                % {
                    "years": SEASON_YEARS_MAX,
                    "last": date_format(starts + datetime.timedelta(days=SEASON_DAYS_MAX)),
                },
            )
        return data
