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

SEAT_CHOICES = [("N", _("North")), ("E", _("East")), ("S", _("South")), ("W", _("West"))]


def new_game_code() -> str:
    """An unguessable id for URLs (about 60 bits), so game ids cannot be enumerated."""
    return secrets.token_urlsafe(8)


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
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    # Cache of the engine's result, rewritten by services on every change of hands.
    hand_count = models.PositiveIntegerField(default=0, editable=False)
    finished = models.BooleanField(_("finished"), default=False, editable=False)
    winner = models.CharField(_("winner"), max_length=4, blank=True, editable=False)
    scores = models.JSONField(default=dict, editable=False)
    chip_totals = models.JSONField(default=dict, editable=False)

    # Access (scoring/permissions.py). The edit right of a quick game is a secret the creating
    # browser keeps in a cookie; only its SHA-256 is stored. The share code opens a read-only link.
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

    class Meta:
        ordering = ["-updated_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return f"{self.get_variant_display()} {self.code}"

    def get_absolute_url(self) -> str:
        return reverse("game", kwargs={"code": self.code})

    def settings_record(self) -> dict[str, Any]:
        """The record settings (docs/record-format.md) of this game (everything but players and hands)."""
        return {
            "seats": self.seats,
            "variant": self.variant,
            "deck": self.deck,
            "target": self.target,
            "min_bid": self.min_bid,
            "first_dealer": self.first_dealer,
            "options": {"meld_needs_trick": self.meld_needs_trick},
        }


class GameSeat(models.Model):
    """Who sat where. The name is what the table typed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_rows")
    seat = models.CharField(_("seat"), max_length=1, choices=SEAT_CHOICES)
    name = models.CharField(_("name"), max_length=100, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_row_per_seat")]
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


# Club roles and the audit trail live in their own module; imported here so Django finds them.
from scoring.access_models import ClubRole, HandChange  # noqa: E402

__all__ = ["SEAT_CHOICES", "ClubRole", "Game", "GameSeat", "Hand", "HandChange", "new_game_code"]
from scoring.league_models import *  # noqa: E402, F403  (league records; see league_models.py)
