"""One row of hands.csv read into a game's settings, places and hand; a game's hands scored by the
engine, each problem named with its line."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import strict_input
from league.csv_io.columns import SEATS, SIDES
from league.csv_io.problems import FirstOnes, Problem
from league.services import NewGame, repeated_player
from scoring.engine_messages import engine_line
from scoring.rules.engine import check_record
from scoring.rules.errors import RecordError
from scoring.rules.scale import SCALES, typed
from scoring.rules.tables import MAX_NAME_LENGTH


def check_game(record: dict[str, Any], lines: Sequence[int | None], problems: list[Problem]) -> Any:
    """Check a record with the engine; every bad hand is reported at its line. None if refused."""
    # Kept bounded: each error holds its traceback, and a record of a million bad hands (a few
    # bytes each) would otherwise cost the worker hundreds of times the file.
    hand_errors: list[RecordError] = FirstOnes[RecordError]()
    try:
        return check_record(record, hand_errors=hand_errors)
    except RecordError as error:
        for each in hand_errors or [error]:
            line = lines[(each.hand or 1) - 1] if lines else None
            problems.append(Problem(line, engine_line(each)))
        return None


# hands.csv -----------------------------------------------------------------------------------------

REQUIRED_COLUMNS = ["game_id", "seats", "variant", "deck", "hand", "bidder", "bid", "trump"]


class _RowError(Exception):
    pass


def _int(row: dict[str, str], key: str) -> int | None:
    value = row.get(key, "").strip()
    if not value:
        return None
    # A minus sign is read (the engine then names the field's range); `25_0`, `+5` and `٣` are not.
    number = strict_input.whole_number(value, negative=True)
    if number is None:
        raise _RowError(
            _("%(key)s: %(value)s is not a whole number") % {"key": key, "value": repr(value[:20])}
        )
    return number


def _flag(row: dict[str, str], key: str) -> bool:
    value = row.get(key, "").strip().casefold()
    if value in ("", "0", "false", "no"):
        return False
    if value in ("1", "true", "yes"):
        return True
    raise _RowError(_("%(key)s: %(value)s is not 1 or 0") % {"key": key, "value": repr(value[:20])})


def _scale_of(row: dict[str, str]) -> int:
    """The row's scale (points ×10, a house rule): its point columns are read at it. A missing
    column or empty cell is 1; a scale the engine does not know is left to it to refuse."""
    return _int(row, "scale") or 1


def _points(row: dict[str, str], key: str, scale: int) -> int | None:
    """A point column, as stored: typed at the game's scale, so a multiple of it."""
    number = _int(row, key)
    if number is None or scale not in SCALES:
        return number
    stored = typed(number, scale)
    if stored is None:
        raise _RowError(
            _("%(key)s: %(value)s is not a multiple of %(scale)s (the game's points are shown ×%(scale)s)")
            % {"key": key, "value": number, "scale": scale}
        )
    return stored


def _settings_of(row: dict[str, str]) -> dict[str, Any]:
    scale = _scale_of(row)
    return {
        "seats": _int(row, "seats"),
        "variant": row.get("variant", "").strip() or None,
        "deck": row.get("deck", "").strip() or None,
        "target": _points(row, "target", scale),
        "min_bid": _points(row, "min_bid", scale),
        "first_dealer": row.get("first_dealer", "").strip() or None,
        # Each house rule is off when its column is missing or its cell empty (docs/csv.md).
        "options": {
            "meld_needs_trick": _flag(row, "meld_needs_trick"),
            "deals": _int(row, "deals"),
            "bid_steps": row.get("bid_steps", "").strip() or None,
            "meld_counts_from": _points(row, "meld_counts_from", scale),
            "spread": _points(row, "spread", scale),
            "scale": None if scale == 1 else scale,
        },
    }


