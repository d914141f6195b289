"""Reads of the club app that other apps share: who may be offered for a new game or night."""

from __future__ import annotations

from django.db.models import QuerySet

from clubs.models import Club, Player, Season


def roster(club: Club, *, include_retired: bool = False) -> QuerySet[Player]:
    """The club's players by name; retired ones only when asked (past games keep them anyway)."""
    # One filter() call: a second one would join the memberships again, and a player on two clubs'
    # rosters would be listed twice (or shown here while retired here and active elsewhere).
    if include_retired:
        players = Player.objects.filter(memberships__club=club)
    else:
        players = Player.objects.filter(memberships__club=club, memberships__retired_on=None)
    return players.order_by("name", "pk")


def open_seasons(club: Club) -> QuerySet[Season]:
    """The club's seasons that still accept new games (not closed), newest first (the same start:
    the one made last first, as every list of seasons)."""
    return club.seasons.filter(closed_at=None).order_by("-starts_on", "-pk")
