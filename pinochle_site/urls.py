from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("scoring.account_urls")),
    path("", include("scoring.access_urls")),
    path("", include("scoring.urls")),
    path("", include("scoring.help_urls")),
]
