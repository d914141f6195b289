from django.urls import path

from league.views import files, records, roles

app_name = "league"
urlpatterns = [
    path("", records.index, name="index"),
    path("clubs/<id:club_id>/", records.club, name="club"),
    path("clubs/<id:club_id>/roles/", roles.club_roles, name="roles"),
    path("seasons/<id:season_id>/", records.season, name="season"),
    path("seasons/<id:season_id>/publish", records.publish_season, name="publish"),
    path("results/<slug:publish_code>/", records.season_results, name="results"),
    path("players/<id:player_id>/", records.player, name="player"),
    path("players/<id:player_id>/merge", records.merge_player, name="merge"),
    path("export/games.csv", files.export_csv, {"which": "games"}, name="export_games"),
    path("export/hands.csv", files.export_csv, {"which": "hands"}, name="export_hands"),
    path("import/", files.import_games, name="import"),
    path("import/<id:batch_id>/", files.import_status, name="import_status"),
]
