"""Nothing a club made can be left out of a backup unseen: every model of every app of the project
(an app added later included) and the accounts, groups and their links are in `backup`'s dump;
only the site state named in `LEFT_OUT` is not, each for its reason (league/management/commands/
backup.py). The rows themselves are compared after a round trip in
league/tests/test_backup_round_trip.py."""

from pathlib import Path

from django.apps import apps
from django.conf import settings

from league.management.commands.backup import LEFT_OUT, kept_models


def test_every_model_of_every_app_of_the_project_is_in_a_backup():
    base = Path(settings.BASE_DIR).resolve()
    ours = [config for config in apps.get_app_configs() if Path(config.path).resolve().parent == base]
    assert {config.label for config in ours} >= {"accounts", "clubs", "scoring", "league", "nights", "ledger"}
    kept = {model._meta.label for model in kept_models()}
    missing = [
        model._meta.label
        for config in ours
        if config.label != "throttles"  # transient counts of recent attempts
        for model in config.get_models(include_auto_created=True)
        if model._meta.label not in kept and model._meta.label not in LEFT_OUT
    ]
    assert not missing, f"not in a backup: {missing}"
    assert {"auth.User", "auth.Group", "auth.User_groups", "auth.User_user_permissions"} <= kept
    assert "auth.Group_permissions" in kept


#: What a backup leaves out, each for its reason.
LEFT_OUT_BECAUSE = {
    "contenttypes": "migrate makes them; the file names them by their natural keys",
    "auth.Permission": "migrate makes them; the file names them by their natural keys",
    "sessions": "a backup must not carry live sign-ins; everyone signs in again",
    "throttles": "counts of recent attempts, forgotten within minutes",
    # A restored task waiting its turn would be run by the worker with the file's arguments.
    "django_tasks_database": "the task queue",
    # An upload waiting to be imported: restore ends the import it belonged to as stopped.
    "league.ImportFile": "a waiting upload",
}


def test_only_what_migrate_makes_and_the_site_state_is_left_out():
    assert set(LEFT_OUT) == set(LEFT_OUT_BECAUSE)
    kept = {model._meta.label for model in kept_models()}
    left_out = {"auth.Permission", "contenttypes.ContentType", "sessions.Session", "throttles.Count"}
    assert not kept & (left_out | {"django_tasks_database.DBTaskResult", "league.ImportFile"})
    assert {"admin.LogEntry", "league.ImportBatch"} <= kept
