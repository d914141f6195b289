"""Django's admin with the site's own admin site (Django's "overriding the default admin site")."""

from django.contrib.admin.apps import AdminConfig


class LimitedAdminConfig(AdminConfig):
    """`django.contrib.admin`, whose `admin.site` is `accounts.lockout.LimitedAdminSite`: its log-in
    answers like the site's once the login limits refuse an attempt."""

    default_site = "accounts.lockout.LimitedAdminSite"
