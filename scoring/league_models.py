"""Club league records: clubs, players, rosters, seasons, and the derived statistics tables.

Kept out of models.py so the table-screen branch and this one merge without conflicts: the league
fields of Game and GameSeat are attached here with `add_to_class`, which is what a field declared
in the class body does under the hood, so migrations and the ORM see ordinary fields.

HandStat and GameStat are DERIVED: `scoring.stats.refresh_game` rewrites a game's rows from the
engine's GameResult in the same transaction as every change of its hands. They refer to seats
(GameSeat), never to players, so linking a seat to a player or merging two players needs no
rewrite: the statistics follow the seat's `player`.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from scoring.models import Game, GameSeat


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100, unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person. Names need not be unique: two clubs may each have an Anna."""

    name = models.CharField(_("name"), max_length=100)
    clubs = models.ManyToManyField(
        Club, through="Membership", related_name="players", verbose_name=_("clubs")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A player on a club's roster."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("player")
    )
    joined_on = models.DateField(_("joined on"), null=True, blank=True)

    class Meta:
        ordering = ["club", "player__name"]
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="one_membership_per_club")]
        verbose_name = _("membership")
        verbose_name_plural = _("roster")

    def __str__(self) -> str:
        return f"{self.player} @ {self.club}"


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=100)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    # Set while the season's results page is published: /results/<code>/ for anyone with the link.
    publish_code = models.CharField(
        _("published results code"), max_length=32, unique=True, null=True, blank=True, editable=False
    )

    class Meta:
        ordering = ["club", "-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
            models.CheckConstraint(condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"),
        ]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return f"{self.club} · {self.name}"


# --- league fields of the table's models ------------------------------------------------------
Game.add_to_class(
    "club",
    models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="games", verbose_name=_("club")
    ),
)
Game.add_to_class(
    "season",
    models.ForeignKey(
        Season,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games",
        verbose_name=_("season"),
    ),
)
Game.add_to_class("played_on", models.DateField(_("played on"), null=True, blank=True, db_index=True))
Game.add_to_class("place", models.CharField(_("place / table"), max_length=100, blank=True))
Game.add_to_class("note", models.TextField(_("note"), blank=True))
# PROTECT: deleting a player who has games would silently drop their statistics; merge instead.
GameSeat.add_to_class(
    "player",
    models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("player"),
    ),
)


# --- derived statistics ---------------------------------------------------------------------
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
        ordering = ["game", "number", "seat"]
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
        ordering = ["game", "seat"]
        indexes = [models.Index(fields=["outcome"], name="gamestat_outcome")]

    def __str__(self) -> str:
        return f"{self.game_id} {self.seat}: {self.outcome}"


__all__ = ["Club", "GameStat", "HandStat", "Membership", "Player", "Season"]
