from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = _("Chip ledger")

    def ready(self) -> None:
        from ledger import receivers  # noqa: F401  (connects the receivers of clubs' and nights' signals)
