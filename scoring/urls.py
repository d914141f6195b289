"""The table's pages. Mounted at the site root: the games list is the home page, a game's pages
all live under /g/<code>/ (its read-only share link under /s/<share_code>/), and pages about many
games under /games/."""

from django.urls import path

from scoring.views import confirm, details, game, hands, settings_page, sharing, table_view

app_name = "scoring"


urlpatterns = [
    path("", game.game_list, name="game_list"),
    path("games/new", game.game_new, name="game_new"),
    # One game: the scoreboard and entry form, hands, corrections, filing, settings, handing over.
    path("g/<slug:code>/", game.game_page, name="game"),
    path("g/<slug:code>/live", game.game_live, name="game_live"),
    path("g/<slug:code>/hands", hands.hand_save, name="hand_save"),
    path("g/<slug:code>/preview", hands.hand_preview, name="hand_preview"),
    path("g/<slug:code>/hands/<id:number>/", hands.hand_edit, name="hand_edit"),
    path("g/<slug:code>/hands/<id:number>/preview", hands.hand_preview, name="hand_edit_preview"),
    path("g/<slug:code>/hands/<id:number>/confirm", confirm.hand_confirm, name="hand_confirm"),
    path("g/<slug:code>/hands/<id:number>/not-right", confirm.hand_not_right, name="hand_not_right"),
    path("g/<slug:code>/sign", confirm.game_sign, name="game_sign"),
    path("g/<slug:code>/hands/last/delete", hands.hand_delete_last, name="hand_delete_last"),
    path("g/<slug:code>/table/", table_view.game_table, name="game_table"),
    path("g/<slug:code>/history/", details.game_history, name="game_history"),
    path("g/<slug:code>/details/", details.game_details, name="game_details"),
    path("g/<slug:code>/settings/", settings_page.game_settings_page, name="game_settings"),
    path("g/<slug:code>/hand-over/", sharing.hand_over, name="game_hand_over"),
    path("g/<slug:code>/take-over/<slug:token>/", sharing.take_over, name="game_take_over"),
    path("g/<slug:code>/recover", sharing.recover, name="game_recover"),
    # Read-only share links (already handed out: these paths stay).
    path("s/<slug:share_code>/", game.shared_game, name="game_shared"),
    path("s/<slug:share_code>/live", game.shared_live, name="game_shared_live"),
    path("s/<slug:share_code>/table/", table_view.shared_table, name="game_shared_table"),
    path("s/<slug:share_code>/recover", sharing.recover, name="game_shared_recover"),
    # A club's corrections trail: the club's games, seen by its organisers.
    path("games/clubs/<id:club_id>/corrections/", details.club_corrections_page, name="club_corrections"),
]
