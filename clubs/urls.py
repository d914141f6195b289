"""Organiser pages, mounted at /clubs/ (a club's records and standings stay under /league/)."""

from django.urls import path

import clubs.ids  # noqa: F401 (registers the <id:...> path converter used below)
from clubs import views

app_name = "clubs"
urlpatterns = [
    path("", views.index, name="index"),
    path("new", views.create, name="create"),
    path("join/<str:token>/", views.invite, name="invite"),
    path("<id:club_id>/roster/", views.roster_page, name="roster"),
    path("<id:club_id>/roster/add", views.player_add, name="player_add"),
    path("<id:club_id>/roster/add-list", views.players_add, name="players_add"),
    path("<id:club_id>/players/<id:player_id>/", views.player_page, name="player"),
    path("<id:club_id>/players/<id:player_id>/rename", views.player_rename, name="player_rename"),
    path("<id:club_id>/players/<id:player_id>/retire", views.player_retire, name="player_retire"),
    path("<id:club_id>/players/<id:player_id>/invite", views.player_invite, name="player_invite"),
    path("<id:club_id>/players/<id:player_id>/merge", views.player_merge, name="player_merge"),
    path("<id:club_id>/seasons/", views.seasons, name="seasons"),
    path("<id:club_id>/seasons/<id:season_id>/", views.season_edit, name="season_edit"),
    path("<id:club_id>/seasons/<id:season_id>/close", views.season_close, name="season_close"),
]
