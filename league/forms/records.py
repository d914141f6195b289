"""Merging a player entered twice into the player whose page this is."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.ids import IdChoiceField
from clubs.models import Player


class PlayerWithClubsField(IdChoiceField):
    """A player labelled with those of their clubs that the form may show (None: every club)."""

    shown_clubs: set[int] | None = None

    def label_from_instance(self, obj: Any) -> str:
        names = [c.name for c in obj.clubs.all() if self.shown_clubs is None or c.pk in self.shown_clubs]
        return f"{obj.name} ({', '.join(names) or '—'})"


class MergeForm(forms.Form):
    duplicate = PlayerWithClubsField(
        Player.objects.none(), label=_("Player entered twice"), empty_label=_("— choose —")
    )

    def __init__(self, *args: Any, keep: Player, clubs: set[int] | None, **kwargs: Any) -> None:
        """Candidates are the players of `clubs` (the clubs the user organises; None: every player,
        for a superuser), each labelled with those of their clubs."""
        super().__init__(*args, **kwargs)
        self.keep = keep
        field = self.fields["duplicate"]
        assert isinstance(field, PlayerWithClubsField)
        candidates = Player.objects.exclude(pk=keep.pk).prefetch_related("clubs")
        if clubs is not None:
            candidates = candidates.filter(memberships__club__in=clubs).distinct()
        field.queryset = candidates
        field.shown_clubs = clubs