def _league_of(row: dict[str, str]) -> tuple[dict[str, str], datetime.date | None, dict[str, str]]:
    date_text = row.get("date", "").strip()
    try:
        played_on = datetime.date.fromisoformat(date_text) if date_text else None
    except ValueError:
        raise _RowError(
            _("date: %(value)s is not a date like 2026-03-14") % {"value": repr(date_text[:20])}
        ) from None
    texts = {key: row.get(key, "").strip() for key in ("club", "season", "place", "note")}
    for key in ("club", "season", "place"):
        if len(texts[key]) > 100:
            raise _RowError(_("%(key)s is longer than 100 characters") % {"key": key})
    players = {seat: row.get(f"player_{seat}", "").strip() for seat in SEATS}
    for seat, name in players.items():
        if len(name) > MAX_NAME_LENGTH:
            raise _RowError(
                ngettext(
                    "player_%(seat)s is longer than %(max)s character",
                    "player_%(seat)s is longer than %(max)s characters",
                    MAX_NAME_LENGTH,
                )
                % {"seat": seat, "max": MAX_NAME_LENGTH}
            )
    return texts, played_on, {seat: name for seat, name in players.items() if name}


def _hand_of(row: dict[str, str], scale: int) -> dict[str, Any]:
    if _flag(row, "passed"):
        return {"passed": True}
    hand: dict[str, Any] = {}
    bidder = row.get("bidder", "").strip()
    if bidder:
        hand["bidder"] = bidder
    bid = _points(row, "bid", scale)
    if bid is not None:
        hand["bid"] = bid
    trump = row.get("trump", "").strip()
    if trump:
        hand["trump"] = trump
    meld_points = {side: _points(row, f"meld_points_{side}", scale) for side in SIDES}
    melds = {seat: row.get(f"melds_{seat}", "").split() for seat in SEATS}
    if any(value is not None for value in meld_points.values()):
        hand["meld_points"] = {side: value for side, value in meld_points.items() if value is not None}
    elif any(melds.values()):
        hand["melds"] = {seat: items for seat, items in melds.items() if items}
    if _flag(row, "conceded"):
        hand["conceded"] = True
        return hand
    tricks = {side: _points(row, f"tricks_{side}", scale) for side in SIDES}
    hand["tricks"] = {side: value for side, value in tricks.items() if value is not None}
    won = {side: _int(row, f"tricks_won_{side}") for side in SIDES}
    if any(value is not None for value in won.values()):
        hand["tricks_won"] = {side: value for side, value in won.items() if value is not None}
    return hand


def read_game(
    game_id: str, rows: list[tuple[int, dict[str, str]]], problems: list[Problem]
) -> NewGame | None:
    first_line, first = rows[0]
    try:
        settings = _settings_of(first)
        league, played_on, players = _league_of(first)
    except _RowError as error:
        problems.append(Problem(first_line, str(error)))
        return None
    if not strict_input.is_game_code(game_id):
        problems.append(
            Problem(
                first_line,
                _("game_id: %(value)s is not a game code (1 to 16 letters, digits, - or _)")
                % {"value": repr(game_id[:20])},
            )
        )
        return None
    hands: dict[int, tuple[int, dict[str, Any]]] = {}
    bad = False
    for line, row in rows:
        try:
            if (_settings_of(row), _league_of(row)) != (settings, (league, played_on, players)):
                raise _RowError(
                    _("game %(game)s: its settings, date or players differ from line %(line)s")
                    % {"game": game_id, "line": first_line}
                )
            number = _int(row, "hand")
            if number is None or number < 1:
                raise _RowError(_("hand: the hand number is missing"))
            if number in hands:
                raise _RowError(
                    _("hand %(hand)s of game %(game)s is also on line %(line)s")
                    % {"hand": number, "game": game_id, "line": hands[number][0]}
                )
            hands[number] = (line, _hand_of(row, _scale_of(row)))
        except _RowError as error:
            problems.append(Problem(line, str(error)))
            bad = True
    if bad:
        return None
    numbers = sorted(hands)
    if numbers != list(range(1, len(numbers) + 1)):
        gap = next(n for n in range(1, len(numbers) + 2) if n not in hands)
        problems.append(
            Problem(first_line, _("game %(game)s: hand %(hand)s is missing") % {"game": game_id, "hand": gap})
        )
        return None
    lines = [hands[n][0] for n in numbers]
    hand_data = [hands[n][1] for n in numbers]
    record = {**settings, "players": players, "hands": hand_data}
    result = check_game(record, lines, problems)
    if result is None:
        return None
    if league["club"] and (problem := repeated_player(players)):
        problems.append(Problem(first_line, problem))
        return None
    return NewGame(
        settings=settings,
        players=players,
        hands=hand_data,
        result=result,
        code=game_id,
        club=league["club"],
        season=league["season"],
        played_on=played_on,
        place=league["place"],
        note=league["note"],
        line=first_line,
    )
