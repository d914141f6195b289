"""The table's pages. Mounted at the site root: the games list is the home page, a game's pages
all live under /g/<code>/ (its read-only share link under /s/<share_code>/), and pages about many
games under /games/."""

from django.urls import path

from scoring.views import details, game, hands, settings_page, sharing, table_view

app_name = "scoring"


urlpatterns = [
    path("", game.game_list, name="game_list"),
    path("games/new", game.game_new, name="game_new"),
    # One game: the scoreboard and entry form, hands, corrections, filing, settings, handing over.
    path("g/<str:code>/", game.game_page, name="game"),
    path("g/<str:code>/live", game.game_live, name="game_live"),
    path("g/<str:code>/hands", hands.hand_save, name="hand_save"),
    path("g/<str:code>/preview", hands.hand_preview, name="hand_preview"),
    path("g/<str:code>/hands/<id:number>/", hands.hand_edit, name="hand_edit"),
    path("g/<str:code>/hands/<id:number>/preview", hands.hand_preview, name="hand_edit_preview"),
    path("g/<str:code>/hands/last/delete", hands.hand_delete_last, name="hand_delete_last"),
    path("g/<str:code>/table/", table_view.game_table, name="game_table"),
    path("g/<str:code>/history/", details.game_history, name="game_history"),
    path("g/<str:code>/details/", details.game_details, name="game_details"),
    path("g/<str:code>/settings/", settings_page.game_settings_page, name="game_settings"),
    path("g/<str:code>/hand-over/", sharing.hand_over, name="game_hand_over"),
    path("g/<str:code>/take-over/<str:token>/", sharing.take_over, name="game_take_over"),
    path("g/<str:code>/recover", sharing.recover, name="game_recover"),
    # Read-only share links (already handed out: these paths stay).
    path("s/<str:share_code>/", game.shared_game, name="game_shared"),
    path("s/<str:share_code>/live", game.shared_live, name="game_shared_live"),
    path("s/<str:share_code>/table/", table_view.shared_table, name="game_shared_table"),
    path("s/<str:share_code>/recover", sharing.recover, name="game_shared_recover"),
    # A club's corrections trail: the club's games, seen by its organisers.
    path("games/clubs/<id:club_id>/corrections/", details.club_corrections_page, name="club_corrections"),
]
