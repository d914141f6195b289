"""Starting and deleting a game."""

from __future__ import annotations

import uuid
from collections.abc import Mapping

from django.db import transaction

from scoring.models import Game, GameSeat, GameSetup
from scoring.rules.engine import score_game
from scoring.rules.settings import parse_settings
from scoring.services.results import store_result


@transaction.atomic
def create_game(
    *,
    seats: int,
    variant: str,
    deck: str,
    target: int | None,
    min_bid: int | None,
    first_dealer: str,
    meld_needs_trick: bool,
    players: Mapping[str, str],
    setup_token: uuid.UUID | None = None,
    deals: int | None = None,
    bid_steps: str = "standard",
    meld_counts_from: int | None = None,
    spread: int | None = None,
    confirm_hands: bool = False,
    sign_at_end: bool = False,
    scale: int = 1,
) -> Game:
    """Start a game; its settings are checked by the engine first (RecordError names the field).

    `deals`: a game of that many deals (docs/rules.md, "A fixed number of deals"); None plays to
    the target. `bid_steps`, `meld_counts_from`, `spread` and `scale`: the house rules of the same
    names (docs/rules.md), off by default.

    `confirm_hands` and `sign_at_end`: how the game is made final at the table (a club's rule,
    scoring/services/confirm.py); off by default.

    `setup_token` is the setup form's one-time token: a second game with the same token is refused
    by a unique constraint (IntegrityError), so the caller opens the first one instead.
    """
    game = Game(
        seats=seats,
        variant=variant,
        deck=deck,
        target=target,
        min_bid=min_bid,
        first_dealer=first_dealer,
        meld_needs_trick=meld_needs_trick,
        deals=deals,
        bid_steps=bid_steps,
        meld_counts_from=meld_counts_from,
        spread=spread,
        confirm_hands=confirm_hands,
        sign_at_end=sign_at_end,
        scale=scale,
    )
    settings = parse_settings({**game.settings_record(), "players": dict(players)})
    game.save()
    if setup_token is not None:
        GameSetup.objects.create(token=setup_token, game=game)
    seat_rows = GameSeat.objects.bulk_create(
        GameSeat(game=game, seat=seat, name=settings.players.get(seat, "").strip())
        for seat in settings.seat_letters
    )
    store_result(
        game=game, result=score_game(settings, []), hand_data=[], seat_rows=seat_rows, first_changed=1
    )
    return game


@transaction.atomic
def delete_game(*, game: Game) -> None:
    """Delete a game with its seats, hands, corrections and statistics (they cascade); the
    ratings of its scopes are worked out again (ratings/receivers.py listens to the deletion)."""
    game.delete()
