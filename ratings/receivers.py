"""Signal receivers: the stored ratings follow every change of the games they come from."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, pre_delete
from django.dispatch import receiver

from clubs.models import Player
from ratings import services
from scoring.models import Game
from scoring.signals import game_changed, games_changed


@receiver(game_changed)
def _game_changed(sender: Any, *, game: Game, was_finished: bool | None = None, **kwargs: Any) -> None:
    if was_finished is False and not game.finished:
        # Only finished games are rated, and a game that stops being finished loses its points at
        # that change: a game in progress before and after has none to look at (a query per save).
        return
    services.game_changed(game)


@receiver(games_changed)
def _games_changed(sender: Any, *, games: list[Game], **kwargs: Any) -> None:
    """Many games' results rewritten at once: the scopes they were or now are in, recomputed once."""
    before = services.scopes_of_games([game.pk for game in games])
    now = services.scopes_for_clubs({game.club_id for game in games if game.finished})
    services.recompute_scopes(before | now)


@receiver(post_delete, sender=Game)
def _game_deleted(sender: Any, instance: Game, **kwargs: Any) -> None:
    """Rerate the scopes the deleted game could be rated in, in the deleting transaction (a delete
    that fails takes the recompute back with it). Only a shown finished game is rated, and only in
    all-time and its club (`scopes_for_clubs`); a game in progress or a hidden import's costs
    nothing. Read from the game itself: its rating points went with it, and nothing is kept
    between a pre_delete and this signal (all the games of one delete are gone by now)."""
    if instance.finished and not instance.hidden:
        services.recompute_scopes(services.scopes_for_clubs({instance.club_id}))


@receiver(pre_delete, sender=Player)
def _player_deleting(sender: Any, instance: Player, **kwargs: Any) -> None:
    """A merged duplicate goes after its seats moved to the kept player: rerate where it played, in
    the deleting transaction, read and rerated before its rows go. A player still seated cannot be
    deleted (the seats PROTECT it), so the games are rerated as they stand."""
    services.recompute_scopes(services.scopes_of_player(instance.pk))
