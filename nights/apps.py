from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NightsConfig(AppConfig):
    name = "nights"
    verbose_name = _("Club nights")

    def ready(self) -> None:
        from nights import receivers  # noqa: F401  (connects the receivers of clubs' and scoring's signals)
