"""The corrections trail: every change to a hand already saved, and who made it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


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
        return actor_name(self.actor_label)


def actor_name(label: str) -> str:
    """Who a stored label names, in words: a username, or the phone without an account
    (scoring/audit.py's `Actor`: the corrections trail and the signatures store it)."""
    if label == "device":
        return str(_("the scoring phone"))
    if label == "recovery":
        return str(_("a phone with the recovery code"))
    if label == "table-link":
        return str(_("a phone with the table's link"))
    return label or str(_("someone unknown"))
