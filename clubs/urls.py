"""Organiser pages, mounted at /clubs/ (a club's records and standings stay under /league/)."""

from django.urls import path
from django.views.generic import RedirectView

from clubs import views

app_name = "clubs"
urlpatterns = [
    path("", views.index, name="index"),
    path("new", views.create, name="create"),
    path("join/<str:token>/", views.invite, name="invite"),
    path("<int:club_id>/roster/", views.roster_page, name="roster"),
    path("<int:club_id>/roster/add", views.player_add, name="player_add"),
    path("<int:club_id>/roster/add-list", views.players_add, name="players_add"),
    path("<int:club_id>/players/<int:player_id>/", views.player_page, name="player"),
    path("<int:club_id>/players/<int:player_id>/rename", views.player_rename, name="player_rename"),
    path("<int:club_id>/players/<int:player_id>/retire", views.player_retire, name="player_retire"),
    path("<int:club_id>/players/<int:player_id>/invite", views.player_invite, name="player_invite"),
    path("<int:club_id>/players/<int:player_id>/merge", views.player_merge, name="player_merge"),
    path("<int:club_id>/seasons/", views.seasons, name="seasons"),
    path("<int:club_id>/seasons/<int:season_id>/", views.season_edit, name="season_edit"),
    path("<int:club_id>/seasons/<int:season_id>/close", views.season_close, name="season_close"),
    # The club's corrections trail is a page of its games (scoring): where it used to be.
    path(
        "<int:club_id>/corrections/",
        RedirectView.as_view(pattern_name="scoring:club_corrections", permanent=True, query_string=True),
    ),
]
