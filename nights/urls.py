"""The night pages, mounted at /nights/."""

from django.urls import path

import clubs.ids  # noqa: F401 (registers the <id:...> path converter used below)
from nights import views

app_name = "nights"
urlpatterns = [
    path("clubs/<id:club_id>/", views.club_nights, name="club_nights"),
    path("clubs/<id:club_id>/new", views.night_new, name="new"),
    path("<id:night_id>/", views.night_page, name="night"),
    path("<id:night_id>/check-in/<id:player_id>", views.check_in, name="check_in"),
    path("<id:night_id>/newcomer", views.newcomer, name="newcomer"),
    path("<id:night_id>/draw", views.draw, name="draw"),
    path("<id:night_id>/swap", views.swap, name="swap"),
    path("<id:night_id>/late", views.late_arrival, name="late"),
    path("<id:night_id>/leave", views.leave, name="leave"),
    path("<id:night_id>/rounds/<id:round_no>/start", views.round_start, name="round_start"),
    path("<id:night_id>/rounds/<id:round_no>/cards", views.table_cards, name="cards"),
    path("<id:night_id>/plan", views.wall_plan, name="wall"),
    path("<id:night_id>/standings/", views.standings, name="standings"),
    path("<id:night_id>/standings/live", views.standings_live, name="standings_live"),
    path("<id:night_id>/finish", views.finish, name="finish"),
    path("<id:night_id>/remove", views.remove, name="remove"),
    # A table's link (its QR code): whoever holds it scores that table's game.
    path("t/<str:token>/", views.table, name="table"),
    # A published season's nights, for anyone with the season's results link.
    path("results/<str:publish_code>/<id:night_id>/", views.published_standings, name="published"),
    path("results/<str:publish_code>/<id:night_id>/live", views.published_live, name="published_live"),
]
