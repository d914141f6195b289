"""The chip ledger keeps two kinds of row: a payment an organiser recorded as made, and a night's
"Settled — locked" (who locked and unlocked it, when, and the figures it was locked with).

What a night brings each player is never stored: it is read from the night's games (their stored
results, `ledger.selectors`), so a correction, a deleted hand or a merge changes it at once and the
ledger cannot drift from the scores. A payment is a fact of the world (money or chips changed hands)
and stays when the night it settled is removed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class LivePayments(models.Manager["Payment"]):
    """The payments that count: not those an organiser removed (a mistaken mark)."""

    def get_queryset(self) -> models.QuerySet[Payment]:
        return super().get_queryset().filter(removed_at__isnull=True)


class Payment(models.Model):
    """`payer` paid `payee` `amount` (money, or chips where the night played for no money).

    A payment marked by mistake is removed, not deleted: it keeps who removed it and when, and
    stops counting (`Payment.objects` leaves it out; `Payment.all_objects` sees it).
    """

    class Unit(models.TextChoices):
        MONEY = "money", _("money")
        CHIPS = "chips", _("chips")

    class Method(models.TextChoices):
        CASH = "cash", _("Cash")
        SWISH = "swish", "Swish"  # a name, the same in every language
        OTHER = "other", _("Other")

    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="ledger_payments", verbose_name=_("club")
    )
    # The season whose balances it settles; for a night's payment the night's season when marked.
    season = models.ForeignKey(
        "clubs.Season",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ledger_payments",
        verbose_name=_("season"),
    )
    # The night whose settlement it belongs to (None: a payment of the season's balances, or the
    # night was removed later; the payment stays, money that changed hands did change hands).
    night = models.ForeignKey(
        "nights.Night",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ledger_payments",
        verbose_name=_("club night"),
    )
    # PROTECT: a player with payments is merged (clubs.services.merge_players moves these), not deleted.
    payer = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, related_name="ledger_payments_made", verbose_name=_("payer")
    )
    payee = models.ForeignKey(
        "clubs.Player",
        on_delete=models.PROTECT,
        related_name="ledger_payments_received",
        verbose_name=_("payee"),
    )
    amount = models.DecimalField(_("amount"), max_digits=12, decimal_places=2)
    unit = models.CharField(_("unit"), max_length=5, choices=Unit.choices)
    method = models.CharField(_("how"), max_length=5, choices=Method.choices, default=Method.CASH)
    paid_on = models.DateField(_("paid on"))
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("marked by"),
    )
    # The organiser's username when they marked it, kept if the account is deleted later.
    marked_by_label = models.CharField(max_length=150, blank=True)
    marked_at = models.DateTimeField(_("marked at"), auto_now_add=True)
    # The one-time id of the form that marked it: the same form posted again (a double tap, a
    # retry after a lost answer) is this payment, not a second one.
    token = models.UUIDField(unique=True, editable=False)
    removed_at = models.DateTimeField(_("removed at"), null=True, blank=True, editable=False)
    removed_by_label = models.CharField(max_length=150, blank=True, editable=False)

    all_objects = models.Manager()  # removed ones too: the token check and the audit read them
    objects = LivePayments()

    class Meta:
        default_manager_name = "all_objects"
        base_manager_name = "all_objects"
        ordering = ["paid_on", "id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="ledger_payment_positive")]
        indexes = [models.Index(fields=["club", "season"], name="ledger_payment_season")]
        verbose_name = _("payment")
        verbose_name_plural = _("payments")

    def __str__(self) -> str:
        return f"{self.payer_id} pays {self.payee_id} {self.amount} {self.unit}"


class NightLock(models.Model):
    """An organiser's "Settled — locked" on a club night: while it holds (`unlocked_at` empty) no
    payment of the night can be marked, recorded or removed. Unlocking keeps the row (who unlocked
    it and when), so the night's page shows every lock and unlock.

    `figures` are the night's amounts when it was locked, by player name ([["Anna", "8.00"], …], in
    the night's `unit`): a correction of a game afterwards changes the night's figures, which are
    always read from the games, and the page then says that they no longer match the locked ones.
    Names, not ids, so the comparison survives a backup and restore.
    """

    night = models.ForeignKey(
        "nights.Night", on_delete=models.CASCADE, related_name="ledger_locks", verbose_name=_("club night")
    )
    unit = models.CharField(_("unit"), max_length=5, choices=Payment.Unit.choices)
    figures = models.JSONField(_("figures when locked"), default=list)
    locked_at = models.DateTimeField(_("locked at"), default=timezone.now)
    locked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("locked by"),
    )
    locked_by_label = models.CharField(max_length=150, blank=True)
    unlocked_at = models.DateTimeField(_("unlocked at"), null=True, blank=True)
    unlocked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("unlocked by"),
    )
    unlocked_by_label = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["locked_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["night"], condition=Q(unlocked_at__isnull=True), name="ledger_one_open_lock_per_night"
            )
        ]
        verbose_name = _("night lock")
        verbose_name_plural = _("night locks")

    def __str__(self) -> str:
        return f"night {self.night_id} locked at {self.locked_at:%Y-%m-%d %H:%M}"
