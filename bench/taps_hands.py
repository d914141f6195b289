"""The hands `bench/taps.py` plays, as a table plays them: three or four seats meld, one or two
items each, trump every hand; quick points per player; double-deck hands. Deterministic by the
hand's index, named as the entry form labels its seats and items."""

from __future__ import annotations

from typing import Any

NAMES = {"North": "Anna", "East": "Bo", "South": "Cecilia", "West": "David"}
A, B, C, D = "North (Anna)", "East (Bo)", "South (Cecilia)", "West (David)"
SEATS = [A, B, C, D]
NS, EW = "N–S (Anna & Cecilia)", "E–W (Bo & David)"
SUITS = ["♥ Hearts", "♠ Spades", "♦ Diamonds", "♣ Clubs"]
RUN, TM, MAR, PIN, ACES, KINGS = (
    "Run (A 10 K Q J of trump)",
    "Trump marriage (K Q of trump)",
    "Marriage (K Q, other suit)",
    "Pinochle (Q♠ J♦)",
    "Aces around",
    "Kings around",
)


def melded(i: int) -> dict[str, Any]:
    """A realistic hand (deterministic by i): three or four seats meld, one or two items each."""
    bidder, opp, partner, opp2 = (SEATS[(i + k) % 4] for k in range(4))
    bidder_melds = [{TM: 1, MAR: 1}, {RUN: 1}, {TM: 1, PIN: 1}, {RUN: 1, MAR: 1}, {TM: 1, MAR: 2}][i % 5]
    melds = {
        bidder: bidder_melds,
        opp: [{ACES: 1}, {MAR: 1}, {KINGS: 1, MAR: 1}][i % 3],
        partner: [{PIN: 1}, {MAR: 1, ACES: 1}, {PIN: 1}, {MAR: 2}][i % 4],
    }
    if i % 2 == 0:  # four seats meld in every other hand
        melds[opp2] = [{MAR: 1}, {KINGS: 1}, {MAR: 1}][i % 3]
    bidders = NS if bidder in (A, C) else EW
    return {
        "bidder": bidder,
        "bid": 20 + (i * 3) % 8,
        "trump": SUITS[i % 4],
        "melds": melds,
        "tricks": {bidders: 14 + i % 6},
    }


def quick(i: int) -> dict[str, Any]:
    """Quick points per player, as each announces them: three or four players meld (a player with
    nothing to show is left blank); trump is chosen as in every hand."""
    bidder, opp, partner, opp2 = (SEATS[(i + k) % 4] for k in range(4))
    bidders = NS if bidder in (A, C) else EW
    points = {bidder: 8 + i % 10, opp: 4 + i % 3, partner: 4 + i % 5, opp2: 6 if i % 2 == 0 else 0}
    return {
        "bidder": bidder,
        "bid": 20 + (i * 3) % 8,
        "trump": SUITS[i % 4],
        "quick": points,
        "tricks": {bidders: 14 + i % 6},
    }


def double(i: int) -> dict[str, Any]:
    """A double-deck hand: three or four seats meld, one or two items each."""
    bidder, opp, partner, opp2 = (SEATS[(i + k) % 4] for k in range(4))
    bidders = NS if bidder in (A, C) else EW
    melds = {
        bidder: [{RUN: 1, TM: 1}, {RUN: 1}, {TM: 1, PIN: 1}][i % 3],
        opp: [{ACES: 1}, {MAR: 1}, {"Double aces": 1}][i % 3],
        partner: [{PIN: 1, KINGS: 1}, {PIN: 1}][i % 2],
    }
    if i % 2 == 0:
        melds[opp2] = [{MAR: 1}, {KINGS: 1, MAR: 1}][i % 4 // 2]
    return {
        "bidder": bidder,
        "bid": 50 + 5 * (i % 3),
        "min_bid": 50,
        "trump": SUITS[i % 4],
        "melds": melds,
        "tricks": {bidders: 30 + 2 * i},
    }
