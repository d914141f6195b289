"""Club nights with real games for the ledger's tests: every game is created and scored by the
scoring services (the rules engine), its seats linked to roster players as a night's tables are."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.utils import timezone

from clubs.models import Club, Membership, Player, Season
from nights.models import Night, NightPlayer, NightSeat, NightTable
from nights.rounds import round_deals
from scoring.models import Game, GameSeat
from scoring.rules.errors import RecordError
from scoring.services.games import create_game
from scoring.services.hands import record_hand
from scoring.services.plans import follow_plan

# Check Pinochle hands that the engine accepts at any point of a game (rule book, section 8 and the
# example record): what each does to the chips is worked out by the engine, not here.
NS_MAKES = {
    "bidder": "N", "bid": 27, "trump": "hearts",
    "melds": {"N": ["run", "marriage"], "E": ["aces"], "S": ["pinochle"], "W": []},
    "tricks": {"NS": 15, "EW": 10},
}  # fmt: skip
EW_SLAM = {
    "bidder": "E", "bid": 31, "trump": "spades",
    "melds": {"E": ["trump_marriage", "kings", "queens", "marriage", "marriage", "marriage"]},
    "tricks": {"NS": 0, "EW": 25}, "tricks_won": {"NS": 0, "EW": 12},
}  # fmt: skip
S_CONCEDES = {
    "bidder": "S",
    "bid": 22,
    "trump": "clubs",
    "melds": {"S": ["trump_marriage"]},
    "conceded": True,
}
PASSED = {"passed": True}
EW_MAKES = {
    "bidder": "E", "bid": 25, "trump": "diamonds",
    "melds": {"E": ["run"], "W": ["pinochle"], "N": ["kings"], "S": []},
    "tricks": {"NS": 8, "EW": 17},
}  # fmt: skip
CHECK_HANDS: list[dict[str, Any]] = [NS_MAKES, EW_SLAM, S_CONCEDES, PASSED, EW_MAKES]


def standard_hand(bidder: str, made: bool) -> dict[str, Any]:
    """A standard 4-seat hand with plain meld points: the bidder's side makes 25 or is set."""
    ns = bidder in "NS"
    tricks = 15 if made else 2
    return {
        "bidder": bidder,
        "bid": 25,
        "meld_points": {"NS": 10 if ns else 0, "EW": 0 if ns else 10},
        "tricks": {"NS": tricks if ns else 25 - tricks, "EW": 25 - tricks if ns else tricks},
    }


def roster(club: Club, *names: str) -> list[Player]:
    players = []
    for name in names:
        player = Player.objects.create(name=name)
        Membership.objects.create(club=club, player=player)
        players.append(player)
    return players


def make_club(name: str = "Thursday club") -> tuple[Club, Season]:
    club = Club.objects.create(name=name)
    season = Season.objects.create(
        club=club, name="Autumn", starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2026, 12, 31)
    )
    return club, season


def make_night(
    *,
    club: Club,
    season: Season | None,
    tables: Sequence[tuple[Sequence[Player], Sequence[dict[str, Any]]]],
    played_on: datetime.date = datetime.date(2026, 11, 5),
    variant: str = "check",
    target: int | None = None,
    stake_per_chip: Decimal | None = None,
    stake_per_win: Decimal | None = None,
    finished: bool = True,
    hands_per_round: int | None = None,
) -> Night:
    """A night whose round 1 has one table per `(players N E S W, hands)`; every hand the engine
    refuses (the game is over) is left out."""
    night = Night.objects.create(
        club=club,
        season=season,
        played_on=played_on,
        variant=variant,
        target=target,
        stake_per_chip=stake_per_chip,
        stake_per_win=stake_per_win,
        finished_at=timezone.now() if finished else None,
        round_ends=Night.RoundEnds.HANDS if hands_per_round else Night.RoundEnds.GAME,
        hands_per_round=hands_per_round,
    )
    seen: set[int] = set()
    for number, (players, hands) in enumerate(tables, start=1):
        for player in players:
            if player.pk not in seen:
                NightPlayer.objects.create(night=night, player=player)
                seen.add(player.pk)
        add_table(night, round_no=1, table_no=number, players=players, hands=hands, target=target)
    return night


def add_table(
    night: Night,
    *,
    round_no: int,
    table_no: int,
    players: Sequence[Player],
    hands: Sequence[dict[str, Any]],
    target: int | None = None,
) -> Game:
    seats = "NESW"[: len(players)]
    game = create_game(
        seats=len(players),
        variant=night.variant,
        deck="single",
        target=target,
        min_bid=None,
        first_dealer="N",
        meld_needs_trick=False,
        players={seat: player.name for seat, player in zip(seats, players, strict=True)},
        deals=round_deals(night),  # as nights.rounds.start_round starts a round's games
    )
    game.club = night.club
    game.season = night.season
    game.played_on = night.played_on
    game.save(update_fields=["club", "season", "played_on"])
    table = NightTable.objects.create(night=night, round_no=round_no, table_no=table_no, game=game)
    follow_plan(games=[game], over=night.is_finished)  # as nights.rounds marks a round's games
    for seat, player in zip(seats, players, strict=True):
        GameSeat.objects.filter(game=game, seat=seat).update(player=player)
        NightSeat.objects.create(table=table, seat=seat, player=player)
    for hand in hands:
        try:
            record_hand(game=game, number=game.hand_count + 1, data=hand)
        except RecordError:
            break
        game.refresh_from_db()
    game.refresh_from_db()
    return game
