"""The chip ledger keeps one kind of row: a payment an organiser marked as made.

What a night brings each player is never stored: it is read from the night's games (their stored
results, `ledger.selectors`), so a correction, a deleted hand or a merge changes it at once and the
ledger cannot drift from the scores. A payment is a fact of the world (money or chips changed hands)
and stays when the night it settled is removed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
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
