"""Who may do what in a club, and what was changed after the fact.

`ClubRole.club` is a ForeignKey to the league's Club on the column `club_id` (a plain number
before the league branch met this one; migration 0004 kept the column and its values).
`HandChange.club_id` stays a plain number: the audit trail outlives a deleted club.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ClubRole(models.Model):
    class Role(models.TextChoices):
        # Manages roster and seasons, changes roles, corrects any club game, finished ones too.
        ORGANISER = "organiser", _("Organiser")
        # Creates club games and enters and corrects hands while a game is in progress.
        SCORER = "scorer", _("Scorer")
        # Reads the club's games and records.
        MEMBER = "member", _("Member")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_roles")
    club = models.ForeignKey(
        "scoring.Club",
        on_delete=models.CASCADE,
        related_name="roles",
        db_column="club_id",
        verbose_name=_("club"),
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "club"], name="one_role_per_user_and_club")]
        verbose_name = _("club role")
        verbose_name_plural = _("club roles")

    def __str__(self) -> str:
        return f"{self.user} · {self.club_id} · {self.role}"


class HandChange(models.Model):
    """One correction of a saved hand: what it was, what it became, who did it and when."""

    class Action(models.TextChoices):
        EDIT = "edit", _("corrected")
        DELETE = "delete", _("deleted")

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
        return self.actor_label or str(_("someone unknown"))
