"""The export: games.csv and hands.csv of the games a user may see, streamed row by row."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from itertools import groupby
from typing import Any

from django.db.models import F, FilteredRelation, Q, QuerySet

from core.spreadsheet import neutralise
from league.csv_io.columns import CHIP_SIDES, CHUNK, GAMES_POINTS, HANDS_POINTS, SEATS, SIDES
from scoring.models import Game, Hand
from scoring.rules.melds import meld_sum
from scoring.rules.scale import shown
from scoring.rules.tables import chips_in_play

# --- export ------------------------------------------------------------------------------------

_GAME_FIELDS = (
    "id", "code", "played_on", "club__name", "season__name", "place", "note", "variant", "deck", "seats",
    "target", "min_bid", "first_dealer", "meld_needs_trick", "deals", "bid_steps", "meld_counts_from",
    "spread", "scale", "hand_count", "finished", "scores", "chip_totals", "winner",
)  # fmt: skip


def _settings_cells(game: dict[str, Any], names: dict[str, str]) -> list[object]:
    return [neutralise(cell) for cell in _raw_settings_cells(game, names)]


def _raw_settings_cells(game: dict[str, Any], names: dict[str, str]) -> list[object]:
    return [
        game["code"], game["played_on"].isoformat() if game["played_on"] else "", game["club__name"] or "",
        game["season__name"] or "", game["place"], game["note"], game["variant"], game["deck"], game["seats"],
        game["target"], game["min_bid"], game["first_dealer"], game["meld_needs_trick"], game["deals"],
        game["bid_steps"], game["meld_counts_from"], game["spread"], game["scale"],
        *(names.get(seat, "") for seat in SEATS),
    ]  # fmt: skip


def _seat_name_fields() -> tuple[dict[str, FilteredRelation], list[str]]:
    """Per seat, the seat's row (a game has at most one per seat) and the fields of its name."""
    relations = {
        f"seat_{seat}": FilteredRelation("seat_rows", condition=Q(seat_rows__seat=seat)) for seat in SEATS
    }
    fields = [f"{alias}__{field}" for alias in relations for field in ("name", "player__name")]
    return relations, fields


def _games_and_names(games: QuerySet[Game]) -> Iterator[tuple[dict[str, Any], dict[str, str]]]:
    """Each game (as a dict) in id order, with its names by seat: one query, its seats joined."""
    relations, name_fields = _seat_name_fields()
    rows = (
        Game.objects.filter(id__in=games.values("id"))
        .alias(**relations)
        .order_by("id")
        .values(*_GAME_FIELDS, *name_fields)
        .iterator(CHUNK)
    )
    for game in rows:
        # A linked player's name, else the name the table typed ("" for a seat left empty).
        names = {seat: game[f"seat_{seat}__player__name"] or game[f"seat_{seat}__name"] for seat in SEATS}
        yield game, {seat: name or "" for seat, name in names.items()}


def games_rows(games: QuerySet[Game]) -> Iterator[list[object]]:
    for game, names in _games_and_names(games):
        scores = game["scores"] or {}
        # As in hands.csv: a Check game with a double deck is played as standard, without chips.
        chips = (game["chip_totals"] or {}) if chips_in_play(game["variant"], game["deck"]) else {}
        cells = [
            *_settings_cells(game, names),
            game["hand_count"],
            neutralise(game["finished"]),
            *(scores.get(side, "") for side in SIDES),
            *(chips.get(side, "") for side in CHIP_SIDES),
            neutralise(game["winner"]),
        ]
        yield _at_scale(cells, GAMES_POINTS, game["scale"])


# Per side, the HandStat columns a hands.csv row needs. A hand and its sides are one row of one
# query: seat N's row holds side NS (or N), E's holds EW (or E); S is its own side only at a 3-seat
# table, and the join skips the lookup elsewhere (5x faster than joining all four seats on a big
# season). Seat meld points come from the hand's meld items, as `stats` computes them.
_SIDE_STAT = ("meld", "tricks", "points", "chips", "total", "chip_total")
_MELD, _TRICKS, _POINTS, _CHIPS, _TOTAL, _CHIP_TOTAL = range(len(_SIDE_STAT))


def _side_stat(seat: str, *, only_at: int | None = None) -> FilteredRelation:
    """The HandStat row of this hand (the outer query's row) seen from `seat`."""
    condition = Q(game__hand_stats__seat=seat, game__hand_stats__number=F("number"))
    if only_at is not None:
        condition &= Q(game__seats=only_at)
    return FilteredRelation("game__hand_stats", condition=condition)


_SIDE_FIELDS = [f"side_{seat}__{name}" for seat in "nes" for name in _SIDE_STAT]


def _hand_records(games: QuerySet[Game]) -> Iterator[tuple[Any, ...]]:
    """(game id, number, data, dealer, result, then _SIDE_STAT of seats N, E and S) per hand, in
    the order of games.csv (by game id), each game's hands in order. An empty `games`: no rows."""
    return (
        Hand.objects.filter(game__in=games.values("id"))
        .alias(side_n=_side_stat("N"), side_e=_side_stat("E"), side_s=_side_stat("S", only_at=3))
        .order_by("game_id", "number")
        .values_list("game_id", "number", "data", "side_n__dealer", "side_n__result", *_SIDE_FIELDS)
        .iterator(CHUNK)
    )


