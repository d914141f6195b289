"""Nothing a club made can be left out of a backup unseen: every model of the project's apps (and
the accounts and groups) is held by an app's part of the backup or listed by it as derived, with
the reason; the models a part writes by hand have every field accounted for; and the parts come in
an order where each one's rows point only at rows restored before them."""

from __future__ import annotations

from pathlib import Path

from django.apps import apps
from django.conf import settings

from backups import parts
from league import backup as league_backup
from league.backup.write import game_columns
from scoring.models import Game

ALSO_KEPT = {
    "auth.User",
    "auth.Group",
    "auth.User_groups",
    "auth.User_user_permissions",
    "auth.Group_permissions",
}


def _project_models() -> set[str]:
    base = Path(settings.BASE_DIR).resolve()
    return {
        model._meta.label
        for model in apps.get_models(include_auto_created=True)
        if Path(model._meta.app_config.path).resolve().parent == base
    } | ALSO_KEPT


def test_every_model_of_the_apps_is_in_a_backup_or_listed_as_derived_with_its_reason():
    held = [label for _app, part in parts.found() for label in part.holds]
    derived = {label: why for _app, part in parts.found() for label, why in part.derived.items()}
    assert len(held) == len(set(held)), "a model is held by two parts"
    missing = sorted(_project_models() - set(held) - set(derived))
    assert not missing, (
        f"not in any app's backup part nor listed as derived: {missing}; add it to its app's backup.py"
    )
    assert not set(held) & set(derived), "a model is both held and derived"
    assert all(why.strip() for why in derived.values()), "every derived table says why"
    unknown = sorted(
        (set(held) | set(derived)) - {m._meta.label for m in apps.get_models(include_auto_created=True)}
    )
    assert not unknown, f"a backup part names a model that does not exist: {unknown}"


def test_the_parts_of_the_apps_that_have_models_are_found_in_the_order_of_installed_apps():
    found = [app for app, _part in parts.found()]
    assert {"league", "nights", "ledger", "ratings"} <= set(found)
    order = [config.label for config in apps.get_app_configs()]
    assert found == sorted(found, key=order.index)


# Relations no backed-up row ever fills: a backup holds only visible games, and a game is visible
# once its import has ended (`pending_import` None), so the import batches it points at while
# hidden need not be restored.
EMPTY_IN_EVERY_BACKUP = {"scoring.Game.pending_import"}


def test_each_part_points_only_at_rows_of_its_own_or_an_earlier_part():
    assert "pending_import" in league_backup.GAME_FIELDS_DERIVED  # the backup leaves it out
    restored_before = {"auth.Permission", "contenttypes.ContentType"}  # made by migrate, named in the file
    for app, part in parts.found():
        restored_before |= set(part.holds)
        for label in part.holds:
            for field in apps.get_model(label)._meta.concrete_fields:
                if field.is_relation and f"{label}.{field.name}" not in EMPTY_IN_EVERY_BACKUP:
                    target = field.related_model._meta.label
                    assert target in restored_before, (
                        f"{app}: {label}.{field.name} points at {target}, not restored yet"
                    )


def test_every_field_of_the_models_the_league_part_writes_by_hand_is_written_or_rebuilt():
    for label, written in league_backup.FIELDS_WRITTEN.items():
        fields = {field.name for field in apps.get_model(label)._meta.concrete_fields}
        assert fields <= written, f"{label}: {sorted(fields - written)} not in its backup (league/backup/)"
    by_hand = set(league_backup.FIELDS_WRITTEN) | {"scoring.Game"}
    tables = {label for label in league_backup.PART.holds if "_" not in label.split(".")[1]}
    assert tables == by_hand, "a model of the league's part has no list of the fields it writes"


def test_every_field_of_a_game_is_in_the_record_by_name_in_its_columns_or_rebuilt():
    columns = {field.name for field in game_columns()}
    every = {field.name for field in Game._meta.concrete_fields}
    assert "meld_mode" in columns
    assert every == columns | league_backup.GAME_FIELDS_BY_NAME | set(league_backup.GAME_FIELDS_DERIVED)
