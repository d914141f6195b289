"""Every address of the admin, enumerated from `admin.site.get_urls()` and the registered models
(clubs/tests/test_admin_scope.py checks no admin page is left out), for the tests that check who
gets anything from the admin."""

from __future__ import annotations

import uuid

from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.db.models import Model, UUIDField
from django.urls import URLPattern, URLResolver, reverse


def unchecked_admin_url_names() -> set[str]:
    """The admin's URL names that `admin_urls_by_name` does not fill in (log-in and log-out aside)."""
    return admin_url_names(admin.site.get_urls()) - set(admin_urls_by_name()) - {"login", "logout"}


def registered_models() -> list[type[Model]]:
    return [model for model in apps.get_models() if admin.site.is_registered(model)]


def admin_url_names(patterns: list[URLPattern | URLResolver]) -> set[str]:
    names: set[str] = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            names |= admin_url_names(pattern.url_patterns)
        elif pattern.name:
            names.add(pattern.name)
    return names


def admin_urls_by_name() -> dict[str, list[str]]:
    """Every named admin address, by URL name, with real ids: each registered model's list, add,
    change, delete and history pages (and the account's password page), each app's list, the
    index, the autocomplete, the JavaScript catalogue and the "view on site" redirect."""
    urls: dict[str, list[str]] = {
        "index": [reverse("admin:index")],
        "app_list": [],
        "autocomplete": [
            reverse("admin:autocomplete") + "?app_label=clubs&model_name=membership&field_name=player"
        ],
        "jsi18n": [reverse("admin:jsi18n")],
        "password_change": [reverse("admin:password_change")],
        "password_change_done": [reverse("admin:password_change_done")],
        "view_on_site": [],
    }
    for model in registered_models():
        meta = model._meta
        urls["app_list"].append(reverse("admin:app_list", args=[meta.app_label]))
        prefix = f"{meta.app_label}_{meta.model_name}"
        urls.setdefault(f"{prefix}_changelist", []).append(reverse(f"admin:{prefix}_changelist"))
        urls.setdefault(f"{prefix}_add", []).append(reverse(f"admin:{prefix}_add"))
        obj = model._default_manager.order_by("pk").first()
        # None stored (the task queue's results): an id of the key's type that names nothing.
        missing = str(uuid.UUID(int=0)) if isinstance(meta.pk, UUIDField) else "0"
        object_id = str(obj.pk) if obj is not None else missing
        for page in ("change", "delete", "history"):
            urls.setdefault(f"{prefix}_{page}", []).append(
                reverse(f"admin:{prefix}_{page}", args=[object_id])
            )
        if model is User:
            urls["auth_user_password_change"] = [reverse("admin:auth_user_password_change", args=[object_id])]
        content_type = ContentType.objects.get_for_model(model).pk
        urls["view_on_site"].append(reverse("admin:view_on_site", args=[content_type, object_id]))
    return urls


def every_admin_url() -> list[str]:
    """Every admin address, with the stored records' ids (at least one row of each model, or an
    id that names nothing)."""
    return sorted({url for urls in admin_urls_by_name().values() for url in urls})
