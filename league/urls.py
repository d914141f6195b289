from django.urls import path

import clubs.ids  # noqa: F401 (registers the <id:...> path converter used below)
from league import views

app_name = "league"
urlpatterns = [
    path("", views.index, name="index"),
    path("clubs/<id:club_id>/", views.club, name="club"),
    path("clubs/<id:club_id>/roles/", views.club_roles, name="roles"),
    path("seasons/<id:season_id>/", views.season, name="season"),
    path("seasons/<id:season_id>/publish", views.publish_season, name="publish"),
    path("results/<str:publish_code>/", views.season_results, name="results"),
    path("players/<id:player_id>/", views.player, name="player"),
    path("players/<id:player_id>/merge", views.merge_player, name="merge"),
    path("export/games.csv", views.export_csv, {"which": "games"}, name="export_games"),
    path("export/hands.csv", views.export_csv, {"which": "hands"}, name="export_hands"),
    path("import/", views.import_games, name="import"),
    path("import/<id:batch_id>/", views.import_status, name="import_status"),
]
