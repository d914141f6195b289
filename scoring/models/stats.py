"""Derived statistics of hands and games, rewritten with every change of hands."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models.games import Game, GameSeat, seat_order

# --- derived statistics ---------------------------------------------------------------------
# HandStat and GameStat are DERIVED: `scoring.stats.refresh_game` rewrites a game's rows from the
# engine's GameResult in the same transaction as every change of its hands. They refer to seats
# (GameSeat), never to players, so linking a seat to a player or merging two players needs no
# rewrite: the statistics follow the seat's `player`.


class HandStat(models.Model):
    """One hand seen from one seat, as the engine scored it. Side figures repeat for partners."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hand_stats")
    seat_row = models.ForeignKey(GameSeat, on_delete=models.CASCADE, related_name="hand_stats")
    # The partner's seat at a 4-seat table (NS, EW), so partnerships aggregate without a self-join.
    partner_row = models.ForeignKey(GameSeat, on_delete=models.CASCADE, null=True, related_name="+")
    number = models.PositiveIntegerField()
    seat = models.CharField(max_length=1)
    side = models.CharField(max_length=2)
    dealer = models.CharField(max_length=1)
    result = models.CharField(max_length=10)  # made, set, conceded, passed, nobid
    is_bidder = models.BooleanField(default=False)
    side_bid = models.BooleanField(default=False)
    bid = models.PositiveIntegerField(null=True)
    # 0..3 for the bands 20–24, 25–29, 30–34, 35+ (double deck ×2.5: 50–60, 65–70, 75–85, 90+).
    bid_band = models.PositiveSmallIntegerField(null=True)
    trump = models.CharField(max_length=10, blank=True)
    seat_meld = models.IntegerField(null=True)  # None when the side's meld was entered as a number
    meld = models.IntegerField(default=0)
    tricks = models.IntegerField(default=0)
    points = models.IntegerField(default=0)
    chips = models.IntegerField(default=0)
    total = models.IntegerField(default=0)
    chip_total = models.IntegerField(default=0)

    class Meta:
        ordering = ["game_id", "number", seat_order()]
        constraints = [
            models.UniqueConstraint(fields=["game", "number", "seat"], name="one_stat_per_hand_seat")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.number} {self.seat}"


class GameStat(models.Model):
    """One game seen from one seat: its outcome and the roll-up of its HandStat rows."""

    class Outcome(models.TextChoices):
        OPEN = "", _("in progress")
        WIN = "win", _("win")
        LOSS = "loss", _("loss")
        DRAW = "draw", _("draw")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="game_stats")
    seat_row = models.OneToOneField(GameSeat, on_delete=models.CASCADE, related_name="stat")
    partner_row = models.ForeignKey(GameSeat, on_delete=models.CASCADE, null=True, related_name="+")
    seat = models.CharField(max_length=1)
    side = models.CharField(max_length=2)
    outcome = models.CharField(max_length=4, choices=Outcome.choices, blank=True)
    points_for = models.IntegerField(default=0)
    # The best opposing side's score: the only opponent at 2 sides, the leader of the others at 3.
    points_against = models.IntegerField(default=0)
    chips = models.IntegerField(default=0)  # final, game chips included
    hands = models.PositiveIntegerField(default=0)  # hands played (passed-out hands not counted)
    bids = models.PositiveIntegerField(default=0)  # contracts this seat took
    bids_made = models.PositiveIntegerField(default=0)
    sets = models.PositiveIntegerField(default=0)  # set or conceded
    meld_sum = models.IntegerField(default=0)  # this seat's meld, over meld_hands
    meld_hands = models.PositiveIntegerField(default=0)
    side_bids = models.PositiveIntegerField(default=0)  # the partnership's figures
    side_made = models.PositiveIntegerField(default=0)
    side_sets = models.PositiveIntegerField(default=0)
    side_meld_sum = models.IntegerField(default=0)

    class Meta:
        ordering = ["game_id", seat_order()]
        indexes = [models.Index(fields=["outcome"], name="gamestat_outcome")]

    def __str__(self) -> str:
        return f"{self.game_id} {self.seat}: {self.outcome}"
