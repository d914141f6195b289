"""Scoring a whole game: hand points, sets, chips, running totals and the end of the game.

`score_record(data)` takes a game record as docs/record-format.md describes it (parsed JSON) and
returns the result object described there, or raises RecordError naming the hand and field.

Worked example (docs/rules.md, "Worked example", hand 1): N bids 27 in hearts at Check Pinochle;
NS meld 21 and take 15 trick points, EW meld 10 and take 10. NS make (36 ≥ 27) and score 36, EW
score 20. Chips: NS win 2 (run) + 4 (contract of 27), EW win 2 (aces), so the hand's chips are NS +4, EW −4.

How the game ends (the target, a fixed number of deals, the spread) and who wins: ending.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from scoring.rules.collector import collector_paused
from scoring.rules.ending import end_after_hand, winner_and_chips
from scoring.rules.errors import RecordError
from scoring.rules.record import Hand, parse_hand
from scoring.rules.settings import Settings, parse_settings
from scoring.rules.tables import SLAM_CHIPS, contract_chips, side_of


@dataclass(slots=True)  # not frozen, for speed (see record.Hand); treat as read-only
class HandScore:
    number: int
    dealer: str
    result: str  # made, set, conceded, passed or nobid
    bidding_side: str | None
    meld: Mapping[str, int]
    tricks: Mapping[str, int]
    points: Mapping[str, int]
    chips: Mapping[str, int]
    totals: Mapping[str, int]
    chip_totals: Mapping[str, int]
    chips_won: Mapping[str, dict[str, int]]  # per side: meld, contract, slam chips won (not net)

    def as_json(self) -> dict[str, Any]:
        # The per-side dicts are fresh for each hand and never changed after scoring, so the
        # result object shares them rather than copying 10,000 hands' worth of small dicts.
        return {
            "number": self.number,
            "dealer": self.dealer,
            "result": self.result,
            "meld": self.meld,
            "tricks": self.tricks,
            "points": self.points,
            "chips": self.chips,
            "totals": self.totals,
            "chip_totals": self.chip_totals,
        }


@dataclass(frozen=True, slots=True)
class GameResult:
    settings: Settings
    hands: Sequence[HandScore]
    finished: bool
    reached: str | None  # the side that won on points
    winner: str | None  # the game's winner: a side, "draw" (Check Pinochle), or None while open
    scores: Mapping[str, int]
    game_chips: Mapping[str, int]
    chips: Mapping[str, int]  # final chip totals, game chips included
    ended_after: int | None  # the hand number that ended the game
    #: Which rule ended it: "target" (docs/rules.md, "End of the game"), "deals" (the game's fixed
    #: number of deals was played), "spread" (a side led every other by the game's spread), or
    #: None while it goes on.
    ended_by: str | None = None

    @property
    def next_dealer(self) -> str:
        return self.settings.dealer(len(self.hands) + 1)

    def as_json(self) -> dict[str, Any]:
        return {**self._head(), "hands": [hand.as_json() for hand in self.hands], "result": self._outcome()}

    def as_json_text(self) -> str:
        """`json.dumps(self.as_json(), ensure_ascii=False)`, the same text, written straight from
        the scored hands: each hand is one %-format of a template made for the game's sides (the
        per-side maps are in the order of `settings.sides`, as the engine makes them)."""
        sides = self.settings.sides
        per_side = "{" + ", ".join(f"{json.dumps(side, ensure_ascii=False)}: %d" for side in sides) + "}"
        template = (
            '{"number": %d, "dealer": %s, "result": %s, "meld": P, "tricks": P, "points": P, '
            '"chips": P, "totals": P, "chip_totals": P}'
        ).replace("P", per_side)
        quoted = {
            word: json.dumps(word, ensure_ascii=False) for word in (*self.settings.seat_letters, *RESULTS)
        }
        get = itemgetter(*sides)
        hands = ", ".join(
            [
                template
                % (
                    hand.number,
                    quoted[hand.dealer],
                    quoted[hand.result],
                    *get(hand.meld),
                    *get(hand.tricks),
                    *get(hand.points),
                    *get(hand.chips),
                    *get(hand.totals),
                    *get(hand.chip_totals),
                )
                for hand in self.hands
            ]
        )
        head = json.dumps(self._head(), ensure_ascii=False)[:-1]  # without its closing brace
        return f'{head}, "hands": [{hands}], "result": {json.dumps(self._outcome(), ensure_ascii=False)}}}'

    def _head(self) -> dict[str, Any]:
        s = self.settings
        return {
            "sides": list(s.sides),
            "variant": s.variant,
            "target": s.target,
            "min_bid": s.min_bid,
            "chips_in_play": s.chips_in_play,
        }

    def _outcome(self) -> dict[str, Any]:
        outcome = {
            "finished": self.finished,
            "reached": self.reached,
            "winner": self.winner,
            "scores": dict(self.scores),
            "game_chips": dict(self.game_chips),
            "chips": dict(self.chips),
        }
        if self.settings.ends_early:
            # Only a game a house rule may end short of the target says how it ended, so the
            # result of a game played to the target keeps its shape (docs/record-format.md).
            outcome["ended_by"] = self.ended_by
        return outcome


#: What a hand's `result` can be (HandScore.result).
RESULTS = ("made", "set", "conceded", "passed", "nobid")
_NO_CHIPS: Mapping[str, dict[str, int]] = {}


def score_hand(hand: Hand, settings: Settings) -> tuple[str, dict[str, int], Mapping[str, dict[str, int]]]:
    """Points each side's score changes by, and the chips each side wins, for one hand.

    Returns (result, points, chips won per side split into meld/contract/slam; empty when chips
    are not in play).
    """
    sides = settings.sides
    chips_in_play = settings.chips_in_play
    won: Mapping[str, dict[str, int]] = _NO_CHIPS
    if chips_in_play:
        meld_chips = hand.meld_chips
        won = {}
        for side in sides:
            won[side] = {"meld": meld_chips[side], "contract": 0, "slam": 0}
    kind = hand.kind
    if kind == "passed":
        return "passed", dict.fromkeys(sides, 0), won

    meld, tricks = hand.meld, hand.tricks
    needs_trick = settings.meld_needs_trick and kind != "conceded"
    floor = settings.meld_counts_from
    if needs_trick or floor is not None:
        # A side's meld counts only when every house rule the game plays allows it (docs/rules.md,
        # "Meld needs a trick" and "Meld counts from N"); the meld shown stays in `hand.meld`.
        meld = dict(meld)
        for side in sides:
            took_a_trick = hand.tricks_won[side] > 0 if hand.tricks_won else tricks[side] > 0
            no_trick = needs_trick and not took_a_trick
            # On a concession nothing was played: the meld alone must reach N.
            off_board = floor is not None and (
                meld[side] < floor or (kind != "conceded" and tricks[side] < floor)
            )
            if no_trick or off_board:
                meld[side] = 0
    points = {}
    for side in sides:
        points[side] = meld[side] + tricks[side]

    if kind == "nobid":
        return "nobid", points, won
    bid = hand.bid
    assert hand.bidder is not None and bid is not None
    bidders = settings.side_by_seat[hand.bidder]
    result = "conceded" if kind == "conceded" else "made" if points[bidders] >= bid else "set"
    if result != "made":
        points[bidders] = -bid

    if chips_in_play:
        contract = contract_chips(bid)
        if result == "made":
            won[bidders]["contract"] = contract
        else:
            for side in sides:
                if side != bidders:
                    won[side]["contract"] = 2 * contract
        if hand.tricks_won:
            for side in sides:
                if hand.tricks_won[side] == settings.tricks_per_hand:
                    won[side]["slam"] = SLAM_CHIPS
    return result, points, won


def _net_chips(won: Mapping[str, Mapping[str, int]]) -> dict[str, int]:
    """Zero-sum chips between two sides: what a side won less what the other side won."""
    (a, won_a), (b, won_b) = won.items()
    net = (
        won_a["meld"] + won_a["contract"] + won_a["slam"] - won_b["meld"] - won_b["contract"] - won_b["slam"]
    )
    return {a: net, b: -net}


def score_game(settings: Settings, hands: Iterable[Hand]) -> GameResult:
    """Score checked hands in order; a hand after the end of the game is refused.

    `hands` may be read lazily (`score_record` checks each hand just before scoring it): every
    hand is still taken, so a mistake in any hand is reported before a hand after the end. When
    the game ends, and who wins: `ending.end_after_hand` and `ending.winner_and_chips`.
    """
    sides = settings.sides
    totals = dict.fromkeys(sides, 0)
    chip_totals = dict.fromkeys(sides, 0)
    scored: list[HandScore] = []
    reached: str | None = None
    ended_after: int | None = None
    ended_by: str | None = None
    after_end: int | None = None  # the first hand recorded after the end
    side_by_seat, seats = settings.side_by_seat, settings.seats
    letters = settings.seat_letters
    first = letters.index(settings.first_dealer)
    for hand in hands:
        if ended_after is not None:
            after_end = after_end or hand.number
            continue
        result, points, won = score_hand(hand, settings)
        chips = _net_chips(won) if won else dict.fromkeys(sides, 0)
        for side in sides:
            totals[side] += points[side]
            chip_totals[side] += chips[side]
        bidders = side_by_seat[hand.bidder] if hand.bidder else None
        scored.append(
            HandScore(
                hand.number,
                letters[(first + hand.number - 1) % seats],
                result,
                bidders,
                hand.meld,
                hand.tricks,
                points,
                chips,
                dict(totals),
                dict(chip_totals),
                won,
            )
        )
        end = end_after_hand(settings, totals, hand.number, result, bidders)
        if end is not None:
            ended_by, reached = end
            ended_after = hand.number

    if after_end is not None:
        raise RecordError.of("game_over", field="hands", hand=after_end, params={"hand": ended_after})

    winner, end_chips, final_chips = winner_and_chips(
        settings, totals, chip_totals, reached, ended_after is not None
    )
    return GameResult(
        settings,
        scored,
        ended_after is not None,
        reached,
        winner,
        dict(totals),
        end_chips,
        final_chips,
        ended_after,
        ended_by,
    )


def check_record(data: object, *, hand_errors: list[RecordError] | None = None) -> GameResult:
    """Read, check and score a whole record (docs/record-format.md): the one way from a record to a result.

    RecordError names the first problem. Pass a list as `hand_errors` to have every hand read even
    after a refused one: each refused hand's error is appended, and the first is raised at the end
    (imports report every bad line at once). Without it each hand is checked just before it is
    scored, so no list of checked hands piles up for a long record.
    """
    with collector_paused():
        settings = parse_settings(data)
        if hand_errors is None:
            return score_game(settings, _read_hands(data, settings))
        hands: list[Hand] = []
        for number, raw in enumerate(_raw_hands(data), start=1):
            try:
                hands.append(parse_hand(raw, number, settings))
            except RecordError as error:
                hand_errors.append(error)
        if hand_errors:
            raise hand_errors[0]
        return score_game(settings, hands)


def _raw_hands(data: object) -> list[Any]:
    assert isinstance(data, dict)  # parse_settings refuses anything else
    raw_hands = data.get("hands")
    if not isinstance(raw_hands, list):
        raise RecordError.of("hands_not_list", field="hands")
    return raw_hands


def _read_hands(data: object, settings: Settings) -> Iterator[Hand]:
    for number, raw in enumerate(_raw_hands(data), start=1):
        yield parse_hand(raw, number, settings)


def score_record(data: object) -> dict[str, Any]:
    """The result object (docs/record-format.md) for a record, or RecordError naming the hand and field."""
    with collector_paused():
        return check_record(data).as_json()


def score_record_text(data: object) -> str:
    """`score_record` as JSON text, as `json.dumps(score_record(data), ensure_ascii=False)` writes
    it, without making a result object for each hand first (what `manage.py score_game` prints)."""
    with collector_paused():
        return check_record(data).as_json_text()


def all_tricks_to_bidders(hand: Mapping[str, Any], settings: Settings) -> dict[str, Any]:
    """The hand as if the bidders took every trick: scored, it tells the bidders' need in trick
    points as soon as bid and meld are known (a "meld needs a trick" game counts their meld).

    >>> from scoring.rules.settings import parse_settings
    >>> all_tricks_to_bidders({"bidder": "E", "bid": 25}, parse_settings({}))["tricks"]
    {'NS': 0, 'EW': 25}
    """
    bidders = side_of(hand["bidder"], settings.seats)
    tricks = {side: settings.trick_points if side == bidders else 0 for side in settings.sides}
    return {**hand, "tricks": tricks}
