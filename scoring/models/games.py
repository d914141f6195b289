"""A game, its seats and its hands: what the table said (the scores are derived, `scoring.models`)."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.rules.tables import SEAT_ORDER, sides_for

SEAT_CHOICES = [("N", _("North")), ("E", _("East")), ("S", _("South")), ("W", _("West"))]


#: A game code or share code: a path segment of /g/<code>/ and /s/<code>/ (core.strict_input's
#: alphabet); `restore` refuses any other.
GAME_CODE = RegexValidator(r"\A[A-Za-z0-9_-]{1,16}\Z")

#: What a spreadsheet reads as the start of a formula (core.spreadsheet.neutralise escapes such a cell).
FORMULA_STARTS = frozenset("-+=@")


def new_game_code() -> str:
    """An unguessable id for URLs (about 60 bits), so game ids cannot be enumerated.

    Never starting with - + = or @: a code goes into the CSV exports as it is, not escaped as a
    formula, so a code copied from a spreadsheet opens its game. A lookup accepts any code of
    `strict_input.GAME_CODE` (the export escapes one that starts like a formula)."""
    while True:
        code = secrets.token_urlsafe(8)
        if code[0] not in FORMULA_STARTS:
            return code


class VisibleGameManager(models.Manager["Game"]):
    """Games everyone may know of: not the hidden ones (`Game.hidden`: an import still being written).

    This is the one place games are selected: every page, list, standing, export, count and admin
    goes through `Game.objects`; related lookups (`club.games`) use this manager too, and the
    statistics of a hidden game belong to no season and no player until it is shown. Only the
    import itself reads the hidden rows, through `Game.all_objects`."""

    def get_queryset(self) -> models.QuerySet[Game]:
        return super().get_queryset().filter(hidden=False)


class Game(models.Model):
    class Variant(models.TextChoices):
        STANDARD = "standard", _("Standard")
        CHECK = "check", _("Check Pinochle")

    class Deck(models.TextChoices):
        SINGLE = "single", _("Single deck (48 cards)")
        DOUBLE = "double", _("Double deck (80 cards)")

    code = models.CharField(
        _("code"), max_length=16, unique=True, default=new_game_code, editable=False, validators=[GAME_CODE]
    )
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

    # The house rules of docs/rules.md, each off by default (a game without them scores as ever).
    class BidSteps(models.TextChoices):
        STANDARD = "standard", _("The rule book's steps")
        TENS_ABOVE_100 = "tens_above_100", _("Tens above 100")  # as scoring.labels.BID_STEP_NAMES

    bid_steps = models.CharField(
        _("bid steps"), max_length=16, choices=BidSteps.choices, default=BidSteps.STANDARD
    )
    # "On the board": a side's meld counts from this much meld and this many trick points. None: always.
    meld_counts_from = models.PositiveIntegerField(_("meld counts from"), null=True, blank=True)
    # The game also ends when a side leads every other by this many points. None: no such end.
    spread = models.PositiveIntegerField(_("winning spread"), null=True, blank=True)
    # Points shown and typed ×10 (scoring.rules.scale): display and entry only, stored at 1.
    scale = models.PositiveSmallIntegerField(_("points shown"), choices=[(1, "×1"), (10, "×10")], default=1)

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

    # Access (scoring/permissions.py, scoring/handover.py). The phones' edit rights are kept
    # per device (scoring/devices.py, DeviceGame). The share code opens a read-only link; of the
    # handover secret only its SHA-256 is stored.
    share_code = models.CharField(
        max_length=16, unique=True, default=new_game_code, editable=False, validators=[GAME_CODE]
    )
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
    # A game another app plans (nights: a table of a club night), set through
    # scoring/services/plans.py: its filing, its seats' players and its rules follow the plan and
    # only an organiser of its club changes them; once the plan is over (the night is finished)
    # no phone's right to it counts. The rights checks read these; scoring imports no planner.
    planned = models.BooleanField(default=False, editable=False)
    plan_over = models.BooleanField(default=False, editable=False)

    # Filed in a club's league (scoring/filing.py): club, season, when and where it was played.
    # PROTECT: a club or season with games filed under it cannot be deleted (its games are its league).
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games",
        verbose_name=_("club"),
    )
    season = models.ForeignKey(
        "clubs.Season",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games",
        verbose_name=_("season"),
    )
    played_on = models.DateField(_("played on"), null=True, blank=True, db_index=True)
    place = models.CharField(_("place / table"), max_length=100, blank=True)
    note = models.TextField(_("note"), blank=True)
    # Not shown yet: a game of an import still being written (scoring/imported.py writes it hidden
    # and shows or deletes it; the league keeps which import it belongs to). No page, list,
    # standing, export or count sees it (`VisibleGameManager`).
    hidden = models.BooleanField(default=False, editable=False)
    # A planned game's clock (scoring/services/plans.py): the first hand saved at or after this
    # time is the game's last; its number of deals becomes that hand's, so it ends as a game of
    # a fixed number of deals does (docs/rules.md, "A fixed number of deals"). None: no clock.
    last_hand_from = models.DateTimeField(null=True, blank=True, editable=False)

    # How the game is made final (its club's rule when the game was made, scoring/services/confirm.py):
    # the side that did not bid confirms each saved hand; both sides sign the finished game, which
    # then only an organiser of its club changes. `unconfirmed_hands` counts the hands still waiting
    # (the standings wait for them); each side's signature is a GameSignature row (`signatures`);
    # `signed_at` is set when the last side signed.
    confirm_hands = models.BooleanField(_("the opponents confirm each hand"), default=False)
    sign_at_end = models.BooleanField(_("sign the game at the end"), default=False)
    unconfirmed_hands = models.PositiveIntegerField(default=0, editable=False)
    signed_at = models.DateTimeField(_("signed"), null=True, blank=True, editable=False)

    all_objects = models.Manager()  # hidden games too: only the import reads them
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

        `options.deals` only for a game of a fixed number of deals, and each other house rule only
        when the game plays it: the record of a game without them stays as it always was."""
        options: dict[str, Any] = {"meld_needs_trick": self.meld_needs_trick}
        if self.deals is not None:
            options["deals"] = self.deals
        if self.bid_steps != Game.BidSteps.STANDARD:
            options["bid_steps"] = self.bid_steps
        if self.meld_counts_from is not None:
            options["meld_counts_from"] = self.meld_counts_from
        if self.spread is not None:
            options["spread"] = self.spread
        if self.scale != 1:
            options["scale"] = self.scale
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
        ordering = ["game_id", seat_order()]
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


