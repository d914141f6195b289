"""Making a game final at the table (a club's rule, copied to the game when it is made): the side
that did not bid confirms each saved hand (`confirm_hand`), and both sides sign the finished game
(`sign_game`), after which only an organiser of its club changes it (scoring/permissions.py).

Each write runs under the game's lock (`lock_game`), as every write of hands does."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring import signals
from scoring.audit import Actor
from scoring.models import Game, GameSignature
from scoring.rules.tables import sides_for


class CannotSign(Exception):
    """The game cannot be signed by this side now; `reason` says why (nothing is written):
    "off" (the game does not ask for it), "not_over", "unconfirmed" (a hand still waits for its OK),
    "signed" (this side signed already), "side" (no such side at this table)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class HandChangedMeanwhile(Exception):
    """The hand the other side said OK to is no longer what they saw (another phone corrected it
    meanwhile): nothing is written, and the phone shows the hand as it is now."""


def hand_version(data: Mapping[str, Any]) -> str:
    """What the OK names: the hand as the other side saw it (its values, not when it was saved)."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def count_unconfirmed(game: Game, confirmed_at: Iterable[datetime | None]) -> None:
    """Inside a write of the game's hands (under the game's lock), given the `confirmed_at` of
    every hand it leaves: the game's count of hands that wait for their OK (the standings read it),
    set on `game` for that write's one save of the game row (`store_result`)."""
    game.unconfirmed_hands = sum(1 for at in confirmed_at if at is None) if game.confirm_hands else 0


def drop_stale_signatures(game: Game, before: tuple[bool, str, Any]) -> list[str]:
    """Inside a write of the game's result (`store_result`, under the game's lock), given its
    (finished, winner, scores) before it: a signature stands only for the result it signed. A game
    that is no longer over is signed by nobody (its table plays on, both sides sign its new end);
    a game not yet signed by both sides whose result changed loses the signatures it had (those
    sides sign the new result). A game both sides signed keeps them through an organiser's
    correction that leaves it over (the only change such a game takes). Returns the fields to save.

    Only a game that was over can have been signed: a game in play costs no query."""
    if not (game.sign_at_end and before[0]):
        return []
    if game.finished and (game.signed_at is not None or before == (game.finished, game.winner, game.scores)):
        return []
    GameSignature.objects.filter(game_id=game.pk).delete()
    if game.signed_at is None:
        return []
    game.signed_at = None
    return ["signed_at"]


@transaction.atomic
def confirm_hand(*, game: Game, number: int, seen: str | None = None) -> bool:
    """The other side's OK for hand `number`. False (nothing written) when there is nothing to
    confirm: the game does not ask for it, the hand is gone, or it was confirmed already. With
    `seen` (the `hand_version` the phone showed), HandChangedMeanwhile when the hand was corrected
    since: an OK is for the values the other side checked, never for ones it has not seen."""
    from scoring.services.hands import lock_game

    if not game.confirm_hands:
        return False
    _seats, rows = lock_game(game)
    hand = next((row for row in rows if row.number == number), None)
    if hand is None or hand.confirmed_at is not None:
        return False
    if seen is not None and seen != hand_version(hand.data):
        raise HandChangedMeanwhile(number)
    hand.confirmed_at = timezone.now()
    hand.save(update_fields=["confirmed_at"])
    count_unconfirmed(game, (row.confirmed_at for row in rows))
    game.save(update_fields=["unconfirmed_hands", "updated_at"])  # the pages' polls see the change
    if game.finished and not game.unconfirmed_hands:
        # The result is final now: a club night may plan its next round from it.
        signals.game_changed.send(sender=Game, game=game, was_finished=None)
    return True


@transaction.atomic
def sign_game(*, game: Game, side: str, actor: Actor | None = None) -> bool:
    """`side` signs the finished game, tapped by `actor` (a signed-in account, or the scoring
    phone); True when it was the last side to sign (the game is signed and locked from then on).
    CannotSign says why not, and nothing is written."""
    from scoring.services.hands import lock_game

    lock_game(game)  # reads the game's state as it is now onto `game`
    if not game.sign_at_end:
        raise CannotSign("off")
    if side not in sides_for(game.seats):
        raise CannotSign("side")
    if not game.finished:
        raise CannotSign("not_over")
    if game.unconfirmed_hands:
        raise CannotSign("unconfirmed")
    signed = set(GameSignature.objects.filter(game_id=game.pk).values_list("side", flat=True))
    if side in signed:
        raise CannotSign("signed")
    actor = actor or Actor.device()
    now = timezone.now()
    GameSignature.objects.create(
        game=game, side=side, signed_at=now, signer=actor.user, signer_label=actor.label
    )
    complete = set(sides_for(game.seats)) <= signed | {side}
    game.signed_at = now if complete else None
    game.save(update_fields=["signed_at", "updated_at"])
    return complete
