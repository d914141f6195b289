"""A small hand-computed season shared by the league tests.

Club "Klubbén", season "Vår 2026", players Åsa, Örjan, Čeněk, Řehoř. Three games, target 30:

G1 standard   N Åsa  E Örjan  S Čeněk  W Řehoř
  h1 N bids 21 ♥, melds N run 15, S pinochle 4, E aces 10; tricks NS 15 EW 10
     NS 19+15=34 made; EW 10+10=20. NS reach 30: NS win 34–20.
G2 standard   same seats
  h1 E bids 25 ♠, melds E kings 8, W marriage 2, N dix 1; tricks NS 12 EW 13
     EW 10+13=23 < 25 set: EW −25; NS 1+12=13.
  h2 S bids 20 ♣, melds S trump_marriage 4; tricks NS 20 EW 5
     NS 4+20=24 made → 37; EW 0+5 → −20. NS win 37–(−20).
G3 check      N Åsa  E Čeněk  S Örjan  W Řehoř
  h1 E bids 27 ♦, melds E run+marriage 17 (2 chips), W pinochle 4, N aces 10 (2 chips);
     tricks NS 10 EW 15. EW 21+15=36 made; NS 10+10=20.
     Chips: EW 2 meld + 4 contract, NS 2 meld → EW +4. Game chips 10+⌈16/10⌉=12 → EW 16, NS −16.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User

from clubs.models import Club, ClubRole, Membership, Player, Season
from scoring import filing
from scoring.models import Game
from scoring.services.games import create_game
from scoring.services.hands import record_hand

H1 = {
    "bidder": "N",
    "bid": 21,
    "trump": "hearts",
    "melds": {"N": ["run"], "S": ["pinochle"], "E": ["aces"]},
    "tricks": {"NS": 15, "EW": 10},
}
G2 = [
    {
        "bidder": "E",
        "bid": 25,
        "trump": "spades",
        "melds": {"E": ["kings"], "W": ["marriage"], "N": ["dix"]},
        "tricks": {"NS": 12, "EW": 13},
    },
    {
        "bidder": "S",
        "bid": 20,
        "trump": "clubs",
        "melds": {"S": ["trump_marriage"]},
        "tricks": {"NS": 20, "EW": 5},
    },
]
G3 = [
    {
        "bidder": "E",
        "bid": 27,
        "trump": "diamonds",
        "melds": {"E": ["run", "marriage"], "W": ["pinochle"], "N": ["aces"]},
        "tricks": {"NS": 10, "EW": 15},
    }
]


def play(
    *, variant: str, seating: dict[str, Player], hands: list[dict[str, Any]], season: Season, day: int
) -> Game:
    game = create_game(
        seats=4,
        variant=variant,
        deck="single",
        target=30,
        min_bid=None,
        first_dealer="N",
        meld_needs_trick=False,
        players={seat: p.name for seat, p in seating.items()},
    )
    filing.set_game_details(
        game=game,
        club=season.club,
        season=season,
        played_on=datetime.date(2026, 3, day),
        place="Bord 1",
        note="",
    )
    for row in game.seat_rows.all():
        filing.link_seat(seat=row, player=seating[row.seat])
    for number, data in enumerate(hands, start=1):
        record_hand(game=game, number=number, data=data)
    return game


def small_season(organiser: User | None = None) -> dict[str, Any]:
    """The season above; `organiser` (an account, e.g. the persona alice) organises its club."""
    club = Club.objects.create(name="Klubbén")
    if organiser is not None:
        ClubRole.objects.create(user=organiser, club=club, role=ClubRole.Role.ORGANISER)
    season = Season.objects.create(
        club=club, name="Vår 2026", starts_on=datetime.date(2026, 3, 1), ends_on=datetime.date(2026, 5, 31)
    )
    people = {}
    for name in ("Åsa", "Örjan", "Čeněk", "Řehoř"):
        people[name] = Player.objects.create(name=name)
        Membership.objects.create(club=club, player=people[name])
    a, o, c, r = (people[n] for n in ("Åsa", "Örjan", "Čeněk", "Řehoř"))
    g1 = play(variant="standard", seating={"N": a, "E": o, "S": c, "W": r}, hands=[H1], season=season, day=2)
    g2 = play(variant="standard", seating={"N": a, "E": o, "S": c, "W": r}, hands=G2, season=season, day=9)
    g3 = play(variant="check", seating={"N": a, "E": c, "S": o, "W": r}, hands=G3, season=season, day=16)
    return {"club": club, "season": season, "people": people, "games": [g1, g2, g3]}
