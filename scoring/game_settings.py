"""Changing a game's settings after Start: the names, the first dealer, the target, the
minimum bid and the house rules (meld needs a trick, the deals, the bid steps, meld counts from N,
the winning spread, points ×10).

Every change rescores the whole game through the one write path (`score`, the engine's
`check_record`, then `store_result`) under the lock every write of hands takes, so a
change the recorded hands do not allow (a bid below a new minimum, a target that ends the game
before hands already recorded) raises the engine's RecordError and writes nothing. The first
dealer moves the dealer of every hand; a new target may end an open game or reopen a finished one,
and Check Pinochle's chips follow the rescore. An accepted change is one entry of the corrections
trail (`HandChange.Action.SETTINGS`, hand number 0), holding the changed settings only.

Settings are compared as the table sees them: an empty target or minimum bid is the rule book's
default, so typing the default over an empty field is no change. Seats, variant and deck never
change: every recorded hand is written for them.
"""

from __future__ import annotations

import datetime
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import transaction

from scoring.audit import Actor, record_hand_change
from scoring.models import Game, GameSeat, HandChange
from scoring.rules.engine import GameResult
from scoring.rules.settings import Settings, parse_settings
from scoring.services.hands import lock_game
from scoring.services.results import SETTINGS_FIELDS, score, store_result


class Keep(enum.Enum):
    """A house rule a change leaves as the game has it (`NewSettings`)."""

    KEEP = "keep"


KEEP = Keep.KEEP
_T = TypeVar("_T")


def _kept(new: _T | Keep, old: _T) -> _T:
    return old if new is KEEP else new


@dataclass(frozen=True)
class NewSettings:
    """What the settings page asks for. `target` and `min_bid` None: the rule book's default."""

    players: Mapping[str, str]
    first_dealer: str
    target: int | None
    min_bid: int | None
    meld_needs_trick: bool
    # The other house rules (docs/rules.md); left out (KEEP), a change keeps the game's own.
    deals: int | Keep | None = KEEP
    bid_steps: str | Keep = KEEP
    meld_counts_from: int | Keep | None = KEEP
    spread: int | Keep | None = KEEP
    scale: int | Keep = KEEP


@dataclass(frozen=True)
class Outcome:
    """A settings change worked out: the changed settings as the table sees them (`before` and
    `after` hold the changed keys only, names by seat under "players") and the engine's result for
    the recorded hands before and after. `saved` is False for a preview or a change of nothing."""

    before: dict[str, Any]
    after: dict[str, Any]
    result_before: GameResult
    result_after: GameResult
    saved: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.after)

    @property
    def ending_changes(self) -> bool:
        """Whether the game's end changes: it ends now, opens again, or another side wins."""
        old, new = self.result_before, self.result_after
        return (old.finished, old.winner, old.ended_after) != (new.finished, new.winner, new.ended_after)

    @property
    def ending_token(self) -> str:
        """The end this change leads to, for the page's confirmation of it."""
        new = self.result_after
        return f"{int(new.finished)}-{new.winner or ''}-{new.ended_after or 0}"


class SettingsMovedOn(Exception):
    """The game changed (a hand saved, corrected or deleted, or its settings changed) since the
    settings page was drawn: `version` is the game's version now. Nothing is written."""

    def __init__(self, version: str) -> None:
        super().__init__(f"the game is now at version {version}")
        self.version = version


def version(game: Game) -> str:
    """Changes with every write of the game (hands, summary, settings): what the settings page
    saw, sent back with its Save (the same figures as the live poll's version)."""
    return version_of(game.hand_count, game.updated_at)


def version_of(hand_count: int, updated_at: datetime.datetime) -> str:
    """`version` from the two columns it reads (the share link's poll reads only these)."""
    return f"{hand_count}-{updated_at.timestamp():.6f}"


def shown(settings: Settings, players: Mapping[str, str]) -> dict[str, Any]:
    """The editable settings as the table sees them: defaults filled in, every seat's name."""
    return {
        "players": {seat: players.get(seat, "") for seat in settings.seat_letters},
        "first_dealer": settings.first_dealer,
        "target": settings.target,
        "min_bid": settings.min_bid,
        "meld_needs_trick": settings.meld_needs_trick,
        "deals": settings.deals,
        "bid_steps": settings.bid_steps,
        "meld_counts_from": settings.meld_counts_from,
        "spread": settings.spread,
        "scale": settings.scale,
    }


