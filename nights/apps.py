import sys
from typing import Any, TextIO

from django.apps import AppConfig
from django.apps.registry import Apps
from django.core.exceptions import FieldDoesNotExist
from django.db import DEFAULT_DB_ALIAS
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def finish_rounds_after_migrate(
    *,
    apps: Apps | None = None,
    using: str = DEFAULT_DB_ALIAS,
    verbosity: int = 1,
    stdout: TextIO | None = None,
    **_kwargs: Any,
) -> None:
    """After `migrate`, the games of rounds of N hands stored before games had a length get it
    (`services.finish_rounds_of_hands`): an upgrade needs no manual step. It runs with the
    current models and services (a data migration would have only the historical models, and
    could not rescore the games and their ratings through the one write path), once the schema has
    the length; a database where nothing is left to do costs one query."""
    if using != DEFAULT_DB_ALIAS or apps is None:
        return
    try:
        apps.get_model("scoring", "Game")._meta.get_field("deals")
        apps.get_model("nights", "NightTable")
    except (LookupError, FieldDoesNotExist):  # migrated back to before games had a length
        return
    from nights.management.commands.finish_rounds_of_hands import describe
    from nights.services import finish_rounds_of_hands

    out = stdout or sys.stdout
    for item in finish_rounds_of_hands():
        if verbosity:
            out.write(f"  Club night game given its length: {describe(item)}\n")


class NightsConfig(AppConfig):
    name = "nights"
    verbose_name = _("Club nights")

    def ready(self) -> None:
        post_migrate.connect(finish_rounds_after_migrate, sender=self, dispatch_uid="nights.finish_rounds")
        from nights import receivers  # noqa: F401  (connects the receivers of clubs' and scoring's signals)
