from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NightsConfig(AppConfig):
    name = "nights"
    verbose_name = _("Club nights")
