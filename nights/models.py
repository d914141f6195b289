"""A club night: the evening's settings, who checked in, and the tables of every round.

The draw itself is plain Python (`nights/planning/`); these rows store what it drew so the plan
survives a reload and the rounds already played never change. A round is *started* when its
tables have games: each `NightTable` then points at the `scoring.Game` its phones score, and every
figure of the night (standings, chips) is read from those games, never stored here.

Rows of the rounds not started yet are drawn again when the organiser swaps two players or a late
arrival comes or someone leaves (`nights.services`, `nights.arrivals`).
"""

from __future__ import annotations

import re
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from nights.settlement import byes
from scoring.models import SEAT_CHOICES, Game
from scoring.rules.tables import MAX_BID, MAX_TARGET, chips_in_play, seat_counts_for

#: The most rounds a night may have (a long evening of short games).
MAX_ROUNDS = 12
#: The most hands a round of fixed length may have.
MAX_HANDS_PER_ROUND = 40
#: The longest group label of a night's player ("Men", "Women", "Couples", "Over 80").
GROUP_MAX_LENGTH = 20
#: The longest round on the clock, in minutes.
MAX_ROUND_MINUTES = 240
#: A round's number as a key of `Night.swapped_rounds` ("2", never "02" or "²").
ROUND_KEY = re.compile(r"[1-9][0-9]*")
#: A round as drawn, by the fingerprint `nights.services` takes of it.
FINGERPRINT = re.compile(r"[0-9a-f]{16}")
#: `Night.planned_from` when a round was planned: the results' fingerprint and the round's.
PLANNED_FROM = re.compile(r"[0-9a-f]{16}:[0-9a-f]{16}")


def new_table_token() -> str:
    """The secret in a table's link (about 128 bits): whoever holds it scores that table's game."""
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    return secrets.randbelow(2**31)


