"""Which browser (device) may score which game (scoring/devices.py reads and writes them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models.games import Game


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
