"""Reads for the opponents' OK of each hand and the signatures of a finished game
(scoring/services/confirm.py writes them): which hands wait for the OK, which side gives it, and
what the game's page shows of both (`finality`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scoring.labels import side_label
from scoring.models import Game, GameSignature, Hand
from scoring.permissions import signed_lock_message
from scoring.rules.tables import SEAT_ORDER, side_of, sides_for
from scoring.selectors.board import Scoreboard, settings_of
from scoring.selectors.preview import describe
from scoring.services.confirm import hand_version


def confirming_sides(game: Game, number: int, data: Mapping[str, Any]) -> list[str]:
    """The sides that confirm hand `number`: the defenders, the sides other than the bidder's; for
    a hand without a bidder (all passed, or a two-handed hand without bidding), the sides other
    than the dealer's."""
    seat = data.get("bidder")
    if not isinstance(seat, str) or seat not in SEAT_ORDER:
        seat = settings_of(game).dealer(number)  # the engine's rule of the deal
    own = side_of(seat, game.seats)
    return [side for side in sides_for(game.seats) if side != own]


def awaiting(game: Game) -> list[Hand]:
    """The game's hands that wait for the other side's OK, in order (none for a game without the rule)."""
    if not game.confirm_hands or not game.unconfirmed_hands:
        return []
    return list(Hand.objects.filter(game_id=game.pk, confirmed_at__isnull=True).order_by("number"))


@dataclass(frozen=True)
class AwaitingOk:
    """The first hand that waits for the other side's OK, as the scoring phone shows it: its
    number, its version (`hand_version`, what the OK names), the lines the engine gives for it and
    the sides asked for it ("E–W (Bo & David)")."""

    number: int
    seen: str
    lines: list[str]
    sides: str


@dataclass(frozen=True)
class SideSignature:
    """One side of a finished game on its page: signed (when, by whom) or not yet."""

    side: str
    label: str
    at: datetime | None = None
    by: str = ""


@dataclass(frozen=True)
class Signing:
    """The signatures of a finished game that asks for them: each side's, whether this page offers
    the Sign buttons, and where they post."""

    sides: list[SideSignature]
    can_sign: bool
    action: str


@dataclass(frozen=True)
class Finality:
    """What the game's page shows of the opponents' OK and the signatures: the numbers of the
    hands that wait for their OK (the history marks them), the first of them for the scoring
    phone's OK, the signatures once the game is over, and the note of a game both sides signed."""

    unconfirmed: frozenset[int] = frozenset()
    awaiting: AwaitingOk | None = None
    signing: Signing | None = None
    signed_note: str = ""


def ok_question(game: Game, board: Scoreboard, waiting: list[Hand]) -> AwaitingOk | None:
    """The question the scoring phone puts to the other side ("Hand 7 saved: is it right?"): the
    first hand of `waiting` (`awaiting(game)`), what it does, the version the OK names and the
    sides that give it. The game page and a club night's table link ask it alike."""
    if not waiting or waiting[0].number > len(board.result.hands):
        return None
    hand = waiting[0]
    sides = confirming_sides(game, hand.number, hand.data)
    return AwaitingOk(
        number=hand.number,
        seen=hand_version(hand.data),
        lines=describe(board.result, hand.number, hand.data),
        sides=" & ".join(side_label(side, board.players) for side in sides),
    )


def finality(
    game: Game, board: Scoreboard, *, scoring: bool, may_sign: Callable[[], bool], sign_url: str
) -> Finality:
    """The OK and signatures of the game's page. `scoring`: the page of the phone that enters the
    hands (it asks for the OK); `may_sign()`: whether this reader may sign (asked only for a game
    that waits for its signatures). Queries: the waiting hands, only while one waits; the
    signatures, only for a finished game that asks for them. Nothing for a game without the rules."""
    waiting = awaiting(game)
    shown = ok_question(game, board, waiting) if scoring else None
    signing = None
    if game.sign_at_end and game.finished:
        signed = {row.side: row for row in GameSignature.objects.filter(game_id=game.pk)}
        signing = Signing(
            sides=[_side_signature(side, board.players, signed.get(side)) for side in sides_for(game.seats)],
            can_sign=not waiting and may_sign(),
            action=sign_url,
        )
    return Finality(
        unconfirmed=frozenset(hand.number for hand in waiting),
        awaiting=shown,
        signing=signing,
        signed_note=signed_lock_message(game) if game.signed_at is not None else "",
    )


def _side_signature(side: str, players: Mapping[str, str], row: GameSignature | None) -> SideSignature:
    label = side_label(side, players)
    if row is None:
        return SideSignature(side=side, label=label)
    return SideSignature(side=side, label=label, at=row.signed_at, by=row.signer_name())