class Night(models.Model):
    """One evening of a club: its settings (those of every game drawn for it) and its plan."""

    class RoundEnds(models.TextChoices):
        GAME = "game", _("One game")
        HANDS = "hands", _("A fixed number of hands")
        MINUTES = "minutes", _("A number of minutes")

    class Leftovers(models.TextChoices):
        BYE = "bye", _("Sit out (a bye)")
        TABLE = "table", _("Play at a standard table")

    class ByeCompensation(models.TextChoices):
        # The values are the settlement's own (nights/settlement/byes.py reads them).
        NONE = byes.NONE, _("Nothing")
        AVERAGE = byes.AVERAGE, _("The average of the round")
        FIXED = byes.FIXED, _("A fixed score")

    class Movement(models.TextChoices):
        """How players change tables between rounds (the rules in `nights.planning.movements`)."""

        ROTATING = "rotating", _("Rotating partners (every round drawn at the start)")
        PROGRESSIVE = "progressive", _("Progressive: winners move up a table")
        LOWEST_STAYS = "lowest_stays", _("Lowest total stays, the others move down")
        FIXED = "fixed", _("Fixed: N stays, S down one table, E up one, W up two")

    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="nights", verbose_name=_("club")
    )
    season = models.ForeignKey(
        "clubs.Season",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="nights",
        verbose_name=_("season"),
    )
    played_on = models.DateField(_("date"))
    # The settings of every game of the night: the same fields and choices as scoring.Game.
    variant = models.CharField(
        _("variant"), max_length=10, choices=Game.Variant.choices, default=Game.Variant.STANDARD
    )
    deck = models.CharField(_("deck"), max_length=10, choices=Game.Deck.choices, default=Game.Deck.SINGLE)
    # None means the rule book's default for the deck and variant, as on Game.
    target = models.PositiveIntegerField(
        _("target"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(MAX_TARGET)]
    )
    min_bid = models.PositiveIntegerField(
        _("minimum bid"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(MAX_BID)]
    )
    meld_needs_trick = models.BooleanField(_("meld needs a trick"), default=False)
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=3, validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)]
    )
    round_ends = models.CharField(
        _("a round ends after"), max_length=7, choices=RoundEnds.choices, default=RoundEnds.GAME
    )
    # Only when a round is a fixed number of hands: the figures of a table are those after this
    # many hands (or at the end of its game, if that comes first).
    hands_per_round = models.PositiveSmallIntegerField(
        _("hands per round"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_HANDS_PER_ROUND)],
    )
    # Money per chip (Check Pinochle) or per game won (standard); None: the night plays for no money.
    stake_per_chip = models.DecimalField(
        _("stake per chip"), max_digits=8, decimal_places=2, null=True, blank=True,
        validators=[MinValueValidator(0)],
    )  # fmt: skip
    stake_per_win = models.DecimalField(
        _("stake per game won"), max_digits=8, decimal_places=2, null=True, blank=True,
        validators=[MinValueValidator(0)],
    )  # fmt: skip
    # The draw's seed: the same players and seed always give the same plan (nights/planning/).
    seed = models.PositiveIntegerField(default=new_seed, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Set when the organiser finishes the night: the table links then stop scoring.
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True, editable=False)
    # Check Pinochle: the 2 or 3 players the tables of four leave over sit out or play standard
    # pinochle at one table of their own (nights/planning/). Standard nights seat everyone anyway.
    leftovers = models.CharField(
        _("players left over"), max_length=5, choices=Leftovers.choices, default=Leftovers.BYE
    )
    # What a bye brings (nights/settlement/byes.py); in Check Pinochle also a leftover standard
    # table's players' chips. The fixed figures only with FIXED (chips only in Check Pinochle).
    bye_compensation = models.CharField(
        _("a bye earns"), max_length=7, choices=ByeCompensation.choices, default=ByeCompensation.NONE
    )
    bye_points = models.IntegerField(
        _("points for a bye"), null=True, blank=True, validators=[MinValueValidator(0)]
    )
    bye_chips = models.IntegerField(
        _("chips for a bye"), null=True, blank=True, validators=[MinValueValidator(0)]
    )
    # Rotating: every round drawn up front. Any other: round 1 drawn, each later round planned from
    # the previous round's tables and results when its last table ends (nights.planning.movements).
    movement = models.CharField(
        _("movement"), max_length=12, choices=Movement.choices, default=Movement.ROTATING
    )
    # The prizes the organiser ticks on (nights/prizes.py works out who wins them): shown on the
    # standings, the night's results and each player's card.
    prize_first = models.BooleanField(_("1st place"), default=False)
    prize_second = models.BooleanField(_("2nd place"), default=False)
    prize_third = models.BooleanField(_("3rd place"), default=False)
    prize_high_game = models.BooleanField(_("High game"), default=False)
    prize_high_meld = models.BooleanField(_("High meld"), default=False)
    prize_table_winners = models.BooleanField(_("Winners of each table"), default=False)
    prize_groups = models.BooleanField(_("Winner of each group"), default=False)
    # Only when a round is on the clock: the hand in play when this many minutes are up is the
    # round's last (nights.rounds.start_round gives each table's game that time).
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes per round"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUND_MINUTES)],
    )
    # When the round last started (its clock starts then).
    round_started_at = models.DateTimeField(_("round started at"), null=True, blank=True, editable=False)
    # The organiser called "last hand" in this round, at this time: each of its tables ends after
    # its next saved hand (nights.rounds.call_last_hand).
    last_hand_round = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    last_hand_called_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The rounds the organiser changed by hand (a swap) since they were last drawn or planned, each
    # with a fingerprint of the round as drawn ({"2": "<fingerprint>"}): a late arrival, a leaver or
    # a corrected result keeps them, or the page asks first (nights.movement_plan); a round swapped back
    # to what was drawn no longer counts. Of a night with a movement also: a fingerprint of the
    # results its last planned round was planned from (a saved note or the same result again plans
    # nothing), and the round kept as the organiser changed it although a result of the round
    # before has changed since (the night page says so until the organiser keeps it or plans it
    # again).
    # planned_from: "<results>:<round>", the results' fingerprint and the movement's round's.
    swapped_rounds = models.JSONField(default=dict, blank=True, editable=False)
    planned_from = models.CharField(max_length=33, blank=True, default="", editable=False)
    results_changed_round = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    # The house rules of docs/rules.md for every game of the night, as on scoring.Game (off by
    # default). `deals` is the length of a round of one game; a round of N hands plays N deals.
    deals = models.PositiveIntegerField(_("deals"), null=True, blank=True)
    bid_steps = models.CharField(
        _("bid steps"), max_length=16, choices=Game.BidSteps.choices, default=Game.BidSteps.STANDARD
    )
    meld_counts_from = models.PositiveIntegerField(_("meld counts from"), null=True, blank=True)
    spread = models.PositiveIntegerField(_("winning spread"), null=True, blank=True)
    scale = models.PositiveSmallIntegerField(_("points shown"), choices=[(1, "×1"), (10, "×10")], default=1)

    class Meta:
        ordering = ["-played_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(round_ends__in=["game", "minutes"], hands_per_round__isnull=True)
                | Q(round_ends="hands", hands_per_round__isnull=False),
                name="night_hands_per_round_only_with_hands",
            ),
            models.CheckConstraint(
                condition=Q(round_ends__in=["game", "hands"], round_minutes__isnull=True)
                | Q(round_ends="minutes", round_minutes__isnull=False),
                name="night_round_minutes_only_with_minutes",
            ),
        ]
        verbose_name = _("club night")
        verbose_name_plural = _("club nights")

    def __str__(self) -> str:
        return f"{self.club} · {self.played_on}"

    def clean(self) -> None:
        """The plan's own state (no form edits it) in the shape `nights.services` writes it: the
        rounds swapped by hand, each a round of the night with the fingerprint of the round as
        drawn; the round kept after a changed result, a round planned from the one before (2 on);
        what the last planned round was planned from, empty or "<16 hex digits>:<16 hex digits>".
        A restored file checks it: any other value would fail the next change to the plan."""
        errors: dict[str, StrOrPromise] = {}
        swapped = self.swapped_rounds
        if not (
            isinstance(swapped, dict)
            and all(
                isinstance(key, str)
                and ROUND_KEY.fullmatch(key) is not None
                and 1 <= int(key) <= self.rounds
                and isinstance(drawn, str)
                and FINGERPRINT.fullmatch(drawn)
                for key, drawn in swapped.items()
            )
        ):
            errors["swapped_rounds"] = _(
                "The rounds changed by hand must be rounds of this night (1 to %(last)d), each with "
                "the 16 hexadecimal digits of the round as drawn."
            ) % {"last": self.rounds}
        kept = self.results_changed_round
        if kept is not None and not (type(kept) is int and 2 <= kept <= self.rounds):
            errors["results_changed_round"] = _(
                "The round kept after a changed result must be empty or a round of this night from 2 to "
                "%(last)d."
            ) % {"last": self.rounds}
        if self.planned_from and not PLANNED_FROM.fullmatch(self.planned_from):
            errors["planned_from"] = _(
                "What the last planned round was planned from must be empty or two groups of 16 "
                "hexadecimal digits joined by a colon."
            )
        if errors:
            raise ValidationError(errors)

    @property
    def moves_by_round(self) -> bool:
        """Each round after the first is planned when the previous one ends."""
        return self.movement != self.Movement.ROTATING

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None

    @property
    def prizes(self) -> list[str]:
        """The names of the prizes ticked on (PRIZES)."""
        return [name for name in PRIZES if getattr(self, f"prize_{name}")]

    @property
    def is_check(self) -> bool:
        """Chips are in play: Check Pinochle with a single deck (rule book: with a double deck
        Check Pinochle is played as an ordinary double-deck game)."""
        return chips_in_play(self.variant, self.deck)

    @property
    def games(self) -> models.QuerySet[Game]:
        """The games of this night's started tables."""
        return Game.objects.filter(night_table__night=self)

    def table_sizes(self) -> tuple[int, ...]:
        """The table sizes the draw may use: 4 only for Check Pinochle, else 4, 3 or 2."""
        return seat_counts_for(self.variant)

    @property
    def leftover_table(self) -> bool:
        """A Check Pinochle night whose players left over play standard pinochle at a table."""
        return self.variant == Game.Variant.CHECK and self.leftovers == self.Leftovers.TABLE


