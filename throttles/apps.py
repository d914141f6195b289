from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ThrottlesConfig(AppConfig):
    name = "throttles"
    verbose_name = _("Throttles")
