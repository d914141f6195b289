"""The night pages, mounted at /nights/."""

from django.urls import path

from nights import views

app_name = "nights"
urlpatterns = [
    path("clubs/<int:club_id>/", views.club_nights, name="club_nights"),
    path("clubs/<int:club_id>/new", views.night_new, name="new"),
    path("<int:night_id>/", views.night_page, name="night"),
    path("<int:night_id>/check-in/<int:player_id>", views.check_in, name="check_in"),
    path("<int:night_id>/newcomer", views.newcomer, name="newcomer"),
    path("<int:night_id>/draw", views.draw, name="draw"),
    path("<int:night_id>/swap", views.swap, name="swap"),
    path("<int:night_id>/late", views.late_arrival, name="late"),
    path("<int:night_id>/leave", views.leave, name="leave"),
    path("<int:night_id>/rounds/<int:round_no>/start", views.round_start, name="round_start"),
    path("<int:night_id>/rounds/<int:round_no>/cards", views.table_cards, name="cards"),
    path("<int:night_id>/plan", views.wall_plan, name="wall"),
    path("<int:night_id>/standings/", views.standings, name="standings"),
    path("<int:night_id>/standings/live", views.standings_live, name="standings_live"),
    path("<int:night_id>/finish", views.finish, name="finish"),
    path("<int:night_id>/remove", views.remove, name="remove"),
    # A table's link (its QR code): whoever holds it scores that table's game.
    path("t/<str:token>/", views.table, name="table"),
    # A published season's nights, for anyone with the season's results link.
    path("results/<str:publish_code>/<int:night_id>/", views.published_standings, name="published"),
    path("results/<str:publish_code>/<int:night_id>/live", views.published_live, name="published_live"),
]