#: The prizes an organiser may tick on, by name: the Night field of each is `prize_<name>`.
PRIZES = ("first", "second", "third", "high_game", "high_meld", "table_winners", "groups")


def prize_choices() -> list[tuple[str, StrOrPromise]]:
    """(name, label) of every prize, for a form's check boxes."""
    return [(name, Night._meta.get_field(f"prize_{name}").verbose_name) for name in PRIZES]  # type: ignore[union-attr]


class NightPlayer(models.Model):
    """A player checked in for a night, from round `from_round` (a late arrival) until
    `until_round` (None: to the end; set when they leave early). Rounds count from 1."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="players")
    player = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, related_name="night_entries", verbose_name=_("player")
    )
    from_round = models.PositiveSmallIntegerField(_("from round"), default=1)
    until_round = models.PositiveSmallIntegerField(_("until round"), null=True, blank=True)
    checked_in_at = models.DateTimeField(auto_now_add=True)
    # An optional short label ("Men", "Women", "Couples"): the night's standings rank each group
    # on its own too. Blank: in no group.
    group = models.CharField(_("group"), max_length=GROUP_MAX_LENGTH, blank=True)

    class Meta:
        ordering = ["night", "id"]  # check-in order: the draw reads it
        constraints = [models.UniqueConstraint(fields=["night", "player"], name="one_check_in_per_night")]
        verbose_name = _("player of a night")
        verbose_name_plural = _("players of a night")

    def __str__(self) -> str:
        return f"{self.player_id} @ night {self.night_id}"

    def plays_in(self, round_no: int) -> bool:
        return self.from_round <= round_no and (self.until_round is None or round_no <= self.until_round)


class NightTable(models.Model):
    """A table of one round. `game` is set when the round starts; `token` is the secret of the
    table's link (and QR code) with which any phone at the table scores that game."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="tables")
    round_no = models.PositiveSmallIntegerField(_("round"))
    table_no = models.PositiveSmallIntegerField(_("table"))
    # PROTECT: a night's game goes only with its night (nights.removal.remove_night), so the
    # night's standings never lose a table silently.
    game = models.OneToOneField(
        "scoring.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="night_table"
    )
    token = models.CharField(max_length=32, unique=True, default=new_table_token, editable=False)

    class Meta:
        ordering = ["night", "round_no", "table_no"]
        constraints = [
            models.UniqueConstraint(
                fields=["night", "round_no", "table_no"], name="one_table_number_per_round"
            )
        ]
        verbose_name = _("table of a night")
        verbose_name_plural = _("tables of a night")

    def __str__(self) -> str:
        return f"night {self.night_id} round {self.round_no} table {self.table_no}"


class NightSeat(models.Model):
    """Who sits where at a table of a night (N, E, S, W; at 3 seats N, E, S; at 2 N and E)."""

    table = models.ForeignKey(NightTable, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(_("seat"), max_length=1, choices=SEAT_CHOICES)
    player = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, related_name="night_seats", verbose_name=_("player")
    )

    class Meta:
        ordering = ["table", "id"]
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="one_player_per_night_seat")]
        verbose_name = _("seat at a night")
        verbose_name_plural = _("seats at a night")

    def __str__(self) -> str:
        return f"{self.table_id} {self.seat}: {self.player_id}"


class NightBye(models.Model):
    """A player checked in who sits out a round (the number present does not fill the tables)."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="byes")
    round_no = models.PositiveSmallIntegerField(_("round"))
    player = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, related_name="night_byes", verbose_name=_("player")
    )

    class Meta:
        ordering = ["night", "round_no", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["night", "round_no", "player"], name="one_bye_per_player_and_round"
            )
        ]
        verbose_name = _("bye")
        verbose_name_plural = _("byes")

    def __str__(self) -> str:
        return f"night {self.night_id} round {self.round_no}: {self.player_id} sits out"
