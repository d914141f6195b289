"""Filing a game in a club's league: its club, season, date, place, and which player sat where.

Keyword-only, typed, one transaction each (STYLE.md). Statistics follow a seat's player through
GameSeat, so linking a seat rewrites no derived rows.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Club, Player, Season
from scoring import signals
from scoring.models import Game, GameSeat


@transaction.atomic
def set_game_details(
    *,
    game: Game,
    club: Club | None,
    season: Season | None,
    played_on: datetime.date | None,
    place: str = "",
    note: str = "",
) -> Game:
    """File a game under a club and season, with its date, place/table and note."""
    if season is not None:
        if club is None:
            club = season.club
        if season.club_id != club.pk:
            raise ValidationError(_("The season belongs to another club."))
        if played_on is not None and not season.starts_on <= played_on <= season.ends_on:
            raise ValidationError(_("The date is outside the season."))
    game.club = club
    game.season = season
    game.played_on = played_on
    game.place = place.strip()
    game.note = note.strip()
    game.save(update_fields=["club", "season", "played_on", "place", "note", "updated_at"])
    signals.game_changed.send(sender=Game, game=game)
    return game


@transaction.atomic
def file_game(
    *,
    game: Game,
    club: Club | None,
    season: Season | None,
    played_on: datetime.date | None,
    place: str,
    note: str,
    players: Mapping[str, Player | None],
) -> Game:
    """File a game in the league and bind its seats to players, all or nothing."""
    set_game_details(game=game, club=club, season=season, played_on=played_on, place=place, note=note)
    for seat in game.seat_rows.all():
        if seat.seat in players:
            link_seat(seat=seat, player=players[seat.seat])
    return game


@transaction.atomic
def link_seat(*, seat: GameSeat, player: Player | None) -> GameSeat:
    """Bind a seat (a typed name) to a player, or unbind it; its statistics follow at once."""
    seat.player = player
    seat.save(update_fields=["player"])
    signals.game_changed.send(sender=Game, game=seat.game)
    return seat
