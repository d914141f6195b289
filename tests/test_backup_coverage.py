"""Nothing a club made can be left out of a backup unseen: every model of the project's apps (and
the accounts and groups) is held by an app's part of the backup or listed by it as derived, with
the reason; each app's part holds and writes only its own app's rows; and the parts come in an
order where each one's rows point only at rows restored before them."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings

from backups import parts
from league.backup.whole import dump
from league.models import ImportBatch, PendingGame
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


def test_each_part_points_only_at_rows_of_its_own_or_an_earlier_part():
    restored_before = {"auth.Permission", "contenttypes.ContentType"}  # made by migrate, named in the file
    for app, part in parts.found():
        restored_before |= set(part.holds)
        for label in part.holds:
            for field in apps.get_model(label)._meta.concrete_fields:
                if field.is_relation:
                    target = field.related_model._meta.label
                    assert target in restored_before, (
                        f"{app}: {label}.{field.name} points at {target}, not restored yet"
                    )


def test_each_part_holds_only_the_models_of_its_own_app():
    """Each app backs up and restores its own rows; the accounts' part holds the accounts (auth)."""
    for app, part in parts.found():
        for label in [*part.holds, *part.derived]:
            owner = label.split(".")[0]
            assert owner == app or (app == "accounts" and owner == "auth"), f"{app}'s part names {label}"


@pytest.mark.django_db
def test_each_part_writes_only_its_own_key_and_a_game_being_imported_is_left_out():
    batch = ImportBatch.objects.create(file_name="games.json", status=ImportBatch.Status.WRITING)
    done = ImportBatch.objects.create(file_name="done.json", status=ImportBatch.Status.DONE)
    hidden = Game.all_objects.create(hidden=True)
    PendingGame.objects.create(batch=batch, game=hidden)
    shown = Game.all_objects.create()
    for app, part in parts.found():
        if part.dump is not None:
            assert set(part.dump()) == {app}
    data = dump()
    assert [row["id"] for row in data["scoring"]["Game"]] == [shown.pk] != [hidden.pk]
    assert [row["id"] for row in data["league"]["ImportBatch"]] == [done.pk]