def hands_rows(games: QuerySet[Game]) -> Iterator[list[object]]:
    hands = groupby(_hand_records(games), key=lambda row: row[0])
    pending = next(hands, None)
    for game, names in _games_and_names(games):
        while pending is not None and pending[0] < game["id"]:
            pending = next(hands, None)
        if pending is None or pending[0] != game["id"]:
            continue  # a game with no hands has no rows here
        settings_cells = _settings_cells(game, names)
        chips = chips_in_play(game["variant"], game["deck"])
        scale = game["scale"]
        for row in pending[1]:
            yield _at_scale(
                settings_cells + _hand_cells(row, game["seats"], game["deck"], chips), HANDS_POINTS, scale
            )
        pending = next(hands, None)


def _at_scale(cells: list[object], points: tuple[int, ...], scale: int) -> list[object]:
    """A row's point figures as its game shows them (points ×10, a house rule; docs/csv.md)."""
    if scale != 1:
        for index in points:
            cell = cells[index]
            if cell.__class__ is int:
                cells[index] = shown(cell, scale)
    return cells


_WIDTH = len(_SIDE_STAT)
_BLANK5 = ("", "", "", "", "")
_SIDE_ROW_OF_SEAT = {4: (0, 1, 0, 1), 3: (0, 1, 2, None), 2: (0, 1, None, None)}


@functools.lru_cache(maxsize=10_000)
def _meld_points(text: str, deck: str) -> int:
    """A seat's meld items (as the cell text) -> points; a few hundred combinations occur."""
    return meld_sum(Counter(text.split(" ")), deck, chips_in_play=False)[0]


def _meld_cell(items: list[str] | None, deck: str) -> tuple[str, int]:
    """A seat's meld items as cell text, and their points (hot path: one call per seat and hand)."""
    if not items:
        return "", 0
    text = " ".join(items)
    points = _meld_points(text, deck)
    text = str(neutralise(text))  # engine-checked meld names need none; a hand-edited row might
    return text, points


def _hand_cells(row: tuple[Any, ...], seats: int, deck: str, chips_in_play: bool) -> list[object]:
    """The hand's columns of hands.csv. The export's inner loop: kept flat on purpose."""
    get = row[2].get
    result = row[4]
    n, e = row[5 : 5 + _WIDTH], row[5 + _WIDTH : 5 + 2 * _WIDTH]
    melds = get("melds")
    meld_points = get("meld_points")
    tricks_won = get("tricks_won")
    # Stored hand data was checked by the engine (seat letters, suits, meld names, integers); the
    # text cells are neutralised all the same, in case a row was edited by hand in the admin.
    cells: list[object] = [
        row[1],
        row[3],
        neutralise(get("bidder")),
        neutralise(get("bid")),
        neutralise(get("trump")),
        "1" if get("passed") else "",
        "1" if get("conceded") else "",
        result,
    ]
    if seats == 4:
        if melds is not None:
            mn, pn = _meld_cell(melds.get("N"), deck)
            me, pe = _meld_cell(melds.get("E"), deck)
            ms, ps = _meld_cell(melds.get("S"), deck)
            mw, pw = _meld_cell(melds.get("W"), deck)
            cells += (mn, me, ms, mw, pn, pe, ps, pw)
        elif meld_points is not None:
            cells += ("", "", "", "", "", "", "", "")  # a side's plain meld number is not split
        else:
            cells += ("", "", "", "", n[_MELD], e[_MELD], n[_MELD], e[_MELD])
    else:
        side_rows = (n, e, row[5 + 2 * _WIDTH : 5 + 3 * _WIDTH])
        texts: list[object] = []
        points: list[object] = []
        for seat, side_row in zip(SEATS, _SIDE_ROW_OF_SEAT[seats], strict=True):
            text, meld = _meld_cell(melds.get(seat) if melds else None, deck)
            texts.append(text)
            if side_row is None:
                points.append("")
            else:
                points.append(meld if melds is not None else side_rows[side_row][_MELD])
        cells += texts
        cells += points
    cells += [neutralise(meld_points.get(side)) for side in SIDES] if meld_points else _BLANK5
    played = result != "passed" and result != "conceded"
    if seats == 4:
        cells += (n[_TRICKS], e[_TRICKS], "", "", "") if played else _BLANK5
        cells += [neutralise(tricks_won.get(side)) for side in SIDES] if tricks_won else _BLANK5
        cells += (n[_POINTS], e[_POINTS], "", "", "", n[_TOTAL], e[_TOTAL], "", "", "")
        if chips_in_play:
            cells += (n[_CHIPS], e[_CHIPS], n[_CHIP_TOTAL], e[_CHIP_TOTAL])
        else:
            cells += ("", "", "", "")
        return cells
    s = row[5 + 2 * _WIDTH : 5 + 3 * _WIDTH]
    third = seats == 3
    cells += ("", "", n[_TRICKS], e[_TRICKS], s[_TRICKS] if third else "") if played else _BLANK5
    cells += [neutralise(tricks_won.get(side)) for side in SIDES] if tricks_won else _BLANK5
    cells += ("", "", n[_POINTS], e[_POINTS], s[_POINTS] if third else "")
    cells += ("", "", n[_TOTAL], e[_TOTAL], s[_TOTAL] if third else "")
    cells += ("", "", "", "")  # no chips away from a 4-seat Check Pinochle table
    return cells
