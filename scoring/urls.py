from django.urls import include, path

from scoring import views

urlpatterns = [
    path("", views.game_list, name="game_list"),
    path("healthz", views.healthz, name="healthz"),
    path("games/new", views.game_new, name="game_new"),
    path("g/<str:code>/", views.game_page, name="game"),
    path("g/<str:code>/live", views.game_live, name="game_live"),
    path("s/<str:share_code>/", views.shared_game, name="game_shared"),
    path("s/<str:share_code>/live", views.shared_live, name="game_shared_live"),
    path("g/<str:code>/hands", views.hand_save, name="hand_save"),
    path("g/<str:code>/preview", views.hand_preview, name="hand_preview"),
    path("g/<str:code>/hands/<int:number>/", views.hand_edit, name="hand_edit"),
    path("g/<str:code>/hands/<int:number>/preview", views.hand_preview, name="hand_edit_preview"),
    path("g/<str:code>/hands/last/delete", views.hand_delete_last, name="hand_delete_last"),
    path("league/", include("scoring.league_urls")),
]
