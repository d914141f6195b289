"""League writes: storing checked games in bulk (CSV and JSON imports, restore, the benchmark).

Keyword-only, typed, one transaction each (STYLE.md).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from clubs.models import Club, Membership, Player, Season
from clubs.services import add_player
from ratings import services as rating_services
from scoring import stats
from scoring.models import Game, GameSeat, GameStat, Hand, HandStat
from scoring.rules import GameResult

# --- bulk storing of checked games (imports, the benchmark) ------------------------------------


@dataclass
class NewGame:
    """A game the engine has already checked, with where it belongs in the league."""

    settings: Mapping[str, Any]  # docs/record-format.md settings: seats, variant, deck, ...
    players: Mapping[str, str]  # names by seat
    hands: Sequence[Mapping[str, Any]]
    result: GameResult
    code: str | None = None
    club: str = ""
    season: str = ""
    played_on: datetime.date | None = None
    place: str = ""
    note: str = ""
    line: int | None = None  # where it came from, for messages
    player_ids: dict[str, int] = field(default_factory=dict)


@transaction.atomic
def store_games(*, games: Sequence[NewGame]) -> list[Game]:
    """Write checked games in bulk: clubs, seasons and roster players are found by name or created.

    In a club game every named seat is bound to a roster player of that name (created when the
    roster has none). Games without a club keep their free-text names.
    """
    clubs: dict[str, Club] = {}
    seasons: dict[tuple[str, str], Season] = {}
    for new in games:
        if new.club and new.club not in clubs:
            clubs[new.club], _created = Club.objects.get_or_create(name=new.club)
    for key in {(new.club, new.season) for new in games if new.club and new.season}:
        dates = [g.played_on for g in games if (g.club, g.season) == key and g.played_on]
        today = datetime.date.today()
        seasons[key], _created = Season.objects.get_or_create(
            club=clubs[key[0]],
            name=key[1],
            defaults={"starts_on": min(dates, default=today), "ends_on": max(dates, default=today)},
        )
    roster: dict[tuple[int, str], Player] = {}
    for club in clubs.values():
        for membership in Membership.objects.filter(club=club).select_related("player"):
            roster.setdefault((club.pk, membership.player.name.casefold()), membership.player)

    game_rows = []
    for new in games:
        row = Game(
            seats=new.settings["seats"],
            variant=new.settings["variant"],
            deck=new.settings["deck"],
            target=new.settings.get("target"),
            min_bid=new.settings.get("min_bid"),
            first_dealer=new.settings.get("first_dealer") or "N",
            meld_needs_trick=bool(new.settings.get("options", {}).get("meld_needs_trick")),
            club=clubs.get(new.club),
            season=seasons.get((new.club, new.season)),
            played_on=new.played_on,
            place=new.place,
            note=new.note,
            **summary_fields(new.result),
        )
        if new.code:
            row.code = new.code
        game_rows.append(row)
    Game.objects.bulk_create(game_rows, batch_size=500)

    seat_rows: list[GameSeat] = []
    for new, game in zip(games, game_rows, strict=True):
        for seat in new.result.settings.seat_letters:
            name = (new.players.get(seat) or "").strip()
            player = None
            if name and game.club is not None:
                key = (game.club.pk, name.casefold())
                if key not in roster:
                    roster[key] = add_player(club=game.club, name=name)
                player = roster[key]
            seat_rows.append(GameSeat(game=game, seat=seat, name=name, player=player))
    GameSeat.objects.bulk_create(seat_rows, batch_size=1000)

    by_game: dict[int, list[GameSeat]] = {}
    for seat_row in seat_rows:
        by_game.setdefault(seat_row.game_id, []).append(seat_row)
    hand_rows, hand_stats, game_stats = [], [], []
    for new, game in zip(games, game_rows, strict=True):
        hand_rows.extend(
            Hand(game=game, number=number, data=dict(data)) for number, data in enumerate(new.hands, start=1)
        )
        more_hands, more_games = stats.stat_rows(game, by_game[game.pk], new.hands, new.result)
        hand_stats.extend(more_hands)
        game_stats.extend(more_games)
    Hand.objects.bulk_create(hand_rows, batch_size=1000)
    HandStat.objects.bulk_create(hand_stats, batch_size=1000)
    GameStat.objects.bulk_create(game_stats, batch_size=1000)
    rating_services.recompute_scopes(rating_services.scopes_for_clubs({game.club_id for game in game_rows}))
    return game_rows


def summary_fields(result: GameResult) -> dict[str, Any]:
    """Game's cached summary, as services._store_summary writes it (kept in step with it)."""
    return {
        "hand_count": len(result.hands),
        "finished": result.finished,
        "winner": result.winner or "",
        "scores": dict(result.scores),
        "chip_totals": dict(result.chips),
    }