def _candidate(game: Game, new: NewSettings) -> Game:
    """An unsaved copy of the game with the new settings (the engine reads it as a record)."""
    return Game(
        pk=game.pk,
        seats=game.seats,
        variant=game.variant,
        deck=game.deck,
        target=new.target,
        min_bid=new.min_bid,
        first_dealer=new.first_dealer,
        meld_needs_trick=new.meld_needs_trick,
        deals=_kept(new.deals, game.deals),
        bid_steps=_kept(new.bid_steps, game.bid_steps),
        meld_counts_from=_kept(new.meld_counts_from, game.meld_counts_from),
        spread=_kept(new.spread, game.spread),
        scale=_kept(new.scale, game.scale),
    )


def _differences(old: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    before: dict[str, Any] = {}
    after: dict[str, Any] = {}
    for key, value in new.items():
        if key == "players":
            seats = [seat for seat, name in value.items() if old["players"].get(seat, "") != name]
            if seats:
                before["players"] = {seat: old["players"].get(seat, "") for seat in seats}
                after["players"] = {seat: value[seat] for seat in seats}
        elif old[key] != value:
            before[key], after[key] = old[key], value
    return before, after


def _work_out(
    game: Game, seat_rows: list[GameSeat], hand_data: list[dict[str, Any]], new: NewSettings
) -> tuple[Outcome, Game]:
    """The change against the game as read: RecordError when the rules refuse the new settings
    for the recorded hands (the engine names the hand and field)."""
    players = {row.seat: row.name for row in seat_rows}
    candidate = _candidate(game, new)
    names = {seat: name.strip() for seat, name in new.players.items()}
    # The new names are checked by the engine too (a seat of this table, not too long).
    new_settings = parse_settings({**candidate.settings_record(), "players": names})
    old_settings = parse_settings(game.settings_record())
    before, after = _differences(shown(old_settings, players), shown(new_settings, names))
    # The default typed over an empty field is no change: the game keeps "the rule book's".
    for name in ("target", "min_bid"):
        if name not in after:
            setattr(candidate, name, getattr(game, name))
    result_before = score(game, hand_data)
    result_after = score(candidate, hand_data) if after else result_before
    return Outcome(before, after, result_before, result_after), candidate


def preview_settings(*, game: Game, new: NewSettings) -> Outcome:
    """What the new settings would do to the game as it stands, writing nothing."""
    seat_rows = list(game.seat_rows.all())
    hand_data = [row.data for row in game.hands.order_by("number")]
    return _work_out(game, seat_rows, hand_data, new)[0]


@transaction.atomic
def change_settings(*, game: Game, new: NewSettings, expected: str | None, actor: Actor | None) -> Outcome:
    """Change the game's settings and rescore it: one transaction, under the game's lock.

    A change of nothing writes nothing (a second tap of Save). Otherwise SettingsMovedOn when the
    game is no longer at version `expected` (another phone wrote meanwhile), RecordError when the
    recorded hands do not allow the new settings; in both cases nothing is written. The caller's
    `game` holds the stored settings and summary afterwards.
    """
    seat_rows, rows = lock_game(game)  # reads the game's stored settings, summary and version onto `game`
    hand_data = [row.data for row in rows]
    outcome, candidate = _work_out(game, seat_rows, hand_data, new)
    if not outcome.changed:
        return outcome
    if expected is not None and expected != version(game):
        raise SettingsMovedOn(version(game))
    for name in SETTINGS_FIELDS:
        setattr(game, name, getattr(candidate, name))
    game.save(update_fields=[*SETTINGS_FIELDS, "updated_at"])
    renamed = outcome.after.get("players", {})
    for row in seat_rows:
        if row.seat in renamed:
            row.name = renamed[row.seat]
    GameSeat.objects.bulk_update([row for row in seat_rows if row.seat in renamed], ["name"])
    record_hand_change(
        game=game,
        hand_number=0,
        action=HandChange.Action.SETTINGS,
        old_data=outcome.before,
        new_data=outcome.after,
        actor=actor,
    )
    store_result(
        game=game, result=outcome.result_after, hand_data=hand_data, seat_rows=seat_rows, first_changed=1
    )
    return Outcome(outcome.before, outcome.after, outcome.result_before, outcome.result_after, saved=True)


__all__ = [
    "NewSettings",
    "Outcome",
    "SettingsMovedOn",
    "change_settings",
    "preview_settings",
    "shown",
    "version",
]
