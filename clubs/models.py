"""Who and which club: clubs, the people who play, their rosters, seasons and the club roles of
user accounts.

This app knows nothing of games: the table (scoring) points at clubs, seasons and players, never
the other way round.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100, unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # How the club's games are made final (copied to each game its nights start, so a game keeps
    # the rule it was played under): the other side confirms each saved hand on the table's phone,
    # and both sides sign the game when it ends (a signed game is changed by organisers only).
    confirm_hands = models.BooleanField(_("the opponents confirm each hand"), default=False)
    sign_at_end = models.BooleanField(_("sign the game at the end"), default=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person. Names need not be unique: two clubs may each have an Anna."""

    name = models.CharField(_("name"), max_length=100)
    clubs: models.ManyToManyField[Club, Membership] = models.ManyToManyField(
        Club, through="Membership", related_name="players", verbose_name=_("clubs")
    )
    # The account of the person, tied when they accept an invite (clubs.services.accept_invite).
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("account"),
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
    # Retired from this club's roster: kept in past games and standings, not offered for new ones.
    retired_on = models.DateField(_("retired on"), null=True, blank=True)

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
    # Set when an organiser closes the season: it then accepts no new games.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

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

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    def refuses(self, *, club: Club | None = None, on: datetime.date | None = None) -> tuple[str, str] | None:
        """Why a game or night of `club` dated `on` may not be filed in this season: (the form field,
        the message), or None. The one place of the rule: the season is `club`'s (None: not asked),
        and `on` (None: not asked) lies in it, its first and last day included. The club is asked
        first: the dates of another club's season say nothing. A closed season is not refused here.
        """
        if club is not None and self.club_id != club.pk:
            return "season", str(_("The season belongs to another club."))
        if on is not None and not self.starts_on <= on <= self.ends_on:
            message = _("The date %(date)s is outside season %(season)s (%(start)s – %(end)s).") % {
                "date": on,
                "season": self.name,
                "start": self.starts_on,
                "end": self.ends_on,
            }
            return "played_on", str(message)
        return None


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
        Club,
        on_delete=models.CASCADE,
        related_name="roles",
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


class Invite(models.Model):
    """A single-use link that ties the account of whoever accepts it to a roster player and makes
    them a member of the club (clubs.services.accept_invite)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites", verbose_name=_("club"))
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="invites", verbose_name=_("player")
    )
    token = models.CharField(_("token"), max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invite")
        verbose_name_plural = _("invites")

    def __str__(self) -> str:
        return f"{self.player} @ {self.club}"
