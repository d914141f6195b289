"""Organiser pages, mounted at /clubs/ (a club's records and standings stay under /league/)."""

from django.urls import path

from clubs.views import club, invites, players, roster, seasons

app_name = "clubs"
urlpatterns = [
    path("", club.index, name="index"),
    path("new", club.create, name="create"),
    path("join/<slug:token>/", invites.invite, name="invite"),
    path("<id:club_id>/settings/", club.club_settings, name="settings"),
    path("<id:club_id>/roster/", roster.roster_page, name="roster"),
    path("<id:club_id>/roster/add", roster.player_add, name="player_add"),
    path("<id:club_id>/roster/add-list", roster.players_add, name="players_add"),
    path("<id:club_id>/players/<id:player_id>/", players.player_page, name="player"),
    path("<id:club_id>/players/<id:player_id>/rename", players.player_rename, name="player_rename"),
    path("<id:club_id>/players/<id:player_id>/retire", players.player_retire, name="player_retire"),
    path("<id:club_id>/players/<id:player_id>/invite", players.player_invite, name="player_invite"),
    path("<id:club_id>/players/<id:player_id>/merge", players.player_merge, name="player_merge"),
    path("<id:club_id>/seasons/", seasons.seasons, name="seasons"),
    path("<id:club_id>/seasons/<id:season_id>/", seasons.season_edit, name="season_edit"),
    path("<id:club_id>/seasons/<id:season_id>/close", seasons.season_close, name="season_close"),
]
