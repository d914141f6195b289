"""The club a ledger URL belongs to, for `require_club_role`: a night's, or a season's (the other
parts of the URL, a player, a month, a payment, are checked by the view)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from clubs.permissions import season_club
from nights.models import Night


def night_club(night_id: int, **_: object) -> int:
    """The club of the night a URL names (404 for an unknown night)."""
    return get_object_or_404(Night.objects.only("club_id"), pk=night_id).club_id


def statement_club(season_id: int, **_: object) -> int:
    """The club of the season a URL names (a player, a month or a payment besides are checked by
    the view)."""
    return season_club(season_id)
