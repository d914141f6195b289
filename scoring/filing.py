"""Filing a game in a club's league: its club, season, date, place, and which player sat where.

Keyword-only, typed, one transaction each. Statistics follow a seat's player through
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
from scoring.audit import Actor, record_hand_change
from scoring.models import Game, GameSeat, HandChange
from scoring.rules.tables import SEAT_ORDER


@transaction.atomic
def set_game_details(
    *,
    game: Game,
    club: Club | None,
    season: Season | None,
    played_on: datetime.date | None,
    place: str = "",
    note: str = "",
    actor: Actor | None = None,
) -> Game:
    """File a game under a club and season, with its date, place/table and note.

    Taking a club game out of its club (or into another) is written to the corrections trail
    under the club it leaves, with `actor`; the caller checks that the actor organises that club.
    """
    if season is not None:
        if club is None:
            club = season.club
        refusal = season.refuses(club=club, on=played_on)
        if refusal is not None:
            raise ValidationError(refusal[1])
    old_club: Club | None = game.club
    if old_club is not None and (club is None or club.pk != old_club.pk):
        old_season: Season | None = game.season
        record_hand_change(
            game=game,
            hand_number=0,
            action=HandChange.Action.FILING,
            old_data={"club": old_club.name, "season": old_season.name if old_season else ""},
            new_data={"club": club.name if club else "", "season": season.name if season else ""},
            actor=actor,
        )
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
    actor: Actor | None = None,
) -> Game:
    """File a game in the league and bind its seats to players, all or nothing.

    One player takes at most one seat of a game (ValidationError naming the player otherwise)."""
    set_game_details(
        game=game, club=club, season=season, played_on=played_on, place=place, note=note, actor=actor
    )
    rows = {row.seat: row for row in game.seat_rows.all()}
    after = {seat: players.get(seat, row.player) for seat, row in rows.items()}
    seen: dict[int, str] = {}
    for seat in sorted(after, key=SEAT_ORDER.index):
        player = after[seat]
        if player is None:
            continue
        if player.pk in seen:
            raise ValidationError(
                _("%(player)s cannot take two seats of one game (%(first)s and %(second)s).")
                % {"player": player.name, "first": seen[player.pk], "second": seat}
            )
        seen[player.pk] = seat
    changed = [row for seat, row in rows.items() if seat in players and row.player != players[seat]]
    # Unlink first, then link: swapping two players between seats never holds one player in two
    # seats on the way (the database refuses that: constraint one_seat_per_player_in_game).
    GameSeat.objects.filter(pk__in=[row.pk for row in changed]).update(player=None)
    for row in changed:
        row.player = None
        link_seat(seat=row, player=players[row.seat])
    return game


@transaction.atomic
def link_seat(*, seat: GameSeat, player: Player | None) -> GameSeat:
    """Bind a seat (a typed name) to a player, or unbind it; its statistics follow at once.

    Refused (ValidationError) when the player already sits in another seat of the game."""
    if player is not None:
        other = GameSeat.objects.filter(game_id=seat.game_id, player=player).exclude(pk=seat.pk).first()
        if other is not None:
            raise ValidationError(
                _("%(player)s already sits in seat %(seat)s of game %(code)s.")
                % {"player": player.name, "seat": other.seat, "code": seat.game.code}
            )
    seat.player = player
    seat.save(update_fields=["player"])
    signals.game_changed.send(sender=Game, game=seat.game)
    return seat
