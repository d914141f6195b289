"""Accounts and groups in the admin are for site staff (superusers) only.

A staff organiser may have been given model permissions for the club records; accounts, their
passwords and permissions are not club records, so only a superuser sees or changes them here
(docs/security.md, "The admin"). Club roles are given on the club's roles page.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, User
from django.http import HttpRequest


def _site_staff(request: HttpRequest) -> bool:
    # accounts sits beside clubs (it may not import clubs.permissions.is_site_admin): the same rule.
    return bool(request.user.is_authenticated and getattr(request.user, "is_superuser", False))


class SiteStaffOnly:
    def has_module_permission(self, request: HttpRequest) -> bool:
        return _site_staff(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _site_staff(request)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return _site_staff(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _site_staff(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _site_staff(request)


class StaffUserAdmin(SiteStaffOnly, UserAdmin[User]):
    pass


class StaffGroupAdmin(SiteStaffOnly, GroupAdmin):
    pass


admin.site.unregister(User)
admin.site.register(User, StaffUserAdmin)
admin.site.unregister(Group)
admin.site.register(Group, StaffGroupAdmin)
