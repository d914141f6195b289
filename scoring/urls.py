"""The table's pages. Mounted at the site root: the games list is the home page, a game's pages
all live under /g/<code>/ (its read-only share link under /s/<share_code>/), and pages about many
games under /games/."""

from django.urls import path

import clubs.ids  # noqa: F401 (registers the <id:...> path converter used below)
from scoring import views

app_name = "scoring"


urlpatterns = [
    path("", views.game_list, name="game_list"),
    path("games/new", views.game_new, name="game_new"),
    path("rules/", views.rules_help, name="rules_help"),
    # One game: the scoreboard and entry form, hands, corrections, filing, settings, handing over.
    path("g/<str:code>/", views.game_page, name="game"),
    path("g/<str:code>/live", views.game_live, name="game_live"),
    path("g/<str:code>/hands", views.hand_save, name="hand_save"),
    path("g/<str:code>/preview", views.hand_preview, name="hand_preview"),
    path("g/<str:code>/hands/<id:number>/", views.hand_edit, name="hand_edit"),
    path("g/<str:code>/hands/<id:number>/preview", views.hand_preview, name="hand_edit_preview"),
    path("g/<str:code>/hands/last/delete", views.hand_delete_last, name="hand_delete_last"),
    path("g/<str:code>/table/", views.game_table, name="game_table"),
    path("g/<str:code>/history/", views.game_history, name="game_history"),
    path("g/<str:code>/details/", views.game_details, name="game_details"),
    path("g/<str:code>/settings/", views.game_settings_page, name="game_settings"),
    path("g/<str:code>/hand-over/", views.hand_over, name="game_hand_over"),
    path("g/<str:code>/take-over/<str:token>/", views.take_over, name="game_take_over"),
    path("g/<str:code>/recover", views.recover, name="game_recover"),
    # Read-only share links (already handed out: these paths stay).
    path("s/<str:share_code>/", views.shared_game, name="game_shared"),
    path("s/<str:share_code>/live", views.shared_live, name="game_shared_live"),
    path("s/<str:share_code>/table/", views.shared_table, name="game_shared_table"),
    path("s/<str:share_code>/recover", views.recover, name="game_shared_recover"),
    # A club's corrections trail: the club's games, seen by its organisers.
    path("games/clubs/<id:club_id>/corrections/", views.club_corrections_page, name="club_corrections"),
]
