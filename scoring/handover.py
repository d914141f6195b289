"""Writes that change who may edit a game: which phone scores it (handover, recovery code, table
link), share code.

Tokens are 256-bit secrets from `secrets`; only their SHA-256 is stored, so a copy of the database
does not give anyone the edit right to a game. The recovery code is not stored at all: it is
derived from SECRET_KEY and the game's code, so it can be shown again on the scoring phone.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from scoring.audit import Actor, record_hand_change
from scoring.models import Device, DeviceGame, Game, HandChange
from throttles.counter import hold

#: The recovery code's letters: no 0/O, 1/I/L, 2/Z, 5/S, 8/B, 6/G look-alikes.
RECOVERY_ALPHABET = "ACDEFHJKMNPQRTUVWXY3479"
RECOVERY_LENGTH = 6


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Constant-time check of a presented token against a stored hash; an empty hash never matches."""
    return bool(stored_hash) and hmac.compare_digest(token_hash(token), stored_hash)


def record_creator(*, game: Game, user: AbstractBaseUser | AnonymousUser | None) -> None:
    """A signed-in user who starts a game is recorded as its creator (if none is yet), which
    keeps their edit right on any device they sign in on."""
    if isinstance(user, User) and user.is_authenticated and game.created_by_id is None:
        game.created_by = user
        game.save(update_fields=["created_by"])


def start_handover(*, game: Game) -> str:
    """A one-time secret that passes the edit right to the device that claims it (a newer one
    replaces an older one); it expires after HANDOVER_LINK_MINUTES, or when another phone gets the
    scoring first (`hand_scoring_to`). Call it with the game's row locked, after checking the right
    again under the lock: a take-over between the check and the link would leave the phone that
    lost the scoring a link to take it back."""
    token = secrets.token_urlsafe(32)
    game.handover_token_hash = token_hash(token)
    game.handover_expires_at = timezone.now() + timedelta(minutes=settings.HANDOVER_LINK_MINUTES)
    game.save(update_fields=["handover_token_hash", "handover_expires_at"])
    return token


def handover_is_open(*, game: Game, token: str) -> bool:
    """Whether `token` is the game's current, unexpired handover secret (nothing is changed)."""
    expires = game.handover_expires_at
    return expires is not None and expires > timezone.now() and token_matches(token, game.handover_token_hash)


def hand_scoring_to(locked: Game, *, device: Device, holder: AbstractBaseUser | None) -> bool:
    """The one rule for "one phone scores a game": every other device loses the game's scoring
    right (it follows the game read-only), then `device` gets an active right held for `holder`
    (the account signed in on it, if any). Call it inside a transaction with the game's row
    locked (`select_for_update`), so that two phones claiming it at once are served one after the
    other. An open handover link is ended with it: a link made by a phone that no longer scores
    moves nothing. Returns whether another device was scoring it."""
    locked.handover_token_hash = ""
    locked.handover_expires_at = None
    locked.save(update_fields=["handover_token_hash", "handover_expires_at"])
    taken = (
        DeviceGame.objects.filter(game=locked, active=True).exclude(device=device).update(active=False) > 0
    )
    DeviceGame.objects.update_or_create(
        device=device, game=locked, defaults={"active": True, "holder": holder}
    )
    return taken


@transaction.atomic
def claim_handover(*, game: Game, token: str, device: Device, holder: AbstractBaseUser | None = None) -> bool:
    """Use the handover secret once: `device` gets the scoring (held for `holder`, the account
    signed in on it, if any) and every other device loses it (it follows the game read-only);
    False when the secret is wrong, used or expired."""
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if not handover_is_open(game=locked, token=token):
        return False
    hand_scoring_to(locked, device=device, holder=holder)  # which ends the link: used once
    game.refresh_from_db()
    return True


# --- the recovery code: another phone takes over a game whose scoring phone is gone -------------


def recovery_code(game: Game) -> str:
    """The game's 6-letter recovery code (23**6, about 148 million codes): shown at setup and on
    the scoring phone. It is an HMAC of the game's code under SECRET_KEY (salted for this one
    purpose), so it is never stored."""
    digest = salted_hmac("scoring.handover.recovery-code", game.code, algorithm="sha256").digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _index in range(RECOVERY_LENGTH):
        number, rest = divmod(number, len(RECOVERY_ALPHABET))
        letters.append(RECOVERY_ALPHABET[rest])
    return "".join(letters)


def normalise_code(text: str) -> str:
    """What a person typed, as a code: capitals, with spaces and dashes dropped."""
    return "".join(char for char in text.upper() if char.isalnum())[:20]


def _failure_limits(game: Game, device: Device, address: str) -> dict[str, tuple[str, int]]:
    """The counts a wrong code adds to, each with its limit: this browser's guesses at this game,
    this address's at this game, and everyone's at this game (all per game, so that one guesser
    blocks neither another game nor, with a few wrong codes, the phone that lost the scoring)."""
    return {
        "device": (f"{game.pk}:{device.pk}", settings.RECOVERY_FAILURES_PER_CLIENT),
        "address": (f"{game.pk}:{address}", settings.RECOVERY_FAILURES_PER_ADDRESS),
        "game": (str(game.pk), settings.RECOVERY_FAILURES_PER_GAME),
    }


@transaction.atomic
def take_over_with_code(
    *,
    game: Game,
    code: str,
    device: Device,
    address: str,
    actor: Actor,
    holder: AbstractBaseUser | None = None,
) -> bool | None:
    """Give `device` the scoring of the game if `code` is its recovery code (held for `holder`,
    the account signed in on it, if any): every other device
    loses it (it follows the game read-only) and the corrections trail records the take-over.
    True when taken over, False for a wrong code, None when refused unchecked (too many wrong
    codes for this game from this browser, from this address or from everyone).

    The counts are held (`throttles.counter.hold`) from the check to the count, so the guesses at
    one game are counted one after the other: parallel wrong codes cannot all read the count
    before any of them adds to it."""
    failures = hold(
        kind="recovery",
        limits=_failure_limits(game, device, address),
        window=settings.RECOVERY_FAILURE_WINDOW_SECONDS,
    )
    if failures.full():
        return None
    if not hmac.compare_digest(normalise_code(code), recovery_code(game)):
        failures.add()
        return False
    _give_scoring(game, device=device, actor=actor, holder=holder, always_record=True)
    return True


@transaction.atomic
def take_over_with_link(
    *, game: Game, device: Device, actor: Actor, holder: AbstractBaseUser | None = None
) -> bool:
    """Give `device` the scoring of the game because it opened a link that grants it (a club
    night's table link): like the recovery code, every other device loses it, and when another
    device was scoring, the take-over is written to the corrections trail. Returns whether
    another device was scoring it."""
    return _give_scoring(game, device=device, actor=actor, holder=holder, always_record=False)


def _give_scoring(
    game: Game, *, device: Device, actor: Actor, holder: AbstractBaseUser | None, always_record: bool
) -> bool:
    locked = Game.objects.select_for_update().get(pk=game.pk)
    taken = hand_scoring_to(locked, device=device, holder=holder)
    if taken or always_record:
        record_hand_change(
            game=locked,
            hand_number=0,
            action=HandChange.Action.TAKE_OVER,
            old_data={},
            new_data=None,
            actor=actor,
        )
    return taken
