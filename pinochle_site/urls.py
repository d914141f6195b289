"""The site's URL tree: one prefix per app.

/admin/      Django's admin (clubs, seasons, players, games; for site superusers only)
/accounts/   accounts: sign-up, log-in, log-out, passwords
/clubs/      clubs: your clubs, creating one, roster, invites, seasons (organiser pages)
/league/     league: club pages, standings, players, published results, export and import
/nights/     nights: club nights (check-in, the plan of tables and rounds, table cards, standings)
/ledger/     ledger: a club night's settlement, a season's balances, a player's monthly statement
/            scoring: the games list, /games/new, /g/<code>/… (one game), /s/<share_code>/…
             (read-only share links), /games/clubs/<id>/corrections/ (a club's games)
/rules/      the rules page (numbers from scoring's engine, ratings and nights)
/display     large text and high contrast on this phone (a cookie), then back to the page
/healthz     liveness check
/sw.js       the service worker (offline copies of the app and of opened games)
"""

from django.contrib import admin
from django.urls import include, path, register_converter

from clubs.ids import IdConverter
from pinochle_site import display, views

# `<id:name>` in every app's paths: plain digits a database can hold (clubs.ids.IdConverter).
# Registered before the apps' URL modules below are read.
register_converter(IdConverter, "id")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("display", display.display_set, name="display"),
    path("healthz", views.healthz, name="healthz"),
    # The service worker lives at the root so it may keep every page for offline use (templates/sw.js).
    path("sw.js", views.service_worker, name="service_worker"),
    # The rules page states numbers owned by scoring, ratings and nights, so it lives above the apps.
    path("rules/", views.rules_help, name="rules_help"),
    path("accounts/", include("accounts.urls")),
    path("clubs/", include("clubs.urls")),
    path("league/", include("league.urls")),
    path("nights/", include("nights.urls")),
    path("ledger/", include("ledger.urls")),
    path("", include("scoring.urls")),
]
