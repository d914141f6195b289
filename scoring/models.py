"""Stored inputs: what the table said. Scores are derived by the rules engine (services.py).

A Hand row keeps the hand object the table entered (docs/record-format.md), so the engine can
rescore the game after any correction and nothing derived can drift out of sync. The summary fields on
Game (totals, finished, winner) are a cache the services rewrite in the same transaction as every
change of hands, for the games list.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.rules.tables import SEAT_ORDER, sides_for

SEAT_CHOICES = [("N", _("North")), ("E", _("East")), ("S", _("South")), ("W", _("West"))]


#: What a spreadsheet reads as the start of a formula (core.spreadsheet.neutralise escapes such a cell).
FORMULA_STARTS = frozenset("-+=@")


def new_game_code() -> str:
    """An unguessable id for URLs (about 60 bits), so game ids cannot be enumerated.

    Never starting with - + = or @: a code goes into the CSV exports as it is, not escaped as a
    formula, so a code copied from a spreadsheet opens its game. Codes made before keep working:
    a lookup accepts any code of `strict_input.GAME_CODE`."""
    while True:
        code = secrets.token_urlsafe(8)
        if code[0] not in FORMULA_STARTS:
            return code


class VisibleGameManager(models.Manager["Game"]):
    """Games everyone may know of: not those of an import still being written.

    This is the one place games are selected: every page, list, standing, export, count and admin
    goes through `Game.objects`; related lookups (`club.games`) use this manager too, and the
    statistics of a pending game belong to no season and no player until the import is made
    visible. Only the import itself reads the pending rows, through `Game.all_objects`."""

    def get_queryset(self) -> models.QuerySet[Game]:
        return super().get_queryset().filter(pending_import__isnull=True)


class Game(models.Model):
    class Variant(models.TextChoices):
        STANDARD = "standard", _("Standard")
        CHECK = "check", _("Check Pinochle")

    class Deck(models.TextChoices):
        SINGLE = "single", _("Single deck (48 cards)")
        DOUBLE = "double", _("Double deck (80 cards)")

    code = models.CharField(_("code"), max_length=16, unique=True, default=new_game_code, editable=False)
    seats = models.PositiveSmallIntegerField(_("seats"), choices=[(2, "2"), (3, "3"), (4, "4")], default=4)
    variant = models.CharField(_("variant"), max_length=10, choices=Variant.choices, default=Variant.STANDARD)
    deck = models.CharField(_("deck"), max_length=10, choices=Deck.choices, default=Deck.SINGLE)
    # None means the default (docs/rules.md, "Game settings and their defaults") for the deck and variant.
    target = models.PositiveIntegerField(_("target"), null=True, blank=True)
    min_bid = models.PositiveIntegerField(_("minimum bid"), null=True, blank=True)
    first_dealer = models.CharField(_("first dealer"), max_length=1, choices=SEAT_CHOICES, default="N")
    meld_needs_trick = models.BooleanField(_("meld needs a trick"), default=False)
    # A game of a fixed number of deals (docs/rules.md, "A fixed number of deals"): it ends after
    # this many hands unless the target ended it sooner. None: played to the target. A club night
    # whose rounds are N hands starts its games with N (nights.rounds.start_round).
    deals = models.PositiveIntegerField(_("deals"), null=True, blank=True)

    # The meld entry the table used last in this game (items picked or quick points per side):
    # the next hand's form opens in it. Only where chips are not in play (Check needs the items).
    class MeldMode(models.TextChoices):
        ITEMS = "items", _("Pick melds")
        POINTS = "points", _("Quick points")

    meld_mode = models.CharField(_("meld entry"), max_length=6, choices=MeldMode.choices, default="items")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    # Cache of the engine's result, rewritten by services on every change of hands.
    hand_count = models.PositiveIntegerField(default=0, editable=False)
    finished = models.BooleanField(_("finished"), default=False, editable=False)
    winner = models.CharField(_("winner"), max_length=4, blank=True, editable=False)
    scores = models.JSONField(default=dict, editable=False)
    chip_totals = models.JSONField(default=dict, editable=False)

    # Access (scoring/permissions.py, scoring/handover.py). The edit right of a quick game is a
    # secret the creating browser keeps in a cookie; only its SHA-256 is stored. The share code
    # opens a read-only link.
    share_code = models.CharField(max_length=16, unique=True, default=new_game_code, editable=False)
    edit_token_hash = models.CharField(max_length=64, blank=True, editable=False)
    handover_token_hash = models.CharField(max_length=64, blank=True, editable=False)
    handover_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("created by"),
    )

    # Filed in a club's league (scoring/filing.py): club, season, when and where it was played.
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games",
        verbose_name=_("club"),
    )
    season = models.ForeignKey(
        "clubs.Season",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games",
        verbose_name=_("season"),
    )
    played_on = models.DateField(_("played on"), null=True, blank=True, db_index=True)
    place = models.CharField(_("place / table"), max_length=100, blank=True)
    note = models.TextField(_("note"), blank=True)
    # The import batch (league.ImportBatch) still writing this game; None once it is visible.
    pending_import = models.PositiveBigIntegerField(null=True, blank=True, editable=False, db_index=True)

    all_objects = models.Manager()  # pending imports too: only the import reads them
    objects = VisibleGameManager()

    class Meta:
        default_manager_name = "objects"
        base_manager_name = "all_objects"
        ordering = ["-updated_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return f"{self.get_variant_display()} {self.code}"

    def get_absolute_url(self) -> str:
        """The game's page; "" for a code no address can hold (only a hand-edited row has one)."""
        from core.strict_input import is_game_code

        return reverse("scoring:game", kwargs={"code": self.code}) if is_game_code(self.code) else ""

    def score_line(self) -> list[tuple[str, int]]:
        """(side, points) in table order, N–S before E–W: PostgreSQL's jsonb keeps `scores` keys in
        an order of its own (E–W first), so a page never iterates the stored dict itself."""
        return [(side, self.scores.get(side, 0)) for side in sides_for(self.seats)]

    def chip_line(self) -> list[tuple[str, int]]:
        """(side, chips) in table order, as `score_line`."""
        return [(side, self.chip_totals.get(side, 0)) for side in sides_for(self.seats)]

    def settings_record(self) -> dict[str, Any]:
        """The record settings (docs/record-format.md) of this game (everything but players and hands).

        `options.deals` only for a game of a fixed number of deals: the record of a game played to
        the target stays as it always was."""
        options: dict[str, Any] = {"meld_needs_trick": self.meld_needs_trick}
        if self.deals is not None:
            options["deals"] = self.deals
        return {
            "seats": self.seats,
            "variant": self.variant,
            "deck": self.deck,
            "target": self.target,
            "min_bid": self.min_bid,
            "first_dealer": self.first_dealer,
            "options": options,
        }


