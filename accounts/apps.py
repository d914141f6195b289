from typing import Any

from django.apps import AppConfig
from django.core.management import call_command
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def create_cache_table(*, using: str = "default", verbosity: int = 1, **_kwargs: Any) -> None:
    """The shared cache's table (log-in attempt counts, sign-up and reset throttles) is made with
    the others: a plain `manage.py migrate` leaves no log-in page failing for want of it. Django's
    command does nothing when the table is there."""
    call_command("createcachetable", database=using, verbosity=max(0, verbosity - 1))


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # Django sends post_migrate for apps with models only (accounts has none): after auth's.
        assert self.apps is not None  # set by the registry before ready()
        auth = self.apps.get_app_config("auth")
        post_migrate.connect(create_cache_table, sender=auth, dispatch_uid="accounts.create_cache_table")