#: A side of a table: the partnerships at four seats, each seat its own side otherwise (`sides_for`).
SIDE_CHOICES = [("NS", _("North–South")), ("EW", _("East–West")), *SEAT_CHOICES[:3]]


class GameSignature(models.Model):
    """One side's signature of its finished game (scoring/services/confirm.py): when the side
    signed, and who tapped Sign for it: a signed-in account, or, with no account, what the
    scoring phone was (`signer_label`, as the corrections trail names it: "device" for the phone
    holding the game). The username at the time is kept if the account is deleted later."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="signatures")
    side = models.CharField(_("side"), max_length=2, choices=SIDE_CHOICES)
    signed_at = models.DateTimeField(_("signed at"))
    signer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("signed by"),
    )
    signer_label = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["game_id", "signed_at", "id"]
        constraints = [models.UniqueConstraint(fields=["game", "side"], name="one_signature_per_side")]
        verbose_name = _("signature")
        verbose_name_plural = _("signatures")

    def __str__(self) -> str:
        return f"{self.game_id} {self.side} by {self.signer_label or '?'}"

    def signer_name(self) -> str:
        """Who signed, in words for the game's page."""
        from scoring.models.changes import actor_name

        return actor_name(self.signer_label)


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
    # When the other side confirmed it (a game that asks for it: `Game.confirm_hands`); None: not yet.
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_hand_per_number"),
            models.UniqueConstraint(fields=["game", "submission_id"], name="one_hand_per_submission"),
        ]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")

    def __str__(self) -> str:
        return f"{self.game.code} #{self.number}"


class GameSetup(models.Model):
    """The one-time token of the setup form that made a game: posting that form again (a second
    tap on Start, Back and Start) opens this game instead of making another. (Its own table, so
    an upgrade adds no column to the busiest one.)"""

    token = models.UUIDField(unique=True, editable=False)
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="setup")

    def __str__(self) -> str:
        return f"setup of {self.game_id}"