def seat_order(field: str = "seat") -> models.Case:
    """Seats clockwise, N, E, S, W (docs/rules.md): the order of every per-seat row, for Meta.ordering
    and any query that sorts by seat (a seat letter sorts E, N, S, W alphabetically)."""
    whens = [models.When(**{field: seat}, then=index) for index, seat in enumerate(SEAT_ORDER)]
    return models.Case(*whens, output_field=models.IntegerField())


class GameSeat(models.Model):
    """Who sat where. The name is what the table typed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_rows")
    seat = models.CharField(_("seat"), max_length=1, choices=SEAT_CHOICES)
    name = models.CharField(_("name"), max_length=100, blank=True)
    # The person behind the typed name, once linked. PROTECT: deleting a player who has games
    # would silently drop their statistics; merge instead.
    player = models.ForeignKey(
        "clubs.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("player"),
    )

    class Meta:
        ordering = ["game", seat_order()]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_row_per_seat"),
            # One person cannot sit in two seats of one game: the standings
            # would count them twice.
            models.UniqueConstraint(
                fields=["game", "player"],
                condition=models.Q(player__isnull=False),
                name="one_seat_per_player_in_game",
            ),
        ]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self) -> str:
        return f"{self.seat}: {self.name}"


class Hand(models.Model):
    """One hand as the table entered it: the hand object of docs/record-format.md, unscored."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(_("hand number"))
    data = models.JSONField(_("hand record"))
    # Sent with the entry form; a second submission with the same id is the same hand
    # (a double tap, or a client retrying after a lost response), not a new one.
    submission_id = models.UUIDField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_hand_per_number"),
            models.UniqueConstraint(fields=["game", "submission_id"], name="one_hand_per_submission"),
        ]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")

    def __str__(self) -> str:
        return f"{self.game.code} #{self.number}"


