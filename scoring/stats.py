"""Derived statistics: rewritten from the engine's GameResult, read back with SQL aggregation.

`refresh_game(game, result)` is called by services.results.store_result, inside the transaction of
every change of a game's hands, so the HandStat/GameStat rows of a game can never disagree with
its hands. `stat_rows(...)` builds the same rows, unsaved, for refresh_game and for the bulk
imports (league.services), which write them through `scoring.imported`.

Bid bands (docs/rules.md has no bands; these are the club's): single deck 20–24, 25–29, 30–34, 35+.
Double-deck bids are about 2.5 times single-deck ones (minimum 50 against 20), so the band
limits are ×2.5 and land on the double-deck bid steps: 50–60, 65–70, 75–85, 90+.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from scoring.models import Game, GameSeat, GameStat, HandStat
from scoring.rules.engine import GameResult
from scoring.rules.melds import meld_sum

BAND_LABELS = {
    "single": ["20–24", "25–29", "30–34", "35+"],
    "double": ["50–60", "65–70", "75–85", "90+"],
}
BAND_RULE = _(
    "Bid bands: single deck 20–24, 25–29, 30–34, 35+. Double-deck bands are the single-deck limits "
    "×2.5, rounded to the double-deck bid steps: 50–60, 65–70, 75–85, 90+."
)


def bid_band(bid: int | None, deck: str) -> int | None:
    """The band index of a bid: 0..3.

    >>> [bid_band(b, "single") for b in (20, 24, 25, 34, 35, 60)]
    [0, 0, 1, 2, 3, 3]
    >>> [bid_band(b, "double") for b in (50, 60, 65, 70, 75, 85, 90)]
    [0, 0, 1, 1, 2, 2, 3]
    """
    if bid is None:
        return None
    # Work in tenths of a point so the ×2.5 limits (62.5, 75, 87.5) stay integers.
    scale = 25 if deck == "double" else 10
    tenths = bid * 10
    for band, limit in enumerate((25, 30, 35)):
        if tenths < limit * scale:
            return band
    return 3


_ROLLUP: tuple[str, ...] = ("hands", "bids", "bids_made", "sets", "meld_sum", "meld_hands")
_ROLLUP += ("side_bids", "side_made", "side_sets", "side_meld_sum")

#: What a GameStat row holds besides its seat, written over the seat's old row on every change.
_GAME_STAT_UPDATED = (
    "game", "partner_row", "seat", "side", "outcome", "points_for", "points_against", "chips", *_ROLLUP,
)  # fmt: skip
_OUTCOME = {None: GameStat.Outcome.OPEN.value, "draw": GameStat.Outcome.DRAW.value}


def stat_rows(
    game: Game,
    seat_rows: Sequence[GameSeat],
    hand_data: Sequence[Mapping[str, Any]],
    result: GameResult,
    *,
    first_number: int = 1,
) -> tuple[list[HandStat], list[GameStat]]:
    """The HandStat and GameStat rows of one game (unsaved), from its stored hands and the
    engine's result.

    HandStat rows are made for hands from `first_number` on; the GameStat roll-up covers them all.
    `game` and `seat_rows` are saved rows (their primary keys are written).

    `hand_data` are the hand objects (docs/record-format.md) the engine scored and checked, read here
    only for what GameResult does not carry: bidder seat, bid, trump and each seat's meld items.
    """
    settings = result.settings
    deck = settings.deck
    seats = settings.seat_letters
    game_id = game.pk
    seat_id = {row.seat: row.pk for row in seat_rows}
    partner = {"N": "S", "S": "N", "E": "W", "W": "E"} if settings.seats == 4 else {}
    partner_id = {seat: seat_id.get(partner.get(seat, "")) for seat in seats}
    side_of = {seat: settings.side_of(seat) for seat in seats}
    split_points = settings.seats == 4  # a partnership's plain meld number cannot be split
    hand_stats: list[HandStat] = []
    rollup = {seat: dict.fromkeys(_ROLLUP, 0) for seat in seats}
    for scored, data in zip(result.hands, hand_data, strict=True):
        bidder = data.get("bidder")
        bid = data.get("bid")
        band = bid_band(bid, deck)
        trump = data.get("trump") or ""
        melds = data.get("melds")
        played = scored.result != "passed"
        made = scored.result == "made"
        keep = scored.number >= first_number
        for seat in seats:
            side = side_of[seat]
            if melds is not None:
                seat_meld: int | None = meld_sum(Counter(melds.get(seat, ())), deck, chips_in_play=False)[0]
            elif split_points and data.get("meld_points") is not None:
                seat_meld = None
            else:
                seat_meld = scored.meld[side]
            is_bidder = bidder == seat
            side_bid = scored.bidding_side == side
            if keep:
                hand_stats.append(
                    HandStat(
                        game_id=game_id,
                        seat_row_id=seat_id[seat],
                        partner_row_id=partner_id[seat],
                        number=scored.number,
                        seat=seat,
                        side=side,
                        dealer=scored.dealer,
                        result=scored.result,
                        is_bidder=is_bidder,
                        side_bid=side_bid,
                        bid=bid,
                        bid_band=band,
                        trump=trump,
                        seat_meld=seat_meld,
                        meld=scored.meld[side],
                        tricks=scored.tricks[side],
                        points=scored.points[side],
                        chips=scored.chips[side],
                        total=scored.totals[side],
                        chip_total=scored.chip_totals[side],
                    )
                )
            if not played:
                continue
            up = rollup[seat]
            up["hands"] += 1
            up["bids"] += is_bidder
            up["bids_made"] += is_bidder and made
            up["sets"] += is_bidder and not made
            if seat_meld is not None:
                up["meld_sum"] += seat_meld
                up["meld_hands"] += 1
            up["side_bids"] += side_bid
            up["side_made"] += side_bid and made
            up["side_sets"] += side_bid and not made
            up["side_meld_sum"] += scored.meld[side]

    game_stats: list[GameStat] = []
    best = max(result.scores.values(), default=0)
    for seat in seats:
        side = side_of[seat]
        others = [score for other, score in result.scores.items() if other != side]
        winner = result.winner
        if winner == "draw" and not settings.chips_in_play and result.scores[side] < best:
            # Level on points after the last deal of three players: those level drew, the third lost.
            outcome = GameStat.Outcome.LOSS.value
        elif winner in _OUTCOME:
            outcome = _OUTCOME[winner]
        else:
            outcome = (GameStat.Outcome.WIN if winner == side else GameStat.Outcome.LOSS).value
        game_stats.append(
            GameStat(
                game_id=game_id,
                seat_row_id=seat_id[seat],
                partner_row_id=partner_id[seat],
                seat=seat,
                side=side,
                outcome=outcome,
                points_for=result.scores[side],
                points_against=max(others) if others else 0,
                chips=result.chips[side],
                **rollup[seat],
            )
        )
    return hand_stats, game_stats


def refresh_game(
    game: Game,
    result: GameResult,
    *,
    hand_data: Sequence[Mapping[str, Any]] | None = None,
    seat_rows: Sequence[GameSeat] | None = None,
    first_changed: int = 1,
    appended: bool = False,
) -> None:
    """Rewrite the game's derived rows; the caller holds the transaction that changed its hands.

    A hand's row depends only on that hand and the ones before it (running totals), so rows
    before `first_changed` stay as they are: saving hand 41 of a game writes one hand's rows, not
    forty-one. `hand_data` and `seat_rows` are what the caller just read, when it has them at hand;
    `appended` says hand `first_changed` is new at the end, so it has no rows yet.
    """
    if seat_rows is None:
        seat_rows = list(GameSeat.objects.filter(game=game))
    if hand_data is None:
        hand_data = list(game.hands.order_by("number").values_list("data", flat=True))
    hand_stats, game_stats = stat_rows(game, seat_rows, hand_data, result, first_number=first_changed)
    if not appended:
        HandStat.objects.filter(game=game, number__gte=first_changed).delete()
    HandStat.objects.bulk_create(hand_stats)
    # One row per seat, always: written over the seat's old row in one statement (its seat is unique).
    GameStat.objects.bulk_create(
        game_stats, update_conflicts=True, unique_fields=["seat_row"], update_fields=_GAME_STAT_UPDATED
    )
