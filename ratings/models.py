"""Derived rating rows: rewritten from the games by ratings.services, never edited by hand.

A *scope* is the set of games one rating run covers: "all" (every counted game), "club:<id>" or
"season:<id>". Each scope has its own openskill run, so a player has one rating per scope.
"""

from __future__ import annotations

from django.db import models

from ratings.compute import PROVISIONAL_GAMES, display_rating


class RatingScope(models.Model):
    """The last game rated in a scope: a game that sorts after it can be rated alone."""

    scope = models.CharField(max_length=24, unique=True)
    last_day = models.DateField(null=True)
    last_game = models.PositiveBigIntegerField(null=True)
    games = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return self.scope


class PlayerRating(models.Model):
    scope = models.CharField(max_length=24)
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    display = models.IntegerField()
    conservative = models.FloatField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "player"], name="one_rating_per_scope")]
        indexes = [models.Index(fields=["scope", "-conservative"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.scope} {self.player_id}: {self.display}"

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


class RatingPoint(models.Model):
    """A player's rating just after one game, and how their side placed in it."""

    scope = models.CharField(max_length=24)
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="rating_points")
    game = models.ForeignKey("scoring.Game", on_delete=models.CASCADE, related_name="rating_points")
    seq = models.PositiveIntegerField()  # the player's n-th rated game in this scope
    day = models.DateField()
    side = models.PositiveSmallIntegerField()  # the side's index in the game (sides sorted by player ids)
    rank = models.PositiveSmallIntegerField()  # the side's place, 0 the best; equal places are a draw
    chips = models.IntegerField(null=True)  # the side's chips, Check Pinochle only
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "player", "seq"], name="one_point_per_game_number"),
            models.UniqueConstraint(fields=["scope", "game", "player"], name="one_point_per_game_player"),
        ]
        indexes = [models.Index(fields=["game", "scope"], name="rating_point_game")]

    def __str__(self) -> str:
        return f"{self.scope} {self.player_id} #{self.seq}"

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)


class PairRating(models.Model):
    """A partnership's rating (a pair of partners rated as one unit, 4-seat games only)."""

    scope = models.CharField(max_length=24)
    player_a = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    display = models.IntegerField()
    conservative = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["scope", "player_a", "player_b"], name="one_pair_rating_per_scope"
            )
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.player_a_id}+{self.player_b_id}: {self.display}"