#: The corrections trail's actor of a change the scorekeeper made itself when it was upgraded
#: (nights.services.finish_rounds_of_hands: the length given to a round's game stored before).
UPGRADE_LABEL = "upgrade"


class HandChange(models.Model):
    """One correction of a saved hand: what it was, what it became, who did it and when."""

    class Action(models.TextChoices):
        EDIT = "edit", _("corrected")
        DELETE = "delete", _("deleted")
        # Not a hand: the game was taken out of its club or moved to another (hand_number 0;
        # old_data / new_data hold {"club": name, "season": name}). Recorded under the old club.
        FILING = "filing", _("club changed")
        # Not a change of a hand: another phone took the scoring over with the recovery code
        # (hand_number 0, no before or after).
        TAKE_OVER = "takeover", _("took over the scoring")
        # Not a hand: the game's settings were changed after Start (scoring/game_settings.py;
        # hand_number 0; old_data / new_data hold the changed settings only, as the table saw them).
        SETTINGS = "settings", _("settings changed")

    game = models.ForeignKey("scoring.Game", on_delete=models.CASCADE, related_name="hand_changes")
    # The game's club when the change was made, so an organiser's list needs no join.
    club_id = models.PositiveBigIntegerField(null=True, blank=True, db_index=True)
    hand_number = models.PositiveIntegerField(_("hand number"))
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    old_data = models.JSONField(_("before"))
    new_data = models.JSONField(_("after"), null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    # Who it was when there is no account ("device": the browser holding the edit right), and
    # the username at the time otherwise, kept if the account is deleted later.
    actor_label = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("hand change")
        verbose_name_plural = _("hand changes")

    def __str__(self) -> str:
        return f"{self.game_id} #{self.hand_number} {self.action} by {self.actor_label or '?'}"

    def actor_name(self) -> str:
        """Who made the change, in words for the history page."""
        if self.actor_label == "device":
            return str(_("the scoring phone"))
        if self.actor_label == "recovery":
            return str(_("a phone with the recovery code"))
        if self.actor_label == "table-link":
            return str(_("a phone with the table's link"))
        if self.actor_label == UPGRADE_LABEL:
            return str(_("the scorekeeper's upgrade"))
        return self.actor_label or str(_("someone unknown"))


class GameSetup(models.Model):
    """The one-time token of the setup form that made a game: posting that form again (a second
    tap on Start, Back and Start) opens this game instead of making another. (Its own table, so
    an upgrade adds no column to the busiest one.)"""

    token = models.UUIDField(unique=True, editable=False)
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="setup")

    def __str__(self) -> str:
        return f"setup of {self.game_id}"


class Device(models.Model):
    """A browser, known by the one random id in its `device` cookie (scoring/devices.py); only the
    id's SHA-256 is stored. Which games it may score is on DeviceGame, so the cookie stays one
    small value however many games a phone has played."""

    id_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("device")
        verbose_name_plural = _("devices")

    def __str__(self) -> str:
        return f"device {self.id_hash[:8]}"


class DeviceGame(models.Model):
    """A device's edit right to a game. `active` is False once the scoring was handed over or
    taken over by another device: the old phone then follows the game read-only.

    `holder` is the account signed in on the phone when it got the right (starting the game,
    claiming a handover, taking over with the recovery code), None for a phone nobody was signed
    in on. In a club game a right with a holder counts only while that account may score for the
    club (scoring/devices.py); deleting the account ends it."""

    device = models.ForeignKey(Device, on_delete=models.CASCADE, related_name="game_rights")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="device_rights")
    active = models.BooleanField(default=True)
    holder = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("held for"),
    )
    granted_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["device", "game"], name="one_right_per_device_game")]
        indexes = [models.Index(fields=["game", "active"], name="devicegame_game_active")]

    def __str__(self) -> str:
        return f"{self.device} → {self.game_id} ({'active' if self.active else 'handed over'})"


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
        ordering = ["game", "number", seat_order()]
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
        ordering = ["game", seat_order()]
        indexes = [models.Index(fields=["outcome"], name="gamestat_outcome")]

    def __str__(self) -> str:
        return f"{self.game_id} {self.seat}: {self.outcome}"
