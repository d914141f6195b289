from django.urls import path

from scoring import league_views

app_name = "league"
urlpatterns = [
    path("", league_views.index, name="index"),
    path("clubs/<int:club_id>/", league_views.club, name="club"),
    path("clubs/<int:club_id>/roles/", league_views.club_roles, name="roles"),
    path("seasons/<int:season_id>/", league_views.season, name="season"),
    path("seasons/<int:season_id>/publish", league_views.publish_season, name="publish"),
    path("results/<str:publish_code>/", league_views.season_results, name="results"),
    path("players/<int:player_id>/", league_views.player, name="player"),
    path("players/<int:player_id>/merge", league_views.merge_player, name="merge"),
    path("export/games.csv", league_views.export_csv, {"which": "games"}, name="export_games"),
    path("export/hands.csv", league_views.export_csv, {"which": "hands"}, name="export_hands"),
    path("import/", league_views.import_games, name="import"),
    path("games/<str:code>/", league_views.game, name="game"),
]
